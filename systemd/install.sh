#!/usr/bin/env bash
# Install the board companion as a systemd service on Raspberry Pi OS Bookworm
# (Pi Zero 2 W, 3, 4, 5). Run from a clone of the repository:
#
#   sudo ./systemd/install.sh              # install or update, enable, (re)start
#   sudo ./systemd/install.sh --dry-run    # print every action, change nothing
#   sudo ./systemd/install.sh --web        # ...and the spectator page (companion web)
#   sudo ./systemd/install.sh --club       # ...and the club publisher (companion publish)
#   sudo ./systemd/install.sh --club-page  # the club's machine: the club page alone
#   sudo ./systemd/install.sh --camera     # ...and the camera over the board (docs/camera.md)
#   sudo ./systemd/install.sh --uninstall  # remove it; saved games and config stay
#   sudo ./systemd/install.sh --uninstall --purge   # ...and remove those too
#   sudo I2C_BAUDRATE=100000 ./systemd/install.sh   # another I2C speed, in Hz
#
# Running it again is safe: files already right are left alone, the config file is
# never overwritten, the user and the venv are made only once, and the companion is
# reinstalled from this checkout (that is how to update).
#
# --root DIR puts every file under DIR instead of / (tests, inspecting the output).
# It does not make the commands act on DIR, except useradd, groupadd and userdel
# (given --root DIR): apt-get, systemctl, udevadm, modprobe and dtparam still act on
# this machine, so combine --root with --dry-run, or put stand-ins first on PATH as
# tests/systemd/test_install_script.py does.
set -euo pipefail

readonly APP=board-companion
readonly SERVICE=board-companion.service
readonly PREFIX=/opt/board-companion
readonly VENV=$PREFIX/venv
readonly CONF_DIR=/etc/board-companion
readonly STATE_DIR=/var/lib/board-companion
readonly UNIT_PATH=/etc/systemd/system/$SERVICE
readonly WEB_SERVICE=board-companion-web.service
readonly WEB_UNIT_PATH=/etc/systemd/system/$WEB_SERVICE
readonly CLUB_SERVICE=board-companion-publish.service
readonly CLUB_UNIT_PATH=/etc/systemd/system/$CLUB_SERVICE
readonly PAGE_SERVICE=board-companion-club.service
readonly PAGE_UNIT_PATH=/etc/systemd/system/$PAGE_SERVICE
readonly PAGE_ENV=$CONF_DIR/club.env
readonly PAGE_PASSWORD=$CONF_DIR/club-password
# What club.env says when this script writes it (the club's own broker, by the name in
# its certificate, as docs/club.md sets it up): edit it, it is never overwritten.
readonly PAGE_ARGS="--broker club.local --ca /etc/mosquitto/club/ca.pem --user club --bind 0.0.0.0"
readonly RULE_PATH=/etc/udev/rules.d/99-board-companion-shaker.rules
# --camera: a drop-in that gives the referee the camera's devices and the video group
# (systemd/board-companion-camera.conf says which and why), and the camera extra.
readonly CAMERA_DROPIN=board-companion-camera.conf
readonly CAMERA_DROPIN_PATH=/etc/systemd/system/$SERVICE.d/camera.conf
readonly MODULES_PATH=/etc/modules-load.d/board-companion.conf
readonly GROUPS_NEEDED=(gpio i2c spi dialout)
# python3-venv: the venv; python3-lgpio: gpiozero's first choice of pin library, the
# only one that works on a Pi 5, from apt where apt has it (Raspberry Pi OS: built for
# its kernel and Python); python3-pil: pulls in the image libraries that pip's Pillow
# wheel links against on 32-bit systems; i2c-tools: i2cdetect for the first-power-on
# checklist; espeak-ng and alsa-utils (aplay): speech (speech.enabled, also in the
# box's Settings), installed always: together a few MB, and speech can then be switched
# on at the table without running this script again.
readonly APT_PACKAGES=(python3-venv python3-lgpio python3-pil i2c-tools espeak-ng alsa-utils)
# python3-lgpio is in the Raspberry Pi archive only: on plain Debian (arm64) apt cannot
# locate it. There lgpio comes from PyPI into the venv instead: its cp311/cp312 aarch64
# wheels carry the liblgpio C library inside, so nothing is compiled. Wheels only: no
# other Python or machine (armv7l, cp313) has one, and this script installs no compiler.
readonly APT_LGPIO=python3-lgpio
readonly PIP_LGPIO=lgpio
# On a Pi 1-4 (Zero, Zero 2, 400, Compute Module 1-4) also RPi.GPIO, gpiozero's
# fallback there, from apt: PyPI has no wheel of it for aarch64 or armv7l and this
# script installs no compiler. It cannot share an environment with rpi-lgpio (its
# stand-in built on lgpio): when python3-rpi-lgpio is installed, it is kept instead.
readonly APT_RPI_GPIO=python3-rpi.gpio
readonly APT_RPI_LGPIO=python3-rpi-lgpio
# With --camera, on a model with a camera (CSI) connector: picamera2, the Pi camera
# module's library (Raspberry Pi archive only; it pulls in libcamera). Its compiled
# helper python3-simplejpeg is built against Bookworm's numpy 1.24 and fails to import
# under numpy 2 (picamera2 issues 1088, 1211), so pip keeps the venv's numpy below 2
# with the camera: pip then takes the newest OpenCV that takes NumPy 1 (4.11.0.86).
readonly APT_PICAMERA2=python3-picamera2
readonly PIP_CAMERA_NUMPY="numpy<2"
# The block this script owns in config.txt, between these two lines. [all] makes
# it apply to every model whatever section the file ended in.
readonly BEGIN_MARK="# >>> board-companion (install.sh; --uninstall removes this block)"
readonly END_MARK="# <<< board-companion"

