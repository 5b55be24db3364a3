#!/usr/bin/env python3
"""symbols.py BASE TOP: does our core provide what the 6.1 tree needs of ftrace.c?

The old kernel/trace/ftrace.c is read for its interface only: the names of
its global (non-static) functions and variables and its EXPORT_SYMBOLs.  A
name is *needed* when it is exported, or when some other file of the
pristine tree (BASE) refers to it: calls it, takes its address, uses it in
an inline function or a macro of a header, or names it in assembly.  A file
that only declares the name (a prototype, an extern) or defines its own
copy (an arch overriding a __weak hook) does not need it.

Each needed name must be defined by our side (TOP): a global definition in
kernel/trace/ftrace_*.c (those the base takes: patches[/BASE]/overlay-skip
lists the others), or a static inline function or macro in a header we
ship or patch.  A needed function that ftrace.c defines must have, in one
of our definitions, the same signature: return type and parameter types,
parameter names and qualifiers such as notrace or __init aside.  Names that merely share a spelling with unrelated code
are listed in HOMONYMS below, each with the files where it appears; the
test fails if such a name turns up anywhere else, so the list cannot hide
a new user.

Prints one line per needed name and ends with "N passed, N failed, N
skipped" (make check's host-suite format).
"""
import os
import re
import subprocess
import sys

# Same spelling, different thing: a local variable or struct member that
# happens to be named like a global of ftrace.c.  name -> files allowed.
HOMONYMS = {
    'direct_ops': {'drivers/staging/media/imx/imx-media-vdic.c',
                   'fs/reiserfs/item_ops.c'},
}

IDENT = re.compile(r'[A-Za-z_]\w*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'typeof',
            '__attribute__', 'defined', 'do', 'else', 'case'}


