"""tests/seal.py — isobench's record framing for the tests' synthetic logs, in one place (every
test that writes or edits a record seals it here; tests/test-testlib.sh finds any other CRC).

crc(data) -> str: zlib's CRC-32 (lib/crc32.c's) of data (a str, taken as UTF-8, or bytes), as
the 8 lower-case hex digits a record's seal and a DIGEST's crc= print.
seal(line, damaged=False): "LINE *CRC", the CRC of LINE (everything before " *"); a str for a
str, bytes for bytes. damaged=True: the CRC with every bit inverted, a line the reader must
refuse as damaged.
reseal(line): a sealed line ("@isobench/1 N BODY *CRC", an optional line end kept) after an edit
of its body: the old CRC dropped, the line sealed again.
frame(seq, body): one record body framed at sequence number seq, "@isobench/1 SEQ BODY *CRC\n".
sealed(bodies) -> str: each record body (a str: "BEGIN run=...", "SAMPLE test=...") framed as
the runner frames it, N counting from 1.
counts(value, better), sample(...), result(...): the bodies of a synthetic SAMPLE and RESULT
whose integers and statistics agree with their value as the reader checks them (below).
No errors of its own."""
import math
import zlib


def crc(data):
    if isinstance(data, str):
        data = data.encode()
    return "%08x" % (zlib.crc32(data) & 0xffffffff)


def seal(line, damaged=False):
    c = crc(line)
    if damaged:
        c = "%08x" % (int(c, 16) ^ 0xffffffff)
    if isinstance(line, bytes):
        return line + b" *" + c.encode()
    return "%s *%s" % (line, c)


def reseal(line):
    end = line[len(line.rstrip("\r\n")):]
    body = line[:len(line) - len(end)]
    if " *" in body:
        body = body[:body.rindex(" *")]
    return seal(body) + end


def frame(seq, body):
    """One record body framed at sequence number seq (a record edited in place keeps its)."""
    return seal("@isobench/1 %d %s" % (seq, body)) + "\n"


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


def sample(name, i, value, better, extra=""):
    """A SAMPLE body of test name (1 copy), sample i, value (a float, printed to 3 decimals),
    its counts() and a host's quiet fields; extra (" k=v ...", without its leading blank) goes
    before value=."""
    return ("SAMPLE test=%s copies=1 i=%d %s steal_ticks=0 batch=1 ran_ns=1 cpus=0 migrations=0 "
            "nivcsw=0 cpu_ns=1 %svalue=%.3f" % (name, i, counts(value, better),
                                                extra + " " if extra else "", value))


def result(name, unit, better, values, converged=1, extra=""):
    """The RESULT body of test name (1 copy) over its samples' values as the runner aggregates
    them (lib/stats.c), so the reader's check of RESULT against its SAMPLEs (report/validate.c)
    holds: the worst third dropped, the geometric mean of the rest; the median (the mean of the
    middle two of an even count), min, max; with under 6 samples (and here always) the ci95 is
    the min..max half-range. extra (" k=v ...", with its leading blank) goes after converged=."""
    v = sorted(values, reverse=(better == "higher"))
    keep = v[:len(v) - len(v) // 3]
    g = math.exp(sum(math.log(x) for x in keep) / len(keep))
    srt = sorted(values)
    h = len(srt) // 2
    med = srt[h] if len(srt) % 2 else (srt[h - 1] + srt[h]) / 2
    return ("RESULT test=%s copies=1 unit=%s better=%s value=%.3f samples=%d median=%.3f "
            "min=%.3f max=%.3f ci95_pct=%.2f converged=%d%s"
            % (name, unit, better, g, len(srt), med, srt[0], srt[-1],
               (srt[-1] - srt[0]) / 2 / med * 100, converged, extra))


def main():
    """python3 tests/seal.py < BODIES > LOG: each line of BODIES a record body, sealed at its
    sequence number; a blank line starts another run (its records count from 1 again, as each
    run of a --repeat log does). Used by tests/lib.sh's mklog."""
    import sys
    runs = sys.stdin.read().rstrip("\n").split("\n\n")
    sys.stdout.write("".join(sealed(r.split("\n")) for r in runs if r))


if __name__ == "__main__":
    main()
