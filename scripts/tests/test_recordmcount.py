#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of scripts/recordmcount.

Each test compiles real objects with the compilers kbuild uses (gcc -pg
-mfentry for x86_64, aarch64-linux-gnu-gcc -pg for arm64), runs the tool,
and checks the records against an independent oracle: the objects are
linked into an executable and every address in its __mcount_loc must be
exactly a call to the profiling routine that objdump shows in the same
objects linked before the tool ran, in the function the test expects.  On
x86 each of those calls must now be the kernel's 5-byte NOP, and no call
to the routine may be left at a recorded address.

Environment: RMC (the tool to test, required), WORK (scratch directory),
FUZZ_CASES (robustness cases per object, default 1500).
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import unittest

from test_machines import MachineFuzzTests, MachineTests  # noqa: F401
from test_machines import KERNEL_ATTRS, fuzz_object

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, 'src')
RMC = os.environ.get('RMC', '')
WORK = os.environ.get('WORK', '/tmp/rmc-tests')

ARCHES = {
    'x86_64': dict(cc=['gcc', '-O2', '-fno-pie', '-pg', '-mfentry'],
                   ld=['ld', '-m', 'elf_x86_64'],
                   objdump='objdump', readelf='readelf',
                   idle='0f 1f 44 00 00',
                   call=re.compile(r'\scall\s+[0-9a-f]+ <(__fentry__|mcount)>')),
    'arm64': dict(cc=['aarch64-linux-gnu-gcc', '-O2', '-pg'],
                  ld=['aarch64-linux-gnu-ld'],
                  objdump='aarch64-linux-gnu-objdump',
                  readelf='aarch64-linux-gnu-readelf', idle=None,
                  call=re.compile(r'\sbl\s+[0-9a-f]+ <_mcount>')),
}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def must(cmd):
    p = run(cmd)
    if p.returncode:
        raise AssertionError('%s failed: %s' % (' '.join(cmd), p.stderr))
    return p.stdout


class Arch:
    """Compile, process, link and inspect objects for one architecture."""

    def __init__(self, name):
        self.name = name
        self.__dict__.update(ARCHES[name])
        self.dir = os.path.join(WORK, name)
        os.makedirs(self.dir, exist_ok=True)
        self.stub = self.compile('stub.S')

    def compile(self, src, *flags, out=None):
        """Compile @src; a copy the tool never sees is kept as OUT.orig."""
        out = os.path.join(self.dir, out or (os.path.splitext(src)[0] + '.o'))
        must(self.cc + KERNEL_ATTRS + list(flags) +
             ['-c', os.path.join(SRC, src), '-o', out])
        shutil.copy(out, out + '.orig')
        return out

    def orig_sites(self, *objs):
        """Call sites of the routine in @objs as compiled, linked the same way."""
        return self.call_sites(self.link(*[o + '.orig' for o in objs]))

    def sites_of(self, exe, *objs):
        """The routine's call sites in @exe, linked from @objs: read from the
        objects as compiled where the tool makes the sites idle (x86), from
        @exe itself elsewhere (where the calls stay)."""
        return self.orig_sites(*objs) if self.idle else self.call_sites(exe)

    def insn_bytes(self, exe):
        """Address -> the hex bytes objdump shows for the instruction there."""
        out = {}
        for line in must([self.objdump, '-d', exe]).splitlines():
            m = re.match(r'^\s+([0-9a-f]+):\t((?:[0-9a-f]{2} )+)', line)
            if m:
                out[int(m.group(1), 16)] = m.group(2).strip()
        return out

    def link(self, *objs):
        exe = objs[0] + '.elf'
        must(self.ld + ['-e', '_start', '-T', os.path.join(SRC, 'mcount.lds'),
                        '-o', exe, self.stub] + list(objs))
        return exe

    def records(self, exe):
        """The addresses stored in the executable's __mcount_loc."""
        return self.addresses(exe, '__mcount_loc')

    def addresses(self, exe, section):
        """The 8-byte addresses stored in @section of the executable."""
        out = must([self.objdump, '-s', '-j', section, exe])
        data = b''
        for line in out.splitlines():
            m = re.match(r'^ ([0-9a-f]+) ((?:[0-9a-f]{1,8} ?){1,4})', line)
            if m:
                data += bytes.fromhex(m.group(2).replace(' ', ''))
        return [int.from_bytes(data[i:i + 8], 'little')
                for i in range(0, len(data), 8)]

    def call_sites(self, exe):
        """Address -> function of every call to the profiling routine."""
        sites, func = {}, None
        for line in must([self.objdump, '-d', exe]).splitlines():
            m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
            if m:
                func = m.group(1)
            elif self.call.search(line):
                sites[int(line.split(':')[0], 16)] = func
        return sites

    def sections(self, obj):
        return must([self.readelf, '-SW', obj])


def rmc(*args):
    return run([RMC] + list(args))


def read(path):
    with open(path, 'rb') as f:
        return f.read()


