#!/usr/bin/env python3
"""Read a test guest's console log and judge it.

  check.py judge --name NAME --log LOG [--expect FILE] [--subset] [--kunit]
                 [--core-cases DIR]
      Print one line per result and add the counts to build/results/NAME.
      Results: the guest finished and really ran SMP; the kernel log holds
      no oops, BUG, WARNING or panic; each KUnit case (KTAP); each ftracetest
      case against the expectations file of the unmodified kernel, except
      the project's own cases (description "ftrace-core: ..."), which must
      PASS whatever the expectations say; with --core-cases, each of those
      in DIR (harness/ftt) must also have run.
  check.py bootcheck --name NAME --log LOG
      Judge a harness=bootcheck boot: it finished, its kernel log is clean,
      and each "CHECK| PASS name" / "CHECK| FAIL name: why" line is a result
      (a boot with none fails).
  check.py kselftest --name NAME --log LOG --expect FILE
      Judge a harness=kselftest boot (selftests of in-tree ftrace users,
      harness/guest/kselftest.sh): it finished, its kernel log is clean, and
      each "KST| RESULT DIR/SCRIPT" line against the upstream results in
      FILE: a script upstream passes must pass, and must have run.
  check.py kselftest-expect --log LOG --out FILE --arch A --base V --seconds N
      Write FILE from an upstream kselftest boot.
  check.py expect --log LOG --out FILE --arch A --base V --seconds N
      Write an expectations file from an upstream ftracetest run.
  check.py total DIR
      Sum the counts in DIR; print "N passed, N failed, N skipped"; exit 1 on
      any failure or when nothing ran.
"""
import argparse
import collections
import datetime
import os
import re
import sys

STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
# Console lines that mean the kernel hit something it should not have.
KERNEL_BAD = re.compile(
    r'(Oops|BUG:|kernel BUG at|WARNING:|Kernel panic|general protection fault'
    r'|Unable to handle kernel|------------\[ cut here \]|INFO: task .* blocked'
    r'|rcu: INFO: .* stall|watchdog: BUG: soft lockup|Internal error:)')
FTT_RESULT = re.compile(
    r'^\[(\d+)\](.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]\s*$')
KTAP_RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$')
KTAP_SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
PASSING = ('PASS', 'XFAIL')
# The project's regression cases of the core (harness/ftt): their
# descriptions start with this, and each must PASS on the judged kernel.
CORE_PREFIX = 'ftrace-core:'
CHECK_LINE = re.compile(r'^CHECK\| (PASS|FAIL) ([^:]+?)(?:: (.*))?$')


def console_lines(path):
    with open(path, errors='replace') as f:
        for raw in f:
            yield STAMP.sub('', raw.rstrip('\n').replace('\r', ''))


class Tally:
    def __init__(self, name):
        self.name = name
        self.counts = {'passed': 0, 'failed': 0, 'skipped': 0}

    def add(self, kind, what, why=''):
        self.counts[kind] += 1
        word = {'passed': 'ok  ', 'failed': 'FAIL', 'skipped': 'skip'}[kind]
        print(f'{word} {self.name}: {what}' + (f'  ({why})' if why else ''))

    def save(self, directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, self.name), 'w') as f:
            for k, v in self.counts.items():
                f.write(f'{k} {v}\n')


def parse_ftracetest(lines, prefix='FTT| '):
    """Return [(key, result)] from the FTT| copy of ftracetest.log (or
    another copy named by @prefix), and whether ftracetest reached its
    summary."""
    out, seen, complete = [], {}, False
    for line in lines:
        if not line.startswith(prefix):
            continue
        line = line[len(prefix):]
        if line.startswith('# of passed:'):
            complete = True
        m = FTT_RESULT.match(line)
        if not m:
            continue
        key = ' '.join(m.group(2).split())
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key = f'{key} #{seen[key]}'
        out.append((key, m.group(3)))
    return out, complete


