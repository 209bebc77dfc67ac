#!/usr/bin/env bash
# tests/test-verdicts.sh — verdicts a statistician would sign (issue 46), on synthetic logs of
# 24 tests and 5 runs a side (tests/verdict-logs.py: seeded, records sealed with their CRC), so
# every figure is the same on every machine:
#  - every sample counts: a run whose worst third of samples is 2x slower compares as slower
#    than its clean twin (UnixBench's aggregate, which drops that third, is unchanged), with
#    RESULT whole= and, in a log written before it, from the SAMPLEs;
#  - three answers: a planted 10% slowdown in three tests gives exactly those rows "different",
#    three same-build pairs none; the answer with its interval in text, JSON, CSV, HTML and the
#    store's check (same rule), exit status 4 only for "different", --min-effect;
#  - each side's steal shown, a warning above CMP_STEAL_WARN_PCT;
#  - tests/plant-slowdown.py (the native demonstration's planting) gives a valid log whose
#    planted rows, and only those, are different;
#  - the fleet (a directory of one-run logs, grouped by machine) answers by the same rule
#    (Benjamini-Hochberg, min-effect): a 2% change with p < 0.01 is not "different", and each
#    group cell says its answer, interval and runs in text and JSON;
#  - odd inputs: one run a side, zero-variance rows (equal and 10% apart), identical sides,
#    120 rows, a row on one side only, --min-effect 0 / -5 / 100 / 5% / nan / abc (a usage
#    error naming the option, or a clear answer), interleaved A/B logs with a round lost (the
#    run without a partner named in a note).
# In: OUT/isobench-report, python3. Out: "N passed, M failed, K skipped".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
[ -x "$rep" ] || { fail "no $rep (make -C report)"; finish; exit 1; }
gen() { python3 "$top/tests/verdict-logs.py" "$@"; }
planted=t03,t10,t17

# 1. Every sample counts: the same runs, the worst third of every test's samples 2x slower.
gen "$tmp/clean.log" 5 11
gen "$tmp/tail.log" 5 11 --worst-third 2
gen "$tmp/tail-old.log" 5 11 --worst-third 2 --no-whole
gen "$tmp/clean-old.log" 5 11 --no-whole
complete "$tmp/tail.log" "the synthetic log with a slow worst third is complete"
# UnixBench's aggregate (RESULT value=) is the same in both: what the old comparison saw.
va=$(grep -o 'RESULT test=t00 [^*]*' "$tmp/clean.log" | head -n 1 | grep -o ' value=[0-9.]*') || true
vb=$(grep -o 'RESULT test=t00 [^*]*' "$tmp/tail.log" | head -n 1 | grep -o ' value=[0-9.]*') || true
if [ -n "$va" ] && [ "$va" = "$vb" ]; then pass "the aggregate hides the slow third ($va both)"
else fail "the planted logs' aggregates differ ('$va', '$vb'): the test plants the wrong samples"; fi
expect_status EXIT_DIFFERS "5+5, worst third 2x slower: status 4" -- \
	"$rep" --label clean,tail "$tmp/clean.log" "$tmp/tail.log"
count_is "$tmp/stdout" '^t[0-9]{2} +1 tail +5\+5 +welch-t .* \* different: [0-9.]+% slower' 24 \
	"every test different and slower with the worst third 2x slower (RESULT whole=)"
expect_status EXIT_DIFFERS "the same, logs without whole= (older runners): from the samples" -- \
	"$rep" --label clean,tail "$tmp/clean-old.log" "$tmp/tail-old.log"
count_is "$tmp/stdout" '^t[0-9]{2} +1 tail +5\+5 +welch-t .* \* different: [0-9.]+% slower' 24 \
	"every test different and slower, whole-run values derived from the SAMPLEs"
# One run a side (within-run, no verdict): the ratio still says slower, by the whole-run values.
python3 - "$tmp/clean.log" "$tmp/c1.log" "$tmp/tail.log" "$tmp/t1.log" <<'EOF'
import sys
for src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    lines = open(src).read().splitlines(True)
    end = next(i for i, l in enumerate(lines) if " END " in l)
    open(dst, "w").writelines(lines[:end + 1])
