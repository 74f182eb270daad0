#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Turn the repository into a mailable series: git format-patch output in
# build/series/out/, one patch per entry of series/series (see the format
# there), each with its message series/NNNN-slug.msg, and the cover letter
# from series/0000-cover-letter.msg.
#
# build/series/linux is a git repository of the pristine base, one commit
# "Linux 6.12.118" (branch "base"), made once and reused while it is clean.
# Branch "series" is rebuilt from it on every run: for each patch, its new
# files and stages are copied, its whole or staged PATH.patch files applied
# to the base version of their file, and its hunks of PATH.patch files
# applied on top of the state so far.  Every repository file at a kernel
# path must be in exactly one patch, every hunk of a PATH.patch in exactly one patch,
# every stage (series/stages/N/PATH.diff, laid by harness/stages.sh as
# build/series/stages/N/PATH) in exactly one patch and superseded by PATH
# itself later, and the last commit must be byte-identical to what
# harness/apply.sh lays.
#
# harness/series.sh --map only checks series/series against the repository.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
work=$build/series
tree=$work/linux
out=$work/out
list=$top/series/series

name="Latency Series Developers"
email="latency@example.org"
export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email"
export GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email"
# One fixed date per state of the repository: the same input gives the
# same patches.
date=$(git -C "$top" log -1 --format=%cI)
export GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date"

die() { echo "series: $*" >&2; exit 1; }
g() { git -C "$tree" -c core.autocrlf=false -c commit.gpgsign=false "$@"; }

# hunks FILE "N M ...": the header of FILE and its hunks number N, M, ...
hunks() {
	awk -v want=" $2 " '/^@@ /{n++} n == 0 || index(want, " " n " ")' "$1"
}
nhunks() { grep -c '^@@ ' "$1" || true; }

# --- 1. Read series/series and check that it covers the repository once.

