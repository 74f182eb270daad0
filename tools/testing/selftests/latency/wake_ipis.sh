#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A change of the constraint interrupts exactly the idle CPUs it concerns,
# counted from the interrupts themselves, not from the registry's own
# latency_idle_wake event: the CPUs idle in a state too deep for the new
# limit, and those idle in a state below one it now allows (the shallow
# wake-up), each once; no CPU for a change that crosses no state.
#
# What reaches each CPU, from the trace, by call site:
#  - the interrupt of a synchronous call: latency_idle_ipi() run on that
#    CPU (csd:csd_function_entry, filtered on the function);
#  - the wake-up of an asynchronous call, and every shallow wake-up:
#    wake_up_if_idle(), a rescheduling IPI (ipi:ipi_send_cpu, filtered on
#    the call site) or, to a CPU that polls, none
#    (sched:sched_wake_idle_without_ipi, with a stack trace that names
#    wake_up_if_idle).
# Other interrupts (timers, RCU, this shell's own) have other call sites.
# Which state each CPU is in when the change is published (the
# latency_update event) comes from cpuidle's power:cpu_idle events.  And
# /proc/interrupts must count at least the rescheduling and function call
# interrupts the trace shows.
#
# $ROUNDS rounds, this shell on CPU 0, the other CPUs left idle for $SETTLE
# s before each change, through /dev/acceptable_latency (synchronous) and
# test_latency_qos's usecs (lib/test_latency_qos.c, a driver's
# cpu_latency_qos_update_request(), which does not wait):
#   sync   $LOOSE -> $CONTROL   crosses no state            none
#   sync   $CONTROL -> $HOLD    the deepest state too deep  deep
#   sync   $HOLD -> $HOLD2      crosses no state            none
#   sync   $HOLD2 -> $LOOSE     allows the deepest again    shallow
#   async  the same, through the module: none, deep, shallow
# A CPU that leaves its state by itself within $AMBIG s of the change, or
# changed state within $AMBIG s before it, may rightly miss the wake-up: it
# is not judged in that change.  Each kind must find at least $ROUNDS CPUs
# to judge, so that its check could fail.  The shallow wake-up, a
# heuristic that costs power, never latency, may miss one CPU in 8 ("?"):
# under a heavily loaded host, rarely, a CPU seen idle in WFI got no
# wake-up (perhaps a vCPU that QEMU did not run, a wake-up already pending
# on it, which resched_curr() does not send again); a CPU woken wrongly,
# or twice, fails it, and so does any miss of the other kinds.
#
# Needs a second CPU, a deepest state deeper than $HOLD2 us that really
# sleeps (an idle CPU stays in it: the arm64 guest's; not acpi_idle under
# QEMU, whose C2 and C3 return at once, so that which CPU is in which state
# at a change is a matter of chance, with a periodic tick that wakes every
# CPU anyway), the trace events above with their filters and triggers.
# Skips as a whole without.  KTAP output through kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

DEV=/dev/acceptable_latency
PARAM=/sys/module/test_latency_qos/parameters/usecs
T=/sys/kernel/tracing
HOLD=10			# usecs: forbids the deepest state
HOLD2=20		# usecs: forbids it still
CONTROL=50000		# usecs: forbids no state of a real driver
LOOSE=100000		# usecs: neither, and differs from $CONTROL
ROUNDS=4
SETTLE=0.5		# seconds of idle before each change
WINDOW=0.05		# seconds the interrupts of a change are counted
AMBIG=0.02		# seconds: see above (a QEMU TCG vCPU may stall for that long)
MIN_STAY=20000		# usecs: an average stay that only a real sleep gives
NTESTS=5

EVENTS="power/cpu_idle latency/latency_update ipi/ipi_send_cpu
	csd/csd_function_entry sched/sched_wake_idle_without_ipi"

# The online CPUs, one word each, from a list such as "0-3" or "0,2-3".
online_cpus() {
	tr ',' '\n' </sys/devices/system/cpu/online |
	while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done | tr '\n' ' '
}

# The rescheduling and function call interrupts of each CPU: "R:n:n.. F:n.."
ipi_counts() {
	awk '/Rescheduling interrupts/ { r = "R" }
	     /Function call interrupts/ { r = "F" }
	     r { l = r; for (i = 2; i <= ncpu + 1; i++) l = l ":" $i; print l; r = "" }
	' ncpu="$NCPU" /proc/interrupts | tr '\n' ' '
}

