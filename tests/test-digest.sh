#!/usr/bin/env bash
# tests/test-digest.sh — a run checkable from the last 64 KiB of its log (issue 33 item 2;
# docs/records.md "The digest"). AWS `get-console-output --latest` returns the last 64 KB of a
# serial console only; the runner restates the run in DIGEST records before END, and the
# reader rebuilds the run from them when the log's head is cut. With real logs:
#   - a native run of every group that runs natively (the standard suite, with short samples
#     and 3 of each so that it takes a minute: `--suite standard --sample_ms 20 --samples 3`,
#     STREAM on 16 MiB arrays;
#     a digest's size follows the tests and passes, not the samples; the net
#     group against a peer on the loopback, the disk group on a scratch file signed by
#     `isobench --make-scratch`): its digest's size, printed, is well under 64 KiB;
#   - the log cut to its last 65536 bytes is a complete run "read from its digest", and
#     `isobench-report` prints the same tables as from the whole log (the source name, the
#     log's line numbers and the verdict aside);
#   - a run with FAIL and SKIP records, cut right where its digest begins: the same tables
#     and events;
#   - cut inside the digest (at several places), a byte flipped in a digest line, a digest
#     figure changed and its line resealed (whole log and cut log): never results, status
#     EXIT_INCOMPLETE with a verdict that says the digest is cut or damaged;
#   - in the image (when built): a run of the probes and the ring0 group under QEMU TCG, its
#     serial log cut to its last 65536 bytes, read as the whole log;
#   - a cut log without a digest (held logs, written before it) stays incomplete as before.
# Usage: tests/test-digest.sh (OUT: the build, default out/; needs out/isobench and
# out/isobench-report). DIGEST_LOG=FILE: take FILE, a log of such a run made before, instead
# of running one (the run takes about a minute on 2 quiet cores).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp
bin=$out/isobench
report=$(report_tool)

# tables LOG OUTFILE: the report's stdout for LOG without what names the file and its lines:
# the first line ("isobench run ID from FILE, log lines A-B"), each " (line N)" and the
# verdict (which says when the run was read from its digest). Its status (FAILs, a refused
# log) is judged elsewhere: only its tables here.
tables() {
	{ "$report" "$1" 2>/dev/null || true; } | sed -e '1d' -e 's/ (line [0-9]*)$//' -e '/^isobench-report: /d' >"$2"
}

# status_of LOG: the status of `isobench-report --check LOG`.
status_of() {
	local rc=0
	"$report" --check "$1" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}

# same_tables WHOLE CUT DESCRIPTION: the two logs' tables are equal (and not empty).
same_tables() {
	tables "$1" "$tmp/whole.txt"
	tables "$2" "$tmp/cut.txt"
	if [ -s "$tmp/whole.txt" ] && cmp -s "$tmp/whole.txt" "$tmp/cut.txt"; then
		pass "$3 ($(wc -l <"$tmp/whole.txt") lines of tables)"
	else
		fail "$3: $(diff "$tmp/whole.txt" "$tmp/cut.txt" | head -n 6 | tr '\n' '|')"
	fi
}

# refused LOG DESCRIPTION REGEX: --check LOG is status EXIT_INCOMPLETE, its verdict matches
# REGEX, and the report prints no table from it.
refused() {
	expect_status EXIT_INCOMPLETE "$2" -- "$report" --check "$1"
	has "$tmp/stdout" "$3" "... and says why: $(head -c 160 "$tmp/stdout")"
	"$report" "$1" >"$tmp/table" 2>&1 || true	# refused: its output is judged
	hasnt "$tmp/table" 'System Benchmarks Index|Details  ' "... and prints no result from it"
}

# tail_of LOG BYTES OUT: the last BYTES bytes of LOG.
tail_of() { tail -c "$2" "$1" >"$3"; }

# offset LOG STRING: the byte offset of the first line of LOG holding STRING.
offset() { grep -b -m 1 -F -- "$2" "$1" | cut -d: -f1; }

# ---- a native run of every group that runs natively --------------------------------------
if [ -n "${DIGEST_LOG:-}" ]; then
	cp "$DIGEST_LOG" "$tmp/all.log"	# a log of such a run made before (minutes saved)
