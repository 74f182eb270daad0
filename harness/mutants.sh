#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make mutants [M="NAME ..."]: is each promise seen by a test?
#
# harness/mutants/NAME.diff is a small edit of a production file (a diff
# against the repository's file, a PATH.patch included) that breaks one
# promise, named on its "Promise:" line with where the README or
# Documentation/latency.txt makes it.  Each is applied alone to a clone of
# the committed HEAD (build/mutants/tree, its own build directory, reused),
# the series' stages are written again for it (harness/stages.sh regen),
# make test runs on it, and the tree is restored.  A mutant is
#   killed    when it applies, builds with no warning on a file it changes,
#             and make test fails with a named test of the kernel ("kunit
#             FAILED: ...", "selftest FAILED: ...");
#   survived  when make test passes: a promise no test sees (or, with an
#             "Equivalent:" line arguing why, an edit that breaks nothing);
#   error     when it does not apply, does not build, adds a warning, or
#             make test fails with no named test (a kernel that did not
#             boot, say).
# make test runs first without the arm64 guest (ARM64=0): a mutant that
# the x86_64 guest kills is killed by make test too; the others get the
# whole make test.  The unmutated tree must pass first.  One line a mutant,
# "MUTANT killed|survived|error NAME ...", and a closing count; the last
# run is kept in harness/mutants-results.txt.  Exits non-zero unless every
# mutant is killed (or equivalent).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
work=$build/mutants
src=$work/tree
dir=$top/harness/mutants
results=$top/harness/mutants-results.txt

die() { echo "mutants: $*" >&2; exit 2; }

if [ -n "${M:-}" ]; then
	names=$M
else
	names=$(cd "$dir" && ls ./*.diff | sed 's|^\./||; s|\.diff$||')
fi
[ -n "$names" ] || die "no mutant in $dir"
for n in $names; do
	[ -f "$dir/$n.diff" ] || die "no mutant $n ($dir/$n.diff)"
	grep -q '^Promise: ' "$dir/$n.diff" || die "$n: no \"Promise:\" line"
done

# A clone of the committed HEAD: what lands, not the working tree.
mkdir -p "$work"
if [ -d "$src/.git" ]; then
	git -C "$src" fetch -q "$top" HEAD
	git -C "$src" checkout -q -f --detach FETCH_HEAD
else
	git clone -q "$top" "$src"
	git -C "$src" checkout -q --detach
fi
rev=$(git -C "$src" rev-parse --short HEAD)
restore() {
	git -C "$src" reset -q --hard
	git -C "$src" clean -q -f -d -x -e /build
}
restore

# run LOG [VAR=VALUE ...]: make test in the clone, its output in LOG.
run() {
	log=$1
	shift
	# Not make's variables of "make mutants M=...": the kernel's make
	# would take M for an external module's directory.
	(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u M "$@" \
		make test </dev/null >"$log" 2>&1)
}

t0=$(date +%s)
echo "mutants: $(echo "$names" | wc -w) mutant(s) of $rev, in $src"
run "$work/unmutated.log" || {
	tail -n 20 "$work/unmutated.log" >&2
	die "make test fails on the unmutated tree ($work/unmutated.log)"
}
# count LOG: make test's closing count in LOG.
count() { grep -E '^[0-9]+ passed, ' "$1" | tail -n 1; }
echo "mutants: unmutated: $(count "$work/unmutated.log") ($(($(date +%s) - t0)) s)"

out=$work/results
: >"$out"
killed=0 equivalent=0 survived=0 errors=0
for n in $names; do
	m=$dir/$n.diff
	log=$work/$n.log
	t=$(date +%s)
	restore
	verdict=
	if ! git -C "$src" apply "$m" 2>"$log"; then
		verdict="error $n: does not apply ($(head -n 1 "$log"))"
	elif ! (cd "$src" && ./harness/stages.sh regen) >>"$log" 2>&1; then
		# A mutant of the core changes what the stages' diffs apply to:
		# written again, so that the harness's own tests see a
		# consistent tree.
		verdict="error $n: the series' stages do not follow it"
	else
		rc=0
		run "$log" ARM64=0 || rc=$?
		if [ $rc -eq 0 ]; then
			run "$log" || rc=$?
		fi
		# Warnings on the files it changes (PATH.patch: PATH).
		warn=
		for f in $(git -C "$src" diff --name-only); do
			f=${f%.patch}
			w=$(grep -F "$f:" "$log" | grep -E ': warning: |: error: ' | head -n 1) || true
			[ -z "$w" ] || warn=$w
		done
		# The kernel's tests: the host's test the harness.
		by=$(grep -E '^(arm64: )?(kunit|selftest) FAILED: ' "$log" |
			sed 's/ FAILED: /: /' | sort -u | head -n 3 | paste -sd ';' -) || true
		if [ -n "$warn" ]; then
			verdict="error $n: a new warning: $warn"
		elif grep -q 'kernel: building' "$log" && ! grep -Eq '^kernel: built|^[0-9]+ passed, ' "$log"; then
			verdict="error $n: does not build"
		elif [ $rc -ne 0 ] && [ -n "$by" ]; then
			verdict="killed $n by $by"
		elif [ $rc -ne 0 ]; then
			verdict="error $n: make test failed with no named test ($(count "$log"))"
		elif eq=$(sed -n 's/^Equivalent: //p' "$m") && [ -n "$eq" ]; then
			verdict="survived $n (equivalent: $eq)"
		else
			verdict="survived $n: $(sed -n 's/^Promise: //p' "$m")"
		fi
	fi
	case $verdict in
	killed*)	killed=$((killed + 1)) ;;
	"survived $n (equivalent"*) equivalent=$((equivalent + 1)) ;;
	survived*)	survived=$((survived + 1)) ;;
	*)		errors=$((errors + 1)) ;;
	esac
	echo "MUTANT $verdict ($(($(date +%s) - t)) s)" | tee -a "$out"
done
restore

total=$(echo "$names" | wc -w)
summary="mutants: $total run, $killed killed, $equivalent equivalent, $survived survived, $errors errors in $(($(date +%s) - t0)) s"
echo "$summary"
{
	echo "# make mutants${M:+ M=\"$M\"} on $rev, $(date -u '+%Y-%m-%d %H:%M') UTC"
	echo "# (harness/mutants.sh: each mutant alone on a clone of HEAD, make test)"
	cat "$out"
	echo "$summary"
} >"$results.new"
mv "$results.new" "$results"
[ $survived -eq 0 ] && [ $errors -eq 0 ]
