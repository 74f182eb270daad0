#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""harness/tests/summary-verdicts.py: harness/summary.py, the judge of make test,
fed with crafted consoles.

One console passes as it is: two KUnit suites (one with a parameterised
case and an announced warning), three kselftest programs (one with its
plan first, one with its plan last, one with no result by design) and a
kernel log dump.  Each case edits it the way a run goes wrong (a crash, a
hang, a short plan, a skip, a missing suite, an unannounced or missing
warning, an RCU stall, ...) and checks the verdict: the exit code, the
closing line and the reason printed.  Uses the tree's kunit_parser.py,
as summary.py does: $BUILD/linux-source-6.12 (after make apply).  TAP on
stdout.
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
TREE = os.path.join(BUILD, 'linux-source-6.12')
SUMMARY = os.path.join(TOP, 'harness', 'summary.py')

MANIFEST = """\
# the crafted guest's manifest
kunit    alpha      4
kunit    beta       1
selftest prog_c     3
selftest last.sh    2
selftest empty.sh   0
"""

KUNIT = """\
[    0.000000] Linux version 6.12.0 (latency@series) #1 SMP
[    0.900000] KTAP version 1
[    0.900000] 1..2
[    0.900000]     KTAP version 1
[    0.900000]     # Subtest: alpha
[    0.900000]     # module: alpha_test
[    0.900000]     1..3
[    0.900000]     ok 1 alpha_one
[    0.900000]     # alpha_two: expect a warning: a misuse
[    0.900000] ------------[ cut here ]------------
[    0.900000] alpha: misuse of the API
[    0.900000] WARNING: CPU: 0 PID: 1 at kernel/latency.c:10 alpha+0x1/0x2
[    0.900000] Modules linked in:
[    0.900000] ---[ end trace 0000000000000000 ]---
[    0.900000]     ok 2 alpha_two
[    0.900000]         KTAP version 1
[    0.900000]         # Subtest: alpha_param
[    0.900000]         ok 1 first
[    0.900000]         ok 2 second
[    0.900000]     # alpha_param: pass:2 fail:0 skip:0 total:2
[    0.900000]     ok 3 alpha_param
[    0.900000] # alpha: pass:3 fail:0 skip:0 total:4
[    0.900000] ok 1 alpha
[    0.900000]     KTAP version 1
[    0.900000]     # Subtest: beta
[    0.900000]     1..1
[    0.900000]     ok 1 beta_one
[    0.900000] ok 2 beta
[    1.000000] Run /init as init process
"""

SELFTESTS = """\
latency-harness: selftests start
TAP version 13
1..3
# timeout set to 300
# selftests: latency: prog_c
# TAP version 13
# 1..3
# # Starting 3 tests from 1 test cases.
# #  RUN           global.one ...
# #            OK  global.one
# ok 1 global.one
# ok 2 global.two
# ok 3 global.three
# # PASSED: 3 / 3 tests passed.
# # Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 1 selftests: latency: prog_c
# timeout set to 300
# selftests: latency: last.sh
# TAP version 13
# ok 1 loaded
# ok 2 unloaded
# 1..2
# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 2 selftests: latency: last.sh
# timeout set to 300
# selftests: latency: empty.sh
# TAP version 13
# # every suite is built in: counted at boot
# 1..0
# # Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 3 selftests: latency: empty.sh
latency-harness: selftests end
"""

DMESG = """\
latency-harness: kernel log start
[    0.900000]     # alpha_two: expect a warning: a misuse
[    0.900000] ------------[ cut here ]------------
[    0.900000] alpha: misuse of the API
[    0.900000] WARNING: CPU: 0 PID: 1 at kernel/latency.c:10 alpha+0x1/0x2
[    0.900000] ---[ end trace 0000000000000000 ]---
[    0.900000]     ok 2 alpha_two
[    5.000000] ipw2100: Intel(R) PRO/Wireless 2100 Network Driver
latency-harness: kernel log end
latency-harness: done
"""

BASE = KUNIT + SELFTESTS + DMESG
# KUnit 4+1 cases (each parameter of alpha_param counts), programs 3+2+0,
# the clean kernel log: 5 + 5 + 1.
CLEAN = '11 passed, 0 failed, 0 skipped'


def sub(old, new, count=1):
    """An edit of the console: replace old by new, which must be there."""
    def edit(text):
        assert old in text, 'the crafted console has no %r' % old
        return text.replace(old, new, count)
    return edit


