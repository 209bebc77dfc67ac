#!/usr/bin/env python3
"""tests/verdict-logs.py — synthetic logs for the verdict tests (tests/test-verdicts.sh, issue
46): RUNS complete runs of NTESTS tests in one log (BEGIN..END each, as --repeat writes them),
records sealed with their CRC (tests/seal.py).

Every run's values move together by that run's drift (a host whose speed changes between runs:
normal, sd DRIFT, default 1%), and each sample by its own noise (normal, sd NOISE). Half the tests are rates
(lps, higher is better), half times (ns, lower is better). Everything comes from a seeded
generator: a log is the same bytes for the same arguments.

usage: verdict-logs.py OUT RUNS SEED [options]
  --tests N          tests t00..t(N-1) (default 24)
  --drift SD         between-run spread, a fraction (default 0.01)
  --noise SD         within-run spread of the samples (default 0.005)
  --samples N        samples a run (default 9)
  --slower T=F,...   test T is F times worse in every run (1.10: 10% slower)
  --worst-third F    the worst third of every test's samples F times worse (2: 2x slower); the
                     RESULT value (UnixBench's aggregate, which drops that third) unchanged
  --no-whole         RESULT without whole= (a log written before it): the reader derives it
  --steal PCT        RESULT steal_pct=PCT (default 0)
  --round R          INFO run.round=R, R+1, ... (one a run); --side S: run.ab_side=S
  --info K=V,...     more INFO fields in every run (e.g. cpu.model=A: a fleet's machine)

A SAMPLE's window is 0.1 s (ns=100000000); its loops are its value's work in that window (a
rate: value x 0.1; a time per loop: window / value), so RESULT whole= (sum of loops over sum of
windows, harness.c's rule) is the arithmetic mean of a rate's samples and the harmonic mean of a
time's. value= is UnixBench's aggregate (lib/stats.c): the worst third dropped, the geometric
mean of the rest."""
import math
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seal import sealed  # noqa: E402

WINDOW_NS = 100000000


def opt(args, name, default, conv=str):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return conv(v)
    return default


def flag(args, name):
    if name in args:
        args.remove(name)
        return True
    return False


def main(argv):
    args = argv[1:]
    ntests = opt(args, "--tests", 24, int)
    drift = opt(args, "--drift", 0.01, float)
    noise = opt(args, "--noise", 0.005, float)
    nsamp = opt(args, "--samples", 9, int)
    slower = dict((kv.split("=")[0], float(kv.split("=")[1]))
                  for kv in opt(args, "--slower", "", str).split(",") if kv)
    worst = opt(args, "--worst-third", 1.0, float)
    no_whole = flag(args, "--no-whole")
    steal = opt(args, "--steal", 0.0, float)
    rnd = opt(args, "--round", None, int)
    side = opt(args, "--side", None, str)
    extra = [kv for kv in opt(args, "--info", "", str).split(",") if kv]
    out, runs, seed = args[0], int(args[1]), int(args[2])
    rng = random.Random(seed)
    tests = []
    for n in range(ntests):
        hi = n % 2 == 0
        tests.append(("t%02d" % n, "lps" if hi else "ns", hi, 1000.0 * (n + 1) if hi else 50.0 * (n + 1)))
    bodies = []
    for k in range(runs):
        # the run id from the file's name and the run's place: twins of one seed stay two runs
        rid = zlib.crc32(("%s %d" % (os.path.basename(out), k)).encode()) << 16 | k
        recs = ["BEGIN run=%016x version=t mode=host" % rid]
        info = "INFO run.suite=quick"
        if rnd is not None:
            info += " run.round=%d" % (rnd + k)
        if side:
            info += " run.ab_side=" + side
        for kv in extra:
            info += " " + kv
        recs.append(info)
        d = rng.gauss(0, drift)
        for n, (name, unit, hi, base) in enumerate(tests, 1):
            recs.append("TEST test=%s k=%d n=%d copies=1 unit=%s better=%s group=extra title=%s "
                        "clocksource=tsc" % (name, n, ntests, unit, "higher" if hi else "lower", name))
            worse = slower.get(name, 1.0) * (1 + d)
            centre = base / worse if hi else base * worse
            vals = [centre * (1 + rng.gauss(0, noise)) for _ in range(nsamp)]
            # the worst third: the lowest rates, the longest times
            order = sorted(range(nsamp), key=lambda i: vals[i], reverse=not hi)
            for i in order[:nsamp // 3]:
                vals[i] = vals[i] / worst if hi else vals[i] * worst
            vals = [float("%.3f" % v) for v in vals]
            loops = []
            for i, v in enumerate(vals):
                lp = v * WINDOW_NS / 1e9 if hi else WINDOW_NS / v
                loops.append(lp)
                recs.append("SAMPLE test=%s copies=1 i=%d loops=%.0f ns=%d steal_ticks=0 batch=1 "
                            "ran_loops=%.0f ran_ns=%d cpus=0 migrations=0 nivcsw=0 cpu_ns=%d "
                            "value=%.3f" % (name, i, lp, WINDOW_NS, lp, WINDOW_NS, WINDOW_NS, v))
            s = sorted(vals, reverse=hi)
            keep = s[:nsamp - nsamp // 3]
            agg = math.exp(sum(math.log(x) for x in keep) / len(keep))
            tot_ns = WINDOW_NS * nsamp
            whole = sum(loops) * 1e9 / tot_ns if hi else tot_ns / sum(loops)
            srt = sorted(vals)
            med = srt[nsamp // 2] if nsamp % 2 else (srt[nsamp // 2 - 1] + srt[nsamp // 2]) / 2
            recs.append("RESULT test=%s copies=1 unit=%s better=%s value=%.3f%s steal_pct=%.2f "
                        "samples=%d median=%.3f min=%.3f max=%.3f ci95_pct=%.2f converged=1"
                        % (name, unit, "higher" if hi else "lower", agg,
                           "" if no_whole else " whole=%.3f" % whole, steal, nsamp, med,
                           srt[0], srt[-1], (srt[-1] - srt[0]) / 2 / med * 100))
        recs.append("END records=%d results=%d fails=0 skips=0 errors=0 status=ok"
                    % (len(recs), ntests))
        bodies.append(recs)
    with open(out, "w") as f:
        for recs in bodies:   # each run framed on its own: its sequence starts at 1
            f.write(sealed(recs))


if __name__ == "__main__":
    main(sys.argv)
