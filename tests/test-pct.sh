#!/usr/bin/env bash
# tests/test-pct.sh — latency percentiles in isobench-report (report/pct.c): any test whose
# SAMPLE records carry lib/latency.h's extras (p50_ns, p99_ns, p999_ns, max_ns), in text, JSON,
# CSV and the --svg-latency chart, compared lower-is-better whatever the test's direction.
#
# Two synthetic runs ("bare", "vm"), records with real CRCs (zlib's, as the grammar says):
#   lat-qd1   (ns, lower is better)   bare p50 100 us, p99 400 us; vm twice as slow
#   lat-iops  (IOPS, higher is better) bare p99 800 us; vm p99 200 us (4x better latency)
#   plain     (lps) without percentiles: no latency output
# In:  OUT/isobench-report, python3, xmllint. Out: "N passed, M failed, K skipped".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
[ -x "$rep" ] || { fail "no $rep (make -C report)"; finish; exit 1; }

# pct_log FILE SCALE_QD1 P99_IOPS [stall]: one run; SAMPLE extras scaled as named above. With
# "stall", lat-qd1's sample 1 had a 10 ms stall (its p99.9 and max say 10 ms, the others do
# not) and its RESULT carries the whole-run percentiles the runner writes (harness.c).
pct_log() {
	mklog "$1" "$2" "$3" "${4:-}" <<'EOF'
import sys
from seal import result, sample
scale, p99iops, stall = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
recs = ["BEGIN run=%016x version=t mode=host" % int(scale * 1000 + p99iops)]
better_of, vals = {}, {}
def test(name, unit, better, n):
    better_of[name] = better
    recs.append("TEST test=%s k=%d n=3 copies=1 unit=%s better=%s group=disk title=%s "
                "clocksource=tsc" % (name, n, unit, better, name))
def sample_of(name, i, value, extra):
    v = float("%.3f" % value)
    vals.setdefault(name, []).append(v)
    recs.append(sample(name, i, v, better_of[name], extra))
def result_of(name, unit, extra=""):
    recs.append(result(name, unit, better_of[name], vals[name], extra=extra))
test("lat-qd1", "ns", "lower", 1)
for i, f in enumerate((0.99, 1.0, 1.01)):
    p50, p99 = 100000 * scale, 400000 * scale
    st = stall and i == 1
    sample_of("lat-qd1", i, p50 * f, "p50_ns=%d p99_ns=%d p999_ns=%d max_ns=%d"
              % (p50 * f, p99 * f, 10000000 if st else p99 * 2 * f, 10000000 if st else p99 * 3 * f))
result_of("lat-qd1", "ns", " p50_ns=100000 p99_ns=400000 p999_ns=10000000 max_ns=10000000" if stall else "")
test("lat-iops", "IOPS", "higher", 2)
for i in range(3):
    sample_of("lat-iops", i, 50000, "p50_ns=100000 p99_ns=%d p999_ns=%d max_ns=%d"
              % (p99iops, p99iops, p99iops))
result_of("lat-iops", "IOPS")
test("plain", "lps", "higher", 3)
for i in range(3):
    sample_of("plain", i, 1000, "other=7")
result_of("plain", "lps")
recs.append("END records=%d results=3 fails=0 skips=0 errors=0 status=ok" % len(recs))
print("\n".join(recs))
EOF
}
pct_log "$tmp/bare.log" 1 800000
pct_log "$tmp/vm.log" 2 200000
pct_log "$tmp/stall.log" 1 800000 stall
complete "$tmp/stall.log" "a run whose RESULT carries whole-run percentiles is a complete run"
complete "$tmp/bare.log" "the synthetic bare run is a complete run"
complete "$tmp/vm.log" "the synthetic vm run is a complete run"

# ---- text ----------------------------------------------------------------------------------
"$rep" "$tmp/bare.log" >"$tmp/one.txt" 2>&1 || true
has "$tmp/one.txt" '^Latency percentiles \(us, lower better\) +p50 +p99 +p99.9 +max$' \
	"text, one run: the percentile table's head"
