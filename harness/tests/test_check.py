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
from util import GUEST, ftt_doc, guest_sh, read_counts, write  # noqa: E402


KUNIT = """\
[    0.000000] Linux version 6.1.192
[    0.500000] KTAP version 1
[    0.500000] 1..1
[    0.500000]     KTAP version 1
[    0.500000]     # Subtest: list-kernel-test
[    0.500000]     1..2
[    0.500000]     ok 1 - list_test_list_init
[    0.500000]     ok 2 - list_test_list_add # SKIP not here
[    0.500000] ok 1 - list-kernel-test
"""
# ftracetest's cases, as its log (/tmp/ftt-logs/ftracetest.log) lists them.
CASES = ['Basic trace file check\t[PASS]',
         'event trigger - test inter-event histogram trigger\t[FAIL]',
         'Kprobe dynamic event - adding and removing\t[UNSUPPORTED]',
         '(instance)  Basic test for tracers\t[PASS]']


def ftt_log(cases=CASES, summary=True):
    """ftracetest's log of @cases ("desc\t[RESULT]"), with its summary."""
    words = [c.rsplit('[', 1)[1].rstrip(']') for c in cases]
    out = '=== Ftrace unit tests ===\n' + ''.join(f'[{i}] {c}\n' for i, c in enumerate(cases, 1))
    if summary:
        out += '\n\n' + ''.join(f'# of {label}:  {words.count(w)}\n' for label, w in (
            ('passed', 'PASS'), ('failed', 'FAIL'), ('unresolved', 'UNRESOLVED'),
            ('untested', 'UNTESTED'), ('unsupported', 'UNSUPPORTED'), ('xfailed', 'XFAIL'),
            ('undefined(test bug)', 'UNDEFINED')))
    return out


FTT_LOG = ftt_log()


def console(log=FTT_LOG, excluded='', after=''):
    """The console of an ftracetest boot: KUnit, then the guest's
    ftracetest document made of @log by the guest's own converter."""
    return (KUNIT + 'HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=ftracetest\n' +
            ftt_doc(log, excluded) + after + 'HARNESS: done\n')


