#!/usr/bin/env bash
# tests/test-harness.sh — the harness's sampling as the log shows it: N copies over one
# common window, CPU placement and migrations per SAMPLE, isobench.pin, and the clocksource
# checked around every test (a change is a WARN record and a report warning). With
# OUT/bzImage present, one TCG boot adds the image's side: a `clocksource=` the kernel did not
# take is a WARN, and 64 copies on 2 vCPUs share one window per sample.
#
# In:  $OUT/isobench, $OUT/isobench-report; for the boot OUT/bzImage + initramfs, qemu/run.
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

# field LOG KIND TEST COPIES KEY: the values of KEY in those records, one line each.
field() {
	grep -E " $2 test=$3 copies=$4 " "$1" | grep -v ' warmup=1 ' |
		sed -n "s/.* $5=\([^ ]*\) .*/\1/p"
}

# 6, started here and checked at the end (it sleeps ~65 s beside the others): a test whose
#    loop takes 13 s (selftest-slow) with one sample of 10 ms. Its windows widen to two loops
#    (harness.c sample_window()), so calibration, warm-up and the sample outlast the 60 s the
#    test is first given; the harness moves the deadline (INFO deadline.*) and the test
#    completes. Before, it FAILed "timeout after 60 s" (shell8 under TCG did in every quick
#    run). An explicit timeout= is kept: it FAILs at 20 s and moves nothing.
slow_t0=$(date +%s)
"$bin" --suite quick --sample_ms 10 --samples 1 --copies 1 --tests selftest-slow \
	>"$tmp/slow.log" 2>/dev/null &
slow_pid=$!
"$bin" --suite quick --sample_ms 10 --samples 1 --copies 1 --timeout 20 \
	--tests selftest-slow >"$tmp/slowcap.log" 2>/dev/null &
slowcap_pid=$!
kill_at_exit slow_pid
kill_at_exit slowcap_pid

# 1. Six copies share one window: every copy's ns is the same; the per-copy lists have six
#    entries; no copy counts more loops in the window than it ran.
st=0
"$bin" --suite quick --sample_ms 50 --tests syscall --copies 6 >"$tmp/six.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$tmp/six.log" "syscall with 6 copies"
count_is "$tmp/six.log" "SAMPLE test=syscall copies=6 " 4 "a warm-up and 3 samples"
if awk '/ SAMPLE test=syscall copies=6 / {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	n = split(f["ns"], ns, ","); split(f["loops"], l, ","); split(f["ran_loops"], rl, ",")
	if (n != 6 || split(f["cpus"], c, ",") != 6 || split(f["migrations"], m, ",") != 6 ||
	    split(f["nivcsw"], s, ",") != 6 || split(f["ran_ns"], rn, ",") != 6 ||
	    split(f["cpu_ns"], cn, ",") != 6) bad++
	for (k = 1; k <= n; k++) if (cn[k] + 0 <= 0 || cn[k] + 0 > rn[k] * 1.05 + 20000000) bad++
	for (k = 1; k <= n; k++) if (ns[k] != ns[1] || l[k] + 0 > rl[k] + 0) bad++
	seen++ } END { exit !(seen == 4 && bad == 0) }' "$tmp/six.log"; then
	ok "one common window: equal ns, 6-entry lists, window loops <= loops run"
else
	bad "SAMPLE lists of the 6-copy run: $(grep -m1 'SAMPLE test=syscall copies=6 i=0' "$tmp/six.log")"
fi
count_is "$tmp/six.log" " TEST test=syscall " 1 "one TEST record for the 6-copy run"
count_is "$tmp/six.log" " TEST .* pin=" 0 "unpinned by default: no pin in TEST"

# 2. pin=1: copy c runs on the c-th allowed CPU only (round robin), never migrating; the log
#    says so. Two allowed CPUs where the machine has them, so that "pinned" shows.
cpus=0 want=0,0,0
[ "$(nproc)" -ge 2 ] && cpus=0,1 want=0,1,0
st=0
taskset -c "$cpus" "$bin" --suite quick --sample_ms 50 --tests syscall --copies 1,3 --pin 1 \
	>"$tmp/pin.log" 2>"$tmp/pin.err" || st=$?