def parse_ktap(lines):
    """Return (results, complete): leaf KUnit results as (name, status) with
    status ok/fail/skip, and whether every announced test reported."""
    results, stack, top_plan, top_seen, started = [], [], None, 0, False
    for line in lines:
        if re.match(r'^\s*(KTAP|TAP) version', line):
            started = True
            continue
        if not started:
            continue
        m = KTAP_SUBTEST.match(line)
        if m:
            stack.append([len(m.group(1)), m.group(2).strip(), 0, 0])
            continue
        m = re.match(r'^(\s*)1\.\.(\d+)$', line)
        if m and not m.group(1) and top_plan is None:
            top_plan = int(m.group(2))
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        indent, status, name = len(m.group(1)), m.group(2), m.group(4).strip()
        directive = (m.group(5) or '').strip()
        kind = 'fail' if status == 'not ok' else 'ok'
        if directive.upper().startswith('SKIP'):
            kind = 'skip'
        # A subtest's header is indented with its cases; the result less
        # indented than the open header is the subtest's own, closing it.
        if stack and stack[-1][0] > indent:
            # Its own result counts only when its cases do not tell it:
            # no cases, or a failure (say, of suite init) none of them shows.
            closed = stack.pop()
            if closed[2] == 0 or (kind == 'fail' and closed[3] == 0):
                results.append(('.'.join([s[1] for s in stack] + [name]), kind))
        else:
            results.append(('.'.join([s[1] for s in stack] + [name]), kind))
        if stack:
            stack[-1][2] += 1
            stack[-1][3] += kind == 'fail'
        if indent == 0:
            top_seen += 1
    complete = started and top_plan is not None and top_seen >= top_plan
    return results, complete


def read_expectations(path):
    exp = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            status, key = line.split('\t', 1)
            exp[key] = status
    return exp


def finished(lines):
    """Did the guest run to its end ("HARNESS: done")?"""
    return any(ln.startswith('HARNESS: done') for ln in lines)


TIMED_OUT = re.compile(r'^qemu: timed out after (\d+) s')


def why_unfinished(lines):
    """Why a guest that did not print "HARNESS: done" stopped: the timeout
    harness/qemu.sh reports, with the last ftracetest case that completed
    (its console line), or a crash or hang."""
    timeout = next((m.group(1) for ln in lines for m in [TIMED_OUT.match(ln)] if m), None)
    cases = [m for ln in lines for m in [FTT_RESULT.match(ln)] if m]
    last = (f'; last case completed: [{cases[-1].group(1)}] '
            f'{" ".join(cases[-1].group(2).split())}' if cases else '')
    if timeout:
        return f'timed out after {timeout} s{last}'
    return f'no "HARNESS: done": crash or hang{last}'


def check_finished(t, lines):
    """One result: the guest ran to its end.  A guest that did not is one
    failure, with its cause; the results it did print are judged as they
    are, and what it did not reach is not listed case by case."""
    if finished(lines):
        t.add('passed', 'guest ran to the end')
    else:
        t.add('failed', 'guest ran to the end', why_unfinished(lines))


def check_log_clean(t, lines, own_prefixes):
    """One result: no kernel oops/BUG/WARNING/panic line in the console
    (lines starting with OWN_PREFIXES are the harness's, not the kernel's).
    On a failure, print the 25 lines from the first bad one."""
    bad = [ln for ln in lines if not ln.startswith(own_prefixes) and KERNEL_BAD.search(ln)]
    if bad:
        t.add('failed', 'kernel log clean', f'{len(bad)} bad lines, first: {bad[0].strip()}')
        i = lines.index(bad[0])
        for ln in lines[i:i + 25]:
            print('     | ' + ln)
    else:
        t.add('passed', 'kernel log clean (no oops/BUG/WARNING/panic)')


# Upstream cases that leave themselves UNRESOLVED on a uniprocessor guest.
SMP_ONLY = {'ftrace - function trace with cpumask'}
# Cases that measure latencies with sched_clock.  On x86 under TCG the
# boot's TSC sync check can fail ("tsc: Marking TSC unstable"); sched_clock
# then counts jiffies, which an idle CPU does not advance until its next
# interrupt, so an idle stretch of up to a second shows up as an irqs-off
# latency, on 6.1 as on ours (make check 2026-11-27: 101 ms and 990 ms in
# amd_e400_idle).  Such a boot cannot judge them.
SCHED_CLOCK_CASES = {'test for the preemptirqsoff tracer'}
TSC_UNSTABLE = 'tsc: Marking TSC unstable'


SELFTEST = re.compile(r'^(?:\w+: )?Testing ([^:]+):(.*)$')
# Where a test's verdict can no longer follow: KUnit's and ftracetest's
# own output, the harness's lines.
SELFTEST_END = re.compile(r'^(\s*(KTAP|TAP|ok |not ok |# )|FTT|HARNESS|CHECK\|)')
SELFTEST_FAIL = re.compile(r'\bFAILED\b|\bNG\b')
SELFTEST_PASS = re.compile(r'\b(PASSED|OK)\b')


