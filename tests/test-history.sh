#!/usr/bin/env bash
# tests/test-history.sh — the results store (issue 34; docs/history.md): isobench-report --db
# FILE add, runs, compare, trend, check and verify, on real native runs (out/isobench, two
# fast tests), the log fixtures and synthetic runs whose answers are known: a planted step
# that trend must find at its run, a planted 20 % regression that check must fail and a
# same-build rerun it must pass, replicates whose verdicts must equal comparing the logs.
# Then two writers at once and a killed writer (a power cut's imitation: kill -9 mid-ingest)
# must leave a store that verify finds consistent, holding whole logs only.
# In: OUT/isobench, OUT/isobench-report, python3 (tests/history-runs.py writes the synthetic
# logs; JSON read back), sqlite3 (reads the store), chromium (renders the trend chart).
# Out: "N passed, M failed, K skipped".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
fx=$top/tests/fixtures/logs
if [ ! -x "$rep" ] || [ ! -x "$out/isobench" ]; then
	fail "no $rep or $out/isobench (./build.sh)"
	finish
	exit 1
fi
db=$tmp/h.db

# equals WANT GOT WHAT: GOT is exactly WANT.
equals() {
	if [ "$1" = "$2" ]; then pass "$3 ($2)"; else fail "$3: want '$1', got '$2'"; fi
}
# q SQL: the answer of the store $db (sqlite3's shell, read-only; columns joined by '|').
q() { sqlite3 -readonly "$db" "$1"; }
# mkruns FILE HOUR FACTORS [FILE HOUR FACTORS]...: synthetic logs (tests/history-runs.py).
mkruns() { python3 "$top/tests/history-runs.py" "$@"; }
# json EXPR FILE: a python expression on the JSON document d of FILE, printed.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"; }