else
	"$bin" --make-scratch "$tmp/scratch.img" 64M >/dev/null 2>&1 || fail "--make-scratch failed"
	start_peer all --max-seconds 3600
	kill_at_exit peer_pid
	[ -n "$peer_port" ] || fail "the peer did not start: $(head -c 200 "$tmp/all.peer.err")"
	# STREAM's set as small as it goes (mem.array 16M): the digest holds the same records
	# whatever the set, and the default (up to MemTotal/6: 2 GiB an array on a 24 GiB host)
	# took 250 of this run's ~300 s in first touches and passes over 6 GiB.
	"$bin" --suite standard --sample_ms 20 --samples 3 --tests all --peer "127.0.0.1:${peer_port:-1}" \
		--disk "$tmp/scratch.img" --mem.array 16M >"$tmp/all.log" 2>"$tmp/all.err"
	stop_peer
fi
whole=$(status_of "$tmp/all.log")
if [ "$whole" -eq "$EXIT_OK" ] || [ "$whole" -eq "$EXIT_FAILS" ]; then
	pass "a native standard run of every group is complete (status $whole)"
else fail "the run of every group is not complete: $("$report" --check "$tmp/all.log" 2>&1 | tail -n 1)"; fi
size=$(wc -c <"$tmp/all.log")
dig=$(grep '^@isobench/1 [0-9]* DIGEST ' "$tmp/all.log" | wc -c) || true
groups=$(grep -o ' TEST .* group=[a-z0-9]*' "$tmp/all.log" | sed 's/.* group=//' | sort -u | tr '\n' ' ') || true
echo "# the log: $size bytes; its digest: $dig bytes ($(grep -c ' DIGEST ' "$tmp/all.log") lines)," \
	"groups: $groups"
if [ "$size" -gt 65536 ]; then pass "the whole log is over 64 KiB ($size bytes): a cut loses its head"
else fail "the log is only $size bytes: cutting it to 64 KiB would test nothing"; fi
if [ "$dig" -gt 1000 ] && [ "$dig" -lt 40960 ]; then
	pass "the digest of a run of every group is $dig bytes, under 40 KiB of the console's 64"
else fail "the digest is $dig bytes (want 1000..40960)"; fi
for g in index extra probes disk net memory ring0; do
	grep -q " TEST .* group=$g " "$tmp/all.log" || fail "the run has no test of group $g"
done
has "$tmp/all.log" ' RESULT test=net-tcp-rr ' "the net group measured against the loopback peer"
has "$tmp/all.log" ' RESULT test=disk-write-1m ' "the disk group wrote the scratch file"

tail_of "$tmp/all.log" 65536 "$tmp/all-64k.log"
expect_status "$( ((whole)) && echo EXIT_FAILS || echo EXIT_OK)" \
	"its last 65536 bytes are a complete run, of the whole log's status" -- "$report" --check "$tmp/all-64k.log"
contains "$tmp/stdout" "read from its digest" "... read from its digest, as the verdict says"
hasnt "$tmp/all-64k.log" '^@isobench/1 1 BEGIN ' "... although the cut log holds no BEGIN"
same_tables "$tmp/all.log" "$tmp/all-64k.log" "the report of the last 64 KiB equals the whole log's"

# ---- a run with FAIL and SKIP records, cut where its digest begins (an ERROR record is the
# image's: natively bad input is a usage error)
"$bin" --suite quick --tests pipe,vmexit-cpuid,sockwrite-paced,selftest-crash,selftest-skip,selftest-error \
	--copies 1,2 >"$tmp/ev.log" 2>/dev/null || true	# selftest-crash: status EXIT_FAILS
at=$(offset "$tmp/ev.log" ' DIGEST part=begin ')
tail -c +"$((at + 1))" "$tmp/ev.log" >"$tmp/ev-cut.log"
complete "$tmp/ev-cut.log" "a log cut where its digest begins is a complete run (with FAILs)" EXIT_FAILS
same_tables "$tmp/ev.log" "$tmp/ev-cut.log" "... whose tables and FAIL/SKIP lines are the whole log's"
# Each loss said as what it is (issue 51): the log cut where its digest begins has lost its
# head, SAMPLEs with it; a log that lost its BEGIN alone holds every SAMPLE, and says so; a
# record repeated is no record lost, and a record lost names its seq.
"$report" --check "$tmp/ev-cut.log" >"$tmp/said" 2>&1 || true
contains "$tmp/said" "the log's head is cut: it starts at seq $(sed -n '1s/^@isobench\/1 \([0-9]*\) .*/\1/p' "$tmp/ev-cut.log") (line 1), records 1-" \
	"a log cut at its digest: the head is cut, from the seq it starts at"
