#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build, the guest, the tests and the
# documentation need; "install-deps.sh matrix" also those of make
# build-matrix (clang and lld for LLVM=1, sparse for C=2, the arm64 cross
# compiler; i386 builds with the host gcc's -m32).
# Runs apt-get only when something is missing, so a warm machine pays nothing.
set -eu

# python3-sphinx and python3-yaml: make htmldocs, as
# Documentation/sphinx/requirements.txt asks (Sphinx, alabaster, a
# dependency of python3-sphinx, and pyyaml).  python3-ply: checkpatch's
# SPDX check (scripts/spdxcheck.py) in make series-check.  git: the host
# test harness/tests/series-map.sh, and make series (git format-patch).
PKGS="linux-source-6.12 xz-utils gcc make bc bison flex libelf-dev libssl-dev
cpio qemu-system-x86 busybox-static acpica-tools ccache python3 perl kmod
rsync patch python3-sphinx python3-yaml python3-ply git"
case "${1:-}" in
matrix)	PKGS="$PKGS clang lld llvm sparse gcc-aarch64-linux-gnu" ;;
"")	;;
*)	echo "install-deps: unknown set $1" >&2; exit 2 ;;
esac

missing=
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages and not root; install them with:" >&2
	echo "  apt-get install --no-install-recommends$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "install-deps: done"
