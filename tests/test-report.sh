#!/usr/bin/env bash
# test-report.sh — isobench-report against its fixtures and output paths.
#
#   tests/test-report.sh [PATH/TO/isobench-report]    (default: OUT's, as tests/lib.sh's
#                                                      report_tool; without one, builds it
#                                                      into a temp dir)
#
# Runs every row of tests/fixtures/logs/expected.tsv (file, exit status, verdict substring,
# extra options) through `isobench-report --check`, then the report, compare, JSON (checked with
# python3 -m json.tool and a shape check), CSV (column count), SVG (xmllint or xml.etree) paths,
# and renders the SVG in headless Chromium when it is installed (the PNG must not be blank).
# Prints "N passed, M failed"; exits 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
fix=$top/tests/fixtures/logs
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
if [[ $# -ge 1 ]]; then
	bin=$1
elif [[ -x "$(report_tool)" ]]; then
	# The build's (tests/run runs after ./build.sh, which makes it): not compiled a second time.
	bin=$(report_tool)
else
	make -s -C "$top/report" O="$tmp" >/dev/null
	bin=$tmp/isobench-report
fi

# run WANT OUTFILE ARGS... — run the tool, compare its exit status with the one named WANT
# (EXIT_OK, EXIT_USAGE ...: lib/status.h's names, as status_is takes them).
run() {
	local want=$1 out=$2 rc=0
	shift 2
	_lib_want "$want" "isobench-report $*" || return 1
	"$bin" "$@" >"$out" 2>"$out.err" || rc=$?
	if [[ $rc -ne $_lib_w ]]; then
		fail "isobench-report $* exited $rc, expected $want ($_lib_w)"
		return 1
	fi
	pass "isobench-report $*: status $rc"
}

# 1. Fixtures: exit status and verdict line.
while IFS=$'\t' read -r file want verdict opts; do
	[[ -z $file || $file == \#* ]] && continue
	read -r -a extra <<<"${opts:-}"
	line=$("$bin" --check "${extra[@]}" "$fix/$file" 2>&1 | tail -n 1 || true)
	rc=0
	"$bin" --check "${extra[@]}" "$fix/$file" >/dev/null 2>&1 || rc=$?
	if ! _lib_want "$want" "expected.tsv: $file"; then
		continue
	elif [[ $rc -ne $_lib_w ]]; then
		bad "$file ${opts:-}: exit $rc, expected $want ($_lib_w) ($line)"
	elif [[ $line != *"$verdict"* ]]; then
		bad "$file ${opts:-}: verdict '$line' lacks '$verdict'"
	else
		pass "$file ${opts:-}: $line"
	fi
done <"$fix/expected.tsv"

# Damaged lines are named with their line number, on stderr.
run EXIT_INCOMPLETE "$tmp/flip" --check "$fix/flipped.log" || true
contains "$tmp/flip.err" "flipped.log:14: damaged record (checksum mismatch), not used"

# 2. The single-run report.
run EXIT_OK "$tmp/one" "$fix/native.log" || true
contains "$tmp/one" "System Benchmarks Index Values               BASELINE       RESULT    INDEX"
#    The headline score as a number: 10 x sqrt(1904387.362/12440 x 1491095.644/15000) =
#    1233.6 (pipe and syscall; getpid is outside the index), computed by hand.
contains "$tmp/one" "System Benchmarks Index Score (Partial Only: 2 of 12 index tests)    1233.6"
contains "$tmp/one" "hypervisor:  cpuid \"KVMKVMKVM\""
contains "$tmp/one" "System Call Overhead (getpid)"
#    A run of no index test (the disk, net or memory group alone; here a probe): no empty
#    index table with a "---" score, its results under "Other tests" as usual.
run EXIT_OK "$tmp/noindex" "$fix/paced-a.log" || true
lacks "$tmp/noindex" "System Benchmarks Index" "no index test ran: no index table and no score"
contains "$tmp/noindex" "Socket write 64 B paced 50k/s" "no index test ran: the probe's result is shown"
run EXIT_FAILS "$tmp/qemu" "$fix/qemu-tcg.log" || true
contains "$tmp/qemu" "machine:     QEMU/TCG, 2 CPUs"
contains "$tmp/qemu" "ERROR nope: unknown test or group"
contains "$tmp/qemu" "clocksource: hpet"
#    Issue 48 item 6, a first run that reads well (this TCG log: quick suite, pipe and syscall).
#    One note says the figures are emulation, instead of a convergence line per test; the quick
#    suite's 100% target is said to be no measurement; the score says it is 2 of the 12; the
#    Details show each test's median (pipe: RESULT value 159044.523, median 148207.512) beside
#    that median's ci95.
count_is "$tmp/qemu" "^note: QEMU/TCG: software emulation, not a hypervisor; its figures are noisy and no$" 1 \
	"a TCG run: one note that its figures are emulation"
lacks "$tmp/qemu" "not converged" "a TCG run: no convergence line per test"
lacks "$tmp/qemu" "this log does not say whether sampling met" "a TCG run: no convergence note either"
count_is "$tmp/qemu" "^note: suite quick: its confidence target is 100%, so every test stops at its sample count$" 1 \
	"the quick suite: one note on its target"
contains "$tmp/qemu" "      whatever the spread: a smoke test of the plumbing, not a measurement"
contains "$tmp/qemu" "System Benchmarks Index Score (Partial Only: 2 of 12 index tests)     170.8"
has "$tmp/qemu" '^Details +MEDIAN UNIT +SAMPLES +ci95$' "the Details column is the median"
has "$tmp/qemu" '^pipe +148207\.5 lps +3 +\+/-31\.17%$' "Details: pipe's median beside its ci95"
has "$tmp/qemu" '^pipe +12440\.0 +159044\.5 +127\.8$' "the index table keeps UnixBench's aggregate"

# 3. Comparison: identical data is within noise; a loaded machine is flagged (one run a
#    side: marks only, exit 0 — a verdict and status 4 need replicates, test-replicates.sh);
#    a run with ERROR records exits 1 and differing setups warn.
run EXIT_OK "$tmp/same" "$fix/native.log" "$fix/crlf.log" || true
contains "$tmp/same" "0 beyond noise, 3 within noise"
run EXIT_OK "$tmp/cmp" --label bare,loaded "$fix/native.log" "$fix/native-loaded.log" || true
contains "$tmp/cmp" "loaded   ratio"
#    The flag on a row, not in the legend (which always prints "* beyond noise"): some row of
#    the table ends in a ratio and '*'.
if grep -Eq '^[A-Z].* [0-9]+\.[0-9]{2} \*$' "$tmp/cmp"; then pass "a row is flagged '*' in $tmp/cmp"; else fail "no row flagged '*' in $tmp/cmp"; fi
run EXIT_FAILS "$tmp/cmp3" "$fix/native.log" "$fix/native-loaded.log" "$fix/qemu-tcg.log" || true
contains "$tmp/cmp3" "QEMU/TCG, 2 CPUs"
contains "$tmp/cmp3" "warning: not comparable: build.version differs"
run EXIT_INCOMPLETE "$tmp/cmpbad" "$fix/native.log" "$fix/flipped.log" || true
run EXIT_USAGE "$tmp/lab" --label a "$fix/native.log" "$fix/crlf.log" || true

# 3b. Significance on real data (issue 19's demonstration): two TCG boots of one build, one
#     with tsc=reliable clocksource=tsc, one on TCG's hpet. Only the three clock reads differ
#     (p = 0.00016, the smallest two-sided p of 8 against 8 samples); getpid's 1.03 is noise
#     (the ratio of the whole-run values, every sample counted: issue 46).
run EXIT_OK "$tmp/cs" "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
for t in 'clock_gettime\(CLOCK_MONOTONIC\)' 'clock_gettime\(CLOCK_REALTIME\)' 'gettimeofday\(\)'; do
	if grep -Eq "^$t +1 ns .* 0\.[0-9]{2} \*  lower is better$" "$tmp/cs"
	then pass "clocksource demo: $t beyond noise"; else fail "clocksource demo: $t not flagged in $tmp/cs"; fi
done
if grep -Eq '^System Call Overhead \(getpid\) +1 lps .* 1\.03 ~$' "$tmp/cs"
then pass "clocksource demo: getpid within noise"; else fail "clocksource demo: getpid row in $tmp/cs"; fi
contains "$tmp/cs" "3 beyond noise, 1 within noise"
#     --noise-floor PCT replaces every floor. The floor is symmetric (max(r, 1/r) - 1, as
#     noise-floor.sh measures max/min - 1): a 0.072 ratio is a 13.9x slowdown, beyond a 95%
#     floor (it used to pass as |1 - r| = 93%), and within 1,500%.
run EXIT_OK "$tmp/cs95" --noise-floor 95 "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
contains "$tmp/cs95" "3 beyond noise, 1 within noise"
contains "$tmp/cs95" "95.0% option *"
run EXIT_OK "$tmp/cs1500" --noise-floor 1500 "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
contains "$tmp/cs1500" "0 beyond noise, 4 within noise"
contains "$tmp/cs1500" "1500.0% option ~"
run EXIT_USAGE "$tmp/csbad" --noise-floor 10001 "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
contains "$tmp/csbad.err" "--noise-floor wants a percentage, 0 to 10000, or a file"
#     --noise-floor FILE: per test, as noise-floor.sh prints them; a test it does not name
#     keeps the default. Only clock-monotonic's 1,500% hides its 0.072.
printf '# floors\nclock-monotonic 1 1500.0\t# 5 runs\n\ngetpid 2 50\n' >"$tmp/floors"
run EXIT_OK "$tmp/csf" --noise-floor "$tmp/floors" "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
contains "$tmp/csf" "2 beyond noise, 2 within noise"
if grep -Eq '^clock_gettime\(CLOCK_MONOTONIC\) .* 1500\.0% file ~$' "$tmp/csf"
then pass "the file's floor applies to its test"; else fail "the file's floor applies to its test: $tmp/csf"; fi
if grep -Eq '^gettimeofday\(\) .* 5\.0% default \*$' "$tmp/csf"
then pass "a test the file does not name keeps the default"; else fail "default floor: $tmp/csf"; fi
# COPIES and PCT as lib/num.h reads them: strtol(3)/strtod(3) took "0x1" and "1e" (and "+1").
for bad in 'clock-monotonic 0x1 50' 'clock-monotonic 1 1e' 'clock-monotonic +1 50'; do
	printf '%s\n' "$bad" >"$tmp/floors-lax"
	run EXIT_USAGE "$tmp/csfl" --noise-floor "$tmp/floors-lax" "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
	contains "$tmp/csfl.err" "floors-lax line 1: not \"TEST COPIES PCT\""
done
printf 'clock-monotonic 1\n' >"$tmp/floors-bad"
run EXIT_USAGE "$tmp/csfb" --noise-floor "$tmp/floors-bad" "$fix/tcg-clock-tsc.log" "$fix/tcg-clock-hpet.log" || true
contains "$tmp/csfb.err" "floors-bad line 1: not \"TEST COPIES PCT\" (PCT 0 to 10000)"
run EXIT_USAGE "$tmp/csfn" --noise-floor "$tmp/no-such-file" "$fix/tcg-clock-tsc.log" || true
contains "$tmp/csfn.err" "no-such-file: no percentage (0 to 10000: digits, optionally '.' and digits) and no file of that name can be opened: No such file or directory"

# 3s. Both sides the same size (issue 45): a 2-CPU run (passes 1 and 2, run.all_cpus=2) beside a
#     1-CPU run (one pass of 1) share no row of their all-CPUs passes keyed by copies; the
#     report pairs them as "all CPUs" with the counts and a per-copy figure beside the totals,
#     and WARNs naming the difference (tests/fixtures/logs/make-fixtures.py, sized()).
run EXIT_OK "$tmp/sized" "$fix/cpus-2.log" "$fix/cpus-1.log" || true
has "$tmp/sized" '^warning: CPU counts differ: the all-CPUs pass ran 2 copies in KVM, 2 CPUs \(2 online CPUs\) and 1 in KVM, 1 CPU \(1\)' \
	"2-CPU beside 1-CPU: a WARN names both all-CPUs counts"
has "$tmp/sized" '^Pipe Throughput +lps +\| +2 +980000\.0 +490000\.0 \| +1 +510000\.0 +510000\.0 +1\.04$' \
	"all CPUs paired: pipe 2 copies 980000 (490000 per copy) beside 1 copy 510000, per-copy ratio 1.04"
has "$tmp/sized" '^clock_gettime MONOTONIC +ns +\| +2 +32\.0 +32\.0 \| +1 +25\.0 +25\.0 +1\.28$' \
	"all CPUs paired: a time (lower is better) is per copy already: 32 beside 25, ratio 1.28"
run EXIT_OK "$tmp/sized.json" --format json "$fix/cpus-2.log" "$fix/cpus-1.log" || true
if python3 - "$tmp/sized.json" <<'PY'; then pass "JSON comparison.all_cpus: pipe 2 x 490000 beside 1 x 510000, ratio 1.04"; else fail "JSON comparison.all_cpus"; fi
import json, sys
a = json.load(open(sys.argv[1]))["comparison"]["all_cpus"]
p = [r for r in a if r["test"] == "pipe"][0]["cells"]
assert [c["copies"] for c in p] == [2, 1] and p[0]["per_copy"] == 490000.0, p
assert p[1]["total"] == 510000.0 and round(p[1]["ratio"], 2) == 1.04, p
PY
# Side names are never cut in any table (issue 51 item 5): the all-CPUs table cut them to 12
# ("KVM, 2 CPUs #2" printed as "KVM, 2 CPUs" beside run 1's), and the main and clock tables'
# headers to 63 bytes; a label of any length prints whole, and two labels alike in their
# first 12 characters stay two.
run EXIT_OK "$tmp/sized3" "$fix/cpus-2.log" "$fix/cpus-2.log" "$fix/cpus-1.log" || true
has "$tmp/sized3" '^TEST +UNIT +\| KVM, 2 CPUs +copies +total +per copy \| KVM, 2 CPUs #2 copies .*\| KVM, 1 CPU +copies' \
	"the all-CPUs table names 'KVM, 2 CPUs #2' whole beside 'KVM, 2 CPUs'"
long=$(printf 'side%.0s' $(seq 1 40))	# 160 characters
run EXIT_OK "$tmp/sized-long" --label "machine one long name A,$long" "$fix/cpus-1.log" "$fix/cpus-2.log" || true
has "$tmp/sized-long" '^TEST +UNIT +\| machine one long name A +copies .*\| '"$long"' copies' \
	"the all-CPUs table: labels of 23 and 160 characters print whole"
has "$tmp/sized-long" '^TEST +COPIES UNIT +machine one long name A +'"$long"'   ratio$' \
	"the comparison's header: a 160-character label whole (no 63-byte cut)"
# ... nor in the CSV's label column (it copied a side's label into 200 bytes, so two labels
# alike in their first 199 bytes became one side).
run EXIT_OK "$tmp/sized-long.csv" --format csv --label "${long}${long}A,${long}${long}B" "$fix/cpus-1.log" "$fix/cpus-2.log" || true
if [ "$(cut -d, -f2 "$tmp/sized-long.csv" | grep -c -x -e "${long}${long}A" -e "${long}${long}B" | tr -d ' ')" -gt 0 ] &&
	[ "$(cut -d, -f2 "$tmp/sized-long.csv" | grep -x -e "${long}${long}A" -e "${long}${long}B" | sort -u | wc -l)" -eq 2 ]; then
	pass "CSV: two 321-character labels stay whole and two"
else fail "CSV: the label column holds $(cut -d, -f2 "$tmp/sized-long.csv" | sort -u | awk '{print length($0)}' | tr '\n' ' ')characters"; fi
run EXIT_OK "$tmp/sized-same" "$fix/cpus-2.log" "$fix/cpus-2.log" || true
hasnt "$tmp/sized-same" 'CPU counts differ|^all CPUs:' "the same size on both sides: no all-CPUs pairing, no WARN"

# 3h. A host-cached scratch disk (issue 45): qemu/run's '# qemu/run: scratchN ... cache=' line
#     before a boot says how QEMU attached the disk; cache=writeback (the old default, or
#     --scratch-cache writeback) draws a warning in the run's report and in a comparison;
#     cache=none none; the line of an earlier boot in the same log does not count.
{ printf '# qemu/run: QEMU emulator version 7.2.22\n# qemu/run: scratch0 s.img if=virtio fs=ext2/ext3 cache=writeback (the host'"'"'s page cache between guest and disk)\n'
  cat "$fix/cpus-1.log"; } >"$tmp/wb.log"
{ printf '# qemu/run: QEMU emulator version 7.2.22\n# qemu/run: scratch0 s.img if=virtio fs=ext2/ext3 cache=none aio=native (O_DIRECT on the host: no host page cache)\n'
  cat "$fix/cpus-1.log"; } >"$tmp/none.log"
{ cat "$tmp/wb.log"; printf '# qemu/run: QEMU emulator version 7.2.22\n'; sed 's/01c1 /01c2 /' "$fix/cpus-1.log" | PYTHONPATH=$top/tests python3 -c '
import sys
from seal import reseal
for l in sys.stdin:
    if l.startswith("@isobench/"):
        l = reseal(l)
    sys.stdout.write(l)'; } >"$tmp/wb-then-none.log"
run EXIT_OK "$tmp/wb1" "$tmp/wb.log" || true
has "$tmp/wb1" '^warning: +scratch0 cache=writeback: qemu/run attached the disk with the host.s page cache' \
	"a run whose scratch disk the host cached: its report warns, naming the disk and mode"
run EXIT_OK "$tmp/none1" "$tmp/none.log" || true
hasnt "$tmp/none1" 'page cache' "cache=none: no warning"
run EXIT_OK "$tmp/wbcmp" "$tmp/none.log" "$tmp/wb.log" || true
has "$tmp/wbcmp" '^warning: KVM, 1 CPU #2: scratch0 cache=writeback: qemu/run attached its disk with the host.s page cache' \
	"comparison: the host-cached run is named in a warning"
run EXIT_OK "$tmp/wbnext" "$tmp/wb-then-none.log" || true
hasnt "$tmp/wbnext" 'page cache' "the next boot's run (no scratch line of its own): no warning"

# A scratch file on tmpfs is the host's memory whatever QEMU's cache mode: a host kernel whose
# tmpfs accepts O_DIRECT (6.6 on) lets qemu/run keep cache=none, and its line says so; the
# disk figures are still the host's memory, warned as the page cache is.
{ printf '# qemu/run: QEMU emulator version 7.2.22\n# qemu/run: scratch0 /dev/shm/s.img if=virtio fs=tmpfs cache=none aio=native (O_DIRECT on the host: no host page cache)\n'
  cat "$fix/cpus-1.log"; } >"$tmp/tmpfs.log"
run EXIT_OK "$tmp/tmpfs1" "$tmp/tmpfs.log" || true
has "$tmp/tmpfs1" '^warning: +scratch0 fs=tmpfs \(.*\): qemu/run attached the disk with the host.s page cache' \
	"a scratch disk on tmpfs with cache=none: still warned, naming tmpfs"
run EXIT_OK "$tmp/tmpfscmp" "$tmp/none.log" "$tmp/tmpfs.log" || true
has "$tmp/tmpfscmp" '^warning: KVM, 1 CPU #2: scratch0 fs=tmpfs ' "... and in a comparison"

# 3a. Direction comes from the records (better=), never from the unit: the paced socket
#     write's CPU share (unit %cpu, lower is better), 18.4 then 19.7 (whole-run values), is 18.4 / 19.7 = 0.93 —
#     worse — in every format, and says "lower is better".
pa=$fix/paced-a.log pb=$fix/paced-b.log
run EXIT_OK "$tmp/paced" "$pa" "$pb" || true
if grep -Eq '^Socket write 64 B paced 50k/s +1 %cpu +18\.4! +19\.7! +0\.93 \*  lower is better$' "$tmp/paced"
then pass "paced comparison row: $(grep -m1 '^Socket' "$tmp/paced")"; else fail "paced comparison row: $(grep -m1 '^Socket' "$tmp/paced")"; fi
run EXIT_OK "$tmp/paced.json" --format json "$pa" "$pb" || true
if python3 - "$tmp/paced.json" <<'PY'; then pass "paced JSON: ratio 0.93, lower is better"; else fail "paced JSON: ratio 0.93, lower is better"; fi
import json, sys
d = json.load(open(sys.argv[1]))
t = d["runs"][0]["tests"][0]
assert t["better"] == "lower" and t["direction"] == "lower is better", t
assert "bigger_is_better" not in t
r = d["comparison"]["rows"][0]
assert r["better"] == "lower" and r["direction"] == "lower is better", r
assert round(r["cells"][1]["ratio"], 2) == 0.93, r["cells"][1]["ratio"]
# the CI comes from the samples' own value= (the CPU share), not from loops/ns
assert t["median_ci95_from"] == "samples" and t["median_ci95_lo"] == 18.2, t
PY
run EXIT_OK "$tmp/paced.csv" --format csv "$pa" "$pb" || true
if python3 - "$tmp/paced.csv" <<'PY'; then pass "paced CSV: ratio 0.93, lower is better"; else fail "paced CSV: ratio 0.93, lower is better"; fi
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
get = lambda k, run: [r for r in rows if r[3] == "derived" and r[9] == k and r[2] == run]
assert get("direction", "00000000000000a1")[0][10] == "lower is better"
assert get("better", "00000000000000b2")[0][10] == "lower"
assert round(float(get("ratio_to_run1", "00000000000000b2")[0][10]), 2) == 0.93
PY
run EXIT_OK "$tmp/paced.jb" --format json-bench-smaller "$pa" || true
if python3 - "$tmp/paced.jb" <<'PY'; then pass "paced json-bench-smaller"; else fail "paced json-bench-smaller"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 1 and d[0]["unit"] == "%cpu" and "lower is better" in d[0]["extra"], d
PY
run EXIT_OK "$tmp/paced.jbb" --format json-bench "$pa" || true
#     (paced-a.log holds that one test only: the bigger-is-better list is empty, not absent)
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d == [], d' "$tmp/paced.jbb"
then pass "json-bench lists no lower-is-better test: []"; else fail "a lower-is-better test listed as bigger-is-better"; fi
run EXIT_OK "$tmp/paced.svgout" --svg "$tmp/paced.svg" "$pa" "$pb" || true
contains "$tmp/paced.svg" "(1 copy; lower is better)"
if grep -q '>0.93 \*' "$tmp/paced.svg"; then pass "SVG bar label 0.93 *"; else fail "SVG bar label 0.93 *"; fi
#     A log written before better= existed: read, tabled, but compared without a ratio.
run EXIT_OK "$tmp/old" "$fix/before-better.log" || true
contains "$tmp/old" "System Benchmarks Index Score (Partial Only: 2 of 12 index tests)    1233.6"
run EXIT_OK "$tmp/oldcmp" "$fix/native.log" "$fix/before-better.log" || true
contains "$tmp/oldcmp" "3 row(s) without a ratio: their logs do not say which way is better"
if grep -Eq '^Pipe Throughput +1 lps +1765067\.0 +1904387\.4 +--- +direction unknown' "$tmp/oldcmp"
then pass "old log: no ratio and the direction named unknown"; else fail "old log: no ratio and the direction named unknown"; fi

# 3b. A native run (host) beside the image (init): one note, not identity/mode/cmdline warnings.
run EXIT_OK "$tmp/nat-img" "$fix/native.log" "$fix/image-init.log" || true
contains "$tmp/nat-img" "note: native run beside image runs: identity, mode and kernel command line differ by design"
lacks "$tmp/nat-img" "image.identity differs"
lacks "$tmp/nat-img" "run.mode differs"
lacks "$tmp/nat-img" "kernel.cmdline"
lacks "$tmp/nat-img" "warning:"
contains "$tmp/nat-img" "0 comparability warning(s)"
#     Two image runs keep real warnings: command line, and fs.workdir (tmpfs vs ext4).
run EXIT_OK "$tmp/img-img" "$fix/image-init.log" "$fix/image-tmpfs.log" || true
contains "$tmp/img-img" "warning: not comparable: kernel.cmdline (apart from volatile words) differs"
contains "$tmp/img-img" "file tests ran on ext4 in one run and tmpfs in another: fstime/fsbuffer/fsdisk are not comparable"
lacks "$tmp/img-img" "note: native run"
#     Two architectures (an x86-64 native run, the arm64 image under TCG): compared, with a
#     note that it is a machine comparison (issue 48: "which instance type is faster" is fair
#     across x86-64 and arm64), not refused and not a "not comparable" warning; --cross-arch,
#     which once allowed it, is accepted and changes nothing; the arm64 run's counter is named.
run EXIT_OK "$tmp/xarch" "$fix/native.log" "$fix/arm64-tcg.log" || true
contains "$tmp/xarch" "note: a machine comparison: KVM, 2 CPUs is x86_64 and QEMU/TCG, 2 CPUs is aarch64, so each ratio compares the two machines whole"
lacks "$tmp/xarch" "kernel.machine differs"
if grep -q "^run 2: QEMU/TCG" "$tmp/xarch"; then pass "two architectures: the comparison is printed"
else fail "two architectures: no comparison printed"; fi
run EXIT_OK "$tmp/xarch2" --cross-arch "$fix/native.log" "$fix/arm64-tcg.log" || true
if cmp -s "$tmp/xarch" "$tmp/xarch2"; then pass "--cross-arch is accepted and changes nothing"
else fail "--cross-arch changed the comparison: $(diff "$tmp/xarch" "$tmp/xarch2" | head -n 4)"; fi
contains "$tmp/xarch2" "(TCG)"
run EXIT_OK "$tmp/a64" "$fix/arm64-tcg.log" || true
if grep -Eq '^WFE wake-up round trip, two CPUs +[0-9.]+ ns .* [0-9.]+ CNTVCT ticks' "$tmp/a64"
then pass "an aarch64 run's cycles are CNTVCT ticks"; else fail "an aarch64 run's cycles are not named CNTVCT ticks"; fi
#     fs.tmp is the fallback of older logs (native.log has no fs.workdir).
run EXIT_OK "$tmp/nat-tmpfs" "$fix/native.log" "$fix/image-tmpfs.log" || true
contains "$tmp/nat-tmpfs" "file tests ran on ext4 in one run and tmpfs in another"
#     Label and file apart in the comparison header.
contains "$tmp/nat-img" "run 1: KVM, 2 CPUs  (file: $fix/native.log)"
#     Convergence: marked per cell in comparisons, explained in the legend.
if grep -Eq '^Pipe Throughput +1 lps +1765067\.0 +1765067\.0!  1\.00 ~$' "$tmp/nat-img"
then pass "unconverged cell marked with !"; else fail "unconverged cell not marked with !"; fi
if grep -Eq '^System Call Overhead +1 lps +1404805\.7 +1404805\.7   1\.00 ~$' "$tmp/nat-img"
then pass "converged cell has no !"; else fail "converged cell marked with ! (or missing)"; fi
contains "$tmp/nat-img" "! after a value: that run's sampling did not converge"
contains "$tmp/nat-img" "Index Score rows carry no noise mark"
#     Convergence in the single-run detail block.
run EXIT_OK "$tmp/img" "$fix/image-init.log" || true
contains "$tmp/img" "Pipe Throughput                                 1786892.3 lps          6  +/-28.15%  not converged (ci95 +/-28.1% > target 20%)"
lacks "$tmp/img" "note: QEMU/TCG" "a KVM run gets no emulation note"
#    The same unconverged run as if under TCG (its hv.cpuid record edited and resealed by
#    tests/seal.py's frame): the note instead of the per-test line, the figures unchanged.
python3 - "$fix/image-init.log" "$tmp/tcg-unconv.log" "$top/tests" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[3])
from seal import frame
with open(sys.argv[1], errors="replace") as f, open(sys.argv[2], "w") as o:
    for line in f:
        m = re.match(r"@isobench/1 (\d+) (INFO hv\.cpuid=)KVMKVMKVM(.*) \*[0-9a-f]{8}$", line.rstrip("\n"))
        o.write(frame(int(m.group(1)), m.group(2) + "TCGTCGTCGTCG" + m.group(3)) if m else line)
PY
run EXIT_OK "$tmp/tcgu" "$tmp/tcg-unconv.log" || true
count_is "$tmp/tcgu" "^note: QEMU/TCG: software emulation" 1 "an unconverged TCG run: one emulation note"
lacks "$tmp/tcgu" "not converged" "an unconverged TCG run: no 'not converged' line per test"
has "$tmp/tcgu" '^Pipe Throughput +1786892\.3 lps +6 +\+/-28\.15%$' "... and pipe's median and ci95 as before"
if grep -Eq '^System Call Overhead +1423450\.9 lps +6 +\+/-13\.90%$' "$tmp/img"
then pass "converged test in the detail block"; else fail "converged test in the detail block"; fi
lacks "$tmp/one" "not converged"
contains "$tmp/one" "(this log does not say whether sampling met the CI target"
#     The classic table is unchanged: header, rows, score.
if grep -Eq '^Pipe Throughput +12440\.0 +1904387\.4 +1530\.9$' "$tmp/one"; then pass "classic UnixBench row unchanged"; else
	fail "classic UnixBench row changed"; fi
# 3c. QEMU/TCG beside anything: column header, note in JSON/CSV, SVG legend.
run EXIT_FAILS "$tmp/tcg" "$fix/native.log" "$fix/qemu-tcg.log" || true
contains "$tmp/tcg" "run 2: QEMU/TCG, 2 CPUs (TCG: emulation, not a hypervisor cost)  (file: "
contains "$tmp/tcg" "QEMU/TCG, 2 CPUs (TCG)   ratio"
lacks "$tmp/nat-img" "(TCG"
run EXIT_FAILS "$tmp/tcg.json" --format json "$fix/native.log" "$fix/qemu-tcg.log" || true
if python3 - "$tmp/tcg.json" <<'PY'; then pass "JSON TCG note"; else fail "JSON TCG note"; fi
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
assert c["tcg"] == [False, True], c["tcg"]
assert any("TCG" in n and "not a hypervisor cost" in n for n in c["notes"]), c["notes"]
PY
run EXIT_FAILS "$tmp/tcg.csv" --format csv "$fix/native.log" "$fix/qemu-tcg.log" || true
if python3 - "$tmp/tcg.csv" <<'PY'; then pass "CSV TCG note row"; else fail "CSV TCG note row"; fi
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert all(len(r) == 12 for r in rows)
assert any(r[3] == "note" and r[9] == "tcg" and r[1].startswith("QEMU/TCG") for r in rows)
assert not any(r[3] == "note" and r[9] == "tcg" and r[1].startswith("KVM") for r in rows)
PY
run EXIT_FAILS "$tmp/tcg.svgout" --svg "$tmp/tcg.svg" "$fix/native.log" "$fix/qemu-tcg.log" || true
contains "$tmp/tcg.svg" "run 2: QEMU/TCG, 2 CPUs — TCG: emulation, not a hypervisor cost"
contains "$tmp/tcg.svg" "Index Score rows: no noise mark"
# 3d. Cosmetics: ERROR shows the value and the kept default; header values trimmed; a run
#     without results prints no empty banner.
contains "$tmp/qemu" "ERROR isobench.frob=1: unknown parameter; default kept (line 2)"
# Layers named from what the log shows (issue 51): a User Mode Linux boot (tests/fixtures/logs/
# uml.log: linux.uml with the image's initramfs; CPUID there is the host's KVM) is "UML", not
# "KVM", and its halt after END is how UML powers off (--boot: status 0 above, expected.tsv); a
# gVisor run (gvisor.log: out/isobench under runsc do, its fixed 4.4.0 uname and /proc/cmdline)
# is "gVisor". A halt where the layer has a power-off is still no power-off.
run EXIT_OK "$tmp/uml" "$fix/uml.log" || true
contains "$tmp/uml" "machine:     UML, 1 CPU |" "a UML log is named UML (its CPUID says KVM)"
# The same boot gave isobench.tests twice on its command line (issue 51 item 4): PID 1's WARN
# names both values and the one kept, and the report shows it.
contains "$tmp/uml" "WARN  param: isobench.tests given 2 times on the kernel command line: getpid,clock-monotonic first, getpid last; the last is kept" \
	"a key given twice on the kernel command line is a WARN naming both values"
run EXIT_FAILS "$tmp/gvisor" "$fix/gvisor.log" || true
contains "$tmp/gvisor" "machine:     gVisor, 2 CPUs |" "a gVisor log is named gVisor"
sed 's/reboot: Power down/reboot: System halted/' "$fix/tcg-clock-tsc.log" >"$tmp/tcg-halted.log"
run EXIT_CRASHED "$tmp/tcg-halted" --boot "$tmp/tcg-halted.log" || true
contains "$tmp/tcg-halted" "only where there is no power-off (UML)" \
	"a TCG guest that halted instead of powering off is still a crash for --boot"
# A reason that says what was kept instead is not contradicted by "default kept" (issue 51:
# user data's unknown test kept the command line's list, and the line said both).
PYTHONPATH=$top/tests python3 - "$fix/qemu-tcg.log" "$tmp/kept.log" <<'PY'
import re, sys
from seal import seal
out = []
for line in open(sys.argv[1], newline=""):
    m = re.match(r"(@isobench/1 2 ERROR what=param) param=isobench.frob value=1 reason=\S+ \*[0-9a-f]{8}(\r?\n)$", line)
    if m:
        body = m.group(1) + " param=isobench.tests value=bogus reason=unknown%20test%20or%20group:%20bogus%20(the%20command%20line's%20list%20kept)"
        line = seal(body) + m.group(2)
    out.append(line)
open(sys.argv[2], "w", newline="").write("".join(out))
PY
run EXIT_FAILS "$tmp/kept" "$tmp/kept.log" || true
contains "$tmp/kept" "ERROR isobench.tests=bogus: unknown test or group: bogus (the command line's list kept) (line 2)" \
	"an ERROR whose reason says what was kept is printed as it says"
lacks "$tmp/kept" "default kept" "... and never also 'default kept'"
if grep -qx 'clocksource: hpet (available: hpet acpi_pm)' "$tmp/qemu"; then pass "clocksource header line trimmed"; else
	fail "clocksource header line not trimmed"; fi
run EXIT_OK "$tmp/skip" "$fix/all-skipped.log" || true
lacks "$tmp/skip" "parallel cop"
lacks "$tmp/skip" "System Benchmarks Index"
contains "$tmp/skip" "no test produced a result in this run"
contains "$tmp/skip" "SKIP  fsdisk (1 copy): no writable disk (line 4)"

# 4. Usage.
run EXIT_OK "$tmp/help" --help || true
contains "$tmp/help" "4 comparing replicates (>= 3 runs a side): some test is \"different\""
run EXIT_USAGE "$tmp/noarg" || true
run EXIT_USAGE "$tmp/badfmt" --format yaml "$fix/native.log" || true

# 5. JSON: valid, and the expected shape.
run EXIT_OK "$tmp/j" --format json "$fix/native.log" "$fix/native-loaded.log" || true
if python3 -m json.tool "$tmp/j" >/dev/null; then pass "JSON parses"; else fail "JSON does not parse"; fi
if python3 - "$tmp/j" <<'PY'; then pass "JSON shape"; else fail "JSON shape"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "isobench-report/2" and len(d["runs"]) == 2
r = d["runs"][0]
assert r["records"][0]["kind"] == "BEGIN" and r["tests"][0]["unit"] == "lps"
assert all(t["median_ci95_from"] == "samples" for t in r["tests"])
assert d["comparison"]["flagged"] >= 1 and len(d["comparison"]["rows"]) == 3
PY
run EXIT_OK "$tmp/jb" --format json-bench "$fix/native.log" || true
if python3 - "$tmp/jb" <<'PY'; then pass "json-bench shape"; else fail "json-bench shape"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) == 4
assert all(set(("name", "unit", "value")) <= set(e) for e in d)
PY
# Numbers keep every digit: no %g-style exponent, the record's value read back exactly.
lacks "$tmp/jb" "e+0"
contains "$tmp/jb" "median=1786892.33 "
run EXIT_OK "$tmp/jf" --format json "$fix/native.log" || true
if python3 - "$tmp/jf" <<'PY'; then pass "JSON numbers keep every digit"; else fail "JSON numbers lost precision"; fi
import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["tests"]
assert [x["value"] for x in t] == [1904387.362, 1491095.644, 6711331.058], [x["value"] for x in t]
PY

# 6. CSV: RFC 4180, every row 12 columns, records and derived figures present.
run EXIT_FAILS "$tmp/c" --format csv "$fix/qemu-tcg.log" || true
if python3 - "$tmp/c" <<'PY'; then pass "CSV columns"; else fail "CSV columns"; fi
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][0] == "source" and all(len(r) == 12 for r in rows), set(map(len, rows))
assert any(r[3] == "record" and r[9] == "cpu.model" for r in rows)
assert any(r[3] == "derived" and r[9] == "median_ci95_lo" for r in rows)
PY

# 6b. A standard TCG run (tcg-standard.log: `./build.sh run` at 493cf87, kept whole): its text
# tables are the stored ones byte for byte (tcg-standard.txt; a change to them is deliberate:
# write the file again and say why), and in its CSV a record's copies column is its copies=
# when that is one count, empty for a DIGEST's list (copies=1,2: no one count).
std=$(cd "$fix" && "$bin" tcg-standard.log 2>/dev/null) || true
if [[ $std == "$(cat "$fix/tcg-standard.txt")" ]]; then
	pass "a standard TCG run's tables are the stored ones"
else
	fail "a standard TCG run's tables differ from tests/fixtures/logs/tcg-standard.txt: $(diff <(echo "$std") "$fix/tcg-standard.txt" | head -n 4)"
fi
run EXIT_OK "$tmp/std.csv" --format csv "$fix/tcg-standard.log" || true
if python3 - "$tmp/std.csv" <<'PY'; then pass "CSV copies column: one count, or empty for a list"; else fail "CSV copies column: one count, or empty for a list"; fi
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], newline="")) if r[3] == "record"]
own = {(r[4], r[5]): r[10] for r in rows if r[9] == "copies"}
lists = 0
for r in rows:
    c = own.get((r[4], r[5]))
    want = c if c and c.isdigit() else ""
    lists += c is not None and "," in c
    assert r[8] == want, (r[4:11], want)
