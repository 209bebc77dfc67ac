#!/usr/bin/env bash
# tests/test-replicates.sh — verdicts on replicates (issue 35): isobench-report with several
# runs a side (logs sharing a --label; a log holding several runs gives each), Welch's t on the
# runs' log values (report/signif.c), the paired t when the runs carry run.round, and the
# one-run-a-side message.
#
# Synthetic runs, records with real CRCs (zlib's): four tests (two higher-, two lower-is-better),
# every run's values moved together by that run's drift (a host whose CPU speed changes between
# runs: -1.5 % .. +1.5 %), eight samples a run with a 0.5 % spread inside it.
# In:  OUT/isobench-report, python3. Out: "N passed, M failed, K skipped".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
[ -x "$rep" ] || { fail "no $rep (make -C report)"; finish; exit 1; }

# drift_log FILE SLOWER ROUND DRIFT[,DRIFT...] [SIDE]: one run per DRIFT (several: BEGIN..END each,
# as --repeat writes them), every test SLOWER times worse (1.10: 10 % slower), INFO
# run.round=ROUND when ROUND is not "-" (the first run's; the next runs count on), and
# run.ab_side=SIDE when given (as qemu/run --ab-params's boots say it). With DRIFT_INDEX=1 the
# two higher-is-better tests carry a UnixBench baseline (index tests: the run has an Index Score).
# DRIFT_SKIP=TEST leaves TEST out of every run of the log. DRIFT_FAIL=1 adds a FAIL record to
# the log's first run (END fails=1), as a run with a failing test writes it. DRIFT_SUITE=S
# writes INFO run.suite=S (default quick). DRIFT_UNCONV=K: the K-th run's RESULTs say
# converged=0. DRIFT_WARN=K: the K-th run holds a runner's WARN (its clocksource changed).
# DRIFT_SAMEROUND=1: every run carries ROUND itself (as --round R --repeat N writes them).
drift_log() {
	mklog "$@" <<'EOF'
import math, os, sys, zlib
from seal import result, sample
path, slower, rnd, drifts = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
side = sys.argv[5] if len(sys.argv) > 5 else ""
index = os.environ.get("DRIFT_INDEX") == "1"
tests = [("t-rate1", "lps", "higher", 1000.0), ("t-rate2", "lps", "higher", 50000.0),
         ("t-time1", "ns", "lower", 80.0), ("t-time2", "ns", "lower", 2500.0)]
runs = []
for k, drift in enumerate(float(d) for d in drifts.split(",")):
    # a run id of this log and run (zlib's CRC-32 as a hash, not a seal)
    recs = ["BEGIN run=%016x version=t mode=host" % (zlib.crc32(("%s%d" % (path, k)).encode()) << 16 | k)]
    info = "INFO run.suite=" + os.environ.get("DRIFT_SUITE", "quick")
    if rnd != "-":
        info += " run.round=%d" % (int(rnd) + (0 if os.environ.get("DRIFT_SAMEROUND") == "1" else k))
    if side:
        info += " run.ab_side=" + side
    recs.append(info)
    if os.environ.get("DRIFT_WARN") == str(k + 1):
        recs.append("WARN what=clocksource before=tsc after=hpet reason=the%20clocksource%20"
                    "changed%20from%20tsc%20to%20hpet")
    conv = 0 if os.environ.get("DRIFT_UNCONV") == str(k + 1) else 1
    for n, (name, unit, better, base) in enumerate(tests, 1):
        if name == os.environ.get("DRIFT_SKIP"):
            continue
        recs.append("TEST test=%s k=%d n=4 copies=1 unit=%s better=%s group=extra title=%s "
                    "clocksource=tsc%s" % (name, n, unit, better, name,
                                           " baseline=%g" % (base / 10) if index and better == "higher" else ""))
        worse = slower * (1 + drift)          # > 1: worse
        centre = base / worse if better == "higher" else base * worse
        vals = []
        for i in range(8):
            v = float("%.3f" % (centre * (1 + 0.005 * math.sin(i * 2.1 + n))))
            vals.append(v)
            recs.append(sample(name, i, v, better))
        recs.append(result(name, unit, better, vals, converged=conv))   # 8 samples: the CI is min..max
    fails = int(os.environ.get("DRIFT_FAIL") == "1" and k == 0)
    if fails:
        recs.append("FAIL test=t-broken copies=1 reason=planted")
    recs.append("END records=%d results=%d fails=%d skips=0 errors=0 status=ok"
                % (len(recs), sum(r.startswith("RESULT") for r in recs), fails))
    runs.append("\n".join(recs))
print("\n\n".join(runs))
EOF
}

# Drifts of the runs: A's and B's interleave over one range, so only B's 10 % is a difference.
drift_log "$tmp/a1.log" 1 - -0.015
drift_log "$tmp/a2.log" 1 - 0.005
drift_log "$tmp/a3.log" 1 - 0.0125
drift_log "$tmp/b1.log" 1.10 - -0.01
drift_log "$tmp/b2.log" 1.10 - 0.015
drift_log "$tmp/b3.log" 1.10 - 0.0
drift_log "$tmp/c1.log" 1 - 0.015
drift_log "$tmp/c2.log" 1 - -0.005
drift_log "$tmp/c3.log" 1 - 0.01
for f in a1 b2 c3; do complete "$tmp/$f.log" "the synthetic run $f is a complete run"; done

# 1. 3 + 3, B 10 % slower in every run: every test different, status 4.
expect_status EXIT_DIFFERS "3 + 3 runs, B 10% slower: status 4" -- \
	"$rep" --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log"
cp "$tmp/stdout" "$tmp/ab.txt"
has "$tmp/ab.txt" '^side 1: a, 3 run\(s\)' "the sides are the labels, with their runs"
has "$tmp/ab.txt" '^side 2: b, 3 run\(s\)' "side b holds its three logs"
count_is "$tmp/ab.txt" '^t-[a-z]+[0-9] +1 [a-z]+ +[0-9.]+ +[0-9.]+ +0\.9[0-2] \*' 4 \
	"every test flagged '*' with a ratio of ~0.91 (1/1.1)"
count_is "$tmp/ab.txt" ' 3\+3 +welch-t .* \* different: .*$' 4 "each verdict says 3+3 runs and Welch's t"
has "$tmp/ab.txt" 'compared 2 sides of 3, 3 runs: 4 different' "the closing line counts 4 different"
# The value shown is the side's geometric mean over its runs: t-rate1's A runs are 1000/0.985,
# 1000/1.005, 1000/1.0125 (each within 0.5 %), geometric mean ~1000.
has "$tmp/ab.txt" '^t-rate1 +1 lps +(99[5-9]|100[0-7])\.[0-9] ' "a side's value is its runs' geometric mean"

