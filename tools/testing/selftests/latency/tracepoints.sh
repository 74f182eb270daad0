#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The latency_add, latency_update and latency_remove trace events name the
# holder, its old and new value and the resulting system value.

T=/sys/kernel/tracing
DEV=/dev/acceptable_latency
n=0
fails=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

echo "TAP version 13"
echo "1..6"

if [ ! -d $T/events/latency ]; then
	for i in 1 2 3 4 5 6; do
		echo "ok $i - trace events # SKIP no $T/events/latency"
	done
	exit 4
fi

base=$(cat $DEV)
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/latency/enable
echo 1 >$T/tracing_on

exec 3>$DEV
echo 150 >&3
echo 120 >&3
exec 3>&-

echo 0 >$T/tracing_on
echo 0 >$T/events/latency/enable
trace=$(grep -v '^#' $T/trace)
echo "$trace" | sed 's/^/# /'

id=$(echo "$trace" |
	sed -n 's/.*latency_add: identifier=\(user:[0-9]*\) .*/\1/p' |
	head -n 1)
ok "$([ -n "$id" ]; echo $?)" "latency_add names the new user-space holder ($id)"
echo "$trace" | grep -q "latency_add: identifier=$id usecs=1000000 system=$base\$"
ok $? "latency_add: no constraint yet, system $base"
echo "$trace" | grep -q "latency_update: identifier=$id old_usecs=1000000 usecs=150 system=150\$"
ok $? "latency_update: 1000000 -> 150, system 150"
echo "$trace" | grep -q "latency_update: identifier=$id old_usecs=150 usecs=120 system=120\$"
ok $? "latency_update: 150 -> 120, system 120"
echo "$trace" | grep -q "latency_remove: identifier=$id old_usecs=120 system=$base\$"
ok $? "latency_remove on close: system back to $base"
cnt=$(echo "$trace" | grep -c "identifier=$id ")
ok "$([ "$cnt" -eq 4 ]; echo $?)" "exactly four events for the holder (saw $cnt)"

[ $fails -eq 0 ]
