#!/usr/bin/env bash
# tests/test-memory-break.sh — the memory group and `isobench-report --mem-svg` under a user
# trying to break them (issue 21), natively, in seconds:
#   - mem-fault-tmpfs on a tmpfs too small for every copy's 4 MiB chunk SKIPs with the free
#     and needed figures, instead of the copy dying of SIGBUS at the first touch past the
#     tmpfs's size limit (a FAIL "crashed (signal 7)"); with room it still gives a RESULT;
#   - --mem-svg on logs without a 1-copy mem-latency RESULT is status 2 and leaves an
#     existing FILE byte-identical (it used to be truncated to nothing); an unwritable path
#     and a full device are status 2 naming the errno; one run gives a chart, status 0; a
#     run without 2m points (THP off) gets no legend entry for a curve that is not drawn; a 2m
#     point whose samples say thp_kib=0 is not drawn, and named under the chart, as are the
#     comparison's not-comparable warnings;
#   - the peer scripts (docs/benchmarks/memory-vs-{stream,lmbench}.sh) given bad arguments, a
#     missing git dir or a PATH without a tool fail at once, status 2, saying what is wrong;
#   - the peer scripts' ratios are paired by round (peer-lib.sh's paired_ratio), and so are
#     the tables of fidelity-unixbench.sh (--table, --verdict) and before-after.sh (stand-in
#     builds) on a drifting host's rounds: 1.053, not the medians' 1.159; paired_ratio gives 6
#     decimals and takes +5 and 5. as figures; --verdict judges unrounded (1.1504 OUTSIDE 15%);
#     the tables give each ratio's rounds as "lo-hi (N)" (paired_cells); two runs' results
#     joined (a round given twice) are refused, status 2, naming the round and test; a
#     garbled results TSV's lines are left out, named on stderr (none left: status 2);
#   - STREAM's working set asked wrong (issue 36): isobench.mem.array below 1M or not a size
#     is a usage error naming the rule; one larger than the machine SKIPs with the figures
#     (never an OOM); qemu/run's --numa and --topology refuse what QEMU would choke on;
#     isobench-report warns when two compared runs' STREAM working sets differ (and not when
#     they are the same); mbind(2) refused (EPERM, as a container's seccomp profile without
#     CAP_SYS_NICE answers; strace injects it) leaves the local tests running unbound,
#     claiming no node, instead of FAILing;
#   - in the image (TCG, one short boot): mem-fault-4k and -2m with more copies than CPUs and
#     a 10 ms sample complete (the harness widens a window shorter than one batch per copy,
#     and redoes a sample in which a copy did no loop) instead of FAILing "no valid sample".
#
# In:  OUT/isobench, OUT/isobench-report, OUT/bzImage + qemu/run (else the boot SKIPs); mount (root) for the small tmpfs, else that part
#      SKIPs.
# Out: one line per assertion, then "N passed, M failed, K skipped".
# Errors: exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
bin=$out/isobench
rep=$(report_tool)
for f in "$bin" "$rep"; do
	[ -x "$f" ] || { fail "no $f (run ./build.sh first)"; finish; exit 1; }
done
quick=(--suite quick --sample_ms 10 --samples 1)

# ---- mem-fault-tmpfs on a small tmpfs ---------------------------------------------------------
small=$tmp/small
mkdir -p "$small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$small" 2>/dev/null; then
	at_exit "umount $small"
	# 1 MiB: less than one copy's chunk; the first batches past 1 MiB used to SIGBUS.
	expect_status EXIT_OK "mem-fault-tmpfs on a 1 MiB tmpfs: a complete run" -- \
		"$bin" "${quick[@]}" --tmpdir "$small" --tests mem-fault-tmpfs --copies 1
	cp "$tmp/stdout" "$tmp/tiny.log"
	hasnt "$tmp/tiny.log" ' FAIL ' "1 MiB tmpfs: no FAIL (no SIGBUS crash)"
	has "$tmp/tiny.log" " SKIP test=mem-fault-tmpfs copies=1 reason=work%20directory's%20tmpfs%20has%201024%20KiB%20free,%20needs%204096%20KiB%20\\(1%20copy\\)" \
		"1 MiB tmpfs: SKIP with the free and needed figures"
	mount -o remount,size=6m "$small"
	# 6 MiB: room for one copy's 4 MiB chunk, not for two.
	expect_status EXIT_OK "mem-fault-tmpfs on a 6 MiB tmpfs, copies 1,2: a complete run" -- \
		"$bin" "${quick[@]}" --tmpdir "$small" --tests mem-fault-tmpfs --copies 1,2
	log=$tmp/tmpfs.log
	cp "$tmp/stdout" "$log"
	hasnt "$log" ' FAIL ' "mem-fault-tmpfs: no FAIL (no SIGBUS crash)"
	has "$log" ' RESULT test=mem-fault-tmpfs copies=1 ' "1 copy fits: a RESULT"
	has "$log" " SKIP test=mem-fault-tmpfs copies=2 reason=work%20directory's%20tmpfs%20has%20[0-9]+%20KiB%20free,%20needs%208192%20KiB%20\\(2%20copies\\)" \
		"2 copies do not fit: SKIP with the free and needed figures"