ran EXIT_OK "$st" "$tmp/pin.log" "pinned run"
has "$tmp/pin.log" "TEST test=syscall .*copies=3 .* pin=1 " "TEST says pin=1"
has "$tmp/pin.err" "syscall\), 3 copies, pinned" "progress says pinned"
if [ "$(field "$tmp/pin.log" SAMPLE syscall 3 cpus | sort -u)" = "$want" ] &&
	[ "$(field "$tmp/pin.log" SAMPLE syscall 3 migrations | sort -u)" = "0,0,0" ]; then
	ok "pinned copies ran on CPUs $want, no migration"
else
	bad "pinned copies: cpus $(field "$tmp/pin.log" SAMPLE syscall 3 cpus | tr '\n' ' '), want $want"
fi
st=0
"$bin" --pin yes --tests syscall >/dev/null 2>&1 || st=$?
status_is EXIT_USAGE "$st" "--pin yes is a usage error"

# 3. A clocksource change during a test: WARN with before and after, END has the final one,
#    the report shows it (single run) and warns (comparison); the run is still complete.
echo tsc >"$tmp/cs"
(
	for _ in $(seq 200); do
		grep -q "TEST test=pipe " "$tmp/cs.log" 2>/dev/null && break
		sleep 0.05
	done
	echo hpet >"$tmp/cs"
) &
cs_pid=$!
st=0
ISOBENCH_CLOCKSOURCE_FILE=$tmp/cs "$bin" --suite quick --sample_ms 300 --tests pipe,syscall \
	--copies 1 >"$tmp/cs.log" 2>/dev/null || st=$?
wait "$cs_pid"
ran EXIT_OK "$st" "$tmp/cs.log" "run with a clocksource change"
has "$tmp/cs.log" "TEST test=pipe .* clocksource=tsc " "TEST records the clocksource before"
has "$tmp/cs.log" "WARN what=clocksource test=pipe copies=1 before=tsc after=hpet " \
	"the change is a WARN record naming the test"
has "$tmp/cs.log" "TEST test=syscall .* clocksource=hpet " "the next test starts on hpet"
# Changes during a test only (test=): a host whose command line asks for another clocksource
# than the faked one (this Firecracker guest's clocksource=kvm-clock) adds a WARN requested=.
count_is "$tmp/cs.log" " WARN what=clocksource test=" 1 "one change, one WARN of a change during a test"
has "$tmp/cs.log" " END .* clocksource=hpet " "END records the clocksource at the end"
st=0
"$report" "$tmp/cs.log" >"$tmp/cs.txt" 2>&1 || st=$?
status_is EXIT_OK "$st" "report: a WARN is not a failure"
has "$tmp/cs.txt" "^WARN +pipe \(1 copy\): the clocksource changed from tsc to hpet" \
	"report lists the change"
st=0
"$report" "$tmp/cs.log" "$tmp/six.log" >"$tmp/cmp.txt" 2>&1 || st=$?
status_is EXIT_OK "$st" "comparison: no row in common, a WARN is no failure"
has "$tmp/cmp.txt" "warning: .*clocksource changed from tsc to hpet during this test" \
	"comparison warns about the change"
st=0
"$bin" --suite quick --sample_ms 50 --tests syscall --copies 1 >"$tmp/same.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$tmp/same.log" "run without a clocksource change"
hasnt "$tmp/same.log" " WARN " "no change, no WARN"

# 4. A copy that skipped, crashed or failed has closed its command pipe; the controller's
#    goodbye to it must not kill the controller (SIGPIPE) before it removes the work directory.
#    The run must have happened there: status 1 (FAILs), its records, its work directory named.
mkdir "$tmp/wd"
st=0
TMPDIR=$tmp/wd "$bin" --suite quick --tests selftest-skip,selftest-crash,selftest-error \
	--copies 2 >"$tmp/wd.log" 2>/dev/null || st=$?
ran EXIT_FAILS "$st" "$tmp/wd.log" "skip, crash and error with 2 copies: FAILs in a complete run"
has "$tmp/wd.log" "INFO .*run.workdir=$tmp/wd " "the run worked in $tmp/wd"
has "$tmp/wd.log" " END records=[0-9]+ results=0 fails=2 skips=1 errors=0 " "END: 2 FAILs, 1 SKIP"
left=$(find "$tmp/wd" -mindepth 1 -maxdepth 1 -printf "%f ")
if ! grep -q " END " "$tmp/wd.log"; then
	bad "no work directory left: the run in $tmp/wd did not reach END"
