"""Host tests of harness/layers.py: a call up a layer must fail."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS = os.path.join(HERE, '..', 'layers.py')

HEADER = """/*
 * Test table, top first:
 *
 *   ftrace_top.c      calls the bottom
 *   ftrace_bottom.c   calls nothing
 *                     (a continuation line)
 */
"""


class Layers(unittest.TestCase):
    def run_layers(self, sources):
        with tempfile.TemporaryDirectory() as d:
            hdr = os.path.join(d, 'core.h')
            with open(hdr, 'w') as f:
                f.write(HEADER)
            tdir = os.path.join(d, 'k', 'kernel', 'trace')
            os.makedirs(tdir)
            for name, text in sources.items():
                c = os.path.join(d, name + '.c')
                with open(c, 'w') as f:
                    f.write(text)
                subprocess.run(['gcc', '-c', '-o', os.path.join(tdir, name + '.o'), c],
                               check=True)
            p = subprocess.run([sys.executable, LAYERS, '--header', hdr,
                                os.path.join(d, 'k')], capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_down_passes(self):
        rc, out = self.run_layers({
            'ftrace_top': 'int bottom_fn(void); int top_fn(void) { return bottom_fn(); }\n',
            'ftrace_bottom': 'int bottom_fn(void) { return 1; }\n'})
        self.assertEqual(rc, 0, out)
        self.assertIn('2 passed, 0 failed', out)

    def test_call_up_fails(self):
        rc, out = self.run_layers({
            'ftrace_top': 'int top_fn(void) { return 2; }\n',
            'ftrace_bottom': 'int top_fn(void); int bottom_fn(void) { return top_fn(); }\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn('ftrace_bottom calls up into ftrace_top: top_fn', out)

    def test_data_reference_up_fails(self):
        rc, out = self.run_layers({
            'ftrace_top': 'int top_var;\n',
            'ftrace_bottom': 'extern int top_var; int bottom_fn(void) { return top_var; }\n'})
        self.assertEqual(rc, 1, out)

    def test_file_not_in_table_fails(self):
        rc, out = self.run_layers({'ftrace_other': 'int x(void) { return 0; }\n'})
        self.assertEqual(rc, 1, out)
        self.assertIn('not in the table', out)


if __name__ == '__main__':
    unittest.main()