# The I2C clock in Hz: 400 kHz (fast mode) is what the SSD1306 and SH1106 are rated
# for; 100 kHz if a long cable or a weak module garbles the picture.
I2C_BAUDRATE=${I2C_BAUDRATE:-400000}
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
UNINSTALL=0
PURGE=0
WEB=0
CLUB=0
CLUB_PAGE=0
CAMERA=0
START=1
REBOOT_NEEDED=0

usage() {
    cat <<EOF
Usage: $0 [--dry-run] [--root DIR] [--no-start] [--web] [--club] [--club-page]
          [--camera] [--uninstall [--purge]]

Install (or update) the board companion service from $SOURCE.

  --dry-run     print each action, change nothing
  --root DIR    write files under DIR instead of / (see the comment at the top)
  --no-start    install and enable, but do not (re)start the service now
  --web         also install and enable the read-only spectator page
                ($WEB_SERVICE: companion web, 127.0.0.1:8080 unless
                [web] in the config says otherwise); off without this flag
  --club        also install and enable the club publisher ($CLUB_SERVICE:
                companion publish, to the MQTT broker of [club] in the config;
                it publishes nothing until club.publish = true there); off
                without this flag
  --club-page   install (or update) the club page alone, on the club's machine
                ($PAGE_SERVICE: companion club; docs/club.md): the venv
                with the club extra, the unit, $PAGE_ENV (its flags)
                and $PAGE_PASSWORD (the broker password, made empty:
                write it in); not the referee. It starts once the password is
                there. A box's install updates a club page installed on it too
  --camera      also the camera over the board (docs/camera.md): OpenCV (the
                camera extra) for a USB webcam, picamera2 from apt where the
                model has a camera connector, and the drop-in
                $CAMERA_DROPIN_PATH (the camera's
                devices and the video group for the referee); off without this
                flag, kept by later installs once installed
  --uninstall   stop and remove the service, its files and the venv; saved games
                ($STATE_DIR) and the config ($CONF_DIR) are kept
  --purge       with --uninstall: also remove saved games, config and the user
EOF
}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# Run a command, printing it first; in a dry run only print it.
run() {
    say "+ $*"
    if [[ $DRY_RUN -eq 0 ]]; then
        "$@"
    fi
}