GOOD = console()
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
        one = console(ftt_log(CASES + ['ftrace - function trace with cpumask\t[UNRESOLVED]'])
                      ).replace('nproc=2', 'nproc=1')
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
        log = console(ftt_log(CASES + [f'{case}\t[FAIL]']))
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
        other = unstable.replace('ok 1 Basic trace file check', 'not ok 1 Basic trace file check')
        self.assertEqual(self.run_judge(other, expect, extra=('--subset',))[0], 1)

    def test_regression_against_upstream_fails(self):
        log = console(FTT_LOG.replace('check\t[PASS]', 'check\t[FAIL]'))
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('upstream: PASS', out)

    def test_lost_feature_fails(self):
        log = console(FTT_LOG.replace('check\t[PASS]', 'check\t[UNSUPPORTED]'))
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_timed_out_guest_is_one_failure_with_its_cause(self):
        # Cut after case 1, as harness/qemu.sh leaves a guest it stopped:
        # one failure naming the timeout and the last case, not one per
        # case the guest never reached (issue 37).
        cut = GOOD.index('KTAP version 1\n# harness: ftracetest')
        log = (GOOD[:cut] + '[    9.0] [1] Basic trace file check\t[PASS]\n'
               'qemu: timed out after 1200 s\n')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertEqual(c['failed'], 1, out)
        self.assertIn('timed out after 1200 s; last case completed: '
                      '[1] Basic trace file check', out)
        self.assertNotIn('did not run', out)

    def test_crashed_guest_says_so(self):
        # Stopped while it printed the document.
        log = GOOD[:GOOD.index('    # of passed')]
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('crash or hang', out)

    def test_missing_case_fails_unless_subset(self):
        log = console(ftt_log(CASES[1:]))
        self.assertEqual(self.run_judge(log)[0], 1)
        rc, c, out = self.run_judge(log, extra=['--subset'])
        self.assertEqual(rc, 0, out)

    def test_cut_short_ftracetest_fails(self):
        # ftracetest stopped before its summary: the document has no plan.
        log = console(ftt_log(summary=False))
        rc, c, out = self.run_judge(log, extra=['--subset'])
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: ftracetest completed  (ftracetest: no plan: ftracetest stopped', out)

    def test_results_missing_against_the_plan_fail(self):
        # The summary counts five cases, the log holds four results.
        log = console(FTT_LOG.replace('# of passed:  2', '# of passed:  3'))
        rc, c, out = self.run_judge(log, extra=['--subset'])
        self.assertEqual(rc, 1)
        self.assertIn('4 results, plan 5', out)

    def test_document_cut_off_in_a_finished_guest_fails(self):
        lines = GOOD.splitlines(keepends=True)
        log = ''.join(ln for ln in lines if ln != 'not ok 1 ftracetest\n')
        self.assertNotEqual(log, GOOD)
        rc, c, out = self.run_judge(log, extra=['--subset'])
        self.assertEqual(rc, 1)
        self.assertIn('cut off', out)

    def test_kunit_failure_fails(self):
        log = GOOD.replace('    ok 1 - list_test_list_init', '    not ok 1 - list_test_list_init')
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_no_kunit_output_fails(self):
        log = GOOD.replace(KUNIT, '[    0.000000] Linux version 6.1.192\n')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: kunit  (no KTAP results', out)
        # The guest's document is not KUnit's.
        self.assertNotIn('kunit ftracetest', out)

    def test_flaky_case_passing_on_retry_passes(self):
        failed = FTT_LOG.replace('check\t[PASS]', 'check\t[FAIL]')
        self.assertEqual(self.run_judge(console(failed))[0], 1)
        for word, rc in (('PASS', 0), ('FAIL', 1)):
            retry = ftt_doc(ftt_log([f'Basic trace file check\t[{word}]']), name='ftracetest-retry')
            got, out = self.run_judge(console(failed, after=retry))[::2]
            self.assertEqual(got, rc, out)
        retry = ftt_doc(ftt_log(['Basic trace file check\t[PASS]']), name='ftracetest-retry')
        self.assertIn('then PASS on its retry', self.run_judge(console(failed, after=retry))[2])

    def test_excluded_case_is_a_skip(self):
        log = console(excluded='test.d/x/hang.tc\n')
        rc, c, out = self.run_judge(log)
        self.assertEqual(rc, 0, out)
        self.assertEqual(c['skipped'], 4)
        self.assertIn('skip t: ftracetest test.d/x/hang.tc  (excluded', out)

    def test_new_project_case_must_pass(self):
        log = console(ftt_log(CASES + ['Our new case\t[FAIL]']))
        self.assertEqual(self.run_judge(log)[0], 1)

    def test_printk_lines_between_results(self):
        """Kernel messages on the console between the document's lines
        (timestamped, and one without a stamp) change nothing."""
        noisy = GOOD.replace('    ok 4 (instance)', '[   12.345678] random: crng init done\n'
                             'Call Trace:\n[   12.4]  <TASK>\n    ok 4 (instance)')
        self.assertNotEqual(noisy, GOOD)
        self.assertEqual(self.run_judge(noisy)[1], self.run_judge(GOOD)[1])

    def test_every_ftracetest_word_travels(self):
        """Each of ftracetest's words through the guest's converter and back."""
        words = ('PASS', 'FAIL', 'UNRESOLVED', 'UNTESTED', 'UNSUPPORTED', 'XFAIL', 'UNDEFINED')
        log = ftt_log([f'case {w.lower()}\t[{w}]' for w in words] + ['(instance) case pass\t[PASS]'])
        got, complete, excluded = check.parse_ftracetest(ftt_doc(log).splitlines())
        self.assertEqual(got, [(f'case {w.lower()}', w) for w in words] +
                         [('(instance) case pass', 'PASS')])
        self.assertTrue(complete)
        self.assertEqual(excluded, [])


class Functions(unittest.TestCase):
    UP = '# upstream\nfoo\nbar\nbar\nOops_fn\n__ftrace_invalid_address___12\n'

    def judge(self, names, up=None):
        log = GOOD.replace('HARNESS: kernel', ''.join(f'AFF| {n}\n' for n in names) +
                           'HARNESS: kernel')
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            write(os.path.join(d, 'exp'), EXPECT)
            write(os.path.join(d, 'fn'), up or self.UP)
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

    def test_other_release_named(self):
        """A list recorded on another stable release says so when it fails."""
        names = ['bar', 'foo', 'bar', 'Oops_fn', 'new_in_192']
        old = '# at boot, x86_64, Linux 6.1.190; sorted.\n' + self.UP
        rc, out = self.judge(names, old)
        self.assertEqual(rc, 1, out)
        self.assertIn('the list is of Linux 6.1.190, this kernel is 6.1.192: '
                      "record stock's again (make expectations)", out)
        rc, out = self.judge(names, old.replace('6.1.190', '6.1.192'))
        self.assertEqual(rc, 1, out)
        self.assertNotIn('the list is of', out)


def parse(text):
    """parse_ktap() of @text read as a console log (timestamps dropped)."""
    with tempfile.TemporaryDirectory() as d:
        write(os.path.join(d, 'log'), text)
        return check.parse_ktap(list(check.console_lines(os.path.join(d, 'log'))))


def kinds(test):
    return [(n, k.kind) for n, k in check.ktap_results(test)]


class Ktap(unittest.TestCase):
    """The one KTAP parser: KUnit's document and the guest's."""

    def test_parameterised_and_truncated(self):
        lines = ['KTAP version 1', '1..2', '    # Subtest: s', '    1..1',
                 '        # Subtest: p', '        ok 1 - a', '        not ok 2 - b',
                 '    not ok 1 - p', 'not ok 1 - s']
        docs = check.parse_ktap(lines)
        self.assertEqual(kinds(docs[0]), [('s.p.a', 'ok'), ('s.p.b', 'fail')])
        self.assertEqual(check.ktap_problems(docs[0]), ['the document: 1 results, plan 2'])

    def test_kernel_message_at_the_end_of_a_result(self):
        doc = parse('KTAP version 1\n1..2\nok 1 a\n'
                    'ok 2 (instance)  b[  542.275632] random: crng init done\n')[0]
        self.assertEqual(kinds(doc), [('a', 'ok'), ('(instance)  b', 'ok')])
        self.assertEqual(check.ktap_problems(doc), [])

    def test_kunit_as_6_1_prints_it(self):
        doc = parse(KUNIT)[0]
        self.assertIsNone(doc.name)
        self.assertEqual(kinds(doc), [('list-kernel-test.list_test_list_init', 'ok'),
                                      ('list-kernel-test.list_test_list_add', 'skip')])
        self.assertEqual(check.ktap_problems(doc), [])

    def test_suite_failure_its_cases_do_not_show(self):
        doc = parse('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: s\n'
                    '    1..1\n    ok 1 a\n# s: init failed\nnot ok 1 s\n')[0]
        self.assertEqual(kinds(doc), [('s.a', 'ok'), ('s', 'fail')])
        self.assertEqual(doc.tests[0].why(), 's: init failed'[3:])

    def test_two_documents_on_one_console(self):
        """KUnit's and a guest script's, with kernel messages between and
        inside: each its own, told apart by "# harness: NAME"."""
        guest = guest_sh('ktap_start smoke 2\nktap_ok a "3 lines"\nktap_fail b "why b"\nktap_end')
        lines = guest.splitlines()
        lines.insert(4, '[    7.100000] ftrace: a kernel message')
        lines.insert(7, '[    7.200000]     not ok 9 printk that looks indented')
        docs = parse(KUNIT + '[    5.000000] Run /init as init process\n' + '\n'.join(lines) + '\n')
        self.assertEqual([d.name for d in docs], [None, 'smoke'])
        self.assertEqual(kinds(docs[0])[0], ('list-kernel-test.list_test_list_init', 'ok'))
        res = check.doc_results(docs[1])
        self.assertEqual([(n, k.kind, k.why()) for n, k in res],
                         [('printk that looks indented', 'fail', ''),
                          ('a', 'ok', '3 lines'), ('b', 'fail', 'why b')])
        # A kernel line in a result's form is read as one: the plan says so.
        self.assertEqual(check.ktap_problems(docs[1]), ['smoke: 3 results, plan 2'])

    def test_directives(self):
        doc = parse(guest_sh('ktap_start d\nktap_skip s "no such file"\nktap_xfail x\n'
                             'ktap_bad u UNRESOLVED\nktap_ok o "count=3 errors=0"\nktap_end'))[0]
        got = [(n, k.status, k.directive, k.data, k.kind) for n, k in check.doc_results(doc)]
        self.assertEqual(got, [('s', 'ok', 'SKIP', 'no such file', 'skip'),
                               ('x', 'ok', 'XFAIL', '', 'ok'),
                               ('u', 'not ok', '', 'UNRESOLVED', 'fail'),
                               ('o', 'ok', '', 'count=3 errors=0', 'ok')])
        self.assertEqual(check.ktap_problems(doc), [])

    def test_hash_in_a_name(self):
        doc = parse(guest_sh('ktap_start d\nktap_ok "a # b"\nktap_fail "c#" "why"\nktap_end'))[0]
        self.assertEqual([(n, k.why()) for n, k in check.doc_results(doc)],
                         [('a _ b', ''), ('c_', 'why')])

    def test_cut_off_document(self):
        text = guest_sh('ktap_start d\nktap_ok a\nktap_ok b\nktap_end')
        self.assertEqual(check.ktap_problems(parse(text)[0]), [])
        cut = parse(text.replace('ok 1 d\n', ''))[0]
        self.assertEqual(check.ktap_problems(cut), ['d: cut off, no result line'])
        # The next document starts: the first stays cut off.
        docs = parse(text.replace('ok 1 d\n', '') + text)
        self.assertEqual([check.ktap_problems(d) for d in docs], [['d: cut off, no result line'], []])

    def test_missing_results_against_the_plan(self):
        text = guest_sh('ktap_start d 3\nktap_ok a\nktap_ok b\nktap_end')
        self.assertEqual(check.ktap_problems(parse(text)[0]), ['d: 2 results, plan 3'])

    def test_harness_lines_are_the_guests_only(self):
        text = KUNIT + guest_sh('ktap_start d\nktap_fail a "WARNING: in a reason"\nktap_end')
        lines = text.splitlines()
        own = check.harness_lines(parse(text))
        self.assertIn('    # a: WARNING: in a reason', [lines[i] for i in own])
        self.assertFalse(any('list_test' in lines[i] for i in own))


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


# What harness/guest/kselftest.sh prints through the guest's library.
KST_SCRIPT = """\
ktap_start kselftest 3
ktap_diag "TEST: basic function patching ... ok"
ktap_diag "livepatch/test-livepatch.sh: rc=0 seconds=12.5"
ktap_ok livepatch/test-livepatch.sh
ktap_diag "TEST: system state modification ... not ok
-livepatch: WARNING: just text of the script"
ktap_diag "livepatch/test-state.sh: rc=1 seconds=3.0"
ktap_bad livepatch/test-state.sh exit=1
ktap_diag "livepatch/test-ftrace.sh: rc=4 seconds=0.1"
ktap_skip livepatch/test-ftrace.sh rc=4
ktap_end
"""


def kst_log(script=KST_SCRIPT, dmesg=''):
    return ('[    0.000000] Linux version 6.1.192\n'
            'HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=kselftest\n' + guest_sh(script) +
            "DMESG| [    1.000000] livepatch: enabling patch 'test_klp_livepatch'\n" + dmesg +
            'HARNESS: done\n')


KST_GOOD = kst_log()
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
        log = kst_log(KST_SCRIPT.replace('ktap_ok livepatch/test-livepatch.sh',
                                         'ktap_bad livepatch/test-livepatch.sh exit=1'))
        rc, out, counts = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: kselftest livepatch/test-livepatch.sh', out)
        self.assertIn('upstream: PASS', out)
        # the script's output is shown
        self.assertIn('basic function patching', out)

    def test_upstream_pass_skipped_here_fails(self):
        log = kst_log(KST_SCRIPT.replace('ktap_ok livepatch/test-livepatch.sh',
                                         'ktap_skip livepatch/test-livepatch.sh rc=4'))
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)

    def test_missing_script_fails(self):
        log = kst_log(KST_SCRIPT.replace('ktap_ok livepatch/test-livepatch.sh\n', '')
                      .replace('kselftest 3', 'kselftest 2'))
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('did not run (upstream: PASS)', out)
        self.assertNotIn('every script', out)

    def test_new_script_must_pass(self):
        log = kst_log(KST_SCRIPT.replace('ktap_end', 'ktap_bad livepatch/test-new.sh\nktap_end')
                      .replace('kselftest 3', 'kselftest 4'))
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('not in', out)

    def test_no_results_fails(self):
        log = kst_log('')
        rc, out, _ = self.run_judge(log, expect='# nothing\n')
        self.assertEqual(rc, 1)
        self.assertIn('no results in a KTAP document "kselftest"', out)

    def test_results_short_of_the_plan_fail(self):
        rc, out, _ = self.run_judge(kst_log(KST_SCRIPT.replace('kselftest 3', 'kselftest 4')))
        self.assertEqual(rc, 1)
        self.assertIn('FAIL t: kselftest ran every script', out)

    def test_oops_in_dmesg_fails(self):
        log = kst_log(dmesg='DMESG| [    9.000000] BUG: kernel NULL pointer dereference\n')
        rc, out, _ = self.run_judge(log)
        self.assertEqual(rc, 1)
        self.assertIn('kernel log clean', out)

    def test_script_output_is_not_the_kernel_log(self):
        # The document's diagnostic lines hold "WARNING:" in the script's
        # output: not an oops
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
                    kst_log(KST_SCRIPT.replace('kselftest 3', 'kselftest 4'))):
            p, exp = self.run_expect(log)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn('incomplete', p.stderr)
            self.assertIsNone(exp)



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

    def run_judge(self, log, expect=EXPECT, cases=None, core_dir=None, extra=()):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            write(os.path.join(d, 'exp'), expect)
            more = list(extra)
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
                                '--results', d, *extra, *more],
                               capture_output=True, text=True)
            return p.returncode, read_counts(os.path.join(d, 't')), p.stdout

    def log_with(self, result, desc=None):
        desc = desc or self.CASE
        return console(ftt_log(CASES + [f'{desc}\t[{result}]']))

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

    def test_unsupported_on_an_arch_named_for_another_base(self):
        # "x86_64@6.12": the case is for x86_64 on 6.12 only.
        with tempfile.TemporaryDirectory() as d:
            log = self.log_with('UNSUPPORTED')
            self.assertIn('HARNESS: kernel 6.1.', log)
            self.assertIn(' x86_64 ', log)
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# arches: aarch64 x86_64@6.12\n')
            rc, c, out = self.run_judge(log, core_dir=d)
            self.assertEqual(rc, 0, out)
            self.assertIn('x86_64@6.12 only', out)
            rc, c, out = self.run_judge(log.replace('kernel 6.1.', 'kernel 6.12.'),
                                        core_dir=d)
            self.assertEqual(rc, 1, out)
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# arches: aarch64@6.12 x86_64@6.1\n')
            rc, c, out = self.run_judge(log, core_dir=d)
            self.assertEqual(rc, 1, out)

    def test_unsupported_on_a_base_the_case_does_not_name(self):
        with tempfile.TemporaryDirectory() as d:
            log = self.log_with('UNSUPPORTED')
            self.assertIn('HARNESS: kernel 6.1.', log)
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# bases: 6.12\n')
            rc, c, out = self.run_judge(log, core_dir=d)
            self.assertEqual(rc, 0, out)
            self.assertIn('Linux 6.12 only', out)
            write(os.path.join(d, 'a.tc'),
                  f'# description: {self.CASE}\n# bases: 6.1\n')
            rc, c, out = self.run_judge(log, core_dir=d)
            self.assertEqual(rc, 1, out)
            # "6.12" is not "6.1": the base is the first two numbers.
            rc, c, out = self.run_judge(log.replace('kernel 6.1.', 'kernel 6.12.'),
                                        core_dir=d)
            self.assertEqual(rc, 0, out)

    def test_unsupported_ok_names_one_case(self):
        rc, c, out = self.run_judge(self.log_with('UNSUPPORTED'),
                                    extra=['--unsupported-ok', self.CASE])
        self.assertEqual(rc, 0, out)
        self.assertIn('nothing for it to test', out)
        rc, c, out = self.run_judge(self.log_with('FAIL'), extra=['--unsupported-ok', self.CASE])
        self.assertEqual(rc, 1, out)
        rc, c, out = self.run_judge(self.log_with('UNSUPPORTED'),
                                    extra=['--unsupported-ok', 'ftrace-core: another case'])
        self.assertEqual(rc, 1, out)

    def test_flaky_retry_does_not_rescue(self):
        retry = ftt_doc(ftt_log([f'{self.CASE}\t[PASS]']), name='ftracetest-retry')
        log = self.log_with('FAIL').replace('HARNESS: done', retry + 'HARNESS: done')
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