assert lists >= 12, lists	# the DIGEST rows of 12 index tests, copies=1,2
PY

# 7. SVG: well-formed; rendered by a real browser into a non-blank picture.
run EXIT_OK "$tmp/s" --svg "$tmp/chart.svg" "$fix/native.log" "$fix/native-loaded.log" || true
if command -v xmllint >/dev/null; then
	if xmllint --noout "$tmp/chart.svg"; then pass "SVG is well-formed"; else fail "SVG not well-formed"; fi
else
	if python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/chart.svg"
	then pass "SVG is well-formed"; else fail "SVG not well-formed"; fi
fi
# --follow: live progress from verified records only (qemu/run shows it while QEMU runs).
run EXIT_OK "$tmp/follow" --follow "$fix/native.log" || true
if grep -Eq '^\[1/[0-9]+\] .*copies=1$' "$tmp/follow" && grep -q '^END results=3 ' "$tmp/follow"
then pass "--follow progress on native.log"; else fail "--follow progress on native.log"; fi
run EXIT_INCOMPLETE "$tmp/follow" --follow "$fix/flipped.log" || true
contains "$tmp/follow" "line 14: damaged record (checksum mismatch)"
contains "$tmp/follow.err" "the newest run is not complete (records lost or damaged)"
#   A record the kernel's console cut in two is joined live too (log_join(), as --check does);
#   one that also lost a byte is damaged, named by its first line.
run EXIT_OK "$tmp/follow" --follow "$fix/kernel-midline.log" || true
lacks "$tmp/follow" "damaged" "--follow joins a record the kernel's lines cut in two"
contains "$tmp/follow" "END results=3 fails=0" "--follow: ... and the run ends complete"
run EXIT_INCOMPLETE "$tmp/follow" --follow "$fix/kernel-midrecord-lost.log" || true
contains "$tmp/follow" "line 12: damaged record (malformed)"
#   A kernel line holding a whole record after its own text, while a cut start waits for its
#   tail: the start is damaged, the record read (it was passed over with the kernel's line).
run EXIT_INCOMPLETE "$tmp/follow" --follow "$fix/kernel-line-record.log" || true
contains "$tmp/follow" "line 16: damaged record (malformed)"
contains "$tmp/follow" "pipe: 1904387.362 lps" "--follow reads a record on a kernel line after a cut start"

