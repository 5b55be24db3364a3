"""Host tests of harness/check.py: the judge must catch what it exists for."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', 'check.py')
sys.path.insert(0, os.path.join(HERE, '..'))
import check  # noqa: E402
from util import read_counts, write  # noqa: E402


GOOD = """\
[    0.000000] Linux version 6.1.192
[    0.500000] KTAP version 1
[    0.500000] 1..1
[    0.500000]     KTAP version 1
[    0.500000]     # Subtest: list-kernel-test
[    0.500000]     1..2
[    0.500000]     ok 1 - list_test_list_init
[    0.500000]     ok 2 - list_test_list_add # SKIP not here
[    0.500000] ok 1 - list-kernel-test
HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=ftracetest
FTT| === Ftrace unit tests ===
FTT| [1] Basic trace file check	[PASS]
FTT| [2] event trigger - test inter-event histogram trigger	[FAIL]
FTT| [3] Kprobe dynamic event - adding and removing	[UNSUPPORTED]
FTT| [4] (instance)  Basic test for tracers	[PASS]
FTT| # of passed:  2
HARNESS: done
"""
EXPECT = """\
# comment
PASS\tBasic trace file check
FAIL\tevent trigger - test inter-event histogram trigger
UNSUPPORTED\tKprobe dynamic event - adding and removing
PASS\t(instance) Basic test for tracers
"""


class Judge(unittest.TestCase):
    def run_judge(self, log, expect=EXPECT, extra=()):
        with tempfile.TemporaryDirectory() as d:
            paths = {n: os.path.join(d, n) for n in ('log', 'exp')}
            write(paths['log'], log)
            write(paths['exp'], expect)
            p = subprocess.run([sys.executable, CHECK, 'judge', '--name', 't',
                                '--log', paths['log'], '--expect', paths['exp'],
                                '--kunit', '--results', d, *extra],
                               capture_output=True, text=True)
            return p.returncode, read_counts(os.path.join(d, 't')), p.stdout

    def test_good_run_is_green(self):
        rc, c, out = self.run_judge(GOOD)
        self.assertEqual(rc, 0, out)
        # finished, SMP, clean log, 1 kunit ok, 2 ftracetest PASS
        self.assertEqual(c, {'passed': 6, 'failed': 0, 'skipped': 3})

    def test_oops_fails(self):
        log = GOOD.replace('HARNESS: done', '[   9.1] BUG: kernel NULL pointer '
                           'dereference, address: 0000000000000000\nHARNESS: done')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('kernel log clean', out)

    def test_warning_fails(self):
        log = GOOD.replace('HARNESS: done', '[   9.1] WARNING: CPU: 1 PID: 7 at '
                           'kernel/trace/ftrace.c:1 x+0x1/0x2\nHARNESS: done')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_unfinished_guest_fails(self):
        log = GOOD.replace('HARNESS: done\n', '')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_boot_self_tests(self):
        """CONFIG_FTRACE_STARTUP_TEST's lines: each PASSED is a result, a
        FAILED (also on a continuation line) or no verdict fails."""
        ok = ('[   0.6] Testing tracer function: PASSED\n'
              '[   1.5] Testing dynamic ftrace ops #1: \n'
              '[   2.2] (3 3 5 0 3269) PASSED\n'
              '[   8.9] trace_kprobe: Testing kprobe tracing: OK\n')
        log = GOOD.replace('HARNESS: kernel', ok + 'HARNESS: kernel')
        rc, c, out = self.run_judge(log)
        self.assertEqual((rc, c['passed']), (0, 9), out)
        for bad in ('[   0.6] Testing tracer function: FAILED!\n',
                    '[   1.5] Testing dynamic ftrace ops #1: \n'
                    '[   2.2] (3 3 5 0 3269) FAILED\n',
                    '[   0.6] Testing tracer wakeup: \n',
                    '[   8.9] trace_kprobe: Testing kprobe tracing: \n'
                    '[   9.0] NG: Some tests are failed. Please check them.\n'
                    '[   9.1] [  OK  ] Started x\n'):
            log = GOOD.replace('HARNESS: kernel', bad + 'HARNESS: kernel')
            rc, c, out = self.run_judge(log)
            self.assertEqual((rc, c['failed']), (1, 1), out)
            self.assertIn('boot self-test', out)

    def test_boot_self_test_verdict_is_its_own(self):
        """A KUnit failure after a passed self-test is not the self-test's."""
        log = GOOD.replace('HARNESS: kernel',
                           '[   8.9] trace_kprobe: Testing kprobe tracing: OK\n'
                           '[   9.0]     # encode_nop: EXPECTATION FAILED at x.c:1\n'
                           'HARNESS: kernel')
        rc, c, out = self.run_judge(log)
        self.assertIn('ok   t: boot self-test kprobe tracing', out)
        self.assertNotIn('FAIL t: boot self-test', out)

    def test_uniprocessor_fails(self):
        self.assertEqual(self.run_judge(GOOD.replace('nproc=2', 'nproc=1'))[0], 1)

    def test_asked_for_one_vcpu(self):
        one = GOOD.replace('nproc=2', 'nproc=1')
        rc, c, out = self.run_judge(one, extra=('--nproc', '1'))
        self.assertEqual(rc, 0, out)
        self.assertIn('guest has 1 vCPU(s)', out)
        # Two vCPUs where one was asked for is a failure too.
        self.assertEqual(self.run_judge(GOOD, extra=('--nproc', '1'))[0], 1)

    def test_smp_only_case_on_one_vcpu(self):
        one = GOOD.replace('nproc=2', 'nproc=1').replace(
            'FTT| # of passed', 'FTT| [5] ftrace - function trace with cpumask\t[UNRESOLVED]\n'
            'FTT| # of passed')
        expect = EXPECT + 'PASS\tftrace - function trace with cpumask\n'
        rc, c, out = self.run_judge(one, expect, extra=('--nproc', '1', '--subset'))
        self.assertEqual(rc, 0, out)
        self.assertIn('needs two CPUs', out)
        # On two CPUs the same result is a regression.
        two = one.replace('nproc=1', 'nproc=2')
        self.assertEqual(self.run_judge(two, expect, extra=('--subset',))[0], 1)

    def test_latency_case_with_jiffies_clock(self):
        # x86 under TCG: when the boot's TSC sync check fails, sched_clock
        # counts jiffies and an idle CPU's stale clock becomes a latency.
        case = 'test for the preemptirqsoff tracer'
        log = GOOD.replace('FTT| # of passed', f'FTT| [5] {case}\t[FAIL]\nFTT| # of passed')
        expect = EXPECT + f'PASS\t{case}\n'
        unstable = log.replace(
            'HARNESS: kernel', '[    0.3] tsc: Marking TSC unstable due to TSCs unsynchronized\n'
            'HARNESS: kernel')
        rc, c, out = self.run_judge(unstable, expect, extra=('--subset',))
        self.assertEqual(rc, 0, out)
        self.assertIn('TSC marked unstable', out)
        # With a TSC the same result is a regression.
        self.assertEqual(self.run_judge(log, expect, extra=('--subset',))[0], 1)
        # Other cases are judged as ever on such a boot.
        other = unstable.replace('check\t[PASS]', 'check\t[FAIL]')
        self.assertEqual(self.run_judge(other, expect, extra=('--subset',))[0], 1)

    def test_regression_against_upstream_fails(self):
        log = GOOD.replace('check\t[PASS]', 'check\t[FAIL]')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('upstream: PASS', out)

    def test_lost_feature_fails(self):
        log = GOOD.replace('check\t[PASS]', 'check\t[UNSUPPORTED]')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_timed_out_guest_is_one_failure_with_its_cause(self):
        # Cut after case 1, as harness/qemu.sh leaves a guest it stopped:
        # one failure naming the timeout and the last case, not one per
        # case the guest never reached (issue 37).
        cut = GOOD.index('FTT| === Ftrace')
        log = (GOOD[:cut] + '[    9.0] [1] Basic trace file check\t[PASS]\n'
               'qemu: timed out after 1200 s\n')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertEqual(c['failed'], 1, out)
        self.assertIn('timed out after 1200 s; last case completed: '
                      '[1] Basic trace file check', out)
        self.assertNotIn('did not run', out)

    def test_crashed_guest_says_so(self):
        log = GOOD.replace('FTT| # of passed:  2\nHARNESS: done\n', '')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('crash or hang', out)

    def test_missing_case_fails_unless_subset(self):
        log = GOOD.replace('FTT| [1] Basic trace file check\t[PASS]\n', '')
        self.assertEqual(self.run_judge(log)[0], 1)
        self.assertEqual(self.run_judge(log, extra=['--subset'])[0], 0)

    def test_cut_short_ftracetest_fails(self):
        log = GOOD.replace('FTT| # of passed:  2\n', '')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_kunit_failure_fails(self):
        log = GOOD.replace('    ok 1 - list_test_list_init', '    not ok 1 - list_test_list_init')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_no_kunit_output_fails(self):
        log = '\n'.join(ln for ln in GOOD.splitlines() if 'KTAP' not in ln and
                        'ok' not in ln and '1..' not in ln) + '\n'
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_flaky_case_passing_on_retry_passes(self):
        log = GOOD.replace('FTT| [1] Basic trace file check\t[PASS]',
                           'FTT| [1] Basic trace file check\t[FAIL]')
        self.assertEqual(self.run_judge(log)[0], 1)
        retry = 'FTTRETRY| [1] Basic trace file check\t[PASS]\nHARNESS: done'
        self.assertEqual(self.run_judge(log.replace('HARNESS: done', retry))[0], 0)
        retry = 'FTTRETRY| [1] Basic trace file check\t[FAIL]\nHARNESS: done'
        self.assertEqual(self.run_judge(log.replace('HARNESS: done', retry))[0], 1)

    def test_excluded_case_is_a_skip(self):
        log = GOOD.replace('HARNESS: kernel', 'HARNESS: not run: test.d/x/hang.tc\nHARNESS: kernel')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 0, out)
        self.assertEqual(c['skipped'], 4)

    def test_new_project_case_must_pass(self):
        log = GOOD.replace('FTT| # of', 'FTT| [5] Our new case\t[FAIL]\nFTT| # of')
        self.assertEqual(self.run_judge(log)[0], 1)