BOOT_SCRIPT = """\
ktap_start bootcheck
echo "bootcheck: ftrace=function ftrace_filter=vfs_read,no_such_fn_xyz"
ktap_ok current_tracer
ktap_ok set_ftrace_filter
ktap_ok enabled_functions
ktap_end
"""


def boot_log(script=BOOT_SCRIPT, before_rc=''):
    return ('[    0.000000] Linux version 6.1.192\n'
            'HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=bootcheck\n' + guest_sh(script) +
            before_rc + 'HARNESS: bootcheck rc=0\nHARNESS: done\n')


BOOT_GOOD = boot_log()


def run_guest(log, *args, save=True):
    """check.py guest on @log: (exit status, counts or None, output)."""
    with tempfile.TemporaryDirectory() as d:
        write(os.path.join(d, 'log'), log)
        res = ['--results', os.path.join(d, 'res')] if save else []
        p = subprocess.run([sys.executable, CHECK, 'guest', '--name', 'b',
                            '--log', os.path.join(d, 'log'), *res, *args],
                           capture_output=True, text=True)
        counts = os.path.join(d, 'res', 'b')
        return p.returncode, read_counts(counts) if os.path.exists(counts) else None, p.stdout


class Bootcheck(unittest.TestCase):
    def run_bootcheck(self, log):
        return run_guest(log, '--doc', 'bootcheck', '--what', 'boot parameters')

    def test_good_boot_passes(self):
        rc, c, out = self.run_bootcheck(BOOT_GOOD)
        self.assertEqual(rc, 0, out)
        # finished, clean, three checks
        self.assertEqual(c, {'passed': 5, 'failed': 0, 'skipped': 0})

    def test_failed_check_fails(self):
        log = boot_log(BOOT_SCRIPT.replace(
            'ktap_ok enabled_functions', "ktap_fail enabled_functions \"16476 lines, not 'vfs_read'\""))
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 1, out)
        self.assertEqual(c['failed'], 1)
        self.assertIn("FAIL b: boot parameters: enabled_functions  (16476 lines, not 'vfs_read')", out)

    def test_no_results_fails(self):
        for script in ('', 'ktap_start bootcheck\nktap_end'):
            rc, c, out = self.run_bootcheck(boot_log(script))
            self.assertEqual(rc, 1, out)
            self.assertIn('FAIL b: boot parameters: checks  (no', out)

    def test_cut_off_document_fails(self):
        log = BOOT_GOOD.replace('ok 1 bootcheck\n', '')
        self.assertNotEqual(log, BOOT_GOOD)
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual((rc, c['passed'], c['failed']), (1, 5, 1), out)
        self.assertIn('every result reported  (bootcheck: cut off', out)

    def test_nodyncheck_document(self):
        """make check-full's nodyn boot: its own document, its own name."""
        log = boot_log(BOOT_SCRIPT.replace('bootcheck', 'nodyncheck'))
        rc, _, out = run_guest(log, '--doc', 'nodyncheck', '--what', 'no dynamic ftrace')
        self.assertEqual(rc, 0, out)
        self.assertIn('ok   b: no dynamic ftrace: enabled_functions', out)
        # A bootcheck document is not the one asked for.
        self.assertEqual(run_guest(BOOT_GOOD, '--doc', 'nodyncheck')[0], 1)

    def test_unfinished_boot_fails(self):
        self.assertEqual(self.run_bootcheck(BOOT_GOOD.replace('HARNESS: done\n', ''))[0], 1)

    def test_empty_log_fails(self):
        rc, c, out = self.run_bootcheck('')
        self.assertEqual(rc, 1)
        self.assertGreaterEqual(c['failed'], 2)

    def test_oops_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck rc', '[    3.2] BUG: unable to handle page fault '
                                'for address: ffffffffa0000000\nHARNESS: bootcheck rc')
        self.assertEqual(self.run_bootcheck(log)[0], 1)

    PROVOKED = ('[    4.1] ------------[ cut here ]------------\n'
                '[    4.1] WARNING: CPU: 0 PID: 90 at kernel/trace/ftrace_update.c:322 '
                'ftrace_patch_failed+0x1a0/0x1c0\n')

    def test_dmesg_warnings_count(self):
        """The kernel log the guest prints after the document ("DMESG| "
        lines, the console being quiet during the checks): the one provoked
        WARNING passes, a second fails."""
        one = ''.join('DMESG| ' + ln + '\n' for ln in self.PROVOKED.splitlines())
        rc, _, out = self.run_bootcheck(BOOT_GOOD.replace(
            'HARNESS: bootcheck rc', one + 'HARNESS: bootcheck rc'))
        self.assertEqual(rc, 0, out)
        rc, _, out = self.run_bootcheck(BOOT_GOOD.replace(
            'HARNESS: bootcheck rc', one + one + 'HARNESS: bootcheck rc'))
        self.assertEqual(rc, 1, out)

    def test_planless_document_with_a_stray_result_fails(self):
        """ktap_end gives a document without a plan its count: a stray
        line that looks like a result makes them disagree."""
        doc = guest_sh('ktap_start bootcheck; ktap_ok a; ktap_ok b; ktap_end').splitlines()
        self.assertIn('    1..2', doc)
        doc.insert(6, '    ok 3 lookalike')
        d = check.harness_doc(check.parse_ktap(doc), 'bootcheck')
        self.assertTrue(check.ktap_problems(d))

    def test_one_provoked_warning_passes(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck rc', self.PROVOKED + 'HARNESS: bootcheck rc')
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 0, out)

    def test_provoked_warning_with_message_passes(self):
        """As WARN() prints it: cut here, the message, then WARNING."""
        log = BOOT_GOOD.replace('HARNESS: bootcheck rc', self.PROVOKED.replace(
            '\n[    4.1] WARNING', '\n[    4.1] ftrace: call site update failed\n'
            '[    4.1] WARNING') + 'HARNESS: bootcheck rc')
        rc, c, out = self.run_bootcheck(log)
        self.assertEqual(rc, 0, out)

    def test_second_provoked_warning_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck rc', self.PROVOKED * 2 + 'HARNESS: bootcheck rc')
        self.assertEqual(self.run_bootcheck(log)[0], 1)

    def test_other_warning_fails(self):
        log = BOOT_GOOD.replace('HARNESS: bootcheck rc', self.PROVOKED.replace(
            'ftrace_patch_failed', 'rcu_do_batch') + 'HARNESS: bootcheck rc')
        self.assertEqual(self.run_bootcheck(log)[0], 1)