# 2. Same distribution (A against C, drifting alike): nothing different, status 0.
expect_status EXIT_OK "3 + 3 runs of one distribution: status 0" -- \
	"$rep" --label a,a,a,c,c,c "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/c1.log" "$tmp/c2.log" "$tmp/c3.log"
cp "$tmp/stdout" "$tmp/ac.txt"
count_is "$tmp/ac.txt" ' 3\+3 +welch-t .* [=~] (equivalent|undecided): .*$' 4 "no test different on same-distribution runs"
has "$tmp/ac.txt" 'compared 2 sides of 3, 3 runs: 0 different' "the closing line counts none"

# 3. A log holding several runs gives each: two logs of three runs, two labels.
drift_log "$tmp/A.log" 1 - -0.015,0.005,0.0125
drift_log "$tmp/B.log" 1.10 - -0.01,0.015,0.0
expect_status EXIT_DIFFERS "two logs of three runs each (--repeat 3): status 4" -- \
	"$rep" --label a,b "$tmp/A.log" "$tmp/B.log"
cp "$tmp/stdout" "$tmp/multi.txt"
has "$tmp/multi.txt" '^side 1: a, 3 run\(s\)' "a log of three runs is a side of three"
count_is "$tmp/multi.txt" ' 3\+3 +welch-t .* \* different: .*$' 4 "its runs decide as separate logs do"
#    The same logs without --label: the last complete run of each, as before.
expect_status EXIT_OK "the same logs without --label: one run each, status 0" -- \
	"$rep" "$tmp/A.log" "$tmp/B.log"
has "$tmp/stdout" "each log holds several runs, .*\\(--label a,b $tmp/A\\.log $tmp/B\\.log\\)\$" \
	"... and the one-run line names --label for these logs, not the --repeat they already have"
lacks "$tmp/stdout" "or --repeat N)" "... without telling the user to use --repeat"
#    Three such logs a side: the label list the hint gives matches the logs, a label each.
for f in A1 A2 A3 B1 B2 B3; do cp "$tmp/${f:0:1}.log" "$tmp/r$f.log"; done
"$rep" "$tmp"/rA[123].log "$tmp"/rB[123].log >"$tmp/hint6.txt" 2>&1 || true
has "$tmp/hint6.txt" "\\(--label a,a,a,b,b,b $tmp/rA1\\.log $tmp/rA2\\.log $tmp/rA3\\.log $tmp/rB1\\.log $tmp/rB2\\.log $tmp/rB3\\.log\\)\$" \
	"six logs of several runs: the hint's --label a,a,a,b,b,b matches the six logs"

#    Every run on a side counts for the exit status, not only the log's last: a FAIL in the
#    first of A's three runs is status 1 (FAILs outrank 4), and that run is named.
DRIFT_FAIL=1 drift_log "$tmp/Afail.log" 1 - -0.015,0.005,0.0125
expect_status EXIT_FAILS "a FAIL in an earlier run of a side: status 1" -- \
	"$rep" --label a,b "$tmp/Afail.log" "$tmp/B.log"
has "$tmp/stdout" 'Afail\.log: run 1 of 3, counted on its side, holds 1 fails, 0 errors' \
	"the earlier run with the FAIL is named"
#    --check with sides judges the same runs: the same status and the same line.
expect_status EXIT_FAILS "--check --label: a FAIL in an earlier run of a side, status 1" -- \
	"$rep" --check --label a,b "$tmp/Afail.log" "$tmp/B.log"
has "$tmp/stdout" 'Afail\.log: run 1 of 3, counted on its side, holds 1 fails, 0 errors' \
	"--check names the earlier run with the FAIL as the comparison does"
expect_status EXIT_OK "--check without --label: each log's last run alone, status 0" -- \
	"$rep" --check "$tmp/Afail.log" "$tmp/B.log"
#    A damaged record in a middle run drops that run from its side, and a line says so.
sed '/^@isobench\/1 [0-9]* RESULT test=t-rate1 /{x;s/^/x/;/^xx$/{x;s/value=/valuE=/;b};x}' \
	"$tmp/A.log" >"$tmp/Adamaged.log"
expect_status EXIT_OK "a damaged record in run 2 of 3: the comparison of 2 + 3 runs" -- \
	"$rep" --label a,b "$tmp/Adamaged.log" "$tmp/B.log"
has "$tmp/stdout" '^side 1: a, 2 run\(s\)' "the damaged run is not on its side"
count_is "$tmp/stdout" 'Adamaged\.log: run 2 of 3 \(from line [0-9]+\) is incomplete: .*; not counted on its side$' 1 \
	"one line says run 2 is incomplete and not counted"

#    JSON and CSV list every run behind the verdict, each with its own id and lines, and a
#    side's pooled value carries no single run's median CI.
"$rep" --format json --label a,b "$tmp/A.log" "$tmp/B.log" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["runs"]:
    print("run", r["label"], r["run_index"], r["run_id"], r["first_line"], r["last_line"])
for c in d["comparison"]["rows"][0]["cells"]:
    print("cell", c["median_ci95_lo"], c["median_ci95_hi"])' >"$tmp/runs.out" 2>&1 || true
count_is "$tmp/runs.out" '^run ' 6 "JSON: runs lists the 3 + 3 runs compared"
python3 - "$tmp/A.log" "$tmp/B.log" >"$tmp/runs.want" <<'EOF2'
import re, sys
for label, path in zip("ab", sys.argv[1:]):
    k, first = 0, 0
    for n, line in enumerate(open(path), 1):
        if " BEGIN run=" in line:
            k, first, rid = k + 1, n, re.search(r"run=([0-9a-f]+)", line).group(1)
        if " END " in line:
            print("run", label, k, rid, first, n)
EOF2
if grep '^run ' "$tmp/runs.out" | diff - "$tmp/runs.want" >/dev/null; then
	pass "JSON: each run's index, run id and line range are its own"
else fail "JSON: runs differ from the logs' BEGIN..END: $(grep '^run ' "$tmp/runs.out" | head -3)"; fi
count_is "$tmp/runs.out" '^cell None None$' 2 "JSON: no single run's median CI beside a side's geometric mean"
"$rep" --format csv --label a,b "$tmp/A.log" "$tmp/B.log" 2>/dev/null | cut -d, -f2,3 | sort -u \
	| grep -c '^[ab],' >"$tmp/csvruns.out" || true
