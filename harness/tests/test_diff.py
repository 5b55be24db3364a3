"""Host tests of harness/diff.py (make diff's judge) and of the known
differences it accepts: each must be documented in ftrace-core.rst."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
DIFF = os.path.join(HERE, '..', 'diff.py')
KNOWN = os.path.join(TOP, 'expectations', 'diff-known.txt')
DOC = os.path.join(TOP, 'Documentation', 'trace', 'ftrace-core.rst')
SECTION = 'Differences from 6.1 that make diff accepts'
sys.path.insert(0, os.path.join(HERE, '..'))
import diff  # noqa: E402
from util import read_counts, write  # noqa: E402



def log(*scenarios, done=True):
    """A console log of a diff boot with SCENARIOS as (name, [lines])."""
    out = ['[    0.000000] Linux version 6.1.192',
           'HARNESS: kernel 6.1.192 x86_64 nproc=2 mode=diff']
    for name, lines in scenarios:
        out.append(f'DIFF| == {name}')
        out += [f'DIFF| {ln}' for ln in lines]
    if done:
        out += ['HARNESS: diff rc=0', 'HARNESS: done']
    return '\n'.join(out) + '\n'


NAME = ('filter-name', ['$ echo vfs_read > set_ftrace_filter', 'rc=0',
                        '-- set_ftrace_filter:', '   vfs_read'])
ERR = ('failed-writes', ['$ echo no_such_fn_xyz >> set_ftrace_filter',
                         'sh: write error: Invalid argument', 'rc=1'])


class Normalise(unittest.TestCase):
    def test_addresses(self):
        self.assertEqual(
            diff.normalise('vfs_read (1)  tramp: 0xffffffffa0001000 '
                           '(function_trace_call+0x0/0x1a0) ->function_trace_call+0x0/0x1a0'),
            'vfs_read (1)  tramp: ADDR (function_trace_call+ADDR/ADDR) '
            '->function_trace_call+ADDR/ADDR')
        self.assertEqual(diff.normalise('$ echo ffffffff812345a0 > f'), '$ echo ADDR > f')
        # Short numbers (indexes, counts, rc) stay.
        self.assertEqual(diff.normalise('ksys_sync:traceoff:count=2'),
                         'ksys_sync:traceoff:count=2')
        self.assertEqual(diff.normalise('$ echo 12345 > set_ftrace_filter'),
                         '$ echo 12345 > set_ftrace_filter')

    def test_trace_lines(self):
        self.assertEqual(
            diff.normalise('             cat-123     [001] ..... 12.345678: vfs_read <-ksys_read'),
            '             cat-PID     [CPU] ..... TS: vfs_read <-ksys_read')
        self.assertEqual(diff.normalise('trailing space   '), 'trailing space')

    def test_invalid_entries_dropped(self):
        scen, order = diff.scenarios_of_log(
            ['DIFF| == s', 'DIFF| a', 'DIFF| __ftrace_invalid_address___12', 'DIFF| b',
             'not ours', '[ 1.0] kernel line'])
        self.assertEqual(order, ['s'])
        self.assertEqual(scen['s'], ['a', 'b'])

    def test_text_round_trip(self):
        lines = log(NAME, ERR).splitlines()
        scen, order = diff.scenarios_of_log(lines)
        text = diff.format_text(scen, order)
        self.assertEqual(diff.scenarios_of_text(('# header\n' + text).splitlines()),
                         (scen, order))


class Compare(unittest.TestCase):
    def run_compare(self, ours, stock, known='', arch='x86_64', stock_is_log=True):
        with tempfile.TemporaryDirectory() as d:
            paths = {n: os.path.join(d, n) for n in ('ours', 'stock', 'known')}
            write(paths['ours'], ours)
            write(paths['known'], known)
            if stock_is_log:
                write(paths['stock'], stock)
            else:
                write(paths['stock'] + '.log', stock)
                subprocess.run([sys.executable, DIFF, 'expect', '--log', paths['stock'] + '.log',
                                '--out', paths['stock'], '--arch', arch, '--base', '6.1.192'],
                               check=True, capture_output=True)
            p = subprocess.run([sys.executable, DIFF, 'compare', '--ours', paths['ours'],
                                '--stock', paths['stock'], '--known', paths['known'],
                                '--arch', arch, '--name', 't', '--results', d],
                               capture_output=True, text=True)
            return p.returncode, read_counts(os.path.join(d, 't')), p.stdout

    def test_same_output_passes(self):
        rc, c, out = self.run_compare(log(NAME, ERR), log(NAME, ERR))
        self.assertEqual(rc, 0, out)
        # finished, clean log, two scenarios
        self.assertEqual(c, {'passed': 4, 'failed': 0, 'skipped': 0})

    def test_against_recorded_file(self):
        rc, c, out = self.run_compare(log(NAME, ERR), log(NAME, ERR), stock_is_log=False)
        self.assertEqual(rc, 0, out)
        self.assertEqual(c['passed'], 4)

    def test_difference_fails_with_diff(self):
        changed = (ERR[0], ERR[1][:1] + ['rc=0'])
        rc, c, out = self.run_compare(log(NAME, changed), log(NAME, ERR))
        self.assertEqual(rc, 1)
        self.assertEqual(c['failed'], 1)
        self.assertIn('FAIL t: failed-writes', out)
        self.assertIn('-sh: write error: Invalid argument', out)
        self.assertIn('+rc=0', out)

    def test_listed_difference_passes(self):
        changed = (ERR[0], ['rc=0'])
        known = '# comment\nfailed-writes\t*\tours takes it on purpose\n'
        rc, c, out = self.run_compare(log(NAME, changed), log(NAME, ERR), known)
        self.assertEqual(rc, 0, out)
        self.assertIn('documented difference: ours takes it on purpose', out)

    def test_entry_for_another_arch_does_not_apply(self):
        changed = (ERR[0], ['rc=0'])
        known = 'failed-writes\tarm64\tarm64 only\n'
        rc, c, out = self.run_compare(log(NAME, changed), log(NAME, ERR), known)
        self.assertEqual(rc, 1)

    def test_stale_entry_fails(self):
        known = 'filter-name\tx86_64\tonce differed\n'
        rc, c, out = self.run_compare(log(NAME, ERR), log(NAME, ERR), known)
        self.assertEqual(rc, 1)
        self.assertIn('stale entry', out)
        self.assertEqual(c['failed'], 1)

    def test_missing_scenario_fails(self):
        rc, c, out = self.run_compare(log(NAME), log(NAME, ERR))
        self.assertEqual(rc, 1)
        self.assertIn('missing from ours', out)
        rc, c, out = self.run_compare(log(NAME, ERR), log(NAME))
        self.assertEqual(rc, 1)
        self.assertIn('missing from stock', out)

    def test_unfinished_guest_fails(self):
        rc, c, out = self.run_compare(log(NAME, ERR, done=False), log(NAME, ERR))
        self.assertEqual(rc, 1)
        self.assertIn('guest ran to the end', out)

    def test_kernel_warning_fails(self):
        ours = log(NAME, ERR).replace('HARNESS: done', '[ 9.1] WARNING: CPU: 1 PID: 7 at x\nHARNESS: done')
        rc, c, out = self.run_compare(ours, log(NAME, ERR))
        self.assertEqual(rc, 1)
        self.assertIn('kernel log clean', out)

    def test_bad_known_line_fails(self):
        rc, c, out = self.run_compare(log(NAME), log(NAME), 'filter-name x86_64 no tabs\n')
        self.assertEqual(rc, 1)
        self.assertIn('known differences file', out)

    def test_expect_refuses_incomplete_boot(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'log'), log(NAME, done=False))
            p = subprocess.run([sys.executable, DIFF, 'expect', '--log', os.path.join(d, 'log'),
                                '--out', os.path.join(d, 'out'), '--arch', 'x86_64',
                                '--base', '6.1.192'], capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(os.path.exists(os.path.join(d, 'out')))


class KnownDifferences(unittest.TestCase):
    def test_every_entry_is_documented(self):
        with open(DOC) as f:
            doc = f.read()
        self.assertIn(SECTION, doc)
        # The section runs to the next title (a line of = under a line).
        body = doc[doc.index(SECTION):]
        m = re.search(r'\n[^\n]+\n=+\n', body[len(SECTION) + 1:])
        if m:
            body = body[:len(SECTION) + 1 + m.start()]
        for arch in ('x86_64', 'arm64'):
            for scenario in diff.read_known(KNOWN, arch):
                self.assertIn(f'``{scenario}``', body,
                              f'{scenario} ({arch}) is not in "{SECTION}"')

    def test_entries_name_scenarios_of_the_battery(self):
        with open(diff.BATTERY) as f:
            battery = f.read()
        names = {n.replace('_', '-') for n in re.findall(r'^s_(\w+)\(\)', battery, re.M)}
        for arch in ('x86_64', 'arm64'):
            for scenario in diff.read_known(KNOWN, arch):
                self.assertIn(scenario, names)


if __name__ == '__main__':
    unittest.main()
