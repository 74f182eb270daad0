#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The arm64 guest's kernel (GUEST=arm64 harness/kernel.sh, after
# apply.sh): allnoconfig with harness/arm64/kernel.config as
# KCONFIG_ALLCONFIG, cross-built with aarch64-linux-gnu-gcc into
# KBUILD_DIR (build/kbuild-arm64).  Fails when an option of the fragment
# does not end up in .config, as when the series renames a symbol.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
kbuild=${KBUILD_DIR:-$build/kbuild-arm64}
frag=$top/harness/arm64/kernel.config

export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
export CCACHE_DIR="${CCACHE_DIR:-/var/cache/latency-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
mkdir -p "$CCACHE_DIR" "$kbuild"
ccache -z >/dev/null

set -- -C "$tree" O="$kbuild" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	CC="ccache aarch64-linux-gnu-gcc" KBUILD_BUILD_USER=latency \
	KBUILD_BUILD_HOST=series

start=$(date +%s)
echo "kernel: building the arm64 guest's kernel in $kbuild (allnoconfig + $frag)"
# Kconfig rewrites only the include/config/ files of the options that
# changed: an unchanged fragment rebuilds nothing.
make -s "$@" KCONFIG_ALLCONFIG="$frag" allnoconfig >"$kbuild/config.log" 2>&1 || {
	cat "$kbuild/config.log" >&2
	exit 1
}
lost=$(grep -o '^CONFIG_[A-Za-z0-9_]*=.*' "$frag" |
	while read -r opt; do
		grep -qx "$opt" "$kbuild/.config" || printf ' %s' "$opt"
	done)
if [ -n "$lost" ]; then
	echo "kernel: arm64: not in .config after allnoconfig:$lost" >&2
	exit 1
fi
make "$@" -j"$(nproc)" Image >"$kbuild/build.log" 2>&1 || {
	tail -n 40 "$kbuild/build.log" >&2
	echo "kernel: arm64 build failed; the log: $kbuild/build.log" >&2
	exit 1
}
end=$(date +%s)
hits=$(ccache -s 2>/dev/null | awk '/Hits:/ && !h { h = $0 } END { print h }' |
	sed 's/  */ /g')
echo "kernel: built arm64 $(cat "$kbuild/include/config/kernel.release") in $((end - start)) s; ccache:$hits"