# Arguments that make useradd/groupadd/userdel act on --root.
root_args() {
    if [[ -n $ROOT ]]; then
        printf '%s\n' --root "$ROOT"
    fi
}

# install_file SRC DEST MODE: copy unless DEST already has the same content.
install_file() {
    local src=$1 dest=$ROOT$2 mode=$3
    if [[ -f $dest ]] && cmp -s "$src" "$dest"; then
        say "unchanged $dest"
        return 0
    fi
    say "write $dest"
    if [[ $DRY_RUN -eq 0 ]]; then
        install -D -m "$mode" "$src" "$dest"
    fi
}

remove_path() {
    local path=$ROOT$1
    if [[ -e $path || -L $path ]]; then
        say "remove $path"
        if [[ $DRY_RUN -eq 0 ]]; then
            rm -rf -- "$path"
        fi
    fi
}

boot_config() {
    local candidate
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [[ -f $ROOT$candidate ]]; then
            printf '%s\n' "$ROOT$candidate"
            return 0
        fi
    done
    return 1
}

# config.txt without this script's block.
strip_block() {
    awk -v begin="$BEGIN_MARK" -v end="$END_MARK" '
        $0 == begin { skipping = 1; next }
        $0 == end   { skipping = 0; next }
        !skipping   { print }
    ' "$1"
}

# replace_file DEST NEWFILE: put NEWFILE's content at DEST if it differs; 0 if changed.
replace_file() {
    local dest=$1 new=$2
    if cmp -s "$new" "$dest"; then
        say "unchanged $dest"
        return 1
    fi
    say "write $dest (the old one kept as $dest.board-companion.bak)"
    if [[ $DRY_RUN -eq 0 ]]; then
        # A new file renamed over the old one: a power cut leaves the old or the new
        # config.txt, never half of one (the Pi would not boot).
        cp -- "$dest" "$dest.board-companion.bak"
        cp -- "$new" "$dest.board-companion.new"
        sync
        mv -- "$dest.board-companion.new" "$dest"
    fi
    return 0
}

enable_i2c() {
    local config new
    if ! config=$(boot_config); then
        say "warning: no /boot/firmware/config.txt: enable I2C with raspi-config (Interface Options)"
        return 0
    fi
    new=$(mktemp)
    {
        strip_block "$config"
        say "$BEGIN_MARK"
        say "[all]"
        say "dtparam=i2c_arm=on"
        say "# I2C clock in Hz; at 400 kHz an OLED frame takes ~23 ms, at 100 kHz ~93 ms"
        say "dtparam=i2c_arm_baudrate=$I2C_BAUDRATE"
        say "$END_MARK"
    } >"$new"
    if replace_file "$config" "$new"; then
        REBOOT_NEEDED=1
    fi
    rm -f -- "$new"
    # I2C on now, without a reboot (as raspi-config does); the speed needs the reboot.
    if [[ ! -e $ROOT/dev/i2c-1 ]]; then
        run dtparam i2c_arm=on || say "warning: dtparam failed: I2C comes on at the next boot"
    fi
}

disable_i2c_block() {
    local config new
    config=$(boot_config) || return 0
    new=$(mktemp)
    strip_block "$config" >"$new"
    replace_file "$config" "$new" || true
    rm -f -- "$new"
}

# The model string of this Pi (/proc/device-tree/model, under --root), or nothing.
pi_model() {
    if [[ -r $ROOT/proc/device-tree/model ]]; then
        tr -d '\0' <"$ROOT/proc/device-tree/model"
    fi
}

# The pin library family of MODEL: "rp1" (Pi 5, Pi 500, Compute Module 5: lgpio only),
# "bcm" (Pi 1-4, Zero, Zero 2, 400, Compute Module 1-4: RPi.GPIO works too) or
# "unknown" (not a Pi, or a model newer than this script: lgpio only).
pin_family() {
    case $1 in
        "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) echo rp1 ;;
        "Raspberry Pi "[1234]* | "Raspberry Pi Model "* | "Raspberry Pi Zero"* | \
            "Raspberry Pi Compute Module "[1234]* | "Raspberry Pi Compute Module Rev"*) echo bcm ;;
        *) echo unknown ;;
    esac
}

