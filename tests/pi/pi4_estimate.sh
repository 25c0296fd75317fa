#!/usr/bin/env bash
# A Raspberry Pi 4 estimate of the camera's CPU per photo (issue 34), from the arm64
# root that `KEEP=1 make test-pi` leaves behind, beside this machine's run. See
# docs/camera.md, "A Pi 4 estimate", for the method and how far to trust it.
#
# Usage (as root, after `KEEP=1 make test-pi`, which prints "kept DIR"):
#   tests/pi/pi4_estimate.sh DIR [vision.py's options]  (default: --pictures 20 --rounds 6 --moves 6:
#   the whole games, which it does not use, cut to a few moves: 1,000 under qemu take hours)
#
# It runs, one after the other on one core, here (x86_64, .venv) and in DIR/root under
# qemu-user (aarch64, the root's .venv of requirements/dev.lock: the same OpenCV):
#   1. sysbench 1.0.20 `cpu --threads=1` (primes up to 10,000): the reference, whose Pi 4
#      figure is published (PI4_SYSBENCH below);
#   2. benchmarks/vision.py: `Reader.read`'s CPU time per photo, per game.
# and prints, per game, the Pi 4 estimate scaled both ways:
#   from qemu:  read ms under qemu  x  (qemu's sysbench events/s / the Pi 4's)
#   from x86:   read ms here        x  (this machine's sysbench events/s / the Pi 4's)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly REPO
# sysbench 1.0.20, `sysbench cpu --threads=1 --time=60 run`, on a Raspberry Pi 4:
# 1477.83 events/s (leoncode.co.uk/articles/raspberry-pi-benchmarks).
readonly PI4_SYSBENCH=1477.83
readonly SRC=/src/board-companion

[[ $# -ge 1 ]] || { sed -n '2,9p' "$0"; exit 2; }
WORK=$1
shift
VISION_ARGS=("$@")
[[ ${#VISION_ARGS[@]} -gt 0 ]] || VISION_ARGS=(--pictures 20 --rounds 6 --moves 6)
ROOT=$WORK/root
[[ $(id -u) -eq 0 ]] || { echo "pi4_estimate: run it as root (chroot, mount)" >&2; exit 2; }
[[ -x $ROOT$SRC/.venv/bin/python ]] || {
    echo "pi4_estimate: no $ROOT$SRC/.venv: run KEEP=1 make test-pi first" >&2
    exit 2
}

if [[ -z ${PI4_NAMESPACE:-} ]]; then
    PI4_NAMESPACE=1 exec unshare --mount --propagation private "$BASH" "$0" "$WORK" "${VISION_ARGS[@]}"
fi
# arm64 programs through qemu-user, as tests/pi/run.sh sets it up
if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
mount -t proc proc "$ROOT/proc"
trap 'umount "$ROOT/proc" 2>/dev/null || true' EXIT

in_root() {
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
        LANG=C.UTF-8 "$@"
}

command -v sysbench >/dev/null || apt-get install -y -q --no-install-recommends sysbench >/dev/null
in_root sh -c 'command -v sysbench' >/dev/null ||
    in_root sh -c 'apt-get install -y -q --no-install-recommends sysbench >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends sysbench >/dev/null; }'

# events_per_second COMMAND...: sysbench's single-thread figure, as events per CPU
# second of the process (this machine is shared: its events per wall second would count
# the time it waited for a core), run through COMMAND (nice, chroot).
events_per_second() {
    python3 - "$@" <<'PY'
import re, resource, subprocess, sys
out = subprocess.run([*sys.argv[1:], "sysbench", "cpu", "--threads=1", "--time=20", "run"],
                     capture_output=True, text=True, check=True).stdout
events = int(re.search(r"total number of events:\s+(\d+)", out)[1])
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{events / (used.ru_utime + used.ru_stime):.1f}")
PY
}
# read_ms LOG GAME: the median read time vision.py printed for GAME.
read_ms() {
    awk -v game="$2" '$1 == game { on = 1 } on && /CPU per photo: read/ {
        sub(/.*read /, ""); print $1; exit }' "$1"
}

logs=$(mktemp -d)
echo "sysbench here (x86_64) ..."
x86_eps=$(events_per_second nice -n 10)
echo "sysbench in the root (aarch64 under qemu-user) ..."
qemu_eps=$(events_per_second nice -n 10 chroot "$ROOT")
echo "vision.py ${VISION_ARGS[*]} here ..."
(cd "$REPO" && nice -n 10 .venv/bin/python benchmarks/vision.py "${VISION_ARGS[@]}") >"$logs/x86.log"
echo "vision.py ${VISION_ARGS[*]} in the root ..."
nice -n 10 chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    sh -c "cd $SRC && .venv/bin/python benchmarks/vision.py ${VISION_ARGS[*]}" >"$logs/qemu.log"
head -n 1 "$logs/x86.log"
head -n 1 "$logs/qemu.log"

printf '\nsysbench cpu, 1 thread: here %s, qemu %s, Raspberry Pi 4 (published) %s events/s\n' \
    "$x86_eps" "$qemu_eps" "$PI4_SYSBENCH"
printf '%-18s %9s %9s %10s %16s %15s\n' game "x86 ms" "qemu ms" "qemu/x86" "Pi 4 from qemu" "Pi 4 from x86"
for game in senet-tait senet-sticks labyrinth cretan-labyrinth; do
    x86=$(read_ms "$logs/x86.log" "$game")
    qemu=$(read_ms "$logs/qemu.log" "$game")
    awk -v g="$game" -v x="$x86" -v q="$qemu" -v xe="$x86_eps" -v qe="$qemu_eps" -v pe="$PI4_SYSBENCH" \
        'BEGIN { printf "%-18s %9.1f %9.1f %9.1fx %13.0f ms %12.0f ms\n", g, x, q, q / x, q * qe / pe, x * xe / pe }'
done
printf 'qemu/x86 slowdown of sysbench itself: %.1fx\n' "$(awk -v x="$x86_eps" -v q="$qemu_eps" 'BEGIN { print x / q }')"
echo "(logs: $logs)"
