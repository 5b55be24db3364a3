"""Host tests of harness/series.py's per-base plan and cover tables."""
import importlib.util
import os
import tempfile
import unittest

from util import write

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'series', os.path.join(HERE, '..', 'series.py'))
series = importlib.util.module_from_spec(spec)
spec.loader.exec_module(series)

README = """# x

## Benchmarks

Intro.

**x86_64** (`make bench ARCH=x86_64`)

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| one | instr | 2 | 1 | 0.500 |

A note with no table.

**Linux 6.12**, the goals (`make bench BASE=6.12`).

arm64:

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| two | instr | 4 | 1 | 0.250 |

## Testing
"""


class Plan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        top = self.tmp.name
        os.makedirs(os.path.join(top, 'series', '6.12'))
        for name in ('00-cover', '01-a', '02-b', '03-c'):
            write(os.path.join(top, 'series', name), 'Subject: %s\n\nbody\n' % name)
        write(os.path.join(top, 'series', '6.12', '02-b'), 'Subject: b on 6.12\n\nbody\n')
        write(os.path.join(top, 'series', '6.12', '02-d'), 'Subject: d\n\nbody\n')
        write(os.path.join(top, 'series', '6.12', 'omit'), '# why\n03-c\n')
        write(os.path.join(top, 'README.md'), README)
        self.old_top = series.TOP
        series.TOP = top
        series.SRC = series.Source(None)

    def tearDown(self):
        series.TOP = self.old_top
        series.set_base('6.1')
        self.tmp.cleanup()

    def subjects(self):
        return [s['subject'] for s in series.read_plan('series')]

    def test_61_reads_series_alone(self):
        series.set_base('6.1')
        self.assertEqual(self.subjects(), ['01-a', '02-b', '03-c'])

    def test_612_overrides_adds_and_omits(self):
        series.set_base('6.12')
        self.assertEqual(self.subjects(), ['01-a', 'b on 6.12', 'd'])
        self.assertEqual(series.plan_files('series')['00-cover'], 'series/00-cover')

    def test_612_omit_of_unknown_step_fails(self):
        write(os.path.join(series.TOP, 'series', '6.12', 'omit'), '09-none\n')
        series.set_base('6.12')
        with self.assertRaisesRegex(series.PlanError, 'no step 09-none'):
            series.read_plan('series')

    def test_612_without_a_plan_of_its_own_fails(self):
        for n in os.listdir(os.path.join(series.TOP, 'series', '6.12')):
            os.unlink(os.path.join(series.TOP, 'series', '6.12', n))
        os.rmdir(os.path.join(series.TOP, 'series', '6.12'))
        series.set_base('6.12')
        with self.assertRaisesRegex(series.PlanError, 'no plan of the base'):
            series.read_plan('series')

    def test_unknown_base_refused(self):
        with self.assertRaisesRegex(series.PlanError, 'must be 6.1 or 6.12'):
            series.set_base('5.10')

    def test_bench_tables_per_base(self):
        series.set_base('6.1')
        t61 = series.bench_tables()
        self.assertIn('x86_64 (make bench ARCH=x86_64)', t61)
        self.assertIn('one', t61)
        self.assertNotIn('two', t61)
        series.set_base('6.12')
        t612 = series.bench_tables()
        self.assertTrue(t612.startswith('arm64:\n\nmetric'))
        self.assertIn('two', t612)
        self.assertNotIn('one ', t612)


if __name__ == '__main__':
    unittest.main()
