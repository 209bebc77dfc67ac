#!/usr/bin/env python3
"""docs/benchmarks/verdicts-spread.py — why a planted change is or is not decidable at the
runs taken (docs/benchmarks/verdicts.md): per test of the logs given, the between-run spread
of the whole-run value (RESULT whole=, every sample counted) and what it allows.

usage: verdicts-spread.py MIN_EFFECT_PCT PLANT_PCT LOG...   (every complete run of each LOG)

Per test (copies 1 and N alike, by test and copies): n runs, the standard deviation of the
log whole-run values (about the run-to-run CV), and the largest such sd at which a change of
PLANT_PCT in a 5 + 5 Welch comparison has its 95% interval beyond MIN_EFFECT_PCT at the
observed change (the report's "different" gate, signif.h: d - t(0.975, df) se > log(1 +
MIN/100), se = sd sqrt(2/5), df 8 for equal spreads); "yes" when the test's sd is below it.
t(0.975, 8) = 2.306 (any t table). Prints one line per test, then the count of tests under
the limit. Status 0; 2 on usage."""
import math
import re
import sys

T975_DF8 = 2.306


def main(argv):
    if len(argv) < 4:
        print(__doc__.splitlines()[5], file=sys.stderr)
        return 2
    me, plant = float(argv[1]), float(argv[2])
    vals = {}
    for path in argv[3:]:
        for line in open(path, "rb").read().decode("ascii", "replace").splitlines():
            m = re.search(r" RESULT test=(\S+) copies=(\d+) .* whole=([0-9.]+)", line)
            if m and float(m.group(3)) > 0:
                vals.setdefault((m.group(1), int(m.group(2))), []).append(float(m.group(3)))
    limit = (math.log1p(plant / 100) - math.log1p(me / 100)) / (T975_DF8 * math.sqrt(2 / 5))
    under = 0
    print("test copies runs sd_log_pct decidable_at_5+5 (sd limit %.2f%%)" % (limit * 100))
    for (t, c), v in sorted(vals.items()):
        if len(v) < 2:
            continue
        lv = [math.log(x) for x in v]
        mu = sum(lv) / len(lv)
        sd = math.sqrt(sum((x - mu) ** 2 for x in lv) / (len(lv) - 1))
        ok = sd < limit
        under += ok
        print("%s %d %d %.2f %s" % (t, c, len(v), sd * 100, "yes" if ok else "no"))
    print("%d of %d tests have a between-run sd under %.2f%%" % (under, sum(1 for v in vals.values() if len(v) >= 2), limit * 100))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