has "$tmp/csvruns.out" '^6$' "CSV: rows for each of the 6 runs (label, run id)"
#    CSV: the side's pooled value (the ratio's terms) beside the pooled ratio, per side.
"$rep" --format csv --label a,b "$tmp/A.log" "$tmp/B.log" 2>/dev/null >"$tmp/side.csv" || true
python3 - "$tmp/side.csv" >"$tmp/side.out" 2>&1 <<'EOF3' || true
import csv, sys
v = {}
for r in csv.reader(open(sys.argv[1])):
    if r[7] == "t-rate1" and r[9] in ("side_value", "ratio_to_run1"):
        v[(r[1], r[9])] = float(r[10])
a, b = v[("a", "side_value")], v[("b", "side_value")]
print("side %.1f %.1f %s" % (a, b, abs(b / a - v[("b", "ratio_to_run1")]) < 1e-9))
EOF3
has "$tmp/side.out" '^side (99[5-9]|100[0-7])\.[0-9] (90[4-9]|91[0-4])\.[0-9] True$' \
	"CSV: side_value per side is its runs' geometric mean, the terms of ratio_to_run1"

#    A side's convergence and the runner's WARNs are every run's, not its first run's: run 2
#    of A did not converge (its values get '!', JSON converged false), run 3 of A and run 1
#    of B carry a WARN (named by run, on each side).
DRIFT_UNCONV=2 DRIFT_WARN=3 drift_log "$tmp/Aw.log" 1 - -0.015,0.005,0.0125
DRIFT_WARN=1 drift_log "$tmp/Bw.log" 1.10 - -0.01,0.015,0.0
for f in Aw Bw; do complete "$tmp/$f.log" "the synthetic log $f (a WARN, converged=0) is complete"; done
"$rep" --label a,b "$tmp/Aw.log" "$tmp/Bw.log" >"$tmp/conv.txt" 2>&1 || true
count_is "$tmp/conv.txt" '^t-[a-z]+[0-9] +1 [a-z]+ +[0-9.]+! +[0-9.]+  ' 4 \
	"text: side a's values marked '!' (its run 2 did not converge), side b's not"
has "$tmp/conv.txt" '^! after a value: the sampling of some run of that side did not converge' \
	"text: the legend says '!' is some run of the side"
has "$tmp/conv.txt" '^warning: a run 3: the clocksource changed from tsc to hpet$' \
	"text: the WARN of side a's run 3, named by run"
has "$tmp/conv.txt" '^warning: b run 1: the clocksource changed from tsc to hpet$' \
	"text: ... and side b's run 1's"
"$rep" --format json --label a,b "$tmp/Aw.log" "$tmp/Bw.log" 2>"$tmp/conv.err" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparison"]
print("conv", " ".join("%s" % [x["converged"] for x in r["cells"]] for r in c["rows"]))
print("warn", len([w for w in c["warnings"] if "clocksource changed" in w]))' >"$tmp/conv.out" 2>&1 || true
has "$tmp/conv.out" '^conv (\[False, True\] ?){4}$' "JSON: converged false on side a (over its runs), true on b"
has "$tmp/conv.out" '^warn 2$' "JSON: both WARNs among the warnings"
#    One WARN on every run of a side is one line naming the runs.
DRIFT_WARN=1 drift_log "$tmp/w1.log" 1 - 0.0
DRIFT_WARN=1 drift_log "$tmp/w2.log" 1 - 0.01
"$rep" --label a,a,a,b "$tmp/w1.log" "$tmp/w2.log" "$tmp/a3.log" "$tmp/b1.log" >"$tmp/w.txt" 2>&1 || true
has "$tmp/w.txt" '^warning: a runs 1, 2: the clocksource changed from tsc to hpet$' \
	"text: one WARN two runs of a side carry is one line naming both"

#    Runs of another suite pooled into one side: the not-comparable warning the sides' first
#    runs get, now for the runs within a side too.
DRIFT_SUITE=standard drift_log "$tmp/std.log" 1 - 0.0
"$rep" --label a,a,b "$tmp/A.log" "$tmp/std.log" "$tmp/B.log" >"$tmp/mixed.txt" 2>&1 || true
has "$tmp/mixed.txt" '^warning: not comparable: run\.suite differs \(a run 1: quick; a run 4: standard\)$' \
	"a side pooling runs of two suites is warned about, naming the run"
count_is "$tmp/mixed.txt" '^warning: not comparable' 1 "... and runs of one suite on a side are not"
#    HTML's machine table: each run of a side, not its first alone; a fact the side's runs
#    share said once as the same in all, one they differ in listed per run and said to differ.
"$rep" --format html --label a,a,b "$tmp/A.log" "$tmp/std.log" "$tmp/B.log" >"$tmp/mixed.html" 2>/dev/null || true
has "$tmp/mixed.html" '<th>side 1: a, 4 runs</th><th>side 2: b, 3 runs</th>' "HTML: a column per side, with its runs"
has "$tmp/mixed.html" '<tr><th>file</th><td>run 1: [^<]*/A\.log \(its run 1 of 3\)<br>run 2: [^<]*/A\.log \(its run 2 of 3\)<br>run 3: [^<]*/A\.log \(its run 3 of 3\)<br>run 4: [^<]*/std\.log</td>' \
	"HTML: the file row names every run of the side (and which run of a log of several)"
count_is "$tmp/mixed.html" '^<tr><th>run id / build / mode</th><td>(run [1-4]: [0-9a-f]{16} / t / host(<br>)?){4}</td>' 1 \
	"HTML: each run's id, build and mode"
has "$tmp/mixed.html" '<tr><th>suite</th><td>run 1: quick<br>run 2: quick<br>run 3: quick<br>run 4: standard<br><small>differs between the runs</small></td>' \
	"HTML: a fact the side's runs differ in, each run's and said to differ"
has "$tmp/mixed.html" '<tr><th>clocksource</th><td>-<br><small>the same in all 4 runs</small></td><td>-<br><small>the same in all 3 runs</small></td></tr>' \
	"HTML: a fact they share, once and said to be the same in all"

#    Labels beyond ASCII: kept in UTF-8 in the HTML and SVG (escaped for markup), and in the
#    plain-ASCII text as \xNN, so two labels are never both "??".
"$rep" --label 'α,β<' --format html --svg "$tmp/utf8.svg" "$tmp/A.log" "$tmp/B.log" \
	>"$tmp/utf8.html" 2>/dev/null || true
