#!/usr/bin/env python3
"""bench.py ARCH: ours against upstream, side by side, under -icount.

Builds both kernels from the same config, boots each with
-icount shift=0,sleep=off (guest time = instructions), runs the in-guest
benchmark (harness/guest/ftbench.c) and prints one table; the figures go
to build/bench/ARCH.json as well.  RUNS=2 boots each kernel twice and
reports how far the runs differ.  FLAVOR=wip benchmarks the work in
progress instead of ours; VARIANT=NAME benchmarks both kernels built with
configs/variant-NAME.config (VARIANT=fp: x86_64 with the frame-pointer
unwinder).  BASE=6.12 benchmarks both on Linux 6.12 (build/bench/ARCH-6.12.json).
"""
import datetime
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'harness'))
from check import BENCH_METRICS, console_lines, parse_bench  # noqa: E402

# Metric: (description, unit shown).
LABELS = {
    'records': ('call-site records', 'count'),
    'record_bytes_per_record': ('record memory per record', 'bytes'),
    'ftrace_init_end': ('boot to the end of ftrace init', 'instr'),
    'ftrace_init_span': ('ftrace init: records + NOP every site', 'instr'),
    'boot_to_bench': ('boot to the benchmark program', 'instr'),
    'enable_function_all': ('function tracer on, all functions', 'instr'),
    'disable_function_all': ('function tracer off again', 'instr'),
    'enable_function_all_writes': ('  of which call-site writes (our timer)', 'instr'),
    'disable_function_all_writes': ('  of which call-site writes (our timer)', 'instr'),
    'enable_function_all_core': ('  of which the core, all of it (our timer)', 'instr'),
    'disable_function_all_core': ('  of which the core, all of it (our timer)', 'instr'),
    'enable_function_one': ('function tracer on, filtered to 1 function', 'instr'),
    'disable_function_one': ('function tracer off, filtered to 1 function', 'instr'),
    'enable_function_one_core': ('  of which the core, all of it (our timer)', 'instr'),
    'disable_function_one_core': ('  of which the core, all of it (our timer)', 'instr'),
    'set_filter_1000_names': ('set_ftrace_filter, 1,000 names, one open', 'instr'),
    'set_filter_glob_lock': ("set_ftrace_filter '*lock*'", 'instr'),
    'clear_filter': ('clear set_ftrace_filter', 'instr'),
    'set_filter_glob_none': ("set_ftrace_filter '*zqxjv*' (matches none)", 'instr'),
    'read_available_filter_functions_modules':
        ('read available_filter_functions, 2 modules', 'instr'),
    'set_filter_glob_lock_modules': ("set_ftrace_filter '*lock*', 2 modules", 'instr'),
    'read_available_filter_functions_wide':
        ('read available_filter_functions, 6,000-function module', 'instr'),
    'set_filter_glob_lock_wide': ("set_ftrace_filter '*lock*', 6,000-function module", 'instr'),
    'set_filter_mod_wide': ("set_ftrace_filter '*:mod:ftwide' (6,000 functions)", 'instr'),
    'read_available_filter_functions': ('read available_filter_functions', 'instr'),
    'syscall_tracing_off': ('getppid(), tracing off', 'instr/call'),
    'syscall_function_all': ('getppid(), function tracer on all', 'instr/call'),
    'syscall_function_all_tracing_off':
        ('getppid(), function tracer on all, tracing_on 0', 'instr/call'),
    'syscall_function_all_plus_filtered_instance':
        ('getppid(), + instance filtered to 1 other fn', 'instr/call'),
    'syscall_function_all_plus_100_ops':
        ('getppid(), + 100 ops on module functions', 'instr/call'),
    'syscall_function_graph_all': ('getppid(), function_graph on all', 'instr/call'),
    'events_all_on': ('every trace event on (jump labels)', 'instr'),
    'events_all_off': ('every trace event off (jump labels)', 'instr'),
}
ORDER = ['records', 'record_bytes_per_record', 'ftrace_init_span', 'ftrace_init_end',
         'boot_to_bench',
         'enable_function_all', 'enable_function_all_writes', 'enable_function_all_core',
         'disable_function_all', 'disable_function_all_writes', 'disable_function_all_core',
         'enable_function_one', 'enable_function_one_core',
         'disable_function_one', 'disable_function_one_core', 'set_filter_1000_names',
         'set_filter_glob_lock', 'clear_filter', 'set_filter_glob_none',
         'read_available_filter_functions', 'read_available_filter_functions_modules',
         'set_filter_glob_lock_modules', 'read_available_filter_functions_wide',
         'set_filter_glob_lock_wide', 'set_filter_mod_wide',
         'syscall_tracing_off', 'syscall_function_all', 'syscall_function_all_tracing_off',
         'syscall_function_all_plus_filtered_instance', 'syscall_function_all_plus_100_ops',
         'syscall_function_graph_all',
         'events_all_on', 'events_all_off']

# The first and the last line ftrace_init() prints, per flavor.
INIT_START = re.compile(r'^\[\s*(\d+)\.(\d+)\] ftrace: (allocating \d+ entries|converting \d+ call sites)')
INIT_END = re.compile(r'^\[\s*(\d+)\.(\d+)\] ftrace: (allocated \d+ pages|\d+ call sites)')