SMOKE_SCRIPT = """\
ktap_start smoke 4
ktap_ok available_filter_functions "14326 functions, none invalid"
ktap_ok function_tracer "24235 trace lines"
ktap_ok filter_vfs_read "3 lines, no other function, 1 site enabled"
ktap_ok tracer_off "no site enabled"
ktap_end
"""
KUNIT_ARM = """\
[    0.500000] KTAP version 1
[    0.500000] 1..1
[    0.500000]     KTAP version 1
[    0.500000]     # Subtest: ftrace-records
[    0.500000]     1..2
[    0.500000]     # records_build_and_find: EXPECTATION FAILED at x.c:9
[    0.500000]     not ok 1 records_build_and_find
[    0.500000]     ok 2 records_sorted
[    0.500000] not ok 1 ftrace-records
"""


class QuietConsole(unittest.TestCase):
    def test_quiet_console_scripts_print_the_kernel_log(self):
        """A guest script that quiets the console (printk level 1) hides
        WARN, BUG and KASAN reports from it: it must print the kernel log
        for the host ("DMESG| " lines) or judge it itself (stress)."""
        for name in sorted(os.listdir(GUEST)):
            if not name.endswith('.sh'):
                continue
            with open(os.path.join(GUEST, name)) as f:
                text = f.read()
            # (diff.sh's boot is judged on its output alone: left so.)
            if name != 'diff.sh' and 'echo 1 > /proc/sys/kernel/printk' in text:
                with self.subTest(name):
                    self.assertRegex(text, r"dmesg \| sed ['\"]s/\^/DMESG\| /|kernel-log")