contains "$tmp/utf8.html" "side 1: α," "HTML: a UTF-8 label is kept"
contains "$tmp/utf8.html" "side 2: β&lt;," "HTML: ... and escaped for markup"
contains "$tmp/utf8.svg" ">β&lt;" "SVG: a UTF-8 label is kept, escaped for markup"
"$rep" --label 'α,β' "$tmp/A.log" "$tmp/B.log" >"$tmp/utf8.txt" 2>&1 || true
has "$tmp/utf8.txt" '^side 1: \\xce\\xb1, 3 run' "text: the label's bytes as \\xNN (side 1)"
has "$tmp/utf8.txt" '^side 2: \\xce\\xb2, 3 run' "text: ... and side 2's differs from it"
#    Labels that are not UTF-8: their stray bytes as \xNN in the HTML, SVG and JSON as in the
#    text, so two such labels stay two (and neither becomes a real label '?').
"$rep" --label $'\xff,\xfe' --format html --svg "$tmp/bad8.svg" "$tmp/A.log" "$tmp/B.log" \
	>"$tmp/bad8.html" 2>/dev/null || true
contains "$tmp/bad8.html" 'side 1: \xff,' "HTML: a label's byte that is no UTF-8 as \\xNN"
contains "$tmp/bad8.html" 'side 2: \xfe,' "HTML: ... and the other label's differs from it"
contains "$tmp/bad8.svg" '<title>\xfe: ' "SVG: a label's byte that is no UTF-8 as \\xNN"
"$rep" --label $'\xff,?' --format json "$tmp/A.log" "$tmp/B.log" 2>/dev/null | python3 -c '
import json, sys
print("labels", " ".join(json.load(sys.stdin)["comparison"]["labels"]))' >"$tmp/bad8.out" 2>&1 || true
has "$tmp/bad8.out" '^labels \\xff \?$' "JSON: a label of invalid UTF-8 as \\xNN, apart from a real '?'"
#    One helper owns that \xNN form (report/util.c byte_hex()), for the text, the JSON and
#    the markup alike: a second printf of it would let the three drift apart.
count_is <(cat "$top"/report/*.c) 'x%02x' 1 "report/: one place writes a byte as \\xNN"

#    A side whose first run lacks a test (a SKIP, a FAIL there) still decides on its other
#    runs: side a is a1 without t-time2, a2, a3, c1 (three runs hold it), side b 10 % slower.
DRIFT_SKIP=t-time2 drift_log "$tmp/a1-short.log" 1 - -0.015
expect_status EXIT_DIFFERS "4 + 3 runs, side a's first run lacking a test: status 4" -- \
	"$rep" --label a,a,a,a,b,b,b "$tmp/a1-short.log" "$tmp/a2.log" "$tmp/a3.log" "$tmp/c1.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log"
has "$tmp/stdout" '^t-time2 +1 ns +25[0-4][0-9]\.[0-9] +27[0-9][0-9]\.[0-9] +0\.9[0-2] \*' \
	"the test the first run lacks: the side's value over its other runs, ratio ~0.91, '*'"
count_is "$tmp/stdout" '^t-time2 +1 b +3\+3 +welch-t .* \* different: .*$' 1 "... decided on the 3 + 3 runs that hold it"
has "$tmp/stdout" 'compared 2 sides of 4, 3 runs: 4 different' "... so all four tests are different"
#    A test that only later runs of every side hold (each side's first run lacks it) still
#    gets its row, in the text and the JSON, decided on the runs that hold it.
DRIFT_SKIP=t-time2 drift_log "$tmp/late-a0.log" 1 - 0.0
drift_log "$tmp/late-a1.log" 1 - -0.015,0.005,0.0125
DRIFT_SKIP=t-time2 drift_log "$tmp/late-b0.log" 1.10 - 0.0
drift_log "$tmp/late-b1.log" 1.10 - -0.01,0.015,0.0
cat "$tmp/late-a0.log" "$tmp/late-a1.log" >"$tmp/late-a.log"
cat "$tmp/late-b0.log" "$tmp/late-b1.log" >"$tmp/late-b.log"
expect_status EXIT_DIFFERS "a test only later runs of each side hold: status 4" -- \
	"$rep" --label a,b "$tmp/late-a.log" "$tmp/late-b.log"
has "$tmp/stdout" '^t-time2 +1 ns +2[45][0-9][0-9]\.[0-9] +27[0-9][0-9]\.[0-9] +0\.9[0-2] \*' \
	"text: the row of a test no side's first run holds, its sides' values, ratio ~0.91, '*'"
count_is "$tmp/stdout" '^t-time2 +1 b +3\+3 +welch-t .* \* different: .*$' 1 "... decided on the 3 + 3 runs that hold it"
"$rep" --format json --label a,b "$tmp/late-a.log" "$tmp/late-b.log" 2>/dev/null | python3 -c '
import json, sys
print("rows", " ".join(sorted(r["test"] for r in json.load(sys.stdin)["comparison"]["rows"])))' \
	>"$tmp/late.out" 2>&1 || true
has "$tmp/late.out" '^rows t-rate1 t-rate2 t-time1 t-time2$' "JSON: rows for every test any run holds"
DRIFT_SKIP=t-time2 drift_log "$tmp/late-bx.log" 1.10 - -0.01,0.015,0.0
"$rep" --label a,b "$tmp/late-a.log" "$tmp/late-bx.log" >"$tmp/late-x.txt" 2>&1 || true
has "$tmp/late-x.txt" '^t-time2 +1 ns +2[45][0-9][0-9]\.[0-9] +--- +--- ' \
	"... and '---' where a side's runs all lack it"

# 4. Two runs a side: no verdict ('?'), status 0.
expect_status EXIT_OK "2 + 2 runs: no verdict, status 0" -- \
	"$rep" --label a,a,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/b1.log" "$tmp/b2.log"
count_is "$tmp/stdout" ' 2\+2 +too-few-runs .* \? 2\+2 runs: fewer than 3 a side, no verdict$' 4 "fewer than 3 runs a side: '?' per test, said why"
count_is "$tmp/stdout" ' 2\+2 +too-few-runs +--- ' 4 "... and p as '---', not nan (no p without 3 runs a side)"

# 5. One run a side: the plain message, no test significant, status 0 although B is slower.
expect_status EXIT_OK "one run a side, B 10% slower: status 0 (no verdict on samples alone)" -- \
	"$rep" "$tmp/a1.log" "$tmp/b1.log"
cp "$tmp/stdout" "$tmp/one.txt"
contains "$tmp/one.txt" "cannot tell machine drift from a difference"
has "$tmp/one.txt" 'one run a side: .*marked \* are no verdict' "the closing line says no verdict"

# 5b. Six unlabelled logs of one machine (issue 51): six distinct side names in every table (the
#     p-value table cut them to 12 characters: "KVM, 2 CPUs" five times), and the head's count
#     of each mark is the table's and the closing line's.
for i in 1 2 3 4 5 6; do
	"${OUT:-$top/out}/isobench" --suite quick --tests pipe --copies 1 --samples 6 --sample_ms 20 >"$tmp/six$i.log" 2>/dev/null
done
if python3 - "$tmp/six.txt" "$(printf '%s\n' "$tmp"/six[1-6].log)" "$rep" <<'PY' 2>"$tmp/six.err"; then
import re, subprocess, sys
out, logs, rep = sys.argv[1], sys.argv[2].strip().split("\n"), sys.argv[3]
p = subprocess.run([rep] + logs, capture_output=True, text=True)
open(out, "w").write(p.stdout)
t = p.stdout
runs = re.findall(r"^run \d+: (.*?)  \(file: ", t, re.M)
assert len(set(runs)) == 6, "run lines: %r" % runs
head = next(l for l in t.splitlines() if l.startswith("TEST ") and "UNIT" in l)
assert all(r in head for r in runs), "table head %r lacks a name of %r" % (head, runs)
sig = t.split("significance:")[1].split("\n\n")[0].splitlines()[2:]
named = [re.match(r".{36} +\d+ (.*?) +[0-9.e+-]+ +[0-9.]+ \[", l).group(1) for l in sig]
assert sorted(set(named)) == sorted(runs[1:]), "p-value table names %r, runs %r" % (set(named), runs)
rows = [l for l in t.split(head)[1].split("\n\n")[0].splitlines() if not l.startswith("Index Score")]
marks = "".join(re.findall(r" [0-9.]+ ([*~?])", " ".join(rows)))
m = re.search(r"one run a side: (\d+) cell\(s\) marked \*, (\d+) ~, (\d+) \?", t)
assert m and [int(x) for x in m.groups()] == [marks.count(c) for c in "*~?"], "head %r, marks %r" % (m and m.group(0), marks)
f = re.search(r"compared 6 runs: (\d+) beyond noise, (\d+) within noise, (\d+) without estimate", p.stdout + p.stderr)
assert f and list(f.groups()) == list(m.groups()), "closing line %r, head %r" % (f and f.group(0), m.group(0))
PY
	pass "six unlabelled logs: six distinct side names in every table, marks as the head and the closing line count them"
else fail "six unlabelled logs: $(tail -n 3 "$tmp/six.err")"; fi

# 6. Interleaved rounds (run.round): a drift that moves each round's A and B together cancels
#    in the paired t; Welch's t on the same values cannot see B's 2 %. A 2 % change is below
#    the default min-effect (5 %, the noise floor), so it is asked for with --min-effect 1.
for r in 1 2 3 4; do
	d=$(awk -v r="$r" 'BEGIN { printf "%.3f", (r % 2 ? 0.06 : -0.06) * r / 4 }')
	drift_log "$tmp/pa$r.log" 1 "$r" "$d"
	drift_log "$tmp/pb$r.log" 1.02 "$r" "$d"
done
expect_status EXIT_DIFFERS "4 interleaved rounds, B 2% slower, drifting host: paired, status 4" -- \
	"$rep" --min-effect 1 --label a,b,a,b,a,b,a,b "$tmp/pa1.log" "$tmp/pb1.log" "$tmp/pa2.log" "$tmp/pb2.log" \
	"$tmp/pa3.log" "$tmp/pb3.log" "$tmp/pa4.log" "$tmp/pb4.log"
count_is "$tmp/stdout" ' 4x4 +paired-t .* \* different: .*$' 4 "each test paired by round (4x4) and different"
lacks "$tmp/stdout" "not paired by round" "rounds that pair: no note"
#    Runs that carry rounds which cannot pair (--round 3 --repeat 3: three runs of round 3 a
#    side) fall back to Welch's t, and a note says why.
DRIFT_SAMEROUND=1 drift_log "$tmp/r3a.log" 1 3 -0.015,0.005,0.0125
DRIFT_SAMEROUND=1 drift_log "$tmp/r3b.log" 1.10 3 -0.01,0.015,0.0
"$rep" --label a,b "$tmp/r3a.log" "$tmp/r3b.log" >"$tmp/r3.txt" 2>&1 || true
count_is "$tmp/r3.txt" ' 3\+3 +welch-t .* \* different: .*$' 4 "every run of round 3: Welch's t, 3+3 runs"
count_is "$tmp/r3.txt" '^note: runs not paired by round: round 3 is carried by 3 runs of side a, so b against a is Welch.s t on the runs. values' 1 \
	"one note says why the runs are not paired"
drift_log "$tmp/r3c.log" 1.10 1 -0.01,0.015,0.0
"$rep" --label a,b "$tmp/A.log" "$tmp/r3c.log" >"$tmp/r3c.txt" 2>&1 || true
has "$tmp/r3c.txt" '^note: runs not paired by round: a run 1 carries no run\.round, so b against a' \
	"rounds on one side only: the note names the run without one"
lacks "$tmp/multi.txt" "not paired by round" "runs without any round: Welch's t by design, no note"
# 7. Every format says what each verdict rests on (runs a side, paired or not, the test).
"$rep" --format json --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log" >"$tmp/ab.json" 2>/dev/null || true
"$rep" --format json "$tmp/a1.log" "$tmp/b1.log" >"$tmp/one.json" 2>/dev/null || true
"$rep" --format json --label a,b,a,b,a,b,a,b "$tmp/pa1.log" "$tmp/pb1.log" "$tmp/pa2.log" \
	"$tmp/pb2.log" "$tmp/pa3.log" "$tmp/pb3.log" "$tmp/pa4.log" "$tmp/pb4.log" >"$tmp/p.json" 2>/dev/null || true
python3 - "$tmp/ab.json" "$tmp/one.json" "$tmp/p.json" >"$tmp/json.out" <<'EOF' || true
import json, sys
for name, path in zip(("ab", "one", "paired"), sys.argv[1:]):
    c = json.load(open(path))["comparison"]
    cell = c["rows"][0]["cells"][1]
    print(name, cell["runs_a"], cell["runs_b"], cell["paired"], cell["verdict"], cell["method"],
          "|", cell["basis"], "|", c["verdicts"], c["replicated"])
EOF
has "$tmp/json.out" "^ab 3 3 False True welch-t \| 3\+3 runs, unpaired, Welch's t on log run values: different: [0-9.]+% slower \(95% CI .*\| 4 True$" \
	"JSON: a replicate cell says 3+3 runs, unpaired, Welch's t, a verdict"
has "$tmp/json.out" "^one 1 1 False False mann-whitney \| 1\+1 runs, within-run only \(Mann-Whitney U on samples\): not a verdict \| 0 False$" \
	"JSON: a one-run cell says within-run only, not a verdict"
has "$tmp/json.out" "^paired 4 4 True True paired-t \| 4 rounds paired, paired t on log ratios" \
	"JSON: a paired cell says 4 rounds paired, the paired t"
"$rep" --format csv --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log" >"$tmp/ab.csv" 2>/dev/null || true
has "$tmp/ab.csv" ",t-rate1,1,basis,\"?3\+3 runs, unpaired, Welch's t on log run values: different: [0-9.]+% slower \(95% CI [^\"]*\"?," \
	"CSV: a basis row per cell"
has "$tmp/ab.csv" ",t-rate1,1,verdict,1," "CSV: verdict=1 on replicates"
"$rep" --format html --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log" >"$tmp/ab.html" 2>/dev/null || true
has "$tmp/ab.html" "different<br><small data-row=\"[0-9]+\" data-run=\"1\" data-key=\"basis\">3\+3 runs, unpaired, Welch(&#39;|&#x27;|')s t on log run values: different: [0-9.]+% slower \(95% CI [^<]*</small>" \
	"HTML: each mark says what it rests on"
"$rep" --svg "$tmp/one.svg" "$tmp/a1.log" "$tmp/b1.log" >/dev/null 2>&1 || true
contains "$tmp/one.svg" "marks rest on: one run a side, within-run only: not a verdict" "SVG: the legend says what the marks rest on"
#    Replicates in the chart: one basis for every mark, in the legend and each bar's tooltip.
"$rep" --svg "$tmp/ab.svg" --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log" >/dev/null 2>&1 || true
contains "$tmp/ab.svg" "marks rest on: 3+3 runs, unpaired, Welch&#39;s t on log run values: a verdict" \
	"SVG, 3 + 3 runs: the legend says the marks rest on 3+3 runs, unpaired, Welch's t"
count_is "$tmp/ab.svg" '<title>b: 0\.9[0-2][0-9] — 3\+3 runs, unpaired, Welch&#39;s t on log run values: a verdict</title>' 4 \
	"SVG: each of the 4 bars' tooltips says what its mark rests on"
lacks "$tmp/ab.svg" "[1]" "SVG: one basis, no [k] after the marks"
#    A test one B run lacks: its cell rests on 3+2 runs (no verdict), the others on 3+3.
DRIFT_SKIP=t-time2 drift_log "$tmp/b3-short.log" 1.10 - 0.0
"$rep" --svg "$tmp/mix.svg" --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3-short.log" >/dev/null 2>&1 || true
contains "$tmp/mix.svg" "marks rest on: 2 bases, the [k] after each mark" "SVG, mixed bases: the legend says there are two"
has "$tmp/mix.svg" '>\[1\] 3\+3 runs, unpaired, Welch&#39;s t on log run values: a verdict</text>' "SVG: basis [1] listed"
has "$tmp/mix.svg" '>\[2\] 3\+2 runs: fewer than 3 a side, no verdict</text>' "SVG: basis [2] listed (the test a run lacks)"
count_is "$tmp/mix.svg" '>0\.9[0-2] \* \[1\]</text>' 3 "SVG: the three tests of 3+3 runs say [1] after their mark"
count_is "$tmp/mix.svg" '>0\.9[0-2] \? \[2\]</text>' 1 "SVG: t-time2 (3+2 runs) says [2] after its '?'"
#    The Index Score decided over the runs is marked in the chart, the HTML and the CSV too.
DRIFT_INDEX=1 drift_log "$tmp/ia.log" 1 - 0.0,0.01,-0.01
DRIFT_INDEX=1 drift_log "$tmp/ib.log" 1.10 - 0.02,0.0,-0.01
"$rep" --svg "$tmp/idx.svg" --label a,b "$tmp/ia.log" "$tmp/ib.log" >/dev/null 2>&1 || true
has "$tmp/idx.svg" '^<text [^>]*font-weight="bold">System Benchmarks Index Score' "SVG: an Index Score row"
count_is "$tmp/idx.svg" '>0\.9[0-2] \*</text>' 5 "SVG: the 4 tests and the Index Score (over the runs) marked '*'"
contains "$tmp/idx.svg" "Index Score rows: each run's score is its value, decided over the runs" \
	"SVG: the legend says the Index Score is decided over the runs"
"$rep" --format html --label a,b "$tmp/ia.log" "$tmp/ib.log" >"$tmp/idx.html" 2>/dev/null || true
has "$tmp/idx.html" '<td class="n flag" data-copies="1" data-run="1" data-key="score_ratio">0\.9[0-2][0-9]</td><td class="n">0\.[0-9]{3}\.\.0\.9[0-9]{2}</td><td class="n">[0-9.e-]+</td><td>different<br><small data-copies="1" data-run="1" data-key="basis">3\+3 runs, unpaired, Welch(&#39;|&#x27;|'"'"')s t on log run values: different: [0-9.]+% slower \(95% CI [^<]*</small>' \
	"HTML: the Index Score row has its ratio, CI, p, 'different' and what it rests on"
contains "$tmp/idx.html" "The verdict is one of three answers: different: Benjamini-Hochberg q &lt; 0.05" "HTML: the page says the replicate rule"
#    B's runs 1000 / (1.10 x (1.02, 1.00, 0.99)): geometric mean ~906, its first run alone 891.
has "$tmp/idx.html" 'data-row="0" data-run="1" data-key="value">90[4-8]\.[0-9]<' \
	"HTML: a side's value is its runs' geometric mean (as the text and JSON), not its first run's"
"$rep" --format csv --label a,b "$tmp/ia.log" "$tmp/ib.log" >"$tmp/idx.csv" 2>/dev/null || true
has "$tmp/idx.csv" ',\(index score\),1,basis,"?3\+3 runs, unpaired, Welch'"'"'s t on log run values: different: [0-9.]+% slower \(95% CI [^"]*"?,' \
	"CSV: the Index Score's basis row"
has "$tmp/idx.csv" ',\(index score\),1,noise_mark,\*,' "CSV: the Index Score's mark row"
"$rep" --format json --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/b3.log" 2>/dev/null | python3 -c 'import json, sys
c = json.load(sys.stdin)["comparison"]["rows"][0]["cells"]
print("values %.1f %.1f" % (c[0]["value"], c[1]["value"]))' >"$tmp/jv.out" 2>&1 || true
has "$tmp/jv.out" '^values (99[5-9]|100[0-7])\.[0-9] (90[4-9]|91[0-4])\.[0-9]$' \
	"JSON: each side's value is its runs' geometric mean (the ratio's terms)"


# 8. qemu/run --ab-params's boots say run.ab_side: without --label they make the sides (paired
#    by round); one boot's log alone is read as any run (qemu/run judges each with --boot).
for r in 1 2 3; do
	d=$(awk -v r="$r" 'BEGIN { printf "%.3f", (r % 2 ? 0.05 : -0.05) }')
	drift_log "$tmp/q-r$r-a.log" 1 "$r" "$d" a
	drift_log "$tmp/q-r$r-b.log" 1.10 "$r" "$d" b
done
expect_status EXIT_DIFFERS "A/B boots without --label: sides from run.ab_side, B 10% slower" -- \
	"$rep" "$tmp"/q-r*.log
count_is "$tmp/stdout" ' 3x3 +paired-t .* \* different: .*$' 4 "the boots pair by round (3x3)"
expect_status EXIT_OK "one A/B boot's log alone (--boot, its table): a run, status 0" -- \
	"$rep" --boot --killed "$tmp/q-r1-a.log"
# 8b. Two A/B logs of one run each (sides from run.ab_side, B's log given first): one run a
#     side whatever made the sides, so the one-run message, not "too few runs"; status 0.
expect_status EXIT_OK "two A/B logs of one run each: the one-run comparison, status 0" -- \
	"$rep" "$tmp/q-r1-b.log" "$tmp/q-r1-a.log"
cp "$tmp/stdout" "$tmp/ab1.txt"
contains "$tmp/ab1.txt" "cannot tell machine drift from a difference"
lacks "$tmp/ab1.txt" "too-few-runs" "no 'too few runs' cell with one run a side"
has "$tmp/ab1.txt" '^TEST +COPIES +UNIT +a +b +ratio$' \
	"the sides are named by run.ab_side, side a the reference although B's log comes first"
has "$tmp/ab1.txt" 'compared 2 runs: ' "the closing line is the one-run comparison's"
#     The same with --label naming one log a side.
expect_status EXIT_OK "--label a,b on one run each: the one-run comparison" -- \
	"$rep" --label a,b "$tmp/a1.log" "$tmp/b1.log"
contains "$tmp/stdout" "cannot tell machine drift from a difference"

# 8c. One run given three times on a side is one run, not three replicates: its zero spread
#     would make any difference "significant". Each run counts once per side (by run id), and
#     one run a side is the one-run comparison: status 0, no verdict.
expect_status EXIT_OK "one log given thrice a side: one run a side, no verdict" -- \
	"$rep" --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a1.log" "$tmp/a1.log" \
	"$tmp/b1.log" "$tmp/b1.log" "$tmp/b1.log"
contains "$tmp/stdout" "cannot tell machine drift from a difference"
has "$tmp/stderr" 'a1\.log: run [0-9a-f]+ is already on side a: counted once' "the repeated run is named"
#     A log of three runs given twice on one side: still three runs, Welch's 3+3.
expect_status EXIT_DIFFERS "a log of three runs given twice: 3 + 3 runs, status 4" -- \
	"$rep" --label a,a,b "$tmp/A.log" "$tmp/A.log" "$tmp/B.log"
count_is "$tmp/stdout" ' 3\+3 +welch-t .* \* different: .*$' 4 "each run once: 3+3 runs a side"

# 9. The Index Score over the runs: each run's score is its value, decided as a test's row.
#    A's and B's first runs alone give a score ratio of 0.89 (1 / (1.10 x 1.02)); over the three
#    runs B is ~10.3 % slower (0.91, a verdict). Planted "first runs only": 0.89, no verdict line.
DRIFT_INDEX=1 drift_log "$tmp/ia.log" 1 - 0.0,0.01,-0.01
DRIFT_INDEX=1 drift_log "$tmp/ib.log" 1.10 - 0.02,0.0,-0.01
expect_status EXIT_DIFFERS "Index Score over 3 + 3 runs: status 4" -- \
	"$rep" --label a,b "$tmp/ia.log" "$tmp/ib.log"
cp "$tmp/stdout" "$tmp/idx.txt"
has "$tmp/idx.txt" '^Index Score( \(Partial: [0-9]+ of 12\))? +1 +[0-9.]+ +[0-9.]+ +0\.9[0-2] \*' \
	"the Index Score row is the sides' score over their runs (~0.91) and marked '*'"
has "$tmp/idx.txt" '^Index Score +1 b +3\+3 +welch-t +[0-9.e-]+ +0\.9[0-2]. \[0\.[0-9]+, 0\.9[0-9]+\] \* different: .*$' \
	"its verdict says 3+3 runs, Welch's t, p and the CI as a test's does"
#    Paired by round: the score cells pair as the tests do.
for r in 1 2 3; do
	d=$(awk -v r="$r" 'BEGIN { printf "%.3f", (r % 2 ? 0.05 : -0.05) }')
	DRIFT_INDEX=1 drift_log "$tmp/iq-r$r-a.log" 1 "$r" "$d" a
	DRIFT_INDEX=1 drift_log "$tmp/iq-r$r-b.log" 1.10 "$r" "$d" b
done
expect_status EXIT_DIFFERS "Index Score of A/B rounds: paired" -- "$rep" "$tmp"/iq-r*.log
has "$tmp/stdout" '^Index Score +1 b +3x3 +paired-t .* \* different: .*$' "the score pairs by round (3x3) too"
"$rep" --format json --label a,b "$tmp/ia.log" "$tmp/ib.log" >"$tmp/idx.json" 2>/dev/null || true
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["comparison"]["index_scores"][0]["cells"][1]
print("score", c["method"], c["runs_a"], c["runs_b"], c["mark"], "%.2f" % c["ratio"])' \
	"$tmp/idx.json" >"$tmp/idx.out" 2>&1 || true
has "$tmp/idx.out" '^score welch-t 3 3 beyond-noise 0\.9[0-2]$' "JSON: index_scores carries the score's verdict"


# 10. A run on two sides (by its run id), wherever it sits on them: refused (status 2), one line
#     naming the run, its logs and both sides, since a verdict would rest on the run compared
#     with itself. Not the sides' first runs alone: a3 is side a's run 3 and side b's run 3.
expect_status EXIT_USAGE "a run on both sides, not first on either: refused" -- \
	"$rep" --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/b1.log" "$tmp/b2.log" "$tmp/a3.log"
count_is "$tmp/stderr" '^isobench-report: run [0-9a-f]+ is on side a \([^,]*/a3\.log, its run 3\) and on side b \([^,]*/a3\.log, its run 3\): ' 1 \
	"... one line names the run, its log and both sides"
