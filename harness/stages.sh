#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The stages of the core: what the first patches of the series leave of a
# file that grows over several of them (kernel/latency.c, ...).  No stage
# is kept whole.  series/stages/N/PATH.diff is the diff that takes the next
# stage of PATH (the last stage: PATH itself, the final file) back to stage
# N: exactly what the patch laying the next stage adds, reversed.
#
#   harness/stages.sh lay [OUT]   lay every stage, from the final files
#                                 down, as OUT/N/PATH (build/series/stages)
#   harness/stages.sh regen       after an edit of a final file that a
#                                 stage's diff no longer fits: write the
#                                 diffs again (see below)
#
# lay applies each diff with no fuzz (patch -F0; an offset is fine), so an
# edit can never land in a stage it does not belong to; a diff that does
# not apply stops it, naming the diff and the hunk.  An edit of the final
# file in code that no later patch adds needs nothing: the diffs take it
# down to every stage.  An edit in, or next to, what a later patch adds
# needs regen: it lays the stages as they were at the last commit where
# they laid (the working tree's, when they still do), carries the final
# files' change since then into each stage, change by change, and writes
# every diff again.  A change of lines a stage has, or an insertion after
# a line it has, reaches it; one that meets lines the stage does not have
# stays out of it, so that it lands in the patch that adds them, and is
# named.  An insertion that an earlier stage needs but that follows a
# line of a later patch stays out too: "make series-check" then finds the
# prefix that no longer builds; put the insertion elsewhere.
# "git diff series/stages" shows what regen did.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}

die() { echo "stages: $*" >&2; exit 1; }

# staged SRC: "PATH N N ..." for each staged file of the tree SRC, its
# stages from the last to the first.
staged() {
	[ -d "$1/series/stages" ] || return 0
	(cd "$1/series/stages" && find . -type f) | sed 's|^\./||' | sort |
	awk '
		!/^[0-9]+\/.+\.diff$/ { print "stages: series/stages/" $0 ": not a stage diff (N/PATH.diff)" > "/dev/stderr"; bad = 1; next }
		{
			n = substr($0, 1, index($0, "/") - 1)
			p = substr($0, index($0, "/") + 1)
			sub(/\.diff$/, "", p)
			if (!(p in s)) order[++k] = p
			s[p] = s[p] " " n
		}
		END {
			for (i = 1; i <= k; i++) {
				c = split(s[order[i]], a, " ")
				# numeric sort, descending (a handful of stages)
				for (x = 1; x <= c; x++)
					for (y = x + 1; y <= c; y++)
						if (a[y] + 0 > a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
				line = order[i]
				for (x = 1; x <= c; x++) line = line " " a[x]
				print line
			}
			exit bad
		}'
}

# lay SRC OUT: the stages of the tree SRC (its final files and its
# series/stages), laid as OUT/N/PATH.
lay() {
	src=$1 dst=$2
	list=$(staged "$src") || exit 1
	rm -rf "$dst"
	mkdir -p "$dst"
	echo "$list" | while read -r path stages; do
		[ -n "$path" ] || continue
		[ -f "$src/$path" ] || die "series/stages has diffs of $path, which is not in the repository"
		cur=$src/$path
		above=$path
		for n in $stages; do
			out=$dst/$n/$path
			mkdir -p "$(dirname "$out")"
			cp "$cur" "$out"
			if ! patch -f -F0 --no-backup-if-mismatch -r "$out.rej" \
				"$out" "$src/series/stages/$n/$path.diff" >"$dst/log" 2>&1; then
				grep -v '^patching file\|succeeded at' "$dst/log" | sed 's/^/stages:   /' >&2
				echo "stages: series/stages/$n/$path.diff does not apply to $above: an edit of $path is in, or next to, what the patch laying $above adds" >&2
				echo "stages: regenerate the diffs with: harness/stages.sh regen" >&2
				exit 1
			fi
			cur=$out
			above="stage $n"
		done
	done || exit 1
	rm -f "$dst/log"
}

# write_diff PATH FROM TO DIFF: the diff taking FROM (the next stage) to TO.
write_diff() {
	rc=0
	diff -u --label "a/$1" --label "b/$1" "$2" "$3" >"$4" || rc=$?
	[ $rc = 1 ] || die "$4: stage identical to the one above it, or diff failed"
}

cmd=${1:-}
case $cmd in
lay)
	out=${2:-$build/series/stages}
	lay "$top" "$out"
	echo "stages: laid $(find "$out" -type f | wc -l) stages in $out"
	;;