else
	skip "mem-fault-tmpfs on a small tmpfs: cannot mount a tmpfs here (not root?)"
fi

# ---- --mem-svg ---------------------------------------------------------------------------------
"$bin" "${quick[@]}" --tmpdir "$tmp" --tests pipe --copies 1 >"$tmp/nomem.log" 2>/dev/null || true
"$bin" "${quick[@]}" --tmpdir "$tmp" --tests mem-latency-16k-4k,mem-latency-512k-4k --copies 1 \
	>"$tmp/mem.log" 2>/dev/null || true
has "$tmp/mem.log" ' RESULT test=mem-latency-512k-4k ' "a log with latency RESULTs to draw"
echo '<svg>an earlier chart</svg>' >"$tmp/chart.svg"
before=$(sha256_of "$tmp/chart.svg")
expect_status EXIT_USAGE "--mem-svg, no latency RESULT in the log" -- \
	"$rep" --mem-svg "$tmp/chart.svg" "$tmp/nomem.log"
contains "$tmp/stderr" "not written: no run holds a 1-copy mem-latency RESULT" "it says why"
check "an existing chart is left byte-identical" test "$before" = "$(sha256_of "$tmp/chart.svg")"
expect_status EXIT_USAGE "--mem-svg into a missing directory" -- \
	"$rep" --mem-svg "$tmp/no/such/dir.svg" "$tmp/mem.log"
contains "$tmp/stderr" "cannot write the memory chart: No such file or directory" "it names the errno"
if [ -w /dev/full ]; then
	expect_status EXIT_USAGE "--mem-svg into a full device" -- "$rep" --mem-svg /dev/full "$tmp/mem.log"
	contains "$tmp/stderr" "cannot write the memory chart: No space left on device" "it names the errno"
fi
expect_status EXIT_OK "--mem-svg, one run" -- "$rep" --mem-svg "$tmp/chart.svg" "$tmp/mem.log"
count_is "$tmp/chart.svg" '<circle ' 2 "one run: a point per latency RESULT"
# A run whose 2m points all SKIPped (THP off in a small guest) beside one with both: no
# legend entry for the curve that is not drawn.
"$bin" "${quick[@]}" --tmpdir "$tmp" --tests mem-latency-16k-4k,mem-latency-16k-2m --copies 1 \
	>"$tmp/both.log" 2>/dev/null || true
# (status 0 or 4: the two runs' 16k-4k may differ beyond noise)
"$rep" --mem-svg "$tmp/legend.svg" --label only4k,both "$tmp/mem.log" "$tmp/both.log" \
	>/dev/null 2>&1 || true
count_is "$tmp/legend.svg" '>only4k, 2 MiB' 0 "no legend entry for the 4k-only run's missing 2m curve"
count_is "$tmp/legend.svg" '>both, 2 MiB' 1 "a legend entry for the drawn 2m curve"
# The comparison's warnings are on the chart too (the two runs ran other tests), as they are in
# the text report: a chart read alone says its curves may not be comparable.
has "$tmp/legend.svg" ">warning: not comparable: run.tests differs \\(only4k: [^<]*; both: mem-latency-16k-4k,mem-latency-16k-2m\\)<" \
	"--mem-svg: the chart carries the comparison's not-comparable warnings, both sides"