none "$(cat "$tmp/stdout")" "... and no table, no verdict rests on it" "a table was printed"
expect_status EXIT_USAGE "a log of several runs on both sides: refused" -- \
	"$rep" --label a,b "$tmp/A.log" "$tmp/A.log"
expect_status EXIT_USAGE "--check with the same sides: the same refusal" -- \
	"$rep" --check --label a,a,a,b,b,b "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" \
	"$tmp/a1.log" "$tmp/b2.log" "$tmp/b3.log"
#     One run a side, the same run: the warning it was (a comparison with itself), status 0.
expect_status EXIT_OK "one run a side, the same run: a warning, not refused" -- \
	"$rep" --label a,b "$tmp/a1.log" "$tmp/a1.log"
has "$tmp/stdout" 'are the same run \(run id' "... the same-run warning"
#     The results store: `compare all last=3` selects the last three runs on both sides.
"$rep" --db "$tmp/lab.db" add "$tmp/a1.log" "$tmp/a2.log" "$tmp/a3.log" "$tmp/b1.log" \
	"$tmp/b2.log" "$tmp/b3.log" >/dev/null 2>&1 || true
expect_status EXIT_USAGE "--db compare all last=3 (side b a subset of side a): refused" -- \
	"$rep" --db "$tmp/lab.db" compare all last=3
