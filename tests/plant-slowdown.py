#!/usr/bin/env python3
"""tests/plant-slowdown.py — a planted slowdown in real logs (issue 46's demonstration,
docs/benchmarks/verdicts.md): every run of IN, the tests named made FACTOR times worse, written
to OUT with every changed record resealed with its CRC (tests/seal.py's framing).

usage: plant-slowdown.py IN OUT FACTOR TEST[,TEST...]

Worse by the test's direction (TEST better=): a rate divided by FACTOR, a time multiplied. For
each named test: its SAMPLEs' value and, so that the value still agrees with its own integers,
their window ns= (FACTOR times longer: either direction); its RESULT's value, whole, median, min, max, and index
(recomputed, value / baseline x 10, as lib/unixbench.c); the DIGEST line restating it (value,
whole, median; index recomputed the same way), and the DIGEST end line's crc over the digest lines as they now read. Figures
keep the runner's 3 decimals (index 1). A test with latency percentiles or a per-sample figure
(its RESULT carries p50_ns, or its SAMPLEs an extra the value is taken from) is refused: only
its value would move, not what it rests on. Errors: a message and status 2."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seal import crc, frame  # noqa: E402  (the record framing, one owner)


def fields(body):
    parts = body.split(" ")
    return parts[0], [p.split("=", 1) for p in parts[1:]]


def unfields(kind, kv):
    return " ".join([kind] + ["%s=%s" % (k, v) for k, v in kv])


def time_of(d):
    """A lower-is-better SAMPLE's time from its own integers, as report/validate.c derives it:
    the mean over copies of ns / loops (2 ns for a copy that printed 0 loops); None without."""
    if "loops" not in d or "ns" not in d:
        return None
    loops, ns = d["loops"].split(","), d["ns"].split(",")
    if len(loops) != len(ns) or "-" in loops or "-" in ns:
        return None
    return sum(int(t) / int(n) if int(n) >= 1 else 2 * int(t) for n, t in zip(loops, ns)) / len(ns)


def time_scales(lines, names):
    """Per planted lower-is-better test, the ratio of a SAMPLE's printed value to its time from
    the integers (its per_loop: 1 for ns, a fault test's KiB, ...), the median over its
    SAMPLEs. A planted SAMPLE's window ns= is then made to give its planted printed value at
    this ratio: ns stretched by FACTOR alone would leave the old value's 3-decimal rounding,
    times FACTOR, between the value and its integers — past half a unit, and the reader refuses
    the log ("its loops in ns give ..."). A rate's rounding, divided by FACTOR, stays within."""
    lower, ratios = set(), {}
    for raw in lines:
        if not raw.startswith("@isobench/1 ") or " *" not in raw:
            continue
        body = raw[len("@isobench/1 "):].partition(" ")[2]
        kind, kv = fields(body[:body.rindex(" *")])
        d = dict(kv)
        if kind == "TEST" and d.get("better") == "lower" and d.get("test") in names:
            lower.add(d["test"])
        elif kind == "SAMPLE" and d.get("test") in lower and "value" in d:
            t = time_of(d)
            if t:
                ratios.setdefault(d["test"], []).append(float(d["value"]) / t)
    return {k: sorted(v)[len(v) // 2] for k, v in ratios.items()}


def main(argv):
    if len(argv) != 5:
        sys.exit("usage: plant-slowdown.py IN OUT FACTOR TEST[,TEST...]")
    src, dst, factor, names = argv[1], argv[2], float(argv[3]), set(argv[4].split(","))
    higher = {}
    out, digest = [], []
    lines = open(src, encoding="utf-8", errors="replace").read().splitlines(True)
    scale = time_scales(lines, names)
    for raw in lines:
        if not raw.startswith("@isobench/1 ") or " *" not in raw:
            out.append(raw)
            continue
        head, _, rest = raw[len("@isobench/1 "):].partition(" ")
        seq, body = int(head), rest[:rest.rindex(" *")]
        kind, kv = fields(body)
        d = dict(kv)
        t = d.get("test")

        def worse(v, fmt="%.3f"):
            x = float(v)
            return fmt % (x / factor if higher[t] else x * factor)
        changed = False
        if kind == "TEST":
            higher[t] = d.get("better") == "higher"
        elif kind in ("SAMPLE", "RESULT") and t in names:
            if kind == "RESULT" and "p50_ns" in d:
                sys.exit("plant-slowdown.py: %s carries latency percentiles: refused" % t)
            for i, (k, v) in enumerate(kv):
                if k in ("value", "whole", "median", "min", "max"):
                    kv[i][1] = worse(v)
                    changed = True
                elif k == "ns" and kind == "SAMPLE":
                    # the window each copy's loops took, FACTOR times longer: the value the
                    # reader derives from loops and ns (report/validate.c) moves with it
                    kv[i][1] = ",".join(x if x == "-" else "%d" % round(int(x) * factor)
                                        for x in v.split(","))
            t0 = time_of(d) if kind == "SAMPLE" and t in scale else None
            if t0 and "value" in d:    # a time: its window made what the printed value says
                k = float(dict(kv)["value"]) / (scale[t] * t0)
                kv = [[f, ",".join("%d" % round(int(x) * k) for x in d["ns"].split(","))
                       if f == "ns" else v] for f, v in kv]
            if kind == "RESULT" and "index" in d:
                val = float(dict(kv)["value"])
                for i, (k, v) in enumerate(kv):
                    if k == "index":
                        kv[i][1] = "%.1f" % (val / float(d["baseline"]) * 10)
        elif kind == "DIGEST" and d.get("part") == "test" and t in names:
            higher[t] = d.get("better") == "higher"
            for i, (k, v) in enumerate(kv):
                if k in ("value", "whole", "median"):
                    kv[i][1] = ",".join(x if x == "-" else worse(x) for x in v.split(","))
            vals = dict(kv)["value"].split(",")
            for i, (k, v) in enumerate(kv):    # as the RESULT's: from the value written
                if k == "index":
                    kv[i][1] = ",".join(x if x == "-" else "%.1f" % (float(vals[j]) / float(d["baseline"]) * 10)
                                        for j, x in enumerate(v.split(",")))
            changed = True
        elif kind == "DIGEST" and d.get("part") == "end":
            kv = [[k, crc("".join(digest)) if k == "crc" else v] for k, v in kv]
            changed = True
        line = frame(seq, unfields(kind, kv)) if changed else raw
        if kind == "DIGEST" and d.get("part") != "end":
            digest.append(line)
        elif kind == "DIGEST":
            digest = []
        out.append(line)
    with open(dst, "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main(sys.argv)