class Smoke(unittest.TestCase):
    """The 32-bit arm smoke boot (harness/smoke.sh): KUnit with its known
    failures, and the guest's document "smoke"."""

    def run_smoke(self, script=SMOKE_SCRIPT, kunit=KUNIT_ARM, known='records_build_and_find'):
        log = (kunit + 'HARNESS: kernel 6.1.192 armv7l nproc=2 mode=smoke\n' +
               guest_sh(script) + 'HARNESS: smoke rc=0\nHARNESS: done\n')
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'known'), f'# known\nftrace-records.{known} arm clears bit 0\n')
            return run_guest(log, '--doc', 'smoke', '--kunit', '--kunit-known',
                             os.path.join(d, 'known'))

    def test_good(self):
        rc, c, out = self.run_smoke()
        self.assertEqual(rc, 0, out)
        # ran to the end, clean, 1 KUnit case, 4 checks; the known failure
        self.assertEqual(c, {'passed': 7, 'failed': 0, 'skipped': 1}, out)
        self.assertIn('skip b: kunit ftrace-records.records_build_and_find  (fails, known: arm', out)
        self.assertIn('ok   b: smoke: function_tracer  (24235 trace lines)', out)

    def test_failed_check_fails(self):
        rc, c, out = self.run_smoke(SMOKE_SCRIPT.replace(
            'ktap_ok tracer_off "no site enabled"', 'ktap_fail tracer_off "2 sites still enabled"'))
        self.assertEqual((rc, c['failed']), (1, 1), out)
        self.assertIn('FAIL b: smoke: tracer_off  (2 sites still enabled)', out)

    def test_unknown_kunit_failure_fails(self):
        rc, c, out = self.run_smoke(known='records_sorted')
        self.assertEqual(rc, 1, out)
        self.assertIn('FAIL b: kunit ftrace-records.records_build_and_find', out)
        self.assertIn('FAIL b: kunit ftrace-records.records_sorted  (passes now', out)

    def test_check_missing_against_the_plan_fails(self):
        rc, c, out = self.run_smoke(SMOKE_SCRIPT.replace('ktap_ok tracer_off "no site enabled"\n', ''))
        self.assertEqual(rc, 1, out)
        self.assertIn('smoke: 3 results, plan 4', out)