# Whether MODEL has a camera (CSI) connector: every Pi this script knows but the
# keyboard ones (400, 500) and the first Zero (Rev 1.2); a Compute Module's is on its
# IO board. Not a known Pi: no (a USB webcam still works there).
camera_connector() {
    case $1 in
        "Raspberry Pi 400"* | "Raspberry Pi 500"* | "Raspberry Pi Zero Rev 1.2"*) return 1 ;;
    esac
    [[ $(pin_family "$1") != unknown ]]
}

# Whether the camera is wanted: --camera, or its drop-in installed before.
camera_wanted() {
    [[ $CAMERA -eq 1 || -e $ROOT$CAMERA_DROPIN_PATH ]]
}

# apt_installed NAME: dpkg lists NAME as installed (read from its status file, so it
# works under --root and in a dry run).
apt_installed() {
    local status=$ROOT/var/lib/dpkg/status
    [[ -f $status ]] && awk -v pkg="$1" '
        /^Package: / { name = $2 }
        /^Status: / && name == pkg && / installed$/ { found = 1 }
        END { exit !found }' "$status"
}

# apt_has NAME: apt's package lists know NAME (after apt-get update; in a dry run,
# the lists as they are).
apt_has() {
    apt-cache show "$1" >/dev/null 2>&1
}

# The apt packages to install on this model (APT_PACKAGES, less python3-lgpio where
# apt lacks it, and RPi.GPIO on a Pi 1-4).
apt_packages() {
    local model=$1 package
    for package in "${APT_PACKAGES[@]}"; do
        if [[ $package != "$APT_LGPIO" ]] || apt_has "$APT_LGPIO"; then
            printf '%s\n' "$package"
        fi
    done
    if [[ $(pin_family "$model") == bcm ]] && ! apt_installed "$APT_RPI_LGPIO"; then
        printf '%s\n' "$APT_RPI_GPIO"
    fi
    if camera_wanted && camera_connector "$model" && apt_has "$APT_PICAMERA2"; then
        printf '%s\n' "$APT_PICAMERA2"
    fi
}

# venv_has_system_site VENV: its pyvenv.cfg lets it see apt's packages (python3-lgpio).
venv_has_system_site() {
    grep -qiE '^include-system-site-packages *= *true' "$1/pyvenv.cfg" 2>/dev/null
}

has_entry() { # has_entry FILE NAME: NAME is in /etc/passwd or /etc/group style FILE
    [[ -f $ROOT$1 ]] && grep -q "^$2:" "$ROOT$1"
}

# The club page's unit (installed, or kept up to date by a box's install): enabled, and
# (re)started when its password is there.
club_page_unit() {
    say "== the club page ($PAGE_SERVICE)"
    install_file "$SOURCE/systemd/$PAGE_SERVICE" "$PAGE_UNIT_PATH" 0644
    run systemctl daemon-reload
    run systemctl enable "$PAGE_SERVICE"
    if [[ ! -s $ROOT$PAGE_PASSWORD ]]; then
        say "not starting the club page: write the club's broker password in $PAGE_PASSWORD (its first line), check CLUB_ARGS in $PAGE_ENV, then: sudo systemctl restart $APP-club"
    elif [[ $START -eq 1 ]]; then
        if ! run systemctl restart "$PAGE_SERVICE"; then
            say "The club page did not start. Why: journalctl -u $APP-club -b --no-pager | tail -n 30"
            exit 1
        fi
    else
        say "not starting (--no-start): sudo systemctl start $APP-club"
    fi
    say "club page: port 8090 of this machine unless CLUB_ARGS in $PAGE_ENV says otherwise"
}