count_is "$tmp/stderr" '^isobench-report: run [0-9a-f]+ is selected by both all and last=3: ' 1 \
	"... one line names the run and both selectors"

# 11. The Index Score's verdict needs every run of both sides to hold the same index tests, not
#     their first runs alone: side a's run 3 lacks t-rate2 (an index test), so its partial score
#     is over other tests: no score verdict, and a note names the run.
DRIFT_INDEX=1 drift_log "$tmp/ix1.log" 1 - 0.0,0.01
DRIFT_INDEX=1 DRIFT_SKIP=t-rate2 drift_log "$tmp/ix2.log" 1 - -0.01
"$rep" --label a,a,b "$tmp/ix1.log" "$tmp/ix2.log" "$tmp/ib.log" >"$tmp/ix.txt" 2>&1 || true
hasnt "$tmp/ix.txt" '^Index Score +1 b +3\+3 +welch-t' "runs of other index tests: no Index Score verdict"
has "$tmp/ix.txt" '^Index Score( \(Partial: [0-9]+ of 12\))? +1 +[0-9.]+ +[0-9.]+ +--- *$' "... and no score ratio"
has "$tmp/ix.txt" '^note: no Index Score verdict at copies 1 for b against a: a run 3 holds other index tests than a run 1 \(t-rate2 ' \
	"... a note names the run that differs and the test"