def check_startup_tests(t, lines):
    """The tracers' boot self-tests (CONFIG_FTRACE_STARTUP_TEST and the
    kprobe one), when the kernel ran them: one result each.  The verdict
    is on the "Testing X:" line itself, or (the dynamic ftrace ops tests
    print their counts first) on a later line before the next test, KUnit
    or the harness: PASSED or OK passes; FAILED or NG ("NG: Some tests
    are failed") fails; none fails.  A kernel built without them prints
    none and gets no result."""
    at = [(i, m) for i, ln in enumerate(lines) for m in [SELFTEST.match(ln)] if m]
    for k, (i, m) in enumerate(at):
        end = at[k + 1][0] if k + 1 < len(at) else min(len(lines), i + 20)
        said = [m.group(2)]
        for ln in lines[i + 1:end]:
            if SELFTEST_FAIL.search(said[-1]) or SELFTEST_PASS.search(said[-1]):
                break
            if SELFTEST_END.match(ln):
                break
            said.append(ln)
        what = f'boot self-test {m.group(1)}'
        verdict = said[-1]
        if SELFTEST_FAIL.search(verdict):
            t.add('failed', what, verdict.strip())
        elif SELFTEST_PASS.search(verdict):
            t.add('passed', what)
        else:
            t.add('failed', what, 'no verdict (PASSED or OK)')


def judge(args):
    t = Tally(args.name)
    lines = list(console_lines(args.log))
    header = [ln for ln in lines if ln.startswith('HARNESS: kernel')]
    check_finished(t, lines)
    m = re.search(r'nproc=(\d+)', header[0]) if header else None
    if args.nproc:	# a guest booted with this many vCPUs on purpose
        if m and int(m.group(1)) == args.nproc:
            t.add('passed', f'guest has {args.nproc} vCPU(s)')
        else:
            t.add('failed', f'guest has {args.nproc} vCPU(s)',
                  f'nproc={m.group(1) if m else "?"}')
    elif m and int(m.group(1)) >= 2:
        t.add('passed', f'guest is SMP (nproc={m.group(1)})')
    else:
        t.add('failed', 'guest is SMP', f'nproc={m.group(1) if m else "?"}')

    check_log_clean(t, lines, ('FTT', 'HARNESS', 'AFF|'))
    check_startup_tests(t, lines)

    if args.kunit:
        results, complete = parse_ktap(lines)
        if not results:
            t.add('failed', 'kunit', 'no KTAP results in the console log')
        for name, kind in results:
            t.add({'ok': 'passed', 'fail': 'failed', 'skip': 'skipped'}[kind],
                  f'kunit {name}')
        if results and not complete and finished(lines):
            t.add('failed', 'kunit ran every suite', 'fewer results than the plan')

    if args.expect and not os.path.exists(args.expect):
        t.add('failed', 'ftracetest expectations', f'{args.expect} missing')
    elif args.expect:
        exp = read_expectations(args.expect)
        got, complete = parse_ftracetest(lines)
        # uname -m of the guest, and the arches core cases declare.
        machine = header[0].split()[3] if header and len(header[0].split()) > 3 else '?'
        core_arches = core_case_arches(args.core_cases) if args.core_cases else {}
        retried = dict(parse_ftracetest(lines, 'FTTRETRY| ')[0])
        jiffies_clock = any(TSC_UNSTABLE in ln for ln in lines)
        done = finished(lines)
        if not complete and done:
            t.add('failed', 'ftracetest completed', 'no summary: it was cut short')
        for key, res in got:
            want = exp.get(key)
            what = f'ftracetest {key}'
            if key.startswith(CORE_PREFIX):
                if res == 'PASS':
                    t.add('passed', what)
                elif res == 'UNSUPPORTED' and machine not in core_arches.get(key, {machine}):
                    t.add('skipped', what, f'UNSUPPORTED; the case is for {", ".join(sorted(core_arches[key]))} only')
                else:
                    t.add('failed', what, f'{res}; a project case of the core must PASS')
            elif res in PASSING:
                t.add('passed', what)
            elif args.nproc == 1 and key in SMP_ONLY and res == 'UNRESOLVED':
                t.add('skipped', what, 'UNRESOLVED: the case needs two CPUs, this guest has one')
            elif want is None:
                if res in ('UNSUPPORTED', 'UNTESTED'):
                    t.add('skipped', what, res)
                else:
                    t.add('failed', what, f'{res}; a project case must pass')
            elif jiffies_clock and key in SCHED_CLOCK_CASES:
                t.add('skipped', what, f'{res}; TSC marked unstable on this boot, '
                      'so sched_clock counts jiffies and cannot time latencies')
            elif want in PASSING and retried.get(key) in PASSING:
                t.add('passed', what, f'{res}, then {retried[key]} on its retry: '
                      'listed as flaky in expectations/ftt-flaky')
            elif want in PASSING:
                t.add('failed', what, f'{res}, upstream: {want}')
            else:
                t.add('skipped', what, f'{res}, upstream also {want}')
        for ln in lines:
            if ln.startswith('HARNESS: not run: '):
                t.add('skipped', f'ftracetest {ln[18:].strip()}',
                      'excluded by expectations/ftt-exclude.ARCH')
        names = {k for k, _ in got}
        # A guest cut short has failed once, above ("guest ran to the
        # end", with the cause); the cases it never reached are not
        # failures of their own.
        if not args.subset and done:
            for key in exp:
                if key not in names and not key.startswith(CORE_PREFIX):
                    t.add('failed', f'ftracetest {key}', 'did not run')
        if args.core_cases and done:
            for key in core_cases(args.core_cases):
                if key not in names:
                    t.add('failed', f'ftracetest {key}', 'a project case of the core did not run')
    if args.functions:
        judge_functions(t, lines, args.functions)
    if args.bench_smoke and finished(lines):
        judge_bench_smoke(t, lines)
    t.save(args.results)
    return 0 if t.counts['failed'] == 0 else 1


