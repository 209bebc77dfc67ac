#!/usr/bin/env bash
# docs/benchmarks/cpu-clock.sh [LOG...] — the spread of the SAMPLEs' clock figures (mhz=, the
# runner's payload/cpuclock.c) in isobench logs, beside /proc/cpuinfo's "cpu MHz" of this
# machine: per log and over all, the method, how many figures (one per copy and measured
# SAMPLE; warm-ups and 0s left out), their median, 5th and 95th percentiles, min and max, the
# robust spread 1.4826 x MAD / median in percent, and the median's distance from cpu MHz.
# Without LOG: runs out/isobench --suite standard --tests whetstone-double,syscall,pipe
# --copies 1,N natively once and reads that log. Out: one line per log and a total line on
# stdout; the load average before and after on stderr.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=("$@")
if [ ${#logs[@]} -eq 0 ]; then
	log=$(mktemp /tmp/cpu-clock.XXXXXX.log)
	echo "cpu-clock: load before: $(cut -d' ' -f1-3 /proc/loadavg); log $log" >&2
	"$top/out/isobench" --suite standard --tests whetstone-double,syscall,pipe --copies 1,N \
		>"$log" 2>/dev/null
	echo "cpu-clock: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	logs=("$log")
fi
cpuinfo=$(awk -F': ' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
python3 - "${cpuinfo:-0}" "${logs[@]}" <<'PY'
import re, statistics, sys

ref = float(sys.argv[1])

def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100 * len(v)))]

def line(name, method, v):
    if not v:
        print('%s: no figure' % name)
        return
    med = statistics.median(v)
    mad = statistics.median(abs(x - med) for x in v)
    dist = ('%+.1f%%' % ((med / ref - 1) * 100)) if ref else '-'
    print('%s: method %s, n %d, median %.0f MHz, p5 %.0f, p95 %.0f, min %.0f, max %.0f, '
          'robust spread %.2f%%; cpu MHz %.0f, median %s from it'
          % (name, method, len(v), med, pct(v, 5), pct(v, 95), min(v), max(v),
             1.4826 * mad / med * 100, ref, dist))

allv, methods = [], set()
for path in sys.argv[2:]:
    v, m = [], set()
    for l in open(path, encoding='utf-8', errors='replace'):
        if ' SAMPLE ' not in l or ' warmup=1' in l:
            continue
        f = re.search(r' mhz=([0-9,]+)', l)
        k = re.search(r' mhz_method=(\w+)', l)
        if f:
            v += [float(x) for x in f.group(1).split(',') if float(x) > 0]
        if k:
            m.add(k.group(1))
    line(path, ','.join(sorted(m)) or '-', v)
    allv += v
    methods |= m
if len(sys.argv) > 3:
    line('all', ','.join(sorted(methods)) or '-', allv)
PY