# --follow's endings (each bounded by timeout: a follower that never ends fails, not hangs).
#   The newest run: an old complete run is in the file; the writer appends a new one. With
#   --pid the old END must not end it.
follow() { # follow WANT OUT ARGS...: --follow with a 20 s guard (WANT a name, as run takes)
	local want=$1 out=$2
	shift 2
	run "$want" "$out" timeout 20 "$bin_saved" --follow "$@"
}
bin_saved=$bin
bin=$(command -v env)
cp "$fix/native.log" "$tmp/grow.log"
(sleep 1; cat "$fix/paced-a.log" >>"$tmp/grow.log"; sleep 1) & wpid=$!
follow EXIT_OK "$tmp/f1" "$tmp/grow.log" --pid "$wpid" || true
wait "$wpid" || true
contains "$tmp/f1" "BEGIN run=00000000000000a1"
contains "$tmp/f1" "END results=1 fails=0"
#   Truncated and rewritten: noticed, followed from the start, not spliced into one run.
cp "$fix/native.log" "$tmp/trunc.log"
(sleep 1; cat "$fix/paced-b.log" >"$tmp/trunc.log"; sleep 1) & wpid=$!
follow EXIT_OK "$tmp/f2" "$tmp/trunc.log" --pid "$wpid" || true
wait "$wpid" || true
contains "$tmp/f2" "trunc.log shrank (truncated or rewritten): following it again from its start"
contains "$tmp/f2" "BEGIN run=00000000000000b2"
#   A directory: refused at once.
follow EXIT_INCOMPLETE "$tmp/f3" "$tmp" || true
contains "$tmp/f3.err" "not a log file (a directory)"
#   The writer dies before END: 3, not 0.
(sleep 1) & wpid=$!
follow EXIT_INCOMPLETE "$tmp/f4" "$fix/cut-last-line.log" --pid "$wpid" || true
contains "$tmp/f4.err" "the newest run is not complete (the writer exited before END)"
#   No END and no --pid: an idle limit, not forever.
follow EXIT_INCOMPLETE "$tmp/f5" "$fix/cut-last-line.log" --idle 1 || true
contains "$tmp/f5.err" "nothing new for 1 s (--idle): giving up"
bin=$bin_saved