def core_case_arches(directory):
    """{description: set of uname -m values} for the project's cases that
    name their machines ("# arches: x86_64 aarch64"); a case of another
    machine may be UNSUPPORTED there."""
    out = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith('.tc'):
            continue
        desc, arches = None, None
        with open(os.path.join(directory, name), errors='replace') as f:
            for line in f:
                m = re.match(r'^#[ \t]*description:(.*)$', line)
                if m:
                    desc = ' '.join(m.group(1).split())
                m = re.match(r'^#[ \t]*arches:(.*)$', line)
                if m:
                    arches = set(m.group(1).split())
        if desc and arches:
            out[desc] = arches
    return out


def core_cases(directory):
    """The descriptions ("ftrace-core: ...") of the project's cases in
    @directory, as ftracetest prints them (whitespace collapsed)."""
    keys = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith('.tc'):
            continue
        with open(os.path.join(directory, name), errors='replace') as f:
            for line in f:
                m = re.match(r'^#[ \t]*description:(.*)$', line)
                if m:
                    key = ' '.join(m.group(1).split())
                    if key.startswith(CORE_PREFIX):
                        keys.append(key)
                    break
    return keys


def judge_finished_clean(t, lines, kernel):
    """Two results: the guest printed "HARNESS: done", and none of the
    @kernel lines (the console without the harness's own) is an oops,
    BUG, WARNING, panic, stall or lockup."""
    check_finished(t, lines)
    check_log_clean(t, kernel, ())


def drop_provoked_warning(lines, where='ftrace_patch_failed'):
    """@lines without the first WARNING raised in @where, and the "cut here"
    line (and WARN()'s message) before it: the one report the bootcheck boot provokes on
    purpose by damaging a call site (harness/guest/bootcheck.sh).  Any other
    WARNING, or a second one, stays."""
    for i, ln in enumerate(lines):
        if 'WARNING:' in ln and where in ln:
            # "cut here", then WARN()'s message, then the WARNING line.
            start = i
            for j in (i - 1, i - 2):
                if j >= 0 and 'cut here' in lines[j]:
                    start = j
                    break
            return lines[:start] + lines[i + 1:]
    return lines