def strip_comments(text, asm=False):
    """Blank out comments and string/char literals, keeping line breaks.
    In assembly a quote is not a literal ("don't" in a comment)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'' and not asm:
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def top_level(text):
    """Split C text into depth-0 pieces.

    Yields (kind, head, body_text, head_has_static) where kind is 'def'
    (head ends with '{' and the braces that follow are a function body or
    an initializer), 'decl' (ends with ';') or 'macro' (a #define).
    Preprocessor lines other than #define are dropped.
    """
    lines = strip_comments(text).split('\n')
    buf, pieces = [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith('#'):
            whole = line
            while whole.endswith('\\') and i + 1 < len(lines):
                i += 1
                whole = whole[:-1] + ' ' + lines[i]
            if re.match(r'\s*#\s*define\b', whole):
                pieces.append(('macro', whole, ''))
            i += 1
            continue
        buf.append(line)
        i += 1
    code = '\n'.join(buf)
    head_start = 0
    depth = 0
    body_start = None
    for pos, c in enumerate(code):
        if c == '{':
            if depth == 0:
                body_start = pos
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                head = code[head_start:body_start]
                body = code[body_start:pos + 1]
                pieces.append(('def', head, body))
                # "struct x y = { ... };" ends at the ';' that follows.
                head_start = pos + 1
        elif c == ';' and depth == 0:
            head = code[head_start:pos]
            pieces.append(('decl', head, ''))
            head_start = pos + 1
    return pieces


def defined_names(piece):
    """Names a depth-0 piece defines, with whether they are file-local."""
    kind, head, body = piece
    if kind == 'macro':
        m = re.match(r'\s*#\s*define\s+([A-Za-z_]\w*)', head)
        return [(m.group(1), False, 'macro')] if m else []
    words = head.split()
    static = 'static' in words
    if kind == 'def':
        if '(' in head and not head.rstrip().endswith('='):
            # A function: the identifier before the first '(' that is not
            # an attribute or macro wrapper of the return type.
            for m in re.finditer(r'([A-Za-z_]\w*)\s*\(', head):
                if m.group(1) not in KEYWORDS and not m.group(1).startswith('__attribute'):
                    inline = 'inline' in words or '__always_inline' in words
                    return [(m.group(1), static and not inline, 'inline' if inline else 'func')]
            return []
        m = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(__\w+\s*)*=\s*$', head)
        if m and not head.lstrip().startswith(('typedef', 'enum', 'struct ' + m.group(1))):
            return [(m.group(1), static, 'var')]
        return []
    if 'extern' in words or head.lstrip().startswith('typedef'):
        return []
    m = re.match(r'\s*DEFINE_(?:MUTEX|SPINLOCK|RAW_SPINLOCK|PER_CPU|STATIC_KEY_FALSE|'
                 r'STATIC_KEY_TRUE)\s*\(\s*(?:[^,()]+,\s*)?([A-Za-z_]\w*)\s*\)', head)
    if m:
        return [(m.group(1), static, 'var')]
    head = head.split('=', 1)[0]	# "type name = value": the name
    if '(' in head:
        return []	# a prototype
    m = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(__\w+\s*)*$', head)
    if m and re.match(r'\s*(const\s+|unsigned\s+|signed\s+)*(struct|enum|union|[a-z_]\w*)\b', head):
        return [(m.group(1), static, 'var')]
    return []


def upstream_interface(path):
    text = open(path, errors='replace').read()
    names, weak = {}, set()
    for piece in top_level(text):
        if 'static' in piece[1].split():
            continue	# static, static inline: file-local in a .c file
        for name, local, kind in defined_names(piece):
            if kind != 'macro':
                names[name] = kind
                if '__weak' in piece[1]:
                    weak.add(name)
    exports = set(re.findall(r'EXPORT_SYMBOL(?:_GPL)?\s*\(\s*(\w+)\s*\)', text))
    return names, exports, weak


def uses_in_file(text, names, is_asm, defines=None):
    """The subset of NAMES that the file refers to (not just declares or
    defines).  Names it defines (globally) are added to DEFINES."""
    found = set()
    if is_asm:
        code = strip_comments(text, asm=True)
        for name in names:
            for m in re.finditer(r'\b%s\b' % re.escape(name), code):
                after = code[m.end():m.end() + 2]
                line = code[code.rfind('\n', 0, m.start()) + 1:m.start()]
                if after.startswith(':') or re.search(r'SYM_\w*START\w*\(\s*$|ENTRY\(\s*$', line):
                    continue
                found.add(name)
                break
        return found
    for piece in top_level(text):
        kind, head, body = piece
        own = {n for n, _, _ in defined_names(piece)}
        if defines is not None and kind != 'macro' and 'static' not in head.split():
            defines |= own & names
        if kind == 'macro':
            rest = re.sub(r'^\s*#\s*define\s+\w+', '', head)
            found |= {w for w in IDENT.findall(rest) if w in names and w not in own}
            continue
        found |= {w for w in IDENT.findall(body) if w in names}
        if kind == 'def' or '=' in head:
            # Initializers and array sizes in the head: "x = &global_ops".
            tail = head.split('=', 1)[1] if '=' in head else ''
            found |= {w for w in IDENT.findall(tail) if w in names}
    return found


def scan_tree(base, names, skip):
    """Per name: the files that use it, and the files that define their
    own global copy (an arch overriding a __weak hook)."""
    users = {n: set() for n in names}
    overriders = {n: set() for n in names}
    pat = re.compile(r'\b(%s)\b' % '|'.join(sorted(map(re.escape, names))))
    # grep finds the candidate files quickly; Python then reads each one.
    grep = subprocess.run(
        ['grep', '-rlwF', '--include=*.c', '--include=*.h', '--include=*.S',
         '--include=*.lds*', '-f', '/dev/stdin', '.'],
        cwd=base, input='\n'.join(sorted(names)) + '\n', text=True,
        stdout=subprocess.PIPE, check=False)
    for rel in sorted(grep.stdout.split()):
        rel = os.path.normpath(rel)
        if rel in skip:
            continue
        f = os.path.basename(rel)
        text = open(os.path.join(base, rel), errors='replace').read()
        present = set(pat.findall(text))
        defines = set()
        for n in uses_in_file(text, present, f.endswith('.S') or '.lds' in f, defines):
            users[n].add(rel)
        for n in defines:
            overriders[n].add(rel)
    return users, overriders


# Words of a function's head that are not part of its type.
QUALIFIERS = {'static', 'inline', '__always_inline', 'notrace', '__init', '__weak',
              'noinline', '__maybe_unused', 'asmlinkage', '__visible', 'extern',
              '__cold', '__init_or_module', '__noreturn', '__must_check',
              'nokprobe_inline', '__used', '__ref', '__kprobes'}
PARAM_QUALIFIERS = {'const', 'volatile', 'register', 'restrict', '__restrict',
                    '__user', '__rcu', '__iomem', '__percpu', '__force'}
TYPE_WORDS = {'void', 'char', 'short', 'int', 'long', 'unsigned', 'signed', 'bool',
              '_Bool', 'float', 'double', 'struct', 'enum', 'union', 'const', '*'}


def norm_type(text):
    """A type written one way: single spaces, none around '*'."""
    text = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', text)
    text = ' '.join(w for w in text.split() if w not in QUALIFIERS)
    return re.sub(r'\s*\*\s*', '*', text).strip()


def param_type(param):
    """A parameter's type, without its name."""
    param = ' '.join(param.split())
    # A function pointer: "void (*func)(void)".
    param = re.sub(r'\(\s*\*\s*[A-Za-z_]\w*\s*\)', '(*)', param)
    m = re.match(r'^(.*[\s*])([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)$', param)
    # What comes before the last word must be a type on its own: not
    # empty, not just qualifiers ("const size_t" names no parameter), and
    # not "struct" waiting for its tag.
    if m and m.group(2) not in TYPE_WORDS and \
            [w for w in m.group(1).replace('*', ' * ').split() if w not in PARAM_QUALIFIERS] and \
            m.group(1).split()[-1] not in ('struct', 'enum', 'union'):
        param = m.group(1) + ('[]' if m.group(3) else '')
    return norm_type(param)


def signature(head, name):
    """'RET name(P1, P2)' of a function definition's head, or None."""
    head = ' '.join(head.split())
    m = re.search(r'\b%s\s*\(' % re.escape(name), head)
    if not m:
        return None
    depth, start, params = 1, m.end(), []
    for i in range(m.end(), len(head)):
        if head[i] == '(':
            depth += 1
        elif head[i] == ')':
            depth -= 1
        if depth == 1 and head[i] == ',' or depth == 0:
            params.append(head[start:i])
            start = i + 1
        if depth == 0:
            break
    params = [param_type(x) for x in params if x.strip()]
    return '%s %s(%s)' % (norm_type(head[:m.start()]), name, ', '.join(params))


def base_version(base):
    """'6.1', '6.12', ...: the base tree's VERSION.PATCHLEVEL, or None."""
    try:
        mk = open(os.path.join(base, 'Makefile'), errors='replace').read()
        return '.'.join(re.search(r'^%s = (\d+)' % k, mk, re.M).group(1)
                        for k in ('VERSION', 'PATCHLEVEL'))
    except (OSError, AttributeError):
        return None	# not a kernel tree (the host tests' miniature)


KBASE_COND = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$')


def kbase_value(kind, cond):
    """True/False for a condition on FTRACE_KBASE_612 alone (6.12 assumed
    true), None for any other condition."""
    cond = cond.strip()
    if kind in ('ifdef', 'ifndef'):
        if cond != 'FTRACE_KBASE_612':
            return None
        return kind == 'ifdef'
    m = re.fullmatch(r'(!?)\s*defined\s*\(?\s*FTRACE_KBASE_612\s*\)?', cond)
    return None if not m else not m.group(1)


def base_text(text, is612):
    """@text with the branches of #if FTRACE_KBASE_612 (and #ifdef,
    #ifndef, #elif of it) that the base does not build blanked out; every
    other conditional keeps all its branches."""
    out, stack, active = [], [], True
    for line in text.split('\n'):
        m = KBASE_COND.match(line)
        if not m:
            out.append(line if active else '')
            continue
        kind, cond = m.groups()
        if kind in ('if', 'ifdef', 'ifndef'):
            v = kbase_value(kind, cond)
            if v is not None and not is612:
                v = not v
            # (active before, a known branch was taken, all known so far)
            stack.append((active, v is True, v is not None))
            active = active and v is not False
        elif kind == 'elif' and stack:
            outer, taken, known = stack[-1]
            v = kbase_value('elif', cond)
            if v is not None and not is612:
                v = not v
            active = outer and not taken and v is not False
            stack[-1] = (outer, taken or v is True, known and v is not None)
        elif kind == 'else' and stack:
            outer, taken, known = stack[-1]
            active = outer and not taken
        elif kind == 'endif' and stack:
            active = stack.pop()[0]
        out.append('')
    return '\n'.join(out)


def base_skip(top, base):
    """Our files the base does not take (patches[/BASE]/overlay-skip)."""
    ver = base_version(base)
    if ver is None:
        return set()
    path = os.path.join(top, 'patches', 'overlay-skip' if ver == '6.1' else ver + '/overlay-skip')
    if not os.path.exists(path):
        return set()
    return {ln.strip() for ln in open(path) if ln.strip() and not ln.startswith('#')}


def our_definitions(top, base):
    """Global definitions of our core, plus inlines and macros of the
    headers we ship.  (The pristine headers' stubs for other configs do
    not count: they are not ours.)  Also which names our core calls, which
    of its definitions are __weak, and the signatures of its functions."""
    defs, calls, weak, sigs = {}, set(), set(), {}
    tdir = os.path.join(top, 'kernel/trace')
    skip = base_skip(top, base)
    is612 = base_version(base) == '6.12'
    for f in sorted(os.listdir(tdir)):
        if not (f.startswith('ftrace_') and f.endswith('.c')) or 'kunit' in f:
            continue
        if 'kernel/trace/' + f in skip:
            continue
        text = base_text(open(os.path.join(tdir, f)).read(), is612)
        calls |= uses_in_file(text, set(IDENT.findall(text)), False)
        for piece in top_level(text):
            for name, local, kind in defined_names(piece):
                if not local:
                    defs.setdefault(name, 'kernel/trace/' + f)
                    if '__weak' in piece[1]:
                        weak.add(name)
                    if kind == 'func':
                        sigs.setdefault(name, set()).add(signature(piece[1], name))
    for hdr in ('include/linux/ftrace.h', 'kernel/trace/ftrace_internal.h',
                'kernel/trace/trace.h', 'kernel/trace/ftrace_core.h'):
        path = os.path.join(top, hdr)
        if not os.path.exists(path):
            continue
        for piece in top_level(open(path).read()):
            for name, local, kind in defined_names(piece):
                if kind in ('inline', 'macro'):
                    defs.setdefault(name, hdr + ' (%s)' % kind)
    return defs, calls, weak, sigs


def upstream_signatures(path):
    """The signatures of the global functions ftrace.c defines (a name
    may have several, one per config branch)."""
    sigs = {}
    for piece in top_level(open(path, errors='replace').read()):
        if 'static' in piece[1].split():
            continue
        for name, local, kind in defined_names(piece):
            if kind == 'func':
                sigs.setdefault(name, set()).add(signature(piece[1], name))
    return sigs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, top = sys.argv[1], sys.argv[2]
    old = os.path.join(base, 'kernel/trace/ftrace.c')
    names, exports, weak = upstream_interface(old)
    names = set(names) | exports
    users, overriders = scan_tree(base, names, {'kernel/trace/ftrace.c'})
    defs, calls, ours_weak, our_sigs = our_definitions(top, base)
    up_sigs = upstream_signatures(old)
    passed = failed = skipped = 0
    for name in sorted(names):
        where = sorted(users[name])
        if name in HOMONYMS:
            extra = set(where) - HOMONYMS[name]
            if extra:
                print('FAIL %s: listed as a homonym, but used in %s' % (name, ' '.join(sorted(extra))))
                failed += 1
            else:
                print('skip %s: only unrelated code of the same name' % name)
                skipped += 1
            continue
        why = 'exported' if name in exports else ''
        if name in weak and overriders[name]:
            # An arch's override only works if the core still calls the hook.
            arches = ' '.join(sorted(overriders[name])[:3])
            if name in defs and name in calls and name in ours_weak:
                print('ok   %s: __weak hook overridden by %s; ours calls it, default in %s'
                      % (name, arches, defs[name]))
                passed += 1
            else:
                why = 'does not define it' if name not in defs else \
                    'never calls it' if name not in calls else 'defines it without __weak'
                print('FAIL %s: __weak hook overridden by %s; ours %s' % (name, arches, why))
                failed += 1
            continue
        if where:
            why += (', ' if why else '') + 'used by ' + ' '.join(where[:4]) + \
                (' +%d more' % (len(where) - 4) if len(where) > 4 else '')
        if not why:
            print('skip %s: declared or overridden elsewhere, never used' % name)
            skipped += 1
        elif name in defs and name in up_sigs and name in our_sigs and \
                not up_sigs[name] & our_sigs[name]:
            print('FAIL %s: %s; ours in %s is %s, where the base has %s'
                  % (name, why, defs[name], ' or '.join(sorted(our_sigs[name])),
                     ' or '.join(sorted(up_sigs[name]))))
            failed += 1
        elif name in defs:
            print('ok   %s: %s; ours in %s' % (name, why, defs[name]))
            passed += 1
        else:
            print('FAIL %s: %s; ours does not define it' % (name, why))
            failed += 1
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