# Output that cannot be written is a usage error (2), whatever the comparison found.
full_status() { local rc=0; "$bin" "$@" >/dev/full 2>"$tmp/full.err" || rc=$?; echo "$rc"; }
for args in "--format csv $fix/native.log $fix/native-loaded.log" \
	"--format json $fix/native.log" "--check $fix/native.log" "$fix/native.log"; do
	# shellcheck disable=SC2086  # the words are meant to split
	st=$(full_status $args)
	if grep -q "output failed" "$tmp/full.err"; then status_is EXIT_USAGE "$st" "$args >/dev/full"
	else fail "isobench-report $args >/dev/full: status $st, no 'output failed' on stderr"; fi
done
run EXIT_USAGE "$tmp/svgfull" --svg /dev/full "$fix/native.log" "$fix/native-loaded.log" || true
contains "$tmp/svgfull.err" "/dev/full: cannot write the chart"

# A complete run followed by a cut-off boot: still run 1, but the verdict names the latest.
run EXIT_OK "$tmp/cut2" --check "$fix/complete-then-cut.log" || true
contains "$tmp/cut2" "run 1 of 2 complete: 3 results"
contains "$tmp/cut2" "but the latest boot (run 2, from line 56) is incomplete: no END record"

# report/variability.sh: the same log twice has CV 0 for every test; a broken log stops it.
vrc=0
ISOBENCH_REPORT=$bin "$top/report/variability.sh" "$fix/native.log" "$fix/native.log" \
	>"$tmp/var" 2>&1 || vrc=$?
