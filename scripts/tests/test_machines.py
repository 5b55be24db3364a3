# SPDX-License-Identifier: GPL-2.0
"""recordmcount on every machine upstream 6.1's tool handles.

For each machine with a Debian cross compiler, small C files are compiled
with the flags kbuild uses for the profiling call on that architecture, in
several variants (-ffunction-sections, Thumb-2, MIPS long calls, ...).
Each object is processed twice, on separate copies: by upstream 6.1's
recordmcount, built from the pristine sources (UPSTREAM_RMC, an oracle
only), and by ours.  The records of the two, read back with an
independent ELF reader (elfrecords.py) as (section, offset, REL/RELA,
relocation type), must be identical.  Both are also checked against a
model of the rules, written from the machine descriptions below, so that
an object upstream refuses is still checked.
"""
import os
import random
import shutil
import subprocess
import sys
import unittest

from elfrecords import Elf

# The kernel's names for the attributes the test sources use (they are
# compiled without the kernel's headers).
KERNEL_ATTRS = ['-Dnoinline=__attribute__((__noinline__))',
                '-D__weak=__attribute__((__weak__))',
                '-D__cold=__attribute__((__cold__))',
                '-D__hot=__attribute__((__hot__))',
                '-D__section(s)=__attribute__((__section__(s)))',
                '-D__alias(s)=__attribute__((__alias__(#s)))',
                '-Dnotrace=__attribute__((__no_instrument_function__))']

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, 'src')
RMC = os.environ.get('RMC', '')
UPSTREAM = os.environ.get('UPSTREAM_RMC', '')
WORK = os.path.join(os.environ.get('WORK', '/tmp/rmc-tests'), 'machines')

PLAIN = ('mcount', '__fentry__')
UNDER = ('_mcount', '__fentry__')


def machine(cc, flags, callees, abs_type, kind, types=None, bias=0,
            pair=False, variants=((),)):
    return dict(cc=cc, flags=flags, callees=callees, abs_type=abs_type,
                kind=kind, types=types, bias=bias, pair=pair,
                variants=variants)


# cc, the flags of the profiling call in kbuild (arch/*/Makefile, 6.1), the
# routine's names, the record's relocation type and kind.  variants: extra
# flags, each compiled as well.
MIPS_FLAGS = ['-mno-abicalls', '-fno-pic', '-G0']
MACHINES = {
    'x86_64': machine('gcc', ['-fno-pie', '-mcmodel=kernel', '-pg', '-mfentry'],
                      PLAIN, 1, 'rela', types=(4, 2), bias=-1),
    'i386': machine('i686-linux-gnu-gcc',
                    ['-fno-pic', '-mregparm=3', '-pg', '-mfentry'],
                    PLAIN, 1, 'rel', types=(2, 4), bias=-1,
                    variants=((), ('-mno-fentry',))),
    'arm': machine('arm-linux-gnueabihf-gcc',
                   ['-fno-pic', '-mabi=aapcs-linux', '-pg'],
                   PLAIN + ('__gnu_mcount_nc',), 2, 'rel', types=(28, 1, 10),
                   variants=(('-marm',), ('-mthumb',))),
    'arm64': machine('aarch64-linux-gnu-gcc', ['-pg'], UNDER, 257, 'rela',
                     types=(283,)),
    'mips': machine('mips-linux-gnu-gcc', MIPS_FLAGS + ['-pg'], UNDER, 2,
                    'rel', pair=True, variants=((), ('-mlong-calls',))),
    'mipsel': machine('mipsel-linux-gnu-gcc', MIPS_FLAGS + ['-pg'], UNDER, 2,
                      'rel', pair=True, variants=((), ('-mlong-calls',))),
    'mips64': machine('mips64-linux-gnuabi64-gcc',
                      MIPS_FLAGS + ['-msym32', '-pg'], UNDER, 18, 'rela',
                      pair=True, variants=((), ('-mlong-calls',))),
    'mips64el': machine('mips64el-linux-gnuabi64-gcc',
                        MIPS_FLAGS + ['-msym32', '-pg'], UNDER, 18, 'rela',
                        pair=True, variants=((), ('-mlong-calls',))),
    'powerpc': machine('powerpc-linux-gnu-gcc', ['-fno-pic', '-pg'], UNDER, 1,
                       'rela', variants=((), ('-fPIC',))),
    'powerpc64': machine('powerpc64-linux-gnu-gcc',
                         ['-mabi=elfv1', '-mcmodel=medium', '-pg'], UNDER, 38,
                         'rela'),
    'powerpc64le': machine('powerpc64le-linux-gnu-gcc',
                           ['-mabi=elfv2', '-mcmodel=medium', '-pg'], UNDER,
                           38, 'rela',
                           variants=(('-mprofile-kernel',), ())),
    's390x': machine('s390x-linux-gnu-gcc', ['-pg'], UNDER, 22, 'rela',
                     bias=-14),
    'sh4': machine('sh4-linux-gnu-gcc', ['-pg'], PLAIN, 1, 'rela'),
    'sparc64': machine('sparc64-linux-gnu-gcc', ['-mcmodel=medlow', '-pg'],
                       UNDER, 32, 'rela'),
}
# Machines in upstream 6.1's table that Debian 12 has no cross compiler for.
UNTESTED = ['ia64']

