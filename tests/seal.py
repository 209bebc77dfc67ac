"""tests/seal.py — isobench's record framing for the tests' synthetic logs, in one place.

sealed(bodies) -> str: each record body (a str: "BEGIN run=...", "SAMPLE test=...") framed as
the runner frames it, "@isobench/1 N BODY *CRC\n" with N counting from 1 and CRC zlib's CRC-32
of the line before " *" (lib/crc32.c's), 8 lower-case hex digits. frame(seq, body): one such
line at sequence number seq. No errors of its own."""
import zlib


def frame(seq, body):
    """One record body framed at sequence number seq (a record edited in place keeps its)."""
    line = "@isobench/1 %d %s" % (seq, body)
    return "%s *%08x\n" % (line, zlib.crc32(line.encode()) & 0xffffffff)


def sealed(bodies):
    return "".join(frame(n, body) for n, body in enumerate(bodies, 1))


def counts(value, better):
    """A synthetic SAMPLE's loops=, ns= and ran_loops= for its value (a float, printed to 3
    decimals): the integers its reader checks the value against (report/validate.c, docs/
    records.md "How RESULT derives from SAMPLE"). better "higher" (a rate with per_loop 1:
    lps, tps, IOPS, MiB/s): loops/s, value x 1000 loops in 10^12 ns; "lower" (a time: ns
    per loop): value x 1000 ns for 1000 loops. Exact to the 3 decimals printed."""
    if better == "higher":
        loops = round(value * 1000)
        return "loops=%d ns=1000000000000 ran_loops=%d" % (loops, loops)
    return "loops=1000 ns=%d ran_loops=1000" % round(value * 1000)
