#!/usr/bin/env python3
"""The differential battery's host side: normalise and compare what the
scenarios of harness/guest/diff.sh printed on two kernels.

  diff.py extract LOG [--out FILE]
      The "DIFF| " lines of a console log (or an expectations file as
      written by expect), normalised, one "== SCENARIO" line before each
      scenario's lines.
  diff.py compare --ours A --stock B --known FILE --arch ARCH --name NAME
                  [--results DIR]
      One result per scenario of either side, as harness/check.py's judge
      prints them and with its results file (check.py total sums it): a
      scenario whose normalised lines are the same on both sides passes; one
      that differs fails with a unified diff, unless FILE lists it for ARCH
      (or "*") with a reason: then it passes as a documented difference.  A
      listed scenario that no longer differs fails (a stale entry), and so
      does a scenario missing on either side.  A and B are console logs or
      expectations files; for a console log of ours, two more results: the
      guest ran to the end, and its kernel log is clean.
  diff.py expect --log LOG --out FILE --arch ARCH --base V
      Write FILE (expectations/diff.ARCH.txt) from a boot of the unmodified
      kernel, with a header naming the base, the date and the battery's
      version.
"""
import argparse
import datetime
import difflib
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check  # noqa: E402

PREFIX = 'DIFF| '
BATTERY = os.path.join(HERE, 'guest', 'diff.sh')
HEADER = re.compile(r'^== (\S+)\s*$')
# What differs between boots or builds for reasons that do not matter.
# Order matters: hex words before the numbers inside them.
NORMALISE = [
    (re.compile(r'0x[0-9a-fA-F]+'), 'ADDR'),
    (re.compile(r'\b[0-9a-fA-F]{16}\b'), 'ADDR'),
    # Trace timestamps ("12.345678:") and task-pid columns ("cat-123").
    (re.compile(r'\b\d+\.\d{6}:'), 'TS:'),
    (re.compile(r'(\S)-\d+(\s+\[\d+\])'), r'\1-PID\2'),
    # CPU columns of trace lines ("[001]").
    (re.compile(r'\[\d{3}\]'), '[CPU]'),
    # An ops' trampoline: ours names it in %pS as /proc/kallsyms lists it
    # (both kernels), 6.1's %pS does not look trampolines up.
    (re.compile(r'ftrace_trampoline\+ADDR/ADDR \[__builtin__ftrace\]'), 'ADDR'),
]
# 6.1 lists call sites it could not name under these names; ours drops
# them.  Their count follows the build, so the lines are left out.
INVALID = re.compile(r'__ftrace_invalid_address___\d+')


def normalise(line):
    line = line.rstrip()
    for pattern, repl in NORMALISE:
        line = pattern.sub(repl, line)
    return line


def scenarios_of_log(lines):
    """{scenario: [normalised lines]} and the order seen, from the DIFF|
    lines of a console log."""
    out, order, cur = {}, [], None
    for line in lines:
        if not line.startswith(PREFIX):
            continue
        line = line[len(PREFIX):]
        m = HEADER.match(line)
        if m:
            cur = m.group(1)
            # A scenario printed twice (a rerun) keeps its first output.
            if cur in out:
                cur = None
                continue
            out[cur] = []
            order.append(cur)
            continue
        if cur is None or INVALID.search(line):
            continue
        out[cur].append(normalise(line))
    return out, order


def scenarios_of_text(lines):
    """The same from extracted text: comment lines before the first
    scenario are the header."""
    out, order, cur = {}, [], None
    for line in lines:
        line = line.rstrip('\n')
        m = HEADER.match(line)
        if m:
            cur = m.group(1)
            out[cur] = []
            order.append(cur)
        elif cur is not None:
            out[cur].append(line)
    return out, order


def is_log(lines):
    return any(ln.startswith(PREFIX) for ln in lines)


def read(path):
    """(scenarios, order, console lines or None) of a log or a text file."""
    lines = list(check.console_lines(path))
    if is_log(lines):
        return (*scenarios_of_log(lines), lines)
    return (*scenarios_of_text(lines), None)


def recorded_version(path):
    """The battery version in an expectations file's header, or None."""
    with open(path, errors='replace') as f:
        for line in f:
            if not line.startswith('#'):
                break
            m = re.search(r'diff\.sh: ([0-9a-f]+)', line)
            if m:
                return m.group(1)
    return None