class Functions(unittest.TestCase):
    UP = '# upstream\nfoo\nbar\nbar\nOops_fn\n__ftrace_invalid_address___12\n'

    def judge(self, names):
        log = GOOD.replace('HARNESS: kernel', ''.join(f'AFF| {n}\n' for n in names) +
                           'HARNESS: kernel')
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            write(os.path.join(d, 'exp'), EXPECT)
            write(os.path.join(d, 'fn'), self.UP)
            p = subprocess.run([sys.executable, CHECK, 'judge', '--name', 't',
                                '--log', os.path.join(d, 'log'), '--expect',
                                os.path.join(d, 'exp'), '--kunit', '--functions',
                                os.path.join(d, 'fn'), '--results', d],
                               capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_same_as_upstream_less_invalid(self):
        rc, out = self.judge(['bar', 'foo', 'bar', 'Oops_fn'])
        self.assertEqual(rc, 0, out)

    def test_invalid_entry_fails(self):
        self.assertEqual(self.judge(['bar', 'foo', 'bar', 'Oops_fn',
                                     '__ftrace_invalid_address___7'])[0], 1)

    def test_missing_or_extra_fails(self):
        self.assertEqual(self.judge(['bar', 'Oops_fn'])[0], 1)
        self.assertEqual(self.judge(['bar', 'foo', 'bar', 'Oops_fn', 'baz'])[0], 1)
        self.assertEqual(self.judge(['bar', 'foo', 'bar', 'bar', 'Oops_fn'])[0], 1)

    def test_fewer_duplicates_pass(self):
        rc, out = self.judge(['bar', 'foo', 'Oops_fn'])
        self.assertEqual(rc, 0, out)


class Ktap(unittest.TestCase):
    def test_parameterised_and_truncated(self):
        lines = ['KTAP version 1', '1..2', '    # Subtest: s', '    1..1',
                 '        # Subtest: p', '        ok 1 - a', '        not ok 2 - b',
                 '    not ok 1 - p', 'not ok 1 - s']
        res, complete = check.parse_ktap(lines)
        self.assertEqual(res, [('s.p.a', 'ok'), ('s.p.b', 'fail')])
        self.assertFalse(complete)


def run_total(d):
    """check.py total on directory d."""
    return subprocess.run([sys.executable, CHECK, 'total', d],
                          capture_output=True, text=True)


class Total(unittest.TestCase):
    def test_sums_and_exit(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'a'), 'passed 3\nfailed 0\nskipped 1\n')
            write(os.path.join(d, 'b'), 'passed 2\nfailed 1\nskipped 0\n')
            p = run_total(d)
            self.assertEqual(p.stdout.splitlines()[-1], '5 passed, 1 failed, 1 skipped')
            self.assertEqual(p.returncode, 1)

    def test_stray_file_is_a_failure_not_a_crash(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'a'), 'passed 3\nfailed 0\nskipped 1\n')
            write(os.path.join(d, 'stress.txt'), 'STRESS total jobs=11 errors=0\n')
            p = run_total(d)
            self.assertEqual(p.stdout.splitlines()[-1], '3 passed, 1 failed, 1 skipped')
            self.assertIn('stress.txt', p.stdout)
            self.assertEqual(p.returncode, 1)

    def test_empty_is_failure(self):
        with tempfile.TemporaryDirectory() as d:
            p = run_total(d)
            self.assertEqual(p.returncode, 1)


