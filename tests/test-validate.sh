#!/usr/bin/env bash
# tests/test-validate.sh — a sealed record that says the impossible is caught
# (report/validate.c): a native run is valid as written; then one field at a time is changed
# and the record resealed with a correct checksum — a non-finite or negative figure, a
# RESULT that its SAMPLEs contradict (samples, median, min, max, value, ci95_pct, index,
# converged, stop, samples_needed), an unknown enum word, a unit or group outside the
# grammar's lists, a RESULT unlike its TEST (unit, better, baseline), a SAMPLE value= its own
# loops= and ns= contradict (ns=0, loops=2^64-1), fewer migrations= than its cpus= show, a per-copy list of the wrong length, a field given twice —
# and each must make `isobench-report --check` exit 3 (a run not to be used, docs/exit-status.md)
# naming the line, the field and what was expected. The damaged-log fixtures and the older
# logs (tests/fixtures/logs) stay as tests/test-report.sh expects.
# shellcheck disable=SC2016  # backticks in single quotes are the verdict's markdown, not commands
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp
report=$(report_tool)

# A real run: rate tests with 1 and 2 copies, a time test, and two tests whose value is an
# extra (vmexit-nanosleep-50us: p50_late_ns; sockwrite-paced: busy_pct_x100 / 100).
"$out/isobench" --suite quick --tests pipe,getpid,clock-monotonic,vmexit-nanosleep-50us,sockwrite-paced \
	--copies 1,2 >"$tmp/run.log" 2>"$tmp/run.err"
expect_status EXIT_OK "a native run as written is valid" -- "$report" --check "$tmp/run.log"

# forge KIND TEST KEY VALUE [NTH]: the log with field KEY of the NTH (default 1st) KIND record
# of TEST (any test when TEST is -) set to VALUE (appended when absent; removed when VALUE is
# "DROP"; given twice when VALUE starts with "+"), resealed with a correct checksum; prints
# the line number changed. The forged log is $tmp/forged.log.
forge() {
	PYTHONPATH=$here python3 - "$tmp/run.log" "$tmp/forged.log" "$@" <<'EOF'
import re, sys
from seal import seal
src, dst, kind, test, key, value = sys.argv[1:7]
nth = int(sys.argv[7]) if len(sys.argv) > 7 else 1
lines = open(src).read().split("\n")
seen = 0
for n, line in enumerate(lines):
    m = re.match(r"(@isobench/1 \d+ (\w+)( .*)?) \*[0-9a-f]{8}$", line)
    if not m or m.group(2) != kind:
        continue
    fields = (m.group(3) or "").split()
    if test != "-" and "test=" + test not in fields:
        continue
    seen += 1
    if seen != nth:
        continue
    head = m.group(1).split()[:3]
    keep = [f for f in fields if not f.startswith(key + "=")]
    if value == "DROP":
        fields = keep
    elif value.startswith("+"):
        fields = fields + [key + "=" + value[1:]]
    elif len(keep) == len(fields):
        fields = fields + [key + "=" + value]
    else:
        fields = [key + "=" + value if f.startswith(key + "=") else f for f in fields]
    body = " ".join(head + fields)
    lines[n] = seal(body)
    open(dst, "w").write("\n".join(lines))
    print(n + 1)
    sys.exit(0)
sys.exit("forge: no %s record of %s" % (kind, test))
EOF
}

# caught DESCRIPTION MESSAGE-REGEX FORGE-ARGS...: the forged log is status 3, and the verdict
# names the changed line and says MESSAGE-REGEX.
caught() {
	local what=$1 want=$2 line got=0
	shift 2
	if ! line=$(forge "$@"); then
		fail "$what: cannot forge $*"
		return
	fi
	"$report" --check "$tmp/forged.log" >"$tmp/stderr" 2>&1 || got=$?
	if [ "$got" -ne 3 ]; then
		fail "$what: want status 3, got $got: $(tail -n 1 "$tmp/stderr")"
	elif ! grep -Eq -- "line $line: $want" "$tmp/stderr"; then
		fail "$what: the verdict does not say 'line $line: $want': $(tail -n 1 "$tmp/stderr")"
	else
		pass "$what (status 3: $(grep -Eo -- "line $line: .*" "$tmp/stderr" | head -c 150))"
	fi
}

