"""Small helpers shared by the host tests."""


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def read_counts(path):
    """A results file of harness/check.py: "passed N" lines, as a dict."""
    with open(path) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}