# Every synthetic log, in one python3: replicates a and b (b 10 % slower), a step series (30
# runs, 25 % slower from the 19th), a small step (30 runs, 3 % slower from the 16th), a CI baseline of five runs and its candidates (one 20 %
# slower, one the same build, three 20 % slower), two writers' logs, a killed writer's logs.
step=$(python3 -c 'import math
print(",".join("%.4f" % ((1.0 if i < 18 else 1.25) * (1 + 0.01 * math.sin(i * 1.7))) for i in range(30)))')
small=$(python3 -c 'import math
print(",".join("%.4f" % ((1.0 if i < 15 else 1.03) * (1 + 0.002 * math.sin(i * 1.7))) for i in range(30)))')
spec=("$tmp/ra.log" 0 "1.000,1.004,0.996" "$tmp/rb.log" 10 "1.10,1.104,1.097" "$tmp/small.log" 150 "$small"
	"$tmp/step.log" 100 "$step" "$tmp/base.log" 200 "1.000,1.006,0.994,1.003,0.997"
	"$tmp/slow.log" 300 1.20 "$tmp/same.log" 300 1.002 "$tmp/slow3.log" 300 "1.20,1.21,1.19"
	"$tmp/near3.log" 300 "1.03,1.032,1.028")
for i in $(seq 1 12); do spec+=("$tmp/w1-$i.log" $((400 + i)) "1,1.01" "$tmp/w2-$i.log" $((500 + i)) "1,1.01"); done
kruns=$(seq -s, 1 0.001 1.029)
for i in $(seq 1 20); do spec+=("$tmp/k-$i.log" $((1000 + 40 * i)) "$kruns"); done
mkruns "${spec[@]}" || fail "the synthetic logs"

# ---- 1. add: real native runs, the fixtures, refusals, idempotence ----
"$out/isobench" --suite quick --sample_ms 20 --tests getpid,syscall --copies 1 --repeat 3 \
	>"$tmp/native3.log" 2>/dev/null || fail "native run (3 runs)"
"$out/isobench" --suite quick --sample_ms 20 --tests getpid,syscall --copies 1 \
	>"$tmp/native1.log" 2>/dev/null || fail "native run (1 run)"
expect_status EXIT_OK "add three native runs (one log, --repeat 3) under --machine here" -- \
	"$rep" --db "$db" add --machine here "$tmp/native3.log"
contains "$tmp/stdout" "native3.log: 3 runs stored, 0 already there, 0 incomplete left out"
expect_status EXIT_OK "add the fixtures (native, qemu-tcg, two-boots: its cut first boot left out)" -- \
	"$rep" --db "$db" add "$fx/native.log" "$fx/qemu-tcg.log" "$fx/two-boots.log"
contains "$tmp/stderr" "two-boots.log: run 1 of 2 left out: no END record" \
	"the incomplete boot beside a complete one is named, not stored"
equals 6 "$(q 'SELECT count(*) FROM run')" "runs stored"
equals "2|wal" "$(q 'PRAGMA user_version')|$(q 'PRAGMA journal_mode')" "schema version and journal"
# Every result's whole-run value stored (issue 46): native.log (no RESULT whole=) gets its pipe's
# from its SAMPLEs, the mean of the rates; a store of version 1 (no result.whole) gets it when
# a writer opens it (migration 1 -> 2), from its stored samples the same way.
fx_pipe=$(grep -a -E -o 'SAMPLE test=pipe copies=1 i=[0-9]+ .* value=[0-9.]+' "$fx/native.log" |
	sed 's/.* value=//' | awk '{ s += $1; n++ } END { printf "%.2f", s / n }') || true
pipe_whole="SELECT printf('%.2f', whole) FROM result JOIN run ON run.id = result.run WHERE source LIKE '%native.log' AND test = 'pipe' AND copies = 1"
equals "$fx_pipe" "$(q "$pipe_whole")" "result.whole of the fixture's pipe: its samples' mean"
equals 0 "$(q 'SELECT count(*) FROM result WHERE whole IS NULL')" "every result has its whole-run value"
cp "$db" "$tmp/v1.db"
sqlite3 "$tmp/v1.db" 'ALTER TABLE result DROP COLUMN whole; PRAGMA user_version = 1' || fail "a version-1 store"
"$rep" --db "$tmp/v1.db" add "$fx/qemu-tcg.log" >/dev/null 2>&1 || fail "add to the version-1 store"
equals "2|$fx_pipe|0" "$(sqlite3 -readonly "$tmp/v1.db" "PRAGMA user_version; $pipe_whole; SELECT count(*) FROM result WHERE whole IS NULL" | tr '\n' '|' | sed 's/|$//')" \
	"a version-1 store migrated: version 2, the fixture's pipe whole from its stored samples, none missing"
want=$(grep -c '^@isobench/1 [0-9]* SAMPLE ' "$tmp/native3.log" || true)	# none: "0", status 1
equals "$want" "$(q "SELECT count(*) FROM sample JOIN run ON run.id = sample.run WHERE machine = 'here'")" \
	"every SAMPLE of the native runs stored"
equals 6 "$(q "SELECT count(*) FROM result JOIN run ON run.id = result.run WHERE machine = 'here'")" \
	"every RESULT of the native runs stored (2 tests x 3 runs)"
rid=$(sed -n 's/.* BEGIN run=\([0-9a-f]*\) .*/\1/p' "$tmp/native1.log" | head -n 1)
equals "$(sed -n 's/.* INFO .*run\.suite=\([a-z]*\).*/\1/p' "$tmp/native3.log" | head -n 1)" \
	"$(q "SELECT value FROM info JOIN run ON run.id = info.run WHERE machine = 'here' AND key = 'run.suite' LIMIT 1")" \
	"the parameters (INFO run.suite) stored"
expect_status EXIT_OK "the same logs again" -- "$rep" --db "$db" add --machine here "$tmp/native3.log"
contains "$tmp/stdout" "0 runs stored, 3 already there" "adding again stores nothing (idempotent by run id)"
equals 6 "$(q 'SELECT count(*) FROM run')" "runs stored after adding again"
for f in empty cut-last-line; do
	expect_status EXIT_INCOMPLETE "$f.log is refused" -- "$rep" --db "$db" add "$fx/$f.log"
	contains "$tmp/stderr" "$f.log: refused, nothing stored: no complete run" "$f.log: the reader's reason"
done
equals 6 "$(q 'SELECT count(*) FROM run')" "nothing of a refused log stored"
# A run id stored with other records: the whole log is refused, its good run too.
PYTHONPATH=$top/tests python3 - "$tmp/native3.log" "$tmp/clash.log" <<'EOF'
import sys
from seal import seal
src = open(sys.argv[1]).read().split("\n")
# the first run of native3 with one INFO value changed, sealed again: same run id, other records
out = []
for line in src:
    if " END " in line:
        out.append(line)
        break
    if " INFO " in line and "run.suite=" in line:
        body = line.rsplit(" *", 1)[0].replace("run.suite=", "run.suite=x", 1)
        line = seal(body)
    out.append(line)
open(sys.argv[2], "w").write("\n".join(out) + "\n")
EOF
expect_status EXIT_INCOMPLETE "a run id already stored with other records is refused" -- \
	"$rep" --db "$db" add "$tmp/clash.log"
contains "$tmp/stderr" "is already stored with other records"

# ---- 2. runs and its selectors ----
expect_status EXIT_OK "runs machine=here" -- "$rep" --db "$db" runs machine=here
count_is "$tmp/stdout" '^[0-9a-f]{16} ' 3 "runs machine=here lists the three native runs"
expect_status EXIT_OK "runs hv=TCG,last=1" -- "$rep" --db "$db" runs hv=TCG,last=1
count_is "$tmp/stdout" '^50506fe9a4dc087b +.*QEMU/TCG' 1 "hv=TCG selects the TCG fixture's run"
expect_status EXIT_OK "runs run=PREFIX --format json" -- "$rep" --db "$db" runs run=40990a3d --format json
equals "['40990a3dbfde8168']" "$(json '[r["run_id"] for r in d["runs"]]' "$tmp/stdout")" "run= selects by run id prefix"
expect_status EXIT_OK "runs run=TAIL (the end of a stored run id)" -- "$rep" --db "$db" runs run=bfde8168
contains "$tmp/stdout" "0 runs" "run= matches the start of a run id, not any part"
expect_status EXIT_OK "runs --format csv" -- "$rep" --db "$db" runs all --format csv
equals 7 "$(grep -c $'\r$' "$tmp/stdout")" "CSV: a header and six rows, CRLF"
expect_status EXIT_OK "runs since= after every date" -- "$rep" --db "$db" runs since=2999-01-01
contains "$tmp/stdout" "0 runs"
expect_status EXIT_USAGE "an unknown selector key" -- "$rep" --db "$db" runs colour=red
#    since= is a date, compared as text with the stored ones: a word that is not one would
#    select nothing (or everything) and say nothing, so it is a usage error.
expect_status EXIT_USAGE "since=yesterday: not a date" -- "$rep" --db "$db" runs since=yesterday
contains "$tmp/stderr" "since= wants a date"
expect_status EXIT_USAGE "since=2026-13-45: no such month" -- "$rep" --db "$db" runs since=2026-13-45
expect_status EXIT_USAGE "since= with a space for T" -- "$rep" --db "$db" runs "since=2026-12-01 08:00"
expect_status EXIT_USAGE "since= with an offset other than Z" -- \
	"$rep" --db "$db" runs since=2026-12-01T08:00:00+01:00
expect_status EXIT_OK "since=DATE THH:MM:SSZ" -- "$rep" --db "$db" runs since=2000-01-01T00:00:00Z
count_is "$tmp/stdout" '^[0-9a-f]{16} ' 6 "since= before every date selects all six runs"
expect_status EXIT_OK "since=THH:MM, no Z" -- "$rep" --db "$db" runs since=2000-01-01T00:00
expect_status EXIT_USAGE "an unknown command" -- "$rep" --db "$db" frobnicate

# ---- 3. compare: the verdicts of comparing the logs ----
if ! "$rep" --db "$db" add --machine side-a "$tmp/ra.log" >/dev/null ||
	! "$rep" --db "$db" add --machine side-b "$tmp/rb.log" >/dev/null; then
	fail "add the replicates"
fi
expect_status EXIT_DIFFERS "compare machine=side-a machine=side-b (3 runs a side, 10 % slower)" -- \
	"$rep" --db "$db" compare machine=side-a machine=side-b --format json
cp "$tmp/stdout" "$tmp/cmp-db.json"
expect_status EXIT_DIFFERS "the same runs compared as logs" -- \
	"$rep" --label a,b "$tmp/ra.log" "$tmp/rb.log" --format json
verdicts='[(r["test"], c.get("mark"), c.get("method"), round(c["p_value"], 12), round(c["ratio"], 12)) for r in d["comparison"]["rows"] for c in r["cells"][1:]]'
want=$(json "$verdicts" "$tmp/stdout")
equals "$want" "$(json "$verdicts" "$tmp/cmp-db.json")" "the store's verdicts equal the logs'"
has "$tmp/cmp-db.json" '"method": "welch-t"' "the replicate design (Welch's t) decided"
#    The writers get every run behind the verdicts, as comparing the logs gives them, not
#    each side's first: JSON's runs the 3 + 3, each with its side's label and its own run id.
equals "$(json '[(r["label"], r["run_id"]) for r in d["runs"]]' "$tmp/stdout")" \
	"$(json '[(r["label"].replace("machine=side-", ""), r["run_id"]) for r in d["runs"]]' "$tmp/cmp-db.json")" \
	"JSON: runs lists every run of each side (3 + 3), as the logs' comparison does"
expect_status EXIT_DIFFERS "compare, text" -- "$rep" --db "$db" compare machine=side-a machine=side-b
contains "$tmp/stdout" "compared 3 runs (machine=side-a) with 3 (machine=side-b): 2 different"
expect_status EXIT_DIFFERS "compare, CSV" -- "$rep" --db "$db" compare machine=side-a machine=side-b --format csv
count_is "$tmp/stdout" '^[^,]*ra\.log,machine=side-a,[0-9a-f]{16},record,1,1,BEGIN,,,run,' 1 \
	"CSV: the stored log's name, the side's selector, the run's BEGIN"
equals 6 "$(grep -oE '^[^,]*,machine=side-[ab],[0-9a-f]{16},' "$tmp/stdout" | sort -u | wc -l)" \
	"CSV: rows for each of the 3 + 3 runs (side, run id), not only each side's first"
expect_status EXIT_DIFFERS "compare, HTML" -- "$rep" --db "$db" compare machine=side-a machine=side-b --format html
has "$tmp/stdout" '<svg xmlns=' "the page holds the ratio chart"
#    A file format's warnings and notes also go to the terminal, from the store as from the
#    logs: two TCG runs (a note that TCG is emulation, warnings on their clocksources).
"$rep" --db "$tmp/tell.db" add --machine tcg-x "$fx/tcg-clock-hpet.log" >/dev/null 2>&1
"$rep" --db "$tmp/tell.db" add --machine tcg-y "$fx/tcg-clock-tsc.log" >/dev/null 2>&1
expect_status EXIT_OK "compare two TCG runs from the store, JSON" -- \
	"$rep" --db "$tmp/tell.db" compare machine=tcg-x machine=tcg-y --format json
grep -E '^isobench-report: (warning|note): ' "$tmp/stderr" | sed 's/machine=tcg-y/B/g' >"$tmp/tell-db.err"
expect_status EXIT_OK "the same two runs as logs, JSON" -- \
	"$rep" --label tcg-x,B "$fx/tcg-clock-hpet.log" "$fx/tcg-clock-tsc.log" --format json
grep -E '^isobench-report: (warning|note): ' "$tmp/stderr" | sed 's/run 2: B/B/g' >"$tmp/tell-log.err"
has "$tmp/tell-db.err" '^isobench-report: note: QEMU/TCG \(columns marked \(TCG\)\): emulation' \
	"--db compare --format json: the TCG note on stderr"
equals "$(grep -c note: "$tmp/tell-log.err")" "$(grep -c note: "$tmp/tell-db.err")" \
	"... as many notes on stderr as comparing the logs gives"
equals "$(grep -c warning: "$tmp/tell-log.err")" "$(grep -c warning: "$tmp/tell-db.err")" \
	"... and as many warnings"
expect_status EXIT_INCOMPLETE "compare: a selector that selects no run" -- \
	"$rep" --db "$db" compare machine=side-a machine=nowhere

# ---- 4. trend: a planted step at the 19th of 30 runs ----
"$rep" --db "$db" add --machine lab "$tmp/step.log" >/dev/null || fail "add the step series"
step_id=$(sed -n 's/.* BEGIN run=\([0-9a-f]*\) .*/\1/p' "$tmp/step.log" | sed -n 19p)
expect_status EXIT_OK "trend --test t-rate --machine lab --format json" -- \
	"$rep" --db "$db" trend --test t-rate --machine lab --format json
equals "1 30 ['$step_id']" "$(json '" ".join([str(d["change_points"]), str(len(d["series"][0]["points"])), str([p["run_id"] for p in d["series"][0]["points"] if p["change"]])])' "$tmp/stdout")" \
	"trend finds the one planted step at the 19th run"
"$rep" --db "$db" add --machine small "$tmp/small.log" >/dev/null || fail "add the small step"
expect_status EXIT_OK "trend of a 3 % step" -- "$rep" --db "$db" trend --test t-rate --machine small --format csv
count_is "$tmp/stdout" ',1,[0-9.e-]+.?$' 0 "a 3 % step is inside the 5 % noise floor: no change point"
expect_status EXIT_OK "trend of a 3 % step, --noise-floor 2" -- \
	"$rep" --db "$db" trend --test t-rate --machine small --format csv --noise-floor 2
count_is "$tmp/stdout" ',1,[0-9.e-]+.?$' 1 "... beyond a 2 % floor: one change point"
expect_status EXIT_OK "trend --test t-rate --machine side-a (no step)" -- \
	"$rep" --db "$db" trend --test t-rate --machine side-a --format csv
count_is "$tmp/stdout" ',1,$' 0 "no change point in a steady series"
expect_status EXIT_OK "trend text, chart and page" -- \
	"$rep" --db "$db" trend --test t-rate --svg "$tmp/trend.svg"
contains "$tmp/stdout" "<- change: level" "the text marks the change"
if command -v xmllint >/dev/null; then
	check "the trend chart is well-formed XML" xmllint --noout "$tmp/trend.svg"
else skip "no xmllint"; fi
count_is "$tmp/trend.svg" 'class="change"' 1 "the chart rings the one change point"
if have_chromium; then
	height=$(grep -o 'height="[0-9.]*"' "$tmp/trend.svg" | head -n 1 | tr -dc '0-9.') || true
	chrome --window-size="900,${height%.*}" --screenshot="$tmp/trend.png" "file://$tmp/trend.svg" >/dev/null || true
	# blank: 1 colour; the chart: lines, bands, rings and text in several colours
	rendered "$tmp/trend.png" "the trend chart"
else
	fail "no chromium: the trend chart was not rendered (apt-get install chromium; build.sh test does)"
fi
expect_status EXIT_OK "trend --format html" -- "$rep" --db "$db" trend --test t-rate --format html
count_is "$tmp/stdout" '<tr class="flag">' 1 "the page flags the change's row"

# A 10,000-run history (rows written by SQL into a store made by the tool: adding 10,000 logs'
# runs takes minutes, docs/benchmarks/history-scale.md): four machines in turn, one run a
# minute, m1 20 % slower from the run at minute 6001 on; the jitter +-0.5 %.
# (The store is made by add, then emptied: a reading command never creates one.)
if ! "$rep" --db "$tmp/big.db" add "$fx/native.log" >/dev/null 2>&1 ||
	! sqlite3 "$tmp/big.db" 'PRAGMA foreign_keys = ON; DELETE FROM run'; then
	fail "a new store"
fi
sqlite3 "$tmp/big.db" "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
INSERT INTO run (id, run_id, version, mode, machine, hv, arch, kernel, image, utc, date, added,
 source, nrecs, results, fails, skips, errors, powered_off, from_digest)
SELECT i + 1, printf('%016x', i), 't', 'host', 'm' || (i % 4), 'KVM', 'x86_64', '6.1', '-', '-',
 strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || i || ' minutes'), '-', 'sql', 0, 1, 0, 0, 0, 1, 0
FROM n;
INSERT INTO result (run, test, copies, unit, better, value, samples)
SELECT id, 't-rate', 1, 'lps', 'higher',
 (CASE WHEN machine = 'm1' AND id > 6001 THEN 800.0 ELSE 1000.0 END) * (1 + ((id * 7919) % 101 - 50) / 10000.0), 8
FROM run;" || fail "the 10,000-run history"
t0=$SECONDS
expect_status EXIT_OK "trend over 10,000 runs (4 machines)" -- \
	"$rep" --db "$tmp/big.db" trend --test t-rate --format json
equals "10000 1 ['0000000000001771']" "$(json '" ".join([str(sum(len(s["points"]) for s in d["series"])), str(d["change_points"]), str([p["run_id"] for s in d["series"] for p in s["points"] if p["change"]])])' "$tmp/stdout")" \
	"trend over 10,000 runs finds m1's step at its run (minute 6001), and nothing else ($((SECONDS - t0)) s, loaded host)"

# ---- 5. check: CI's verdicts against a stored baseline ----
"$rep" --db "$db" add --machine ci "$tmp/base.log" >/dev/null || fail "add the baseline"
expect_status EXIT_REGRESSED "check: a planted 20 % regression fails" -- \
	"$rep" --db "$db" check --baseline machine=ci "$tmp/slow.log"
count_is "$tmp/stdout" '^REGRESSION: t-(rate|time) \(copies 1\): ratio 0\.83[0-9]* .* p [0-9.e-]+, 5\+1 runs, prediction-t' 2 \
	"one line per regression, with its ratio and p"
expect_status EXIT_OK "check: a same-build rerun passes" -- \
	"$rep" --db "$db" check --baseline machine=ci "$tmp/same.log"
has "$tmp/stdout" "0 regressed, 0 improved, [0-9]+ equivalent, [0-9]+ undecided, 0 without a verdict, of 2 tests" \
	"check: the same-build rerun's counts of the three answers"
# A later native run against the three stored ones: a loaded host may move it beyond their
# spread either way, so any verdict is right here; what must hold is one per test, 0 or 8.
st=0
"$rep" --db "$db" check --baseline machine=here "$tmp/native1.log" --verbose >"$tmp/nat.out" \
	2>&1 || st=$?
if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_REGRESSED" ]; then
	pass "check: a native run against the stored native runs gives a verdict (status $st)"
else fail "check: a native run against the stored native runs: status $st"; fi
count_is "$tmp/nat.out" '^(equivalent|undecided|improved|REGRESSION): (getpid|syscall) \(copies 1\): ratio [0-9.]+ .*, 3\+1 runs, prediction-t' 2 \
	"a verdict line per native test, on the 3 stored runs"
equals 0 "$(q "SELECT count(*) FROM run WHERE run_id = '$rid'")" "check stores nothing of its LOGs"
expect_status EXIT_REGRESSED "check: three slower runs (Welch's t, as compare)" -- \
	"$rep" --db "$db" check --baseline machine=ci "$tmp/slow3.log" --format json
equals "2 ['welch-t', 'welch-t']" "$(json '" ".join([str(d["regressed"]), str([v["method"] for v in d["verdicts"]])])' "$tmp/stdout")" \
	"the JSON's verdicts"
# A real change smaller than the min-effect: three runs 3 % slower than the five baseline runs
# (whose spread is 0.6 %). compare and check answer by one rule (signif.h sig_answer(), issue
# 46): a change is "different" only when its 95% CI lies beyond the min-effect (default the
# test's noise floor, 5 % here), so both say no difference that matters, status 0; asked for
# 2 % (--min-effect 2, or --noise-floor 2 which the min-effect defaults to) both say different.
fdb=$tmp/floor.db
"$rep" --db "$fdb" add --machine ci "$tmp/base.log" >/dev/null || fail "add the baseline to floor.db"
"$rep" --db "$fdb" add --machine near "$tmp/near3.log" >/dev/null || fail "add near3 to floor.db"
expect_status EXIT_OK "compare: 3 % slower on 5+3 runs, min-effect 5 %: not different" -- \
	"$rep" --db "$fdb" compare machine=ci machine=near
count_is "$tmp/stdout" ' 5\+3 +welch-t .* 0\.97[0-9] \[.*\] [=~] (equivalent|undecided): [23]\.[0-9]% slower .*5%' 2 \
	"... both tests, Welch's t, ratio 0.97, not beyond 5 %"
expect_status EXIT_DIFFERS "compare --min-effect 2: different" -- \
	"$rep" --db "$fdb" compare --min-effect 2 machine=ci machine=near
count_is "$tmp/stdout" ' 5\+3 +welch-t .* 0\.97[0-9] \[.*\] \* different: [23]\.[0-9]% slower .*beyond the min-effect 2%$' 2 \
	"... both tests different beyond 2 %"
expect_status EXIT_DIFFERS "the same runs' logs compared, --min-effect 2: the same verdict" -- \
	"$rep" --min-effect 2 --label a,b "$tmp/base.log" "$tmp/near3.log"
expect_status EXIT_OK "check: the same 3 % within the 5 % min-effect: no regression" -- \
	"$rep" --db "$fdb" check --baseline machine=ci "$tmp/near3.log" --verbose
count_is "$tmp/stdout" '^(equivalent|undecided): t-(rate|time) \(copies 1\): ratio 0\.97[0-9]* .* 5\+3 runs, welch-t, (equivalent|undecided): .*5%' 2 \
	"... each test not different, on compare's Welch verdict, the min-effect said"
expect_status EXIT_REGRESSED "check --noise-floor 2: the 3 % is a regression" -- \
	"$rep" --db "$fdb" check --baseline machine=ci "$tmp/near3.log" --noise-floor 2
expect_status EXIT_REGRESSED "check --min-effect 2: the 3 % is a regression" -- \
	"$rep" --db "$fdb" check --baseline machine=ci "$tmp/near3.log" --min-effect 2
# CI that adds a run before checking it: the run is not its own baseline.
"$rep" --db "$db" add --machine ci "$tmp/slow.log" >/dev/null || fail "add the slow run to ci"
expect_status EXIT_REGRESSED "check: a LOG already in the baseline's runs is left out of them" -- \
	"$rep" --db "$db" check --baseline machine=ci "$tmp/slow.log"
contains "$tmp/stdout" "checked 1 run against 5 baseline runs (machine=ci): 2 regressed"
# A baseline still building (a CI gate's first nights, issue 48): no verdict, status 0, and how
# far it is; a selector that selects no run says to check its spelling.
expect_status EXIT_OK "check: a baseline of one run is still building: no verdict, status 0" -- \
	"$rep" --db "$db" check --baseline run=40990a3d "$tmp/same.log"
contains "$tmp/stdout" "baseline building: 1 of 3 runs (run=40990a3d, besides the LOGs'): no verdict yet"
lacks "$tmp/stdout" "checked"
expect_status EXIT_OK "check: a selector that selects no run: building, 0 of 3" -- \
	"$rep" --db "$db" check --baseline machine=no-such-machine "$tmp/same.log"
contains "$tmp/stdout" "baseline building: 0 of 3 runs (machine=no-such-machine, besides the LOGs'): no verdict yet; add this run and check the next (the selector selects no stored run: if this is not the first run, check its spelling)"
expect_status EXIT_INCOMPLETE "check: a LOG without a complete run" -- \
	"$rep" --db "$db" check --baseline machine=ci "$fx/cut-last-line.log"

# ---- 6. the store's own safety: version, two writers, a killed writer ----
sqlite3 "$db" ".backup '$tmp/new.db'"
sqlite3 "$tmp/new.db" 'PRAGMA user_version = 99'

expect_status EXIT_USAGE "a store of a newer schema is refused" -- "$rep" --db "$tmp/new.db" runs
contains "$tmp/stderr" "schema version 99"
#    ... and never written, the journal mode included: in rollback-journal mode (as another
#    tool may leave it) its bytes stay as they were, for add and for a reader.
sqlite3 "$tmp/new.db" 'PRAGMA journal_mode = DELETE' >/dev/null
cp "$tmp/new.db" "$tmp/new-before.db"
expect_status EXIT_USAGE "add to a store of a newer schema is refused" -- \
	"$rep" --db "$tmp/new.db" add "$fx/native.log"
"$rep" --db "$tmp/new.db" runs >/dev/null 2>&1 || true
if cmp -s "$tmp/new.db" "$tmp/new-before.db"; then
	pass "a newer store refused is left byte for byte (journal mode not switched to WAL)"
else
	fail "a newer store refused was written: $(sqlite3 "$tmp/new.db" 'PRAGMA journal_mode')"
fi
#    A stored record changed since (by another tool: its text no longer the record its row
#    says) is named, not dropped from the run unsaid (each stored line is decoded once, as the
#    run is loaded), and nothing crashes on the way out.
sqlite3 "$db" ".backup '$tmp/tamper.db'"
sqlite3 "$tmp/tamper.db" "UPDATE record SET text = replace(text, ' value=', ' value=x') WHERE kind = 'RESULT'
	AND run = (SELECT id FROM run WHERE run_id = '40990a3dbfde8168')"
expect_status EXIT_USAGE "compare with a stored record changed since: refused" -- \
	"$rep" --db "$tmp/tamper.db" compare run=40990a3dbfde8168 run=40990a3dbfde8168
has "$tmp/stderr" '^isobench-report: stored run [0-9]+: record seq [0-9]+ is damaged \(its text no longer parses as the record its row says\)$' \
	"... naming the stored run and the record"
#    verify finds what compare refuses: the same changed records make the store not consistent,
#    each named by its run id and seq (verify said "consistent" of it), and a record whose text
#    another tool replaced with bytes that are no record at all.
other=$(sqlite3 "$tmp/tamper.db" "SELECT min(run_id) FROM run WHERE run_id != '40990a3dbfde8168'")
sqlite3 "$tmp/tamper.db" "UPDATE record SET text = X'00FF0A' WHERE seq = 2
	AND run = (SELECT id FROM run WHERE run_id = '$other')"
expect_status EXIT_INCOMPLETE "verify finds a store with records changed since" -- \
	"$rep" --db "$tmp/tamper.db" verify
n_changed=$(sqlite3 "$tmp/tamper.db" "SELECT count(*) FROM record WHERE kind = 'RESULT'
	AND run = (SELECT id FROM run WHERE run_id = '40990a3dbfde8168')")
count_is "$tmp/stdout" '^run 40990a3dbfde8168: record seq [0-9]+ is damaged \(its text no longer parses as the record its row says\)$' \
	"$n_changed" "... naming each changed RESULT of the run"
has "$tmp/stdout" "^run $other: record seq 2 is damaged " "... and the record replaced by junk"
#    A store that cannot be written (a full disk; here a file size limit) is the store's
#    failure, not the LOG's: status 2 (docs/exit-status.md: output that cannot be written), and the LOGs
#    after it are not tried against it.
rc=0
(trap '' XFSZ; ulimit -f 60; "$rep" --db "$tmp/small.db" add "$fx/native.log" "$fx/qemu-tcg.log" \
	"$fx/two-boots.log") >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
equals 2 "$rc" "add to a store that cannot grow: status 2 (the store's fault, not the LOG's)"
has "$tmp/stderr" 'the store cannot be written' "... saying the store cannot be written"
count_is "$tmp/stderr" 'two-boots\.log' 0 "... and the LOGs after it are not tried"
expect_status EXIT_OK "... the store is consistent after it" -- "$rep" --db "$tmp/small.db" verify
#    A reading command never creates a store: a mistyped path is an error, not "0 runs".
expect_status EXIT_USAGE "runs on a store that does not exist" -- "$rep" --db "$tmp/typo.db" runs
if [ -e "$tmp/typo.db" ]; then fail "runs created $tmp/typo.db"; else pass "runs created no file"; fi
expect_status EXIT_USAGE "check on a store that does not exist" -- \
	"$rep" --db "$tmp/typo.db" check --baseline all "$fx/native.log"
#    Each says what the path is (not SQLite's "unable to open database file" for a missing
#    file, or "disk I/O error" for a directory, where nothing failed on a disk).
contains "$tmp/stderr" "typo.db: no such file (a reading command opens a store that is there; add makes one)" \
	"... saying there is no such file"
mkdir -p "$tmp/adir"
expect_status EXIT_USAGE "runs on a directory" -- "$rep" --db "$tmp/adir" runs
contains "$tmp/stderr" "adir: a directory, not a store (--db names the store's file)" "... saying so"
count_is "$tmp/stderr" 'I/O error' 0 "... and not that a disk failed"
expect_status EXIT_USAGE "add to a directory" -- "$rep" --db "$tmp/adir" add "$fx/native.log"
contains "$tmp/stderr" "adir: a directory, not a store (--db names the store's file)" "... saying so"
expect_status EXIT_USAGE "add to a store in a directory that is not there" -- \
	"$rep" --db "$tmp/nodir/x.db" add "$fx/native.log"
contains "$tmp/stderr" "nodir/x.db: cannot be created: No such file or directory" "... saying why"
#    A SQLite file that is not a store (schema version 0) is no store to read.
sqlite3 "$tmp/other.db" 'CREATE TABLE t (a)'
expect_status EXIT_USAGE "runs on a SQLite file that is not a store" -- "$rep" --db "$tmp/other.db" runs
contains "$tmp/stderr" "not an isobench store"
# verify itself: a store with a record and a sample taken away is not consistent.
sqlite3 "$db" ".backup '$tmp/cut.db'"
sqlite3 "$tmp/cut.db" "DELETE FROM record WHERE run = 1 AND seq = 3; DELETE FROM sample WHERE run = 2 AND seq = (SELECT max(seq) FROM sample WHERE run = 2)"
expect_status EXIT_INCOMPLETE "verify finds a store with rows taken away" -- "$rep" --db "$tmp/cut.db" verify
count_is "$tmp/stdout" '^run [0-9a-f]{16}: [0-9]+ (records|samples) stored, [0-9]+ (read|SAMPLE records)$' 2 \
	"verify names the run short of a record and the one short of a sample"
expect_status EXIT_OK "verify: the store itself is consistent" -- "$rep" --db "$db" verify
"$rep" --db "$tmp/two.db" add "$tmp"/w1-*.log >"$tmp/w1.out" 2>&1 & p1=$!
"$rep" --db "$tmp/two.db" add "$tmp"/w2-*.log >"$tmp/w2.out" 2>&1 & p2=$!
s1=0 s2=0
wait "$p1" || s1=$?
wait "$p2" || s2=$?
equals "0 0" "$s1 $s2" "two writers at once both succeed"
db=$tmp/two.db
equals 48 "$(q 'SELECT count(*) FROM run')" "two writers: every run of both stored"
expect_status EXIT_OK "two writers: the store is consistent" -- "$rep" --db "$tmp/two.db" verify
# Writers that make the store at the same moment: switching a new file to WAL is the one
# step SQLite's busy timeout does not wait for (it returned "database is locked" to about 1
# add in 60 here), so 50 rounds of six adds of one log each on a new store (a broken store
# fails 2-4 of them): every add stores its two runs.
bad=0
for r in $(seq 50); do
	for w in 1 2 3 4 5 6; do
		"$rep" --db "$tmp/new-$r.db" add "$tmp/w1-$w.log" >"$tmp/nw-$w.out" 2>&1 &
	done
	wait
	bad=$((bad + $(cat "$tmp"/nw-*.out | grep -Evc ': 2 runs stored, 0 already' || true)))
	rm -f "$tmp/new-$r.db"*
done
equals 0 "$bad" "six adds making one new store at once, 50 times: none fails"
# A killed writer: many logs of many runs, kill -9 while it writes, then verify; the logs
# stored are whole (each log's runs all there or none), and adding again completes them.
for delay in 0.1 0.3 0.7; do
	rm -f "$tmp"/kill.db*
	"$rep" --db "$tmp/kill.db" add "$tmp"/k-*.log >/dev/null 2>&1 & pk=$!
	sleep "$delay"
	kill -9 "$pk" 2>/dev/null || true	# it may have ended already
	wait "$pk" 2>/dev/null || true	# killed: 137
	db=$tmp/kill.db
	if [ ! -e "$db" ]; then	# killed before it made the store: nothing to verify
		pass "killed after $delay s, before the store existed"
		"$rep" --db "$tmp/kill.db" add "$tmp"/k-*.log >/dev/null 2>&1
		continue
	fi
	n=$(q 'SELECT count(*) FROM run' 2>/dev/null || echo error)
	expect_status EXIT_OK "killed after $delay s ($n runs stored): consistent" -- \
		"$rep" --db "$tmp/kill.db" verify
	equals 0 "$(q 'SELECT count(*) FROM (SELECT source FROM run GROUP BY source HAVING count(*) != 30)')" \
		"killed after $delay s: every log stored whole (30 runs) or not at all"
	"$rep" --db "$tmp/kill.db" add "$tmp"/k-*.log >/dev/null 2>&1
	equals 600 "$(q 'SELECT count(*) FROM run')" "killed after $delay s, then added again: every run"
done
finish