# Damaged logs, resealed (valid CRCs: what a faulty build or an edit would leave):
#   - a 2m RESULT whose samples say thp_kib=0 (base pages: the runner SKIPs that) is not drawn
#     as a 2 MiB figure, and the chart says so; it used to be drawn as one;
#   - a test named mem-latency-infk-4k is no point (it put "nan" coordinates in the chart).
# reseal IN OUT SED-LIKE-PY: OUT is IN with python re.sub(PAT, REP) applied to the matching
# records' bodies, each resealed with its CRC-32 (docs/records.md); the digest's lines among
# them too, and its part=end CRC-32 over its sealed lines made again (docs/records.md, "The
# digest"), so the log stays one whose digest restates it.
reseal() {
	PYTHONPATH=$top/tests python3 - "$@" <<'PY'
import re, sys
from seal import crc, seal
src, dst, sel, pat, rep = sys.argv[1:6]
out, digest = [], b''
for l in open(src, 'rb').read().split(b'\n'):
    if re.search(sel.encode(), l) and b' *' in l:
        l = seal(re.sub(pat.encode(), rep.encode(), l[:l.rindex(b' *')]))
    if b' DIGEST part=end ' in l:
        l = seal(re.sub(rb' crc=[0-9a-f]{8}', b' crc=' + crc(digest).encode(),
                        l[:l.rindex(b' *')]))
    elif b' DIGEST ' in l:
        digest += l + b'\n'
    out.append(l)
open(dst, 'wb').write(b'\n'.join(out))
PY
}
if grep -q ' RESULT test=mem-latency-16k-2m ' "$tmp/both.log"; then
	reseal "$tmp/both.log" "$tmp/nothp.log" ' SAMPLE test=mem-latency-16k-2m ' ' thp_kib=[0-9]+' ' thp_kib=0'
	expect_status EXIT_OK "the resealed thp_kib=0 log still validates" -- "$rep" --check "$tmp/nothp.log"
	"$rep" --mem-svg "$tmp/nothp.svg" "$tmp/nothp.log" >/dev/null 2>&1 || true
	count_is "$tmp/nothp.svg" '<circle ' 1 "2m with thp_kib=0: only the 4k point is drawn"
	contains "$tmp/nothp.svg" "Not drawn (their samples say thp_kib=0, no huge pages): run 1 mem-latency-16k-2m" \
		"2m with thp_kib=0: the chart names the point it left out"
	reseal "$tmp/both.log" "$tmp/inf.log" 'test=mem-latency-16k-4k ' 'test=mem-latency-16k-4k ' 'test=mem-latency-infk-4k '
	"$rep" --mem-svg "$tmp/inf.svg" "$tmp/inf.log" >/dev/null 2>&1 || true
	count_is "$tmp/inf.svg" '<circle ' 1 "a test named mem-latency-infk-4k: no point (the 16k-2m one is)"
	hasnt "$tmp/inf.svg" '["=, ]-?(nan|inf)[", ]' "a test named mem-latency-infk-4k: no nan coordinates"
else
	skip "damaged 2m records: this host gave no mem-latency-16k-2m RESULT to damage (THP off?)"
fi

# ---- the peer scripts' bad arguments (docs/benchmarks/memory-vs-*.sh) --------------------------
# Each fails at once, status 2, naming what is wrong, before it clones or runs anything: a bad
# ROUNDS (0 looped nothing and printed a table of zeros; abc died of "unbound variable"), a
# MAX_MB below lat_mem_rd's 1 MB (no point: isobench --tests "" failed into a deleted log,
# silently), a STREAM/lmbench git dir that does not exist (it went to GitHub instead), OMP=1
# without gcc or objdump on PATH (a bare "command not found" after the clone and the probe run).
stream=$top/docs/benchmarks/memory-vs-stream.sh lmb=$top/docs/benchmarks/memory-vs-lmbench.sh
# peer_fails WANT-TEXT DESCRIPTION -- COMMAND...: status 2 at once, WANT-TEXT on stderr.
peer_fails() {
	local want=$1 what=$2
	shift 3
	expect_status EXIT_USAGE "$what" -- timeout 20 "$@"
	contains "$tmp/stderr" "$want" "$what: says \"$want\""
}
for r in 0 abc; do
	peer_fails "ROUNDS must be a whole number >= 1, not '$r'" "memory-vs-stream.sh ROUNDS $r" -- bash "$stream" "$r"
	peer_fails "ROUNDS must be a whole number >= 1, not '$r'" "memory-vs-lmbench.sh ROUNDS $r" -- bash "$lmb" "$r"
done
peer_fails "MAX_MB must be a whole number of MB >= 1" "memory-vs-lmbench.sh MAX_MB 0.01" -- bash "$lmb" 1 0.01
peer_fails "no STREAM git directory at $tmp/none" "memory-vs-stream.sh, missing git dir" -- bash "$stream" 1 "$tmp/none"
peer_fails "no lmbench git directory at $tmp/none" "memory-vs-lmbench.sh, missing git dir" -- bash "$lmb" 1 16 "$tmp/none"
# A PATH with what the script needs but one tool.
for gone in gcc objdump; do
	mkdir -p "$tmp/path-$gone"
	for t in dirname git make musl-gcc gcc objdump; do
		[ "$t" = "$gone" ] || ln -sf "$(command -v "$t")" "$tmp/path-$gone/$t"
	done
	peer_fails "needs $gone on PATH" "memory-vs-stream.sh OMP=1 without $gone" -- \
		env PATH="$tmp/path-$gone" OMP=1 "$BASH" "$stream" 1
done

