"""Host tests of harness/lib.sh's BASE: names, directories, the renames map."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
LIB = os.path.join(TOP, 'harness', 'lib.sh')


def lib(script, base=None):
    """Run @script in bash after sourcing lib.sh with BASE=@base (unset
    when None); (exit status, stdout, stderr)."""
    env = {k: v for k, v in os.environ.items() if k not in ('BASE', 'VARIANT')}
    if base is not None:
        env['BASE'] = base
    p = subprocess.run(['bash', '-c', '. "$0"; ' + script, LIB], env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


class Base(unittest.TestCase):
    def test_default_is_61_with_the_old_names(self):
        rc, out, _ = lib('echo "$BASE $base $base_tar $expdir"; kname x86_64 upstream; '
                         'VARIANT=debug kname arm64 ours; kdir arm upstream')
        self.assertEqual(rc, 0)
        lines = out.split('\n')
        self.assertEqual(lines[0], '6.1 %s/build/base/linux-source-6.1 '
                         '/usr/src/linux-source-6.1.tar.xz %s/expectations' % (TOP, TOP))
        self.assertEqual(lines[1:], ['x86_64-upstream', 'arm64-ours-debug',
                                     TOP + '/build/kernel/arm-upstream'])

    def test_612_names_are_distinct(self):
        rc, out, _ = lib('echo "$base $expdir $verified_version"; kname x86_64 upstream; '
                         'VARIANT=fp kname x86_64 upstream', '6.12')
        self.assertEqual(rc, 0)
        # The version 6.12's tree was last verified on, as recorded.
        with open(os.path.join(TOP, 'harness', 'BASE_VERSION-6.12')) as f:
            ver = f.read().strip()
        self.assertRegex(ver, r'^6\.12\.\d+$')
        self.assertEqual(out.split('\n'), [
            '%s/build/base/linux-source-6.12 %s/expectations/6.12 %s' % (TOP, TOP, ver),
            'x86_64-upstream-6.12', 'x86_64-upstream-fp-6.12'])

    def test_unknown_base_refused(self):
        rc, _, err = lib('echo reached', '5.10')
        self.assertNotEqual(rc, 0)
        self.assertIn("BASE must be 6.1 or 6.12, not '5.10'", err)

    def test_ours_on_612_not_arm(self):
        # The core's 6.12 port has x86_64 and arm64: 32-bit arm is refused.
        for flavor in ('ours', 'wip', 'ours-debug'):
            rc, out, err = lib('arch=arm; check_flavor %s; echo reached' % flavor, '6.12')
            self.assertNotEqual(rc, 0, flavor)
            self.assertNotIn('reached', out)
            self.assertIn('x86_64 and arm64 only', err)
            self.assertEqual(len(err.split('\n')), 1)
            for arch in ('x86_64', 'arm64'):
                rc, out, _ = lib('arch=%s; check_flavor %s; echo reached' % (arch, flavor), '6.12')
                self.assertEqual((rc, out), (0, 'reached'), (arch, flavor))
        rc, out, _ = lib('arch=arm; check_flavor upstream; echo reached', '6.12')
        self.assertEqual((rc, out), (0, 'reached'))
        rc, out, _ = lib('arch=arm; check_flavor ours; echo reached', '6.1')
        self.assertEqual((rc, out), (0, 'reached'))

    def test_base_replaces_an_arch_fragment(self):
        # configs/6.12/ours-arm64.config stands for configs/ours-arm64.config
        # on 6.12 only; other arches and flavors keep the common files.
        frags = {}
        for base in ('6.1', '6.12'):
            rc, out, err = lib('config_fragments arm64 ours; config_fragments x86_64 ours; '
                               'config_fragments arm64 upstream', base)
            self.assertEqual(rc, 0, err)
            frags[base] = [line.split() for line in out.split('\n')]
        own61 = TOP + '/configs/ours-arm64.config'
        own612 = TOP + '/configs/6.12/ours-arm64.config'
        self.assertIn(own61, frags['6.1'][0])
        self.assertNotIn(own612, frags['6.1'][0])
        self.assertIn(own612, frags['6.12'][0])
        self.assertNotIn(own61, frags['6.12'][0])
        self.assertEqual(frags['6.1'][1], frags['6.12'][1])
        self.assertEqual(frags['6.1'][2], frags['6.12'][2])
        self.assertFalse(any('ours-' in f for f in frags['6.12'][2]))

    def test_renames_on_612_only(self):
        frag = ('# a comment naming CONFIG_RETPOLINE=y\nCONFIG_RETPOLINE=y\n'
                'CONFIG_SLS=n\nCONFIG_TEST_LIVEPATCH=m\nCONFIG_KPROBES=y\n')
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, 'x.config')
            with open(f, 'w') as w:
                w.write(frag)
            rc, out, _ = lib('rename_fragments "$0.out" "$0"'.replace('$0', f))
            self.assertEqual((rc, out), (0, f))
            rc, out, _ = lib('rename_fragments "%s/out" "%s"' % (d, f), '6.12')
            self.assertEqual((rc, out), (0, d + '/out/01-x.config'))
            with open(out) as r:
                self.assertEqual(r.read(), '# a comment naming CONFIG_RETPOLINE=y\n'
                                 'CONFIG_MITIGATION_RETPOLINE=y\n'
                                 'CONFIG_MITIGATION_SLS=n\nCONFIG_KPROBES=y\n')

    def test_renames_map_names_6_12_options(self):
        """Each new name of configs/6.12/renames is a 6.12 Kconfig symbol
        and each old one a 6.1 symbol (where the trees are unpacked)."""
        trees = {b: os.path.join(TOP, 'build', 'base', 'linux-source-' + b)
                 for b in ('6.1', '6.12')}
        if not all(os.path.isdir(t) for t in trees.values()):
            self.skipTest('the 6.1 and 6.12 trees are not unpacked (harness/kernel.sh unpack)')
        with open(os.path.join(TOP, 'configs', '6.12', 'renames')) as f:
            pairs = [line.split() for line in f if line.strip() and not line.startswith('#')]
        syms = {}
        for b, t in trees.items():
            p = subprocess.run(['grep', '-rhoE', '--include=Kconfig*',
                                r'^\s*(menu)?config\s+[A-Za-z0-9_]+', t],
                               capture_output=True, text=True)
            syms[b] = {line.split()[-1] for line in p.stdout.split('\n') if line}
        for old, new in pairs:
            self.assertIn(old, syms['6.1'])
            self.assertNotIn(old, syms['6.12'])
            if new != '-':
                self.assertIn(new, syms['6.12'])

if __name__ == '__main__':
    unittest.main()