if [[ $vrc -eq 0 && $(grep -c ' x1 ' "$tmp/var") -ge 3 ]] && ! awk 'NR > 1 && $4 != "0.00" { bad = 1 } END { exit bad }' "$tmp/var"
then pass "variability.sh on one log twice: $(head -3 "$tmp/var" | tr '\n' '|')"; else fail "variability.sh on one log twice (status $vrc): $(head -3 "$tmp/var" | tr '\n' '|')"; fi
vrc=0
ISOBENCH_REPORT=$bin "$top/report/variability.sh" "$fix/native.log" "$fix/cut-last-line.log" \
	>/dev/null 2>&1 || vrc=$?
status_is EXIT_INCOMPLETE "$vrc" "variability.sh with an incomplete log"

if have_chromium; then
	height=$(grep -o 'height="[0-9]*"' "$tmp/chart.svg" | head -n 1 | tr -dc '0-9') || true
	chrome --window-size="980,${height:-600}" --screenshot="$tmp/chart.png" "file://$tmp/chart.svg" >/dev/null || true
	# A blank page has 1 colour; the chart has bars, text and grid (dozens), mostly white.
	rendered "$tmp/chart.png" "the chart"
else
	fail "no chromium: the SVG was not rendered (apt-get install chromium; build.sh test does)"
