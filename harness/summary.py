#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Judge the console log of a test boot.

usage: summary.py [--manifest FILE] [--no-skip] LOG [NAME:RC:FILE ...]

Counts every KUnit case run at boot and every result of the in-guest
kselftests, both through the tree's KTAP parser
(tools/testing/kunit/kunit_parser.py, what "kunit.py parse" runs), and the
TAP of the host's tests (NAME:RC:FILE: the test's name, exit code and
output).  Checks the kernel log for splats.  Prints one closing line
"N passed, N failed, N skipped" and exits non-zero on a failure, on a
kernel that did not boot or finish, or when no test ran.

--manifest FILE: what must run in this guest (harness/manifest/): a KUnit
suite or kselftest program that is missing, or gives fewer results than
the manifest asks, fails the run, and so does one that ran but is not in
it.  --no-skip: a skipped result fails its suite or program (make test,
where the harness provides what every test needs; the flavours may skip
what their configuration lacks), unless the manifest names it as a KUnit
case this guest cannot run ("skip kunit SUITE CASE"); a case so named
that runs fails too.
"""
import argparse
import contextlib
import io
import os
import re
import sys

# Kernel reports that fail the run.  KASAN and KCSAN reports start with
# "BUG: KASAN:" and "BUG: KCSAN:", soft lockups with "watchdog: BUG:".
SPLATS = re.compile(r'(BUG: |Oops|Kernel panic|WARNING: |UBSAN: |'
                    r'kmemleak: .*new suspected|unreferenced object|possible recursive locking|'
                    r'possible circular locking|inconsistent lock state|'
                    r'sleeping function called from invalid context|'
                    r'list_(add|del) corruption|'
                    r'rcu: INFO: .*detected stall|rcu_\w+ detected stalls? on|'
                    r'rcu_\w+ self-detected stall|'
                    r'INFO: task .* blocked for more than)')
# A WARNING provoked on purpose is announced by its test with "expect a
# warning: WHAT" just before it: each announcement must be followed by
# exactly one WARNING before the next announcement or the next test result.
ANNOUNCE = 'expect a warning'
WARNING = re.compile(r'\bWARNING: ')
RESULT = re.compile(r'\b(not )?ok \d+ ')

SELFTEST_START = 'latency-harness: selftests start'
DONE = 'latency-harness: done'


class Verdict:
    """The counts, and what went wrong, in the order it was found."""

    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.problems = []

    def problem(self, text, failures=1):
        self.problems.append(text)
        self.failed += failures

    def count(self, kind, name, ok, fail, skip):
        """Print one suite's or program's line and add its counts."""
        print('%-8s %-24s %3d passed, %d failed, %d skipped' %
              (kind, name, ok, fail, skip))
        self.passed += ok
        self.failed += fail
        self.skipped += skip


def load_parser(tree):
    """The tree's KTAP parser, tools/testing/kunit/kunit_parser.py."""
    sys.path.insert(0, os.path.join(tree, 'tools/testing/kunit'))
    import kunit_parser  # pylint: disable=import-outside-toplevel
    return kunit_parser


def parse_ktap(kp, lines, quiet):
    """Parse KTAP with kunit_parser; its report goes to stdout unless quiet."""
    if not quiet:
        return kp.parse_run_tests(lines)
    printer = kp.stdout
    saved = printer._output  # pylint: disable=protected-access
    printer._output = io.StringIO()  # pylint: disable=protected-access
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return kp.parse_run_tests(lines)
    finally:
        printer._output = saved  # pylint: disable=protected-access


def results(counts):
    """Results of a test, missing ones (crashed, failed already) included:
    the manifest's floor is for what no plan announced."""
    return counts.passed + counts.failed + counts.skipped + counts.crashed


def failed_leaves(kp, test, prefix=''):
    """The names of the failed or crashed cases under test."""
    out = []
    for t in test.subtests:
        name = prefix + t.name
        if t.subtests:
            out += failed_leaves(kp, t, name + '.')
        elif t.status in (kp.TestStatus.FAILURE, kp.TestStatus.TEST_CRASHED):
            out.append(name or '(a missing result)')
    return out


def read_manifest(path):
    """{(kind, name): count} from a manifest: "kunit|selftest NAME COUNT"."""
    want = {}
    with open(path) as f:
        for n, l in enumerate(f, 1):
            l = l.split('#', 1)[0].split()
            if not l or l[0] == 'skip':	# see read_skips()
                continue
            if len(l) != 3 or l[0] not in ('kunit', 'selftest') or \
                    not l[2].isdigit():
                sys.exit('%s:%d: not "kunit|selftest NAME COUNT"' % (path, n))
            want[(l[0], l[1])] = int(l[2])
    return want


def read_skips(path):
    """{(kind, suite, case)} from a manifest's "skip kunit SUITE CASE"
    lines: a KUnit case that cannot run in this guest, and says so with
    kunit_skip(); make test allows that skip, and that one only."""
    skips = set()
    with open(path) as f:
        for n, l in enumerate(f, 1):
            l = l.split('#', 1)[0].split()
            if not l or l[0] != 'skip':
                continue
            if len(l) != 4 or l[1] != 'kunit':
                sys.exit('%s:%d: not "skip kunit SUITE CASE"' % (path, n))
            skips.add(tuple(l[1:]))
    return skips