elif [ -n "$left" ]; then
	bad "work directories left: $left"
else
	ok "no work directory left after skip, crash and error with 2 copies"
fi

# 5. The image under TCG (2 vCPUs): clocksource=tsc is not taken (TCG has no stable TSC, the
#    kernel runs on hpet) and says so; 64 copies on 2 vCPUs share one window in every sample
#    (before the common window, copy windows there ranged 0.03 ms to 1.6 s and their summed
#    rates gave 947,948 lps against 350k with 2 copies). The 64/2 ratio is printed, not
#    asserted: under TCG on a shared host one boot's figures swing 4x (docs/benchmarks/
#    unixbench-index.md has it over 10 boots).
if [ -f "$out/bzImage" ] && [ -f "$out/initramfs.cpio.gz" ]; then
	log=$tmp/tcg.log
	st=0
	"$top/qemu/run" --out "$out" --direct --accel tcg --cpus 2 --mem 128M --suite quick \
		--tests syscall --copies 2,64 --params "clocksource=tsc" --log "$log" \
		>"$tmp/tcg.out" 2>&1 || st=$?
	ran EXIT_OK "$st" "$log" "TCG boot, syscall with 2 and 64 copies, clocksource=tsc"
	has "$log" "WARN what=clocksource requested=tsc current=[a-z_]+ " \
		"clocksource=tsc not taken: WARN"
	if awk '/ SAMPLE test=syscall copies=64 / {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		n = split(f["ns"], ns, ","); if (n != 64) bad++
		for (k = 1; k <= n; k++) if (ns[k] != ns[1]) bad++
		seen++ } END { exit !(seen == 4 && bad == 0) }' "$log"; then
		ok "64 copies under TCG: one window per sample"
	else
		bad "64 copies under TCG: per-copy windows differ or samples missing"
	fi
	v2=$(field "$log" RESULT syscall 2 value)
	v64=$(field "$log" RESULT syscall 64 value)
	if [ -n "$v2" ] && [ -n "$v64" ]; then
		ok "RESULTs with 2 and 64 copies"
	else
		bad "RESULTs with 2 and 64 copies: '$v2' '$v64'"
	fi
	echo "info: syscall under TCG: 64 copies $v64 lps, 2 copies $v2 lps"
else
	skip "the TCG part: no $out/bzImage (it needs ./build.sh)"
fi

# 6. (started at the top) The slow test's moved deadline, and timeout= kept.
st=0
wait "$slow_pid" || st=$?
slow_s=$(($(date +%s) - slow_t0))
ran EXIT_OK "$st" "$tmp/slow.log" "selftest-slow (13 s loops, 1 sample): completes"
moved=$(sed -n 's/.* INFO deadline\.test=selftest-slow deadline\.copies=1 deadline\.s=\([0-9]*\) .*/\1/p' "$tmp/slow.log")
if [ -n "$moved" ] && [ "$moved" -gt 60 ] && [ "$moved" -le 240 ]; then
	ok "its deadline moved from 60 s to $moved s (INFO deadline.s, at most 4 x 60)"
else
	bad "no INFO deadline.s between 61 and 240 for selftest-slow: '$moved'"
fi
has "$tmp/slow.log" "deadline\.reason=one%20loop%20takes%201[0-9]\.[0-9]%20s:%20windows%20of%20[0-9.]+%20s%20instead%20of%20a%20sample's%2010%20ms" \
	"the reason names the loop and the window"
has "$tmp/slow.log" " RESULT test=selftest-slow copies=1 " "selftest-slow has a RESULT"
if [ "$slow_s" -gt 60 ]; then ok "it ran $slow_s s, past its first deadline of 60 s"
else bad "it ran $slow_s s: under 60 s, this proves nothing about the deadline"; fi
st=0
wait "$slowcap_pid" || st=$?
ran EXIT_FAILS "$st" "$tmp/slowcap.log" "selftest-slow with timeout=20: FAILs"
has "$tmp/slowcap.log" " FAIL test=selftest-slow copies=1 reason=timeout%20after%2020%20s " \
	"timeout=20 kept: FAIL after 20 s"
hasnt "$tmp/slowcap.log" " deadline\.s=" "timeout= given: no moved deadline"

finish
