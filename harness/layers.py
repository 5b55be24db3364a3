#!/usr/bin/env python3
"""layers.py KERNEL_BUILD_DIR...: the core's files only call down.

The order of the layers is the file table at the top of
kernel/trace/ftrace_core.h, top layer first: the check and the
documentation cannot disagree.  For each built kernel given, every
kernel/trace/ftrace_*.o is read with nm (llvm-nm for the bitcode of an
LTO build): a file that refers to a symbol
(function or data) defined in a file of a higher layer fails, and so does
a core object the table does not name.  Objects a config does not build
are simply absent.  With no cycle possible once every edge points down,
this also shows the call graph of the core has no cycle.

--graph prints every edge (file -> file: symbols) instead of judging;
--header FILE reads the table from FILE (the host test's).
The last line is "N passed, N failed, N skipped".
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(TOP, "kernel/trace/ftrace_core.h")


def layer_order(header=HEADER):
    """File names of the header's table, top layer first: the rows of the
    first comment that start "ftrace_x.c" followed by a description."""
    names = []
    with open(header) as f:
        for line in f:
            if line.startswith(" */"):
                break
            m = re.match(r"^ \*   (ftrace_\w+)\.c +\S", line)
            if m:
                names.append(m.group(1))
    if not names:
        sys.exit(f"layers: no file table in {header}")
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"layers: {', '.join(sorted(dup))} twice in the table of {header}")
    return names


# LLVM bitcode, raw or in its wrapper: the objects of an LTO build.
BITCODE = (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")
LLVM_NM = "/usr/lib/llvm-16/bin/llvm-nm"


def nm_for(obj):
    """GNU nm, or for bitcode (VARIANT=clang builds with ThinLTO) LLVM's:
    Debian's GNU nm cannot read clang 16's bitcode and lists nothing."""
    with open(obj, "rb") as f:
        if f.read(4) not in BITCODE:
            return "nm"
    return LLVM_NM if os.path.exists(LLVM_NM) else "llvm-nm"


def symbols(obj):
    """(defined global names, undefined names) of one object."""
    out = subprocess.run([nm_for(obj), obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            # Undefined, or a weak reference that may stay unresolved.
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1].isupper() and parts[1] not in "UW":
            defined.add(parts[2])
        elif len(parts) == 3 and parts[1] in "VW":
            # A weak definition is still a definition of this file.
            defined.add(parts[2])
    return defined, undefined


def members(kdir):
    """The core objects kbuild linked into kernel/trace/built-in.a (a thin
    archive), so that an object a former config left behind is not read;
    empty if there is no archive."""
    arch = os.path.join(kdir, "kernel/trace/built-in.a")
    if not os.path.exists(arch):
        return []
    out = subprocess.run(["ar", "t", arch], capture_output=True, text=True,
                         check=True).stdout
    return [os.path.basename(m)[:-2] for m in out.split()
            if re.match(r"^ftrace_\w+\.o$", os.path.basename(m))]


def edges(kdir):
    """{(from, to): [symbols]} between the core objects of one build."""
    tdir = os.path.join(kdir, "kernel/trace")
    objs = sorted(members(kdir) or (f[:-2] for f in os.listdir(tdir)
                                    if re.match(r"^ftrace_\w+\.o$", f)))
    table = {o: symbols(os.path.join(tdir, o + ".o")) for o in objs}
    owner = {}
    for o, (defined, _) in table.items():
        for s in defined:
            owner.setdefault(s, o)
    result = {}
    for o, (_, undefined) in table.items():
        for s in sorted(undefined):
            d = owner.get(s)
            if d and d != o:
                result.setdefault((o, d), []).append(s)
    return objs, result


def main(argv):
    graph = "--graph" in argv
    header = HEADER
    if "--header" in argv:
        i = argv.index("--header")
        header = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    kdirs = [a for a in argv if a != "--graph"]
    if not kdirs:
        sys.exit(__doc__)
    order = layer_order(header)
    rank = {n: len(order) - i for i, n in enumerate(order)}
    passed = failed = 0
    for kdir in kdirs:
        name = os.path.basename(os.path.normpath(kdir))
        if not os.path.isdir(os.path.join(kdir, "kernel/trace")):
            print(f"FAIL layers {name}: no build at {kdir}")
            failed += 1
            continue
        try:
            objs, found = edges(kdir)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f"FAIL layers {name}: cannot read the objects: {e}")
            failed += 1
            continue
        if graph:
            for (a, b), syms in sorted(found.items()):
                print(f"{name}: {a} -> {b}: {' '.join(syms)}")
            continue
        for o in objs:
            if o not in rank:
                print(f"FAIL layers {name}: {o}.c is not in the table of "
                      "ftrace_core.h")
                failed += 1
                continue
            up = [(b, syms) for (a, b), syms in found.items()
                  if a == o and rank.get(b, 0) >= rank[o]]
            if up:
                for b, syms in up:
                    print(f"FAIL layers {name}: {o} calls up into {b}: "
                          f"{' '.join(syms)}")
                failed += 1
            else:
                down = sorted(b for (a, b) in found if a == o)
                print(f"ok   layers {name}: {o} -> {' '.join(down) or '-'}")
                passed += 1
    if not graph:
        print(f"{passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