STRESS_SCRIPT = """\
ktap_start stress
ktap_diag "fuzz-1: tfuzz: 3000 cases, 2580 rejected, 420 valid"
ktap_ok fuzz-1 "count=3000 errors=0 seconds=80"
ktap_ok tracers "count=40 errors=0 seconds=100"
ktap_skip writer1 "not in stress_jobs"
ktap_diag "modules-traced count=20"
ktap_end
"""


class Stress(unittest.TestCase):
    """make stress's report: the guest's document "stress", judged without
    the console's kernel log (the guest checks its own), with the line
    make check counts."""

    def run_stress(self, script=STRESS_SCRIPT):
        log = ('HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=stress\nSTRESSP| tracers 10 at 30.1\n' +
               guest_sh(script) + 'HARNESS: done\n')
        return run_guest(log, '--doc', 'stress', '--what', 'stress x86_64-ours',
                         '--no-console', '--summary', save=False)

    def test_good(self):
        rc, _, out = self.run_stress()
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.splitlines()[-1], '3 passed, 0 failed, 1 skipped')
        self.assertIn('ok   b: stress x86_64-ours: tracers  (count=40 errors=0 seconds=100)', out)

    def test_job_with_errors_fails_with_its_notes(self):
        rc, _, out = self.run_stress(STRESS_SCRIPT.replace(
            'ktap_ok tracers "count=40 errors=0 seconds=100"',
            'ktap_diag "tracers: cycle 3: x\ntracers: cycle 9: y"\n'
            'ktap_bad tracers "count=40 errors=2 seconds=100"'))
        self.assertEqual(rc, 1, out)
        self.assertEqual(out.splitlines()[-1], '2 passed, 1 failed, 1 skipped')
        self.assertIn('     | tracers: cycle 9: y', out)

    def test_unfinished_fails(self):
        rc, _, out = self.run_stress(STRESS_SCRIPT.replace('ktap_end', ''))
        self.assertEqual(rc, 1, out)
        self.assertIn('cut off', out)