EOF
"$rep" --label c,t "$tmp/c1.log" "$tmp/t1.log" >"$tmp/one.txt" 2>&1 || true
count_is "$tmp/one.txt" '^t[0-9]{2} +1 (lps|ns) +[0-9.]+ +[0-9.]+ +0\.[0-8][0-9] [*~?]' 24 \
	"one run a side: every ratio below 0.9 (the whole-run values, not the aggregates)"

# 2. A planted 10% slowdown in three tests: exactly those rows different.
gen "$tmp/a.log" 5 1
gen "$tmp/b.log" 5 2 --slower t03=1.10,t10=1.10,t17=1.10
expect_status EXIT_DIFFERS "planted 10% in $planted: status 4" -- \
	"$rep" --label a,b "$tmp/a.log" "$tmp/b.log"
cp "$tmp/stdout" "$tmp/planted.txt"
count_is "$tmp/planted.txt" '^t[0-9]{2} +1 b .* \* different: ' 3 "exactly three rows different"
for t in t03 t10 t17; do
	has "$tmp/planted.txt" "^$t +1 b +5\\+5 +welch-t .* \\* different: [0-9.]+% slower \\(95% CI [0-9.]+% slower to [0-9.]+% slower\\), q [0-9.e-]+, beyond the min-effect 5%$" \
		"$t: different, its interval, q and the min-effect said"
done
count_is "$tmp/planted.txt" '^t[0-9]{2} +1 b .* = equivalent: .*\(90% CI .*\), inside \+-5%, the min-effect$' 21 \
	"the 21 others equivalent (their 90% CI inside +-5%)"
has "$tmp/planted.txt" '^isobench-report: compared 2 sides of 5, 5 runs: 3 different, 21 equivalent, 0 undecided' \
	"the closing line counts the three answers"

# 3. Same build, three pairs: nothing different, status 0.
for k in 1 2 3; do
	gen "$tmp/s$k-a.log" 5 $((100 + 2 * k))
	gen "$tmp/s$k-b.log" 5 $((101 + 2 * k))
	expect_status EXIT_OK "same build, pair $k: status 0" -- \
		"$rep" --label a,b "$tmp/s$k-a.log" "$tmp/s$k-b.log"
	count_is "$tmp/stdout" '^t[0-9]{2} +1 b .* \* different' 0 "same build, pair $k: no row different"
done

# 3b. tests/plant-slowdown.py (docs/benchmarks/verdicts.sh plants with it in real logs): a same-
# build log made 10% slower in t04 (a rate) and t05 (a time), records resealed: still a valid
# log, and exactly those two rows different.
python3 "$top/tests/plant-slowdown.py" "$tmp/s1-b.log" "$tmp/s1-p.log" 1.10 t04,t05 ||
	fail "plant-slowdown.py on a synthetic log"
complete "$tmp/s1-p.log" "a log with a planted slowdown, resealed, is complete and valid"
expect_status EXIT_DIFFERS "plant-slowdown.py's t04, t05 10% slower: status 4" -- \
	"$rep" --label a,b "$tmp/s1-a.log" "$tmp/s1-p.log"
count_is "$tmp/stdout" '^t0[45] +1 b .* \* different: [0-9.]+% slower' 2 "... exactly t04 and t05 different, slower"
count_is "$tmp/stdout" '^t[0-9]{2} +1 b .* \* different' 2 "... and no other row"

# 3c. plant-slowdown.py on a real runner's log (tests/fixtures/logs/tcg-ab-digest.log: a TCG
# boot of the quick index suite, issue 46's demonstration, with a DIGEST restating each RESULT
# and its whole=): the DIGEST's whole moves with the RESULT's, so the log stays complete (the
# tool once left the DIGEST's whole alone: "the digest is damaged").
fx=$top/tests/fixtures/logs/tcg-ab-digest.log
python3 "$top/tests/plant-slowdown.py" "$fx" "$tmp/fx-p.log" 1.10 pipe,syscall ||
	fail "plant-slowdown.py on a runner's log"
complete "$tmp/fx-p.log" "a runner's log with a planted slowdown and its DIGEST: complete"
w0=$(grep -a -o 'DIGEST part=test test=pipe .* whole=[0-9.]*' "$fx" | sed 's/.*whole=//') || true
w1=$(grep -a -o 'DIGEST part=test test=pipe .* whole=[0-9.]*' "$tmp/fx-p.log" | sed 's/.*whole=//') || true
if python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a / b - 1.10) > 1e-5)' "$w0" "$w1"; then
	pass "the DIGEST's pipe whole= 10% lower ($w0 -> $w1)"