fi

# The clock's own cost (issue 45, item 5): a test that timed each operation (its RESULT has
# latency percentiles) says what one read of its clock cost (clock_ns_x100); the report warns
# where that is above MODEL_CLOCK_SHARE_WARN_PCT (5%) of the median operation, naming the
# clocksource. Crafted runs: one read 2,700 ns on hpet (TCG without a vDSO path) against a
# 20 us round trip (13.5%); 23 ns on tsc (0.1%); and a log written before the field (none).
# clocklog FILE CLOCKSOURCE CLOCK_NS_X100|-
clocklog() {
	python3 - "$@" <<'PYEOF'
import sys, zlib
sys.path.insert(0, sys.argv[4])
from seal import sealed
path, cs, clk = sys.argv[1], sys.argv[2], sys.argv[3]
recs = ["BEGIN run=%016x version=t mode=init" % (zlib.crc32(path.encode()) << 16),
        "INFO run.suite=quick hv.cpuid=TCGTCGTCGTCG clocksource.current=%s" % cs,
        "TEST test=net-tcp-rr k=1 n=1 copies=1 unit=ns better=lower group=net "
        "title=TCP%%20RR clocksource=%s" % cs]
for i, v in enumerate((20000.0, 20000.0, 20000.0)):
    recs.append("SAMPLE test=net-tcp-rr copies=1 i=%d loops=1 ns=1 steal_ticks=0 batch=1 "
                "ran_loops=1 ran_ns=1 cpus=0 migrations=0 nivcsw=0 cpu_ns=1 value=%.3f "
                "p50_ns=%d p99_ns=30000 p999_ns=40000 max_ns=50000" % (i, v, v))
recs.append("RESULT test=net-tcp-rr copies=1 unit=ns better=lower value=20000.000 samples=3 "
            "median=20000.000 min=20000.000 max=20000.000 ci95_pct=0.00 converged=1 "
            "stop=target p50_ns=20000 p99_ns=30000 p999_ns=40000 max_ns=50000"
            + ("" if clk == "-" else " clock_ns_x100=" + clk))
recs.append("END records=%d results=1 fails=0 skips=0 errors=0 status=ok clocksource=%s"
            % (len(recs), cs))
open(path, "w").write(sealed(recs))
PYEOF
}
clocklog "$tmp/clk-hpet.log" hpet 270000 "$top/tests"
clocklog "$tmp/clk-tsc.log" tsc 2300 "$top/tests"
clocklog "$tmp/clk-old.log" hpet - "$top/tests"
for f in clk-hpet clk-tsc clk-old; do
	rc=0
	"$bin" "$tmp/$f.log" >"$tmp/$f.txt" 2>&1 || rc=$?
	status_is EXIT_OK "$rc" "clock cost: $f.log is a complete run"
