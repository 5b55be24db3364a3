#!/usr/bin/env python3
"""Run the harness's host tests (harness/tests/test_*.py) and end with
"N passed, N failed, N skipped", the line make check counts."""
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
suite = unittest.defaultTestLoader.discover(here)
result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
skipped = len(result.skipped)
print(f'{result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped')
sys.exit(1 if failed or not result.testsRun else 0)