else fail "the DIGEST's pipe whole= not 10% lower: '$w0' -> '$w1'"; fi

# 3c'. A time (better=lower) planted: its window ns= is made to give the planted printed value,
# so the value still agrees with its integers (tests/fixtures/logs/tcg-clock-tsc.log's three
# clock tests, 17% slower: the old tool scaled ns by the factor and the value's 3-decimal
# rounding with it, and the reader refused the log, "its loops in ns give").
clk=$top/tests/fixtures/logs/tcg-clock-tsc.log
python3 "$top/tests/plant-slowdown.py" "$clk" "$tmp/clk-p.log" 1.17 \
	clock-monotonic,clock-realtime,clock-gettimeofday || fail "plant-slowdown.py on times"
complete "$tmp/clk-p.log" "three clock tests (times) planted 17% slower: complete"
r0=$(grep -a -o 'RESULT test=clock-monotonic .* value=[0-9.]*' "$clk" | sed 's/.*value=//') || true
r1=$(grep -a -o 'RESULT test=clock-monotonic .* value=[0-9.]*' "$tmp/clk-p.log" | sed 's/.*value=//') || true
if python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(b / a - 1.17) > 1e-3)' "$r0" "$r1"; then
	pass "clock-monotonic's RESULT 17% longer ($r0 -> $r1)"
else fail "clock-monotonic's RESULT not 17% longer: '$r0' -> '$r1'"; fi

# 3d. A balanced A/B order varies each run's place on purpose: round 1's a (isobench.ab_pos=1)
# beside round 2's a (ab_pos=2, tests/fixtures/logs/tcg-ab-pos2.log) is no command-line
# difference (the boots' command lines differ only in it, round and side).
"$rep" --label a,b "$fx" "$top/tests/fixtures/logs/tcg-ab-pos2.log" >"$tmp/pos.txt" 2>&1 || true
has "$tmp/pos.txt" '^isobench-report: compared 2 runs' "two TCG boots of one A/B session compared"
lacks "$tmp/pos.txt" "not comparable: kernel.cmdline" "isobench.ab_pos is no command-line difference"

# 4. --min-effect: the answer is against the threshold asked. A ~8-10% change: against 15%
# it is "equivalent" (its 90% CI inside +-15%), against 9% "undecided" with the runs that would
# decide; status 0 either way (only "different" is status 4).
expect_status EXIT_OK "--min-effect 15: the planted change is no difference that matters" -- \
	"$rep" --min-effect 15 --label a,b "$tmp/a.log" "$tmp/b.log"
count_is "$tmp/stdout" '^t(03|10|17) +1 b .* = equivalent: .*, inside \+-15%, the min-effect$' 3 \
	"--min-effect 15: the planted rows equivalent"
expect_status EXIT_OK "--min-effect 9: status 0" -- \
	"$rep" --min-effect 9 --label a,b "$tmp/a.log" "$tmp/b.log"
count_is "$tmp/stdout" '^t(03|10|17) +1 b .* ~ undecided: .*min-effect 9%; (~[0-9]+ runs a side would decide|more than 1000 runs a side would be needed)$' 3 \
	"--min-effect 9: the planted rows undecided, with the runs that would decide"
expect_status EXIT_USAGE "--min-effect 0 is refused" -- "$rep" --min-effect 0 "$tmp/a.log"
# A wide spread: undecided, not "no difference".
gen "$tmp/w-a.log" 3 7 --drift 0.06
gen "$tmp/w-b.log" 3 8 --drift 0.06 --slower t03=1.05
expect_status EXIT_OK "3+3 runs spreading 6%: status 0" -- \
	"$rep" --label a,b "$tmp/w-a.log" "$tmp/w-b.log"
count_is "$tmp/stdout" '^t[0-9]{2} +1 b .* = equivalent' 0 "3+3 runs spreading 6%: nothing called equivalent"
has "$tmp/stdout" '^t03 +1 b .* ~ undecided: .*; (~[0-9]+ runs a side would decide|more than 1000 runs a side would be needed)$' \
	"3+3 runs spreading 6%: t03 undecided, with the runs that would decide"