# Values of the wrong type or range, in sealed records.
caught "RESULT value=nan" 'RESULT value=nan: expected decimal > 0' RESULT pipe value nan
caught "RESULT value=inf" 'RESULT value=inf: expected decimal > 0' RESULT pipe value inf
caught "a negative rate" 'RESULT value=-5.000: expected decimal > 0' RESULT pipe value -5.000
caught "a zero median" 'RESULT median=0: expected decimal > 0' RESULT getpid median 0
caught "a negative CI" 'RESULT ci95_pct=-1.00: expected decimal >= 0' RESULT pipe ci95_pct -1.00
caught "a negative SAMPLE value" 'SAMPLE value=-1.000: expected decimal >= 0' SAMPLE pipe value -1.000 2
caught "samples=0" 'RESULT samples=0: expected integer >= 1' RESULT pipe samples 0
caught "samples as a decimal" 'RESULT samples=2.5: expected integer >= 1' RESULT pipe samples 2.5
caught "an unknown better=" 'RESULT better=sideways: expected one of `higher`, `lower`' RESULT pipe better sideways
caught "an unknown END status=" 'END status=great: expected one of `ok`, `fatal`' END - status great
caught "an unknown converged=" 'RESULT converged=yes: expected one of `0`, `1`' RESULT pipe converged yes
caught "a negative END count" 'END skips=-1: expected integer >= 0' END - skips -1
caught "BEGIN run= not 16 hex digits" 'BEGIN run=xyz: expected 16 hex digits' BEGIN - run xyz
caught "a SAMPLE with both i= and warmup=" 'SAMPLE has 2 of i, warmup: expected exactly one' SAMPLE pipe warmup 1 2
# Per-copy lists: a 2-copy SAMPLE with one entry.
caught "a 2-copy SAMPLE with one loops entry" 'SAMPLE loops=5: 1 entries, expected one per copy \(copies=2\)' \
	SAMPLE pipe loops 5 "$(grep -c 'SAMPLE test=pipe copies=1 ' "$tmp/run.log" | awk '{print $1 + 1}')"

# A RESULT its SAMPLEs contradict (every figure resealed; the CRC cannot tell).
caught "RESULT samples= more than the SAMPLEs" 'RESULT test=pipe samples=99: the log holds [0-9]+ SAMPLEs' \
	RESULT pipe samples 99
caught "RESULT median= not the SAMPLEs' median" 'RESULT test=getpid median=1.000: its SAMPLEs give' \
	RESULT getpid median 1.000
caught "RESULT min= below every SAMPLE" 'RESULT test=pipe min=0.001: its SAMPLEs give' RESULT pipe min 0.001
caught "RESULT max= doubled" 'RESULT test=clock-monotonic max=1000000.000: its SAMPLEs give' \
	RESULT clock-monotonic max 1000000.000
caught "RESULT value= of a time test off" 'RESULT test=clock-monotonic value=123456.000: its SAMPLEs give' \
	RESULT clock-monotonic value 123456.000
caught "RESULT value= of an extra-valued test off" \
	'RESULT test=vmexit-nanosleep-50us value=1.000: its SAMPLEs give' RESULT vmexit-nanosleep-50us value 1.000
caught "RESULT ci95_pct= off" 'RESULT test=pipe ci95_pct=99.00: its SAMPLEs give' RESULT pipe ci95_pct 99.00
caught "converged= against the run's target" 'RESULT test=pipe converged=[01]: ci95_pct=.* against the run.s target' \
	RESULT pipe converged "$(awk '/RESULT test=pipe copies=1 /{print (/converged=1/ ? "0" : "1"); exit}' "$tmp/run.log")"
caught "index= not value/baseline x 10" 'RESULT test=pipe index=9999.9: value/baseline x 10 is' RESULT pipe index 9999.9
caught "a SAMPLE before its TEST" 'SAMPLE test=nosuch: a SAMPLE before the test.s TEST record' SAMPLE pipe test nosuch 2

# Closed vocabularies are closed (issue 51): a unit or group outside lib/vocab.h's lists, and
# a RESULT that says another unit, direction or baseline than its TEST announced.
caught "RESULT unit=furlongs (no unit of the grammar)" 'RESULT unit=furlongs: expected one of `lps`, `lpm`, .*`tps`' \
	RESULT pipe unit furlongs