# nap SECONDS: wait, in this shell (fd 5: a FIFO nobody writes to), not
# in sleep(1): a new process on CPU 0 makes the scheduler kick an idle CPU
# for its idle load balancing, an interrupt of no interest here.
nap() {
	# shellcheck disable=SC3045 # busybox ash and bash have read -t
	read -r -t "$1" _ <&5
}

# step KIND PATH VALUE: one change, after $SETTLE s of idle; the trace
# marks where it starts and where its window ends.
step() {
	nap $SETTLE
	echo "wake_ipis: step $1 $2 $3" >$T/trace_marker
	if [ "$2" = sync ]; then
		echo "$3" >&3
	else
		echo "$3" >"$PARAM"
	fi
	nap $WINDOW
	echo "wake_ipis: end" >$T/trace_marker
}

# Judge every step from the trace: a line for each, its CPUs as
# cpuN=CLASS(STATE):WAKE_UP_IF_IDLE/LATENCY_IDLE_IPI ("!": wrong), then
# "judged KIND N" and "violations KIND N" for each kind, and "traced R F"
# with the rescheduling IPIs and latency_idle_ipi() runs traced per CPU.
judge() {
	echo "$trace" | awk -v deep="$DEEPEST" -v ncpu="$NCPU" -v ambig="$AMBIG" '
	function ts_of(	i) {
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				tsi = i
				return substr($i, 1, length($i) - 1) + 0
			}
		return -1
	}
	function col(	i, c) {
		for (i = 1; i < NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) {
				c = substr($i, 2, length($i) - 2)
				return c + 0
			}
		return -1
	}
	function field(name,	i) {
		for (i = tsi + 2; i <= NF; i++)
			if (index($i, name "=") == 1)
				return substr($i, length(name) + 2)
		return ""
	}
	function finish(	c, w, f, cls, bad, line) {
		line = kind " " path " " value ":"
		for (c = 0; c < ncpu; c++) {
			w = res[c] + nipi[c]
			f = csd[c] + 0
			tr_r[c] += res[c]
			tr_f[c] += f
			if (c == 0)
				cls = "self"
			else if (!(c in at))
				cls = "unknown"
			else if (at[c] == deep)
				cls = "deep"
			else if (at[c] != "4294967295")
				cls = "shallow"
			else
				cls = "awake"
			# Changed state just before the change, or left the
			# state by itself just after it, not interrupted.
			if (cls != "self" && cls != "unknown" &&
			    (t - atts[c] < ambig ||
			     (cls == kind && !w && !f && (c in left) &&
			      left[c] - t < ambig)))
				cls = "ambiguous"
			bad = 0
			if (cls == "ambiguous" || cls == "unknown") {
				;
			} else if (cls == kind) {
				judged[kind " " path]++
				if (kind == "deep" && path == "sync")
					bad = !(f == 1 && w == 0)
				else if (kind == "shallow" && !w && !f)
					wrong += ++missed[kind " " path] > 0
				else
					bad = !(w == 1 && f == 0)
			} else {
				if (kind == "none" && cls != "self")
					judged[kind " " path]++
				bad = w || f
			}
			viol[kind " " path] += bad
			wrong += bad
			line = line " cpu" c "=" cls "(" ((c in at) ? at[c] : "-") "):" \
				w "/" f (bad ? "!" : "") \
				(cls == "shallow" && kind == "shallow" && !w && !f ? "?" : "")
			res[c] = nipi[c] = csd[c] = 0
		}
		print line
		# A wrong verdict: the trace of the step, to see why.
		if (wrong)
			for (i = 1; i <= nbuf; i++)
				print "  " buf[i]
		wrong = nbuf = 0
		for (c in left)
			delete left[c]
		for (c in at)
			delete at[c]
		stepping = 0
	}
	{
		if (stepping)
			buf[++nbuf] = $0
		ts = ts_of()
		if (ts < 0) {
			# A stack of sched_wake_idle_without_ipi: " => function".
			if (stack >= 0 && $1 == "=>" && $2 == "wake_up_if_idle") {
				if (stepping && t)
					nipi[stack]++
				stack = -1
			} else if ($1 != "=>") {
				stack = -1
			}
			next
		}
		ev = $(tsi + 1)
		c = col()
		if (ev == "<stack") {
			stack = (c in pend) ? pend[c] : -1
			delete pend[c]
			next
		}
		stack = -1
		if (ev == "cpu_idle:") {
			cpu = field("cpu_id") + 0
			if (stepping && t && !(cpu in left) && field("state") == "4294967295")
				left[cpu] = ts
			last[cpu] = field("state")
			lastts[cpu] = ts
		} else if (ev == "tracing_mark_write:" && $(tsi + 2) == "wake_ipis:") {
			if ($(tsi + 3) == "step") {
				kind = $(tsi + 4)
				path = $(tsi + 5)
				value = $(tsi + 6)
				stepping = 1
				t = 0
			} else if (stepping) {
				if (!t)
					t = ts
				finish()
			}
		} else if (ev == "latency_update:" && stepping && !t) {
			t = ts
			for (cc in last) {
				at[cc] = last[cc]
				atts[cc] = lastts[cc]
			}
		} else if (stepping && t && ev == "ipi_send_cpu:") {
			res[field("cpu") + 0]++
		} else if (stepping && t && ev == "csd_function_entry:") {
			csd[c]++
		} else if (ev == "sched_wake_idle_without_ipi:") {
			pend[c] = field("cpu") + 0
		}
	}
	BEGIN { stack = -1 }
	END {
		for (k in judged)
			print "judged", k, judged[k]
		for (k in viol)
			print "violations", k, viol[k]
		for (k in missed)
			print "missed", k, missed[k]
		r = "traced R"
		f = "F"
		for (c = 0; c < ncpu; c++) {
			r = r ":" tr_r[c] + 0
			f = f ":" tr_f[c] + 0
		}
		print r, f
	}'
}