"$rep" --label a,b "$tmp/ia.log" "$tmp/ib.log" >"$tmp/ix-same.txt" 2>&1 || true
lacks "$tmp/ix-same.txt" "no Index Score verdict" "runs of the same index tests: no such note"

# 12. Control bytes in a label print as \xNN (report/util.c byte_hex()) in the text and the
#     markup, so a label with a tab and a label 'a?b' stay two.
"$rep" --label $'a\tb,a?b' "$tmp/A.log" "$tmp/B.log" >"$tmp/ctl.txt" 2>&1 || true
has "$tmp/ctl.txt" '^side 1: a\\x09b, 3 run' "text: a tab in a label as \\x09"
has "$tmp/ctl.txt" '^side 2: a\?b, 3 run' "text: ... apart from a real 'a?b'"
"$rep" --label $'a?b,a\x7fb' --format html --svg "$tmp/ctl.svg" "$tmp/A.log" "$tmp/B.log" \
	>"$tmp/ctl.html" 2>/dev/null || true
contains "$tmp/ctl.html" 'side 1: a?b,' "HTML: a real 'a?b' as it is"
contains "$tmp/ctl.html" 'side 2: a\x7fb,' "HTML: ... and DEL in a label as \\x7f"
contains "$tmp/ctl.svg" '<title>a\x7fb: ' "SVG: DEL in a label as \\x7f"
# A label holding the four characters \x09 and one holding a tab: the backslash is \x5c.
"$rep" --label $'a\\x09b,a\tb' --format json "$tmp/A.log" "$tmp/B.log" >"$tmp/bs.json" 2>/dev/null || true
"$rep" --label $'a\\x09b,a\tb' "$tmp/A.log" "$tmp/B.log" >"$tmp/bs.txt" 2>&1 || true
has "$tmp/bs.txt" '^side 1: a\\x5cx09b, 3 run' "text: a backslash in a label as \\x5c"
has "$tmp/bs.txt" '^side 2: a\\x09b, 3 run' "text: ... apart from a real tab"
contains "$tmp/bs.json" '"a\\x09b"' "JSON: the backslash label as it is (JSON escapes the backslash) ..."
contains "$tmp/bs.json" '"a\tb"' "JSON: ... apart from the tab's"

