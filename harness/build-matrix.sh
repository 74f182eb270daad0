#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make build-matrix: the configurations the kernel test robot builds, each
# from tinyconfig plus what the row names, with W=1.  One line per row; a
# row fails when an option it asks for does not end up in .config, when the
# build or the link fails, or on any compiler or sparse warning in a file of
# the series.  The last row builds and boots the test kernel with every
# KUnit suite as a module (make test with FLAVOUR=modules).
#
#   ROWS="x86-tiny i386"  only these rows (default: all)
#
# Results: build/build-matrix.txt; harness/build-matrix-results.txt keeps
# the last full run.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
out=$build/build-matrix.txt
jobs=$(nproc)

"$top/harness/install-deps.sh" matrix
"$top/harness/apply.sh" >/dev/null

# ccache by its compiler-named links: no CC= with a blank in it.
export PATH="/usr/lib/ccache:$PATH"
export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
export CCACHE_DIR="${CCACHE_DIR:-/var/cache/latency-ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
mkdir -p "$CCACHE_DIR"

# A warning counts when its location is a file the series adds or changes.
ours='(^|/)(latency(_dev|_internal|_test|_benchmark|_torture)?|processor_idle|cpuidle(_latency_test)?|coupled|governor|qos|pm_qos|ipw2100(_kunit)?)\.[ch]:[0-9]+'

# The options of a row, as "SYMBOL=y|m|n" words.
idle="SMP=y PROC_FS=y PCI=y ACPI=y ACPI_PROCESSOR=y CPU_IDLE=y
	CPU_IDLE_GOV_LADDER=y CPU_IDLE_GOV_MENU=y CPU_IDLE_GOV_TEO=y LATENCY=y
	LATENCY_TORTURE_TEST=m MODULES=y"
kunit="KUNIT=y LATENCY_KUNIT_TEST=y CPUIDLE_LATENCY_KUNIT_TEST=y"
bench="DEBUG_KERNEL=y RUNTIME_TESTING_MENU=y PM=y LATENCY_BENCHMARK=y"
# ipw2100 (the producer) and what it needs: its object is built alone.
ipw="NET=y WIRELESS=y CFG80211=y NETDEVICES=y WLAN=y WLAN_VENDOR_INTEL=y
	IPW2100=y"
ipw_obj=drivers/net/wireless/intel/ipw2x00/ipw2100.o
series_objs="kernel/latency.o kernel/latency_dev.o drivers/acpi/processor_idle.o
	drivers/cpuidle/cpuidle.o drivers/cpuidle/coupled.o
	drivers/cpuidle/governor.o kernel/power/qos.o
	lib/latency_benchmark.o tools/testing/kunit/latency_test.o
	drivers/cpuidle/cpuidle_latency_test.o"

# row NAME ARCH "MAKE VARIABLES" "OPTIONS" [TARGETS]
row() {
	name=$1 arch=$2 vars=$3
	# A later word for a symbol overrides an earlier one ("$idle PROC_FS=n").
	# shellcheck disable=SC2086
	opts=$(printf '%s\n' $4 | awk -F= '{ v[$1] = $0; if (!($1 in seen)) { seen[$1]; k[n++] = $1 } }
		END { for (i = 0; i < n; i++) printf "%s ", v[k[i]] }')
	shift 4
	case " ${ROWS:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	o=$build/matrix/$name
	log=$build/matrix/$name.log
	# From scratch every time (ccache makes it cheap): an object left up
	# to date by an earlier run would hide its warnings.
	rm -rf "$o"
	mkdir -p "$o"
	start=$(date +%s)
	detail=
	# shellcheck disable=SC2086
	set -- -C "$tree" O="$o" ARCH="$arch" $vars "$@"
	{
		make "$@" tinyconfig
		# shellcheck disable=SC2086
		for opt in $opts; do
			case ${opt#*=} in
			n) "$tree/scripts/config" --file "$o/.config" -d "${opt%%=*}" ;;
			m) "$tree/scripts/config" --file "$o/.config" -m "${opt%%=*}" ;;
			*) "$tree/scripts/config" --file "$o/.config" -e "${opt%%=*}" ;;
			esac
		done
		make "$@" olddefconfig
	} >"$log" 2>&1 || detail="configuration failed"
	if [ -z "$detail" ]; then
		# shellcheck disable=SC2086
		for opt in $opts; do
			s=${opt%%=*} v=${opt#*=}
			if [ "$v" = n ]; then
				grep -q "^CONFIG_$s=" "$o/.config" || continue
			else
				grep -q "^CONFIG_$s=$v\$" "$o/.config" && continue
			fi
			detail="${detail:+$detail, }CONFIG_$s=$v did not stick"
		done
	fi
	if [ -z "$detail" ]; then
		if ! make "$@" W=1 -j"$jobs" $targets >>"$log" 2>&1; then
			detail="build failed: $(grep -m1 -E 'error|undefined reference' "$log" || tail -n 1 "$log")"
		fi
	fi
	warn=$(grep -E "$ours: (warning|error)" "$log" | sort -u || true)
	if [ -z "$detail" ] && [ -n "$warn" ]; then
		detail="$(echo "$warn" | wc -l) warning(s) in the series, first: $(echo "$warn" | head -n 1)"
	fi
	end=$(date +%s)
	all=$(grep -c ': warning:' "$log" || true)
	if [ -z "$detail" ]; then
		line="ok      $name ($((end - start)) s; 0 warnings in the series, $all in the whole build)"
		ok=$((ok + 1))
	else
		line="FAILED  $name ($((end - start)) s): $detail (log $log)"
		failed=$((failed + 1))
	fi
	echo "build-matrix: $line" | tee -a "$out"
}

