#!/usr/bin/env python3
"""tests/rooms.py ROOT — payload/'s rooms include only what docs/architecture.md lets them.

In:  ROOT, a tree: its docs/architecture.md table rows of payload/ (root), payload/pid1/,
     payload/net/, payload/bench/ and payload/core/, whose third cell ("may include") names the headers and
     folders (a word ending in /) of other rooms each room may include; and each room's
     .c and .h files.
Out: one line "FILE: #include "X" (PATH) is not in its room's may-include cell" per include
     of a payload/ header that is neither the room's own nor named in its cell (a word names
     a header by its path from the room, or by a tail of its path: `arch.h`,
     `driver/isobench_probe.h`; lib/ and system headers are always allowed); exit status 1
     when there is one, 0 when none, 2 on a usage error. An include is resolved as the
     compiler does: the includer's folder, then lib/, payload/arch/*/, payload/arch/.
"""
import glob
import os
import re
import sys

ROOMS = {"payload/` (root)": "payload", "payload/pid1/`": "payload/pid1",
         "payload/net/`": "payload/net", "payload/bench/`": "payload/bench",
         "payload/core/`": "payload/core"}


def cells(doc):
    out = {}
    for line in doc.splitlines():
        for head, room in ROOMS.items():
            if line.startswith("| `" + head + " |"):
                parts = line.split(" | ")
                out[room] = re.findall(r"`([^`]+)`", parts[2]) if len(parts) > 2 else []
    return out


def resolve(root, incdir, name):
    dirs = [incdir, "lib"] + sorted(os.path.relpath(d, root) for d in
                                    glob.glob(os.path.join(root, "payload/arch/*/"))) + \
        ["payload/arch"]
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def allowed(path, room, words):
    if path.startswith("lib/") or not path.startswith(("payload/", "kernel-config/")):
        return True
    if os.path.dirname(path) == room:
        return True
    for w in words:
        if w.endswith("/"):
            if ("/" + w) in ("/" + path) or path.startswith(os.path.normpath(
                    os.path.join(room, w)) + "/"):
                return True
        elif w.endswith(".h"):
            if path == os.path.normpath(os.path.join(room, w)) or \
                    ("/" + path).endswith("/" + w.lstrip("./")):
                return True
    return False


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    root = argv[1]
    with open(os.path.join(root, "docs/architecture.md"), encoding="utf-8") as f:
        may = cells(f.read())
    bad = []
    for room in ROOMS.values():
        if room not in may:
            bad.append("docs/architecture.md: no table row for %s/" % room)
            continue
        for src in sorted(glob.glob(os.path.join(root, room, "*.[ch]"))):
            rel = os.path.relpath(src, root)
            with open(src, encoding="utf-8") as f:
                for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read(), re.M):
                    path = resolve(root, room, name)
                    if path and not allowed(path, room, may[room]):
                        bad.append('%s: #include "%s" (%s) is not in its room\'s may-include'
                                   ' cell' % (rel, name, path))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
