#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Lay the series over the base tree, touching only what changed.
#
# The base is the Linux 6.12 tarball of Debian's linux-source-6.12, unpacked
# once into build/.  A repository file at a kernel path is copied there; a
# file PATH.patch is applied to the pristine PATH (kept in build/pristine/).
# A file is rewritten only when its content differs, so kbuild rebuilds only
# what changed; what a previous run laid and the repository no longer has is
# put back as it was.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
tree=$build/linux-source-6.12
pristine=$build/pristine
manifest=$build/applied.list

mkdir -p "$build"
if [ ! -f "$tree/Makefile" ]; then
	[ -f "$tarball" ] || { echo "apply: $tarball missing (make deps)" >&2; exit 1; }
	echo "apply: unpacking $tarball"
	rm -rf "$tree" "$pristine" "$manifest"
	tar -C "$build" -xf "$tarball"
fi

version=$(make -s -C "$tree" kernelversion 2>/dev/null)
pkg=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
echo "apply: base Linux $version (Debian linux-source-6.12 $pkg)"

# Files of the series: everything git knows or would add, at a kernel path.
# Outside a git checkout (an unpacked tarball of the repository), every file.
list_files() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files --cached --others --exclude-standard
	else
		(cd "$top" && find . -type f ! -path './.git/*' | sed 's|^\./||')
	fi
}
files=$(list_files |
	grep -E '/|^MAINTAINERS\.patch$' |
	grep -Ev '^(harness|build|series|\.ci)/' | sort -u)

newlist=$build/applied.new
: >"$newlist"
tmp=$build/apply.tmp
changed=0

lay() {	# lay SOURCE DEST: replace DEST by SOURCE if they differ
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		cp "$1" "$2"
		changed=$((changed + 1))
		echo "apply:   $3"
	fi
}

save_pristine() {	# keep the base version of a file we are about to change
	if [ ! -e "$pristine/$1" ] && [ ! -e "$pristine/$1.absent" ]; then
		mkdir -p "$(dirname "$pristine/$1")"
		if [ -f "$tree/$1" ]; then
			cp -p "$tree/$1" "$pristine/$1"
		else
			: >"$pristine/$1.absent"
		fi
	fi
}

for f in $files; do
	[ -f "$top/$f" ] || continue	# deleted but not yet committed
	case $f in
	*.patch)
		target=${f%.patch}
		save_pristine "$target"
		if [ -e "$pristine/$target.absent" ]; then
			echo "apply: $f: $target is not in the base tree" >&2
			exit 1
		fi
		rm -f "$tmp" "$tmp.rej"
		if ! patch -s -f -o "$tmp" -r "$tmp.rej" \
			"$pristine/$target" "$top/$f" >"$tmp.log" 2>&1; then
			echo "apply: FAILED: $f does not apply to $target of Linux $version:" >&2
			sed 's/^/apply:   /' "$tmp.log" >&2
			[ -f "$tmp.rej" ] && sed 's/^/apply:   rejected: /' "$tmp.rej" >&2
			exit 1
		fi
		lay "$tmp" "$tree/$target" "$target (patched)"
		echo "$target" >>"$newlist"
		;;
	*)
		save_pristine "$f"
		lay "$top/$f" "$tree/$f" "$f"
		echo "$f" >>"$newlist"
		;;
	esac
done
rm -f "$tmp" "$tmp.rej" "$tmp.log"

# Put back what an earlier run laid and the series no longer has.
if [ -f "$manifest" ]; then
	sort -u "$newlist" | comm -23 "$(sort -u "$manifest" >"$build/applied.old" && echo "$build/applied.old")" - |
	while read -r f; do
		if [ -e "$pristine/$f.absent" ]; then
			rm -f "$tree/$f"
			echo "apply:   $f (removed)"
		elif [ -f "$pristine/$f" ]; then
			cp -p "$pristine/$f" "$tree/$f"
			echo "apply:   $f (restored)"
		fi
	done
	rm -f "$build/applied.old"
fi
mv "$newlist" "$manifest"
echo "apply: $changed file(s) changed"