# --club-page: the club's machine (any Debian computer; one of the Pis will do): the
# venv with the club extra, club.env and the password file (made only when missing),
# the unit. No referee, no I2C, no service user: the unit runs as a user of its own.
do_install_club_page() {
    say "== apt packages"
    run apt-get update
    run apt-get install -y --no-install-recommends python3-venv

    say "== the club page in $VENV"
    if [[ -x $ROOT$VENV/bin/python ]]; then
        say "unchanged $ROOT$VENV"
    else
        run python3 -m venv --system-site-packages "$ROOT$VENV"
    fi
    local extras=club
    if [[ -e $ROOT$WEB_UNIT_PATH ]]; then
        extras=web,club
    fi
    run "$ROOT$VENV/bin/python" -m pip install --upgrade --prefer-binary "${SOURCE}[$extras]"
    install_file "$SOURCE/systemd/README.md" "$PREFIX/README.md" 0644

    say "== configuration"
    if [[ -e $ROOT$PAGE_ENV ]]; then
        say "keep $ROOT$PAGE_ENV (exists; your settings stay)"
    else
        local env
        env=$(mktemp)
        printf '%s
' "# companion club's flags (companion club --help; docs/club.md, \"The club page\")." \
            "# The broker password is not here: it is in $PAGE_PASSWORD." \
            "CLUB_ARGS=$PAGE_ARGS" >"$env"
        install_file "$env" "$PAGE_ENV" 0644
        rm -f -- "$env"
    fi
    if [[ -e $ROOT$PAGE_PASSWORD ]]; then
        say "keep $ROOT$PAGE_PASSWORD"
    else
        run install -D -m 600 /dev/null "$ROOT$PAGE_PASSWORD"
    fi
    club_page_unit
    say "== done"
    say "status:  systemctl status $APP-club"
    say "log:     journalctl -u $APP-club -f"
}

do_install() {
    local group
    local -a root_opts
    mapfile -t root_opts < <(root_args)

    local model family lgpio_from_pip=0
    local -a packages
    model=$(pi_model)
    family=$(pin_family "$model")
    say "== pin libraries for ${model:-an unknown model (no /proc/device-tree/model)}"
    case $family in
        rp1) say "lgpio (python3-lgpio): the only pin library of the Pi 5 family" ;;
        bcm)
            if apt_installed "$APT_RPI_LGPIO"; then
                say "lgpio (python3-lgpio), and RPi.GPIO as gpiozero's fallback: $APT_RPI_LGPIO is installed, kept"
            else
                say "lgpio (python3-lgpio), and RPi.GPIO ($APT_RPI_GPIO) as gpiozero's fallback"
            fi
            ;;
        *) say "lgpio (python3-lgpio); not a model this script knows: RPi.GPIO is not installed" ;;
    esac

    say "== apt packages"
    run apt-get update
    mapfile -t packages < <(apt_packages "$model")
    if ! apt_has "$APT_LGPIO"; then
        lgpio_from_pip=1
        say "apt has no $APT_LGPIO (it is in the Raspberry Pi archive only): $PIP_LGPIO comes from PyPI into the venv"
    fi
    if camera_wanted; then
        if ! camera_connector "$model"; then
            say "camera: ${model:-this machine} has no camera connector: a USB webcam only (OpenCV); $APT_PICAMERA2 is not installed"
        elif ! apt_has "$APT_PICAMERA2"; then
            say "camera: apt has no $APT_PICAMERA2 (it is in the Raspberry Pi archive only): no Pi camera module here; a USB webcam works (OpenCV)"
        else
            say "camera: $APT_PICAMERA2 for a Pi camera module, and OpenCV for a USB webcam"
        fi
    fi
    run apt-get install -y --no-install-recommends "${packages[@]}"

    say "== groups and the service user"
    local -a groups=("${GROUPS_NEEDED[@]}")
    if camera_wanted; then
        groups+=(video)
    fi
    for group in "${groups[@]}"; do
        if has_entry /etc/group "$group"; then
            say "unchanged group $group"
        else
            run groupadd "${root_opts[@]}" --system "$group"
        fi
    done
    if has_entry /etc/passwd "$APP"; then
        say "unchanged user $APP"
    else
        run useradd "${root_opts[@]}" --system --user-group --home-dir "$STATE_DIR" \
            --no-create-home --shell /usr/sbin/nologin --comment "Board companion service" "$APP"
    fi

    say "== I2C on at $I2C_BAUDRATE Hz, kernel modules"
    enable_i2c
    local modules
    local -a module_names=(i2c-dev cdc_acm spidev)
    if camera_wanted; then
        # video4linux (and media, which videodev pulls in) before the service starts: a
        # webcam plugged in later is then allowed too (its driver loads only then).
        module_names+=(videodev)
    fi
    modules=$(mktemp)
    printf '%s\n' "# board-companion: loaded at boot, before the service starts, so its" \
        "# DeviceAllow= names (i2c, ttyACM, spi; video4linux with the camera) resolve." \
        "# Written by install.sh." "${module_names[@]}" >"$modules"
    install_file "$modules" "$MODULES_PATH" 0644
    rm -f -- "$modules"
    run modprobe -a "${module_names[@]}" || say "warning: modprobe failed: they load at the next boot"

    say "== the companion in $VENV"
    if [[ -x $ROOT$VENV/bin/python ]] && venv_has_system_site "$ROOT$VENV"; then
        say "unchanged $ROOT$VENV"
    else
        # Made anew, or made again over one that cannot see apt's packages (an older
        # install, or by hand): venv rewrites its pyvenv.cfg and keeps what pip put in.
        run python3 -m venv --system-site-packages "$ROOT$VENV"
    fi
    # No pin library from pip (apt's are seen through --system-site-packages), except
    # lgpio where apt lacks it (above); wheels preferred, so that nothing is compiled
    # (there is no compiler).
    # With --web (or a web unit installed before): the web extra (Starlette, uvicorn);
    # with --club (or a club unit installed before): the club extra (paho-mqtt).
    local spec=$SOURCE
    local -a extras=()
    if [[ $WEB -eq 1 || -e $ROOT$WEB_UNIT_PATH ]]; then
        extras+=(web)
    fi
    if [[ $CLUB -eq 1 || -e $ROOT$CLUB_UNIT_PATH || -e $ROOT$PAGE_UNIT_PATH ]]; then
        extras+=(club)
    fi
    # With --camera (or its drop-in installed before): the camera extra (OpenCV, NumPy),
    # NumPy below 2 for apt's picamera2 (APT_PICAMERA2, above).
    local -a also=()
    if camera_wanted; then
        extras+=(camera)
        also+=("$PIP_CAMERA_NUMPY")
    fi
    if [[ ${#extras[@]} -gt 0 ]]; then
        spec="${SOURCE}[$(IFS=,; printf '%s' "${extras[*]}")]"
    fi
    run "$ROOT$VENV/bin/python" -m pip install --upgrade --prefer-binary "$spec" "${also[@]}"
    if [[ $lgpio_from_pip -eq 1 ]]; then
        run "$ROOT$VENV/bin/python" -m pip install --upgrade --only-binary=:all: "$PIP_LGPIO" ||
            say "warning: PyPI has no $PIP_LGPIO wheel for this Python and machine (cp311/cp312 aarch64 only): gpiozero has no lgpio; companion doctor says which pin library it uses"
    fi
    install_file "$SOURCE/systemd/README.md" "$PREFIX/README.md" 0644

    say "== configuration"
    if [[ -e $ROOT$CONF_DIR/config.toml ]]; then
        say "keep $ROOT$CONF_DIR/config.toml (exists; your settings stay)"
    else
        install_file "$SOURCE/systemd/config.toml" "$CONF_DIR/config.toml" 0644
    fi

    say "== systemd unit and udev rule"
    install_file "$SOURCE/systemd/$SERVICE" "$UNIT_PATH" 0644
    install_file "$SOURCE/systemd/99-board-companion-shaker.rules" "$RULE_PATH" 0644
    if camera_wanted; then
        install_file "$SOURCE/systemd/$CAMERA_DROPIN" "$CAMERA_DROPIN_PATH" 0644
    fi
    run udevadm control --reload-rules
    run udevadm trigger --action=add --subsystem-match=tty
    run systemctl daemon-reload
    run systemctl enable "$SERVICE"
    if [[ $START -eq 1 ]]; then
        # Type=notify: this waits until the service reports READY=1 (its first screen).
        if ! run systemctl restart "$SERVICE"; then
            say "The service did not start. Why: journalctl -u $APP -b --no-pager | tail -n 30"
            exit 1
        fi
    else
        say "not starting (--no-start): sudo systemctl start $APP"
    fi
    if [[ $WEB -eq 1 || -e $ROOT$WEB_UNIT_PATH ]]; then
        say "== the spectator page ($WEB_SERVICE)"
        install_file "$SOURCE/systemd/$WEB_SERVICE" "$WEB_UNIT_PATH" 0644
        run systemctl daemon-reload
        run systemctl enable "$WEB_SERVICE"
        if [[ $START -eq 1 ]] && ! run systemctl restart "$WEB_SERVICE"; then
            say "The spectator page did not start. Why: journalctl -u $APP-web -b --no-pager | tail -n 30"
            exit 1
        fi
        say "page:    http://127.0.0.1:8080/ unless [web] in $CONF_DIR/config.toml says otherwise"
    fi
    if [[ $CLUB -eq 1 || -e $ROOT$CLUB_UNIT_PATH ]]; then
        say "== the club publisher ($CLUB_SERVICE)"
        install_file "$SOURCE/systemd/$CLUB_SERVICE" "$CLUB_UNIT_PATH" 0644
        run systemctl daemon-reload
        run systemctl enable "$CLUB_SERVICE"
        if [[ $START -eq 1 ]] && ! run systemctl restart "$CLUB_SERVICE"; then
            say "The club publisher did not start. Why: journalctl -u $APP-publish -b --no-pager | tail -n 30"
            exit 1
        fi
        say "club:    set [club] broker, table, password_file and publish = true in $CONF_DIR/config.toml, then: sudo systemctl restart $APP-publish"
    fi
    if [[ -e $ROOT$PAGE_UNIT_PATH ]]; then
        club_page_unit
    fi

    say "== done"
    say "status:  systemctl status $APP"
    say "log:     journalctl -u $APP -f"
    if [[ $REBOOT_NEEDED -eq 1 ]]; then
        say "Reboot once for the I2C speed ($I2C_BAUDRATE Hz) to take effect: sudo reboot"
    fi
}

do_uninstall() {
    local -a root_opts
    mapfile -t root_opts < <(root_args)

    say "== service"
    if [[ -e $ROOT$PAGE_UNIT_PATH ]]; then
        run systemctl disable --now "$PAGE_SERVICE"
    fi
    remove_path "$PAGE_UNIT_PATH"
    if [[ -e $ROOT$CLUB_UNIT_PATH ]]; then
        run systemctl disable --now "$CLUB_SERVICE"
    fi
    remove_path "$CLUB_UNIT_PATH"
    if [[ -e $ROOT$WEB_UNIT_PATH ]]; then
        run systemctl disable --now "$WEB_SERVICE"
    fi
    remove_path "$WEB_UNIT_PATH"
    if [[ -e $ROOT$UNIT_PATH ]]; then
        run systemctl disable --now "$SERVICE"
    fi
    remove_path "$UNIT_PATH"
    remove_path "$RULE_PATH"
    remove_path "$CAMERA_DROPIN_PATH"
    # The drop-in folder only if nothing else is in it (a `systemctl edit` override stays).
    if [[ -d $ROOT${CAMERA_DROPIN_PATH%/*} ]] && [[ -z $(ls -A "$ROOT${CAMERA_DROPIN_PATH%/*}") ]]; then
        say "remove $ROOT${CAMERA_DROPIN_PATH%/*}"
        if [[ $DRY_RUN -eq 0 ]]; then
            rmdir -- "$ROOT${CAMERA_DROPIN_PATH%/*}"
        fi
    fi
    remove_path "$MODULES_PATH"
    run systemctl daemon-reload
    run udevadm control --reload-rules

    say "== files"
    remove_path "$PREFIX"
    disable_i2c_block
    if [[ $PURGE -eq 1 ]]; then
        remove_path "$STATE_DIR"
        remove_path "$STATE_DIR-publish"
        remove_path "$STATE_DIR-club"
        remove_path "/var/lib/private/$APP-club"
        remove_path "$CONF_DIR"
        if has_entry /etc/passwd "$APP"; then
            run userdel "${root_opts[@]}" "$APP"
        fi
    else
        say "kept $ROOT$STATE_DIR (saved games) and $ROOT$CONF_DIR; --purge removes them"
    fi
    say "apt packages (${APT_PACKAGES[*]}, $APT_RPI_GPIO on a Pi 1-4, $APT_PICAMERA2 with the camera) are left installed"
}

main() {
    local -a given=("$@")
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --root)
                [[ $# -ge 2 ]] || die "--root needs a directory"
                ROOT=$2
                shift
                ;;
            --root=*) ROOT=${1#--root=} ;;
            --no-start) START=0 ;;
            --web) WEB=1 ;;
            --club) CLUB=1 ;;
            --club-page) CLUB_PAGE=1 ;;
            --camera) CAMERA=1 ;;
            --uninstall) UNINSTALL=1 ;;
            --purge) PURGE=1 ;;
            -h | --help)
                usage
                return 0
                ;;
            *)
                usage >&2
                die "unknown option: $1"
                ;;
        esac
        shift
    done
    if [[ -n $ROOT ]]; then
        [[ -d $ROOT ]] || die "--root $ROOT: no such directory"
        ROOT=$(cd "$ROOT" && pwd)
        [[ $ROOT != / ]] || ROOT=""
    fi
    if ! [[ $I2C_BAUDRATE =~ ^[0-9]+$ ]] || ((I2C_BAUDRATE < 10000 || I2C_BAUDRATE > 1000000)); then
        die "I2C_BAUDRATE=$I2C_BAUDRATE: give the I2C clock in Hz, 10000 to 1000000"
    fi
    if [[ $WEB -eq 1 && $UNINSTALL -eq 1 ]]; then
        die "--web goes with an install; --uninstall removes the web unit too"
    fi
    if [[ $CLUB -eq 1 && $UNINSTALL -eq 1 ]]; then
        die "--club goes with an install; --uninstall removes the club unit too"
    fi
    if [[ $CAMERA -eq 1 && $UNINSTALL -eq 1 ]]; then
        die "--camera goes with an install; --uninstall removes the camera's drop-in too"
    fi
    if [[ $CLUB_PAGE -eq 1 && $UNINSTALL -eq 1 ]]; then
        die "--club-page goes with an install; --uninstall removes the club page too"
    fi
    if [[ $CLUB_PAGE -eq 1 && ($WEB -eq 1 || $CLUB -eq 1 || $CAMERA -eq 1) ]]; then
        die "--club-page installs the club page alone; --web, --club and --camera are a box's (run it again without --club-page)"
    fi
    if [[ $PURGE -eq 1 && $UNINSTALL -eq 0 ]]; then
        die "--purge goes with --uninstall"
    fi
    if [[ $DRY_RUN -eq 0 && -z $ROOT && $(id -u) -ne 0 ]]; then
        die "run it as root: sudo $0 ${given[*]}"
    fi
    if [[ $DRY_RUN -eq 1 ]]; then
        say "(dry run: nothing is changed)"
    fi
    local codename=""
    if [[ -f $ROOT/etc/os-release ]]; then
        codename=$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release")
    fi
    if [[ $codename != bookworm ]]; then
        say "warning: written for Raspberry Pi OS Bookworm; this is '${codename:-unknown}'"
    fi

    if [[ $UNINSTALL -eq 1 ]]; then
        do_uninstall
    elif [[ $CLUB_PAGE -eq 1 ]]; then
        do_install_club_page
    else
        do_install
    fi
}

main "$@"