grep -v '^@isobench/1 1 BEGIN ' "$tmp/ev.log" >"$tmp/ev-nobegin.log"
complete "$tmp/ev-nobegin.log" "a log that lost its BEGIN alone is a complete run (from its digest)" EXIT_FAILS
"$report" --check "$tmp/ev-nobegin.log" >"$tmp/said" 2>&1 || true
contains "$tmp/said" "its BEGIN (seq 1) is missing from the log, though every later record is in it from line 1; its $(grep -c ' SAMPLE ' "$tmp/ev.log") SAMPLEs there are not used" \
	"... and the verdict says BEGIN alone is missing, every SAMPLE there"
hasnt "$tmp/said" "head is cut" "... never that the head is cut"
awk '/ SAMPLE /&&!d{print;d=1} {print}' "$tmp/ev.log" >"$tmp/ev-dup.log"
dup=$(grep -m1 ' SAMPLE ' "$tmp/ev.log" | cut -d' ' -f2) || true
expect_status EXIT_INCOMPLETE "a log with a SAMPLE repeated is incomplete" -- "$report" --check "$tmp/ev-dup.log"
contains "$tmp/stdout" "a record repeated or out of order: line $(grep -n -m1 ' SAMPLE ' "$tmp/ev.log" | cut -d: -f1 | awk '{print $1 + 1}') has seq $dup again after seq $dup" \
	"... said as a record repeated, with its seq"
hasnt "$tmp/stdout" "records lost" "... never as records lost"
awk -v s="$dup" '$2 != s' "$tmp/ev.log" >"$tmp/ev-lost.log"
expect_status EXIT_INCOMPLETE "a log with a SAMPLE lost is incomplete" -- "$report" --check "$tmp/ev-lost.log"
has "$tmp/stdout" "records lost: seq $dup missing \(line [0-9]+ has seq $((dup + 1)) after seq $((dup - 1))\)" \
	"... said as records lost, naming the seq missing"
has "$tmp/cut.txt" '^FAIL +selftest-crash' "... the FAIL of a crashed test among them"
has "$tmp/cut.txt" '^SKIP +selftest-skip' "... and the SKIP"

# ---- cut inside the digest, damaged, forged -------------------------------------------------
tail -c +"$((at + 2))" "$tmp/ev.log" >"$tmp/ev-in.log"
refused "$tmp/ev-in.log" "a log cut one byte into the digest's first line is refused" \
	'the digest is cut: the log starts inside it'
end_at=$(offset "$tmp/ev.log" ' DIGEST part=end ')
for frac in 3 2; do
	tail -c +"$((at + (end_at - at) / frac))" "$tmp/ev.log" >"$tmp/ev-in.log"
	refused "$tmp/ev-in.log" "a log cut 1/$frac of the way into its digest is refused" \
		'the digest is cut: the log starts inside it'
done
# The log ends inside the digest (a capture stopped early): no END, as before.
head -c "$((end_at + 20))" "$tmp/ev.log" >"$tmp/ev-short.log"
tail -c +"$((at + 1))" "$tmp/ev-short.log" >"$tmp/ev-in.log"
refused "$tmp/ev-in.log" "a log cut at both ends inside the digest is refused" 'the digest is cut: no part=end'

# flip LOG STRING OUT: LOG with one bit flipped 12 bytes after STRING.
flip() {
	python3 - "$1" "$2" "$3" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(sys.argv[2].encode()) + len(sys.argv[2]) + 12
d[i] ^= 1
open(sys.argv[3], "wb").write(d)
EOF
}
flip "$tmp/all-64k.log" ' DIGEST part=test test=pipe ' "$tmp/flip.log"
refused "$tmp/flip.log" "the cut log with one byte flipped in a digest line is refused" \
	'the digest is damaged: line [0-9]+ \(checksum mismatch\)'
flip "$tmp/all-64k.log" ' DIGEST part=end ' "$tmp/flip.log"
refused "$tmp/flip.log" "... and with one flipped in part=end" 'the digest is (damaged|cut)'