# "judged KIND PATH N" and "violations KIND PATH N" of the verdict.
count() {
	echo "$verdict" |
		awk -v w="$1 $2 $3" '$1 " " $2 " " $3 == w { print $4 + 0; f = 1 }
			END { if (!f) print 0 }'
}

# The checks.
none_interrupted() {
	[ "$(count judged none sync)" -ge "$ROUNDS" ] &&
		[ "$(count violations none sync)" -eq 0 ] &&
		[ "$(count violations none async)" -eq 0 ]
}
kind_exact() {	# KIND PATH
	[ "$(count judged "$1" "$2")" -ge "$ROUNDS" ] &&
		[ "$(count violations "$1" "$2")" -eq 0 ]
}
deep_sync_exact() { kind_exact deep sync; }
deep_async_exact() { kind_exact deep async; }
shallow_exact() {
	judged=$(($(count judged shallow sync) + $(count judged shallow async)))
	missed=$(($(count missed shallow sync) + $(count missed shallow async)))
	[ "$judged" -ge "$ROUNDS" ] && [ $((8 * missed)) -le "$judged" ] &&
		[ "$(count violations shallow sync)" -eq 0 ] &&
		[ "$(count violations shallow async)" -eq 0 ]
}
# Each CPU's rescheduling and function call interrupts in /proc/interrupts
# rose by at least what the trace shows: $counts0, $counts1, $traced.
counted() {
	echo "$counts0 / $counts1 / $traced" | awk '{
		n = split($0, part, " / ")
		split(part[1], a, " "); split(part[2], b, " "); split(part[3], t, " ")
		for (k = 1; k <= 2; k++) {
			split(a[k], x, ":"); split(b[k], y, ":"); split(t[k], z, ":")
			if (x[1] != y[1] || x[1] != z[1])
				exit 1
			for (i = 2; i in z; i++)
				if (y[i] - x[i] < z[i])
					exit 1
		}
	}'
}

ktap_print_header

CPUS=$(online_cpus)
NCPU=$(($(echo "$CPUS" | wc -w)))
st=/sys/devices/system/cpu/cpu1/cpuidle
missing=
for e in $EVENTS; do
	[ -d "$T/events/$e" ] || missing="$missing $e"
done
if [ ! -c "$DEV" ] || [ "$NCPU" -lt 2 ] || [ ! -d "$st" ] || [ -n "$missing" ]; then
	ktap_skip_all "needs $DEV, two CPUs with cpuidle, the trace events$missing"
	exit "$KSFT_SKIP"
fi
case "$CPUS" in
"0 1 "*) ;;
*)	ktap_skip_all "needs CPUs 0-$((NCPU - 1)) online (online: $CPUS)"
	exit "$KSFT_SKIP" ;;
esac
DEEPEST=$(for s in "$st"/state*; do
		echo "$(cat "$s/latency") ${s##*/state}"
	done | sort -n | tail -n 1 | cut -d' ' -f2)
lat=$(cat "$st/state$DEEPEST/latency")
if [ "$lat" -le "$HOLD2" ]; then
	ktap_skip_all "CPU 1 has no state deeper than $HOLD2 us"
	exit "$KSFT_SKIP"