def battery_version():
    with open(BATTERY, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()[:12]


def format_text(scen, order):
    return ''.join(f'== {s}\n' + ''.join(f'{ln}\n' for ln in scen[s]) for s in order)


def extract(args):
    scen, order, _ = read(args.log)
    if not order:
        sys.exit(f'diff.py: {args.log}: no scenarios in it')
    text = format_text(scen, order)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def read_known(path, arch):
    """{scenario: reason} of the known-differences file for ARCH.  Lines:
    SCENARIO<TAB>ARCH or *<TAB>reason; # starts a comment."""
    known = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 3 or not all(p.strip() for p in parts):
                raise ValueError(f'{path}:{n}: not SCENARIO<TAB>ARCH|*<TAB>reason: {line!r}')
            scenario, a, reason = (p.strip() for p in parts)
            if a in ('*', arch):
                known[scenario] = reason
    return known


def compare(args):
    t = check.Tally(args.name)
    ours, ours_order, ours_lines = read(args.ours)
    stock, stock_order, _ = read(args.stock)
    try:
        known = read_known(args.known, args.arch)
    except (OSError, ValueError) as e:
        t.add('failed', 'known differences file', str(e))
        known = {}
    if ours_lines is not None:
        check.check_finished(t, ours_lines)
        check.check_log_clean(t, ours_lines, ('DIFF|', 'HARNESS:'))
    # Expectations recorded by another version of the battery differ in
    # every scenario that changed: say why before the failures.
    recorded = recorded_version(args.stock)
    if recorded and recorded != battery_version():
        print(f'note: {args.stock} was recorded with another harness/guest/diff.sh '
              f'({recorded}, now {battery_version()}); '
              f'`make diff-expect ARCH={args.arch}` records it again')
    order = stock_order + [s for s in ours_order if s not in stock]
    if not order:
        t.add('failed', 'scenarios', 'no DIFF| scenario on either side')
    for s in order:
        if s not in ours or s not in stock:
            side = 'ours' if s not in ours else 'stock'
            t.add('failed', s, f'missing from {side}')
            continue
        if ours[s] == stock[s]:
            if s in known:
                t.add('failed', s, f'stale entry in {os.path.basename(args.known)}: '
                      f'no difference any more ({known[s]})')
            else:
                t.add('passed', s, f'{len(ours[s])} lines')
            continue
        if s in known:
            t.add('passed', s, f'documented difference: {known[s]}')
            continue
        t.add('failed', s, 'differs from 6.1 (- 6.1, + ours)')
        for ln in list(difflib.unified_diff(stock[s], ours[s], 'stock', 'ours',
                                            lineterm='', n=2))[2:]:
            print('     | ' + ln)
    for s in sorted(set(known) - set(order)):
        t.add('failed', s, f'{os.path.basename(args.known)} lists a scenario no side ran')
    t.save(args.results)
    return 1 if t.counts['failed'] else 0


def expect(args):
    scen, order, lines = read(args.log)
    if lines is None or not order:
        sys.exit(f'diff.py: {args.log}: no DIFF| lines in it')
    done = [ln for ln in lines if ln.startswith('HARNESS: diff rc=')]
    if done != ['HARNESS: diff rc=0'] or not check.finished(lines):
        sys.exit(f'diff.py: {args.log}: the battery did not complete ({done or "no rc"})')
    # 6.1's arm64 now and then fails a boot self test under TCG and shuts
    # ftrace off: such a boot records nothing worth comparing with.
    bad = [ln for ln in lines if not ln.startswith(('DIFF|', 'HARNESS:'))
           and (check.KERNEL_BAD.search(ln) or 'ftrace: ' in ln and 'fail' in ln.lower())]
    if bad:
        sys.exit(f'diff.py: {args.log}: the kernel log is not clean: {bad[0].strip()}')
    with open(args.out + '.tmp', 'w') as f:
        f.write('# make diff\'s scenarios (harness/guest/diff.sh) on the unmodified kernel\n'
                '# (FLAVOR=upstream), normalised by harness/diff.py: '
                f'`make diff-expect ARCH={args.arch}`.\n'
                f'# base: Linux {args.base}; arch: {args.arch}; '
                f'measured: {datetime.date.today().isoformat()}; '
                f'diff.sh: {battery_version()}; {len(order)} scenarios\n')
        f.write(format_text(scen, order))
    os.replace(args.out + '.tmp', args.out)
    print(f'diff.py: wrote {args.out}: {len(order)} scenarios')
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest='cmd', required=True)
    x = sub.add_parser('extract')
    x.add_argument('log')
    x.add_argument('--out')
    c = sub.add_parser('compare')
    for a in ('--ours', '--stock', '--known', '--arch', '--name'):
        c.add_argument(a, required=True)
    c.add_argument('--results', default=os.path.join(HERE, '..', 'build', 'results'))
    e = sub.add_parser('expect')
    for a in ('--log', '--out', '--arch', '--base'):
        e.add_argument(a, required=True)
    args = p.parse_args()
    return {'extract': extract, 'compare': compare, 'expect': expect}[args.cmd](args)


if __name__ == '__main__':
    sys.exit(main())