def bootcheck(args):
    """A harness=bootcheck boot: finished, clean (but for the one WARNING
    its damaged call site provokes), and its CHECK| lines."""
    t = Tally(args.name)
    lines = list(console_lines(args.log))
    judge_finished_clean(t, lines, drop_provoked_warning([ln for ln in lines if not ln.startswith(
        ('CHECK|', 'HARNESS', 'bootcheck:'))]))
    checks = [m for m in map(CHECK_LINE.match, lines) if m]
    if not checks:
        t.add('failed', f'{args.what} checks', 'no CHECK| lines in the console log')
    for m in checks:
        if m.group(1) == 'PASS':
            t.add('passed', f'{args.what}: {m.group(2)}')
        else:
            t.add('failed', f'{args.what}: {m.group(2)}', m.group(3) or '')
    t.save(args.results)
    return 0 if t.counts['failed'] == 0 else 1


KST_RAN = re.compile(r'^HARNESS: kselftest ran (\d+) scripts')
KST_LINE = re.compile(r'^KST\| (PASS|FAIL|SKIP) (\S+)(?: rc=(\d+))?(?: seconds=([0-9.]+))?')


def parse_kselftest(lines):
    """[(DIR/SCRIPT, result, seconds or None)] from the KST| lines."""
    out = []
    for ln in lines:
        m = KST_LINE.match(ln)
        if m:
            out.append((m.group(2), m.group(1),
                        float(m.group(4)) if m.group(4) else None))
    return out


def kselftest(args):
    """A harness=kselftest boot against upstream's results."""
    t = Tally(args.name)
    lines = list(console_lines(args.log))
    # The console (quiet during the tests) and the kernel log the guest
    # printed at the end; the scripts' own output is not the kernel's.
    judge_finished_clean(t, lines, [
        STAMP.sub('', ln[7:]) if ln.startswith('DMESG| ') else ln
        for ln in lines if not ln.startswith(('KST', 'HARNESS'))])
    if not os.path.exists(args.expect):
        t.add('failed', 'kselftest expectations', f'{args.expect} missing')
        t.save(args.results)
        return 1
    exp = read_expectations(args.expect)
    got = parse_kselftest(lines)
    if not got:
        t.add('failed', 'kselftest', 'no KST| results in the console log')
    for key, res, secs in got:
        want = exp.get(key)
        what = f'kselftest {key}' + (f' ({secs:.0f} s)' if secs is not None else '')
        if res == 'PASS':
            t.add('passed', what)
        elif want == 'PASS':
            t.add('failed', what, f'{res}, upstream: PASS')
            for ln in lines:
                if ln.startswith(f'KSTOUT| {key}: '):
                    print('     | ' + ln[len(f'KSTOUT| {key}: '):])
        elif want is None:
            t.add('failed', what, f'{res}; not in {os.path.basename(args.expect)}')
        else:
            t.add('skipped', what, f'{res}, upstream also {want}')
    names = {k for k, _, _ in got}
    for key, want in exp.items():
        if key not in names and want == 'PASS':
            t.add('failed', f'kselftest {key}', 'did not run (upstream: PASS)')
    t.save(args.results)
    return 0 if t.counts['failed'] == 0 else 1


def kselftest_expect(args):
    lines = list(console_lines(args.log))
    got = parse_kselftest(lines)
    if not got:
        sys.exit(f'check.py: {args.log}: no KST| results')
    # Only a whole run makes expectations: the guest finished and ran as
    # many scripts as it reported.
    ran = [m for m in map(KST_RAN.match, lines) if m]
    if (not finished(lines) or not ran
            or int(ran[-1].group(1)) != len(got)):
        sys.exit(f'check.py: {args.log}: the kselftest run is incomplete')
    summary = collections.Counter(res for _, res, _ in got)
    with open(args.out + '.tmp', 'w') as f:
        f.write('# kselftest results (selftests of in-tree ftrace users) of the\n'
                '# unmodified kernel (FLAVOR=upstream): `make expectations ARCH=%s`.\n'
                '# make check requires ours to pass every script marked PASS here.\n' % args.arch)
        f.write(f'# base: Linux {args.base}; arch: {args.arch}; '
                f'measured: {datetime.date.today().isoformat()}; '
                f'run time (boot and tests, wall clock, TCG): {args.seconds} s\n')
        f.write('# ' + ', '.join(f'{k} {v}' for k, v in sorted(summary.items())) + '\n')
        for key, res, secs in got:
            f.write(f'{res}\t{key}\n')
    os.replace(args.out + '.tmp', args.out)
    print(f'check.py: wrote {args.out}: ' +
          ', '.join(f'{k} {v}' for k, v in sorted(summary.items())))
    return 0