fi
# This shell and what it starts stay on CPU 0.
if ! taskset -p 1 $$ >/dev/null; then
	ktap_skip_all "cannot move to CPU 0 (taskset)"
	exit "$KSFT_SKIP"
fi
read -r u0 <"$st/state$DEEPEST/usage"
read -r t0 <"$st/state$DEEPEST/time"
sleep 2
read -r u1 <"$st/state$DEEPEST/usage"
read -r t1 <"$st/state$DEEPEST/time"
n=$((u1 - u0))
stay=0
[ "$n" -gt 0 ] && stay=$(((t1 - t0) / n))
if [ "$n" -eq 0 ] || [ "$stay" -lt $MIN_STAY ]; then
	ktap_skip_all "CPU 1 does not stay in state $DEEPEST: $n entries," \
		"$stay us on average (needs $MIN_STAY us: a tickless kernel," \
		"a state that sleeps)"
	exit "$KSFT_SKIP"
fi

ktap_set_plan $NTESTS
ktap_print_msg "CPUs $CPUS; state $DEEPEST ($lat us) of CPU 1: $n entries," \
	"$stay us on average in 2 s of idle"

async=
[ -e "$PARAM" ] || modprobe test_latency_qos 2>/dev/null
if [ -w "$PARAM" ]; then
	async=1
	read -r before <"$PARAM"
	echo $LOOSE >"$PARAM"
fi

echo 0 >$T/tracing_on
echo >$T/trace
clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
echo global >$T/trace_clock
ok=1
echo 'cpu_id != 0' >$T/events/power/cpu_idle/filter || ok=
echo 'callsite.function == wake_up_if_idle' >$T/events/ipi/ipi_send_cpu/filter || ok=
echo 'func.function == latency_idle_ipi' >$T/events/csd/csd_function_entry/filter || ok=
echo stacktrace >$T/events/sched/sched_wake_idle_without_ipi/trigger || ok=
for e in $EVENTS; do
	echo 1 >"$T/events/$e/enable" || ok=
done
echo 1 >$T/tracing_on

fifo=$(mktemp -u)
mkfifo "$fifo"
exec 5<>"$fifo"
rm -f "$fifo"
exec 3>"$DEV"
echo $LOOSE >&3
# Every other CPU leaves its state and idles again: the trace has the
# state of each from here on.
for c in $CPUS; do
	[ "$c" -eq 0 ] || taskset "$(printf %x $((1 << c)))" true
done
counts0=$(ipi_counts)
r=0
while [ $r -lt $ROUNDS ]; do
	step none sync $CONTROL
	step deep sync $HOLD
	step none sync $HOLD2
	step shallow sync $LOOSE
	if [ -n "$async" ]; then
		step none async $CONTROL
		step deep async $HOLD
		step shallow async $LOOSE
	fi
	r=$((r + 1))
done
counts1=$(ipi_counts)
exec 3>&-

echo 0 >$T/tracing_on
for e in $EVENTS; do
	echo 0 >"$T/events/$e/enable"
done
echo 0 >$T/events/power/cpu_idle/filter
echo 0 >$T/events/ipi/ipi_send_cpu/filter
echo 0 >$T/events/csd/csd_function_entry/filter
echo '!stacktrace' >$T/events/sched/sched_wake_idle_without_ipi/trigger
trace=$(grep -v '^#' $T/trace)
# A new clock empties the buffer: after it is read.
echo "$clock" >$T/trace_clock
[ -n "$async" ] && echo "$before" >"$PARAM"

[ -n "$ok" ] || ktap_print_msg "could not set up the trace events, their filters or trigger"
verdict=$(judge)
echo "$verdict" | grep -v '^traced ' | sed 's/^/# /'
traced=$(echo "$verdict" | sed -n 's/^traced //p')
ktap_print_msg "/proc/interrupts before: $counts0; after: $counts1; traced: $traced"

ktap_test_result "a change that crosses no state interrupts no CPU" none_interrupted
desc="a synchronous tightening interrupts each CPU idle too deep once"
ktap_test_result "$desc (latency_idle_ipi), no other" deep_sync_exact
if [ -n "$async" ]; then
	desc="an asynchronous tightening wakes each CPU idle too deep once"
	ktap_test_result "$desc (wake_up_if_idle), no other" deep_async_exact
else
	ktap_test_skip "an asynchronous tightening: no $PARAM"
fi
desc="a relaxation wakes each CPU idle below a state it allows once"
ktap_test_result "$desc (wake_up_if_idle), no other" shallow_exact
ktap_test_result "/proc/interrupts counts at least the interrupts traced" counted

ktap_finished