# 5. Every format says the answer with its interval.
"$rep" --format json --label a,b "$tmp/a.log" "$tmp/b.log" >"$tmp/p.json" 2>/dev/null || true
python3 - "$tmp/p.json" >"$tmp/json.out" 2>&1 <<'EOF' || true
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["comparison"]["rows"]:
    c = r["cells"][1]
    a = c["answer"]
    print(r["test"], a["answer"], a["ratio_ci95_lo"] < a["ratio"] < a["ratio_ci95_hi"],
          a["ratio_ci90_lo"] < a["ratio"] < a["ratio_ci90_hi"], a["min_effect_pct"],
          a["q_value"] is not None, a["text"].split(":")[0], c["mark"], c["steal_pct"])
print("verdicts", d["comparison"]["verdicts"])
EOF
count_is "$tmp/json.out" '^t(03|10|17) different True True 5\.0 True different beyond-noise 0\.0$' 3 \
	"JSON: the planted rows' answer different, ratio inside its 95% and 90% CIs, min-effect, q"
count_is "$tmp/json.out" '^t[0-9]{2} equivalent True True 5\.0 True equivalent equivalent 0\.0$' 21 \
	"JSON: the others equivalent, mark 'equivalent'"
has "$tmp/json.out" '^verdicts 3$' "JSON: verdicts counts the different rows"
"$rep" --format csv --label a,b "$tmp/a.log" "$tmp/b.log" >"$tmp/p.csv" 2>/dev/null || true
count_is "$tmp/p.csv" ',t(03|10|17),1,answer,different,' 3 "CSV: an answer row, different, for the planted rows"
count_is "$tmp/p.csv" ',t[0-9]{2},1,answer,equivalent,' 21 "CSV: equivalent for the others"
count_is "$tmp/p.csv" ',t[0-9]{2},1,(q_value|min_effect_pct|ratio_ci90_lo|ratio_ci90_hi),' 96 \
	"CSV: q, min-effect and the 90% interval of every verdict"
has "$tmp/p.csv" ',t03,1,basis,"?5\+5 runs, unpaired, Welch.s t on log run values: different: [0-9.]+% slower \(95% CI' \
	"CSV: the basis says the answer with its interval"
"$rep" --format html --label a,b "$tmp/a.log" "$tmp/b.log" >"$tmp/p.html" 2>/dev/null || true
count_is "$tmp/p.html" '<td>different<br><small data-row="[0-9]+" data-run="1" data-key="basis">5\+5 runs, unpaired, Welch(&#39;|&#x27;|.)s t on log run values: different: [0-9.]+% slower \(95% CI' 3 \
	"HTML: the planted rows say different with the interval"
count_is "$tmp/p.html" '<td>equivalent<br><small ' 21 "HTML: the others say equivalent"

# 6. The store's check: the same rule against its baseline.
db=$tmp/h.db
"$rep" --db "$db" add "$tmp/a.log" >/dev/null 2>&1 || true
expect_status EXIT_REGRESSED "check, 5 planted runs against the 5 baseline runs: status 8" -- \
	"$rep" --db "$db" check --baseline all "$tmp/b.log"
count_is "$tmp/stdout" '^REGRESSION: t(03|10|17) \(copies 1\): .* welch-t, different: [0-9.]+% slower \(95% CI .*\), q [0-9.e-]+, beyond the min-effect 5%$' 3 \
	"check: exactly the planted tests regressed, with the answer and interval"
has "$tmp/stdout" 'checked 5 runs against 5 baseline runs \(all\): 3 regressed, 0 improved, 21 equivalent, 0 undecided, 0 without a verdict, of 24 tests' \
	"check: the counts of the three answers"
expect_status EXIT_OK "check, a same-build log against the baseline: status 0" -- \
	"$rep" --db "$db" check --verbose --baseline all "$tmp/s1-b.log"
count_is "$tmp/stdout" '^REGRESSION' 0 "check, same build: nothing regressed"
count_is "$tmp/stdout" '^(equivalent|undecided): t[0-9]{2} \(copies 1\): .*(inside|min-effect)' 24 \
	"check --verbose: every test's answer said"