[ -f "$list" ] || die "$list missing"
plan=$work/plan
mkdir -p "$work"
# The stages, laid from the final files down: a diff that no longer applies
# stops here, naming itself and its hunk.
laid=$work/stages
BUILD=$build "$top/harness/stages.sh" lay "$laid" >/dev/null || die "the stages do not lay (above)"
# plan: one line per item, "PATCH file PATH", "PATCH hunk PATH N" (a
# "hunk PATH TEXT" resolved to the number N of the one hunk adding a line
# that contains TEXT) or "PATCH stage PATH N".
awk -v list="$list" -v top="$top" '
	function fail(m) { printf "series: %s:%d: %s\n", list, NR, m > "/dev/stderr"; bad = 1 }
	# hunk_adding(FILE, TEXT): the hunk adding a line with TEXT, 0 if none
	# or more than one ("found" says how many).
	function hunk_adding(f, text,	line, h, last, n) {
		h = 0; last = 0; n = 0
		while ((getline line < f) > 0) {
			if (line ~ /^@@ /)
				h++
			else if (h && line ~ /^\+/ && index(substr(line, 2), text) && last != h) {
				last = h
				n++
			}
		}
		close(f)
		found = n
		return n == 1 ? last : 0
	}
	/^[ \t]*(#|$)/ { next }
	$1 == "patch" { if (NF != 2 || $2 !~ /^[0-9][0-9][0-9][0-9]-[a-z0-9-]+$/) fail("patch NNNN-slug"); p = $2; next }
	p == "" { fail("\"" $1 "\" before the first \"patch\""); next }
	$1 == "file" { if (NF != 2) fail("file PATH"); print p, "file", $2; next }
	$1 == "stage" {
		if (NF != 3 || $3 !~ /^[0-9]+$/) { fail("stage PATH N"); next }
		print p, "stage", $2, $3
		next
	}
	$1 == "hunk" {
		if (NF < 3) { fail("hunk PATH.patch TEXT"); next }
		if ($2 !~ /\.patch$/) { fail($2 ": hunk of a non-.patch file"); next }
		text = $0
		sub(/^[ \t]*hunk[ \t]+[^ \t]+[ \t]+/, "", text)
		h = hunk_adding(top "/" $2, text)
		if (h)
			print p, "hunk", $2, h
		else if (found)
			fail($2 ": " found " hunks add a line with \"" text "\"")
		else
			fail($2 ": no hunk adds a line with \"" text "\"")
		next
	}
	$1 == "hunks" { fail("hunks are named by a line they add: hunk PATH.patch TEXT"); next }
	{ fail("unknown keyword " $1) }
	END { exit bad }' "$list" >"$plan" || die "errors in $list"
patches=$(awk '!seen[$1]++ { print $1 }' "$plan")
[ -n "$patches" ] || die "$list names no patch"

# The kernel files of the repository, selected as harness/apply.sh does.
files=$(cd "$top" && git ls-files --cached --others --exclude-standard |
	grep -E '/|^MAINTAINERS\.patch$' |
	grep -Ev '^(harness|build|series|\.ci)/' | sort -u |
	while read -r f; do [ -f "$f" ] && echo "$f"; done)

bad=0
n=0
for p in $patches; do
	n=$((n + 1))
	[ "${p%%-*}" = "$(printf %04d $n)" ] ||
		{ echo "series: patch $p is number $n in the list" >&2; bad=1; }
	[ -f "$top/series/$p.msg" ] ||
		{ echo "series: series/$p.msg missing" >&2; bad=1; }
done
# Every item names an existing file, every hunk exists, nothing twice.
while read -r p kind f h; do
	if [ ! -f "$top/$f" ]; then
		echo "series: $p: $f is not in the repository" >&2; bad=1
	elif [ "$kind" = hunk ] && [ "$h" -gt "$(nhunks "$top/$f")" ]; then
		echo "series: $p: $f has no hunk $h" >&2; bad=1
	fi
done <"$plan"
dups=$(awk '{ k = $2 == "file" ? $3 : $3 " " $2 " " $4; if (k in seen) print k " (" seen[k] ", " $1 ")"; seen[k] = $1 }' "$plan")
[ -z "$dups" ] || { echo "series: in more than one patch: $dups" >&2; bad=1; }
mixed=$(awk '$2 != "hunk" { f[$3] = 1 } $2 == "hunk" { h[$3] = 1 } END { for (x in f) if (x in h) print x }' "$plan")
[ -z "$mixed" ] || { echo "series: both whole (or staged) and by hunk: $mixed" >&2; bad=1; }
# Stages: each laid by one patch, at most one stage of a file per patch,
# each superseded in a later patch by another stage or, last, by the file
# itself ("file PATH"); each differs from what supersedes it; every file
# under series/stages/ is some patch's stage.
stages=$(awk -v top="$top" -v laid="$laid" '
	function fail(m) { print "series: " m > "/dev/stderr"; bad = 1 }
	# The file a stage or a final file is read from.
	function at(s) { return s ~ /^series\/stages\// ? laid "/" substr(s, 15) : top "/" s }
	$2 == "stage" {
		s = "series/stages/" $4 "/" $3
		if ((getline line < (top "/" s ".diff")) < 0)
			fail($1 ": " s ".diff is not in the repository")
		close(top "/" s ".diff")
		if (($1, $3) in staged)
			fail($1 ": two stages of " $3)
		staged[$1, $3] = 1
		print s
		if ($3 in last)
			supersede(last[$3], lastp[$3], s, $1)
		last[$3] = s; lastp[$3] = $1
	}
	$2 == "file" && $3 in last {
		supersede(last[$3], lastp[$3], $3, $1)
		delete last[$3]
		final[$3] = 1
	}
	# supersede(S, P, BY, Q): stage S of patch P gives way to BY in patch Q.
	function supersede(s, p, by, q) {
		if (q == p)
			fail(p ": " by " supersedes " s " in the same patch")
		else if (system("cmp -s \"" at(s) "\" \"" at(by) "\"") == 0)
			fail(q ": " by " is identical to the stage it supersedes, " s)
	}
	END {
		for (f in last)
			fail(last[f] " (" lastp[f] ") is not superseded by " f " in a later patch" \
			     (f in final ? "" : ": no \"file " f "\""))
		exit bad
	}' "$plan") || bad=1
echo "$stages" | sort >"$work/stages.list"
unused=$(cd "$top" && find series/stages -type f -name '*.diff' 2>/dev/null |
	sed 's/\.diff$//' | sort | comm -23 - "$work/stages.list")
rm -f "$work/stages.list"
[ -z "$unused" ] || { echo "series: stages in no patch: $unused" >&2; bad=1; }
for f in $files; do
	case $f in
	*.patch)
		if ! grep -q " file $f\$" "$plan"; then
			i=1
			while [ $i -le "$(nhunks "$top/$f")" ]; do
				grep -q " hunk $f $i\$" "$plan" ||
					{ echo "series: $f hunk $i is in no patch" >&2; bad=1; }
				i=$((i + 1))
			done
		fi ;;
	*)	grep -q " file $f\$" "$plan" ||
			{ echo "series: $f is in no patch" >&2; bad=1; } ;;
	esac
done
for f in $(awk '{ print $3 }' "$plan" | sort -u); do
	echo "$files" | grep -qx "$f" ||
		{ echo "series: $f is not a kernel file of the repository" >&2; bad=1; }
done
[ $bad = 0 ] || die "$list does not cover the repository exactly once"
echo "series: $list: $n patches cover $(echo "$files" | wc -l) files, $(echo "$stages" | grep -c .) stages"
[ "${1:-}" = --map ] && exit 0

# --- 2. The pristine base as a git repository, made once.

if [ -d "$tree/.git" ] && g rev-parse -q --verify refs/heads/base >/dev/null; then
	g checkout -q -f base
	g clean -q -f -d -x
	echo "series: reusing the base repository $tree"
else
	[ -f "$tarball" ] || die "$tarball missing (make deps)"
	echo "series: unpacking $tarball into $tree"
	rm -rf "$tree" "$work/linux-source-6.12"
	tar -C "$work" -xf "$tarball"
	mv "$work/linux-source-6.12" "$tree"
	version=$(make -s -C "$tree" kernelversion)
	g init -q -b base
	g add -A -f .
	g commit -q --no-verify -m "Linux $version"
fi
version=$(make -s -C "$tree" kernelversion)
g log -1 --format=%s base | grep -qx "Linux $version" || die "$tree: branch base is not Linux $version"

# --- 3. One commit per patch.

g checkout -q -B series base
for p in $patches; do
	grep "^$p " "$plan" | while read -r _ kind f h; do
		src=$top/$f
		[ "$kind" = stage ] && src=$laid/$h/$f
		[ "$kind" = hunk ] && continue
		case $f in
		*.patch)
			# Whole or staged: a stage of it or itself, on the base.
			g show "base:${f%.patch}" >"$tree/${f%.patch}" ||
				die "$p: ${f%.patch} is not in the base"
			patch -s -f -F0 --no-backup-if-mismatch "$tree/${f%.patch}" "$src" ||
				die "$p: $f${h:+ (stage $h)} does not apply"
			;;
		*)	mkdir -p "$(dirname "$tree/$f")"; cp "$src" "$tree/$f" ;;
		esac
	done
	for f in $(awk -v p="$p" '$1 == p && $2 == "hunk" { print $3 }' "$plan" | sort -u); do
		sel=$(awk -v p="$p" -v f="$f" '$1 == p && $2 == "hunk" && $3 == f { printf "%s ", $4 }' "$plan")
		hunks "$top/$f" "$sel" >"$work/part"
		patch -s -f -F0 --no-backup-if-mismatch "$tree/${f%.patch}" "$work/part" ||
			die "$p: hunk(s) $sel of $f do not apply"
	done
	rm -f "$work/part"
	g add -A -f .
	g commit -q --no-verify --cleanup=whitespace -F "$top/series/$p.msg"
	echo "series:   $(g log -1 --format=%s)"
