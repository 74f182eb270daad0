#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Judge the console log of a test boot.

Counts every KUnit case (through kunit.py's own parser) and every result
of the in-guest kselftests, checks the kernel log for splats, prints
one closing line "N passed, N failed, N skipped" and exits non-zero on a
failure, on a kernel that did not boot or finish, or when no test ran.
"""
import os
import re
import subprocess
import sys

TREE = os.environ.get('TREE')
LOG = sys.argv[1]

# Kernel reports that fail the run.  A WARNING provoked on purpose is
# announced by its test with "expect a warning" on a line before it.
# KASAN and KCSAN reports start with "BUG: KASAN:" and "BUG: KCSAN:".
SPLATS = re.compile(r'(BUG: |Oops|Kernel panic|WARNING: |UBSAN: |'
                    r'kmemleak: .*new suspected|unreferenced object|possible recursive locking|'
                    r'possible circular locking|inconsistent lock state|'
                    r'sleeping function called from invalid context|'
                    r'list_(add|del) corruption)')
ANNOUNCE = 'expect a warning'


def main():
    with open(LOG, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    text = '\n'.join(lines)
    passed = failed = skipped = 0
    problems = []

    booted = any(l.startswith('latency-harness: done') for l in lines)
    if not booted:
        problems.append('the guest did not boot to the end of the tests')
        failed += 1

    # KUnit: everything printed before user space took over.
    try:
        cut = next(i for i, l in enumerate(lines)
                   if l.startswith('latency-harness: selftests start'))
    except StopIteration:
        cut = len(lines)
    kunit_log = LOG + '.kunit'
    with open(kunit_log, 'w') as f:
        f.write('\n'.join(lines[:cut]) + '\n')
    kunit = os.path.join(TREE, 'tools/testing/kunit/kunit.py')
    res = subprocess.run([sys.executable, kunit, 'parse', kunit_log],
                         capture_output=True, text=True)
    sys.stdout.write(res.stdout)
    m = re.search(r'Ran (\d+) tests?: ?(.*)', res.stdout)
    # FLAVOUR=modules: every suite is a module, run by the in-guest tests.
    none_at_boot = os.environ.get('KUNIT_AT_BOOT') == 'none'
    kunit_total = 0
    if m:
        counts = dict((k, int(v)) for k, v in
                      re.findall(r'(passed|failed|crashed|skipped|errors): (\d+)',
                                 m.group(2)))
        kunit_total = int(m.group(1))
        passed += counts.get('passed', 0)
        failed += counts.get('failed', 0) + counts.get('crashed', 0)
        skipped += counts.get('skipped', 0)
        if counts.get('errors') and not (kunit_total == 0 and none_at_boot):
            problems.append('kunit.py reported %d parse errors' % counts['errors'])
            failed += 1
    if kunit_total == 0 and not none_at_boot:
        problems.append('no KUnit case ran')
        failed += 1

    # In-guest tests: run_kselftest.sh's TAP, one result per program
    # ("ok 3 selftests: latency: NAME", "# SKIP" for exit code 4), each
    # program's own TAP nested under it with "# " before every line.  Every
    # result of a program counts; its outer result catches a crash, a
    # timeout or an exit code its results do not explain.
    guest_total = 0
    cur = None
    for l in lines[cut:]:
        m = re.match(r'# selftests: latency: (\S+)$', l)
        if m:
            cur = {'name': m.group(1), 'plan': None, 'ok': 0, 'fail': 0,
                   'skip': 0}
            continue
        if cur is None:
            continue
        m = re.match(r'(not )?ok \d+ selftests: latency: (\S+)(.*)', l)
        if m:
            verdict = m.group(3)
            seen = cur['ok'] + cur['fail'] + cur['skip']
            missing = (cur['plan'] or 0) - seen
            if missing > 0:
                problems.append('%s: %d planned results missing' %
                                (cur['name'], missing))
                cur['fail'] += missing
            if seen == 0 and missing <= 0:
                problems.append('%s: printed no result%s' %
                                (cur['name'], verdict))
                cur['fail'] += 1
            elif m.group(1) and cur['fail'] == 0:
                problems.append('%s: not ok%s' % (cur['name'], verdict))
                cur['fail'] += 1
            print('selftest %-24s %3d passed, %d failed, %d skipped' %
                  (cur['name'], cur['ok'], cur['fail'], cur['skip']))
            passed += cur['ok']
            failed += cur['fail']
            skipped += cur['skip']
            guest_total += cur['ok'] + cur['fail'] + cur['skip']
            cur = None
            continue
        m = re.match(r'# 1\.\.(\d+)', l)
        if m and cur['plan'] is None:
            cur['plan'] = int(m.group(1))
            continue
        m = re.match(r'# (not )?ok \d+\b(.*)', l)
        if m:
            if re.search(r'#\s*SKIP', m.group(2), re.I):
                cur['skip'] += 1
            elif m.group(1):
                cur['fail'] += 1
                print('selftest FAILED: %s: %s' % (cur['name'], l))
            else:
                cur['ok'] += 1
    if cur is not None:
        problems.append('%s: did not finish' % cur['name'])
        failed += 1
    if guest_total == 0:
        problems.append('no in-guest test ran')
        failed += 1

    # Host tests (harness/tests/), each as NAME:RC:FILE of its TAP output.
    for arg in sys.argv[2:]:
        name, rc, path = arg.split(':', 2)
        ok = fail = skip = 0
        plan = None
        with open(path, errors='replace') as f:
            for l in f:
                m = re.match(r'1\.\.(\d+)', l)
                if m and plan is None:
                    plan = int(m.group(1))
                m = re.match(r'(not )?ok \d+\b(.*)', l)
                if not m:
                    continue
                if re.search(r'#\s*SKIP', m.group(2), re.I):
                    skip += 1
                elif m.group(1):
                    fail += 1
                    print('host FAILED: %s: %s' % (name, l.rstrip()))
                else:
                    ok += 1
        missing = (plan or 0) - ok - fail - skip
        if missing > 0 or ok + fail + skip == 0:
            problems.append('%s: %d planned results missing' % (name, max(missing, 1)))
            fail += max(missing, 1)
        elif int(rc) != 0 and fail == 0:
            problems.append('%s: exit code %s' % (name, rc))
            fail += 1
        print('host     %-24s %3d passed, %d failed, %d skipped' %
              (name, ok, fail, skip))
        passed += ok
        failed += fail
        skipped += skip

    # The kernel log: every splat fails the run unless announced.  The
    # gcov counters of make test-coverage are base64, where "Oops" could
    # occur by chance: they are no log text.
    allow = False
    in_gcov = False
    splats = []
    for l in lines:
        if l.startswith('latency-harness: gcov '):
            in_gcov = l.startswith('latency-harness: gcov start')
            continue
        if in_gcov:
            continue
        if ANNOUNCE in l:
            allow = True
            continue
        if re.search(r'\b(not )?ok \d+ ', l):
            allow = False
        if SPLATS.search(l):
            if allow and 'WARNING: ' in l:
                allow = False
                continue
            splats.append(l)
    if splats:
        failed += 1
        problems.append('%d kernel report(s) in the log, first: %s' %
                        (len(splats), splats[0].strip()))
    elif booted:
        passed += 1	# the "kernel log is clean" check

    for p in problems:
        print('summary: ' + p)
    if passed + failed == 0:
        problems.append('no test ran')
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    sys.exit(1 if failed or problems else 0)


main()
