#!/usr/bin/env bash
# tests/test-native.sh — the payload as a host CLI: real runs of real tests, bad input, and
# every failure path (selftest-* crash, stall, skip, error), each judged by isobench-report.
#
# In:  $OUT/isobench and $OUT/isobench-report (OUT defaults to the repository's out/).
# Out: one line per assertion, then "N passed, M failed". Errors: exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
report=$out/isobench-report
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
export TMPDIR=$tmp

st=0
"$bin" --list >"$tmp/list" || st=$?
status_is EXIT_OK "$st" "--list"
# The index is the registry's group "index" (payload/benchapi.h): as many tests as UnixBench's
# (lib/unixbench.h), each with its baseline.
n_index=$(sed -n 's/^#define UB_INDEX_TESTS \([0-9]*\).*/\1/p' "$top/lib/unixbench.h")
count_is "$tmp/list" "^[a-z0-9-]+ +index +[A-Za-z]+ +[0-9]+\.[0-9] " "${n_index:-?}" "--list: UB_INDEX_TESTS index tests, each with a baseline"
has "$tmp/list" "^dhry2reg +index +lps +116700\.0 " "--list: dhry2reg, UnixBench's first, with its baseline"
hasnt "$tmp/list" "^selftest-.* index" "selftests are not in the index"

# A real run of the five process tests, one and two copies, short samples.
st=0
"$bin" --suite quick --sample_ms 50 --tests execl,pipe,context1,spawn,syscall --copies 1,2 \
	>"$tmp/run.log" 2>"$tmp/run.err" || st=$?
ran EXIT_OK "$st" "$tmp/run.log" "quick run of the five process tests"
for t in execl pipe context1 spawn syscall; do
	for c in 1 2; do
		has "$tmp/run.log" "RESULT test=$t copies=$c unit=lps better=higher value=[0-9]+\.[0-9]+ " \
			"$t with $c cop(ies) has a RESULT"
	done
done
# Every index value must be value / baseline x 10 (to the printed precision).
if awk '/ RESULT / && / index=/ {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	want = f["value"] / f["baseline"] * 10
	if (want - f["index"] > 0.051 || f["index"] - want > 0.051) bad++
	n++ } END { exit !(n == 10 && bad == 0) }' "$tmp/run.log"; then
	ok "index = result / baseline x 10 in all 10 RESULT records"
else
	bad "index arithmetic in RESULT records"
fi
has "$tmp/run.log" "^System Benchmarks Index Values +BASELINE +RESULT +INDEX$" "classic table header"
has "$tmp/run.log" "TEST test=pipe .*unit=lps better=higher " "TEST says which way is better"
has "$tmp/run.log" "RESULT test=pipe copies=1 unit=lps better=higher " "RESULT says which way is better"
count_is "$tmp/run.log" "SAMPLE .* value=[0-9]+\.[0-9]{3} " 40 "every SAMPLE (warm-ups too) carries the value it contributes"
# The printed score is 10 x the geometric mean of value/baseline over the pass's RESULTs (one
# copy), computed here from the records, to the printed precision.
want=$(awk '/ RESULT .*copies=1 .* index=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	s += log(f["value"] / f["baseline"]); n++ } END { if (n) printf "%.1f", 10 * exp(s / n) }' "$tmp/run.log")
got=$(grep -m1 '^System Benchmarks Index Score' "$tmp/run.log" | awk '{ print $NF }' || true)
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "1-copy score $got = 10 x geomean(value/baseline) of its RESULTs"
else bad "1-copy score: printed $got, the RESULTs give $want"; fi
has "$tmp/run.log" "^System Benchmarks Index Score \(Partial Only: 5 of 12 index tests\) +[0-9]+\.[0-9]$" \
	"5 of 12 index tests make a Partial Index"
# Issue 48 item 6: the quick suite (ci target 100%) says in each pass's banner that it measures
# nothing, and each test's line shows the median its ci95 is of: the RESULT's median=, to 0.1.
count_is "$tmp/run.log" "^   isobench .*: [12] cop(y|ies), suite quick \(no confidence target: a smoke test, not a measurement\)$" 2 \
	"the quick suite's two banners say it is a smoke test"
