#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/run.sh test|demo: the two commands of the README.
#   test: build, boot once, run every KUnit case at boot and every in-guest
#         test, run the host's tests of harness/tests/, judge the log
#         against the guest's manifest (harness/manifest/); the same in the
#         arm64 guest (harness/arm64/; not with a FLAVOUR, not with
#         ARM64=0); the last line is "N passed, N failed, N skipped" over
#         both.
#   demo: build, boot, show the subsystem at work, and fail when what it
#         shows is not what it claims.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
mode=${1:-test}
t0=$(date +%s)

# FLAVOUR=hardened|kcsan|rt|modules|coverage: the same run on a kernel with the extra
# fragments of harness/config/$FLAVOUR/, in a build directory of its own.
# coverage also reports the gcov figures of the registry (harness/coverage.py).
suffix=${FLAVOUR:+-$FLAVOUR}
export KBUILD_DIR=$build/kbuild$suffix
export INITRAMFS=$build/initramfs$suffix.cpio.gz

"$top/harness/install-deps.sh"
"$top/harness/kernel.sh"
"$top/harness/initramfs.sh"
# The arm64 guest: cpuidle-psci, tickless, an idle state that really sleeps.
arm64=
if [ "$mode" = test ] && [ -z "$suffix" ] && [ "${ARM64:-1}" != 0 ]; then
	arm64="env GUEST=arm64 KBUILD_DIR=$build/kbuild-arm64 INITRAMFS=$build/initramfs-arm64.cpio.gz"
	# A kernel that does not build fails that guest, not the other.
	arm64_built=1
	{ $arm64 "$top/harness/kernel.sh" && $arm64 "$top/harness/initramfs.sh"; } ||
		arm64_built=
fi
t1=$(date +%s)

case $mode in
test)
	log=$build/test$suffix-console.log
	rm -f "$log" "$log.summary"
	# The host's own tests, counted with the guest's.
	host=
	for t in "$top"/harness/tests/*.sh "$top"/harness/tests/*.py; do
		[ -f "$t" ] || continue
		name=$(basename "$t")
		name=${name%.*}
		trc=0
		BUILD=$build "$t" >"$log.$name" 2>&1 || trc=$?
		host="$host $name:$trc:$log.$name"
	done
	echo "run: booting the test guest (console in $log)"
	# A constraint for CPUs 1-3 from boot, too loose to forbid a state:
	# percpu_idle.sh finds it listed.  The real-time and data-race
	# flavours torture the registry for a minute, make test for 10 s.
	# On RT, a guest that stops panics with the report of what stopped it
	# (harness/config/rt/), instead of printing nothing until the timeout.
	flavour_args=
	case ${FLAVOUR:-} in
	kcsan)	flavour_args=latency_torture.duration=60 ;;
	rt)	flavour_args="latency_torture.duration=60 hung_task_panic=1 softlockup_panic=1 watchdog_thresh=30" ;;
	esac
	KERNEL_ARGS="${KERNEL_ARGS:-} latency.cpus=1-3:900000 $flavour_args" \
		"$top/harness/boot.sh" test "$log"
	alog=$build/test-arm64-console.log
	if [ -n "$arm64" ]; then
		rm -f "$alog" "$alog.summary"
		echo "run: booting the arm64 guest (console in $alog)"
		# A guest that did not start is judged as one that did not finish.
		if [ -z "$arm64_built" ]; then
			echo "run: the arm64 guest's kernel or initramfs did not build" >"$alog"
		# The torture test, built in, at boot, loose: its threads
		# relax their holders and sleep 200 ms after each change, so
		# that the next finds CPUs asleep deep (with the wake-up
		# disabled, it counts violations).
		elif ! KERNEL_ARGS="${KERNEL_ARGS:-} latency_torture.duration=10 latency_torture.loose=1 latency_torture.idle_ms=200" \
			$arm64 "$top/harness/boot.sh" test "$alog"; then
			echo "run: the arm64 guest did not start" >>"$alog"
		fi
	fi
	t2=$(date +%s)
	echo "run: build $((t1 - t0)) s, boot and tests $((t2 - t1)) s"
	rc=0
	kunit_at_boot=
	[ "${FLAVOUR:-}" = modules ] && kunit_at_boot=none
	# What must run in the guest (harness/manifest/x86_64.txt, or the
	# flavour's own), and in make test, which provides what every test
	# needs, no skip.
	manifest=$top/harness/manifest/x86_64${FLAVOUR:+-$FLAVOUR}.txt
	[ -f "$manifest" ] || manifest=$top/harness/manifest/x86_64.txt
	noskip=
	[ -z "${FLAVOUR:-}" ] && noskip=--no-skip
	# shellcheck disable=SC2086
	KUNIT_AT_BOOT=$kunit_at_boot TREE=$build/linux-source-6.12 python3 "$top/harness/summary.py" \
		--manifest "$manifest" $noskip "$log" $host >"$log.summary" || rc=$?
	if [ "${FLAVOUR:-}" = coverage ]; then
		# The figures, then the closing count; no figures is a failure
		# the count includes.
		if ! BUILD=$build python3 "$top/harness/coverage.py" "$log"; then
			rc=1
			awk 'NR > 1 { print last } { last = $0 }
			END {
				split(last, n, " ")
				print "summary: coverage: no figures"
				print n[1] " passed, " n[3] + 1 " failed, " n[5] " skipped"
			}' "$log.summary" >"$log.summary.new"
			mv "$log.summary.new" "$log.summary"
		fi
	fi
	if [ $rc -ne 0 ]; then
		echo "run: FAILED; the last 40 lines of $log:"
		tail -n 40 "$log" | sed 's/^/  | /'
	fi
	if [ -n "$arm64" ]; then
		arc=0
		GUEST=arm64 TREE=$build/linux-source-6.12 python3 "$top/harness/summary.py" \
			--manifest "$top/harness/manifest/arm64.txt" --no-skip \
			"$alog" >"$alog.summary" || arc=$?
		if [ $arc -ne 0 ]; then
			rc=1
			echo "run: arm64 guest FAILED; the last 40 lines of $alog:"
			tail -n 40 "$alog" | sed 's/^/  | /'
		fi
		# One closing line: the sum of both; a judge that printed no
		# count is one failure.
		{
			sed '$d' "$log.summary"
			sed -e '$d' -e 's/^/arm64: /' "$alog.summary"
			for f in "$log.summary" "$alog.summary"; do
				tail -n 1 "$f" | grep -x '[0-9]* passed, [0-9]* failed, [0-9]* skipped' ||
					echo "0 passed, 1 failed, 0 skipped"
			done | awk '{ p += $1; f += $3; s += $5 }
				END { print p " passed, " f " failed, " s " skipped" }'
		} >"$log.summary.all"
		mv "$log.summary.all" "$log.summary"
	fi
	# The closing count stays the last line.
	cat "$log.summary"
	exit $rc
	;;
demo)
	"$top/harness/boot.sh" demo "$build/demo-console.log"
	# The demo checks what it shows (harness/guest/init, demo_check).
	verdict=$(sed -n 's/^latency-harness: demo: \([0-9]*\) checks, \([0-9]*\) failed.*/\1 \2/p' \
		"$build/demo-console.log")
	case $verdict in
	[1-9]*" 0") ;;
	*)	echo "run: FAILED: the demo's story does not hold" \
			"(${verdict:+checks and failures: }${verdict:-no verdict});" \
			"see $build/demo-console.log" >&2
		exit 1 ;;
	esac
	;;
*)
	echo "usage: $0 test|demo" >&2
	exit 2
	;;
esac