# forge LOG OUT [CRC]: LOG with pipe's first value= in its digest line changed and the line
# resealed with a correct checksum; part=end's CRC then disagrees, unless CRC is "crc": then
# part=end is rewritten to match too (a writer's bug rather than damage).
forge() {
	PYTHONPATH=$here python3 - "$1" "$2" "${3:-}" <<'EOF'
import re, sys
from seal import crc, seal
lines = open(sys.argv[1], "rb").read().decode("ascii", "replace").split("\n")
rec = r"(@isobench/1 \d+ DIGEST part=%s .*) \*[0-9a-f]{8}$"
for n, line in enumerate(lines):
    m = re.match(rec % "test test=pipe", line)
    if m:
        lines[n] = seal(re.sub(r" value=[0-9.]+", " value=1.000", m.group(1), count=1))
        break
if sys.argv[3] == "crc":
    first = next(n for n, l in enumerate(lines) if re.match(rec % "begin", l))
    end = next(n for n, l in enumerate(lines) if re.match(rec % "end", l))
    body = re.sub(r" crc=[0-9a-f]{8}", " crc=" + crc("".join(l + "\n" for l in lines[first:end])), re.match(rec % "end", lines[end]).group(1))
    lines[end] = seal(body)
open(sys.argv[2], "w").write("\n".join(lines))
EOF
}
forge "$tmp/all-64k.log" "$tmp/forged.log"
refused "$tmp/forged.log" "a cut log whose digest figure was changed and resealed is refused" \
	'the digest is damaged: part=end says lines=[0-9]+ crc=[0-9a-f]+, the log holds'
forge "$tmp/all.log" "$tmp/forged.log"
refused "$tmp/forged.log" "... and so is the whole log holding that digest" 'the digest is damaged: part=end says'
# A digest that says another figure than the log's RESULT, its CRC matching (a writer's bug):
# the whole log is checked against what it restates.
forge "$tmp/all.log" "$tmp/forged.log" crc
refused "$tmp/forged.log" "a whole log whose digest restates another figure than its RESULT is refused" \
	'the digest is damaged: line [0-9]+ says pipe value=1.000, the log.s RESULT says [0-9.]+'
# The same digest in a log that lost its BEGIN: the run would be read from the digest, so
# every outcome the log holds must be restated there; pipe's RESULT is not (fuzz finding: a
# headless run read from its digest dropped a RESULT the digest did not restate).
forge "$tmp/ev-nobegin.log" "$tmp/forged.log" crc
refused "$tmp/forged.log" "a log without BEGIN whose digest restates another pipe figure is refused" \
	"the digest is not this log's: it does not restate the log's RESULT of pipe at line [0-9]+"

# twofail LOG OUT REASON: LOG with its first FAIL of selftest-crash (copies=1) written twice,
# the second with reason=REASON, and its digest line likewise; every record renumbered and
# resealed, part=end's count and CRC rewritten: a log holding two outcomes of one test and copy
# count (what the runner wrote when a test stalled and its deadline passed at once) and a
# digest that restates both.
twofail() {
	PYTHONPATH=$here python3 - "$1" "$2" "$3" <<'EOF2'
import re, sys
from seal import crc, frame
lines = open(sys.argv[1]).read().split("\n")
rec = re.compile(r"@isobench/1 \d+ (.*) \*[0-9a-f]{8}$")
out, n, dupl = [], 0, {"FAIL test=selftest-crash copies=1 ", "DIGEST part=fail test=selftest-crash copies=1 "}
for line in lines:
    m = rec.match(line)
    out.append(m.group(1) if m else (None, line))
    if m and any(m.group(1).startswith(d) for d in dupl):
        dupl = {d for d in dupl if not m.group(1).startswith(d)}
        out.append(re.sub(r" reason=[^ ]*", " reason=" + sys.argv[3], m.group(1), count=1))
final = []
for b in out:
    if isinstance(b, tuple):
        final.append(b[1])
        continue
    n += 1
    final.append(frame(n, b).rstrip("\n"))
first = next(i for i, l in enumerate(final) if " DIGEST part=begin " in l)
end = next(i for i, l in enumerate(final) if " DIGEST part=end " in l)
digest = [l for l in final[first:end] if rec.match(l)]
body = re.sub(r"lines=\d+ crc=[0-9a-f]{8}", "lines=%d crc=%s" % (len(digest), crc("".join(l + "\n" for l in digest))), rec.match(final[end]).group(1))
final[end] = frame(int(final[end].split()[1]), body).rstrip("\n")
e = next(i for i, l in enumerate(final) if re.match(r"@isobench/1 \d+ END ", l))
num, nfail = int(final[e].split()[1]), sum(1 for l in final if re.match(r"@isobench/1 \d+ FAIL ", l))
body = re.sub(r"records=\d+ (results=\d+) fails=\d+", r"records=%d \1 fails=%d" % (num - 1, nfail),
              rec.match(final[e]).group(1))
final[e] = frame(num, body).rstrip("\n")
open(sys.argv[2], "w").write("\n".join(final))
EOF2
}
twofail "$tmp/ev.log" "$tmp/twofail.log" 'timeout%20after%209%20s'
grep -ci 'FAIL test=selftest-crash copies=1 ' "$tmp/twofail.log" >"$tmp/nfail"
has "$tmp/nfail" '^4$' "the planted log holds two FAILs of selftest-crash (1 copy) and its digest both"
complete "$tmp/twofail.log" "a digest restating two FAILs of one test and copy count matches the log's two" EXIT_FAILS
at2=$(offset "$tmp/twofail.log" ' DIGEST part=begin ')
tail -c +"$((at2 + 1))" "$tmp/twofail.log" >"$tmp/twofail-cut.log"
complete "$tmp/twofail-cut.log" "... and cut where the digest begins, it is a complete run" EXIT_FAILS
# ... but a digest FAIL that neither of the two says is still refused.
sed -i 's/\( DIGEST part=fail test=selftest-crash copies=1 reason=\)timeout%20after%209%20s/\1timeout%20after%208%20s/' "$tmp/twofail.log"
PYTHONPATH=$here python3 - "$tmp/twofail.log" <<'EOF2'
import re, sys
from seal import seal
p = sys.argv[1]
lines = open(p).read().split("\n")
rec = re.compile(r"(@isobench/1 \d+ .*) \*[0-9a-f]{8}$")
for i, l in enumerate(lines):
    m = rec.match(l)
    if m and " DIGEST part=fail test=selftest-crash copies=1 reason=timeout%20after%208" in l:
        lines[i] = seal(m.group(1))