awk '/ RESULT test=pipe copies=1 / { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	printf "%.2f %.1f\n", f["ci95_pct"], f["median"] }' "$tmp/run.log" >"$tmp/pipe.median"
read -r pci pmed <"$tmp/pipe.median" || true
has "$tmp/run.log" "^Pipe Throughput +[0-9]+\.[0-9] lps +\([0-9]+ samples, ci95 \+/-${pci:-x}% of their median ${pmed:-x}\)$" \
	"pipe's table line: its ci95 beside the median it is of ($pmed)"
has "$tmp/run.err" "^isobench: \[[0-9]+/[0-9]+\] pipe: [0-9.]+ lps \([0-9]+ samples, ci95 \+/-${pci:-x}% of their median ${pmed:-x}\)$" \
	"pipe's progress line too"
has "$tmp/run.log" "INFO .*clocksource.current=" "header records the clocksource"
has "$tmp/run.log" "INFO .*build.cflags=.*-march=x86-64" "header records the fixed target"
count_is "$tmp/run.log" "SAMPLE .*warmup=1" 10 "one warm-up sample per test and pass"
st=0
"$report" --check "$tmp/run.log" >"$tmp/check" || st=$?
status_is EXIT_OK "$st" "isobench-report judges the run complete"

# Bad input on a host is a usage error, found before anything runs (in the image, where
# nobody can retype it, it is an ERROR record instead: tests/test-e2e.sh).
for bad_args in "--tests pipe,nosuchtest" "--halt sideways" "--param bogus=1" \
	"--suite quik" "--tests ," "--tests ,," "--tmpdir /nonexistent" "--tmpdir /etc/passwd" \
	"--copies 0" "--frob 1" "--disk /nonexistent.img" "--disk serial:NO-SUCH-SERIAL-51" \
	"--disk /" "--disk /dev/null" \
	"--peer nosuchhost.invalid" "--tests"; do
	st=0
	# shellcheck disable=SC2086  # the words are meant to split
	"$bin" $bad_args >"$tmp/bad.out" 2>"$tmp/bad.err" || st=$?
	status_is EXIT_USAGE "$st" "usage error: $bad_args"
	if [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q "^isobench: " "$tmp/bad.err"; then
		ok "one line of reason on stderr: $bad_args"
	else
		bad "one line of reason on stderr: $bad_args: $(head -c 200 "$tmp/bad.err" | tr '\n' '|')"
	fi
	# (an empty stdout is also what a program that never started leaves: the reason must be there)
	if [ -s "$tmp/bad.out" ] || ! grep -q "^isobench: " "$tmp/bad.err"; then
		bad "nothing ran: $bad_args: stdout $(wc -c <"$tmp/bad.out") bytes, reason '$(head -c 100 "$tmp/bad.err")'"
	else ok "nothing ran: $bad_args"; fi
done
has "$tmp/bad.err" "'--tests' needs a value" "a missing value names the option"
# One rule for a named resource that does not exist (issue 51, docs/exit-status.md): a --disk
# path or serial no disk has is a usage error, as a --peer name that does not resolve, never
# a run whose disk tests SKIP.
"$bin" --tests disk-read-1m --disk /nonexistent.img >/dev/null 2>"$tmp/bad.err" || true
has "$tmp/bad.err" "^isobench: --disk /nonexistent.img: No such file or directory " "--disk naming no file says so"
expect_status EXIT_OK "--check-params takes a --disk path this host lacks (qemu/run checks the image's words: the guest's disk)" -- \
	"$bin" --check-params --disk /nonexistent.img
# A directory or a character device is no file or disk either (it was a run whose disk tests
# SKIPped "Block device required", status 0, though a regular file serves as well).
"$bin" --tests disk-read-1m --disk / >/dev/null 2>"$tmp/bad.err" || true
has "$tmp/bad.err" "^isobench: --disk /: a directory, not a file or a disk " "--disk naming a directory says so"
"$bin" --tests disk-read-1m --disk /dev/null >/dev/null 2>"$tmp/bad.err" || true
has "$tmp/bad.err" "^isobench: --disk /dev/null: a character device, not a file or a disk " \
	"--disk naming a character device says so"
"$bin" --tests disk-read-1m --disk serial:NO-SUCH-SERIAL-51 >/dev/null 2>"$tmp/bad.err" || true
has "$tmp/bad.err" "^isobench: --disk serial:NO-SUCH-SERIAL-51: no disk with serial NO-SUCH-SERIAL-51" \
	"--disk serial: naming no disk says so"
# Progress reaches stderr when stdout is a file; the work directory is recorded.
has "$tmp/run.err" "^isobench: \[1/10\] " "progress on stderr while stdout is a file"
has "$tmp/run.log" "INFO .*run.workdir=$tmp " "the work directory is in the header"

# Replicates (isobench.repeat / --repeat) with a crash in each: the crash is that test's FAIL,
# every replicate still completes (its own BEGIN..END with the test after the crash).
st=0
"$bin" --suite quick --sample_ms 50 --tests selftest-crash,getpid --copies 1 --repeat 2 \
	>"$tmp/rcrash.log" 2>/dev/null || st=$?
status_is EXIT_FAILS "$st" "--repeat 2 with a crashing test: the FAILs' status"
if [ "$(grep -c ' FAIL test=selftest-crash copies=1 reason=crashed' "$tmp/rcrash.log")" -eq 2 ] &&
	[ "$(grep -c ' RESULT test=getpid ' "$tmp/rcrash.log")" -eq 2 ] &&
	[ "$(grep -c ' END records=' "$tmp/rcrash.log")" -eq 2 ] && grep -q 'run.replicate=2' "$tmp/rcrash.log"; then
	pass "--repeat 2 with a crashing test: both replicates complete (FAIL, then getpid's RESULT, END)"
else
	fail "--repeat 2 with a crashing test: $(grep -cE ' (END|RESULT) ' "$tmp/rcrash.log") RESULT/END records"
fi

# Failure paths: crash, stall, skip, error and a too-slow loop are reported; the run completes.
# It runs through a link of its own so that the leftover check below sees this run's
# processes only, not those of a suite running beside this one (tests/run runs two).
ln -s "$bin" "$tmp/isobench-self"
st=0
"$tmp/isobench-self" --suite quick --sample_ms 50 --tests selftest,pipe --copies 1,2 --timeout 6 \
	>"$tmp/self.log" 2>"$tmp/self.err" || st=$?
ran EXIT_FAILS "$st" "$tmp/self.log" "selftests: exit 1, run completed"
for c in 1 2; do
	has "$tmp/self.log" "FAIL test=selftest-crash copies=$c reason=crashed%20\(signal%2011" \
		"a crash is a FAIL with its signal ($c cop.)"
	has "$tmp/self.log" "FAIL test=selftest-stall copies=$c reason=(timeout|stalled)" \
		"a stall is a FAIL ($c cop.)"
	has "$tmp/self.log" "SKIP test=selftest-skip copies=$c reason=selftest:%20skipping" \
		"a skip says why ($c cop.)"
	has "$tmp/self.log" "FAIL test=selftest-error copies=$c reason=run:%20I/O%20error" \
		"run() errors are FAILs ($c cop.)"
	# Its 13 s loops would earn a longer deadline, but an explicit --timeout is kept.
	has "$tmp/self.log" "FAIL test=selftest-slow copies=$c reason=timeout%20after%206%20s" \
		"a slow loop is held to the --timeout asked for ($c cop.)"
	# A copy that outlives its RESULT: killed at the deadline, the RESULT kept, a WARN and
	# no second outcome (a FAIL after the RESULT made two; the digest restates one each).
	has "$tmp/self.log" "RESULT test=selftest-linger copies=$c " "a lingering test keeps its RESULT ($c cop.)"
	has "$tmp/self.log" "WARN what=test test=selftest-linger copies=$c reason=the%20test%20process%20was%20still%20running%20at%20its%206%20s%20deadline,%20after%20its%20RESULT" \
		"... a WARN says it was killed after it ($c cop.)"
	hasnt "$tmp/self.log" "FAIL test=selftest-linger copies=$c " "... and no FAIL follows the RESULT ($c cop.)"
	has "$tmp/self.log" "RESULT test=pipe copies=$c " "pipe still ran ($c cop.)"
done
has "$tmp/self.log" "END records=[0-9]+ results=4 fails=8 skips=2 errors=0 " "END counts"
st=0
"$report" --check "$tmp/self.log" >/dev/null || st=$?
status_is EXIT_FAILS "$st" "isobench-report: complete, with FAIL records"
# What is left afterwards means something only if the run happened, and happened in $tmp.
if ! grep -q "INFO .*run.workdir=$tmp " "$tmp/self.log" || ! grep -q " END " "$tmp/self.log"; then
	bad "no process or work directory left: the selftest run did not work in $tmp to its END"
else
	if pgrep -f "$tmp/isobench-self" >/dev/null; then bad "no process of the run is left"; else
		ok "no process of the run is left"; fi
	# A crash, a stall (timeout), a skip and an error each leave no work directory behind.
	left=$(find "$tmp" -maxdepth 1 -name 'isobench.*' | wc -l)
	if [ "$left" -eq 0 ]; then ok "no isobench.<pid> work directory left after crash/stall/skip/error"
	else bad "$left isobench.<pid> work directories left in $tmp"; fi
fi

# Interrupted: SIGTERM and SIGINT stop the run, remove the test's files, and the process dies
# of the signal (143, 130). env --default-signal: a script's background job ignores SIGINT.
for sig in TERM INT; do
	mkdir -p "$tmp/sig$sig"
	TMPDIR=$tmp/sig$sig env --default-signal=INT "$bin" --suite quick --tests selftest-stall \
		--copies 1 --timeout 60 >"$tmp/sig.log" 2>/dev/null &
	spid=$!
	seen=0
	for _ in $(seq 50); do
		[ -n "$(find "$tmp/sig$sig" -maxdepth 1 -name 'isobench.*')" ] && seen=1 && break
		sleep 0.1
	done
	sleep 0.3
	kill -"$sig" "$spid" 2>/dev/null || true	# (gone already: the status check says so)
	st=0
	wait "$spid" || st=$?
	want=SIG$sig
	status_is "$want" "$st" "SIG$sig: the CLI dies of the signal"
	left=$(find "$tmp/sig$sig" -mindepth 1 | wc -l)
	if [ "$seen" -eq 0 ]; then bad "SIG$sig: no work directory appeared in $tmp/sig$sig to be removed"
	elif [ "$left" -eq 0 ]; then ok "SIG$sig: the test's work directory is gone"
	else bad "SIG$sig: $left entries left in $tmp/sig$sig"; fi
	has "$tmp/sig.log" "^isobench: .* during selftest-stall \(1 copy\): test stopped, its files removed" \
		"SIG$sig: the log says what was stopped"
done

# Output that cannot be written is status 2, not 0: stdout closed, /dev/full, a full tmpfs.
st=0
"$bin" --suite quick --sample_ms 20 --tests syscall --copies 1 >&- 2>"$tmp/closed.err" || st=$?
status_is EXIT_USAGE "$st" "stdout closed"
has "$tmp/closed.err" "standard output is closed" "stdout closed: said why"
st=0
"$bin" --suite quick --sample_ms 20 --tests syscall --copies 1 >/dev/full 2>"$tmp/full.err" || st=$?
status_is EXIT_USAGE "$st" "stdout is /dev/full"
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=64k isobench-test "$tmp/small" 2>/dev/null; then
	head -c 60k /dev/zero >"$tmp/small/filler" 2>/dev/null || true	# 4 KiB left
	st=0
	"$bin" --suite quick --sample_ms 20 --tests syscall --copies 1 >"$tmp/small/out.log" \
		2>"$tmp/small.err" || st=$?
	status_is EXIT_USAGE "$st" "stdout on a full 64 KiB tmpfs ($(stat -c %s "$tmp/small/out.log") bytes written)"
	has "$tmp/small.err" "standard output could not be written" "full disk: said why"
	umount "$tmp/small"
else
	skip "stdout on a full 64 KiB tmpfs: cannot mount a tmpfs here (not root?)"
fi

# The OOM killer during a test is named as the FAIL's reason (what the test saw is the note).
# ISOBENCH_VMSTAT stands in for /proc/vmstat; its oom_kill grows while the tests run. The
# stall is caught twice: by the harness (stalled, relayed) and by the runner (timeout).
echo "oom_kill 7" >"$tmp/vmstat"
( for i in $(seq 8 1000); do echo "oom_kill $i" >"$tmp/vmstat.new"; mv "$tmp/vmstat.new" "$tmp/vmstat"; sleep 0.1; done ) &
vpid=$!
st=0
ISOBENCH_VMSTAT=$tmp/vmstat "$bin" --suite quick --sample_ms 20 --tests selftest-stall \
	--copies 1 --timeout 30 >"$tmp/oom.log" 2>/dev/null || st=$?
st2=0
ISOBENCH_VMSTAT=$tmp/vmstat "$bin" --suite quick --sample_ms 20 --tests selftest-stall \
	--copies 1 --timeout 2 >"$tmp/oom2.log" 2>/dev/null || st2=$?
kill "$vpid" 2>/dev/null || true
wait "$vpid" 2>/dev/null || true
ran EXIT_FAILS "$st" "$tmp/oom.log" "a run with an OOM FAIL (the harness's) completes"
ran EXIT_FAILS "$st2" "$tmp/oom2.log" "a run with an OOM FAIL (the runner's timeout) completes"
has "$tmp/oom.log" "FAIL test=selftest-stall copies=1 .*reason=out%20of%20memory:%20the%20kernel's%20OOM%20killer%20ran%20during%20this%20test note=stalled.* oom_kills=[1-9]" \
	"the harness's FAIL (stalled) during OOM kills says out of memory"
has "$tmp/oom2.log" "FAIL test=selftest-stall copies=1 .*reason=out%20of%20memory:.* note=timeout%20after%202%20s.* oom_kills=[1-9]" \
	"the runner's FAIL (timeout) during OOM kills says out of memory"
has "$tmp/oom.log" "^Selftest: stalls +FAIL +\(out of memory: the kernel's OOM killer ran during this test\)" \
	"the table gives the relayed FAIL's OOM reason, not the test's own"
has "$tmp/oom2.log" "^Selftest: stalls +FAIL +\(out of memory: the kernel's OOM killer ran during this test\)" \
	"the table gives the runner's FAIL's OOM reason, not its timeout"
complete "$tmp/oom.log" "the rewritten FAIL records still verify" EXIT_FAILS

# Usage errors.
st=0
"$bin" --no-such-option >/dev/null 2>&1 || st=$?
status_is EXIT_USAGE "$st" "unknown option"
st=0
"$bin" stray-argument >/dev/null 2>&1 || st=$?
status_is EXIT_USAGE "$st" "stray argument"


# The clock's own cost (issue 45): a test that times each operation (latency percentiles in
# its RESULT) says what one read of that clock costs (clock_ns_x100, > 0); one that does not,
# nothing.
"$bin" --suite quick --sample_ms 20 --copies 1 --tests sockwrite-paced-samecpu,getpid \
	>"$tmp/clk.log" 2>/dev/null || true
count_is "$tmp/clk.log" "RESULT test=sockwrite-paced-samecpu .*p50_ns=[0-9]+ .*clock_ns_x100=[1-9][0-9]*( |\*)" 1 \
	"a per-operation timed test's RESULT carries its clock read's cost"
count_is "$tmp/clk.log" "RESULT test=getpid .*clock_ns_x100" 0 "... a test timed in whole samples carries none"

# Replicates and interleaved A/B in one process (issue 35): --repeat N writes N complete runs
# (each BEGIN..END, records counted from 1), --ab A B --rounds N alternates the two parameter
# sets, each run's header saying its round and side; isobench-report makes the sides of them.
rq=(--suite quick --sample_ms 20 --tests "getpid,syscall" --copies 1)
st=0
"$bin" "${rq[@]}" --repeat 3 >"$tmp/rep.log" 2>/dev/null || st=$?
status_is EXIT_OK "$st" "--repeat 3 runs"
count_is "$tmp/rep.log" " BEGIN run=" 3 "--repeat 3: three BEGINs"
count_is "$tmp/rep.log" "^@isobench/1 1 BEGIN " 3 "--repeat 3: each run's records count from 1"
if [ "$(grep -o ' BEGIN run=[0-9a-f]*' "$tmp/rep.log" | sort -u | wc -l)" -eq 3 ]
then pass "--repeat 3: each run has its own run id"; else fail "--repeat 3: run ids repeat: $(grep -o ' BEGIN run=[0-9a-f]*' "$tmp/rep.log" | tr '\n' ' ')"; fi
count_is "$tmp/rep.log" " END records=[0-9]+ results=2 " 3 "--repeat 3: three ENDs, each counting its own"
"$report" --check "$tmp/rep.log" >"$tmp/rep.check" 2>&1 || true
has "$tmp/rep.check" "run 3 of 3 complete" "--repeat 3: every run complete"
# (a second --repeat 3 log for side b: a copy of the first would put its runs on both sides)
"$bin" "${rq[@]}" --repeat 3 >"$tmp/rep2.log" 2>/dev/null || true
"$report" --label a,b "$tmp/rep.log" "$tmp/rep2.log" >"$tmp/rep.txt" 2>&1 || true
has "$tmp/rep.txt" "^side 1: a, 3 run\(s\)" "a --repeat 3 log is a side of three runs"
# Each replicate says which it is (issue 45: INFO run.repeat, run.replicate), never a round:
# back to back is not interleaved, and a round would make the report pair them.
for k in 1 2 3; do
	count_is "$tmp/rep.log" "INFO .*run\.repeat=3 run\.replicate=$k( |\*)" 1 "--repeat 3: run $k says run.replicate=$k"
done
count_is "$tmp/rep.log" "run\.round=" 0 "--repeat 3: the replicates carry no run.round"
"$bin" "${rq[@]}" --tests getpid >"$tmp/one.log" 2>/dev/null || true
count_is "$tmp/one.log" "run\.repeat=|run\.replicate=" 0 "one run: no run.repeat, no run.replicate"
# ... and each draws its own disk seed (a replicate never re-reads what the one before warmed),
# unless one is given.
"$bin" --make-scratch "$tmp/seed.img" 16M >/dev/null
for given in "" 77; do
	"$bin" --suite quick --sample_ms 20 --copies 1 --tests disk-randread-4k-qd1 --disk "$tmp/seed.img" \
		--repeat 3 ${given:+--disk.seed "$given"} >"$tmp/seeds.log" 2>/dev/null || true
	n=$(grep -o 'disk\.seed=[0-9]*' "$tmp/seeds.log" | sort -u | wc -l) || true
	want=$([ -n "$given" ] && echo 1 || echo 3)
	if [ "$(grep -c 'disk\.seed=' "$tmp/seeds.log")" -eq 3 ] && [ "$n" -eq "$want" ]; then
		pass "--repeat 3${given:+ --disk.seed $given}: $want distinct disk seed(s) over the three runs"
	else
		fail "--repeat 3${given:+ --disk.seed $given}: disk seeds $(grep -o 'disk\.seed=[0-9]*' "$tmp/seeds.log" | tr '\n' ' ')"
	fi
done
st=0
"$bin" "${rq[@]}" --param isobench.repeat=2 >"$tmp/rep3.log" 2>/dev/null || st=$?
status_is EXIT_OK "$st" "--param isobench.repeat=2 (the image's word) runs"
count_is "$tmp/rep3.log" " BEGIN run=" 2 "--param isobench.repeat=2 is --repeat 2: two runs"
count_is "$tmp/rep3.log" "INFO .*run\.repeat=2 run\.replicate=2( |\*)" 1 "... the second says run.replicate=2"
st=0
"$bin" "${rq[@]}" --ab 'pin=0' 'isobench.pin=1' --rounds 3 >"$tmp/ab.log" 2>/dev/null || st=$?
status_is EXIT_OK "$st" "--ab with --rounds 3"
count_is "$tmp/ab.log" " BEGIN run=" 6 "--ab --rounds 3: six runs"
for r in 1 2 3; do
	count_is "$tmp/ab.log" "INFO .*run.round=$r run.ab_side=a" 1 "round $r: one A run"
	count_is "$tmp/ab.log" "INFO .*run.round=$r run.ab_side=b" 1 "round $r: one B run"
done
count_is "$tmp/ab.log" " TEST test=getpid .* pin=1" 3 "the B runs took the second set (pin=1)"
#    The balanced order (issue 46): A B, B A, A B, each run's place in its round said.
order=$(grep -o 'run\.round=[0-9]* run\.ab_side=[ab] run\.ab_pos=[12]' "$tmp/ab.log" | tr '\n' ' ') || true
want="run.round=1 run.ab_side=a run.ab_pos=1 run.round=1 run.ab_side=b run.ab_pos=2 run.round=2 run.ab_side=b run.ab_pos=1 run.round=2 run.ab_side=a run.ab_pos=2 run.round=3 run.ab_side=a run.ab_pos=1 run.round=3 run.ab_side=b run.ab_pos=2 "
if [ "$order" = "$want" ]; then pass "--ab --rounds 3: the balanced order A B, B A, A B, places said"
else fail "--ab --rounds 3: not the balanced order: $order"; fi
"$report" "$tmp/ab.log" >"$tmp/ab.txt" 2>&1 || true
has "$tmp/ab.txt" "^side 2: b, 3 run\(s\)" "isobench-report makes the sides of run.ab_side"
#    Two test rows, and with an index test among them the Index Score row too (its own verdict).
grep -v '^Index Score' "$tmp/ab.txt" >"$tmp/ab-rows.txt"
count_is "$tmp/ab-rows.txt" " 3x3 +paired-t " 2 "the rounds are paired (3x3, paired t)"
#    One boot's log of an A/B set (its first run alone) reads as any run.
awk '{ print } / END records=/ { exit }' "$tmp/ab.log" >"$tmp/ab1.log"
st=0
"$report" "$tmp/ab1.log" >"$tmp/ab1.txt" 2>&1 || st=$?
status_is EXIT_OK "$st" "one A/B run alone: read as a run, status 0"
has "$tmp/ab1.txt" "run 1 of 1 complete" "one A/B run alone: its verdict line"
# round and ab_side are --ab's own (each run's), so a set giving them, or the options beside
# --ab, would be replaced unsaid; a second --repeat, --rounds or --ab would replace the first:
# usage errors, one line each.
for bad in "--rounds 3" "--ab pin=1" "--repeat 0" "--repeat 2 --ab pin=0 pin=1" "--ab pin=0 nope=1" \
	"--ab round=7 pin=1" "--ab ab_side=b pin=1" "--ab pin=0 isobench.round=2" "--ab ab_pos=1 pin=1" \
	"--ab_pos 2 --ab pin=0 pin=1" \
	"--round 3 --ab pin=0 pin=1" "--ab pin=0 pin=1 --ab_side b" "--ab_side - --ab pin=0 pin=1" \
	"--param round=2 --ab pin=0 pin=1" \
	"--repeat 3 --repeat 4" "--ab pin=0 pin=1 --rounds 3 --rounds 4" \
	"--repeat 2 --param repeat=3" "--ab repeat=2 pin=1" "--param repeat=0" "--param repeat=1001" \
	"--ab pin=0 pin=1 --ab pin=1 pin=0"; do
	st=0
	# shellcheck disable=SC2086 # the words are the options
	"$bin" "${rq[@]}" $bad >/dev/null 2>"$tmp/multi.err" || st=$?
	status_is EXIT_USAGE "$st" "usage error: $bad"
	count_is "$tmp/multi.err" '^isobench: ' 1 "one line says why: $bad"
done
expect_status EXIT_USAGE "--round beside --ab" -- "$bin" "${rq[@]}" --round 3 --ab pin=0 pin=1
has "$tmp/stderr" "^isobench: --round with --ab: the round and the side are --ab's own" \
	"... its line names the option"
#    A key twice in one set would take the last unsaid: a usage error naming the key and the
#    set (with or without the isobench. prefix). Two sets alike stay allowed: an A/A run is how
#    the noise floor is measured.
expect_status EXIT_USAGE "--ab with a key twice in one set" -- \
	"$bin" "${rq[@]}" --ab 'pin=0 pin=1' 'pin=1' --check-params
count_is "$tmp/stderr" "^isobench: --ab 'pin=0 pin=1': pin is given twice in the set" 1 \
	"... one line names the key and the set"
expect_status EXIT_USAGE "--ab with a key twice in the second set, once prefixed" -- \
	"$bin" "${rq[@]}" --ab 'pin=0' 'isobench.pin=1 pin=0' --check-params
expect_status EXIT_OK "--ab with two sets alike (A/A, the noise floor): allowed" -- \
	"$bin" "${rq[@]}" --ab 'pin=0' 'pin=0' --check-params
expect_status EXIT_OK "--round without --ab is a run's own round (--check-params)" -- \
	"$bin" "${rq[@]}" --round 3 --repeat 3 --check-params
for bad in "+2" " 2" "2x" "1001"; do	# num.c's strict digits (strtol took "+2" and " 2")
	expect_status EXIT_USAGE "usage error: --repeat '$bad'" -- "$bin" "${rq[@]}" --repeat "$bad"
done

finish