caught "TEST unit=furlongs" 'TEST unit=furlongs: expected one of `lps`' TEST pipe unit furlongs
caught "TEST group=misc (no group of the grammar)" 'TEST group=misc: expected one of `index`, ' TEST pipe group misc
caught "RESULT unit=ns under a TEST unit=lps" 'RESULT test=pipe unit=ns: its TEST said unit=lps' RESULT pipe unit ns
caught "RESULT better=lower under a TEST better=higher" 'RESULT test=pipe better=lower: its TEST said better=higher' \
	RESULT pipe better lower
caught "RESULT baseline= not its TEST's" 'RESULT test=pipe baseline=1.0: its TEST said baseline=' RESULT pipe baseline 1.0
caught "TEST k= above n=" 'TEST test=pipe k=99: more than n=' TEST pipe k 99
# A measured SAMPLE agrees with its own loops and ns (the second SAMPLE: the first is a warm-up).
caught "a measured SAMPLE with ns=0" "SAMPLE test=pipe ns=0: copy 0's window is 0 ns" SAMPLE pipe ns 0 2
caught "a SAMPLE whose loops= is 2^64-1" \
	'SAMPLE test=pipe value=[0-9.]+: its loops=18446744073709551615 in ns=[0-9]+ give [0-9.]+e\+[0-9]+ lps \(a rate: 1 a loop\)' \
	SAMPLE pipe loops 18446744073709551615 2
caught "a rate SAMPLE's value= off its loops" 'SAMPLE test=pipe value=1.000: its loops=[0-9]+ in ns=[0-9]+ give' \
	SAMPLE pipe value 1.000 2
# A time test's per_loop is its own (a fault test's loop touches 4 KiB): one ratio of value to
# ns per loop in every SAMPLE of the test; the second measured one (the third SAMPLE) forged.
caught "a time SAMPLE's value= off its loops" "SAMPLE test=clock-monotonic value=12345.000: its loops=[0-9]+ in ns=[0-9]+ give [0-9.e+]+ ns at the per_loop of the test's earlier SAMPLE \\(1\\)" \
	SAMPLE clock-monotonic value 12345.000 3
# A copy whose window held under half a loop prints loops=0 (the runner keeps the loops it
# interpolated, unrounded; lib/stats.c common_window_value()): a time test's value is then
# over twice the window (0.3 of a loop in ns=T: T/0.3), which a real runner writes and a
# reader must take; a value under twice the window with loops=0 is still refused. The 2nd
# measured clock-monotonic SAMPLE keeps its value (its RESULT stays true); its ns= moves.
zero_loops() {	# zero_loops F: that SAMPLE with loops=0 and ns=value x F; prints its line
	PYTHONPATH=$here python3 - "$tmp/run.log" "$tmp/forged.log" "$1" <<'EOF2'
import re, sys
from seal import seal
src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
lines, seen = open(src).read().split("\n"), 0
for n, line in enumerate(lines):
    m = re.match(r"(@isobench/1 \d+ SAMPLE .*) \*[0-9a-f]{8}$", line)
    if not m or " test=clock-monotonic copies=1 " not in line:
        continue
    seen += 1
    if seen != 3:
        continue
    body = m.group(1)
    value = float(re.search(r" value=(\S+)", body).group(1))
    body = re.sub(r" loops=\d+", " loops=0", body)
    body = re.sub(r" ns=\d+", " ns=%d" % max(1, round(value * factor)), body)
    lines[n] = seal(body)
    open(dst, "w").write("\n".join(lines))
    print(n + 1)
    sys.exit(0)
sys.exit("zero_loops: no third clock-monotonic SAMPLE")
EOF2
}
line=$(zero_loops 0.3)
expect_status EXIT_OK "a time SAMPLE with loops=0 (0.3 of a loop in its window) and value ns/0.3 is read" -- \
	"$report" --check "$tmp/forged.log"
line=$(zero_loops 3)
expect_status EXIT_INCOMPLETE "... but loops=0 with value ns/3 (under half a loop is over 2 ns a ns) is refused" -- \
	"$report" --check "$tmp/forged.log"