class FtracetestRecords(unittest.TestCase):
    """check.py expect records expectations/ARCH.txt from the guest's
    document; make ftt lists the cases from it."""

    def test_expect_roundtrip(self):
        log = console(FTT_LOG, excluded='test.d/x/hang.tc\n')
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            out = os.path.join(d, 'exp')
            p = subprocess.run([sys.executable, CHECK, 'expect', '--log', os.path.join(d, 'log'),
                                '--out', out, '--arch', 'x86_64', '--base', '6.1.192',
                                '--seconds', '9'], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(check.read_expectations(out), {
                'Basic trace file check': 'PASS',
                'event trigger - test inter-event histogram trigger': 'FAIL',
                'Kprobe dynamic event - adding and removing': 'UNSUPPORTED',
                '(instance) Basic test for tracers': 'PASS'})
            # A run that stopped before its summary records nothing.
            write(os.path.join(d, 'log'), console(ftt_log(summary=False)))
            p = subprocess.run([sys.executable, CHECK, 'expect', '--log', os.path.join(d, 'log'),
                                '--out', out + '2', '--arch', 'x86_64', '--base', '6.1.192',
                                '--seconds', '9'], capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(os.path.exists(out + '2'))

    def ftt_cases(self, log):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log)
            return subprocess.run([sys.executable, CHECK, 'ftt-cases', '--log',
                                   os.path.join(d, 'log')], capture_output=True, text=True)

    def test_ftt_cases(self):
        p = self.ftt_cases(console(ftt_log([CASES[0], CASES[3]])))
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn('[2] (instance) Basic test for tracers\t[PASS]', p.stdout)
        self.assertEqual(p.stdout.splitlines()[-1], 'ftt: 2 of 2 passed')
        p = self.ftt_cases(GOOD)
        self.assertEqual(p.returncode, 1)
        self.assertIn('[3] Kprobe dynamic event - adding and removing\t[UNSUPPORTED]', p.stdout)
        self.assertEqual(self.ftt_cases(console(ftt_log([CASES[0]], summary=False))).returncode, 1)


if __name__ == '__main__':
    unittest.main()
