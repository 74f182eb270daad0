#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make htmldocs: lay the series over the base tree and build the power book
# (Documentation/power, where Documentation/power/latency.rst brings in
# Documentation/latency.txt and the kernel-doc of include/linux/latency.h and
# kernel/latency.c) with the kernel's own Sphinx build, in build/htmldocs.
# Fails when the build fails, or when it prints a warning or an error that
# names one of our files; warnings about the rest of the tree are printed
# but let through.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
out=$build/htmldocs
log=$out/htmldocs.log

"$top/harness/install-deps.sh"
"$top/harness/apply.sh"

# Debian's Python first: it has the python3-sphinx and python3-yaml that
# install-deps.sh installs (tools/net/ynl/ynl-gen-rst.py, which htmldocs
# always runs, is started through "env python3").
PATH=/usr/bin:$PATH
export PATH

mkdir -p "$out"
rm -f "$log.rc"
start=$(date +%s)
echo "htmldocs: building Documentation/power in $out"
# -E: read every document again, so that each run prints the warnings of
# files that did not change since the last one (the book takes seconds).
rc=0
{ make -C "$tree" O="$out" SPHINXDIRS=power SPHINXOPTS="-E -q" -j2 \
	htmldocs 2>&1 ||
	echo $? >"$log.rc"; } | tee "$log"
[ -f "$log.rc" ] && rc=$(cat "$log.rc") && rm -f "$log.rc"
end=$(date +%s)

if [ "$rc" -ne 0 ]; then
	echo "htmldocs: FAILED: make htmldocs exited $rc (log: $log)" >&2
	exit 1
fi

# Sphinx and docutils say WARNING, ERROR, SEVERE or CRITICAL, kernel-doc
# "warning:" or "error:"; each such line names the file it is about.
ours='Documentation/latency\.txt|Documentation/power/latency\.rst|Documentation/power/index\.rst|include/linux/latency\.h|kernel/latency\.c'
bad=$(grep -Ei 'warning|error|severe|critical' "$log" | grep -E "$ours" || true)
if [ -n "$bad" ]; then
	n=$(printf '%s\n' "$bad" | wc -l)
	echo "htmldocs: FAILED: $n warning(s) or error(s) about our files:" >&2
	printf '%s\n' "$bad" | sed 's/^/htmldocs:   /' >&2
	exit 1
fi

html=$out/Documentation/output/power/latency.html
if [ ! -f "$html" ]; then
	echo "htmldocs: FAILED: $html was not written" >&2
	exit 1
fi
echo "htmldocs: no warning about our files; built in $((end - start)) s"
echo "htmldocs: file://$html"