ok=0 failed=0
: >"$out"
echo "build-matrix: base $(make -s -C "$tree" kernelversion), $(gcc --version | head -n 1), $(clang --version | head -n 1), sparse $(sparse --version)" |
	tee -a "$out"

targets=all row x86-tiny x86_64 "" ""
targets=all row x86-idle x86_64 "" "$idle $bench"
targets=all row x86-idle-noproc x86_64 "" "$idle PROC_FS=n"
targets=all row x86-idle-up x86_64 "" "$idle SMP=n"
targets=all row x86-cpuidle-noacpi x86_64 "" "$idle ACPI=n ACPI_PROCESSOR=n"
# The registry is the CPU latency QoS: it goes only with CPU idle, and its
# callers (ipw2100, PM QoS users) then build against the stubs.
# ACPI's processor driver selects CPU_IDLE: these rows go without it.
noidle="SMP=y PROC_FS=y PCI=y PM=y CPU_IDLE=n LATENCY=n"
targets=all row x86-cpuidle-off x86_64 "" "$noidle"
targets=$ipw_obj row x86-ipw2100-cpuidle-off x86_64 "" "$noidle $ipw"
targets=all row i386-idle i386 "" "$idle $bench"
targets=all row arm64-acpi-lpi arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	"PROC_FS=y PCI=y EFI=y ACPI=y ACPI_PROCESSOR=y CPU_IDLE=y CPU_IDLE_GOV_MENU=y ACPI_PROCESSOR_IDLE=y LATENCY=y"
# 32-bit ARM with a coupled cpuidle driver (Tegra's): where
# cpuidle_enter_state_coupled() and its latency check are built for use.
targets=all row arm-tegra-coupled arm CROSS_COMPILE=arm-linux-gnueabihf- \
	"MMU=y ARCH_MULTIPLATFORM=y ARCH_MULTI_V7=y ARCH_TEGRA=y SMP=y PM=y CPU_IDLE=y ARM_TEGRA_CPUIDLE=y ARCH_NEEDS_CPU_IDLE_COUPLED=y LATENCY=y"
targets=all row clang-kunit x86_64 LLVM=1 "$idle $bench $kunit"
targets="C=2 $series_objs" row sparse x86_64 "" "$idle $bench $kunit"

# Every KUnit suite as a module: modpost, then loaded in the test guest.
case " ${ROWS:-modules} " in
*" modules "*)
	start=$(date +%s)
	mlog=$build/matrix/modules.log
	mkdir -p "$build/matrix"
	if FLAVOUR=modules "$top/harness/run.sh" test >"$mlog" 2>&1 &&
	   ! grep -E "WARNING: modpost|$ours: (warning|error)" "$mlog"; then
		line="ok      modules ($(($(date +%s) - start)) s; $(tail -n 1 "$mlog"))"
		ok=$((ok + 1))
	else
		line="FAILED  modules ($(($(date +%s) - start)) s): $(tail -n 1 "$mlog") (log $mlog)"
		failed=$((failed + 1))
	fi
	echo "build-matrix: $line" | tee -a "$out"
	;;
esac

echo "build-matrix: $ok ok, $failed failed" | tee -a "$out"
[ "$failed" -eq 0 ] && [ "$ok" -gt 0 ]