"$rep" --db "$db" check --format json --baseline all "$tmp/b.log" >"$tmp/check.json" 2>/dev/null || true
python3 - "$tmp/check.json" >"$tmp/cj.out" 2>&1 <<'EOF' || true
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["verdicts"]:
    print(v["test"], v["regressed"], v["answer"]["answer"], v["answer"]["ratio_ci95_hi"] < 1)
print("counts", d["regressed"], d["equivalent"], d["undecided"])
EOF
count_is "$tmp/cj.out" '^t(03|10|17) True different True$' 3 "check JSON: the planted tests different, the interval below 1"
has "$tmp/cj.out" '^counts 3 21 0$' "check JSON: the counts"
# One candidate run: the prediction t, under the same rule.
python3 - "$tmp/b.log" "$tmp/b1.log" <<'EOF'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
end = next(i for i, l in enumerate(lines) if " END " in l)
open(sys.argv[2], "w").writelines(lines[:end + 1])
EOF
"$rep" --db "$db" check --verbose --baseline all "$tmp/b1.log" >"$tmp/c1.txt" 2>&1 || true
count_is "$tmp/c1.txt" '^[a-zA-Z ]+: t[0-9]{2} \(copies 1\): .* 5\+1 runs, prediction-t, (different|equivalent|undecided): ' 24 \
	"check, one candidate run: prediction t, every test one of the three answers"

# 7. Steal: shown per side, a warning above 1%.
gen "$tmp/st.log" 5 2 --steal 2.5
"$rep" --label a,b "$tmp/a.log" "$tmp/st.log" >"$tmp/st.txt" 2>&1 || true
has "$tmp/st.txt" '^warning: b: steal above 1% of the CPUs. time in 120 results \(most 2\.5%, t00\)' \
	"a side with 2.5% steal warned of"
has "$tmp/st.txt" '^       steal: 2\.50% of the CPUs. time during the samples \(mean of 24 tests' \
	"the side's steal shown"
lacks "$tmp/planted.txt" "warning: " "no steal, no warning"

# 8. The fleet: the same rule as the logs' comparison. Ten machines (one run a log, grouped by
# cpu.model), 5 + 5, runs 0.3% apart: t03, t10, t17 10% slower, t05 2% slower. The 2% is
# significant (p < 0.01: the old mark '*') but inside the min-effect: "equivalent".
mkdir -p "$tmp/fl"
gen "$tmp/fla.log" 5 31 --drift 0.003 --info cpu.model=A
gen "$tmp/flb.log" 5 32 --drift 0.003 --info cpu.model=B --slower t03=1.10,t10=1.10,t17=1.10,t05=1.02
python3 - "$tmp/fla.log" "$tmp/flb.log" "$tmp/fl" <<'EOF2'
import os, sys
for src in sys.argv[1:3]:
    runs, cur = [], []
    for l in open(src).read().splitlines(True):
        if " BEGIN " in l and cur:
            runs.append(cur)
            cur = []
        cur.append(l)
    runs.append(cur)
    for k, r in enumerate(runs):
        open(os.path.join(sys.argv[3], "%s-%d.log" % (os.path.basename(src)[:3], k)), "w").writelines(r)
EOF2
expect_status EXIT_OK "fleet of 5 + 5 machines: status 0" -- "$rep" --group-by machine "$tmp/fl"
cp "$tmp/stdout" "$tmp/fleet.txt"
count_is "$tmp/fleet.txt" '^ +2 +5 .* \* +[0-9.e-]+  5\+5 runs, unpaired, Welch.s t on log run values: different: [0-9.]+% slower \(95% CI [0-9.]+% slower to [0-9.]+% slower\), q [0-9.e-]+, beyond the min-effect 5%$' 3 \
	"fleet: exactly the three planted cells different, with their interval, q and runs"
has "$tmp/fleet.txt" '^t05 .*$' "fleet: a t05 row"
has "$tmp/fleet.txt" '^ +2 +5 .* 0\.98[0-9] = +[0-9.]+e-0[4-9]  5\+5 runs, .*: equivalent: 2\.[0-9]% slower \(90% CI ' \
	"fleet: the 2% change (p < 0.01) equivalent, not different"
