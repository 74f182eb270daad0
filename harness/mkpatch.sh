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
diff -u --label "a/$path" --label "b/$path" "$base" "$edited" >"$top/$path.patch" && {
	echo "mkpatch: $path: no difference" >&2
	rm -f "$top/$path.patch"
	exit 1
}
[ $? -eq 1 ] || true
echo "mkpatch: wrote $path.patch"