class RecordTests(unittest.TestCase):
    """Exact site lists on objects the compilers produce."""

    def check_exe(self, a, objs, expect):
        exe = a.link(*objs)
        recs = a.records(exe)
        sites = a.sites_of(exe, *objs)
        self.assertEqual(sorted(recs), sorted(sites), 'records != call sites')
        self.assertEqual(len(recs), len(set(recs)), 'duplicate records')
        self.assertEqual(sorted(sites[r] for r in recs), sorted(expect))
        self.check_idle(a, exe, recs)

    def check_idle(self, a, exe, recs):
        """On x86 every recorded site holds the NOP, and no call is left
        there; elsewhere every recorded site is still a call."""
        left = set(a.call_sites(exe))
        if not a.idle:
            self.assertLessEqual(set(recs), left, 'recorded sites are not calls')
            return
        insn = a.insn_bytes(exe)
        for r in recs:
            self.assertEqual(insn.get(r), a.idle, 'site %#x is not idle' % r)
        self.assertFalse(left & set(recs), 'calls left at recorded sites')

    def each_arch(self, fn):
        for name in ARCHES:
            with self.subTest(arch=name):
                fn(Arch(name))

    def test_basic(self):
        """plain, static, weak, init, cold and .sched.text; not notrace."""
        def t(a):
            o = a.compile('basic.c')
            p = rmc(o)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.check_exe(a, [o], ['helper', 'plain', 'weak_default',
                                    'init_function', 'cold_function',
                                    'sched_function'])
        self.each_arch(t)

    def test_address_not_a_site(self):
        """The routine's address as a value (6.12's callthunks.c): skipped."""
        a = Arch('x86_64')
        o = a.compile('address.c', '-mcmodel=kernel')
        relocs = must([a.readelf, '-rW', o])
        self.assertIn('R_X86_64_32S', relocs)
        p = rmc(o)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_exe(a, [o], ['is_fentry', 'fentry_address'])

    def test_function_sections(self):
        """-ffunction-sections: a record per section; a weak-only section."""
        def t(a):
            o = a.compile('weakonly.c', '-ffunction-sections')
            p = rmc(o)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.check_exe(a, [o], ['only_weak', 'local_one', 'uses_local'])
            o2 = a.compile('basic.c', '-ffunction-sections', out='basic-ffs.o')
            self.assertEqual(rmc(o2).returncode, 0)
            self.check_exe(a, [o2], ['helper', 'plain', 'weak_default',
                                     'init_function', 'cold_function',
                                     'sched_function'])
        self.each_arch(t)

    def test_several_objects_link(self):
        """Tables of several objects are gathered by the linker."""
        def t(a):
            o1 = a.compile('basic.c', out='multi1.o')
            o2 = a.compile('weakonly.c', out='multi2.o')
            for o in (o1, o2):
                self.assertEqual(rmc(o).returncode, 0)
            self.check_exe(a, [o1, o2], [
                'helper', 'plain', 'weak_default', 'init_function',
                'cold_function', 'sched_function', 'only_weak', 'local_one',
                'uses_local'])
        self.each_arch(t)

    def test_overridden_weak_function(self):
        """The overridden weak copy's record is dropped after the link."""
        def t(a):
            o1 = a.compile('basic.c', out='ovr1.o')
            o2 = a.compile('override.c', out='ovr2.o')
            for o in (o1, o2):
                self.assertEqual(rmc(o).returncode, 0)
            exe = a.link(o1, o2)
            # basic.c's 6 (its weak_default now dead code) and the strong one
            self.assertEqual(len(a.records(exe)), 7)
            p = rmc('--linked', exe)
            self.assertEqual(p.returncode, 0, p.stderr)
            recs = a.records(exe)
            self.assertEqual(recs.count(0), 1)
            live = sorted(r for r in recs if r)
            sites = a.sites_of(exe, o1, o2)
            self.check_idle(a, exe, live)
            nm = must([a.objdump.replace('objdump', 'nm'), exe])
            strong = int([ln.split()[0] for ln in nm.splitlines()
                          if ln.endswith(' weak_default')][0], 16)
            # The call is the first instruction (x86) or after the prologue.
            self.assertTrue(any(strong <= r < strong + 32 for r in live))
            dead = set(sites) - set(live)
            self.assertEqual(len(dead), 1)
            self.assertFalse(strong <= dead.pop() < strong + 32)
            # Once done, a second pass changes nothing.
            before = read(exe)
            self.assertEqual(rmc('--linked', exe).returncode, 0)
            self.assertEqual(read(exe), before)
        self.each_arch(t)

    def test_weak_aliases(self):
        """A function with several weak names is dead only when every name
        was overridden; a strong name keeps it live."""
        def t(a):
            o1 = a.compile('aliases.c', out='al1.o')
            o2 = a.compile('aliases-override.c', out='al2.o')
            o3 = a.compile('aliases-all.c', out='al3.o')
            for o in (o1, o2, o3):
                self.assertEqual(rmc(o).returncode, 0)
            nm_tool = a.objdump.replace('objdump', 'nm')

            def addr_of(exe, name):
                nm = must([nm_tool, exe])
                return int([ln.split()[0] for ln in nm.splitlines()
                            if ln.endswith(' ' + name)][0], 16)

            # alias_a overridden: shared_default's code is still named by
            # shared_default and alias_b; strong_named by itself.
            exe = a.link(o1, o2)
            self.assertEqual(rmc('--linked', exe).returncode, 0)
            live = [r for r in a.records(exe) if r]
            for name in ('shared_default', 'strong_named', 'alias_a',
                         'weak_of_strong'):
                f = addr_of(exe, name)
                self.assertTrue(any(f <= r < f + 32 for r in live), name)
            self.assertEqual(len(live), 4)
            # Every weak name of shared_default overridden: its copy is dead.
            exe = a.link(o1, o3)
            self.assertEqual(rmc('--linked', exe).returncode, 0)
            recs = a.records(exe)
            live = [r for r in recs if r]
            self.assertEqual(recs.count(0), 1)
            for name in ('shared_default', 'alias_a', 'alias_b', 'strong_named'):
                f = addr_of(exe, name)
                self.assertTrue(any(f <= r < f + 32 for r in live), name)
            self.assertEqual(len(live), 4)
        self.each_arch(t)

    def test_position_independent_words(self):
        """A position-independent file whose words hold the addresses
        (RELR: the boot adds its offset in place; here an executable marked
        ET_DYN, with no .rela.dyn): on arm64 the dead copy's word becomes
        zero; on x86_64, whose vmlinux is never one, the file is left as
        it is."""
        def t(a):
            o1 = a.compile('basic.c', out='pie1.o')
            o2 = a.compile('override.c', out='pie2.o')
            for o in (o1, o2):
                self.assertEqual(rmc(o).returncode, 0)
            exe = a.link(o1, o2)
            data = bytearray(read(exe))
            data[16:18] = (3).to_bytes(2, 'little')     # e_type = ET_DYN
            with open(exe, 'wb') as f:
                f.write(data)
            p = rmc('--linked', exe)
            self.assertEqual(p.returncode, 0, p.stderr)
            if a.name == 'x86_64':
                self.assertEqual(read(exe), bytes(data))
                self.assertEqual(a.records(exe).count(0), 0)
                return
            self.assertEqual(a.records(exe).count(0), 1)
            once = read(exe)
            self.assertEqual(rmc('--linked', exe).returncode, 0)
            self.assertEqual(read(exe), once)
        self.each_arch(t)

    def test_weak_not_overridden_kept(self):
        def t(a):
            o = a.compile('basic.c', out='keep.o')
            self.assertEqual(rmc(o).returncode, 0)
            exe = a.link(o)
            before = read(exe)
            p = rmc('--linked', exe)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(read(exe), before)
        self.each_arch(t)

    def test_no_sites_untouched(self):
        def t(a):
            o = a.compile('none.c')
            before = read(o)
            p = rmc(o)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(read(o), before)
        self.each_arch(t)

    def test_idempotent(self):
        def t(a):
            o = a.compile('basic.c', out='twice.o')
            self.assertEqual(rmc(o).returncode, 0)
            once = read(o)
            p = rmc(o)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(read(o), once)
        self.each_arch(t)

    def test_comdat_group(self):
        """The record of a COMDAT function lives in the function's group."""
        def t(a):
            o = a.compile('comdat.S')
            self.assertEqual(rmc(o).returncode, 0)
            groups = must([a.readelf, '-gW', o])
            self.assertRegex(groups, r'\[\s*\d+\]\s+__mcount_loc')
            self.assertRegex(groups, r'\[\s*\d+\]\s+\.rela__mcount_loc')
            # Linked twice, the duplicate group (and its record) is dropped.
            o2 = os.path.join(a.dir, 'comdat2.o')
            for src, dst in ((o, o2), (o + '.orig', o2 + '.orig')):
                must([a.objdump.replace('objdump', 'objcopy'),
                      '--redefine-sym', 'outside=outside2', src, dst])
            exe = a.link(o, o2)
            recs = a.records(exe)
            sites = a.sites_of(exe, o, o2)
            self.assertEqual(sorted(recs), sorted(sites))
            self.check_idle(a, exe, recs)
            self.assertEqual(sorted(sites.values()),
                             ['in_group', 'outside', 'outside2'])
        self.each_arch(t)


