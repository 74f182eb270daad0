#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Check the mailed form of the series (build/series/out/, "make series"):
#  - git am applies it onto a fresh branch of the pristine base, and the
#    result is the tree harness/series.sh committed;
#  - every prefix builds, with the project's configuration (the kunit.py
#    x86_64 defaults plus harness/config/*.config, options of later
#    patches left out), in one build directory, so each step is
#    incremental; no compiler warning names a file of the series;
#  - scripts/checkpatch.pl --strict reports no error, warning or check on
#    any patch.  One check is answered rather than obeyed: argument reuse
#    in LATENCY_REGISTRY_INIT(), a static initializer whose arguments are
#    identifiers (as those of __MUTEX_INITIALIZER()).  One warning too:
#    "added, moved or deleted file(s), does MAINTAINERS need updating?" is
#    accepted when every file the patch adds already has a MAINTAINERS
#    section at that point of the series (patch 1 adds the LATENCY
#    CONSTRAINTS entry for all of the series' new files; the others sit in
#    ACPI's and ipw2x00's directories);
#  - a W=1 build of the objects of the series gives no warning on a line
#    the series adds.
# Prints the time of each step; the last line is "series-check: N passed,
# N failed".
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
work=$build/series
tree=$work/linux
out=$work/out
kbuild=$work/kbuild
logs=$work/check
jobs=${JOBS:-$(nproc)}

export CCACHE_DIR="${CCACHE_DIR:-/var/cache/latency-ccache}"
export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=1
export GIT_COMMITTER_NAME="Latency Series Developers"
export GIT_COMMITTER_EMAIL="latency@example.org"

die() { echo "series-check: $*" >&2; exit 1; }
g() { git -C "$tree" -c core.autocrlf=false "$@"; }
now() { date +%s; }

[ -d "$tree/.git" ] && ls "$out"/0001-*.patch >/dev/null 2>&1 ||
	die "no series in $out: run make series"