done
has "$tmp/clk-hpet.txt" "^warning: net-tcp-rr \(1 cop\.\): one clock read costs 2700 ns \(clocksource hpet\), 13\.5% of the 20000 ns median operation it timed \(above 5%\)" \
	"clock cost: 2.7 us reads on hpet against a 20 us round trip are warned, clocksource named"
count_is "$tmp/clk-tsc.txt" "clock read" 0 "clock cost: 23 ns reads on tsc (0.1%) are not warned"
count_is "$tmp/clk-old.txt" "clock read" 0 "clock cost: a log without clock_ns_x100 is not warned"
rc=0
"$bin" --label tsc,hpet "$tmp/clk-tsc.log" "$tmp/clk-hpet.log" >"$tmp/clk-cmp.txt" 2>&1 || rc=$?
status_is EXIT_OK "$rc" "clock cost: the comparison (one run a side, no verdict) still exits 0"
has "$tmp/clk-cmp.txt" "^warning: hpet: net-tcp-rr \(1 cop\.\): one clock read costs 2700 ns \(clocksource hpet\)" \
	"clock cost: a comparison warns for the side whose clock is above the share, by its label"
count_is "$tmp/clk-cmp.txt" "^warning: tsc: .*clock read" 0 "clock cost: ... and not for the side below it"

