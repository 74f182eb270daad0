#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/mkpatch.sh PATH EDITED [BASE]
# Write PATH.patch: the unified diff turning PATH of the pristine base tree
# (build/pristine, or the unpacked tarball) into the file EDITED.
set -eu
path=$1 edited=$2
top=$(cd "$(dirname "$0")/.." && pwd)
base=${3:-}
if [ -z "$base" ]; then
	if [ -f "$top/build/pristine/$path" ]; then
		base=$top/build/pristine/$path
	else
		base=$top/build/linux-source-6.12/$path
	fi
fi
mkdir -p "$top/$(dirname "$path")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a/$(dirname "$path")" "$tmp/b/$(dirname "$path")"
cp "$base" "$tmp/a/$path"
cp "$edited" "$tmp/b/$path"
rc=0
(cd "$tmp" && git diff --no-index --no-prefix "a/$path" "b/$path") \
	>"$top/$path.patch" || rc=$?
case $rc in
0)	echo "mkpatch: $path: no difference" >&2
	rm -f "$top/$path.patch"
	exit 1 ;;
1)	echo "mkpatch: wrote $path.patch" ;;
*)	exit "$rc" ;;
esac