# The peer scripts' ratios are paired by round (peer-lib.sh's paired_ratio): on a host whose
# bandwidth drifts, a ratio of each side's median set figures from different rounds side by
# side (memory.md: one run's 1-copy triad 1.158 that way, 1.053 paired). Five rounds shaped as
# that run (STREAM / ours MB/s): the host sped up between the two programs of round 2, so
# ours' median (25,100) is a slow round's and STREAM's (29,100) a fast one's: 1.159, while
# the rounds' own ratios are 0.996-1.160 with median 1.053. A round with nan or 0 on either
# side is left out; a key with no usable round says so. "+5" and "5." are numbers (they left
# their rounds out: "plus/1 - - - 0"); -, nan, inf, a negative, 0 and +0 are not figures.
printf '%s\n' 'triad/1 24900 25000' 'triad/1 29000 25000' 'triad/1 29100 25100' 'triad/1 31800 30600' \
	'triad/1 31900 30300' 'triad/1 nan 25000' 'triad/1 0 25000' 'add/1 30000 -' 'plus/1 +5 2.' 'plus/1 5. +2' \
	'none/1 - 2' 'none/1 nan 2' 'none/1 inf 2' 'none/1 -5 2' 'none/1 5 -2' 'none/1 5 0' 'none/1 +0 2' 'none/1 + 2' \
	'none/1 . 2' >"$tmp/pairs.in"
(. "$top/docs/benchmarks/peer-lib.sh" && paired_ratio <"$tmp/pairs.in") >"$tmp/pairs.out" 2>&1 || true
contains "$tmp/pairs.out" "triad/1 1.052805 0.996000 1.160000 5" \
	"paired_ratio: the median, lowest and highest of the five rounds' own ratios (not the medians' 1.159)"
contains "$tmp/pairs.out" "add/1 - - - 0" "paired_ratio: a key with no round holding both figures says none"
contains "$tmp/pairs.out" "plus/1 2.500000 2.500000 2.500000 2" "paired_ratio: +5 and 5. are figures"
contains "$tmp/pairs.out" "none/1 - - - 0" "paired_ratio: -, nan, inf, -5, 0, +0, + and . are not"
count_is "$tmp/pairs.out" '' 4 "paired_ratio: one line per key, in the order first seen"
# paired_cells: the cells the tables of memory-vs-stream.sh, network-vs-peers.sh and
# before-after.sh show, the median and "lowest-highest (N)" (disk-vs-fio.sh's form: how many
# rounds the ratio came from; the tables left N out), rounded to the decimals asked.
(. "$top/docs/benchmarks/peer-lib.sh" && paired_cells 3 <"$tmp/pairs.out") >"$tmp/cells.out" 2>&1 || true
contains "$tmp/cells.out" "triad/1"$'\t'"1.053"$'\t'"0.996-1.160 (5)" "paired_cells 3: the median, then lo-hi (N)"
contains "$tmp/cells.out" "add/1"$'\t'"-"$'\t'"-" "paired_cells: a key with no paired round gives - and -"
# A saved file with CRLF ends (a TSV through an editor): the CR is no part of the last figure,
# and a blank line is no key (before, the round was silently left out: "crlf/1 - - - 0").
printf 'crlf/1 2 1\r\n\r\ncrlf/1 4 2\r\n\n' >"$tmp/pairs-crlf.in"
(. "$top/docs/benchmarks/peer-lib.sh" && paired_ratio <"$tmp/pairs-crlf.in") >"$tmp/pairs-crlf.out" 2>&1 || true
contains "$tmp/pairs-crlf.out" "crlf/1 2.000000 2.000000 2.000000 2" "paired_ratio: CRLF line ends and blank lines"
count_is "$tmp/pairs-crlf.out" '' 1 "paired_ratio: a blank line gives no line of its own"

# The same five rounds through the tables of the two other scripts whose table code runs
# without a benchmark (disk-vs-fio.sh's --summary is checked in test-disk-break.sh;
# network-vs-peers.sh's table needs its peers running, so paired_ratio above stands for it).
# fidelity-unixbench.sh --table and --verdict on a results TSV (round test copies tool value
# unit loadavg1 cpu_value; ours the first side, byte-unixbench the second):
fid=$top/docs/benchmarks/fidelity-unixbench.sh
printf '%s\n' "1 24900 25000" "2 29000 25000" "3 29100 25100" "4 31800 30600" "5 31900 30300" |
	while read -r r a b; do
		printf '%s\tdhry2reg\t1\tub\t%s\tlps\t0.5\t%s\n%s\tdhry2reg\t1\tours\t%s\tlps\t0.5\t%s\n' "$r" "$b" "$b" "$r" "$a" "$a"
	done >"$tmp/fid.tsv"
expect_status EXIT_OK "fidelity-unixbench.sh --table on a drifting host's rounds" -- bash "$fid" --table "$tmp/fid.tsv"
contains "$tmp/stdout" "| dhry2reg | 1 | lps | 25100.0 | 29100.0 | 1.05 | 1.00-1.16 (5) | 25100.0 | 29100.0 | 1.05 | 1.00-1.16 (5) |" \
	"fidelity-unixbench.sh --table: each side's median, ours / theirs paired by round (not the medians' 1.16), lo-hi (N)"