def stamp(m):
    """A console timestamp in ns (0 where the arch has no clock yet)."""
    return int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, '0')[:9])


def run(cmd, **kw):
    print('+ ' + ' '.join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, cwd=TOP, **kw)


def boot(arch, flavor):
    env = dict(os.environ, ICOUNT='1', TIMEOUT=os.environ.get('TIMEOUT', '5400'))
    # One vCPU: under -icount two vCPUs take turns in an order that varies,
    # which moved arm64's enable/disable figures by up to 5% between runs;
    # and x86_64 with two hangs in QEMU 7.2 while the second CPU comes up.
    env.setdefault('SMP', '1')
    # The kernels are built with a randomised base (configs/distro.config);
    # a fixed one keeps the instruction counts the same from run to run.
    env['APPEND'] = (env.get('APPEND', '') + ' nokaslr').strip()
    run([os.path.join(TOP, 'harness/qemu.sh'), arch, flavor, 'bench'], env=env,
        stdout=subprocess.DEVNULL)
    variant = os.environ.get('VARIANT')
    name = f'{arch}-{flavor}' + (f'-{variant}' if variant else '') + base_suffix()
    log = os.path.join(TOP, 'build/logs', f'{name}-bench.log')
    lines = list(console_lines(log))
    got, err, done = parse_bench(lines)
    if err or not done:
        sys.exit(f'bench: {arch}-{flavor}: {err or "did not finish"} (see {log})')
    start = None
    with open(log, errors='replace') as f:	# with the console timestamps
        raw = [ln.rstrip('\n').replace('\r', '') for ln in f]
    for ln in raw:
        m = INIT_START.match(ln)
        if m:
            start = stamp(m)
        m = INIT_END.match(ln)
        # arm64 has no clock that early: every timestamp reads 0.
        if m and stamp(m):
            got['ftrace_init_end'] = stamp(m)
            if start is not None:
                got['ftrace_init_span'] = stamp(m) - start
    return got


def base_suffix():
    """What harness/lib.sh's kname appends for BASE: nothing for 6.1."""
    base = os.environ.get('BASE', '6.1')
    return '' if base == '6.1' else f'-{base}'


def fmt(v):
    if v is None:
        return 'n/a'
    if v >= 1e6:
        return f'{v / 1e6:,.1f} M'
    if v >= 1e4:
        return f'{v:,.0f}'
    return f'{v:,.2f}'.rstrip('0').rstrip('.')


def main():
    arch = sys.argv[1]
    ours = os.environ.get('FLAVOR', 'ours')
    if ours == 'upstream':
        ours = 'ours'
    runs = int(os.environ.get('RUNS', '1'))
    flavors = ['upstream', ours]
    for fl in flavors:
        run([os.path.join(TOP, 'harness/kernel.sh'), arch, fl])
        run([os.path.join(TOP, 'harness/initramfs.sh'), arch, fl])
    results = {fl: [] for fl in flavors}
    for _ in range(runs):
        for fl in flavors:
            results[fl].append(boot(arch, fl))

    up, us = results['upstream'][0], results[ours][0]
    rows = []
    for key in ORDER:
        desc, unit = LABELS[key]
        a, b = up.get(key), us.get(key)
        ratio = b / a if a and b is not None else None
        spread = max((abs(r.get(key, 0) - rr[0].get(key, 0)) / rr[0][key]
                      for rr in results.values() for r in rr
                      if rr[0].get(key)), default=0.0)
        rows.append({'metric': key, 'description': desc, 'unit': unit,
                     'upstream': a, 'ours': b, 'ratio': ratio, 'spread': spread})

    when = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    variant = f' VARIANT={os.environ["VARIANT"]}' if os.environ.get('VARIANT') else ''
    if base_suffix():
        variant += f' BASE={os.environ["BASE"]}'
    print(f'\nmake bench ARCH={arch}{variant}  ({when}; QEMU TCG -icount shift=0,sleep=off, '
          f'{os.environ.get("SMP", "1")} vCPU, {runs} run(s) per kernel; '
          f'guest ns = instructions, plus idle time skipped)\n')
    head = f'{"metric":46} {"unit":10} {"upstream":>12} {"ours":>12} {"ours/up":>8}'
    if runs > 1:
        head += f' {"spread":>7}'
    print(head)
    print('-' * len(head))
    for r in rows:
        ratio = 'n/a' if r['ratio'] is None else f'{r["ratio"]:.3f}'
        line = (f'{r["description"]:46} {r["unit"]:10} {fmt(r["upstream"]):>12} '
                f'{fmt(r["ours"]):>12} {ratio:>8}')
        if runs > 1:
            line += f' {r["spread"] * 100:6.2f}%'
        print(line)
    out = os.path.join(TOP, 'build/bench', f'{arch}{base_suffix()}.json')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        json.dump({'arch': arch, 'base': os.environ.get('BASE', '6.1'), 'date': when, 'runs': runs, 'flavor': ours,
                   'rows': rows, 'raw': results}, f, indent=1)
    print(f'\nwritten: {os.path.relpath(out, TOP)}')
    missing = [m for m in BENCH_METRICS if m not in us]
    if missing:
        sys.exit(f'bench: missing metrics: {missing}')


if __name__ == '__main__':
    main()