class PatchableEntryTests(unittest.TestCase):
    """arm64 with -fpatchable-function-entry=2: the compiler's
    __patchable_function_entries become __mcount_loc, one record per
    function at its second entry word, with "mov x9, x30" written over
    the first; the compiler's table is renamed so the linker drops it."""

    NOP, MOV = 'd503201f', 'aa1e03e9'
    TRACED = ['helper', 'plain', 'weak_default', 'init_function',
              'cold_function']

    def setUp(self):
        self.a = Arch('arm64')
        self.a.cc = ['aarch64-linux-gnu-gcc', '-O2',
                     '-fpatchable-function-entry=2']

    def words(self, exe):
        """Address -> instruction word (hex) of every instruction."""
        out = {}
        for line in must([self.a.objdump, '-d', exe]).splitlines():
            m = re.match(r'^\s+([0-9a-f]+):\t([0-9a-f]{8})\s', line)
            if m:
                out[int(m.group(1), 16)] = m.group(2)
        return out

    def symbols(self, exe):
        nm = must([self.a.objdump.replace('objdump', 'nm'), exe])
        return {int(f[0], 16): f[2] for f in
                (ln.split() for ln in nm.splitlines()) if len(f) == 3}

    def entries(self, exe):
        """The compiler's own table, in an executable linked from the
        objects as compiled: the oracle."""
        return self.a.addresses(exe, '__patchable_function_entries')

    def test_entries_become_records(self):
        a = self.a
        o = a.compile('entries.c')
        p = rmc(o)
        self.assertEqual(p.returncode, 0, p.stderr)
        secs = a.sections(o)
        self.assertNotRegex(secs, r'\]\s+__patchable_function_entries\s')
        self.assertIn('.discard.entries', secs)
        self.assertIn('__mcount_loc', secs)
        exe = a.link(o)
        recs = a.records(exe)
        syms, words = self.symbols(exe), self.words(exe)
        self.assertEqual(sorted(syms[r - 4] for r in recs), sorted(self.TRACED))
        for r in recs:
            self.assertEqual(words[r - 4], self.MOV, 'head of %#x' % r)
            self.assertEqual(words[r], self.NOP, 'site %#x' % r)
        # The oracle: the compiler's table, less .exit.text, plus 4.
        orig = a.link(o + '.orig')
        osyms = self.symbols(orig)
        want = [e + 4 for e in self.entries(orig)
                if osyms.get(e) != 'exit_function']
        self.assertEqual(len(want), len(self.TRACED))
        self.assertEqual(sorted(recs), sorted(want))
        # The untraced section's entry is left as the compiler made it.
        ex = [addr for addr, n in syms.items() if n == 'exit_function'][0]
        self.assertEqual((words[ex], words[ex + 4]), (self.NOP, self.NOP))

    def test_function_sections_and_idempotent(self):
        a = self.a
        o = a.compile('entries.c', '-ffunction-sections', out='entries-ffs.o')
        self.assertEqual(rmc(o).returncode, 0)
        once = read(o)
        self.assertEqual(rmc(o).returncode, 0)
        self.assertEqual(read(o), once)
        recs = a.records(a.link(o))
        self.assertEqual(len(recs), len(self.TRACED))

    def test_overridden_weak_entry(self):
        a = self.a
        o1 = a.compile('entries.c', out='pfe-ovr1.o')
        o2 = a.compile('override.c', out='pfe-ovr2.o')
        for o in (o1, o2):
            self.assertEqual(rmc(o).returncode, 0)
        exe = a.link(o1, o2)
        self.assertEqual(len(a.records(exe)), len(self.TRACED) + 1)
        p = rmc('--linked', exe)
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = a.records(exe)
        self.assertEqual(recs.count(0), 1)
        syms = self.symbols(exe)
        self.assertEqual(sorted(syms.get(r - 4, '?') for r in recs if r),
                         sorted(self.TRACED))

    def test_overridden_weak_entry_position_independent(self):
        """arm64's RELOCATABLE vmlinux is linked -shared with
        --no-apply-dynamic-relocs: the table's words are zero and the boot
        fills them from R_AARCH64_RELATIVE addends.  The dead copy's
        addend becomes zero (the boot then stores the load offset, outside
        the text); its relocation stays, as sorttable wants one for every
        record."""
        a = self.a
        o1 = a.compile('entries.c', '-fno-pic', out='pie-ovr1.o')
        o2 = a.compile('override.c', '-fno-pic', out='pie-ovr2.o')
        for o in (o1, o2):
            self.assertEqual(rmc(o).returncode, 0)
        exe = o1 + '.so'
        must(a.ld + ['-shared', '-Bsymbolic', '-z', 'notext',
                     '--no-apply-dynamic-relocs', '-T',
                     os.path.join(SRC, 'mcount.lds'), '-o', exe, a.stub, o1, o2])

        def relocated():
            """{table address: addend} of the RELATIVE relocations of the
            table, and the number of other relocations."""
            rel, none = {}, 0
            secs = a.sections(exe)
            m = re.search(r'\]\s+__mcount_loc\s+\S+\s+([0-9a-f]+)\s+\S+\s+([0-9a-f]+)', secs)
            start, size = int(m.group(1), 16), int(m.group(2), 16)
            for ln in must([a.readelf, '-rW', exe]).splitlines():
                f = ln.split()
                if len(f) >= 4 and f[2] == 'R_AARCH64_RELATIVE':
                    at = int(f[0], 16)
                    if start <= at < start + size:
                        rel[at] = int(f[3], 16)
                elif len(f) >= 3 and f[2].startswith('R_AARCH64_'):
                    none += 1
            return rel, none

        before, none = relocated()
        self.assertEqual(len(before), len(self.TRACED) + 1)
        self.assertEqual(none, 0)
        self.assertEqual(set(a.records(exe)), {0})
        p = rmc('--linked', exe)
        self.assertEqual(p.returncode, 0, p.stderr)
        after, none = relocated()
        self.assertEqual(none, 0)
        self.assertEqual(sorted(after), sorted(before))
        self.assertEqual(list(after.values()).count(0), 1)
        self.assertEqual(set(a.records(exe)), {0})
        syms = self.symbols(exe)
        self.assertEqual(sorted(syms.get(v - 4, '?') for v in after.values() if v),
                         sorted(self.TRACED))
        # The strong weak_default of override.c keeps its record.
        strong = [ad for ad, n in syms.items() if n == 'weak_default']
        self.assertEqual(len(strong), 1)
        self.assertIn(strong[0] + 4, after.values())
        # Once done, a second pass changes nothing.
        once = read(exe)
        self.assertEqual(rmc('--linked', exe).returncode, 0)
        self.assertEqual(read(exe), once)
        # A relocation of the table between two records: refused, the
        # file left as it is.
        m = re.search(r'\]\s+\.rela\.dyn\s+RELA\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)',
                      a.sections(exe))
        roff, rsize = int(m.group(1), 16), int(m.group(2), 16)
        data = bytearray(read(exe))
        first = min(after)
        for e in range(roff, roff + rsize, 24):
            if int.from_bytes(data[e:e + 8], 'little') == first:
                data[e:e + 8] = (first + 1).to_bytes(8, 'little')
                break
        else:
            self.fail('no relocation of the table in .rela.dyn')
        bad = exe + '.bad'
        with open(bad, 'wb') as f:
            f.write(data)
        p = rmc('--linked', bad)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('between two records', p.stderr)
        self.assertEqual(read(bad), bytes(data))

    def test_entry_not_nops_refused(self):
        a = self.a
        o = a.compile('entries.c', out='pfe-bad.o')
        data = bytearray(read(o))
        nop = bytes.fromhex(self.NOP)[::-1]
        at = data.find(nop + nop)
        self.assertGreater(at, 0)
        data[at:at + 4] = bytes.fromhex('d503233f')[::-1]  # paciasp
        with open(o, 'wb') as f:
            f.write(data)
        before = read(o)
        p = rmc(o)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(read(o), before)
        self.assertIn('does not hold two NOPs', p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)