def cut_after(marker):
    """The console ends just after marker: the guest died there."""
    def edit(text):
        assert marker in text
        return text[:text.index(marker) + len(marker)]
    return edit


def chain(*edits):
    def edit(text):
        for e in edits:
            text = e(text)
        return text
    return edit


def same(text):
    return text


# A case the manifest allows to skip, as a guest that cannot run it does.
SKIP_BETA = MANIFEST + 'skip     kunit beta beta_one   # not in this guest\n'

# name, edit, summary.py options, expected exit code, the closing line
# (a regex), a regex the output must hold, and the manifest if not MANIFEST.
CASES = [
    ('a clean run passes', same, ['--no-skip'], 0,
     CLEAN, r'selftest prog_c\s+3 passed, 0 failed, 0 skipped'),
    ('a clean run counts each KUnit suite', same, ['--no-skip'], 0,
     CLEAN, r'kunit    alpha\s+4 passed'),
    ('a program with plan 1..0 and no result passes at 0 in the manifest',
     same, ['--no-skip'], 0, CLEAN, r'selftest empty.sh\s+0 passed, 0 failed'),
    ('a clean run of a flavour passes too', same, [], 0, CLEAN, r'kunit    beta'),
    ('a crash in a program: did not finish, did not boot to the end',
     chain(sub('# ok 1 loaded\n', '# ok 1 loaded\n[    9.000000] Kernel panic - '
               'not syncing: Fatal exception\n'),
           cut_after('Fatal exception\n')),
     ['--no-skip'], 1, r'9 passed, [1-9]\d* failed, 0 skipped',
     r'summary: last.sh: did not finish'),
    ('a hang (no "done"): the guest did not boot to the end',
     cut_after('ok 3 selftests: latency: empty.sh\n'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped',
     r'summary: the guest did not boot to the end of the tests'),
    ('a short plan: the missing results are failures',
     sub('# ok 3 global.three\n', ''), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped',
     r'summary: prog_c: 1 planned results missing'),
    ('a short run with the plan last: below the manifest',
     sub('# ok 2 unloaded\n# 1..2\n', '# 1..1\n'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped',
     r'summary: selftest last.sh: 1 results, \S+ asks for 2'),
    ('a program skipped as a whole fails make test',
     sub('# 1..3\n# # Starting 3 tests from 1 test cases.\n'
         '# #  RUN           global.one ...\n# #            OK  global.one\n'
         '# ok 1 global.one\n# ok 2 global.two\n# ok 3 global.three\n'
         '# # PASSED: 3 / 3 tests passed.\n'
         '# # Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n'
         'ok 1 selftests: latency: prog_c\n',
         '# 1..0 # SKIP no /dev/acceptable_latency\n'
         'ok 1 selftests: latency: prog_c # SKIP\n'),
     ['--no-skip'], 1, r'8 passed, 1 failed, 1 skipped',
     r'summary: selftest prog_c: 1 skipped, and make test skips nothing'),
    ('... and passes a flavour run (no --no-skip)',
     sub('# 1..3\n# # Starting 3 tests from 1 test cases.\n'
         '# #  RUN           global.one ...\n# #            OK  global.one\n'
         '# ok 1 global.one\n# ok 2 global.two\n# ok 3 global.three\n'
         '# # PASSED: 3 / 3 tests passed.\n'
         '# # Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n'
         'ok 1 selftests: latency: prog_c\n',
         '# 1..0 # SKIP no /dev/acceptable_latency\n'
         'ok 1 selftests: latency: prog_c # SKIP\n'),
     [], 0, r'8 passed, 0 failed, 1 skipped', r'selftest prog_c\s+0 passed'),
    ('one skipped result fails make test',
     sub('# ok 2 global.two\n', '# ok 2 global.two # SKIP no fail-nth\n'),
     ['--no-skip'], 1, r'10 passed, 1 failed, 1 skipped',
     r'summary: selftest prog_c: 1 skipped'),
    ('... and counts as a result in a flavour run',
     sub('# ok 2 global.two\n', '# ok 2 global.two # SKIP no fail-nth\n'),
     [], 0, r'10 passed, 0 failed, 1 skipped', r'selftest prog_c\s+2 passed'),
    ('a skipped KUnit case fails make test',
     sub('    ok 1 beta_one\n', '    ok 1 beta_one # SKIP not here\n', 2),
     ['--no-skip'], 1, r'10 passed, 1 failed, 1 skipped',
     r'summary: kunit beta: 1 skipped'),
    ('a skipped KUnit case the manifest allows passes make test',
     sub('    ok 1 beta_one\n', '    ok 1 beta_one # SKIP not here\n', 2),
     ['--no-skip'], 0, r'10 passed, 0 failed, 1 skipped',
     r'kunit    beta\s+0 passed, 0 failed, 1 skipped', SKIP_BETA),
    ('... and one it allows that runs fails make test',
     same, ['--no-skip'], 1, r'11 passed, 1 failed, 0 skipped',
     r'summary: kunit beta: beta_one did not skip', SKIP_BETA),
    ('... and another skipped case still fails make test',
     sub('    ok 1 alpha_one\n', '    ok 1 alpha_one # SKIP not here\n', 2),
     ['--no-skip'], 1, r'10 passed, 2 failed, 1 skipped',
     r'summary: kunit alpha: 1 skipped, and make test skips nothing', SKIP_BETA),
    ('a missing KUnit suite fails',
     chain(sub('[    0.900000] 1..2\n', '[    0.900000] 1..1\n'),
           sub('[    0.900000]     KTAP version 1\n'
               '[    0.900000]     # Subtest: beta\n'
               '[    0.900000]     1..1\n'
               '[    0.900000]     ok 1 beta_one\n'
               '[    0.900000] ok 2 beta\n', '')),
     ['--no-skip'], 1, r'10 passed, 1 failed, 0 skipped',
     r'summary: kunit beta: missing'),
    ('a KUnit case removed fails',
     chain(sub('    1..3\n', '    1..2\n'),
           sub('[    0.900000]     ok 1 alpha_one\n', ''),
           sub('    ok 2 alpha_two\n', '    ok 1 alpha_two\n'),
           sub('    ok 3 alpha_param\n', '    ok 2 alpha_param\n')),
     ['--no-skip'], 1, r'10 passed, 1 failed, 0 skipped',
     r'summary: kunit alpha: 3 results, \S+ asks for 4'),
    ('a KUnit case added with the manifest unchanged fails',
     chain(sub('    1..3\n', '    1..4\n'),
           sub('[    0.900000]     ok 3 alpha_param\n',
               '[    0.900000]     ok 3 alpha_param\n'
               '[    0.900000]     ok 4 alpha_four\n')),
     ['--no-skip'], 1, r'12 passed, 1 failed, 0 skipped',
     r'summary: kunit alpha: 5 results, \S+ asks for 4'),
    ('a program missing from the run fails',
     chain(sub('1..3\n# timeout', '1..2\n# timeout'),
           sub('# timeout set to 300\n# selftests: latency: last.sh\n'
               '# TAP version 13\n# ok 1 loaded\n# ok 2 unloaded\n# 1..2\n'
               '# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n'
               'ok 2 selftests: latency: last.sh\n', ''),
           sub('ok 3 selftests: latency: empty.sh',
               'ok 2 selftests: latency: empty.sh')),
     ['--no-skip'], 1, r'9 passed, 2 failed, 0 skipped',
     r'summary: selftest last.sh: missing'),
    ('a program not in the manifest fails',
     sub('selftests: latency: empty.sh', 'selftests: latency: new.sh', 2),
     ['--no-skip'], 1, r'11 passed, 2 failed, 0 skipped',
     r'summary: selftest new.sh: not in '),
    ('a failed result fails, and is named',
     sub('# ok 2 global.two\n', '# not ok 2 global.two\n'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'selftest FAILED: prog_c: global.two'),
    ('a program that exits non-zero with every result ok fails',
     sub('ok 2 selftests: latency: last.sh',
         'not ok 2 selftests: latency: last.sh # exit=1'), ['--no-skip'], 1,
     r'11 passed, 1 failed, 0 skipped', r'summary: last.sh: not ok # exit=1'),
    ('a program killed by its timeout fails',
     chain(sub('# ok 2 unloaded\n# 1..2\n'
               '# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n', ''),
           sub('ok 2 selftests: latency: last.sh',
               'not ok 2 selftests: latency: last.sh # TIMEOUT 300 seconds')),
     ['--no-skip'], 1, r'10 passed, 2 failed, 0 skipped',
     r'summary: last.sh: not ok # TIMEOUT'),
    ('a program that prints nothing fails',
     sub('# TAP version 13\n# ok 1 loaded\n# ok 2 unloaded\n# 1..2\n'
         '# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n', ''),
     ['--no-skip'], 1, r'9 passed, 3 failed, 0 skipped',
     r'summary: last.sh: printed no result'),
    ('an unannounced WARNING fails',
     sub('[    5.000000] ipw2100:',
         '[    4.000000] WARNING: CPU: 1 PID: 90 at mm/slub.c:1 f+0x0/0x1\n'
         '[    5.000000] ipw2100:'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'kernel report.*WARNING: CPU: 1 PID: 90'),
    ('an announced warning that never comes fails',
     sub('[    0.900000]     ok 1 alpha_one\n',
         '[    0.900000]     # alpha_one: expect a warning: never\n'
         '[    0.900000]     ok 1 alpha_one\n'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'announced, never came: .*alpha_one'),
    ('a second warning after one announcement fails',
     sub('[    0.900000] Modules linked in:\n',
         '[    0.900000] WARNING: CPU: 0 PID: 1 at mm/slub.c:2 g+0x1/0x2\n'),
     ['--no-skip'], 1, r'10 passed, 1 failed, 0 skipped',
     r'a second warning after .*expect a warning: a misuse'),
    ('a warning in the window after a test result fails',
     sub('[    0.900000]     ok 2 alpha_two\n[    0.900000]         KTAP',
         '[    0.900000]     ok 2 alpha_two\n'
         '[    0.900000] WARNING: CPU: 0 PID: 1 at x.c:1 h+0x1/0x2\n'
         '[    0.900000]         KTAP'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'kernel report.*WARNING: CPU: 0 PID: 1 at x.c'),
    ('an RCU stall fails',
     sub('[    5.000000] ipw2100:',
         '[   30.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n'
         '[    5.000000] ipw2100:'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'kernel report.*rcu_preempt detected stalls'),
    ('an RCU self-detected stall fails',
     sub('[    5.000000] ipw2100:',
         '[   30.000000] rcu: INFO: rcu_sched self-detected stall on CPU\n'
         '[    5.000000] ipw2100:'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'kernel report.*self-detected stall'),
    ('an Oops at boot fails',
     sub('[    1.000000] Run /init',
         '[    0.950000] Oops: general protection fault: 0000 [#1] SMP\n'
         '[    1.000000] Run /init'), ['--no-skip'], 1,
     r'10 passed, 1 failed, 0 skipped', r'kernel report.*Oops'),
    ('no KUnit output at all fails',
     lambda t: t[t.index('[    1.000000] Run /init'):], ['--no-skip'], 1,
     r'6 passed, 6 failed, 0 skipped', r'summary: no KUnit case ran'),
]


def run(console, opts, tmp, text=MANIFEST):
    path = os.path.join(tmp, 'console.log')
    with open(path, 'w') as f:
        f.write(console)
    manifest = os.path.join(tmp, 'manifest.txt')
    with open(manifest, 'w') as f:
        f.write(text)
    env = dict(os.environ, TREE=TREE)
    env.pop('KUNIT_AT_BOOT', None)
    r = subprocess.run([sys.executable, SUMMARY, '--manifest', manifest] +
                       opts + [path], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


def main():
    print('TAP version 13')
    print('1..%d' % len(CASES))
    if not os.path.isfile(os.path.join(TREE, 'tools/testing/kunit/kunit_parser.py')):
        for n, case in enumerate(CASES, 1):
            print('not ok %d %s # no %s (make apply)' % (n, case[0], TREE))
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, case in enumerate(CASES, 1):
            name, edit, opts, want_rc, last, want = case[:6]
            why = []
            try:
                rc, out = run(edit(BASE), opts, tmp, *case[6:])
            except AssertionError as e:
                rc, out = None, str(e)
                why.append(str(e))
            lines = out.rstrip('\n').split('\n')
            if rc != want_rc:
                why.append('exit code %s, not %d' % (rc, want_rc))
            if not re.fullmatch(last, lines[-1]):
                why.append('closing line %r, not /%s/' % (lines[-1], last))
            if not re.search(want, out):
                why.append('no /%s/ in the output' % want)
            if why:
                failed += 1
                print('not ok %d %s' % (n, name))
                for w in why:
                    print('# ' + w)
                for l in lines[-15:]:
                    print('#   | ' + l)
            else:
                print('ok %d %s' % (n, name))
    return 1 if failed else 0


sys.exit(main())
