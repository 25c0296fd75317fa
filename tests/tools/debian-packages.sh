#!/usr/bin/env bash
# Installs the Debian programs the tests drive, where they are missing: one apt-get call
# for all of them (root only). Each argument is PROGRAM:PACKAGE (the program looked for
# on PATH or as an absolute path, and the Debian package that brings it). A program
# that cannot be installed is named in one line, and the tests that need it skip with a
# line saying why; this script never fails the build.
set -u
missing=()
for pair in "$@"; do
	program=${pair%%:*}
	package=${pair#*:}
	if [ -x "$program" ] || command -v "$program" >/dev/null 2>&1; then continue; fi
	missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "not installed (no apt-get as root): ${missing[*]}; the tests that need them will skip"
	exit 0
fi
echo "installing Debian's ${missing[*]} for the tests"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
		echo "could not install ${missing[*]}: the tests that need them will skip"
fi
exit 0