patches=$(ls "$out"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-')
n=$(echo "$patches" | wc -l)
rm -rf "$logs"
mkdir -p "$logs" "$kbuild"
t0=$(now)

# --- git am onto a fresh branch of the base.
g am --abort >/dev/null 2>&1 || true
g checkout -q -f -B series-check base
g clean -q -f -d -x
# shellcheck disable=SC2086
g am -q $patches >"$logs/am.log" 2>&1 || { cat "$logs/am.log" >&2; g am --abort; die "git am failed"; }
g diff --quiet series series-check || die "git am gives another tree than harness/series.sh made"
echo "series-check: git am applies $n patches onto Linux $(make -s -C "$tree" kernelversion)"

# --- The configuration, as harness/kernel.sh gives it to kunit.py.
frag=$logs/config.fragment
python3 - "$tree/tools/testing/kunit/qemu_configs/x86_64.py" >"$frag" <<'EOF'
import re, sys
print(re.search(r"kconfig='''(.*?)'''", open(sys.argv[1]).read(), re.S).group(1).strip())
EOF
cat "$top"/harness/config/*.config >>"$frag"

passed=0 failed=0
fail() { echo "series-check: FAIL: $*"; failed=$((failed + 1)); }

# judge WARNINGS FAILURE SUCCESS: fail, listing the warnings, or pass.
judge() {
	if [ -n "$1" ]; then
		fail "$2"
		echo "$1" | sed 's/^/series-check:   /'
	else
		passed=$((passed + 1))
		echo "series-check: $3"
	fi
}

files_of() {	# the files commit $1 adds
	g diff-tree --no-commit-id --name-only --diff-filter=A -r "$1"
}

i=0
for c in $(g rev-list --reverse base..series-check); do
	i=$((i + 1))
	subj=$(g log -1 --format=%s "$c")
	echo "series-check: [$i/$n] $subj"
	g checkout -q "$c"

	# checkpatch, on the patch as mailed, from the tree at this point.
	p=$(echo "$patches" | sed -n "${i}p")
	t=$(now)
	(cd "$tree" && ./scripts/checkpatch.pl --strict --show-types --terse "$p") \
		>"$logs/$i.checkpatch" 2>&1 || true
	findings=$(grep -E ': (ERROR|WARNING|CHECK):' "$logs/$i.checkpatch" || true)
	# Argument reuse in the registry's static initializer: its arguments
	# are identifiers, as __MUTEX_INITIALIZER()'s (answered, not obeyed).
	findings=$(echo "$findings" | while IFS= read -r l; do
		case $l in
		*": CHECK:MACRO_ARG_REUSE: "*)
			f=${l%%:*}; n=${l#*:}; n=${n%%:*}
			(cd "$tree" && sed -n "${n}p" "$f") |
				grep -q '^+#define LATENCY_REGISTRY_INIT(' && continue ;;
		esac
		echo "$l"
	done)
	other=$(echo "$findings" | grep -v ' WARNING:FILE_PATH_CHANGES: ' | grep . || true)
	uncovered=
	if [ -n "$findings" ] && [ "$findings" != "$other" ]; then
		for f in $(files_of "$c"); do
			(cd "$tree" && ./scripts/get_maintainer.pl --nogit --nogit-fallback --sections -f "$f" 2>/dev/null) |
				awk 'BEGIN { RS = "" } $0 !~ /^THE REST/ && /\nM:/ { ok = 1 } END { exit !ok }' ||
				uncovered="$uncovered $f"
		done
	fi
	if [ -n "$other" ] || [ -n "$uncovered" ]; then
		fail "checkpatch: $(basename "$p")"
		echo "$other" | sed '/^$/d; s/^/series-check:   /'
		[ -z "$uncovered" ] || echo "series-check:   no MAINTAINERS section for:$uncovered"
	else
		passed=$((passed + 1))
		if [ -z "$findings" ]; then
			echo "series-check:   checkpatch --strict: clean, $(($(now) - t)) s"
		else
			echo "series-check:   checkpatch --strict: only \"does MAINTAINERS need updating?\"; MAINTAINERS has a section for $(files_of "$c" | tr '\n' ' ')"
		fi
	fi

	# Build this prefix.
	t=$(now)
	cp "$frag" "$kbuild/.config"
	if ! nice -n 19 make -s -C "$tree" O="$kbuild" ARCH=x86_64 olddefconfig \
		>"$logs/$i.build" 2>&1; then
		fail "olddefconfig at patch $i"; tail -20 "$logs/$i.build"; continue
	fi
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | sort -u | while read -r o; do
		grep -qx "$o" "$kbuild/.config" || echo "${o%%=*}"; done | tr '\n' ' ')
	if nice -n 19 make -C "$tree" O="$kbuild" ARCH=x86_64 -j"$jobs" \
		CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_USER=latency KBUILD_BUILD_HOST=series \
		>>"$logs/$i.build" 2>&1; then
		warn=$(for f in $(g diff --name-only base "$c"); do
			grep -F "$f:" "$logs/$i.build" | grep -E 'warning:|error:'; done | sort -u)
		judge "$warn" "build of patch $i has warnings in files of the series" \
			"  builds, $(($(now) - t)) s${missing:+ (not yet in the tree: $missing)}"
	else
		fail "build of patch $i ($logs/$i.build)"
		grep -E 'error|Error' "$logs/$i.build" | head -20 | sed 's/^/series-check:   /'
	fi
	if [ "$i" = "$n" ] && [ -n "$missing" ]; then
		fail "the whole series lacks options of harness/config: $missing"
	fi
done

# W=1 on the objects the series adds or changes, with the whole series.
t=$(now)
objs=$(for f in $(g diff --name-only base series-check -- '*.c'); do
	[ -f "$kbuild/${f%.c}.o" ] && [ -f "$tree/$(dirname "$f")/Makefile" ] &&
		echo "${f%.c}.o"; done | tr '\n' ' ')
if [ -n "$objs" ]; then
	# shellcheck disable=SC2086
	nice -n 19 make -C "$tree" O="$kbuild" ARCH=x86_64 -j"$jobs" W=1 \
		CC="ccache gcc" HOSTCC="ccache gcc" $objs >"$logs/w1.build" 2>&1 || true
	# Only warnings on lines the series adds are new: ipw2100.c has some of
	# its own.
	g diff -U0 base series-check >"$logs/series.diff"
	warn=$(python3 - "$logs/series.diff" "$logs/w1.build" <<'EOF'
import re, sys
added, f = {}, None
for l in open(sys.argv[1], errors="replace"):
    if l.startswith("+++ "):
        f = l[6:].strip()
    m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", l)
    if m and f:
        a, n = int(m.group(1)), int(m.group(2) or 1)
        added.setdefault(f, set()).update(range(a, a + n))
for l in open(sys.argv[2], errors="replace"):
    m = re.match(r"(?:\.\./)*(?:linux/)?(\S+?):(\d+):(?:\d+:)? (warning|error):", l)
    if m and int(m.group(2)) in added.get(m.group(1), ()):
        print(l.rstrip())
    elif re.search(r"\berror:", l):
        print(l.rstrip())
EOF
)
	judge "$warn" "W=1 build of $objs" \
		"W=1 build of $objs: no new warning, $(($(now) - t)) s"
fi
g checkout -q series-check

echo "series-check: took $(($(now) - t0)) s; logs in $logs"
echo "series-check: $passed passed, $failed failed"
[ "$failed" = 0 ]
