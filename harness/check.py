#!/usr/bin/env python3
"""Read a test guest's console log and judge it.

The guest reports every result as KTAP (docs/testing.md, "How results
travel"): KUnit's document at boot, and one document per guest script,
named by its "# harness: NAME" line (harness/guest/ktap.sh).  parse_ktap()
reads them all; every mode below judges through it.

  check.py judge --name NAME --log LOG [--expect FILE] [--subset] [--kunit]
                 [--core-cases DIR] [--unsupported-ok DESCRIPTION]...
      Print one line per result and add the counts to build/results/NAME.
      Results: the guest finished and really ran SMP; the kernel log holds
      no oops, BUG, WARNING or panic; each KUnit case; each case of the
      document "ftracetest" against the expectations file of the
      unmodified kernel, except the project's own cases (description
      "ftrace-core: ..."), which must PASS whatever the expectations say;
      with --core-cases, each of those in DIR (harness/ftt) must also have
      run.  --unsupported-ok names a project case that may be UNSUPPORTED
      on the judged build (one whose input that build lacks).
  check.py guest --name NAME --log LOG --doc DOC [--what W] [--kunit]
                 [--kunit-known FILE] [--no-console] [--summary] [--results DIR]
      Judge the boot of a guest check script (bootcheck, nodyncheck,
      smoke, stress): it finished, its kernel log is clean, and each result
      of its document DOC (a boot with none, or a document cut off or short
      of its plan, fails).
  check.py kselftest --name NAME --log LOG --expect FILE
      Judge a harness=kselftest boot (selftests of in-tree ftrace users,
      harness/guest/kselftest.sh): it finished, its kernel log is clean, and
      each result of the document "kselftest" against the upstream results
      in FILE: a script upstream passes must pass, and must have run.
  check.py kselftest-expect --log LOG --out FILE --arch A --base V --seconds N
      Write FILE from an upstream kselftest boot.
  check.py expect --log LOG --out FILE --arch A --base V --seconds N
      Write an expectations file from an upstream ftracetest run.
  check.py ftt-cases --log LOG
      make ftt: list the ftracetest cases and their results; exit 0 only
      if every one passed.
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

# A kernel message's timestamp, "[  542.275632]".
KSTAMP = r'\[\s*\d+\.\d+\]'
STAMP = re.compile('^' + KSTAMP + r'\s?')
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


# A kernel message that the console put at the end of a result line, its
# own line's start missing ("ok 141 name[  542.275632] random: ..."): not
# part of the result.
KMSG_TAIL = re.compile(KSTAMP + ' .*$')
KTAP_VERSION = re.compile(r'^(\s*)(?:KTAP|TAP) version \d+\s*$')
KTAP_PLAN = re.compile(r'^(\s*)1\.\.(\d+)\s*$')
KTAP_DIAG = re.compile(r'^(\s*)#(?: (.*))?$')
# Directives KTAP knows; another word after "#" is diagnostic data (our
# ftracetest documents use UNRESOLVED and UNDEFINED so).
DIRECTIVES = ('SKIP', 'TODO', 'XFAIL', 'TIMEOUT', 'ERROR')
# The diagnostic that names a document of the guest's scripts
# (harness/guest/ktap.sh); KUnit's has none.
HARNESS_DOC = re.compile(r'^# harness: (\S+)\s*$')


class Ktest:
    """A test of a KTAP document: its result line, the diagnostic lines
    before it, and for a test with subtests (a suite, a document) those
    and its plan.  A document is a Ktest too: its name is the one of its
    "# harness: NAME" line (None for KUnit's), its lines the indices of
    its KTAP lines in the console."""

    def __init__(self, name='', indent=0):
        self.name, self.indent = name, indent
        self.status = None	# 'ok' or 'not ok'; None: no result line seen
        self.directive = ''	# SKIP, XFAIL, ... or ''
        self.data = ''		# what follows the directive after "#"
        self.notes = []		# diagnostic lines before the result
        self.plan = None
        self.tests = []
        self.lines = []

    @property
    def kind(self):
        """ok, fail or skip (XFAIL and TODO are what ok or not ok says)."""
        if self.directive == 'SKIP':
            return 'skip'
        return 'fail' if self.status == 'not ok' else 'ok'

    def why(self):
        """The directive's text, else the first diagnostic line without
        the "NAME: " that harness/guest/ktap.sh puts in front."""
        if self.data:
            return self.data
        if self.notes:
            note = self.notes[0]
            return note[len(self.name) + 2:] if note.startswith(self.name + ': ') else note
        return ''


def parse_ktap(lines):
    """The KTAP documents in @lines, as Ktest trees.  A top-level version
    line starts a document; an indented one or a "# Subtest:" line opens a
    subtest, which the next result line less indented closes (the
    subtest's own result, as KUnit prints it).  Lines of no KTAP form
    (kernel messages between) are passed over."""
    docs, stack, notes = [], [], []

    def opened(indent, name=''):
        while len(stack) > 1 and stack[-1].indent >= indent:
            stack.pop()
        t = Ktest(name, indent)
        stack[-1].tests.append(t)
        stack.append(t)

    for i, line in enumerate(lines):
        m = KTAP_VERSION.match(line)
        if m and not m.group(1):
            docs.append(Ktest(None))
            stack, notes = [docs[-1]], []
            docs[-1].lines.append(i)
            continue
        if not stack:
            continue
        doc, top = stack[0], stack[-1]
        if m:
            opened(len(m.group(1)))
            doc.lines.append(i)
            continue
        m = KTAP_SUBTEST.match(line)
        if m:
            indent, name = len(m.group(1)), m.group(2).strip()
            if top is not doc and top.indent == indent and not top.name and not top.tests:
                top.name = name
            else:
                opened(indent, name)
            doc.lines.append(i)
            continue
        m = KTAP_PLAN.match(line)
        if m:
            for t in reversed(stack):
                if t.indent == len(m.group(1)):
                    if t.plan is None:
                        t.plan = int(m.group(2))
                    break
            doc.lines.append(i)
            continue
        m = KTAP_RESULT.match(KMSG_TAIL.sub('', line))
        if m:
            indent = len(m.group(1))
            closed = None
            while len(stack) > 1 and stack[-1].indent > indent:
                closed = stack.pop()
            t = closed or Ktest()
            if not closed:
                stack[-1].tests.append(t)
            t.status, t.notes, notes = m.group(2), notes, []
            t.name = m.group(4).strip() or t.name
            words = (m.group(5) or '').split(None, 1)
            if words and words[0].upper() in DIRECTIVES:
                t.directive, t.data = words[0].upper(), ' '.join(words[1:])
            else:
                t.data = ' '.join(words)
            doc.lines.append(i)
            continue
        m = KTAP_DIAG.match(line)
        if m:
            text = (m.group(2) or '').strip()
            h = HARNESS_DOC.match(line)
            if h and top is doc and not doc.tests:
                doc.name = h.group(1)
            else:
                notes.append(text)
            doc.lines.append(i)
    return docs


def ktap_problems(test, where=''):
    """Why @test's results are not whole: a subtest without its result
    line (cut off), fewer or more results than its plan, a document
    without a plan.  [] when whole."""
    out = []
    if where == '' and test.plan is None:
        out.append('the document: no plan')
    if test.plan is not None and len(test.tests) != test.plan:
        out.append(f'{where or "the document"}: {len(test.tests)} results, plan {test.plan}')
    for sub in test.tests:
        name = f'{where}.{sub.name}' if where else sub.name
        if sub.status is None:
            out.append(f'{name}: cut off, no result line')
        out += ktap_problems(sub, name)
    return out


def ktap_results(test, prefix=''):
    """[(dotted name, Ktest)] under @test: each leaf, and a subtest's own
    result where its cases do not tell it: none ran, or it failed (say, in
    the suite's init) and none of its cases did."""
    out = []
    for sub in test.tests:
        name = f'{prefix}.{sub.name}' if prefix else sub.name
        if sub.tests:
            inner = ktap_results(sub, name)
            out += inner
            if sub.status and sub.kind == 'fail' and not any(k.kind == 'fail' for _, k in inner):
                out.append((name, sub))
        elif sub.status:
            out.append((name, sub))
    return out


def harness_doc(docs, name):
    """The last document "# harness: NAME" (a guest's script), or None."""
    found = [d for d in docs if d.name == name]
    return found[-1] if found else None


def doc_results(doc):
    """A guest document's results, named without the document's name."""
    return [r for suite in doc.tests for r in ktap_results(suite)]


def harness_lines(docs):
    """Indices of the console lines that the guest's documents print (not
    KUnit's): the kernel log's checks leave them out."""
    return {i for d in docs if d.name for i in d.lines}


# ftracetest's result words in the guest's KTAP (ftt_ktap in
# harness/guest/init): ok is PASS, "# XFAIL" XFAIL, "# SKIP UNSUPPORTED"
# and "# SKIP UNTESTED" those, another SKIP a case not run on purpose;
# not ok is FAIL, or the word after "#" (UNRESOLVED, UNDEFINED).
FTT_WORDS = ('PASS', 'FAIL', 'UNRESOLVED', 'UNTESTED', 'UNSUPPORTED', 'XFAIL', 'UNDEFINED')


def ftt_word(k):
    first = (k.data.split() or [''])[0]
    if k.directive == 'SKIP':
        return first if first in FTT_WORDS else 'EXCLUDED'
    if k.status == 'ok':
        return 'XFAIL' if k.directive == 'XFAIL' else 'PASS'
    return first if first in FTT_WORDS else 'FAIL'


def parse_ftracetest(lines, doc='ftracetest', docs=None):
    """([(key, result)], complete, [excluded case paths]) from the KTAP
    document @doc (the retry of flaky cases: "ftracetest-retry").  The key
    is the case's description with whitespace collapsed, "#2" added to a
    second case of the same description; complete: the document is whole
    (its plan is ftracetest's own count, absent when ftracetest stopped
    before its summary)."""
    d = harness_doc(parse_ktap(lines) if docs is None else docs, doc)
    if d is None:
        return [], False, []
    out, seen, excluded = [], {}, []
    for name, k in doc_results(d):
        word = ftt_word(k)
        if word == 'EXCLUDED':
            excluded.append(name)
            continue
        key = ' '.join(name.split())
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key = f'{key} #{seen[key]}'
        out.append((key, word))
    return out, not ftt_problems(d), excluded


def ftt_problems(d):
    """Why an ftracetest document is not whole: ktap_problems(), and a
    plan missing (ftracetest stopped before its summary)."""
    return ktap_problems(d) + [f'{s.name}: no plan: ftracetest stopped before its summary'
                               for s in d.tests if s.plan is None]


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
    # ftracetest's own lines as it runs (the KTAP document comes after).
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
SELFTEST_END = re.compile(r'^(\s*(KTAP|TAP|ok |not ok |# )|FTT|HARNESS)')
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


def read_known(path):
    """{KUnit case: why} from expectations/kunit-known.ARCH ("suite.case
    why" lines): cases known to fail on that arch."""
    known = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for ln in f:
                words = ln.split(None, 1)
                if words and not words[0].startswith('#'):
                    known[words[0]] = (words[1:] or [''])[0].strip()
    return known


def judge_kunit(t, lines, docs, known_path=None):
    """Each KUnit case (the KTAP documents not of the guest's scripts),
    and that KUnit ran every suite it announced.  A case listed in
    @known_path that fails is a skip with the listed reason; one listed
    that passes is a failure (drop it from the list)."""
    known = read_known(known_path)
    results, problems = [], []
    for d in docs:
        if d.name is None:
            results += ktap_results(d)
            problems += ktap_problems(d)
    if not results:
        t.add('failed', 'kunit', 'no KTAP results in the console log')
    failing = set()
    for name, k in results:
        case = next((c for c in known if name == c or name.startswith(c + '.')), None)
        if k.kind == 'fail' and case:
            failing.add(case)
            t.add('skipped', f'kunit {name}', f'fails, known: {known[case]}')
        else:
            t.add({'ok': 'passed', 'fail': 'failed', 'skip': 'skipped'}[k.kind],
                  f'kunit {name}')
    for case in known:
        if case not in failing:
            t.add('failed', f'kunit {case}',
                  f'passes now: drop it from {os.path.basename(known_path)}')
    if results and problems and finished(lines):
        t.add('failed', 'kunit ran every suite', '; '.join(problems[:3]))


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

    docs = parse_ktap(lines)
    own = harness_lines(docs)
    check_log_clean(t, [ln for i, ln in enumerate(lines) if i not in own],
                    ('FTT', 'HARNESS', 'AFF|'))
    check_startup_tests(t, lines)

    if args.kunit:
        judge_kunit(t, lines, docs)

    if args.expect and not os.path.exists(args.expect):
        t.add('failed', 'ftracetest expectations', f'{args.expect} missing')
    elif args.expect:
        exp = read_expectations(args.expect)
        got, complete, excluded = parse_ftracetest(lines, docs=docs)
        # uname -m of the guest, and the arches core cases declare.
        machine = header[0].split()[3] if header and len(header[0].split()) > 3 else '?'
        core_arches = core_case_arches(args.core_cases) if args.core_cases else {}
        core_bases = core_case_arches(args.core_cases, 'bases') if args.core_cases else {}
        # The base the guest runs: "6.12" of "HARNESS: kernel 6.12.117 ...".
        kver = header[0].split()[2] if header and len(header[0].split()) > 2 else '?'
        kbase = '.'.join(kver.split('.')[:2])
        retried = dict(parse_ftracetest(lines, 'ftracetest-retry', docs)[0])
        jiffies_clock = any(TSC_UNSTABLE in ln for ln in lines)
        done = finished(lines)
        if not complete and done:
            d = harness_doc(docs, 'ftracetest')
            t.add('failed', 'ftracetest completed', '; '.join(ftt_problems(d)) if d else
                  'no KTAP document "ftracetest" in the console log')
        for key, res in got:
            want = exp.get(key)
            what = f'ftracetest {key}'
            if key.startswith(CORE_PREFIX):
                if res == 'PASS':
                    t.add('passed', what)
                elif res == 'UNSUPPORTED' and not case_runs_here(core_arches.get(key), machine, kbase):
                    t.add('skipped', what, f'UNSUPPORTED; the case is for {", ".join(sorted(core_arches[key]))} only')
                elif res == 'UNSUPPORTED' and kbase not in core_bases.get(key, {kbase}):
                    t.add('skipped', what, f'UNSUPPORTED; the case is for Linux {", ".join(sorted(core_bases[key]))} only')
                elif res == 'UNSUPPORTED' and key in (args.unsupported_ok or ()):
                    t.add('skipped', what, 'UNSUPPORTED; this build has nothing for it to test')
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
        for path in excluded:
            t.add('skipped', f'ftracetest {path}', 'excluded by expectations/ftt-exclude.ARCH[-VARIANT]')
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


def case_runs_here(arches, machine, kbase):
    """Whether a case that declares @arches (None: every machine) is for
    @machine on base @kbase: "aarch64" names a machine on every base,
    "aarch64@6.1" on that base only."""
    return arches is None or machine in arches or f'{machine}@{kbase}' in arches


def core_case_arches(directory, field='arches'):
    """{description: set of uname -m values} for the project's cases that
    name their machines ("# arches: x86_64 aarch64", or "aarch64@6.1" for
    one base: case_runs_here()); a case of another machine may be
    UNSUPPORTED there.  With field='bases', the bases a case
    is for ("# bases: 6.12"): on another base it may be UNSUPPORTED."""
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
                m = re.match(r'^#[ \t]*' + field + r':(.*)$', line)
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


def show_notes(k, limit=60):
    """A failed result's diagnostic lines, below its result line."""
    for note in k.notes[:limit]:
        print('     | ' + note)
    if len(k.notes) > limit:
        print(f'     | ... {len(k.notes) - limit} lines more')


def judge_doc(t, docs, name, what):
    """One result per result of the guest's KTAP document @name, and one
    failure if the document is not whole (cut off, results missing
    against its plan) or absent."""
    def label(key):
        return f'{what}: {key}' if what else key
    d = harness_doc(docs, name)
    if d is None:
        t.add('failed', label('checks'), f'no KTAP document "{name}" in the console log')
        return
    results = doc_results(d)
    if not results:
        t.add('failed', label('checks'), f'no results in the KTAP document "{name}"')
    for key, k in results:
        if k.kind == 'fail':
            t.add('failed', label(key), k.why())
            if len(k.notes) > 1:
                show_notes(k)
        else:
            t.add('passed' if k.kind == 'ok' else 'skipped', label(key), k.why())
    problems = ktap_problems(d)
    if problems:
        t.add('failed', label('every result reported'), '; '.join(problems[:3]))


def guest(args):
    """A boot of one of the guest's check scripts (harness=bootcheck,
    nodyncheck, smoke, stress): it finished, its kernel log is clean (but
    for the one WARNING the bootcheck boot's damaged call site provokes),
    KUnit with --kunit, and each result of its KTAP document."""
    t = Tally(args.name)
    lines = list(console_lines(args.log))
    docs = parse_ktap(lines)
    own = harness_lines(docs)
    if args.console:
        kernel = [ln for i, ln in enumerate(lines)
                  if i not in own and not ln.startswith(('HARNESS', f'{args.doc}:'))]
        if args.doc == 'bootcheck':
            kernel = drop_provoked_warning(kernel)
        judge_finished_clean(t, lines, kernel)
    else:
        check_finished(t, lines)
    if args.kunit:
        judge_kunit(t, lines, docs, args.kunit_known)
    judge_doc(t, docs, args.doc, args.doc if args.what is None else args.what)
    if args.results:
        t.save(args.results)
    if args.summary:
        print(f"{t.counts['passed']} passed, {t.counts['failed']} failed, "
              f"{t.counts['skipped']} skipped")
    return 0 if t.counts['failed'] == 0 else 1


def parse_kselftest(lines):
    """([(DIR/SCRIPT, result, seconds or None, Ktest)], complete) from the
    KTAP document "kselftest": PASS, SKIP or FAIL as kselftest's runner
    says them; the seconds from the "DIR/SCRIPT: rc=N seconds=S" line."""
    d = harness_doc(parse_ktap(lines), 'kselftest')
    if d is None:
        return [], False
    out = []
    for key, k in doc_results(d):
        secs = [m.group(1) for n in k.notes for m in [re.search(r'\bseconds=([0-9.]+)', n)] if m]
        out.append((key, {'ok': 'PASS', 'skip': 'SKIP', 'fail': 'FAIL'}[k.kind],
                    float(secs[-1]) if secs else None, k))
    return out, not ktap_problems(d)


def kselftest(args):
    """A harness=kselftest boot against upstream's results."""
    t = Tally(args.name)
    lines = list(console_lines(args.log))
    # The console (quiet during the tests) and the kernel log the guest
    # printed at the end; the scripts' own output is not the kernel's.
    own = harness_lines(parse_ktap(lines))
    judge_finished_clean(t, lines, [
        STAMP.sub('', ln[7:]) if ln.startswith('DMESG| ') else ln
        for i, ln in enumerate(lines) if i not in own and not ln.startswith('HARNESS')])
    if not os.path.exists(args.expect):
        t.add('failed', 'kselftest expectations', f'{args.expect} missing')
        t.save(args.results)
        return 1
    exp = read_expectations(args.expect)
    got, complete = parse_kselftest(lines)
    if not got:
        t.add('failed', 'kselftest', 'no results in a KTAP document "kselftest"')
    elif not complete and finished(lines):
        t.add('failed', 'kselftest ran every script', 'fewer results than its plan, or cut off')
    for key, res, secs, k in got:
        want = exp.get(key)
        what = f'kselftest {key}' + (f' ({secs:.0f} s)' if secs is not None else '')
        if res == 'PASS':
            t.add('passed', what)
        elif want == 'PASS':
            t.add('failed', what, f'{res}, upstream: PASS')
            show_notes(k)
        elif want is None:
            t.add('failed', what, f'{res}; not in {os.path.basename(args.expect)}')
        else:
            t.add('skipped', what, f'{res}, upstream also {want}')
    names = {g[0] for g in got}
    for key, want in exp.items():
        if key not in names and want == 'PASS':
            t.add('failed', f'kselftest {key}', 'did not run (upstream: PASS)')
    t.save(args.results)
    return 0 if t.counts['failed'] == 0 else 1


def kselftest_expect(args):
    lines = list(console_lines(args.log))
    got, complete = parse_kselftest(lines)
    if not got:
        sys.exit(f'check.py: {args.log}: no kselftest results')
    # Only a whole run makes expectations: the guest finished, and its
    # document holds as many results as its plan.
    if not finished(lines) or not complete:
        sys.exit(f'check.py: {args.log}: the kselftest run is incomplete')
    summary = collections.Counter(g[1] for g in got)
    with open(args.out + '.tmp', 'w') as f:
        f.write('# kselftest results (selftests of in-tree ftrace users) of the\n'
                '# unmodified kernel (FLAVOR=upstream): `%s`.\n'
                '# make check requires ours to pass every script marked PASS here.\n'
                % expect_command(args))
        f.write(f'# base: Linux {args.base}; arch: {args.arch}; '
                f'measured: {datetime.date.today().isoformat()}; '
                f'run time (boot and tests, wall clock, TCG): {args.seconds} s\n')
        f.write('# ' + ', '.join(f'{k} {v}' for k, v in sorted(summary.items())) + '\n')
        for key, res, _, _ in got:
            f.write(f'{res}\t{key}\n')
    os.replace(args.out + '.tmp', args.out)
    print(f'check.py: wrote {args.out}: ' +
          ', '.join(f'{k} {v}' for k, v in sorted(summary.items())))
    return 0


def ftt_cases(args):
    """make ftt (harness/ftt.sh): each case of the console's ftracetest
    document with ftracetest's word, and whether every one passed."""
    got, complete, _ = parse_ftracetest(list(console_lines(args.log)))
    for i, (key, res) in enumerate(got, 1):
        print(f'[{i}] {key}\t[{res}]')
    passed = sum(res == 'PASS' for _, res in got)
    print(f'ftt: {passed} of {len(got)} passed' + ('' if complete else '; the run is not whole'))
    return 0 if got and complete and passed == len(got) else 1


# What ftbench (harness/guest/ftbench.c) reports; make bench tabulates it.
BENCH_METRICS = (
    'boot_to_bench', 'records', 'record_bytes_per_record',
    'read_available_filter_functions', 'syscall_tracing_off',
    'enable_function_all', 'syscall_function_all', 'syscall_function_all_tracing_off',
    'syscall_function_all_plus_filtered_instance', 'syscall_function_all_plus_100_ops',
    'disable_function_all',
    'syscall_function_graph_all', 'set_filter_1000_names',
    'set_filter_glob_lock', 'clear_filter', 'set_filter_glob_none',
    'read_available_filter_functions_modules', 'set_filter_glob_lock_modules',
    'read_available_filter_functions_wide', 'set_filter_glob_lock_wide', 'set_filter_mod_wide',
    'events_all_on', 'events_all_off')


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


def version_drift(lines, path):
    """A hint when the recorded list is of another release than the kernel.

    Debian updates linux-source-6.x to each stable release; a new one may
    add or drop traceable functions, on stock as on ours, and the list
    must then be recorded again from stock (make expectations).
    """
    with open(path) as f:
        rec = re.search(r'Linux (\d+\.\d+\.\d+)', f.read(4096))
    run = next((m for m in (re.search(r'Linux version (\d+\.\d+\.\d+)', ln)
                            for ln in lines) if m), None)
    if not rec or not run or rec.group(1) == run.group(1):
        return ''
    base = '' if run.group(1).startswith('6.1.') else 'BASE=6.12 '
    return (f'; the list is of Linux {rec.group(1)}, this kernel is '
            f'{run.group(1)}: record stock\'s again ({base}make expectations)')


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
              f'{len(gone)} missing (first: {gone[:3]})'
              + version_drift(lines, path))
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


def expect_command(args):
    """The make command that records these expectations: BASE= named
    for a base other than 6.1 (harness/lib.sh), VARIANT= for a variant
    build (VARIANT=clang)."""
    series = '.'.join(args.base.split('.')[:2])
    base = '' if series == '6.1' else f'BASE={series} '
    variant = f'VARIANT={os.environ["VARIANT"]} ' if os.environ.get('VARIANT') else ''
    return f'make expectations {base}{variant}ARCH={args.arch}'


def expect(args):
    got, complete, _ = parse_ftracetest(list(console_lines(args.log)))
    if not complete or not got:
        sys.exit(f'check.py: {args.log}: ftracetest did not complete')
    summary = {}
    for _, res in got:
        summary[res] = summary.get(res, 0) + 1
    with open(args.out + '.tmp', 'w') as f:
        f.write('# ftracetest results of the unmodified kernel (FLAVOR=upstream) in\n'
                '# this harness: `%s`. make check requires ours\n'
                '# to pass every case marked PASS or XFAIL here.\n' % expect_command(args))
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
    j.add_argument('--unsupported-ok', action='append', metavar='DESCRIPTION',
                   help='a project case that may be UNSUPPORTED on this build (repeatable)')
    j.add_argument('--results', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'results'))
    b = sub.add_parser('guest')
    b.add_argument('--name', required=True)
    b.add_argument('--log', required=True)
    b.add_argument('--doc', required=True, help='the name of the guest\'s KTAP document')
    b.add_argument('--what', help='what its results check, for their names (default: DOC)')
    b.add_argument('--kunit', action='store_true')
    b.add_argument('--kunit-known', help='KUnit cases known to fail (expectations/kunit-known.ARCH)')
    b.add_argument('--no-console', dest='console', action='store_false',
                   help='no check of the kernel log (the guest checked it)')
    b.add_argument('--summary', action='store_true',
                   help='end with "N passed, N failed, N skipped"')
    b.add_argument('--results', help='the directory of the counts (default: none kept)')
    fc = sub.add_parser('ftt-cases')
    fc.add_argument('--log', required=True)
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
            'guest': guest, 'ftt-cases': ftt_cases, 'total': total, 'kselftest': kselftest,
            'kselftest-expect': kselftest_expect}[args.cmd](args)


if __name__ == '__main__':
    sys.exit(main())