open(p, "w").write("\n".join(lines))
EOF2
refused "$tmp/twofail.log" "a digest FAIL that neither FAIL of the log says is refused" \
	'the digest is damaged: (line [0-9]+ says selftest-crash reason=|part=end says)'

# ---- in the image: a run on QEMU's serial console, cut to its last 64 KiB -------------------
# The probes and the ring0 group (which runs only in the image's kernel), both passes, under
# TCG (a few minutes); the log is what a cloud's console would hold, kernel lines and all.
if [ -f "$out/bzImage" ] && [ -f "$out/initramfs.cpio.gz" ] && command -v qemu-system-x86_64 >/dev/null; then
	st=0
	"$top/qemu/run" --out "$out" --direct --accel tcg --suite quick --tests probes,ring0 --copies 1,2 \
		--mem 1G --timeout 1200 --log "$tmp/img.log" >"$tmp/img.out" 2>&1 </dev/null || st=$?
	if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_FAILS" ]; then
		pass "the image's run is complete and powered off (qemu/run status $st)"
	else fail "the image's run: qemu/run status $st: $(tail -n 2 "$tmp/img.out" | tr '\n' '|')"; fi
	has "$tmp/img.log" ' RESULT test=ring0-cpuid ' "... the ring0 group ran in the image"
	echo "# the image's log: $(wc -c <"$tmp/img.log") bytes; its digest:" \
		"$(grep -a ' DIGEST ' "$tmp/img.log" | wc -c) bytes"
	tail_of "$tmp/img.log" 65536 "$tmp/img-64k.log"
	expect_status "$( ((st)) && echo EXIT_FAILS || echo EXIT_OK)" \
		"the image log's last 65536 bytes are a complete run" -- "$report" --check "$tmp/img-64k.log"
	contains "$tmp/stdout" "read from its digest" "... read from its digest"
	contains "$tmp/stdout" "guest powered off" "... and the power-off after it is seen"
	same_tables "$tmp/img.log" "$tmp/img-64k.log" "the report of the image log's last 64 KiB equals the whole log's"
else
	skip "in the image: no $out/bzImage, initramfs or qemu-system-x86_64 (./build.sh builds the image)"
fi

# ---- logs without a digest read as before --------------------------------------------------
tail -n 20 "$here/fixtures/logs/tcg-clock-tsc.log" >"$tmp/old-cut.log"
refused "$tmp/old-cut.log" "a cut held log (written before the digest) is incomplete, as before" \
	'no BEGIN record: the log starts mid-run'
complete "$here/fixtures/logs/tcg-clock-tsc.log" "... and the whole held log complete, as before"
finish