LLVM = '/usr/lib/llvm-16/bin/'


class LtoTests(unittest.TestCase):
    """arm64 built with clang's ThinLTO, as VARIANT=clang builds it: the
    objects are bitcode, which the tool refuses, and kbuild runs it on
    what ld.lld -r made of them (vmlinux.o, a module).  That output has a
    section per function, each with its own entry table, and past 65,280
    sections it uses extended section numbering."""

    CC = [LLVM + 'clang', '--target=aarch64-linux-gnu', '-O2',
          '-fpatchable-function-entry=2', '-mbranch-protection=bti']
    NOP, MOV = PatchableEntryTests.NOP, PatchableEntryTests.MOV

    def setUp(self):
        if not os.path.exists(LLVM + 'clang'):
            self.skipTest('no clang 16 (make setup installs it)')
        self.a = Arch('arm64')
        self.a.cc = self.CC

    def lto_link(self, out, *srcs, flags=()):
        """Compile @srcs to ThinLTO bitcode and link them with ld.lld -r,
        as scripts/Makefile.vmlinux_o does; the result is @out, with an
        untouched copy as @out.orig."""
        bcs = []
        for src in srcs:
            bc = os.path.join(self.a.dir, os.path.splitext(src)[0] + '.bc')
            must(self.CC + KERNEL_ATTRS + list(flags) +
                 ['-flto=thin', '-fsplit-lto-unit', '-c',
                  os.path.join(SRC, src), '-o', bc])
            bcs.append(bc)
        out = os.path.join(self.a.dir, out)
        must([LLVM + 'ld.lld', '-r', '-o', out] + bcs)
        shutil.copy(out, out + '.orig')
        return out, bcs

    def functions(self, exe):
        """Sorted (address, name) of the executable's function symbols."""
        out = must([LLVM + 'llvm-nm', '--defined-only', exe])
        return sorted((int(f[0], 16), f[2]) for f in
                      (ln.split() for ln in out.splitlines())
                      if len(f) == 3 and f[1] in 'tTwW')

    def check_records(self, exe, orig_exe, want):
        """Every record is the second word of an entry the compiler listed
        (the table of @orig_exe, linked from the objects as compiled),
        now "mov x9, x30; nop", in the functions @want."""
        a = self.a
        recs = a.records(exe)
        entries = a.addresses(orig_exe, '__patchable_function_entries')
        words = PatchableEntryTests.words(self, exe)
        funcs = self.functions(exe)
        names = []
        for r in recs:
            self.assertEqual(words.get(r - 4), self.MOV, 'head of %#x' % r)
            self.assertEqual(words.get(r), self.NOP, 'site %#x' % r)
            names.append([n for addr, n in funcs if addr <= r][-1])
        self.assertEqual(sorted(names), sorted(want))
        self.assertEqual(len(recs), len(set(recs)), 'duplicate records')
        self.assertLessEqual({r - 4 for r in recs}, set(entries))
        return recs

    def test_bitcode_refused(self):
        """A bitcode object is refused, with the reason, and left alone."""
        _, bcs = self.lto_link('refused.o', 'entries.c')
        before = read(bcs[0])
        p = rmc(bcs[0])
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(read(bcs[0]), before)
        self.assertIn('LLVM bitcode', p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def test_linked_object(self):
        """The LTO link's output: a record per traced function, BTI before
        each entry, untraced .exit.text left alone; the weak function
        still weak, so its copy overridden at the final link is dropped
        by --linked."""
        a = self.a
        o, _ = self.lto_link('lto.o', 'entries.c')
        p = rmc(o)
        self.assertEqual(p.returncode, 0, p.stderr)
        secs = a.sections(o)
        self.assertNotRegex(secs, r'\]\s+__patchable_function_entries\s')
        self.assertRegex(secs, r'\]\s+\.mcount_weak\s')
        once = read(o)
        self.assertEqual(rmc(o).returncode, 0)
        self.assertEqual(read(o), once, 'a second run changed the object')
        traced = PatchableEntryTests.TRACED
        self.check_records(a.link(o), a.link(o + '.orig'), traced)
        # The weak copy overridden by a strong one at the final link.
        ovr = a.compile('override.c', out='lto-override.o')
        self.assertEqual(rmc(ovr).returncode, 0)
        exe = a.link(o, ovr)
        p = rmc('--linked', exe)
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = a.records(exe)
        self.assertEqual(recs.count(0), 1)
        funcs = self.functions(exe)
        self.assertEqual(sorted([n for addr, n in funcs if addr <= r][-1]
                                for r in recs if r), sorted(traced))

    def test_partly_recorded_completed(self):
        """Linked after one part already had __mcount_loc (a module's
        assembly that records its own sites, beside bitcode): the other
        part's entry table still becomes records, in a second
        __mcount_loc that the linker merges with the first."""
        a = self.a
        part = a.compile('entries.c', out='part1.o')
        self.assertEqual(rmc(part).returncode, 0)
        other = a.compile('override.c', out='part2.o')
        both = os.path.join(a.dir, 'parts.o')
        must([LLVM + 'ld.lld', '-r', '-o', both, part, other])
        p = rmc(both)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotRegex(a.sections(both),
                            r'\]\s+__patchable_function_entries\s')
        once = read(both)
        self.assertEqual(rmc(both).returncode, 0)
        self.assertEqual(read(both), once, 'a second run changed the object')
        exe = a.link(both)
        self.assertEqual(rmc('--linked', exe).returncode, 0)
        recs = [r for r in a.records(exe) if r]
        funcs = self.functions(exe)
        # entries.c's weak_default is overridden by override.c's.
        self.assertEqual(sorted([n for addr, n in funcs if addr <= r][-1]
                                for r in recs),
                         sorted(PatchableEntryTests.TRACED))
        self.assertEqual(len(recs), len(set(recs)))

    def many_functions(self, n):
        """An object with a section per function and @n functions, so more
        sections than an ELF header can count (extended numbering)."""
        src = os.path.join(self.a.dir, 'many.c')
        with open(src, 'w') as f:
            f.write('int counter;\n')
            for i in range(n):
                f.write('int f%d(int x) { return x + %d; }\n' % (i, i))
        o = os.path.join(self.a.dir, 'many.o')
        must(self.CC + ['-ffunction-sections', '-c', src, '-o', o])
        shutil.copy(o, o + '.orig')
        return o

    def shnum(self, path):
        """e_shnum and the section count readelf finds."""
        out = must([self.a.readelf, '-hW', path])
        m = re.search(r'Number of section headers:\s+(\d+)(?: \((\d+)\))?', out)
        return int(m.group(1)), int(m.group(2) or m.group(1))

    def test_extended_section_numbering(self):
        """More than 65,280 sections: e_shnum is 0, the count and the name
        table's index are in section 0, symbols of high sections go
        through SHT_SYMTAB_SHNDX.  Every function gets its record."""
        a, n = self.a, 22000
        o = self.many_functions(n)
        e_shnum, count = self.shnum(o)
        self.assertEqual(e_shnum, 0)
        self.assertGreater(count, 65280)
        p = rmc(o)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.shnum(o), (0, count + 2))
        self.check_records(a.link(o), a.link(o + '.orig'),
                           ['f%d' % i for i in range(n)])

    def test_extended_numbering_bad(self):
        """A broken section 0 of an extended table: a clean failure."""
        o = self.many_functions(22000)
        orig = read(o)
        shoff = int.from_bytes(orig[40:48], 'little')
        count = int.from_bytes(orig[shoff + 32:shoff + 40], 'little')
        code = next(i for i in range(1, count)      # not SHT_STRTAB
                    if orig[shoff + 64 * i + 4] != 3)
        for field, value, words in (
                (32, 0, 'no section table'),                 # sh_size
                (32, count * 1000, 'outside the file'),
                (40, count + 5, 'no section name table'),    # sh_link
                (40, code, 'not a string table')):
            data = bytearray(orig)
            width = 8 if field == 32 else 4
            data[shoff + field:shoff + field + width] = \
                value.to_bytes(width, 'little')
            if field == 40:     # the name table's index in section 0
                data[62:64] = (0xffff).to_bytes(2, 'little')
            with open(o, 'wb') as f:
                f.write(data)
            p = rmc(o)
            self.assertNotEqual(p.returncode, 0, words)
            self.assertIn(words, p.stderr)
            self.assertEqual(read(o), bytes(data))
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def test_fuzz_linked_object(self):
        """Truncations and bit flips of an LTO link's output."""
        o, _ = self.lto_link('fuzz-lto.o', 'entries.c')
        cases = int(os.environ.get('FUZZ_CASES', '1500')) // 3
        fuzz_object(self, read(o), os.path.join(self.a.dir, 'fuzz-lto'),
                    cases, 'arm64-lto')


