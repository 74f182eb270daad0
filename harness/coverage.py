#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Line and branch coverage of the registry from a make test-coverage boot.

harness/coverage.py LOG

The guest's /init prints the gcov counters of every object built with gcov
(kernel/latency.o, kernel/latency_dev.o) after the last test, base64,
between "latency-harness: gcov start" and "... end", each file after a line
"# gcda: PATH", PATH being where the kernel was told at build time to put
the .gcda.  They are written next to the .gcno in the build directory
(KBUILD_DIR), gcov of the compiler that built the kernel reads them, and
the figures go to the terminal and to build/coverage-results.txt; the
annotated sources stay in build/coverage/*.gcov.
"""
import base64
import datetime
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
TREE = os.path.join(BUILD, 'linux-source-6.12')
KBUILD = os.environ.get('KBUILD_DIR', os.path.join(BUILD, 'kbuild-coverage'))
WORK = os.path.join(BUILD, 'coverage')
OUT = os.path.join(BUILD, 'coverage-results.txt')
# The sources whose figures are reported, the first one required.
SOURCES = ['kernel/latency.c', 'kernel/latency_dev.c']


def die(msg):
    print('coverage: ' + msg, file=sys.stderr)
    sys.exit(1)


def read_gcda(log):
    """{PATH: bytes} of every .gcda the guest printed."""
    files = {}
    cur = None
    inside = False
    with open(log, errors='replace') as f:
        for l in f:
            l = l.strip()
            if l.startswith('latency-harness: gcov start'):
                inside = True
            elif l.startswith('latency-harness: gcov end'):
                inside = False
                cur = None
            elif inside and l.startswith('# gcda: '):
                cur = l[len('# gcda: '):]
                files[cur] = []
            elif inside and cur is not None and l:
                files[cur].append(l)
    return dict((p, base64.b64decode(''.join(b), validate=True))
                for p, b in files.items())


def place(path):
    """Where PATH, a build-time .gcda path, is in KBUILD: the longest
    suffix of it next to which a .gcno exists."""
    parts = path.strip('/').split('/')
    for i in range(len(parts)):
        rel = os.path.join(*parts[i:])
        if os.path.exists(os.path.join(KBUILD, rel[:-len('.gcda')] + '.gcno')):
            return os.path.join(KBUILD, rel)
    return None


def gcov_tool():
    major = subprocess.run(['gcc', '-dumpversion'], capture_output=True,
                           text=True, check=True).stdout.strip().split('.')[0]
    tool = shutil.which('gcov-' + major) or shutil.which('gcov')
    if not tool:
        die('no gcov for gcc %s' % major)
    return tool


def run_gcov(tool, src):
    """gcov's figures for SRC (relative to the tree): dict, or None when
    the object has no counters."""
    obj = os.path.join(KBUILD, os.path.dirname(src))
    stem = os.path.splitext(os.path.basename(src))[0]
    if not os.path.exists(os.path.join(obj, stem + '.gcda')):
        return None
    res = subprocess.run([tool, '-b', '-c', '-o', obj,
                          os.path.join(TREE, src)],
                         cwd=WORK, capture_output=True, text=True)
    if res.returncode:
        die('%s failed on %s:\n%s%s' % (tool, src, res.stdout, res.stderr))
    # gcov prints one block per source file of the object (headers too).
    for block in res.stdout.split('\n\n'):
        m = re.match(r"File '(.*)'", block)
        if not m or not m.group(1).endswith('/' + src):
            continue
        fig = {}
        for key, name in (('lines', 'Lines executed'),
                          ('branches', 'Branches executed'),
                          ('taken', 'Taken at least once'),
                          ('calls', 'Calls executed')):
            m = re.search(name + r':([0-9.]+)% of (\d+)', block)
            fig[key] = (float(m.group(1)), int(m.group(2))) if m else None
        return fig
    die('gcov printed no figures for %s:\n%s' % (src, res.stdout))
    return None


def annotated(src):
    """(never executed lines, lines with a branch never taken) of the
    .gcov of SRC: [(line, text)], [(line, untaken, total, text)]."""
    never, branchy = [], []
    cur = None
    with open(os.path.join(WORK, os.path.basename(src) + '.gcov')) as f:
        for l in f:
            m = re.match(r'\s*([^:]+):\s*(\d+):(.*)', l.rstrip('\n'))
            if m:
                count, line, text = m.group(1).strip(), int(m.group(2)), m.group(3)
                if count in ('#####', '====='):
                    never.append((line, text))
                cur = [line, 0, 0, text] if count != '-' else None
                if cur:
                    branchy.append(cur)
                continue
            m = re.match(r'branch\s+\d+ (taken (\d+)|never executed)', l)
            if m and cur is not None:
                cur[2] += 1
                if m.group(1) == 'never executed' or m.group(2) == '0':
                    cur[1] += 1
    return never, [tuple(b) for b in branchy if b[1]]


def main():
    if len(sys.argv) != 2:
        die('usage: coverage.py CONSOLE-LOG')
    gcda = read_gcda(sys.argv[1])
    if not gcda:
        die('the guest printed no gcov counters (no /sys/kernel/debug/gcov?)')
    for path, data in sorted(gcda.items()):
        dest = place(path)
        if dest is None:
            die('%s: no .gcno for it in %s' % (path, KBUILD))
        with open(dest, 'wb') as f:
            f.write(data)

    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    tool = gcov_tool()
    version = subprocess.run([tool, '--version'], capture_output=True,
                             text=True).stdout.split('\n')[0]
    release = open(os.path.join(KBUILD, 'include/config/kernel.release')).read().strip()
    kb = os.path.relpath(KBUILD, TOP)
    tr = os.path.relpath(TREE, TOP)

    out = ['# make test-coverage, %s, Linux %s, %s.' %
           (datetime.date.today().isoformat(), release, version),
           '# Counters of one test boot: the KUnit suites at boot, then every',
           '# in-guest test.  gcov -b -c -o %s/kernel %s/kernel/<file>;' % (kb, tr),
           '# the annotated sources are in build/coverage/*.gcov.']
    figures = {}
    for src in SOURCES:
        fig = run_gcov(tool, src)
        if fig is None:
            if src == SOURCES[0]:
                die('no counters for %s' % src)
            continue
        figures[src] = fig
        out.append('')
        out.append(src)
        for key, label in (('lines', 'lines executed'),
                           ('branches', 'branches executed'),
                           ('taken', 'branches taken at least once'),
                           ('calls', 'calls executed')):
            if fig[key]:
                out.append('  %-30s %6.2f%% of %d' % (label, fig[key][0],
                                                     fig[key][1]))
    # Keep only our sources' annotations, not those of the headers.
    keep = set(os.path.basename(s) + '.gcov' for s in figures)
    for name in os.listdir(WORK):
        if name not in keep:
            os.unlink(os.path.join(WORK, name))

    for src in figures:
        never, branchy = annotated(src)
        out.append('')
        out.append('%s: %d line(s) never executed' % (src, len(never)))
        for line, text in never:
            out.append('  %4d: %s' % (line, text.strip()))
        out.append('%s: %d line(s) with a branch never taken (untaken/all)' %
                   (src, len(branchy)))
        for line, untaken, total, text in branchy:
            out.append('  %4d: %d/%d  %s' % (line, untaken, total, text.strip()))

    text = '\n'.join(out) + '\n'
    with open(OUT, 'w') as f:
        f.write(text)
    sys.stdout.write(text)


main()