regen)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	list=$(staged "$top") || exit 1
	files=$(echo "$list" | awk '{ print $1 }')
	# The base: the working tree if its stages lay, else the last commit
	# touching the stages or a staged file at which they lay.
	base=
	if (lay "$top" "$tmp/old") 2>/dev/null; then
		base=working-tree
		for f in $files; do
			mkdir -p "$tmp/oldtop/$(dirname "$f")"
			cp "$top/$f" "$tmp/oldtop/$f"
		done
	else
		# shellcheck disable=SC2086
		for rev in $(git -C "$top" log --format=%H -- series/stages $files); do
			rm -rf "$tmp/oldtop"
			mkdir -p "$tmp/oldtop"
			# shellcheck disable=SC2086
			git -C "$top" archive "$rev" series/stages $files 2>/dev/null |
				tar -C "$tmp/oldtop" -xf - 2>/dev/null || continue
			if (lay "$tmp/oldtop" "$tmp/old") 2>/dev/null; then
				base=$rev
				break
			fi
		done
	fi
	[ -n "$base" ] || die "no commit at which the stages lay"
	echo "stages: regen from the stages as they lay at $base"
	echo "$list" | while read -r path stages; do
		prev=$top/$path
		for n in $stages; do
			new=$tmp/new/$n/$path
			mkdir -p "$(dirname "$new")"
			python3 - "$tmp/old/$n/$path" "$tmp/oldtop/$path" "$top/$path" \
				"$new" "stage $n of $path" <<'EOF' || die "merge of stage $n of $path failed"
# Carry each change between the old and the new final file (B to T) into
# the old stage (O), line by line: a change of lines the stage has as
# they were, or an insertion after a line it has, lands; one that meets
# lines the stage lacks or changed stays out, and is named.
import difflib, sys
o, b, t = (open(f).readlines() for f in sys.argv[1:4])
def sm(x, y):
    return difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes()
kept = {}
for tag, i1, i2, j1, j2 in sm(b, o):
    if tag == 'equal':
        kept.update((i1 + k, j1 + k) for k in range(i2 - i1))
ops, out = [], 0
for tag, i1, i2, j1, j2 in sm(b, t):
    if tag == 'equal':
        continue
    at = [kept.get(k) for k in range(i1, i2)]
    if i2 > i1 and None not in at and at == list(range(at[0], at[0] + len(at))):
        ops.append((at[0], at[-1] + 1, t[j1:j2]))
    elif i1 == i2 and i1 - 1 in kept:
        ops.append((kept[i1 - 1] + 1, kept[i1 - 1] + 1, t[j1:j2]))
    elif i1 == i2 == 0:
        ops.append((0, 0, t[j1:j2]))
    else:
        out += 1
        what = 'lines %d-%d' % (i1 + 1, i2) if i2 > i1 else 'the insertion at line %d' % i1
        print('stages: %s: the change of %s of %s meets code the stage does not '
              'have: left out of it' % (sys.argv[5], what, sys.argv[2].split('/oldtop/')[-1]))
for a, z, lines in reversed(ops):
    o[a:z] = lines
open(sys.argv[4], 'w').writelines(o)
EOF
			write_diff "$path" "$prev" "$new" "$top/series/stages/$n/$path.diff"
			prev=$new
		done
	done || exit 1
	lay "$top" "$tmp/check"
	(cd "$tmp/new" && find . -type f) | while read -r f; do
		cmp -s "$tmp/new/$f" "$tmp/check/$f" || die "regen: $f does not lay back"
	done
	git -C "$top" status --short -- series/stages | sed 's/^/stages: /'
	;;
*)
	die "usage: harness/stages.sh lay [OUT] | regen"
	;;
esac