KST_GOOD = """\
[    0.000000] Linux version 6.1.192
HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=kselftest
KSTOUT| livepatch/test-livepatch.sh: TEST: basic function patching ... ok
KST| PASS livepatch/test-livepatch.sh rc=0 seconds=12.5
KSTOUT| livepatch/test-state.sh: TEST: system state modification ... not ok
KSTOUT| livepatch/test-state.sh: -livepatch: WARNING: just text of the script
KST| FAIL livepatch/test-state.sh rc=1 seconds=3.0
KST| SKIP livepatch/test-ftrace.sh rc=4 seconds=0.1
DMESG| [    1.000000] livepatch: enabling patch 'test_klp_livepatch'
HARNESS: kselftest ran 3 scripts
HARNESS: done
"""
KST_EXPECT = """\
# upstream
PASS\tlivepatch/test-livepatch.sh
FAIL\tlivepatch/test-state.sh
SKIP\tlivepatch/test-ftrace.sh
"""


class Kselftest(unittest.TestCase):
    def run_judge(self, log, expect=KST_EXPECT):
        with tempfile.TemporaryDirectory() as d:
            paths = {n: os.path.join(d, n) for n in ('log', 'exp')}
            write(paths['log'], log)
            write(paths['exp'], expect)
            p = subprocess.run([sys.executable, CHECK, 'kselftest', '--name', 't',
                                '--log', paths['log'], '--expect', paths['exp'],
                                '--results', d], capture_output=True, text=True)
            return p.returncode, p.stdout, read_counts(os.path.join(d, 't'))

    def test_good(self):
        rc, out, counts = self.run_judge(KST_GOOD)
        self.assertEqual(rc, 0, out)
        # ran to the end, clean log, one pass; two that upstream fails too
        self.assertEqual(counts, {'passed': 3, 'failed': 0, 'skipped': 2})
        self.assertIn('kselftest livepatch/test-livepatch.sh (12 s)', out)

    def test_upstream_pass_fails_here(self):
        log = KST_GOOD.replace('KST| PASS livepatch/test-livepatch.sh rc=0',
                               'KST| FAIL livepatch/test-livepatch.sh rc=1')
        rc, out, counts = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: kselftest livepatch/test-livepatch.sh', out)
        self.assertIn('upstream: PASS', out)
        # the script's output is shown
        self.assertIn('basic function patching', out)

    def test_upstream_pass_skipped_here_fails(self):
        log = KST_GOOD.replace('KST| PASS livepatch/test-livepatch.sh rc=0',
                               'KST| SKIP livepatch/test-livepatch.sh rc=4')
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)

    def test_missing_script_fails(self):
        log = '\n'.join(ln for ln in KST_GOOD.splitlines()
                        if 'KST| PASS' not in ln) + '\n'
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('did not run (upstream: PASS)', out)

    def test_new_script_must_pass(self):
        log = KST_GOOD.replace('HARNESS: kselftest ran',
                               'KST| FAIL livepatch/test-new.sh rc=1\nHARNESS: kselftest ran')
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('not in', out)

    def test_no_results_fails(self):
        log = '\n'.join(ln for ln in KST_GOOD.splitlines()
                        if not ln.startswith('KST| ')) + '\n'
        rc, out, _ = self.run_judge(log, expect='# nothing\n')
        self.assertEqual(rc, 1)
        self.assertIn('no KST| results', out)

    def test_oops_in_dmesg_fails(self):
        log = KST_GOOD.replace('HARNESS: kselftest ran',
                               'DMESG| [    9.000000] BUG: kernel NULL pointer dereference\n'
                               'HARNESS: kselftest ran')
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('kernel log clean', out)

    def test_script_output_is_not_the_kernel_log(self):
        # KSTOUT| lines hold "WARNING:" in the script's text: not an oops
        rc, out, _ = self.run_judge(KST_GOOD)
        self.assertEqual(rc, 0, out)

    def test_no_done_fails(self):
        rc, out, _ = self.run_judge(KST_GOOD.replace('HARNESS: done\n', ''))
        self.assertEqual(rc, 1)

    def run_expect(self, log):
        """kselftest-expect on @log: (process, expectations or None)."""
        with tempfile.TemporaryDirectory() as d:
            lp, out = os.path.join(d, 'log'), os.path.join(d, 'exp')
            write(lp, log)
            p = subprocess.run([sys.executable, CHECK, 'kselftest-expect', '--log', lp,
                                '--out', out, '--arch', 'x86_64', '--base', '6.1.192',
                                '--seconds', '99'], capture_output=True, text=True)
            return p, check.read_expectations(out) if os.path.exists(out) else None

    def test_expect_roundtrip(self):
        p, exp = self.run_expect(KST_GOOD)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(exp, {
            'livepatch/test-livepatch.sh': 'PASS',
            'livepatch/test-state.sh': 'FAIL',
            'livepatch/test-ftrace.sh': 'SKIP'})

    def test_expect_refuses_incomplete_run(self):
        # a guest that stopped after some scripts, or whose count disagrees
        for log in (KST_GOOD.replace('HARNESS: done\n', ''),
                    KST_GOOD.replace('ran 3 scripts', 'ran 4 scripts')):
            p, exp = self.run_expect(log)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn('incomplete', p.stderr)
            self.assertIsNone(exp)