contains "$tmp/stdout" "line $line: SAMPLE test=clock-monotonic value=" "... naming its line"
caught "an extra-valued SAMPLE's value= that is no extra" \
	'SAMPLE test=vmexit-nanosleep-50us value=7.000: it is none of its value extras \(p50_late_ns=[0-9]+; unit ns\)' \
	SAMPLE vmexit-nanosleep-50us value 7.000 2
caught "a SAMPLE seen on 41 CPUs with fewer than 40 migrations" \
	'SAMPLE test=pipe migrations=[0-9]: copy 0 was seen on 41 CPUs \(cpus=0\+1\+2.*\), so it moved at least 40 times' \
	SAMPLE pipe cpus "$(seq -s+ 0 40)" 2
# A RESULT's whole-run percentiles are its own histogram's (lat_hist, issue 51).
caught "RESULT p99_ns= its lat_hist does not give" 'RESULT test=sockwrite-paced p99_ns=999999999: its lat_hist gives [0-9]+' \
	RESULT sockwrite-paced p99_ns 999999999
caught "RESULT max_ns= outside its lat_hist's top bucket" "RESULT test=sockwrite-paced max_ns=1: its lat_hist's largest value lies in [0-9]+\\.\\.[0-9]+" \
	RESULT sockwrite-paced max_ns 1
caught "a SAMPLE counting more loops than it ran" 'SAMPLE test=getpid loops=[0-9]+: copy 0 counts more loops in the window than it ran \(ran_loops=1\)' \
	SAMPLE getpid ran_loops 1 2

# A key given twice is malformed: the parser refuses the line (its checksum holds).
forge RESULT pipe value +1.000 >"$tmp/line"
expect_status EXIT_INCOMPLETE "a RESULT with value= twice is refused" -- "$report" --check "$tmp/forged.log"
contains "$tmp/stdout" "damaged record at line $(cat "$tmp/line") (malformed)" \
	"the verdict names the line of the RESULT with value= twice"

# The checks are real: a run whose converged= agrees needs no change to pass (the forge
# itself does not break a log).
forge RESULT pipe note kept >/dev/null
expect_status EXIT_OK "a resealed record with an unknown field is still valid (a reader ignores it)" -- \
	"$report" --check "$tmp/forged.log"
forge RESULT pipe better DROP >/dev/null
expect_status EXIT_OK "a RESULT without better= (an older writer) is read, not recomputed" -- \
	"$report" --check "$tmp/forged.log"

# The table never prints an impossible figure: the run is refused, in every mode that picks a
# run (the last complete one, --boot's latest, --run N).
forge RESULT pipe value nan >/dev/null
for mode in "" --boot "--run 1"; do
	# shellcheck disable=SC2086 # $mode is zero or two words
	"$report" $mode "$tmp/forged.log" >"$tmp/table" 2>&1 || true	# refused: what it says is checked
	hasnt "$tmp/table" 'Pipe Throughput' "a run with value=nan is not tabulated (${mode:-default})"
	contains "$tmp/table" 'value=nan: expected decimal > 0' "... and the verdict says why (${mode:-default})"
done
# Why sampling stopped (RESULT stop= and samples_needed=, issue 19 item 3): a run that cannot
# meet a 0.001% target within 5 samples says stop=cap and how many samples its spread needs;
# each must agree with the converged= and the SAMPLEs beside it.
"$out/isobench" --suite quick --tests pipe --copies 1 --samples 5 --ci 0.001 >"$tmp/unconv.log" 2>/dev/null
has "$tmp/unconv.log" 'RESULT test=pipe copies=1 .* converged=0 stop=cap samples_needed=[0-9]+ ' \
	"an unconverged RESULT says stop=cap and samples_needed="
has "$tmp/run.log" 'RESULT test=pipe copies=1 .* converged=1 stop=target ' "a converged one says stop=target"
# Futility (harness.c): from half the cap on, a spread that would need more than twice the
# cap stops: 4 of at most 8 samples against 0.001%.
"$out/isobench" --suite quick --tests pipe --copies 1 --samples 4-8 --ci 0.001 >"$tmp/futile.log" 2>/dev/null
has "$tmp/futile.log" 'RESULT test=pipe copies=1 .* samples=4 .* converged=0 stop=futile samples_needed=[0-9]+ ' \
	"a hopeless spread stops at half the cap: stop=futile, samples=4"