expect_status EXIT_OK "fidelity-unixbench.sh --verdict on the same rounds" -- bash "$fid" --verdict "$tmp/fid.tsv" 10
contains "$tmp/stdout" "ours/theirs 1.05 wall, 1.05 per CPU-s  within +-10%" \
	"fidelity-unixbench.sh --verdict judges the paired ratio (the medians' 1.16 would be OUTSIDE +-10%)"
# The verdict judges the ratio unrounded: ours 115.04 against 100 is 1.1504, outside +-15%,
# though it shows as 1.15 (paired_ratio's 3 decimals, 1.150, read "within").
printf '1\tsyscall\t1\tub\t100\tlps\t0.5\t100\n1\tsyscall\t1\tours\t115.04\tlps\t0.5\t115.04\n' >"$tmp/fid-edge.tsv"
expect_status EXIT_OK "fidelity-unixbench.sh --verdict, ours 1.1504 x theirs" -- bash "$fid" --verdict "$tmp/fid-edge.tsv" 15
contains "$tmp/stdout" "ours/theirs 1.15 wall, 1.15 per CPU-s  OUTSIDE +-15%" \
	"fidelity-unixbench.sh --verdict: 1.1504 is OUTSIDE +-15% (judged unrounded)"
# Two runs' files joined give each round of a test twice: the pairing kept the last line of
# each round while the medians took every line, silently; --table and --verdict refuse it.
cat "$tmp/fid.tsv" "$tmp/fid-edge.tsv" "$tmp/fid.tsv" >"$tmp/fid-twice.tsv"
for o in --table --verdict; do
	expect_status EXIT_USAGE "fidelity-unixbench.sh $o on two runs' lines joined" -- bash "$fid" "$o" "$tmp/fid-twice.tsv"
	contains "$tmp/stderr" "round 1 of dhry2reg copies=1 (byte-unixbench) appears twice: two runs' lines joined? pair each run's file alone" \
		"fidelity-unixbench.sh $o: names the round and test given twice"
	check "fidelity-unixbench.sh $o: no table or verdict from them" test ! -s "$tmp/stdout"
done
# A garbled TSV (spaces for tabs, a line cut short) gave a table row of blanks, status 0: its
# lines are left out, each named on stderr, and with none left it is status 2.
tr '\t' ' ' <"$tmp/fid-edge.tsv" >"$tmp/fid-garbled.tsv"
for o in --table --verdict; do
	expect_status EXIT_USAGE "fidelity-unixbench.sh $o on a TSV without tabs" -- bash "$fid" "$o" "$tmp/fid-garbled.tsv"
	contains "$tmp/stderr" "fidelity-unixbench: $tmp/fid-garbled.tsv line 2: not a result line" "fidelity-unixbench.sh $o: names the garbled lines"
	contains "$tmp/stderr" "fidelity-unixbench: $tmp/fid-garbled.tsv: no result line" "fidelity-unixbench.sh $o: says none is left"
	check "fidelity-unixbench.sh $o: no table of blanks" test ! -s "$tmp/stdout"
done
{ printf 'round\ttest\n'; cat "$tmp/fid-edge.tsv"; printf '1\tsyscall\t1\n'; } >"$tmp/fid-some.tsv"
expect_status EXIT_OK "fidelity-unixbench.sh --table on a TSV with two garbled lines" -- bash "$fid" --table "$tmp/fid-some.tsv"
contains "$tmp/stderr" "$tmp/fid-some.tsv line 1: not a result line" "fidelity-unixbench.sh --table: names the first garbled line"
contains "$tmp/stderr" "$tmp/fid-some.tsv line 4: not a result line" "fidelity-unixbench.sh --table: names the second"
contains "$tmp/stdout" "| syscall | 1 | lps | 100.0 | 115.0 | 1.15 | 1.15-1.15 (1) | 100.0 | 115.0 | 1.15 | 1.15-1.15 (1) | 0.5-0.5 |" \
	"fidelity-unixbench.sh --table: the good lines' row, nothing of the line cut short (its load 0.0 was in)"
count_is "$tmp/stdout" '^[|] ' 2 "fidelity-unixbench.sh --table: the header and one row (no row of blanks)"
# The lists of names the peer scripts take (peer-lib.sh one_each): an unknown name ran
# another job under it or gave an empty column, a name twice paired two runs of a round or
# was refused only after every round; now status 2 before anything runs, naming it.
# (disk-vs-fio.sh's TESTS: test-disk-break.)
printf '. "%s"\none_each "$@"\n' "$top/docs/benchmarks/peer-lib.sh" >"$tmp/one.sh"
expect_status EXIT_OK "one_each: known names, each once" -- bash "$tmp/one.sh" X "a b c" c a
expect_status EXIT_USAGE "one_each: an unknown name" -- bash "$tmp/one.sh" X "a b c" a d
contains "$tmp/stderr" "X: unknown name 'd' (known: a b c)" "one_each: names the unknown name and the known ones"
expect_status EXIT_USAGE "one_each: a name twice" -- bash "$tmp/one.sh" X "a b c" b a b
contains "$tmp/stderr" "X: b given twice" "one_each: names the name given twice"
expect_status EXIT_USAGE "one_each: no name (a list of blanks)" -- bash "$tmp/one.sh" X "a b c"
contains "$tmp/stderr" "X: no name given (known: a b c)" "one_each: says none was given"
expect_status EXIT_USAGE "fidelity-unixbench.sh with TESTS naming no index test" -- \
	bash "$fid" "$tmp" "$tmp" 1 1 1 "dhry2reg dhrystone"
