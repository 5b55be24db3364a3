"""Host tests of harness/symbols.py: a miniature tree with an old ftrace.c,
its users, and a core that lacks one name, must fail on exactly that name."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SYMBOLS = os.path.join(HERE, '..', 'symbols.py')
sys.path.insert(0, os.path.join(HERE, '..'))
import symbols  # noqa: E402

OLD = """\
static int helper(void) { return 0; }
static inline void local_inline(void) { }
int used_fn(int a)
{
	return helper() + a;
}
int only_declared(void) { return 1; }
int exported_fn(void) { return 2; }
EXPORT_SYMBOL_GPL(exported_fn);
unsigned long used_var __read_mostly = 3;
struct foo some_ops = {
	.x = 1,
};
char * __weak hook_fn(char *s) { return s; }
void __weak unused_hook(void) { }
DEFINE_MUTEX(some_lock);
"""

USER = """\
/* used_fn in a comment does not count; nor does "used_var" in a string */
extern int only_declared(void);
int user(void)
{
	mutex_lock(&some_lock);
	return used_fn(1) + used_var;
}
"""

ARCH = """\
char *hook_fn(char *s) { return s + 1; }
"""

HEADER = """\
extern struct foo some_ops;
int only_declared(void);
#define USE_OPS() (&some_ops)
"""

OURS = """\
int used_fn(int a) { return a; }
int exported_fn(void) { return 0; }
unsigned long used_var;
struct foo some_ops = { };
DEFINE_MUTEX(some_lock);
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


class Parse(unittest.TestCase):
    def test_interface_of_old_file(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'ftrace.c'), OLD)
            names, exports, weak = symbols.upstream_interface(os.path.join(d, 'ftrace.c'))
        self.assertEqual(set(names), {'used_fn', 'only_declared', 'exported_fn', 'used_var',
                                      'some_ops', 'hook_fn', 'unused_hook', 'some_lock'})
        self.assertEqual(exports, {'exported_fn'})
        self.assertEqual(weak, {'hook_fn', 'unused_hook'})

    def test_uses_skip_declarations_comments_and_strings(self):
        names = {'used_fn', 'used_var', 'only_declared', 'some_lock'}
        self.assertEqual(symbols.uses_in_file(USER, names, False),
                         {'used_fn', 'used_var', 'some_lock'})

    def test_macro_body_is_a_use(self):
        self.assertEqual(symbols.uses_in_file(HEADER, {'some_ops', 'only_declared'}, False),
                         {'some_ops'})

    def test_quote_in_assembly_comment(self):
        asm = "# don't\n\tlgrl %r4,used_var\n"
        self.assertEqual(symbols.uses_in_file(asm, {'used_var'}, True), {'used_var'})

    def test_signature_drops_names_and_qualifiers(self):
        head = 'static notrace int __init foo(struct ftrace_ops *ops, unsigned long addr,\n' \
               '\tconst char * const *syms, size_t cnt, unsigned long)'
        self.assertEqual(symbols.signature(head, 'foo'),
                         'int foo(struct ftrace_ops*, unsigned long, const char*const*, '
                         'size_t, unsigned long)')
        self.assertEqual(symbols.signature('const char *bar(void)', 'bar'),
                         'const char* bar(void)')
        self.assertEqual(symbols.signature('int baz(struct foo)', 'baz'),
                         'int baz(struct foo)')

    def test_unnamed_parameters_keep_their_types(self):
        self.assertNotEqual(symbols.signature('int f(const size_t)', 'f'),
                            symbols.signature('int f(const loff_t)', 'f'))
        self.assertEqual(symbols.signature('int f(const size_t n)', 'f'),
                         symbols.signature('int f(const size_t)', 'f'))

    def test_base_text_keeps_the_base_branch(self):
        text = ('#ifndef FTRACE_KBASE_612\nint a61;\n#else\nint a612;\n#endif\n'
                '#ifdef CONFIG_X\nint x;\n#elif defined(FTRACE_KBASE_612)\nint y;\n#endif\n'
                '#if defined(CONFIG_Y)\nint z;\n#endif\n')
        t612, t61 = symbols.base_text(text, True), symbols.base_text(text, False)
        self.assertNotIn('a61;', t612)
        self.assertIn('a612;', t612)
        self.assertIn('a61;', t61)
        self.assertNotIn('a612;', t61)
        for t in (t612, t61):
            self.assertIn('int x;', t)
            self.assertIn('int z;', t)
        self.assertIn('int y;', t612)
        self.assertNotIn('int y;', t61)
        self.assertEqual(t612.count('\n'), text.count('\n'))

    def test_override_is_a_definition_not_a_use(self):
        defines = set()
        used = symbols.uses_in_file(ARCH, {'hook_fn', 'unused_hook'}, False, defines)
        self.assertEqual(used, set())
        self.assertEqual(defines, {'hook_fn'})