done

# --- 4. The last commit is what harness/apply.sh lays.

# Lay the repository with apply.sh itself over a tree of just the base
# versions of the files the series changes, then compare file by file.
chk=$work/apply-check
rm -rf "$chk"
mkdir -p "$chk/linux-source-6.12"
changed=$(g diff --name-only base series)
existing=$(for f in Makefile $changed; do
	if g cat-file -e "base:$f" 2>/dev/null; then echo "$f"; fi; done)
# apply.sh asks the tree's Makefile for the version: that needs scripts/.
# shellcheck disable=SC2086
g archive base $existing scripts arch/x86/Makefile arch/x86/Makefile_32.cpu | tar -C "$chk/linux-source-6.12" -xf -
BUILD=$chk "$top/harness/apply.sh" >"$chk.log" 2>&1 ||
	{ cat "$chk.log" >&2; die "harness/apply.sh failed"; }
echo "$changed" | sort >"$chk/series.list"
sort "$chk/applied.list" | diff -u "$chk/series.list" - >&2 ||
	die "the series and harness/apply.sh change different files"
for f in $changed; do
	g show "series:$f" | cmp -s - "$chk/linux-source-6.12/$f" ||
		die "$f differs from what harness/apply.sh lays"
done
rm -rf "$chk" "$chk.log"
echo "series: the series ends in the tree harness/apply.sh lays ($(echo "$changed" | wc -l) files)"

# --- 5. format-patch, with our cover letter.

rm -rf "$out"
g format-patch -q --cover-letter -o "$out" base..series
cover=$(ls "$out"/0000-*.patch)
msg=$top/series/0000-cover-letter.msg
[ -f "$msg" ] || die "series/0000-cover-letter.msg missing"
python3 - "$cover" "$msg" <<'EOF'
import sys
cover, msg = sys.argv[1:]
subject, _, blurb = open(msg).read().partition("\n")
text = open(cover).read()
for old, new in (("*** SUBJECT HERE ***", subject.strip()),
                 ("*** BLURB HERE ***", blurb.strip("\n"))):
    if text.count(old) != 1:
        sys.exit("series: %s: no single %r" % (cover, old))
    text = text.replace(old, new)
open(cover, "w").write(text)
EOF
echo "series: $n patches and a cover letter in $out:"
ls "$out" | sed 's/^/series:   /'