class LtoX86Tests(unittest.TestCase):
    """x86_64 built with clang's ThinLTO: kbuild runs the tool with --lto on
    vmlinux.o, the LTO link's output, which holds the profiling routine's
    definition (arch/x86/kernel/ftrace_64.S, machine code beside the
    bitcode) as well as the calls to it."""

    FLAGS = ['--target=x86_64-linux-gnu', '-O2', '-fno-pie', '-pg', '-mfentry',
             '-mcmodel=kernel', '-fcf-protection=branch']
    CC = [LLVM + 'clang'] + FLAGS
    LD = ['ld', '-m', 'elf_x86_64']
    ENDBR = 'f3 0f 1e fa'

    def setUp(self):
        if not os.path.exists(LLVM + 'clang'):
            self.skipTest('no clang 16 (make setup installs it)')
        self.a = Arch('x86_64')

    def vmlinux_o(self, out, srcs, native=(), asm=()):
        """@srcs as ThinLTO bitcode, @native C files and @asm files as
        machine code, with the routines' stub, linked by ld.lld -r as
        scripts/Makefile.vmlinux_o links them; an untouched copy is
        @out.orig."""
        objs = []
        for src in srcs:
            bc = os.path.join(self.a.dir, '%s-%s.bc' % (out, src))
            must(self.CC + KERNEL_ATTRS + ['-flto=thin', '-fsplit-lto-unit', '-c',
                                           os.path.join(SRC, src), '-o', bc])
            objs.append(bc)
        for src in list(native) + list(asm):
            o = os.path.join(self.a.dir, '%s-%s.o' % (out, src))
            must(self.CC + KERNEL_ATTRS + ['-c', os.path.join(SRC, src), '-o', o])
            objs.append(o)
        out = os.path.join(self.a.dir, out)
        must([LLVM + 'ld.lld', '-r', '-o', out] + objs + [self.a.stub])
        shutil.copy(out, out + '.orig')
        return out

    def link(self, obj):
        """@obj linked alone: it has the routines' definitions already."""
        exe = obj + '.elf'
        must(self.LD + ['-e', '_start', '-T', os.path.join(SRC, 'mcount.lds'),
                        '-o', exe, obj])
        return exe

    def check(self, o, want):
        """Run the tool with --lto on @o: the records are exactly the calls
        of __fentry__ in @want's functions, each now the 5-byte NOP at the
        function's entry or right after its ENDBR; every other call and
        reference to __fentry__ is as compiled; a second run changes
        nothing."""
        a = self.a
        p = rmc('-w', '--lto', o)
        self.assertEqual(p.returncode, 0, p.stderr)
        once = read(o)
        self.assertEqual(rmc('--lto', o).returncode, 0)
        self.assertEqual(read(o), once, 'a second run changed the object')
        exe, orig = self.link(o), self.link(o + '.orig')
        sites = a.call_sites(orig)
        recs = a.records(exe)
        self.assertEqual(len(recs), len(set(recs)), 'duplicate records')
        self.assertEqual(sorted(sites[r] for r in recs), sorted(want))
        insn = a.insn_bytes(exe)
        starts = {addr for addr, _ in LtoTests.functions(self, exe)}
        for r in recs:
            self.assertEqual(insn.get(r), a.idle, 'site %#x is not idle' % r)
            # clang gives a static function whose address is not taken
            # no ENDBR.
            self.assertTrue(r in starts or (insn.get(r - 4) == self.ENDBR and
                                            r - 4 in starts),
                            'site %#x is not at its function\'s entry' % r)
        # Everything else in the object is as it was (the calls in
        # untraced sections, the assembly's references): its code and
        # relocations differ only by a call and its PLT32 relocation
        # against __fentry__ become a NOP and R_X86_64_NONE, per record.
        def dis(path):
            return [ln for ln in must([a.objdump, '-dr', path]).splitlines()
                    if 'file format' not in ln]
        diff = list(difflib.ndiff(dis(o + '.orig'), dis(o)))
        gone = [ln[2:] for ln in diff if ln.startswith('- ')]
        came = [ln[2:] for ln in diff if ln.startswith('+ ')]
        self.assertEqual(len([ln for ln in gone if re.search(
            r'R_X86_64_PLT32\s+__fentry__-0x4$', ln)]), len(recs))
        for ln in gone:
            self.assertRegex(ln, r'\scall\s|R_X86_64_PLT32\s+__fentry__-0x4$')
        for ln in came:
            self.assertRegex(ln, r'\snopl\s|R_X86_64_NONE\s+__fentry__')
        return p

    def test_linked_object_defines_routine(self):
        """Bitcode of traced and untraced sections, a native C object (as
        arch/x86/power/cpu.o is built without LTO) and assembly that
        refers to __fentry__ without calling it."""
        a = self.a
        o = self.vmlinux_o('vmlinux-x86.o', ['sections.c'], native=['basic.c'],
                           asm=['fentry-refs.S'])
        syms = must([a.readelf, '-sW', o])
        self.assertRegex(syms, r'GLOBAL\s+DEFAULT\s+\d+\s+__fentry__\n')
        relocs = must([a.readelf, '-rW', o])
        for kind in ('R_X86_64_PLT32', 'R_X86_64_PC32', 'R_X86_64_64'):
            self.assertRegex(relocs, kind + r'\s+[0-9a-f]+\s+__fentry__')
        p = self.check(o, ['local_a', 'local_b', 'ref_fn', 'kprobes_fn',
                           'idle_fn', 'weak_one', 'hot_fn', 'group_fn',
                           'calls_all', 'helper', 'plain', 'weak_default',
                           'init_function', 'cold_function', 'sched_function'])
        # exit_fn and meminit_fn are compiled with their calls, untraced.
        sites = a.call_sites(self.link(o + '.orig'))
        self.assertIn('exit_fn', sites.values())
        self.assertIn('meminit_fn', sites.values())
        self.assertIn("not a call's operand", p.stderr)
        self.assertIn('not a call', p.stderr)

    def test_defined_routine_needs_lto(self):
        """Without --lto a defined __fentry__ is not the routine: an
        ordinary object that defines a function of that name keeps its
        calls to it."""
        o = self.vmlinux_o('vmlinux-x86-nolto.o', ['basic.c'])
        p = rmc(o)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(read(o), read(o + '.orig'))

    def test_defined_routine_address_not_a_site(self):
        """The defined routine's address taken as a value is no site."""
        a = self.a
        o = self.vmlinux_o('vmlinux-x86-addr.o', ['address.c'])
        relocs = must([a.readelf, '-rW', o])
        self.assertRegex(relocs, r'R_X86_64_32S?\s+[0-9a-f]+\s+__fentry__')
        self.check(o, ['fentry_address', 'is_fentry'])


