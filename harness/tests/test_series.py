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

BENCHMARKS = """# Benchmarks: method and details

Intro, `make bench ARCH=...` named.

## The tables and the method

**x86_64** (`RUNS=1 make bench ARCH=x86_64`, measured 2026-11-29): both
kernels.

A note with no table.

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| zero | instr | 2 | 1 | 0.500 |

**x86_64** (`make bench ARCH=x86_64`, measured 2026-11-29)

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| one (measured 12:00 UTC) | instr | 2 | 1 | 0.500 |

## arm64 built with clang

`make bench ARCH=arm64 VARIANT=clang` (measured 2026-11-30): both.

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| three | instr | 3 | 1 | 0.333 |

## Linux 6.12

`RUNS=1 make bench ARCH=x86_64 BASE=6.12` (measured 2026-11-29).

**arm64**

| metric | unit | a | b | b/a |
|---|---|---:|---:|---:|
| two | instr | 4 | 1 | 0.250 |

## After
"""


class Plan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        top = self.tmp.name
        os.makedirs(os.path.join(top, 'series', '6.12'))
        os.makedirs(os.path.join(top, 'docs'))
        for name in ('00-cover', '01-a', '02-b', '03-c'):
            write(os.path.join(top, 'series', name), 'Subject: %s\n\nbody\n' % name)
        write(os.path.join(top, 'series', '6.12', '02-b'), 'Subject: b on 6.12\n\nbody\n')
        write(os.path.join(top, 'series', '6.12', '02-d'), 'Subject: d\n\nbody\n')
        write(os.path.join(top, 'series', '6.12', 'omit'), '# why\n03-c\n')
        write(os.path.join(top, 'docs', 'benchmarks.md'), BENCHMARKS)
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
        # Each table under the bold words or heading before it and its
        # command; no dates; a table after a note has no title and is out.
        self.assertIn('x86_64 (make bench ARCH=x86_64)\n\nmetric', t61)
        self.assertIn('arm64 built with clang (make bench ARCH=arm64 VARIANT=clang)', t61)
        self.assertIn('one ', t61)
        self.assertIn('three', t61)
        self.assertNotIn('zero', t61)
        self.assertNotIn('UTC', t61)
        self.assertNotIn('two', t61)
        series.set_base('6.12')
        t612 = series.bench_tables()
        self.assertTrue(t612.startswith('arm64\n\nmetric'))
        self.assertIn('two', t612)
        self.assertNotIn('one ', t612)
        self.assertNotIn('three', t612)


if __name__ == '__main__':
    unittest.main()