contains "$tmp/stderr" "fidelity-unixbench: TESTS: unknown name 'dhrystone'" "fidelity-unixbench.sh: names it"
noise=$top/docs/benchmarks/noise-vs-unixbench.sh
expect_status EXIT_USAGE "noise-vs-unixbench.sh with a test twice" -- \
	bash "$noise" "$tmp/no-ub" 1 1 syscall,pipe,syscall a=ub
contains "$tmp/stderr" "noise-vs-unixbench: TESTS: syscall given twice" "noise-vs-unixbench.sh: names it"
# A name after a newline was not read (read -r takes one line), and one holding spaces matched
# two known names in a row ('syscall pipe'): both ran; both are refused now.
expect_status EXIT_USAGE "noise-vs-unixbench.sh with a bad name on a second line" -- \
	bash "$noise" "$tmp/no-ub" 1 1 $'pipe\nbogus' a=ub
contains "$tmp/stderr" "noise-vs-unixbench: TESTS: unknown name 'bogus'" "noise-vs-unixbench.sh: reads every line"
expect_status EXIT_USAGE "one_each: a name holding a space" -- bash "$tmp/one.sh" X "a b c" "a b"
contains "$tmp/stderr" "X: unknown name 'a b'" "one_each: a name with a space is no two names"
expect_status EXIT_USAGE "fidelity-unixbench.sh with a bad name on a second line" -- \
	bash "$fid" "$tmp" "$tmp" 1 1 1 $'pipe\nbogus'
contains "$tmp/stderr" "fidelity-unixbench: TESTS: unknown name 'bogus'" "fidelity-unixbench.sh: reads every line"
if [ -x "$top/out/isobench" ] && command -v sockperf iperf3 taskset >/dev/null; then
	expect_status EXIT_USAGE "network-vs-peers.sh with a row twice" -- \
		env ROWS="tcp-rr:sockperf udp-rr:sockperf tcp-rr:sockperf" bash "$top/docs/benchmarks/network-vs-peers.sh" 1 1
	contains "$tmp/stderr" "network-vs-peers: ROWS: tcp-rr:sockperf given twice" "network-vs-peers.sh: names it"
	check "network-vs-peers.sh with a row twice: nothing measured" test ! -s "$tmp/stdout"
else
	fail "network-vs-peers.sh's ROWS check not run: no out/isobench, sockperf, iperf3 or taskset (./build.sh test installs them)"
fi
# before-after.sh with two stand-in builds: an isobench that does nothing and an
# isobench-report whose CSV gives the round's figure for its side (the round from the log's
# name, SIDE-ROUND.log), so the table is checked without running a benchmark.
for d in before after; do
	mkdir -p "$tmp/ba-$d"
	printf '#!/bin/sh\nexit 0\n' >"$tmp/ba-$d/isobench"
	chmod +x "$tmp/ba-$d/isobench"