expect_status EXIT_OK "... and that run is valid" -- "$report" --check "$tmp/futile.log"
cp "$tmp/run.log" "$tmp/run-quick.log"
cp "$tmp/unconv.log" "$tmp/run.log"
expect_status EXIT_OK "an unconverged run as written is valid" -- "$report" --check "$tmp/run.log"
caught "samples_needed= not what the SAMPLEs' spread gives" \
	'RESULT test=pipe samples_needed=5: its SAMPLEs. spread and the target 0.001% give [0-9]+' \
	RESULT pipe samples_needed 5
caught "stop=target with converged=0" 'RESULT test=pipe converged=0: stop=target says otherwise' \
	RESULT pipe stop target
caught "an unknown stop=" 'RESULT stop=bored: expected one of `target`, `cap`, `futile`, `budget`' \
	RESULT pipe stop bored
cp "$tmp/run-quick.log" "$tmp/run.log"
caught "samples_needed= on a converged RESULT" 'RESULT test=pipe: samples_needed with converged=1' \
	RESULT pipe samples_needed 7
# samples_needed= from values the runner held unrounded: three SAMPLEs of about 1 printed to
# 0.001 (1.00049, 1.01, 1.02951 print as 1.000, 1.010, 1.030) move the MAD 5% and the need
# 10% (48 from the runner, 53 from the printed values): the reader allows what the rounding
# allows (CI's digest run saw mem-latency-16k-2m refused so: 47 against 50), and no more.
"$out/isobench" --suite quick --tests pipe --copies 1 --samples 3 --ci 0.5 >"$tmp/three.log" 2>/dev/null
PYTHONPATH=$here python3 - "$tmp/three.log" "$tmp/run.log" <<'EOF'
import re, sys
from seal import seal
src, dst = sys.argv[1:3]
vals = iter(["1.000", "1.010", "1.030", "1.000"])	# the warm-up's too
out, dropped = [], 0
for line in open(src).read().split("\n"):
    m = re.match(r"(@isobench/1 \d+ (\w+) .*) \*[0-9a-f]{8}$", line)
    if m and m.group(2) == "DIGEST":
        dropped += 1	# the digest restates the old values; a log without one is still whole
        continue
    if m and dropped:	# and the records after it keep their sequence
        seq = int(line.split()[1])
        body = re.sub(r"^@isobench/1 \d+", "@isobench/1 %d" % (seq - dropped), m.group(1))
        body = re.sub(r" records=(\d+)", lambda r: " records=%d" % (int(r.group(1)) - dropped), body)
        line = seal(body)
    if m and m.group(2) in ("SAMPLE", "RESULT") and " test=pipe " in line:
        body = m.group(1)
        if m.group(2) == "SAMPLE":	# loops one a second: a rate of 1 +/- 0.5 (the loops' rounding)
            body = re.sub(r"value=\S+", "value=" + next(vals), body)
            body = re.sub(r" loops=\S+", " loops=1", body)
            body = re.sub(r" ns=\S+", " ns=1000000000", body)
        else:
            for k, v in (("value", "1.020"), ("median", "1.010"), ("min", "1.000"), ("max", "1.030"),
                         ("ci95_pct", "1.49"), ("converged", "0"), ("stop", "cap")):
                body = re.sub(r"\b%s=\S+" % k, "%s=%s" % (k, v), body)
            # The run may have converged (three close samples): then it has no samples_needed=.
            body = re.sub(r" samples_needed=\S+", "", body)
            body = re.sub(r"( stop=cap)", r"\1 samples_needed=48", body)
            body = re.sub(r" baseline=\S+ index=\S+", "", body)
        line = seal(body)
    out.append(line)
open(dst, "w").write("\n".join(out))
EOF
expect_status EXIT_OK "samples_needed=48 from unrounded SAMPLEs printed to 0.001 is valid" -- "$report" --check "$tmp/run.log"
caught "... 40 is beyond what their rounding allows" \
	'RESULT test=pipe samples_needed=40: its SAMPLEs. spread and the target 0.5% give 53 \(43-63 with their rounding\)' \
	RESULT pipe samples_needed 40
finish