# The skipped cases of each KUnit suite: {(kind, suite): [case, ...]}.
SKIPPED = {}


def skipped_leaves(kp, test, prefix=''):
    """The names of the skipped cases under test."""
    out = []
    for t in test.subtests:
        name = prefix + t.name
        if t.subtests:
            out += skipped_leaves(kp, t, name + '.')
        elif t.status == kp.TestStatus.SKIPPED:
            out.append(name)
    return out


def judge_kunit(kp, lines, v, seen, none_at_boot):
    """KUnit: everything printed before user space took over."""
    main = parse_ktap(kp, lines, quiet=False)
    if none_at_boot and main.counts.total() == 0:
        return	# FLAVOUR=modules: the in-guest tests run the suites
    if main.counts.total() == 0:
        v.problem('no KUnit case ran')
        return
    if main.counts.errors:
        v.problem('kunit_parser reported %d errors' % main.counts.errors)
    for suite in main.subtests:
        c = suite.counts
        fail = c.failed + c.crashed
        v.count('kunit', suite.name, c.passed, fail, c.skipped)
        for name in failed_leaves(kp, suite):
            print('kunit FAILED: %s.%s' % (suite.name, name))
        SKIPPED[('kunit', suite.name)] = skipped_leaves(kp, suite)
        seen[('kunit', suite.name or '(unnamed)')] = (results(c), c.skipped,
                                                       False)


def program_ktap(body):
    """A program's KTAP, for kunit_parser: its plan before its results.

    A program that knows its plan only at the end (ipw2100.sh,
    kunit_modules.sh) prints it last, as TAP allows; kunit_parser reads
    a plan only after the version line.
    """
    plan = next((i for i, l in enumerate(body)
                 if re.match(r'1\.\.\d+', l)), None)
    first = next((i for i, l in enumerate(body)
                  if re.match(r'(not )?ok \d+', l)), None)
    if plan is None or first is None or plan < first:
        return body
    head = next((i for i, l in enumerate(body)
                 if re.match(r'K?TAP version', l)), None)
    if head is None or head > first:
        return body
    return body[:head + 1] + [body[plan]] + body[head + 1:plan] + body[plan + 1:]


def judge_program(kp, name, body, outer, v, seen):
    """One kselftest program: its own KTAP (body) and the runner's result."""
    plan = next((l for l in body if re.match(r'1\.\.\d+', l)), None)
    skip_all = plan is not None and re.match(r'1\.\.0\s*#\s*SKIP', plan, re.I)
    test = parse_ktap(kp, program_ktap(body), quiet=True)
    c = test.counts
    ok = c.passed
    fail = c.failed + c.crashed
    skip = c.skipped
    if c.crashed:
        v.problems.append('%s: %d planned results missing' % (name, c.crashed))
    for case in failed_leaves(kp, test):
        print('selftest FAILED: %s: %s' % (name, case))
    verdict = ''
    if outer is None:
        v.problems.append('%s: did not finish' % name)
        fail += 1
    else:
        verdict = outer.group(3)
        if skip_all:
            # "1..0 # SKIP why": the whole program is one skip.
            skip += 1
        elif plan is None and results(c) == 0:
            v.problems.append('%s: printed no result%s' % (name, verdict))
            fail += 1
        elif outer.group(1) and fail == 0:
            v.problems.append('%s: not ok%s' % (name, verdict))
            fail += 1
        elif c.errors and not c.crashed and \
                not (plan and re.match(r'1\.\.0\b', plan)):
            # A result out of order or twice: the KTAP cannot be trusted.
            v.problems.append('%s: kunit_parser reported %d errors' %
                              (name, c.errors))
            fail += 1
    v.count('selftest', name, ok, fail, skip)
    seen[('selftest', name)] = (results(c), skip, bool(skip_all))


def judge_selftests(kp, lines, v, seen):
    """In-guest tests: run_kselftest.sh's TAP, one result per program
    ("ok 3 selftests: latency: NAME", "# SKIP" for exit code 4), each
    program's own TAP nested under it with "# " before every line.  Every
    result of a program counts; its outer result catches a crash, a
    timeout or an exit code its results do not explain."""
    cur = None
    body = []
    for l in lines:
        m = re.match(r'# selftests: latency: (\S+)$', l)
        if m:
            if cur is not None:
                judge_program(kp, cur, body, None, v, seen)
            cur, body = m.group(1), []
            continue
        if cur is None:
            continue
        m = re.match(r'(not )?ok \d+ selftests: latency: (\S+)(.*)', l)
        if m:
            judge_program(kp, cur, body, m, v, seen)
            cur = None
            continue
        if l.startswith('# ') or l == '#':
            body.append(l[2:])
    if cur is not None:
        judge_program(kp, cur, body, None, v, seen)
    if not any(k == 'selftest' for k, _ in seen):
        v.problem('no in-guest test ran')