done
cat >"$tmp/ba-after/isobench-report" <<'EOF'
#!/bin/sh
# --format csv --label SIDE LOG: the CSV of one RESULT, dhry2reg copies 1, SIDE's figure in LOG's round
r=${5##*-}; r=${r%.log}
v=$(echo "1 25000 24900 2 25000 29000 3 25100 29100 4 30600 31800 5 30300 31900" |
	awk -v r="$r" -v s="$4" '{ for (i = 1; i < NF; i += 3) if ($i == r) print s == "before" ? $(i + 1) : $(i + 2) }')
# CRLF line ends, as the real isobench-report writes its CSV (report/csv.c)
printf 'source,label,run_id,section,line,seq,kind,test,copies,key,value,unit\r\n'
printf '%s,%s,1,main,1,1,RESULT,dhry2reg,1,value,%s,lps\r\n' "$5" "$4" "$v"
EOF
chmod +x "$tmp/ba-after/isobench-report"
expect_status EXIT_OK "before-after.sh with stand-in builds, 5 rounds" -- \
	env WORK="$tmp/ba-work" bash "$top/docs/benchmarks/before-after.sh" "$tmp/ba-before" "$tmp/ba-after" 5
contains "$tmp/stdout" "| dhry2reg | 1 | lps | 25100.0 | 29100.0 | 1.053 | 0.996-1.160 (5) |" \
	"before-after.sh: each side's median, after/before paired by round (not the medians' 1.159), lo-hi (N)"

# ---- STREAM's working set and the NUMA options asked wrong (issue 36) --------------------------
# 65T and 6148914691236517205 (bytes: a third of 2^64): the three arrays' bytes wrapped
# round 2^64, so 5592406T SKIPped needing "2097152 MiB" and 6148914691236517205 crashed the
# copy (SIGSEGV in setup) or FAILed "Out of memory"; above 64T (a third of x86-64's 128 TiB
# user address space and more) is refused before anything runs.
for v in 0 1000K 1.5G -1G abc 1MB 1Gi 4g 65T 5592406T 6148914691236517205; do
	expect_status EXIT_USAGE "--mem.array $v: a usage error" -- "$bin" --mem.array "$v" --tests mem-bandwidth-copy
	contains "$tmp/stderr" "--mem.array $v: expected a size from 1M to 64T (bytes, or with K, M, G, T)" "--mem.array $v: says the rule"
done
expect_status EXIT_OK "--mem.array 64T: a complete run" -- "$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array 64T \
	--tests mem-bandwidth-triad --copies 1
has "$tmp/stdout" " SKIP test=mem-bandwidth-triad copies=1 reason=needs%20201326592%20MiB%20\\(1%20copy\\)%20.*%20MiB%20margin,%20(MemAvailable|the%20memory%20cgroup's%20room)%20is%20[0-9]+%20MiB" \
	"--mem.array 64T: STREAM SKIPs with the three arrays' need and the room, no OOM"
hasnt "$tmp/stdout" "oom_kills=| FAIL " "--mem.array 64T: no OOM, no FAIL"
# Two sets above the floors STREAM's rule sets (4x this host's LLC, 10^7 elements), 16 MiB apart.
"$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array 1M --tests mem-bandwidth-copy --copies 1 >"$tmp/arrfloor.log" 2>/dev/null || true
llc=$(grep -aoE ' mem\.llc_total_kib=[0-9]+' "$tmp/arrfloor.log" | head -1 | cut -d= -f2 || true) # '-' (none) on a host without cache sizes
small=$(( (4 * ${llc:-0} > 78125 ? 4 * ${llc:-0} : 78125) / 1024 * 1024 + 16384 )) large=$((small + 16384))
for a in "$small" "$large"; do
	"$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array "${a}K" --tests mem-bandwidth-copy --copies 1 >"$tmp/arr$a.log" 2>/dev/null || true
done
has "$tmp/arr$small.log" " SAMPLE test=mem-bandwidth-copy copies=1 .*array_total_kib=$small " "mem.array=${small}K: array_total_kib=$small"
"$rep" --label small,large "$tmp/arr$small.log" "$tmp/arr$large.log" >"$tmp/cmp-arr.out" 2>&1 || true
contains "$tmp/cmp-arr.out" "not comparable: STREAM working sets differ (mem-bandwidth-copy copies=1: one array of all copies $small KiB in small, $large KiB in large): give both runs the same isobench.mem.array" \
	"isobench-report: two runs with different STREAM working sets are flagged, both sizes named"
"$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array "${small}K" --tests mem-bandwidth-copy --copies 1 >"$tmp/arrsame.log" 2>/dev/null || true
"$rep" --label a,b "$tmp/arr$small.log" "$tmp/arrsame.log" >"$tmp/cmp-same.out" 2>&1 || true
hasnt "$tmp/cmp-same.out" "STREAM working sets differ" "isobench-report: the same set on both sides: no such warning"
# A forged working set (resealed: valid CRCs): the comparison takes a test's set from its
# first measured SAMPLE, so SAMPLEs that disagree with one another or with their copies let a
# report say two runs ran one set when they did not. Each used to pass --check (status 0).
# forged WHAT WANT PAT REP [SEL]: the same log with the SAMPLEs of mem-bandwidth-copy changed; --check
# must refuse it (status 3) naming the line and the rule (its verdict is on stdout).
forged() {
	local what=$1 want=$2 pat=$3 to=$4 sel=${5:-' SAMPLE test=mem-bandwidth-copy copies=1 i=0 '}
	reseal "$tmp/arr$small.log" "$tmp/forged.log" "$sel" "$pat" "$to"
	expect_status EXIT_INCOMPLETE "forged STREAM set ($what): --check refuses the run" -- "$rep" --check "$tmp/forged.log"
	contains "$tmp/stdout" "$want" "forged STREAM set ($what): says why"
}
forged "array_kib not array_total_kib / copies" "array_kib=1 x copies=1 is not array_total_kib=$small" \
	' array_kib=[0-9]+ ' ' array_kib=1 '
forged "a negative set" "array_kib=-5: expected a figure >= 1 KiB" \
	' array_kib=[0-9]+ array_total_kib=[0-9]+ ' ' array_kib=-5 array_total_kib=-5 '
forged "the measured SAMPLE's set not its warm-up's" "array_total_kib=12345: the test's earlier SAMPLE said $small (one working set a test)" \
	' array_kib=[0-9]+ array_total_kib=[0-9]+ ' ' array_kib=12345 array_total_kib=12345 '
expect_status EXIT_OK "the unforged log passes --check" -- "$rep" --check "$tmp/arr$small.log"
# One NUMA node with memory: the node is the machine, and memory.md's node check (memory
# bound to a node that runs out is OOM-killed) adds nothing to the machine's MemAvailable one.
# It used MemFree of nodeN/meminfo alone, which leaves out the page cache the kernel drops to
# make room, and which a Firecracker host lists as 10 GiB of its 24 GiB: there the default
# 2 GiB set SKIPped "node 0 has 5405 MiB free, needs 6144 MiB" with 22 GiB available. A set
# whose three arrays need 48 MiB more than node 0's MemFree must run when MemAvailable holds
# them twice over (filling at most 8 GiB: a bigger node is left alone).
node0=/sys/devices/system/node/node0/meminfo
nfree=$(awk '/ MemFree:/ { print $4 }' "$node0" 2>/dev/null || true)
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ "$(cat /sys/devices/system/node/online 2>/dev/null)" = 0 ] && [ -n "$nfree" ] &&
	[ "$nfree" -le $((8 << 20)) ] && [ $((2 * (nfree + 49152))) -le "$avail" ]; then
	set1=$((nfree / 3 + 16384))
	expect_status EXIT_OK "one node, a set beyond node 0's MemFree ($nfree KiB) within MemAvailable ($avail KiB)" -- \
		"$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array "${set1}K" --tests mem-bandwidth-copy --copies 1
	has "$tmp/stdout" " RESULT test=mem-bandwidth-copy copies=1 " "one node: the set runs (no node check beyond the machine's)"
	hasnt "$tmp/stdout" "reason=node%200%20has" "one node: no SKIP by node 0's figures"