class BadInputTests(unittest.TestCase):
    """Bad input: one message naming the file, non-zero exit, no change."""

    def rejects(self, path, words):
        before = read(path)
        p = rmc(path)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(read(path), before)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(path, lines[0])
        self.assertIn(words, lines[0])
        return lines[0]

    def patched(self, a, name, off, data):
        o = a.compile('basic.c', out=name)
        with open(o, 'r+b') as f:
            f.seek(off)
            f.write(data)
        return o

    def test_not_elf(self):
        p = os.path.join(WORK, 'text.o')
        with open(p, 'w') as f:
            f.write('hello\n')
        self.rejects(p, 'not an ELF file')

    def test_truncated(self):
        a = Arch('x86_64')
        o = a.compile('basic.c', out='trunc.o')
        with open(o, 'r+b') as f:
            f.truncate(len(read(o)) // 2)
        self.rejects(o, 'outside the file')

    def test_wrong_machine(self):
        a = Arch('x86_64')
        o = self.patched(a, 'riscv.o', 18, (243).to_bytes(2, 'little'))
        self.rejects(o, 'unsupported machine 243')

    def test_not_relocatable(self):
        a = Arch('arm64')
        o = self.patched(a, 'exec.o', 16, (2).to_bytes(2, 'little'))
        self.rejects(o, 'not a relocatable object')

    def test_unsupported_relocation(self):
        a = Arch('x86_64')
        o = os.path.join(a.dir, 'pie.o')
        must(['gcc', '-O2', '-fpie', '-pg', '-mfentry'] + KERNEL_ATTRS +
             ['-c', os.path.join(SRC, 'basic.c'), '-o', o])
        self.rejects(o, 'unsupported relocation type')

    def test_no_symbol_table(self):
        a = Arch('x86_64')
        o = a.compile('basic.c', out='nosym.o')
        data = bytearray(read(o))
        shoff = int.from_bytes(data[40:48], 'little')
        for i in range(int.from_bytes(data[60:62], 'little')):
            t = shoff + 64 * i + 4
            if int.from_bytes(data[t:t + 4], 'little') == 2:  # SHT_SYMTAB
                data[t:t + 4] = (1).to_bytes(4, 'little')
        with open(o, 'wb') as f:
            f.write(data)
        self.rejects(o, 'no symbol table')


class FuzzTests(unittest.TestCase):
    """Truncations and bit flips of real objects: never a crash, and on
    error never a modified file or a left-over temporary."""

    def fuzz(self, a):
        cases = int(os.environ.get('FUZZ_CASES', '1500'))
        src = read(a.compile('basic.c', out='fuzz-src.o'))
        fuzz_object(self, src, os.path.join(a.dir, 'fuzz'), cases, a.name)

    def test_fuzz_x86_64(self):
        self.fuzz(Arch('x86_64'))

    def test_fuzz_arm64(self):
        self.fuzz(Arch('arm64'))


if __name__ == '__main__':
    if not RMC:
        sys.exit('set RMC to the recordmcount binary to test')
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    res = unittest.main(exit=False, verbosity=2).result
    failed = len(res.failures) + len(res.errors)
    skipped = len(res.skipped)
    passed = res.testsRun - failed - skipped
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    sys.exit(1 if failed else 0)