# What ftbench (harness/guest/ftbench.c) reports; make bench tabulates it.
BENCH_METRICS = (
    'boot_to_bench', 'records', 'record_bytes_per_record',
    'read_available_filter_functions', 'syscall_tracing_off',
    'enable_function_all', 'syscall_function_all',
    'syscall_function_all_plus_filtered_instance', 'disable_function_all',
    'syscall_function_graph_all', 'set_filter_1000_names',
    'set_filter_glob_lock', 'clear_filter', 'set_filter_glob_none',
    'read_available_filter_functions_modules', 'set_filter_glob_lock_modules')


def parse_bench(lines):
    """The BENCH| lines: ({metric: value}, error or None, finished)."""
    got, err, done = {}, None, False
    for ln in lines:
        if not ln.startswith('BENCH| '):
            continue
        f = ln[7:].split()
        if f[0] == 'done':
            done = True
        elif f[0] == 'error':
            err = ' '.join(f[1:])
        elif len(f) >= 2:
            got[f[0]] = float(f[1])
    return got, err, done


def judge_bench_smoke(t, lines):
    got, err, done = parse_bench(lines)
    missing = [m for m in BENCH_METRICS if m not in got]
    if err or not done or missing:
        t.add('failed', 'benchmark smoke run',
              err or (f'missing {", ".join(missing)}' if missing else 'no "done"'))
    else:
        t.add('passed', f'benchmark smoke run ({len(got)} metrics)')


INVALID = '__ftrace_invalid_address___'


def booted_functions(lines):
    """available_filter_functions as the guest printed it ("AFF| " lines)."""
    return [ln[5:].strip() for ln in lines if ln.startswith('AFF| ')]


def judge_functions(t, lines, path):
    """Ours must trace every function upstream traces and no other.

    Upstream's list also holds records of overridden weak functions: on
    x86_64 as __ftrace_invalid_address___N, on arm64 under the name of the
    function before them (a second entry for that name).  Ours drops those
    records, so it may list a name fewer times than upstream, never more,
    and never leave a name out.
    """
    got = collections.Counter(booted_functions(lines))
    if not os.path.exists(path):
        t.add('failed', 'traceable functions', f'{path} missing')
        return
    with open(path) as f:
        want = collections.Counter(ln.strip() for ln in f
                                   if ln.strip() and not ln.startswith('#'))
    invalid = sum(n for k, n in want.items() if k.startswith(INVALID))
    want = collections.Counter({k: n for k, n in want.items()
                                if not k.startswith(INVALID)})
    if not got:
        t.add('failed', 'traceable functions', 'no AFF| lines in the console log')
        return
    ours_invalid = sum(n for k, n in got.items() if k.startswith(INVALID))
    if ours_invalid:
        t.add('failed', 'no invalid call-site records',
              f'{ours_invalid} {INVALID}N entries')
    else:
        t.add('passed', 'no invalid call-site records',
              f'upstream has {invalid}')
    # Names a config only ours can build adds or renames (direct calls on
    # arm64 compile kernel/bpf/trampoline.c differently): each one declared,
    # with its reason, in functions-delta.ARCH.txt beside the list.
    delta = os.path.join(os.path.dirname(path),
                         os.path.basename(path).replace('functions.', 'functions-delta.', 1))
    if os.path.exists(delta):
        with open(delta) as f:
            for ln in f:
                ln = ln.strip()
                if ln.startswith('+'):
                    want[ln[1:]] = max(want[ln[1:]], got[ln[1:]])
                elif ln.startswith('-'):
                    want.pop(ln[1:], None)
    extra = got - want
    gone = sorted(k for k in want if k not in got)
    if extra or gone:
        t.add('failed', 'traceable functions match upstream\'s',
              f'{sum(extra.values())} extra (first: {sorted(extra)[:3]}), '
              f'{len(gone)} missing (first: {gone[:3]})')
    else:
        fewer = sum((want - got).values())
        t.add('passed', 'traceable functions match upstream\'s',
              f'{len(got)} names, {sum(got.values())} entries; '
              f'{fewer} duplicate entries fewer')


