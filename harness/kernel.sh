#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the patched kernel with kunit.py: one configuration, the kunit.py
# x86_64 defaults plus harness/config/*.config, serves every boot.
# GUEST=arm64: the arm64 guest's kernel instead, cross-built from
# allnoconfig plus harness/arm64/kernel.config.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
kbuild=${KBUILD_DIR:-$build/kbuild}
flavour=${FLAVOUR:-}	# empty, or the name of an extra fragment set

"$top/harness/apply.sh"

if [ "${GUEST:-}" = arm64 ]; then
	exec "$top/harness/arm64/kernel.sh"
fi

cfg=$build/kunitconfig${flavour:+-$flavour}
cat "$top"/harness/config/*.config >"$cfg.new"
if [ -n "$flavour" ]; then
	cat "$top/harness/config/$flavour/"*.config >>"$cfg.new"
fi
if cmp -s "$cfg.new" "$cfg"; then rm "$cfg.new"; else mv "$cfg.new" "$cfg"; fi

# ccache: the same objects come back in every clone on this machine.
export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
export CCACHE_DIR="${CCACHE_DIR:-/var/cache/latency-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
mkdir -p "$CCACHE_DIR"
ccache -z >/dev/null

# FLAVOUR=coverage: gcov counters in the registry and its device only.  The
# objects are named on kbuild's command line (scripts/Makefile.lib reads
# GCOV_PROFILE_<object>), so kernel/Makefile stays as the series has it.
set --
if [ "$flavour" = coverage ]; then
	set -- --make_options "GCOV_PROFILE_latency.o=y" \
		--make_options "GCOV_PROFILE_latency_dev.o=y"
fi

start=$(date +%s)
echo "kernel: building in $kbuild (config $cfg)"
python3 "$tree/tools/testing/kunit/kunit.py" build --arch=x86_64 \
	--build_dir="$kbuild" --kunitconfig="$cfg" --jobs="$(nproc)" \
	--make_options "CC=ccache gcc" --make_options "HOSTCC=ccache gcc" \
	--make_options "KBUILD_BUILD_USER=latency" \
	--make_options "KBUILD_BUILD_HOST=series" "$@"
end=$(date +%s)
echo "kernel: built $(cat "$kbuild/include/config/kernel.release") in $((end - start)) s; ccache: $(ccache -s 2>/dev/null | awk '/Hits:/ && !h {h=$0} END {print h}' | sed 's/  */ /g')"