def judge_manifest(path, want, seen, v):
    """Every suite and program of the manifest, with exactly its results:
    a case added or removed changes the manifest in the same commit."""
    for (kind, name), least in want.items():
        if (kind, name) not in seen:
            v.problem('%s %s: missing (%s asks for %d results)' %
                      (kind, name, path, least), max(least, 1))
            continue
        got, _, skip_all = seen[(kind, name)]
        # Skipped as a whole: it ran, and said what it lacks (a skip
        # fails make test, not a flavour run).
        if got != least and not skip_all:
            v.problem('%s %s: %d results, %s asks for %d' %
                      (kind, name, got, path, least), max(least - got, 1))
    for (kind, name) in seen:
        if (kind, name) not in want:
            v.problem('%s %s: not in %s' % (kind, name, path))


def judge_skips(seen, v, allowed):
    """make test: each suite or program that skipped is a failure, but for
    the KUnit cases the manifest allows to skip (allowed); one of those
    that did not skip is a failure too: the manifest is out of date."""
    for (kind, name), (_, skip, _) in seen.items():
        names = SKIPPED.get((kind, name), [])
        skip -= len([c for c in names if (kind, name, c) in allowed])
        if skip:
            v.problem('%s %s: %d skipped, and make test skips nothing' %
                      (kind, name, skip))
    for (kind, name, case) in sorted(allowed):
        if case not in SKIPPED.get((kind, name), []):
            v.problem('%s %s: %s did not skip, as the manifest says it must' %
                      (kind, name, case))


def judge_host(arg, v):
    """A host test (harness/tests/), as NAME:RC:FILE of its TAP output."""
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
        v.problems.append('%s: %d planned results missing' %
                          (name, max(missing, 1)))
        fail += max(missing, 1)
    elif int(rc) != 0 and fail == 0:
        v.problems.append('%s: exit code %s' % (name, rc))
        fail += 1
    v.count('host', name, ok, fail, skip)


def judge_log(lines, v, booted):
    """The kernel log: every splat fails the run unless announced.  The
    gcov counters of make test-coverage are base64, where "Oops" could
    occur by chance: they are no log text."""
    in_gcov = False
    splats = []
    window = None	# the announcement whose warning is awaited
    warned = 0
    for l in lines:
        if l.startswith('latency-harness: gcov '):
            in_gcov = l.startswith('latency-harness: gcov start')
            continue
        if in_gcov:
            continue
        ends = ANNOUNCE in l or RESULT.search(l) or \
            l.startswith('latency-harness: ')
        if ends and window is not None:
            if warned == 0:
                splats.append('announced, never came: ' + window.strip())
            window = None
        if ANNOUNCE in l:
            window, warned = l, 0
            continue
        if not SPLATS.search(l):
            continue
        if window is not None and WARNING.search(l):
            warned += 1
            if warned == 1:
                continue
            l = 'a second warning after "%s": %s' % (window.strip(), l)
        splats.append(l)
    if window is not None and warned == 0:
        splats.append('announced, never came: ' + window.strip())
    # What the console showed at boot comes again in the dump of the
    # kernel log at the end: each report once.
    splats = list(dict.fromkeys(s.strip() for s in splats))
    if splats:
        v.problem('%d kernel report(s) in the log, first: %s' %
                  (len(splats), splats[0].strip()))
        for s in splats[1:10]:
            print('summary: kernel report: ' + s.strip())
    elif booted:
        v.passed += 1	# the "kernel log is clean" check


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--manifest')
    ap.add_argument('--no-skip', action='store_true')
    ap.add_argument('log')
    ap.add_argument('host', nargs='*')
    args = ap.parse_args()
    tree = os.environ.get('TREE')
    kp = load_parser(tree)

    with open(args.log, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    v = Verdict()
    seen = {}

    booted = any(l.startswith(DONE) for l in lines)
    if not booted:
        v.problem('the guest did not boot to the end of the tests')

    cut = next((i for i, l in enumerate(lines)
                if l.startswith(SELFTEST_START)), len(lines))
    # FLAVOUR=modules: every suite is a module, run by the in-guest tests.
    judge_kunit(kp, lines[:cut], v, seen,
                os.environ.get('KUNIT_AT_BOOT') == 'none')
    judge_selftests(kp, lines[cut:], v, seen)
    if args.manifest:
        judge_manifest(args.manifest, read_manifest(args.manifest), seen, v)
    if args.no_skip:
        judge_skips(seen, v,
                    read_skips(args.manifest) if args.manifest else set())
    for arg in args.host:
        judge_host(arg, v)
    judge_log(lines, v, booted)

    for p in v.problems:
        print('summary: ' + p)
    if v.passed + v.failed == 0:
        v.problems.append('no test ran')
    print('%d passed, %d failed, %d skipped' % (v.passed, v.failed, v.skipped))
    sys.exit(1 if v.failed or v.problems else 0)


main()