def functions(args):
    names = booted_functions(list(console_lines(args.log)))
    if not names:
        sys.exit(f'check.py: {args.log}: no available_filter_functions in it')
    with open(args.out + '.tmp', 'w') as f:
        f.write('# available_filter_functions of the unmodified kernel (FLAVOR=upstream)\n'
                f'# at boot, {args.arch}, Linux {args.base}; sorted. `make expectations`\n'
                f'# writes it; make check compares ours with it.\n')
        f.write('\n'.join(sorted(names)) + '\n')
    os.replace(args.out + '.tmp', args.out)
    print(f'check.py: wrote {args.out}: {len(names)} functions, '
          f'{sum(n.startswith(INVALID) for n in names)} invalid')
    return 0


def expect(args):
    got, complete = parse_ftracetest(console_lines(args.log))
    if not complete or not got:
        sys.exit(f'check.py: {args.log}: ftracetest did not complete')
    summary = {}
    for _, res in got:
        summary[res] = summary.get(res, 0) + 1
    with open(args.out + '.tmp', 'w') as f:
        f.write('# ftracetest results of the unmodified kernel (FLAVOR=upstream) in\n'
                '# this harness: `make expectations ARCH=%s`. make check requires ours\n'
                '# to pass every case marked PASS or XFAIL here.\n' % args.arch)
        f.write(f'# base: Linux {args.base}; arch: {args.arch}; '
                f'measured: {datetime.date.today().isoformat()}; '
                f'run time (boot and ftracetest, wall clock, TCG): {args.seconds} s\n')
        f.write('# ' + ', '.join(f'{k} {v}' for k, v in sorted(summary.items())) +
                f'; {len(got)} cases\n')
        for key, res in got:
            f.write(f'{res}\t{key}\n')
    os.replace(args.out + '.tmp', args.out)
    print(f'check.py: wrote {args.out}: ' +
          ', '.join(f'{k} {v}' for k, v in sorted(summary.items())))
    return 0


def total(args):
    sums = {'passed': 0, 'failed': 0, 'skipped': 0}
    names = sorted(os.listdir(args.dir)) if os.path.isdir(args.dir) else []
    for name in names:
        with open(os.path.join(args.dir, name)) as f:
            for line in f:
                words = line.split()
                if len(words) != 2 or words[0] not in sums or not words[1].isdigit():
                    # A stray file here must not hide the other counts.
                    sums['failed'] += 1
                    print(f'FAIL total: {name}: not a count line: {line.strip()!r}')
                    break
                sums[words[0]] += int(words[1])
    if not names:
        sums['failed'] += 1
        print('FAIL total: no results at all')
    print(f"{sums['passed']} passed, {sums['failed']} failed, {sums['skipped']} skipped")
    return 1 if sums['failed'] or not sums['passed'] else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest='cmd', required=True)
    j = sub.add_parser('judge')
    j.add_argument('--name', required=True)
    j.add_argument('--log', required=True)
    j.add_argument('--expect')
    j.add_argument('--subset', action='store_true')
    j.add_argument('--nproc', type=int, default=0,
                   help='the guest must have exactly this many CPUs (default: two or more)')
    j.add_argument('--kunit', action='store_true')
    j.add_argument('--functions')
    j.add_argument('--bench-smoke', action='store_true')
    j.add_argument('--core-cases')
    j.add_argument('--results', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'results'))
    b = sub.add_parser('bootcheck')
    b.add_argument('--name', required=True)
    b.add_argument('--log', required=True)
    b.add_argument('--what', default='boot parameters',
                   help='what the CHECK| lines check, for the result names')
    b.add_argument('--results', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'results'))
    e = sub.add_parser('expect')
    for a in ('--log', '--out', '--arch', '--base', '--seconds'):
        e.add_argument(a, required=True)
    fn = sub.add_parser('functions')
    for a in ('--log', '--out', '--arch', '--base'):
        fn.add_argument(a, required=True)
    k = sub.add_parser('kselftest')
    for a in ('--name', '--log', '--expect'):
        k.add_argument(a, required=True)
    k.add_argument('--results', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'results'))
    ke = sub.add_parser('kselftest-expect')
    for a in ('--log', '--out', '--arch', '--base', '--seconds'):
        ke.add_argument(a, required=True)
    t = sub.add_parser('total')
    t.add_argument('dir')
    args = p.parse_args()
    return {'judge': judge, 'expect': expect, 'functions': functions,
            'bootcheck': bootcheck, 'total': total, 'kselftest': kselftest,
            'kselftest-expect': kselftest_expect}[args.cmd](args)


if __name__ == '__main__':
    sys.exit(main())
