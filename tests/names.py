#!/usr/bin/env python3
"""tests/names.py ROOT — each test's name is spelled once: its row in payload/registry.c.

A test's name is its row's id in BENCH_TESTS (payload/registry.c), '_' made '-' (the name
table registry.c builds at start-up); the instruction probes' rows are ARCH_PROBES' ids
(payload/arch/generic/probes.h), named the same way; the ring-0 probes' names are
RING0_PREFIX (payload/bench/ring0.h) + the driver's name as spelt in ISOBENCH_PROBES
(kernel-config/driver/arch/*/isobench_probe_arch.h), underscores kept. This derives every
name from those rows and reports any second spelling in payload/ and lib/ (C code, comments
left out):
  - a string literal (adjacent literals joined) whose text is a test's name;
  - a `.name =` designated initializer anywhere but payload/benchapi.h's BENCH_DEFINE (a
    descriptor naming itself instead of taking the registry's name);
  - a row whose name another row has too.
Allowed, each for its reason (ALLOWED): isobench-proc's command words, which are its own
command line (UnixBench's execl re-executes itself with "execl"), not test names.
In:  ROOT, a tree. Out: one line "FILE:LINE: WHAT" per finding; exit 1 when there is one,
0 when none, 2 on a usage error or when no row was found (the parse broke).
"""
import glob
import os
import re
import sys

# (path, literal): a literal equal to a test's name that means something else there.
ALLOWED = {
    ("payload/proc/isobench-proc.c", "execl"): "isobench-proc's execl mode (its argv[1])",
    ("payload/proc/isobench-proc.c", "spawn"): "isobench-proc's spawn mode (its argv[1])",
    ("payload/bench/execl.c", "execl"): "the argv[1] execl gives isobench-proc's execl mode",
}
DEFINER = "payload/benchapi.h"    # BENCH_DEFINE: the one `.name =` of a descriptor


def strip_comments(text):
    """text with comments blanked (newlines kept, so line numbers stay), literals intact."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
JOINED = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*')


def literals(code):
    """(line, text) of each string literal, adjacent literals joined as the compiler does."""
    for m in JOINED.finditer(code):
        yield code.count("\n", 0, m.start()) + 1, "".join(LITERAL.findall(m.group(0)))


def macro_body(text, name):
    """The body of `#define name(...)` in text, continuation lines joined, comments blanked;
    None when absent."""
    m = re.search(r"^#define " + re.escape(name) + r"\([^)]*\)((?:.*\\\n)*.*)$", text, re.M)
    return strip_comments(m.group(1).replace("\\\n", " ")) if m else None


def rows(root):
    """[(name, where)] of every test, from the rows; [] when the registry cannot be read."""
    def read(rel):    # raw: a comment inside a macro may hold its line's continuation
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()
    reg = "payload/registry.c"
    body = macro_body(read(reg), "BENCH_TESTS")
    if not body:
        return []
    out = [(i.replace("_", "-"), reg) for i in re.findall(r"\bX\(\s*([a-z0-9_]+)\s*\)", body)]
    probes = "payload/arch/generic/probes.h"
    if "ARCH_PROBES(A)" in body:
        out += [(i.replace("_", "-"), probes) for i in
                re.findall(r"\bX\(\s*([a-z0-9_]+)\s*,", macro_body(read(probes), "ARCH_PROBES") or "")]
    prefix = re.search(r'#define RING0_PREFIX "([^"]*)"', read("payload/bench/ring0.h"))
    if "ISOBENCH_PROBES(R)" in body and prefix:
        for hdr in sorted(glob.glob(os.path.join(root, "kernel-config/driver/arch/*/isobench_probe_arch.h"))):
            rel = os.path.relpath(hdr, root)
            for nm in re.findall(r"\bX\(\s*[A-Z0-9_]+\s*,\s*([a-z0-9_]+)\s*,",
                                 macro_body(read(rel), "ISOBENCH_PROBES") or ""):
                out.append((prefix.group(1) + nm, rel))
    return out


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: names.py ROOT", file=sys.stderr)
        return 2
    root = argv[1]
    found = rows(root)
    if not found:
        print("payload/registry.c: no BENCH_TESTS rows read", file=sys.stderr)
        return 2
    bad, names, seen = [], set(), {}
    for name, where in found:
        # a ring-0 probe of two architectures' lists is one test (a runner lists every list's
        # probes once: its own, then the others' it lacks, RING0_OTHERS)
        both_ring0 = where.startswith("kernel-config/") and seen.get(name, "").startswith("kernel-config/")
        if name in seen and not (both_ring0 and seen[name] != where):
            bad.append(f"{where}: the row of {name} is written twice")
        seen.setdefault(name, where)
        names.add(name)
    files = sorted(glob.glob(os.path.join(root, "payload/**/*.[ch]"), recursive=True) +
                   glob.glob(os.path.join(root, "lib/**/*.[ch]"), recursive=True))
    for path in files:
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            code = strip_comments(f.read())
        for line, text in literals(code):
            if text in names and (rel, text) not in ALLOWED:
                bad.append(f'{rel}:{line}: "{text}" spells a test\'s name again (its row derives it)')
        if rel != DEFINER:
            for m in re.finditer(r"(?:^|[{,(])\s*\.name\s*=", code, re.M):
                line = code.count("\n", 0, m.end()) + 1
                bad.append(f"{rel}:{line}: .name = (a descriptor takes its name from its row: BENCH)")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