count_is "$tmp/fleet.txt" '^ +2 +5 .* = +[0-9.e-]+  5\+5 runs, .*: equivalent: ' 21 "fleet: the 21 others equivalent"
has "$tmp/fleet.txt" 'answered$' "fleet: the legend says the marks are answers"
contains "$tmp/fleet.txt" "Benjamini-Hochberg q < 0.05 over the verdicts compared" \
	"fleet: the legend states the rule"
"$rep" --group-by machine --format json "$tmp/fl" >"$tmp/fleet.json" 2>/dev/null || true
python3 - "$tmp/fleet.json" >"$tmp/fj.out" 2>&1 <<'EOF2' || true
import json, sys
d = json.load(open(sys.argv[1]))
print("format", d["format"])
for r in d["rows"]:
    c = r["groups"][1]
    a = c["answer"]
    print(r["test"], c["mark"], a["answer"], a["ratio_ci95_lo"] <= a["ratio"] <= a["ratio_ci95_hi"],
          a["q_value"] is not None, a["min_effect_pct"], c["basis"].startswith("5+5 runs, unpaired"))
EOF2
count_is "$tmp/fj.out" '^t(03|10|17) \* different True True 5\.0 True$' 3 "fleet JSON: the planted cells different, with interval, q, basis"
count_is "$tmp/fj.out" '^t[0-9]{2} = equivalent True True 5\.0 True$' 21 "fleet JSON: the others (t05's 2% too) equivalent"
has "$tmp/fj.out" '^format isobench-fleet/3$' "fleet JSON: format isobench-fleet/3"
expect_status EXIT_OK "fleet, --min-effect 15: status 0" -- "$rep" --min-effect 15 --group-by machine "$tmp/fl"
count_is "$tmp/stdout" ' = +[0-9.e-]+  5\+5 runs, .*: equivalent: .*, inside \+-15%, the min-effect$' 24 \
	"fleet, --min-effect 15: every cell equivalent against 15% (the option reaches the fleet)"

# 10. Odd inputs: each gets a clear answer or a usage error naming the option.
# 0x10, ' 5', '5 ' and 5e: strtod(3) took them (or a prefix); never a percentage (lib/num.h).
for v in 0 -5 5% nan inf abc '' 0x10 ' 5' '5 ' 5e; do
	expect_status EXIT_USAGE "--min-effect '$v' refused" -- "$rep" --min-effect "$v" --label a,b "$tmp/a.log" "$tmp/b.log"
	has "$tmp/stderr" "^isobench-report: --min-effect wants a percentage above 0, at most 10000 \(a number, no % sign\), not '$v'$" \
		"--min-effect '$v': the message names the option and the value"
done
expect_status EXIT_USAGE "check --min-effect abc refused" -- "$rep" --db "$db" check --min-effect abc --baseline all "$tmp/b.log"
contains "$tmp/stderr" "--min-effect wants a percentage" "check --min-effect abc: the message names the option"
expect_status EXIT_OK "--min-effect 100: accepted, nothing is a 2x change" -- "$rep" --min-effect 100 --label a,b "$tmp/a.log" "$tmp/b.log"
count_is "$tmp/stdout" '^t[0-9]{2} +1 b .* = equivalent: .*inside \+-100%, the min-effect$' 24 "--min-effect 100: every row equivalent"
# One run a side: no verdict, said so, status 0.
expect_status EXIT_OK "one run a side: status 0" -- "$rep" --label c,t "$tmp/c1.log" "$tmp/t1.log"
has "$tmp/stdout" 'one run a side: the marks compare samples within each run' "one run a side: said to be no verdict"
"$rep" --format json --label c,t "$tmp/c1.log" "$tmp/t1.log" 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(sorted(set((r["cells"][1]["answer"] is None, "not a verdict" in r["cells"][1]["basis"]) for r in d["comparison"]["rows"])))' \
	>"$tmp/one.json" 2>&1 || true
has "$tmp/one.json" '^\[\(True, True\)\]$' "one run a side, JSON: no answer, the basis says not a verdict"
# Zero-variance rows: every run the same figures (drift 0, noise 0).
gen "$tmp/z-a.log" 4 1 --drift 0 --noise 0
gen "$tmp/z-b.log" 4 2 --drift 0 --noise 0
gen "$tmp/z-p.log" 4 2 --drift 0 --noise 0 --slower t03=1.10
expect_status EXIT_OK "zero variance, equal sides: status 0" -- "$rep" --label a,b "$tmp/z-a.log" "$tmp/z-b.log"
count_is "$tmp/stdout" '^t[0-9]{2} +1 b +4\+4 .* = equivalent: no change \(90% CI no change to no change\)' 24 \
	"zero variance, equal sides: every row equivalent, no change"