if __name__ == '__main__':
    unittest.main()


class BenchSmoke(unittest.TestCase):
    """The judge's check of the benchmark program's smoke run."""

    def lines(self, drop=None, extra=()):
        out = [f'BENCH| {m} 12.50 ns' for m in check.BENCH_METRICS if m != drop]
        return out + list(extra) + ['BENCH| done']

    def verdict(self, lines):
        t = check.Tally('x')
        check.judge_bench_smoke(t, lines)
        return t.counts

    def test_complete_run_passes(self):
        self.assertEqual(self.verdict(self.lines())['passed'], 1)
        got, err, done = check.parse_bench(self.lines())
        self.assertEqual(got['records'], 12.5)
        self.assertTrue(done)
        self.assertIsNone(err)

    def test_missing_metric_fails(self):
        self.assertEqual(self.verdict(self.lines(drop='records'))['failed'], 1)

    def test_error_fails(self):
        lines = self.lines(extra=['BENCH| error open /x (No such file)'])
        self.assertEqual(self.verdict(lines)['failed'], 1)

    def test_unfinished_fails(self):
        self.assertEqual(self.verdict(self.lines()[:-1])['failed'], 1)


class CoreCases(unittest.TestCase):
    """The project's own cases ("ftrace-core: ...") must PASS, whatever
    expectations/ARCH.txt says, and with --core-cases each must have run."""

    CASE = 'ftrace-core: a deferred func-glob:mod:M filter keeps its glob'

    def run_judge(self, log, expect=EXPECT, cases=None, core_dir=None):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            write(os.path.join(d, 'exp'), expect)
            extra = ['--core-cases', core_dir] if core_dir else []
            if cases is not None:
                os.mkdir(os.path.join(d, 'ftt'))
                for i, desc in enumerate(cases):
                    write(os.path.join(d, 'ftt', f'c{i}.tc'),
                          f'#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n'
                          f'# description: {desc}\n# requires: set_ftrace_filter\n')
                write(os.path.join(d, 'ftt', 'notes.txt'), '# description: ftrace-core: not a case\n')
                extra = ['--core-cases', os.path.join(d, 'ftt')]
            p = subprocess.run([sys.executable, CHECK, 'judge', '--name', 't',
                                '--log', os.path.join(d, 'log'), '--expect',
                                os.path.join(d, 'exp'), '--kunit', '--subset',
                                '--results', d, *extra],
                               capture_output=True, text=True)
            return p.returncode, read_counts(os.path.join(d, 't')), p.stdout

    def log_with(self, result, desc=None):
        desc = desc or self.CASE
        return GOOD.replace('FTT| # of', f'FTT| [5] {desc}\t[{result}]\nFTT| # of')

    def test_pass_passes(self):
        rc, c, out = self.run_judge(self.log_with('PASS'))
        self.assertEqual(rc, 0, out)

    def test_fail_fails_even_if_upstream_failed_too(self):
        exp = EXPECT + f'FAIL\t{self.CASE}\n'
        rc, c, out = self.run_judge(self.log_with('FAIL'), expect=exp)
        self.assertEqual(rc, 1, out)
        self.assertIn('must PASS', out)

    def test_not_pass_results_fail(self):
        # UNSUPPORTED, XFAIL and the rest are skips or passes for other cases.
        for res in ('UNSUPPORTED', 'UNTESTED', 'XFAIL', 'UNRESOLVED'):
            exp = EXPECT + f'{res}\t{self.CASE}\n'
            rc, c, out = self.run_judge(self.log_with(res), expect=exp)
            self.assertEqual(rc, 1, f'{res}: {out}')

    def test_unsupported_on_an_arch_the_case_does_not_name(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# arches: aarch64\n')
            rc, c, out = self.run_judge(self.log_with('UNSUPPORTED'), core_dir=d)
            self.assertEqual(rc, 0, out)
            self.assertIn('only', out)
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# arches: x86_64\n')
            rc, c, out = self.run_judge(self.log_with('UNSUPPORTED'), core_dir=d)
            self.assertEqual(rc, 1, out)

    def test_flaky_retry_does_not_rescue(self):
        log = self.log_with('FAIL').replace(
            'HARNESS: done', f'FTTRETRY| [1] {self.CASE}\t[PASS]\nHARNESS: done')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_whitespace_in_description(self):
        desc = 'ftrace-core:  two   spaces'
        rc, c, out = self.run_judge(self.log_with('PASS', desc), cases=[desc])
        self.assertEqual(rc, 0, out)

    def test_core_case_that_did_not_run_fails(self):
        other = 'ftrace-core: probes across module unload'
        rc, c, out = self.run_judge(self.log_with('PASS'), cases=[self.CASE, other])
        self.assertEqual(rc, 1, out)
        self.assertIn('did not run', out)
        rc, c, out = self.run_judge(self.log_with('PASS'), cases=[self.CASE])
        self.assertEqual(rc, 0, out)

    def test_core_cases_lists_only_tc_files(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'a.tc'), '# description: ftrace-core: x  y\n')
            write(os.path.join(d, 'b.tc'), '# description: ftrace - upstream style\n')
            write(os.path.join(d, 'c.sh'), '# description: ftrace-core: helper\n')
            self.assertEqual(check.core_cases(d), ['ftrace-core: x y'])

    def test_real_cases_are_core_cases(self):
        ftt = os.path.join(HERE, '..', 'ftt')
        names = [n for n in os.listdir(ftt) if n.endswith('.tc')]
        self.assertTrue(names)
        keys = check.core_cases(ftt)
        self.assertEqual(len(keys), len(names), 'every harness/ftt case is "ftrace-core: ..."')
        self.assertEqual(len(set(keys)), len(keys), 'descriptions are unique')


