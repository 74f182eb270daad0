#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/tests/series-map.sh: series/series names each hunk of a .patch
# file by a line it adds; check that harness/series.sh --map keeps a hunk
# in its patch when the file is regenerated and its hunks move, and fails
# when the map and the hunks no longer match; that it fails when a stage
# of a file (series/stages/) is not superseded by the file, is in no
# patch, or changes nothing; and that an edit of a final file reaches the
# stages that have its code by itself, while one in what a later patch adds
# stops it until harness/stages.sh regen.  TAP on stdout; works on a copy
# of the repository (its files as they are, committed or not).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# fresh: a copy of the repository in $tmp/repo, as one commit
fresh() {
	rm -rf "$tmp/repo"
	mkdir -p "$tmp/repo"
	(cd "$top" && git ls-files --cached --others --exclude-standard |
		while read -r f; do [ -f "$f" ] && echo "$f"; done |
		tar -cf - -T -) | tar -C "$tmp/repo" -xf -
	git -C "$tmp/repo" init -q
	git -C "$tmp/repo" add -A
	git -C "$tmp/repo" -c user.name=t -c user.email=t@example.org \
		commit -q -m copy
}

# map: harness/series.sh --map on the copy; its output in $tmp/out
map() {
	BUILD="$tmp/build" "$tmp/repo/harness/series.sh" --map >"$tmp/out" 2>&1
}

result() {	# result OK DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	fi
}

# hunk_of PATCH FILE: the hunk numbers of FILE that patch PATCH takes
hunk_of() {
	awk -v p="$1" -v f="$2" '$1 ~ "^" p && $2 == "hunk" && $3 == f { print $4 }' \
		"$tmp/build/series/plan"
}

echo "TAP version 13"
echo "1..13"

fresh
map
result $? "series/series as it is maps every hunk once"
before=$(hunk_of 0007 kernel/Makefile.patch)

# Regenerate kernel/Makefile.patch with one more change at the top of the
# file, as harness/mkpatch.sh would after an edit: every hunk moves down.
base=$build/pristine/kernel/Makefile
[ -f "$base" ] || base=$build/linux-source-6.12/kernel/Makefile
cp "$base" "$tmp/Makefile"
patch -s -f "$tmp/Makefile" "$tmp/repo/kernel/Makefile.patch"
sed -i '1a # an edit above every hunk' "$tmp/Makefile"
"$tmp/repo/harness/mkpatch.sh" kernel/Makefile "$tmp/Makefile" "$base" >/dev/null
map
rc=$?
grep -q 'kernel/Makefile.patch hunk 1 is in no patch' "$tmp/out" && [ $rc -ne 0 ]
result $? "a new hunk of a regenerated patch is in no patch: make series fails"
after=$(hunk_of 0007 kernel/Makefile.patch)
[ -n "$before" ] && [ "$after" = $((before + 1)) ]
result $? "a moved hunk stays in its patch (0007: hunk $before, now $after)"

fresh
sed -i 's|^hunk kernel/Makefile.patch += latency_dev.o$|hunk kernel/Makefile.patch += latency_gone.o|' \
	"$tmp/repo/series/series"
map
rc=$?
grep -q 'no hunk adds a line with "+= latency_gone.o"' "$tmp/out" && [ $rc -ne 0 ]
result $? "a key that no hunk adds fails"

fresh
sed -i 's|^hunk kernel/Makefile.patch += latency_dev.o$|hunk kernel/Makefile.patch += latency|' \
	"$tmp/repo/series/series"
map
rc=$?
grep -Eq '[0-9]+ hunks add a line with "\+= latency"' "$tmp/out" && [ $rc -ne 0 ]
result $? "a key that two hunks add fails"

fresh
sed -i 's|^hunk kernel/Makefile.patch += latency_dev.o$|hunks kernel/Makefile.patch 1|' \
	"$tmp/repo/series/series"
map
rc=$?
grep -q 'hunks are named by a line they add' "$tmp/out" && [ $rc -ne 0 ]
result $? "a hunk named by its index fails"

fresh
sed -i '\|^file kernel/latency.c$|d' "$tmp/repo/series/series"
map
rc=$?
grep -q 'series/stages/5/kernel/latency.c (0005-[a-z-]*) is not superseded by kernel/latency.c' "$tmp/out" &&
	[ $rc -ne 0 ]
result $? "a stage that the file never supersedes fails"

fresh
sed -i '\|^stage kernel/latency.c 2$|d' "$tmp/repo/series/series"
map
rc=$?
grep -q 'stages in no patch: series/stages/2/kernel/latency.c' "$tmp/out" && [ $rc -ne 0 ]
result $? "a stage in no patch fails"

fresh
printf '' >"$tmp/repo/series/stages/1/kernel/latency.c.diff"
map
rc=$?
grep -q 'kernel/latency.c is identical to the stage it supersedes' "$tmp/out" && [ $rc -ne 0 ]
result $? "a stage identical to what supersedes it fails"

fresh
cp "$tmp/repo/kernel/latency.c" "$tmp/repo/series/stages/4/kernel/latency.c"
map
rc=$?
grep -q 'series/stages/4/kernel/latency.c: not a stage diff' "$tmp/out" && [ $rc -ne 0 ]
result $? "a whole-file copy in series/stages fails"

# staged N TEXT: stage N of kernel/latency.c, laid, has a line with TEXT.
staged() { grep -qF "$2" "$tmp/build/series/stages/$1/kernel/latency.c"; }

# A comment of code that patch 1 has: every stage takes it, nothing else.
fresh
sed -i 's|^ \* latency.c: explicit system-wide latency-expectation infrastructure$|& (trial)|' \
	"$tmp/repo/kernel/latency.c"
map
rc=$?
[ $rc -eq 0 ] && staged 1 'infrastructure (trial)' && staged 4 'infrastructure (trial)' &&
	[ -z "$(git -C "$tmp/repo" status --porcelain -- series)" ]
result $? "an edit of what patch 1 has reaches stage 1, series/ unchanged"

# A line that patch 5 adds (the export of latency_idle_wake) and patch 18
# leaves alone: make series stops, names the diff and its hunk; regen
# writes the diffs again, and the edit stays out of the stages before
# patch 5.
fresh
sed -i 's|^EXPORT_TRACEPOINT_SYMBOL_GPL(latency_idle_wake);$|&\t/* trial */|' \
	"$tmp/repo/kernel/latency.c"
grep -q 'latency_idle_wake);	/\* trial \*/$' "$tmp/repo/kernel/latency.c" || echo "# the trial edit did not apply"
map
rc=$?
grep -q 'series/stages/4/kernel/latency.c.diff does not apply' "$tmp/out" &&
	grep -q 'Hunk #[0-9]* FAILED' "$tmp/out" && grep -q 'harness/stages.sh regen' "$tmp/out" &&
	[ $rc -ne 0 ]
result $? "an edit of what patch 5 adds stops make series, naming the diff and hunk"
BUILD="$tmp/build" "$tmp/repo/harness/stages.sh" regen >"$tmp/out" 2>&1 && map
rc=$?
[ $rc -eq 0 ] && ! staged 4 'trial' && ! staged 1 'trial' &&
	[ "$(git -C "$tmp/repo" status --porcelain -- series)" = " M series/stages/4/kernel/latency.c.diff" ]
result $? "harness/stages.sh regen rewrites stage 4's diff alone; the edit is patch 5's"

echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ $failed -eq 0 ]
