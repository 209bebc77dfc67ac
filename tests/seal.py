"""tests/seal.py — isobench's record framing for the tests' synthetic logs, in one place.

sealed(bodies) -> str: each record body (a str: "BEGIN run=...", "SAMPLE test=...") framed as
the runner frames it, "@isobench/1 N BODY *CRC\n" with N counting from 1 and CRC zlib's CRC-32
of the line before " *" (lib/crc32.c's), 8 lower-case hex digits. No errors of its own."""
import zlib


def sealed(bodies):
    out = []
    for n, body in enumerate(bodies, 1):
        line = "@isobench/1 %d %s" % (n, body)
        out.append("%s *%08x\n" % (line, zlib.crc32(line.encode()) & 0xffffffff))
    return "".join(out)