SOURCES = [('basic.c', ()), ('sections.c', ()),
           ('sections.c', ('-ffunction-sections',)),
           ('weakonly.c', ()), ('weakonly.c', ('-ffunction-sections',))]

TRACED = ('.init.text', '.ref.text', '.sched.text', '.spinlock.text',
          '.irqentry.text', '.softirqentry.text', '.kprobes.text',
          '.cpuidle.text')


def traced(name):
    return name.startswith('.text') or name in TRACED


def model(m, obj, carry=False):
    """The records the rules call for, from the object's code relocations.

    With @carry, the MIPS pair rule compares a relocation with the previous
    one against the routine even when that was in another section, as
    upstream 6.1 does (it keeps the previous offset in a static variable):
    a site at exactly 4 bytes past the last one of the section before is
    then dropped.  Ours compares within a section only.
    """
    e = Elf(obj)
    mask = (1 << (64 if e.is64 else 32)) - 1
    out = []
    prev = None
    for sec, rels in e.code_relocs().items():
        if not traced(sec):
            continue
        if not carry:
            prev = None
        for off, name, typ in rels:
            if name.lstrip('.') not in m['callees']:
                continue
            second = m['pair'] and prev is not None and off == prev + 4
            prev = off
            if second or (m['types'] and typ not in m['types']):
                continue
            out.append((sec, (off + m['bias']) & mask, m['kind'],
                        m['abs_type']))
    return sorted(out)


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