# 13. A/B runs: side a is the reference (side 1) whatever the order of the logs or of the runs
#     in them. Split logs given b first; one log whose head is cut (round 1's A run lost).
expect_status EXIT_DIFFERS "A/B logs given b first: side a still side 1" -- \
	"$rep" "$tmp/q-r1-b.log" "$tmp/q-r1-a.log" "$tmp/q-r2-b.log" "$tmp/q-r2-a.log" \
	"$tmp/q-r3-b.log" "$tmp/q-r3-a.log"
has "$tmp/stdout" '^side 1: a, 3 run\(s\)' "... side 1 is a"
count_is "$tmp/stdout" '^t-[a-z]+[0-9] +1 b +3x3 +paired-t .* \* different: .*$' 4 "... b judged against a, paired"
cat "$tmp/q-r1-b.log" "$tmp/q-r2-a.log" "$tmp/q-r2-b.log" "$tmp/q-r3-a.log" "$tmp/q-r3-b.log" \
	>"$tmp/q-cut.log"
"$rep" "$tmp/q-cut.log" >"$tmp/q-cut.txt" 2>&1 || true
has "$tmp/q-cut.txt" '^side 1: a, 2 run\(s\)' "a log cut before round 1's A: side 1 is still a"
has "$tmp/q-cut.txt" '^side 2: b, 3 run\(s\)' "... and b side 2"

# 14. A log without run.ab_side among A/B logs: the A/B sides are not made, and a note says so,
#     naming that log.
"$rep" "$tmp/q-r1-a.log" "$tmp/q-r1-b.log" "$tmp/q-r2-a.log" "$tmp/q-r2-b.log" "$tmp/a1.log" \
	>"$tmp/q-mix.txt" 2>&1 || true
count_is "$tmp/q-mix.txt" '^note: A/B sides not used: [^ ]*/a1\.log \(run [0-9a-f]+\) carries no run\.ab_side' 1 \
	"a note names the log without run.ab_side"
lacks "$tmp/ab.txt" "A/B sides not used" "logs without any run.ab_side: no such note"

finish
