#!/usr/bin/env python3
"""series.py: the project as a curated patch series against the pristine base.

The plan is series/NN-name, one file a patch, in order: RFC 822-style
headers, a blank line, then the commit message's body.  --base 6.12 (or
BASE=6.12) makes the series against Linux 6.12 instead: the plan is then
series/ with series/6.12/ over it (a file there replaces the one of the
same name or adds a step; series/6.12/omit names the steps 6.12 does not
take), and the patches, removals and skipped overlay files are those of
patches/6.12/.

  Subject:  the patch's subject line
  Files:    overlay files the patch adds or replaces (a path ending in /
            names every overlay file under it)
  Patches:  patches/ files (of patches/series) the patch applies
  Removes:  upstream files the patch deletes (of patches/removed)

A header may go on over lines that start with white space.  series/00-cover
is the cover letter: a Subject, then its text, where @BENCH@ becomes the
benchmark tables of docs/benchmarks.md.

Every overlay file, every patch of patches/series and every path of
patches/removed must be in exactly one patch of the plan, and the last
patch's tree must be the tree harness/kernel.sh builds (patches/series in
order, patches/removed deleted, the overlay on top): otherwise it fails.

The kernel history lives in a bare repository (build/series.git) whose
first commit is the pristine base.  Output: build/series/*.patch (the
deletions without their text, --irreversible-delete), and with --am DIR
the same series with full deletions, which git am can apply.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, 'build')
# Set by set_base(): the pristine tree, the kernel history, the base's
# patches directory and its name as the commit of the base says it.
BASE = GIT_DIR = PDIR = None
BASE_NAME = ''
OVERLAY_DIRS = 'arch Documentation include kernel lib scripts tools'.split()
HEADERS = ('Subject', 'Files', 'Patches', 'Removes')
DATE = '2026-01-01T00:00:00Z'


class PlanError(Exception):
    pass


def set_base(name):
    """The paths of one base: 6.1 (Debian 12's) or 6.12."""
    global BASE, GIT_DIR, PDIR, BASE_NAME
    if name not in ('6.1', '6.12'):
        raise PlanError('the base must be 6.1 or 6.12, not %r' % name)
    BASE = os.path.join(BUILD, 'base', 'linux-source-' + name)
    sfx = '' if name == '6.1' else '-' + name
    GIT_DIR = os.path.join(BUILD, 'series%s.git' % sfx)
    PDIR = 'patches' if name == '6.1' else 'patches/' + name
    BASE_NAME = name
    return sfx


def run(args, env=None, inp=None, cwd=None):
    r = subprocess.run(args, env=env, input=inp, cwd=cwd,
                       capture_output=True, text=True)
    if r.returncode:
        raise PlanError('%s: %s' % (' '.join(args[:3]), r.stderr.strip()))
    return r.stdout


def kgit(*args, index=None, inp=None, extra=None):
    """git on the kernel history (build/series.git)."""
    env = dict(os.environ, GIT_DIR=GIT_DIR)
    if index:
        env['GIT_INDEX_FILE'] = index
    env.update(extra or {})
    return run(['git'] + list(args), env=env, inp=inp)


class Source:
    """The project's files as of a commit (rev), or in the work tree."""

    def __init__(self, rev):
        self.rev = rev
        self.blobs = {}
        if rev:
            self.rev = run(['git', '-C', TOP, 'rev-parse', '--verify',
                            rev + '^{commit}']).strip()
            for ln in run(['git', '-C', TOP, 'ls-tree', '-r', '--full-tree',
                           self.rev]).split('\n'):
                if ln:
                    meta, path = ln.split('\t', 1)
                    mode, kind, sha = meta.split()
                    if kind == 'blob':
                        self.blobs[path] = (mode, sha)

    def exists(self, path):
        if self.rev:
            return path in self.blobs
        return os.path.isfile(os.path.join(TOP, path))

    def read(self, path):
        if self.rev:
            return run(['git', '-C', TOP, 'cat-file', 'blob',
                        self.blobs[path][1]])
        with open(os.path.join(TOP, path)) as f:
            return f.read()

    def listdir(self, d):
        if self.rev:
            return sorted({p[len(d) + 1:].split('/')[0] for p in self.blobs
                           if p.startswith(d + '/')})
        full = os.path.join(TOP, d)
        return sorted(os.listdir(full)) if os.path.isdir(full) else []

    def overlay_files(self):
        """The overlay files of the base's series: all but those it does
        not take (PDIR/overlay-skip)."""
        skip = set(self.listed(PDIR + '/overlay-skip'))
        if self.rev:
            return sorted(p for p in self.blobs
                          if p.split('/')[0] in OVERLAY_DIRS and p not in skip)
        out = run(['git', '-C', TOP, 'ls-files', '-co', '--exclude-standard',
                   '--'] + OVERLAY_DIRS)
        return sorted(f for f in out.split('\n')
                      if f and f not in skip and os.path.isfile(os.path.join(TOP, f)))

    def blob(self, path):
        """(mode, sha) of @path, its text written to the kernel history."""
        if path not in self.blobs:
            src = os.path.join(TOP, path)
            mode = '100755' if os.access(src, os.X_OK) else '100644'
            self.blobs[path] = (mode, kgit('hash-object', '-w', src).strip())
        return self.blobs[path]

    def listed(self, path):
        """Non-comment, non-blank lines of a file (none if it is absent)."""
        if not self.exists(path):
            return []
        return [ln.strip() for ln in self.read(path).split('\n')
                if ln.strip() and not ln.lstrip().startswith('#')]


SRC = None


def parse_plan_file(path):
    """One plan file: (headers dict of lists/strings, body text)."""
    text = SRC.read(path)
    head, sep, body = text.partition('\n\n')
    if not sep:
        raise PlanError('%s: no blank line after the headers' % path)
    fields, name = {}, None
    for ln in head.split('\n'):
        if ln[:1] in (' ', '\t') and name:
            fields[name] += ' ' + ln.strip()
            continue
        m = re.match(r'([A-Za-z]+):\s*(.*)$', ln)
        if not m or m.group(1) not in HEADERS:
            raise PlanError('%s: bad header line %r' % (path, ln))
        name = m.group(1)
        if name in fields:
            raise PlanError('%s: %s given twice' % (path, name))
        fields[name] = m.group(2).strip()
    if not fields.get('Subject'):
        raise PlanError('%s: no Subject' % path)
    step = {'name': os.path.basename(path), 'subject': fields['Subject'],
            'body': body.strip('\n')}
    for h in HEADERS[1:]:
        step[h.lower()] = fields.get(h, '').split()
    return step


def plan_files(plan_dir):
    """{step name: plan file}: plan_dir's, with the base's own directory
    (plan_dir/BASE, on a base other than 6.1) over them."""
    files = {n: plan_dir + '/' + n for n in SRC.listdir(plan_dir)
             if re.match(r'\d\d-', n)}
    if BASE_NAME == '6.1':
        return files
    own = plan_dir + '/' + BASE_NAME
    if not SRC.listdir(own):
        raise PlanError('%s: no plan of the base' % own)
    files.update({n: own + '/' + n for n in SRC.listdir(own)
                  if re.match(r'\d\d-', n)})
    for n in SRC.listed(own + '/omit'):
        if n not in files:
            raise PlanError('%s/omit: no step %s' % (own, n))
        del files[n]
    return files


def read_plan(plan_dir):
    files = plan_files(plan_dir)
    names = sorted(n for n in files if not n.startswith('00-'))
    if not names:
        raise PlanError('%s: no plan files' % plan_dir)
    return [parse_plan_file(files[n]) for n in names]


def assign(plan, files, patches, removed):
    """Give each step its files; fail unless everything is placed once."""
    errors, seen = [], {}
    for step in plan:
        mine = []
        for entry in step['files']:
            hit = [f for f in files
                   if f == entry or (entry.endswith('/') and f.startswith(entry))]
            if not hit:
                errors.append('%s: Files: %s names no overlay file' %
                              (step['name'], entry))
            mine += hit
        step['paths'] = sorted(set(mine))
        for kind, items in (('file', step['paths']), ('patch', step['patches']),
                            ('removal', step['removes'])):
            for it in items:
                if (kind, it) in seen:
                    errors.append('%s: %s %s is already in %s' %
                                  (step['name'], kind, it, seen[(kind, it)]))
                seen[(kind, it)] = step['name']
    for kind, items in (('file', files), ('patch', patches),
                        ('removal', removed)):
        for it in items:
            if (kind, it) not in seen:
                errors.append('no patch of the plan has the %s %s' % (kind, it))
    for step in plan:
        for p in step['patches']:
            if p not in patches:
                errors.append('%s: %s is not in %s/series' % (step['name'], p, PDIR))
        for r in step['removes']:
            if r not in removed:
                errors.append('%s: %s is not in %s/removed' % (step['name'], r, PDIR))
    # A patch applied out of patches/series order either applies cleanly
    # (-F0) or fails; the last tree is compared with kernel.sh's anyway.
    if errors:
        raise PlanError('\n'.join(errors))


def patch_targets(text):
    return [re.sub(r'^\+\+\+ [^/]*/', '', ln).split('\t')[0]
            for ln in text.split('\n') if ln.startswith('+++ ')]


def ensure_base():
    """The bare kernel history with the pristine tree as tag 'base'."""
    try:
        return kgit('rev-parse', '-q', '--verify', 'refs/tags/base').strip()
    except PlanError:
        pass
    print('series: indexing the pristine tree (once)', flush=True)
    shutil.rmtree(GIT_DIR, ignore_errors=True)
    run(['git', 'init', '-q', '--bare', GIT_DIR])
    idx = os.path.join(GIT_DIR, 'base.index')
    env = dict(os.environ, GIT_DIR=GIT_DIR, GIT_INDEX_FILE=idx, GIT_WORK_TREE=BASE)
    run(['git', 'add', '-A', '-f', '--', '.', ':!.unpacked'], env=env)
    tree = kgit('write-tree', index=idx).strip()
    ver = run(['make', '-s', '-C', BASE, 'kernelversion']).strip()
    c = kgit('-c', 'user.name=base', '-c', 'user.email=base@localhost',
             'commit-tree', tree, '-m',
             'Linux %s as shipped by Debian %s (linux-source-%s)' %
             (ver, '12' if BASE_NAME == '6.1' else '13', BASE_NAME),
             extra={'GIT_AUTHOR_DATE': DATE, 'GIT_COMMITTER_DATE': DATE}).strip()
    kgit('tag', '-f', 'base', c)
    return c


class TreeBuilder:
    """The kernel tree as patches, removals and overlay files are added.

    Changes wait in a list and reach the index together (flush()): git
    rewrites the whole index, over 70,000 entries, on every update."""

    def __init__(self, tmp):
        self.work = os.path.join(tmp, 'w')
        self.index = os.path.join(tmp, 'index')
        os.makedirs(self.work)
        kgit('read-tree', 'base', index=self.index)
        # (path, file to hash or None, (mode, sha) or None); neither: removed.
        self.pending = []

    def flush(self):
        """Write the waiting changes to the index, in order.  A patched
        file is hashed now, as the last patch so far left it: what each
        change in turn would have left in the index."""
        if not self.pending:
            return
        srcs = [src for _, src, _ in self.pending if src]
        shas = iter(kgit('hash-object', '-w', '--stdin-paths',
                         inp=''.join(f + '\n' for f in srcs)).split())
        lines = []
        for path, src, blob in self.pending:
            if src:
                mode = '100755' if os.access(src, os.X_OK) else '100644'
                blob = (mode, next(shas))
            elif not blob:
                blob = ('0', '0' * 40)  # a mode-0 entry removes a path
            lines.append('%s %s\t%s\n' % (blob + (path,)))
        kgit('update-index', '--add', '--index-info', index=self.index,
             inp=''.join(lines))
        self.pending = []

    def apply(self, name):
        text = SRC.read(PDIR + '/' + name)
        for f in patch_targets(text):
            dst = os.path.join(self.work, f)
            if not os.path.exists(dst) and os.path.isfile(os.path.join(BASE, f)):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy(os.path.join(BASE, f), dst)
        r = subprocess.run(['patch', '-s', '-p1', '-d', self.work,
                            '--no-backup-if-mismatch', '-F0'],
                           input=text, capture_output=True, text=True)
        if r.returncode:
            raise PlanError('%s does not apply: %s' %
                            (name, r.stdout + r.stderr))
        for f in patch_targets(text):
            if not os.path.isfile(os.path.join(self.work, f)):
                raise PlanError('%s leaves no %s (a patch may not delete a '
                                'file: %s/removed does)' % (name, f, PDIR))
            self.pending.append((f, os.path.join(self.work, f), None))

    def remove(self, path):
        self.flush()
        if not kgit('ls-files', '--', path, index=self.index).strip():
            raise PlanError('%s/removed: no %s in the tree' % (PDIR, path))
        self.pending.append((path, None, None))

    def overlay(self, path):
        # Each overlay file is read once, so both trees see the same text.
        self.pending.append((path, None, SRC.blob(path)))

    def tree(self):
        self.flush()
        return kgit('write-tree', index=self.index).strip()


def reference_tree(files, patches, removed):
    """The tree harness/kernel.sh builds for the ours flavor."""
    with tempfile.TemporaryDirectory() as tmp:
        tb = TreeBuilder(tmp)
        for p in patches:
            tb.apply(p)
        for r in removed:
            tb.remove(r)
        for f in files:
            tb.overlay(f)
        return tb.tree()


def author():
    name = run(['git', '-C', TOP, 'log', '-1', '--format=%an']).strip()
    mail = run(['git', '-C', TOP, 'log', '-1', '--format=%ae']).strip()
    return name, mail


def commit_steps(plan):
    name, mail = author()
    env = {'GIT_AUTHOR_NAME': name, 'GIT_AUTHOR_EMAIL': mail,
           'GIT_COMMITTER_NAME': name, 'GIT_COMMITTER_EMAIL': mail,
           'GIT_AUTHOR_DATE': DATE, 'GIT_COMMITTER_DATE': DATE}
    parent = kgit('rev-parse', 'base').strip()
    with tempfile.TemporaryDirectory() as tmp:
        tb = TreeBuilder(tmp)
        prev = kgit('rev-parse', 'base^{tree}').strip()
        for step in plan:
            for p in step['patches']:
                tb.apply(p)
            for r in step['removes']:
                tb.remove(r)
            for f in step['paths']:
                tb.overlay(f)
            tree = tb.tree()
            if tree == prev:
                raise PlanError('%s changes nothing' % step['name'])
            msg = '%s\n\n%s\n\nSigned-off-by: %s <%s>\n' % (
                step['subject'], step['body'], name, mail)
            parent = kgit('commit-tree', tree, '-p', parent, inp=msg,
                          extra=env).strip()
            prev = tree
    return parent, prev


def plain_table(md):
    """A Markdown table as aligned plain text (text columns left, numbers right)."""
    rows = []
    for ln in md.strip().split('\n'):
        cells = [c.strip().replace('&nbsp;', ' ') for c in ln.strip().strip('|').split('|')]
        if all(re.fullmatch(r':?-+:?', c) for c in cells):
            continue
        # Notes on when a figure was taken stay in docs/benchmarks.md.
        cells[0] = re.sub(r'\s*\([^)]*(UTC|\b[0-9a-f]{7}\b)[^)]*\)', '', cells[0])
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cols = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        out.append('  '.join(cols).rstrip())
    return '\n'.join(out)


def bench_tables():
    """The base's benchmark tables of docs/benchmarks.md, as text: on 6.1,
    those of the sections before "## Linux 6.12"; on 6.12, those of that
    section.  Each is titled by the paragraph before it: its bold words
    (or the section's heading) and the make command it names."""
    text = SRC.read('docs/benchmarks.md')
    cut = text.find('\n## Linux 6.12\n')
    if cut < 0:
        raise PlanError('docs/benchmarks.md: no "## Linux 6.12" section')
    text = text[:cut] if BASE_NAME == '6.1' else text[cut:]
    out, heading, title = [], 'Benchmarks', None
    for para in text.split('\n\n'):
        para = para.strip()
        if para.startswith('## '):
            heading = para.split('\n')[0][3:].strip()
        if para.startswith('|'):
            if title:
                out.append(title)
                out.append(plain_table(para))
            title = None
            continue
        bold = re.match(r'\*\*([^*]+)\*\*', para)
        cmd = re.search(r'`((?:RUNS=1 )?make bench[^`]*)`', para)
        if bold or cmd:
            title = bold.group(1) if bold else heading
            if cmd:
                title += ' (%s)' % cmd.group(1)
        else:
            title = None
    if not out:
        raise PlanError('docs/benchmarks.md: no benchmark tables found')
    return '\n\n'.join(out)


def write_cover(outdir, plan_dir):
    covers = [f for f in os.listdir(outdir) if f.startswith('0000-')]
    if len(covers) != 1:
        raise PlanError('no cover letter was written')
    step = parse_plan_file(plan_files(plan_dir)['00-cover'])
    body = step['body'].replace('@BENCH@', bench_tables())
    path = os.path.join(outdir, covers[0])
    with open(path) as f:
        text = f.read()
    if '*** SUBJECT HERE ***' not in text or '*** BLURB HERE ***' not in text:
        raise PlanError('unexpected cover letter template')
    text = text.replace('*** SUBJECT HERE ***', step['subject'])
    text = text.replace('*** BLURB HERE ***', body)
    with open(path, 'w') as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rev', default='HEAD',
                    help='the project commit to make the series of (HEAD)')
    ap.add_argument('--worktree', action='store_true',
                    help='the work tree as it is instead of a commit')
    ap.add_argument('--plan', default='series',
                    help='the plan directory, relative to the project')
    ap.add_argument('--base', default=os.environ.get('BASE', '6.1'),
                    help='the kernel the series applies to: 6.1 or 6.12 '
                    '(default: $BASE, else 6.1)')
    ap.add_argument('--out', help='where the patches go '
                    '(build/series, build/series-6.12)')
    ap.add_argument('--am', help='also write the series with full deletions here')
    ap.add_argument('--verify-only', action='store_true',
                    help='check the plan and the final tree, write no patches')
    a = ap.parse_args()
    global SRC
    try:
        sfx = set_base(a.base)
        out = a.out or os.path.join(BUILD, 'series' + sfx)
        SRC = Source(None if a.worktree else a.rev)
        files = SRC.overlay_files()
        patches = SRC.listed(PDIR + '/series')
        removed = SRC.listed(PDIR + '/removed')
        plan = read_plan(a.plan)
        assign(plan, files, patches, removed)
        ensure_base()
        # The project's objects, for blobs of a commit (no copy needed).
        alt = os.path.join(GIT_DIR, 'objects', 'info', 'alternates')
        with open(alt, 'w') as f:
            f.write(os.path.join(TOP, '.git', 'objects') + '\n')
        head, last = commit_steps(plan)
        ref = reference_tree(files, patches, removed)
        if last != ref:
            diff = kgit('diff-tree', '-r', '--stat', ref, last)
            raise PlanError('the last patch does not give the tree that '
                            'kernel.sh builds:\n' + diff)
        kgit('update-ref', 'refs/heads/series', head)
        print('series: %d patches of %s against %s; the last gives the ours '
              'tree (%s)' % (len(plan), SRC.rev[:12] if SRC.rev else
                             'the work tree', BASE_NAME, last[:12]))
        if a.verify_only:
            return 0
        shutil.rmtree(out, ignore_errors=True)
        kgit('format-patch', '-q', '--cover-letter', '--irreversible-delete',
             '--no-signature', '-o', out, 'base..series')
        write_cover(out, a.plan)
        if a.am:
            shutil.rmtree(a.am, ignore_errors=True)
            kgit('format-patch', '-q', '--no-signature', '-o', a.am, 'base..series')
        print('series: %s/' % os.path.relpath(out, TOP))
        for f in sorted(os.listdir(out)):
            print('  ' + f)
    except PlanError as e:
        print('series: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