else
	skip "one node with a set beyond its MemFree: not one node here, or MemFree above 8 GiB, or MemAvailable too small"
fi
if command -v strace >/dev/null && [ -d /sys/devices/system/node/node0 ]; then
	expect_status EXIT_OK "mbind refused (EPERM injected): a complete run" -- strace -f -qq -o /dev/null \
		-e trace=mbind -e inject=mbind:error=EPERM "$bin" "${quick[@]}" --tmpdir "$tmp" --mem.array "${small}K" \
		--tests mem-bandwidth-triad,mem-latency-16k-4k --copies 1
	count_is "$tmp/stdout" " RESULT test=(mem-bandwidth-triad|mem-latency-16k-4k) copies=1 " 2 "mbind refused: both local tests still give a RESULT"
	hasnt "$tmp/stdout" " SAMPLE test=mem-.* mem_node=" "mbind refused: no sample claims a node its memory was not bound to"
else
	skip "mbind refused: no strace, or no NUMA nodes in sysfs here"
fi
for bad in "--numa 1" "--numa 9" "--numa 2 --cpus 1" "--numa 3 --mem 1G" "--topology sockets=0" "--topology sockets=2;reboot"; do
	# shellcheck disable=SC2086  # the options are words
	expect_status EXIT_USAGE "qemu/run $bad: a usage error before anything boots" -- "$top/qemu/run" --check-args $bad
done
contains "$tmp/stderr" "--topology takes -smp words such as sockets=2,cores=16" "qemu/run --topology: says what it takes"

# ---- more copies than CPUs, a loop longer than the window (TCG) ----------------------------
# mem-fault-2m's one loop (a 2 MiB first touch) takes 20-60 ms under TCG: with 4 copies on 2
# vCPUs and sample_ms 10 some copy did no loop in each window, and both fault tests FAILed
# "no valid sample". One short boot.
if [ -e "$out/bzImage" ]; then
	glog=$tmp/copies.log
	"$top/qemu/run" --direct --accel tcg --cpus 2 --mem 1G --suite quick \
		--tests mem-fault-4k,mem-fault-2m --copies 4 --log "$glog" \
		--params 'isobench.sample_ms=10 isobench.samples=2' >"$tmp/qrun.out" 2>&1 &&
		st=0 || st=$?
	status_is EXIT_OK "$st" "TCG, mem-fault-4k,-2m with 4 copies on 2 vCPUs, sample_ms 10: a clean run"
	hasnt "$glog" ' FAIL ' "no FAIL (no 'no valid sample')"
	has "$glog" ' RESULT test=mem-fault-4k copies=4 ' "mem-fault-4k: a RESULT"
	has "$glog" ' RESULT test=mem-fault-2m copies=4 ' "mem-fault-2m: a RESULT"
	expect_status EXIT_OK "the log validates (a redone sample is warmup=1)" -- "$rep" --check "$glog"
else
	skip "more copies than CPUs under TCG: no $out/bzImage (run ./build.sh)"
fi

finish