BOOT_GOOD = """\
[    0.000000] Linux version 6.1.192
HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=bootcheck
bootcheck: ftrace=function ftrace_filter=vfs_read,no_such_fn_xyz
CHECK| PASS current_tracer
CHECK| PASS set_ftrace_filter
CHECK| PASS enabled_functions
HARNESS: bootcheck rc=0
HARNESS: done
"""


class Bootcheck(unittest.TestCase):
    def run_bootcheck(self, log):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            p = subprocess.run([sys.executable, CHECK, 'bootcheck', '--name', 'b',
                                '--log', os.path.join(d, 'log'), '--results', d],
                               capture_output=True, text=True)
            return p.returncode, read_counts(os.path.join(d, 'b')), p.stdout

    def test_good_boot_passes(self):
        rc, c, out = self.run_bootcheck(BOOT_GOOD)
        self.assertEqual(rc, 0, out)
        # finished, clean, three checks
        self.assertEqual(c, {'passed': 5, 'failed': 0, 'skipped': 0})

    def test_failed_check_fails(self):
        log = BOOT_GOOD.replace('CHECK| PASS enabled_functions',
                                "CHECK| FAIL enabled_functions: 16476 lines, not 'vfs_read'")
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 1, out)
        self.assertEqual(c['failed'], 1)
        self.assertIn("16476 lines, not 'vfs_read'", out)

    def test_no_check_lines_fails(self):
        log = ''.join(ln + '\n' for ln in BOOT_GOOD.splitlines() if 'CHECK|' not in ln)
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 1, out)
        self.assertIn('no CHECK| lines', out)

    def test_unfinished_boot_fails(self):
        self.assertEqual(self.run_bootcheck(BOOT_GOOD.replace('HARNESS: done\n', ''))[0], 1)

    def test_empty_log_fails(self):
        rc, c, out = self.run_bootcheck('')
        self.assertEqual(rc, 1)
        self.assertGreaterEqual(c['failed'], 2)

    def test_oops_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck', '[    3.2] BUG: unable to handle page fault '
                                'for address: ffffffffa0000000\nHARNESS: bootcheck')
        self.assertEqual(self.run_bootcheck(log)[0], 1)

    PROVOKED = ('[    4.1] ------------[ cut here ]------------\n'
                '[    4.1] WARNING: CPU: 0 PID: 90 at kernel/trace/ftrace_update.c:322 '
                'ftrace_patch_failed+0x1a0/0x1c0\n')

    def test_one_provoked_warning_passes(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck', self.PROVOKED + 'HARNESS: bootcheck')
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 0, out)

    def test_provoked_warning_with_message_passes(self):
        """As WARN() prints it: cut here, the message, then WARNING."""
        log = BOOT_GOOD.replace('HARNESS: bootcheck', self.PROVOKED.replace(
            '\n[    4.1] WARNING', '\n[    4.1] ftrace: call site update failed\n'
            '[    4.1] WARNING') + 'HARNESS: bootcheck')
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 0, out)

    def test_second_provoked_warning_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck', self.PROVOKED * 2 + 'HARNESS: bootcheck')
        self.assertEqual(self.run_bootcheck(log)[0], 1)

    def test_other_warning_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck', self.PROVOKED.replace(
            'ftrace_patch_failed', 'rcu_do_batch') + 'HARNESS: bootcheck')
        self.assertEqual(self.run_bootcheck(log)[0], 1)