has "$tmp/one.txt" '^lat-qd1 +100\.0 +400\.0 +800\.0 +1200\.0$' \
	"text, one run: lat-qd1's medians over the samples, in us"
has "$tmp/one.txt" '^\(each: medians over the samples' \
	"text, one run of an older log: the percentiles are said to be the samples' medians"
sed -n '/^Latency percentiles/,/^(each/p' "$tmp/one.txt" >"$tmp/one.pct"
lacks "$tmp/one.pct" "plain" "text, one run: a test without percentiles has no row in that table"
"$rep" --label bare,vm --svg-latency "$tmp/lat.svg" "$tmp/bare.log" "$tmp/vm.log" >"$tmp/cmp.txt" 2>&1 || true
has "$tmp/cmp.txt" '^lat-qd1 +p50 +100\.0 +200\.0 +0\.50$' \
	"text, compared: twice the latency is a ratio of 0.50 (lower is better)"
has "$tmp/cmp.txt" '^lat-iops +p99 +800\.0 +200\.0 +4\.00$' \
	"text, compared: an IOPS test's p99 four times lower is 4.00, whatever the test's direction"

# Whole-run tails (issue 35): one 10 ms stall in one sample of three is the median of no
# sample's p99.9, but the RESULT's whole-run p99.9 and max show it, and the report shows those.
"$rep" "$tmp/stall.log" >"$tmp/stall.txt" 2>&1 || true
has "$tmp/stall.txt" '^lat-qd1 +100\.0 +400\.0 +10000 +10000$' \
	"text: a stall in one sample is in the whole-run p99.9 and max (from the RESULT)"
has "$tmp/stall.txt" '^\(tests whose RESULT carries them: of the whole run, every sample.s histogram merged\)' \
	"text: the percentiles are said to be the whole run's"
has "$tmp/stall.txt" '^\(the others: medians over the samples' \
	"text: those of a test whose RESULT lacks them are said to be the samples' medians"
"$rep" --format json "$tmp/stall.log" >"$tmp/stall.json" 2>/dev/null || true
python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
def f(o):
    if isinstance(o,dict):
        if o.get("test")=="lat-qd1" and o.get("latency_ns"): print(o["latency_ns"]["p999_ns"], o["latency_ns"]["from"])
        [f(v) for v in o.values()]
    elif isinstance(o,list): [f(v) for v in o]
f(d)' "$tmp/stall.json" >"$tmp/stall.jout" 2>&1 || true
has "$tmp/stall.jout" '^10000000(\.0)? whole_run$' "JSON: latency_ns.p999_ns is the whole run's, from=whole_run"

# ---- JSON and CSV --------------------------------------------------------------------------
"$rep" --format json "$tmp/bare.log" "$tmp/vm.log" >"$tmp/r.json" 2>/dev/null || true
python3 - "$tmp/r.json" >"$tmp/json.out" <<'EOF' || true
import json, sys
d = json.load(open(sys.argv[1]))
def find(o, pred, acc):
    if isinstance(o, dict):
        if pred(o):
            acc.append(o)
        for v in o.values():
            find(v, pred, acc)
    elif isinstance(o, list):
        for v in o:
            find(v, pred, acc)
    return acc