expect_status EXIT_DIFFERS "zero variance, t03 10% slower: status 4" -- "$rep" --label a,b "$tmp/z-a.log" "$tmp/z-p.log"
count_is "$tmp/stdout" '^t03 +1 b .* \* different: 10\.0% slower \(95% CI 10\.0% slower to 10\.0% slower\)' 1 \
	"zero variance, t03 10% slower: different, its interval a point"
count_is "$tmp/stdout" '^t[0-9]{2} +1 b .* \* different' 1 "... and no other row"
# The same runs on both sides (one log twice): a usage error saying why (a run is one
# replicate of one side); identical figures in distinct runs are the zero-variance case above.
expect_status EXIT_USAGE "the same runs on both sides: refused" -- "$rep" --label a,b "$tmp/a.log" "$tmp/a.log"
has "$tmp/stderr" 'is on side a .* and on side b .*: a run is one replicate of one side' "... saying why"
# 120 rows: the correction over all of them; a same build has none different.
gen "$tmp/h-a.log" 5 41 --tests 120
gen "$tmp/h-b.log" 5 42 --tests 120
gen "$tmp/h-p.log" 5 42 --tests 120 --slower t07=1.10,t77=1.10,t117=1.10
expect_status EXIT_OK "120 rows, same build: status 0" -- "$rep" --label a,b "$tmp/h-a.log" "$tmp/h-b.log"
count_is "$tmp/stdout" '^t[0-9]+ +1 b .* [*=~] (different|equivalent|undecided): ' 120 "120 rows: every row answered"
count_is "$tmp/stdout" '^t[0-9]+ +1 b .* \* different' 0 "120 rows, same build: none different"
expect_status EXIT_DIFFERS "120 rows, 3 planted: status 4" -- "$rep" --label a,b "$tmp/h-a.log" "$tmp/h-p.log"
count_is "$tmp/stdout" '^t(07|77|117) +1 b .* \* different' 3 "120 rows: the three planted rows different"
count_is "$tmp/stdout" '^t[0-9]+ +1 b .* \* different' 3 "... and no other"
# Interleaved A/B logs, one round lost (an --ab run cut short): the rounds that pair decide
# (the paired t), and the run left without its partner is said, not dropped silently.
gen "$tmp/ab-a.log" 4 61 --tests 4 --round 1 --side a
gen "$tmp/ab-b.log" 3 62 --tests 4 --round 1 --side b
"$rep" --label a,b "$tmp/ab-a.log" "$tmp/ab-b.log" >"$tmp/ab.txt" 2>&1 || true
count_is "$tmp/ab.txt" '^t0[0-3] +1 b +3x3 +paired-t ' 4 "a round lost: the three rounds that pair decide"
has "$tmp/ab.txt" '^note: b against a: round 4 of side a has no partner on side b: 1 run left out of the paired t, 3 rounds paired$' \
	"... and the partnerless round 4 is named"
gen "$tmp/ab-b4.log" 4 62 --tests 4 --round 1 --side b
"$rep" --label a,b "$tmp/ab-a.log" "$tmp/ab-b4.log" >"$tmp/ab4.txt" 2>&1 || true
lacks "$tmp/ab4.txt" "no partner" "every round paired: no note"
# A row on one side only: no verdict for it, said so; the others decided.
gen "$tmp/r-b.log" 5 2 --tests 25
expect_status EXIT_OK "a row on one side only: status 0" -- "$rep" --label a,b "$tmp/s1-a.log" "$tmp/r-b.log"
has "$tmp/stdout" '^t24 +1 b +0\+5 +too-few-runs +--- +--- \? 0\+5 runs: the test is on one side only, no verdict$' \
	"the row only side b holds: 0+5 runs, no verdict, said why"
has "$tmp/stdout" '^isobench-report: compared 2 sides of 5, 5 runs: 0 different, 24 equivalent, 0 undecided .*, 1 with too few runs' \
	"... and counted in the closing line"

finish
