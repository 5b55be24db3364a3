"""Small helpers shared by the host tests."""
import os
import subprocess
import tempfile


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def read_counts(path):
    """A results file of harness/check.py: "passed N" lines, as a dict."""
    with open(path) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


GUEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'guest')


def guest_sh(script, files=None):
    """Run @script in sh with the guest's KTAP library (harness/guest/
    ktap.sh) and the init's ftracetest converter (ftt_ktap) loaded, in a
    directory holding @files ({name: text}); its output."""
    with open(os.path.join(GUEST, 'init')) as f:
        init = f.read()
    start = init.index('ftt_ktap() {')
    conv = init[start:init.index('\n}\n', start) + 3]
    with tempfile.TemporaryDirectory() as d:
        for name, text in (files or {}).items():
            write(os.path.join(d, name), text)
        p = subprocess.run(['sh', '-c', f'. "{GUEST}/ktap.sh"\n{conv}\n{script}'],
                           cwd=d, env=dict(os.environ, TMPDIR=d),
                           capture_output=True, text=True, check=False)
    assert not p.stderr, p.stderr
    return p.stdout


def ftt_doc(log, excluded='', name='ftracetest'):
    """ftracetest.log text @log as the guest prints it: a KTAP document."""
    files = {'ftt.log': log}
    if excluded:
        files['excl'] = excluded
    return guest_sh(f'ftt_ktap {name} ftt.log {"excl" if excluded else ""}', files)