tests = find(d, lambda o: o.get("test") == "lat-qd1" and "latency_ns" in o, [])
plain = find(d, lambda o: o.get("test") == "plain" and "latency_ns" in o, [])
rows = find(d, lambda o: o.get("test") == "lat-iops" and "cells" in o, [])
print("qd1_p50", tests[0]["latency_ns"]["p50_ns"] if tests else None)
print("plain", plain[0]["latency_ns"] if plain else "absent")
print("iops_ratio_p99", rows[0]["cells"][1]["latency_ratio"]["p99_ns"] if rows else None)
print("ref_ratio", rows[0]["cells"][0]["latency_ratio"] if rows else "absent")
EOF
has "$tmp/json.out" '^qd1_p50 100000(\.0)?$' "JSON: latency_ns.p50_ns of a test"
has "$tmp/json.out" '^plain None$' "JSON: latency_ns is null for a test without percentiles"
has "$tmp/json.out" '^iops_ratio_p99 4(\.0)?$' "JSON: a cell's latency_ratio, lower is better"
has "$tmp/json.out" '^ref_ratio None$' "JSON: the reference cell has no latency ratio"
"$rep" --format csv "$tmp/bare.log" "$tmp/vm.log" >"$tmp/r.csv" 2>/dev/null || true
has "$tmp/r.csv" ',derived,[0-9]*,,,lat-qd1,1,p999_ns,800000,ns' "CSV: a derived p999_ns row, in ns"
has "$tmp/r.csv" ',derived,[0-9]*,,,lat-qd1,1,p50_ns_ratio_to_run1,0\.5,ratio' \
	"CSV: a p50_ns ratio row of the second run"
hasnt "$tmp/r.csv" ',plain,1,p50_ns' "CSV: no percentile rows for a test without them"

# ---- SVG -----------------------------------------------------------------------------------
check "SVG: --svg-latency writes valid XML" xmllint --noout "$tmp/lat.svg"
count_is "$tmp/lat.svg" "^<rect x='300.0'" 16 "SVG: a bar per run, quantile and test (2 x 4 x 2)"
contains "$tmp/lat.svg" ">p99.9</text>" "SVG: the quantiles are labelled"
contains "$tmp/lat.svg" "(x0.50)</text>" "SVG: the second run's bars carry the ratio the right way round"
lacks "$tmp/lat.svg" ">plain (" "SVG: a test without percentiles has no block"

# ---- replicates ----------------------------------------------------------------------------
# A side of three runs shows its tails over all of them, as its value is: p50 the geometric
# mean of the runs' (a: 100, 110, 121 us -> 110; b: 242, 220, 200 us -> 220, ratio 0.50), max
# the largest run's (a: 1200 us x 1.21 = 1452). Its first run alone: 100 and 242 us, 0.41.
for s in 1 1.1 1.21; do pct_log "$tmp/ra-$s.log" "$s" 800000; done
for s in 2.42 2.2 2; do pct_log "$tmp/rb-$s.log" "$s" 200000; done
"$rep" --label a,a,a,b,b,b --svg-latency "$tmp/rep.svg" --format text "$tmp"/ra-{1,1.1,1.21}.log \
	"$tmp"/rb-{2.42,2.2,2}.log >"$tmp/rep.txt" 2>&1 || true
has "$tmp/rep.txt" '^lat-qd1 +p50 +110\.0 +220\.0 +0\.50$' "text, replicates: p50 the geometric mean of each side's runs"
has "$tmp/rep.txt" '^lat-qd1 +max +1452\.0 ' "text, replicates: max the largest of the side's runs"
contains "$tmp/rep.txt" "a side of several runs: p50, p99, p99.9 the geometric mean of its runs', max the largest" \
	"text, replicates: the table's header says what a side's figure is"
contains "$tmp/rep.svg" "(x0.50)</text>" "SVG, replicates: the ratio of the sides' pooled p50"
contains "$tmp/rep.svg" "a side of several runs" "SVG, replicates: the chart says what a side's figure is"
"$rep" --format json --label a,a,a,b,b,b "$tmp"/ra-{1,1.1,1.21}.log "$tmp"/rb-{2.42,2.2,2}.log 2>/dev/null \
	| python3 -c 'import json, sys
for r in json.load(sys.stdin)["comparison"]["rows"]:
    if r["test"] == "lat-qd1":
        print("p50 ratio %.2f" % r["cells"][1]["latency_ratio"]["p50_ns"])' >"$tmp/rep.json.out" 2>&1 || true
has "$tmp/rep.json.out" '^p50 ratio 0\.50$' "JSON, replicates: latency_ratio of the sides' pooled p50"

finish