class MachineTests(unittest.TestCase):
    """Ours against upstream 6.1's tool and the model, machine by machine."""

    totals = {}

    def compare(self, name, m):
        d = os.path.join(WORK, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        objs = recs = compared = refused = quirk = 0
        for src, sflags in SOURCES:
            for var in m['variants']:
                tag = '%s%s%s' % (os.path.splitext(src)[0],
                                  ''.join(sflags), ''.join(var))
                base = os.path.join(d, tag + '.o')
                p = run([m['cc'], '-O2'] + KERNEL_ATTRS + m['flags'] + list(var) +
                        list(sflags) + ['-c', os.path.join(SRC, src),
                                        '-o', base])
                self.assertEqual(p.returncode, 0, p.stderr)
                ours, up = base + '.ours', base + '.up'
                shutil.copy(base, ours)
                shutil.copy(base, up)
                p = run([RMC, ours])
                self.assertEqual(p.returncode, 0, '%s: %s' % (tag, p.stderr))
                got = Elf(ours).records()
                want = model(m, base)
                self.assertTrue(want, tag + ': no sites at all')
                self.assertEqual(got, want, tag + ': ours != model')
                objs += 1
                recs += len(got)
                q = run([UPSTREAM, up])
                if q.returncode:
                    # Upstream gives up on a traced section with no local
                    # or global symbol (a section holding only a weak
                    # function); ours adds a section symbol.
                    self.assertIn('Cannot find symbol for section', q.stderr)
                    refused += 1
                    continue
                upr = Elf(up).records()
                if m['pair'] and upr != got:
                    # Only upstream's cross-section pair rule may differ.
                    self.assertEqual(upr, model(m, base, carry=True),
                                     tag + ': upstream != its model')
                    self.assertTrue(set(upr) < set(got), tag)
                    quirk += len(got) - len(upr)
                    compared += len(upr)
                    continue
                self.assertEqual(got, upr, tag + ': ours != upstream 6.1')
                compared += len(got)
        MachineTests.totals[name] = (objs, recs, compared, refused, quirk)

    def test_machines(self):
        if not UPSTREAM:
            self.skipTest('no upstream 6.1 sources for the oracle')
        for name, m in MACHINES.items():
            with self.subTest(machine=name):
                if not shutil.which(m['cc']):
                    self.fail('%s: no %s (make setup installs it)' %
                              (name, m['cc']))
                self.compare(name, m)

    @classmethod
    def tearDownClass(cls):
        for name, t in sorted(cls.totals.items()):
            print('machine %s: %d objects, %d records (model), %d of them '
                  'compared identical with upstream 6.1; %d objects upstream '
                  'refuses; %d sites upstream drops (MIPS pair rule across '
                  'sections)' % ((name,) + t))


def fuzz_object(tc, orig, d, cases, label):
    """Run the tool on @cases truncations and bit flips of the object
    @orig in directory @d: a clean failure (one line, exit 1, the file
    untouched, no temporary left) or success, never a crash.

    Every case runs alone under AddressSanitizer and UBSan.  LeakSanitizer,
    which more than doubles a run, checks them all in one more run of the
    tool over a copy of each case (the tool takes several objects): each
    object must get the same message as alone, and nothing may leak."""
    seed = int(os.environ.get('FUZZ_SEED', '1'))
    rnd = random.Random(seed)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, 'victim.o')
    copies = d + '-cases'
    shutil.rmtree(copies, ignore_errors=True)
    os.makedirs(copies)
    no_leaks = dict(os.environ, ASAN_OPTIONS=os.environ.get(
        'ASAN_OPTIONS', '') + ':detect_leaks=0')
    outcomes = [0, 0]
    names, said = [], []
    for i in range(cases):
        data = bytearray(orig)
        if i % 3 == 0:
            data = data[:rnd.randrange(len(data))]
        else:
            for _ in range(rnd.randint(1, 4)):
                # Bias flips towards the headers and tables up front.
                lim = len(data) if rnd.random() < 0.5 else 64
                data[rnd.randrange(lim)] ^= 1 << rnd.randrange(8)
        with open(path, 'wb') as f:
            f.write(data)
        names.append(os.path.join(copies, 'case%04d.o' % i))
        with open(names[-1], 'wb') as f:
            f.write(data)
        p = run([RMC, path], env=no_leaks)
        ctx = '%s case %d (seed %d): rc %d %s' % (label, i, seed, p.returncode,
                                                  p.stderr[-500:])
        tc.assertIn(p.returncode, (0, 1), ctx)
        tc.assertNotIn('Sanitizer', p.stderr, ctx)
        outcomes[p.returncode] += 1
        if p.returncode:
            with open(path, 'rb') as f:
                tc.assertEqual(f.read(), bytes(data), ctx)
            tc.assertEqual(len(p.stderr.strip().splitlines()), 1, ctx)
        tc.assertEqual(os.listdir(d), ['victim.o'], ctx)
        said.append(p.stderr.replace(path, names[-1]))
    # Both outcomes must occur, or the mutations test nothing.
    tc.assertGreater(outcomes[0], 0, label)
    tc.assertGreater(outcomes[1], 0, label)
    p = run([RMC] + names)
    ctx = '%s: the %d cases in one run, with LeakSanitizer' % (label, cases)
    if 'Sanitizer' in p.stderr:
        at = max(p.stderr.find('====='), 0)
        tc.fail(ctx + ':\n' + p.stderr[at:][-3000:])
    tc.assertEqual((p.returncode, p.stderr), (1, ''.join(said)), ctx)
    shutil.rmtree(copies)
    print('%s: %d cases, %d accepted, %d rejected' %
          (label, cases, outcomes[0], outcomes[1]), file=sys.stderr)


class MachineFuzzTests(unittest.TestCase):
    """Bad input on every machine (see fuzz_object())."""

    def fuzz(self, name, m):
        cases = int(os.environ.get('FUZZ_CASES_MACHINE', '60'))
        d = os.path.join(WORK, 'fuzz-' + name)
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, '..', 'fuzz-%s-src.o' % name)
        p = run([m['cc'], '-O2'] + KERNEL_ATTRS + m['flags'] +
                list(m['variants'][-1]) +
                ['-c', os.path.join(SRC, 'sections.c'), '-o', src])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(src, 'rb') as f:
            fuzz_object(self, f.read(), d, cases, name)

    def test_fuzz_machines(self):
        for name, m in MACHINES.items():
            if name in ('x86_64', 'arm64'):
                continue        # FuzzTests covers them with more cases
            with self.subTest(machine=name):
                if not shutil.which(m['cc']):
                    self.fail('%s: no %s' % (name, m['cc']))
                self.fuzz(name, m)
