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
