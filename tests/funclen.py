#!/usr/bin/env python3
"""tests/funclen.py — the length of every C function definition, longest first.

    tests/funclen.py [--max N] [--except FILE:FUNC ...] FILE.c...

Prints one line per function, "LINES FILE:LINE FUNC", longest first. With --max N it prints
only the functions over N lines that are not named by an --except, and exits 1 when there is
one (0 otherwise; 2 on a usage error or an unreadable file).

A function's length counts the lines of its body, from the opening brace to the closing one,
both included (the measure issue 16 quotes: main() 127 lines); FILE:LINE is where its
declarator begins. The scanner blanks
comments, string and character literals and preprocessor lines, then takes every '{' at file
scope whose header (the text since the previous top-level ';' or '}') ends in ')' as a function
body; an initialiser ('=' in the header) or a struct/union/enum body (a header of the tag and
attributes only) is not a function.
"""
import re
import signal
import sys


def blank(src):
    """src with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if line_start and c in ' \t':
            out.append(c)
            i += 1
            continue
        if line_start and c == '#':
            # A directive runs to the end of the line, continued by a trailing backslash.
            while i < n and src[i] != '\n':
                if src[i] == '\\' and i + 1 < n and src[i + 1] == '\n':
                    out.append(' \n')
                    i += 2
                    continue
                out.append(' ')
                i += 1
            continue
        line_start = False
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j]))
            i = j
            continue
        if src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and src[j] != c and src[j] != '\n':
                j += 2 if src[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', src[i + 1:j - 1]) + c)
            i = j
            continue
        if c == '\n':
            line_start = True
        out.append(c)
        i += 1
    return ''.join(out)


def functions(path, src):
    """Yields (name, first line, length in lines) for each function defined in src."""
    text = blank(src)
    depth = 0
    header_start = 0   # offset where the current top-level header began
    body = None        # (name, declarator line, brace line) of the open function body
    for i, c in enumerate(text):
        if c == '{':
            if depth == 0:
                header = text[header_start:i]
                body = None
                h = header.strip()
                # A struct/union/enum body's header is its tag (and attributes) only; a
                # function may return one ("struct tb_op tb_synth_op(...)").
                tag = re.fullmatch(r'(typedef\s+)?(struct|union|enum)(\s+\w+)?'
                                   r'(\s*__attribute__\s*\(\(.*\)\))*\s*', h, re.S)
                if h.endswith(')') and '=' not in h and not tag:
                    # The name is the identifier before the first top-level '('.
                    m = re.search(r'([A-Za-z_]\w*)\s*\(', h)
                    if m:
                        first = text.count('\n', 0, header_start + len(header) - len(header.lstrip())) + 1
                        body = (m.group(1), first, text.count('\n', 0, i) + 1)
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if body:
                    last = text.count('\n', 0, i) + 1
                    yield body[0], body[1], last - body[2] + 1
                body = None
                header_start = i + 1
        elif c == ';' and depth == 0:
            header_start = i + 1


def main(argv):
    limit, exceptions, files = None, set(), []
    args = iter(argv)
    for a in args:
        if a == '--max':
            limit = int(next(args, '0'))
        elif a == '--except':
            exceptions.add(next(args, ''))
        elif a.startswith('-'):
            print(f'funclen.py: unknown option {a}', file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    rows = []
    for f in files:
        try:
            with open(f, encoding='utf-8', errors='replace') as fh:
                src = fh.read()
        except OSError as e:
            print(f'funclen.py: {f}: {e.strerror}', file=sys.stderr)
            return 2
        rows += [(n, f, line, name) for name, line, n in functions(f, src)]
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    if limit is None:
        for n, f, line, name in rows:
            print(f'{n} {f}:{line} {name}')
        return 0
    over = [r for r in rows if r[0] > limit and f'{r[1]}:{r[3]}' not in exceptions]
    for n, f, line, name in over:
        print(f'{n} {f}:{line} {name}')
    return 1 if over else 0


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends us quietly
    sys.exit(main(sys.argv[1:]))