class Tree(unittest.TestCase):
    def run_tree(self, ours, header=HEADER):
        with tempfile.TemporaryDirectory() as d:
            base, top = os.path.join(d, 'base'), os.path.join(d, 'top')
            write(os.path.join(base, 'kernel/trace/ftrace.c'), OLD)
            write(os.path.join(base, 'kernel/user.c'), USER)
            write(os.path.join(base, 'arch/x/ftrace.c'), ARCH)
            write(os.path.join(base, 'include/linux/ftrace.h'), header)
            write(os.path.join(top, 'kernel/trace/ftrace_core.c'), ours)
            p = subprocess.run([sys.executable, SYMBOLS, base, top],
                               stdout=subprocess.PIPE, text=True, check=False)
            return p.returncode, p.stdout

    def test_missing_names_fail(self):
        rc, out = self.run_tree(OURS)
        self.assertEqual(rc, 1)
        fails = sorted(line.split()[1].rstrip(':') for line in out.splitlines()
                       if line.startswith('FAIL'))
        # hook_fn: an arch overrides it, so the core must define and call it.
        self.assertEqual(fails, ['hook_fn'])
        self.assertTrue(out.rstrip().endswith('5 passed, 1 failed, 2 skipped'), out)

    def test_complete_core_passes(self):
        ours = OURS + 'char * __weak hook_fn(char *s) { return s; }\n' + \
            'int match(char *s) { return !!hook_fn(s); }\n'
        rc, out = self.run_tree(ours)
        self.assertEqual(rc, 0, out)


    def test_signature_must_match(self):
        ours = OURS.replace('int used_fn(int a)', 'long used_fn(int a, int b)') + \
            'char * __weak hook_fn(char *s) { return s; }\n' + \
            'int match(char *s) { return !!hook_fn(s); }\n'
        rc, out = self.run_tree(ours)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL used_fn:', out)
        self.assertIn('long used_fn(int, int), where the base has int used_fn(int)', out)

    def test_pristine_header_stub_is_not_ours(self):
        # A stub for another config in the pristine header defines nothing.
        header = HEADER + 'static inline int used_fn(int a) { return 0; }\n'
        ours = OURS.replace('int used_fn(int a) { return a; }\n', '') + \
            'char * __weak hook_fn(char *s) { return s; }\n' + \
            'int match(char *s) { return !!hook_fn(s); }\n'
        rc, out = self.run_tree(ours, header)
        self.assertEqual(rc, 1)
        self.assertIn('FAIL used_fn:', out)

    def test_hook_default_must_stay_weak(self):
        ours = OURS + 'char *hook_fn(char *s) { return s; }\n' + \
            'int match(char *s) { return !!hook_fn(s); }\n'
        rc, out = self.run_tree(ours)
        self.assertEqual(rc, 1)
        self.assertIn('defines it without __weak', out)


if __name__ == '__main__':
    unittest.main()
