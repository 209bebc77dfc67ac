#!/usr/bin/env python3
"""tests/history-runs.py FILE HOUR FACTORS [FILE HOUR FACTORS]... — synthetic isobench logs
whose answers are known, for the results store's tests (tests/test-history.sh) and its scale
measure (docs/benchmarks/history-scale.sh).

In each FILE one run per FACTOR (FACTORS comma-separated; BEGIN..END each, as --repeat writes
them), each with INFO run.utc = 2026-11-01 + HOUR hours (+1 per run) and two tests, t-rate
(higher is better, 1000 lps) and t-time (lower is better, 80 ns), FACTOR times worse (1.25:
25 % slower); eight samples a run, 0.3 % apart, and a RESULT that agrees with them (the
report's validator recomputes it). Run ids from FILE's name and the run's place. Records
sealed with their CRC (zlib's CRC-32, as lib/crc32.c). Exit 0, or 2 on a usage error."""
import datetime, math, sys, zlib
from seal import counts, sealed  # tests/seal.py, beside this file
t0 = datetime.datetime(2026, 11, 1)
args = sys.argv[1:]
if not args or len(args) % 3:
    print("usage: " + __doc__.split(" — ")[0], file=sys.stderr)
    sys.exit(2)
for a in range(0, len(args), 3):
    path, hour, factors = args[a], int(args[a + 1]), [float(f) for f in args[a + 2].split(",")]
    lines = []
    for k, f in enumerate(factors):
        rid = (zlib.crc32(("%s/%d" % (path.rsplit("/", 1)[-1], k)).encode()) << 20) | k
        recs = ["BEGIN run=%016x version=t mode=host" % rid,
                "INFO run.suite=quick run.utc=%s" % (t0 + datetime.timedelta(hours=hour + k))
                .strftime("%Y-%m-%dT%H:%M:%SZ"),
                "INFO cpu.model=Synthetic cpu.online=2 hv.cpuid=KVMKVMKVM kernel.release=6.1.0"]
        for n, (name, unit, better, base) in enumerate(
                [("t-rate", "lps", "higher", 1000.0), ("t-time", "ns", "lower", 80.0)], 1):
            recs.append("TEST test=%s k=%d n=2 copies=1 unit=%s better=%s group=extra title=%s"
                        % (name, n, unit, better, name))
            centre = base / f if better == "higher" else base * f
            vals = [float("%.3f" % (centre * (1 + 0.003 * math.sin(i * 2.1 + n))))
                    for i in range(8)]
            for i, v in enumerate(vals):
                recs.append("SAMPLE test=%s copies=1 i=%d %s steal_ticks=0 value=%.3f"
                            % (name, i, counts(v, better), v))
            s = sorted(vals, reverse=(better == "higher"))
            keep = s[:len(s) - len(s) // 3]
            g = math.exp(sum(math.log(x) for x in keep) / len(keep))
            srt = sorted(vals)
            med = (srt[3] + srt[4]) / 2
            recs.append("RESULT test=%s copies=1 unit=%s better=%s value=%.3f samples=8 "
                        "median=%.3f min=%.3f max=%.3f ci95_pct=%.2f converged=1"
                        % (name, unit, better, g, med, srt[0], srt[-1],
                           (srt[-1] - srt[0]) / 2 / med * 100))
        recs.append("END records=%d results=2 fails=0 skips=0 errors=0 status=ok" % len(recs))
        lines.append(sealed(recs))
    open(path, "w").write("".join(lines))
