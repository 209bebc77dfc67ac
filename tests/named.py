#!/usr/bin/env python3
"""tests/named.py DOC [FILE...] — which source files DOC (docs/architecture.md) does not name.

In:  DOC, and the files to look for, as paths from the top of the tree (arguments, or one a
     line on stdin when there is none).
Out: the files DOC does not name, one a line; exit status 1 when there is one, 0 when DOC
     names them all, 2 on a usage error.

A file is named when DOC holds, as one word (letters, digits and . _ - / < >, trailing dots
and a leading ./ dropped), either its whole path or a tail of it (whole path components)
that no other of the files has: `payload/Makefile` or `proc/Makefile`, never a bare
`Makefile` while several exist; `insn.c` only if one file is called so. `<arch>` in a word
stands for any one folder name, so `arch/<arch>/insn.c` names every architecture's insn.c.
"""
import re
import sys


def words(text):
    out = set()
    for w in re.findall(r"[A-Za-z0-9_.<>/-]+", text):
        w = w.rstrip(".")
        if w.startswith("./"):
            w = w[2:]
        if w:
            out.add(w)
    return out


def tails(path):
    parts = path.split("/")
    return ["/".join(parts[i:]) for i in range(len(parts))]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        said = words(f.read())
    files = argv[2:] or [l.strip() for l in sys.stdin if l.strip()]
    owners = {}
    for p in files:
        for t in tails(p):
            owners.setdefault(t, set()).add(p)
    # A word with <arch> becomes a pattern over one path component.
    pats = [re.compile("^" + re.escape(w).replace(re.escape("<arch>"), "[^/]+") + "$")
            for w in said if "<arch>" in w]
    missing = []
    for p in files:
        ok = False
        for t in tails(p):
            if t != p and len(owners[t]) > 1:
                continue
            if t in said or any(r.match(t) for r in pats):
                ok = True
                break
        if not ok:
            missing.append(p)
    for p in missing:
        print(p)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
