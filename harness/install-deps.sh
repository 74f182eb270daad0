#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build, the guests, the tests and the
# documentation need (the arm64 guest: the cross compiler, QEMU for arm,
# dtc, and Debian's arm64 busybox, unpacked into build/arm64/);
# "install-deps.sh matrix" also those of make build-matrix (clang and lld
# for LLVM=1, sparse for C=2, the 32-bit ARM cross compiler for the
# coupled cpuidle row; i386 builds with the host gcc's -m32).
# Runs apt-get only when something is missing, so a warm machine pays nothing.
set -eu

# python3-sphinx and python3-yaml: make htmldocs, as
# Documentation/sphinx/requirements.txt asks (Sphinx, alabaster, a
# dependency of python3-sphinx, and pyyaml).  python3-ply: checkpatch's
# SPDX check (scripts/spdxcheck.py) in make series-check.  git: the host
# test harness/tests/series-map.sh, and make series (git format-patch).
PKGS="linux-source-6.12 xz-utils gcc make bc bison flex libelf-dev libssl-dev
cpio qemu-system-x86 busybox-static acpica-tools ccache python3 perl kmod
rsync patch python3-sphinx python3-yaml python3-ply git
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm device-tree-compiler"
case "${1:-}" in
matrix)	PKGS="$PKGS clang lld llvm sparse gcc-arm-linux-gnueabihf" ;;
"")	;;
*)	echo "install-deps: unknown set $1" >&2; exit 2 ;;
esac

missing=
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done

# The arm64 guest's busybox: Debian's busybox-static for arm64, unpacked
# into build/arm64/ (the package cannot be installed beside the host's).
top=$(cd "$(dirname "$0")/.." && pwd)
bb=${BUILD:-$top/build}/arm64/busybox
[ -z "$missing" ] && [ -x "$bb" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages or $bb and not root; as root:" >&2
	[ -n "$missing" ] &&
		echo "  apt-get install --no-install-recommends$missing" >&2
	[ -x "$bb" ] || echo "  make deps" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
update=
if [ ! -x "$bb" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "install-deps: adding the arm64 architecture to dpkg (for busybox-static:arm64)"
	dpkg --add-architecture arm64
	update=1
fi
if [ -n "$missing" ] || [ -n "$update" ]; then
	apt-get update -q >/dev/null
fi
if [ -n "$missing" ]; then
	echo "install-deps: installing:$missing"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
if [ ! -x "$bb" ]; then
	echo "install-deps: fetching busybox-static:arm64 into $(dirname "$bb")"
	d=$(mktemp -d)
	# apt's sandbox user may not write to the directory: fetch in a
	# private one.
	chmod 755 "$d"
	if ! (cd "$d" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1); then
		apt-get update -q >/dev/null
		(cd "$d" && apt-get download -q busybox-static:arm64 >/dev/null)
	fi
	dpkg-deb -x "$d"/busybox-static_*_arm64.deb "$d/root"
	mkdir -p "$(dirname "$bb")"
	cp "$d/root/bin/busybox" "$bb"
	rm -rf "$d"
fi
echo "install-deps: done"
