#!/usr/bin/env python3
"""Time recordmcount, ours against upstream 6.1's, on the same kernel objects.

The objects are those of a kernel build that carry call-site records, with
the records removed again (objcopy), so both tools see what the compiler
produced: on x86_64 those of build/kernel/x86_64-upstream (gcc recorded the
sites there; our recordmcount, which ours runs, also writes the NOP over
each call and neutralises its relocation), elsewhere build/kernel/ARCH-ours.  Each tool runs once per object, as kbuild runs it, on
its own copy of the objects; the figure is the children's user+sys CPU
time, the best of REPEAT rounds.  Because CPU time is noisy on a shared
machine, the instructions each tool executes on the SAMPLE largest objects
are also counted exactly with callgrind.  Both tools are built here with
the same host compiler and flags.  Also checked: both tools record the same
number of sites in every object.

Usage: bench_recordmcount.py ARCH OUT_JSON
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
BASE = os.path.join(TOP, 'build', 'base', 'linux-source-6.1')
if os.environ.get('BASE', '6.1') != '6.1':
    sys.exit('bench_recordmcount.py: runs on BASE=6.1 only (it reads 6.1\'s tree and builds)')
TOOLS = {'x86_64': ('objcopy', 'readelf'),
         'arm64': ('aarch64-linux-gnu-objcopy', 'aarch64-linux-gnu-readelf')}
STRIP = ['__mcount_loc', '.rela__mcount_loc', '.mcount_weak', '.rela.mcount_weak']
REPEAT = int(os.environ.get('REPEAT', '3'))
SAMPLE = int(os.environ.get('SAMPLE', '20'))


def build_tool(srcs, out, incdir):
    # tools/include for __printf(), as kbuild builds ours (scripts/Makefile).
    subprocess.run(['gcc', '-O2', '-I', incdir,
                    '-I', os.path.join(BASE, 'tools', 'include'),
                    '-o', out] + srcs, check=True)


def objects(kdir):
    found = []
    for root, dirs, files in os.walk(kdir):
        dirs[:] = [d for d in dirs if d not in ('modroot', 'scripts', 'tools')]
        for f in files:
            if f.endswith('.o') and f != 'vmlinux.o' and not f.endswith('.mod.o'):
                found.append(os.path.join(root, f))
    return sorted(found)


def has_records(readelf, path):
    out = subprocess.run([readelf, '-SW', path], capture_output=True, text=True).stdout
    return ' __mcount_loc ' in out


def prepare(arch, kdir, work):
    objcopy, readelf = TOOLS[arch]
    src = os.path.join(work, 'pristine')
    os.makedirs(src)
    n = 0
    for path in objects(kdir):
        if not has_records(readelf, path):
            continue
        dst = os.path.join(src, '%05d.o' % n)
        cmd = [objcopy] + [a for s in STRIP for a in ('--remove-section', s)]
        subprocess.run(cmd + [path, dst], check=True)
        n += 1
    return src, n


def run_round(tool, src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    files = sorted(os.path.join(dst, f) for f in os.listdir(dst))
    before = os.times()
    for f in files:
        subprocess.run([tool, f], check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user +
            after.children_system - before.children_system)


def instructions(tool, src, dst, names):
    """Instructions executed by @tool over the objects @names (callgrind)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    total = 0
    for f in names:
        p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null',
                            tool, os.path.join(dst, f)], capture_output=True, text=True)
        for line in p.stderr.splitlines():
            if 'Collected :' in line:
                total += int(line.split()[-1])
    return total


def sites(readelf, path):
    """Number of records in the object's __mcount_loc."""
    out = subprocess.run([readelf, '-rW', path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Relocation section '.rela__mcount_loc'"):
            return int(line.split('contains')[1].split()[0])
    return 0


def main():
    arch, out_json = sys.argv[1], sys.argv[2]
    flavor = 'upstream' if arch == 'x86_64' else 'ours'
    kdir = os.path.join(TOP, 'build', 'kernel', arch + '-' + flavor)
    work = tempfile.mkdtemp(prefix='rmc-bench-', dir=os.path.join(TOP, 'build'))
    try:
        ours = os.path.join(work, 'ours')
        upstream = os.path.join(work, 'upstream')
        build_tool([os.path.join(TOP, 'scripts', f) for f in
                    ('recordmcount.c', 'recordmcount-elf.c', 'recordmcount-write.c')],
                   ours, os.path.join(TOP, 'scripts'))
        build_tool([os.path.join(BASE, 'scripts', 'recordmcount.c')], upstream,
                   os.path.join(BASE, 'scripts'))
        src, n = prepare(arch, kdir, work)
        if not n:
            sys.exit('bench_recordmcount: no objects with records under %s; '
                     'build it first (make kernel ARCH=%s FLAVOR=%s)' % (kdir, arch, flavor))
        times = {'ours': [], 'upstream': []}
        for _ in range(REPEAT):
            for name, tool in (('upstream', upstream), ('ours', ours)):
                times[name].append(run_round(tool, src, os.path.join(work, name + '.out')))
        # Same sites: compare the record count of each object.
        _, readelf = TOOLS[arch]
        differ = 0
        for f in sorted(os.listdir(src)):
            a = sites(readelf, os.path.join(work, 'ours.out', f))
            b = sites(readelf, os.path.join(work, 'upstream.out', f))
            differ += a != b
        big = sorted(os.listdir(src), key=lambda f: -os.path.getsize(os.path.join(src, f)))
        big = big[:SAMPLE]
        ins = {name: instructions(tool, src, os.path.join(work, name + '.cg'), big)
               for name, tool in (('upstream', upstream), ('ours', ours))}
        res = {'arch': arch, 'objects': n, 'sample_objects': len(big),
               'upstream_instructions': ins['upstream'], 'ours_instructions': ins['ours'],
               'upstream_s': min(times['upstream']), 'ours_s': min(times['ours']),
               'objects_with_different_record_counts': differ}
        res['ratio'] = res['ours_s'] / res['upstream_s'] if res['upstream_s'] else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(out_json), exist_ok=True)
    with open(out_json, 'w') as f:
        json.dump(res, f, indent=1)
    print('%-44s %10s %10s %7s' % ('metric (' + arch + ')', 'upstream', 'ours', 'ratio'))
    print('%-44s %10.3f %10.3f %7.2f' % (
        'recordmcount CPU s, %d objects' % n, res['upstream_s'], res['ours_s'],
        res['ratio'] or 0))
    print('%-44s %10d %10d %7.2f' % (
        'instructions (M), %d largest objects' % res['sample_objects'],
        res['upstream_instructions'] // 10**6, res['ours_instructions'] // 10**6,
        res['ours_instructions'] / max(res['upstream_instructions'], 1)))
    print('objects whose record counts differ: %d' % differ)
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