# ... and a JSON or CSV consumer gets the clock's cost and share beside the test's figures
# (the text's WARN alone left them to the raw records), null / no row where the log has none.
"$bin" --format json "$tmp/clk-hpet.log" >"$tmp/clk-hpet.json" 2>/dev/null || true
"$bin" --format json "$tmp/clk-old.log" >"$tmp/clk-old.json" 2>/dev/null || true
if python3 - "$tmp/clk-hpet.json" "$tmp/clk-old.json" <<'PY'; then pass "clock cost: JSON's test carries clock_read_ns 2700 and clock_share_pct 13.5 (null without the field)"; else fail "clock cost: JSON's clock_read_ns / clock_share_pct"; fi
import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["tests"][0]
assert (t["clock_read_ns"], t["clock_share_pct"]) == (2700, 13.5), t
o = json.load(open(sys.argv[2]))["runs"][0]["tests"][0]
assert o["clock_read_ns"] is None and o["clock_share_pct"] is None, o
PY
"$bin" --format csv "$tmp/clk-hpet.log" >"$tmp/clk-hpet.csv" 2>/dev/null || true
"$bin" --format csv "$tmp/clk-old.log" >"$tmp/clk-old.csv" 2>/dev/null || true
has "$tmp/clk-hpet.csv" ',derived,[0-9]+,,,net-tcp-rr,1,clock_read_ns,2700,ns' "clock cost: a CSV derived row clock_read_ns"
has "$tmp/clk-hpet.csv" ',derived,[0-9]+,,,net-tcp-rr,1,clock_share_pct,13\.5,%' "clock cost: a CSV derived row clock_share_pct"
count_is "$tmp/clk-old.csv" ",clock_read_ns,|,clock_share_pct," 0 "clock cost: no such rows for a log without clock_ns_x100"

# A log that cannot be read: status 3, the reason on stderr, nothing on stdout (so that
# `isobench-report x.log > report.txt` never hides the error inside the report).
rc=0
"$bin" "$tmp/no-such.log" >"$tmp/nf.out" 2>"$tmp/nf.err" || rc=$?
status_is EXIT_INCOMPLETE "$rc" "a missing log"
if [ ! -s "$tmp/nf.out" ] && grep -q "no-such.log: cannot be read" "$tmp/nf.err"; then
	pass "a missing log: its reason on stderr, stdout empty"
else
	fail "a missing log: status $rc, stdout '$(head -c 120 "$tmp/nf.out")', stderr '$(head -c 120 "$tmp/nf.err")'"
fi

finish
