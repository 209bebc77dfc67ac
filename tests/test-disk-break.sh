#!/usr/bin/env bash
# tests/test-disk-break.sh — the disk group under a user trying to break it (issue 20),
# natively, in seconds:
#   - `isobench --make-scratch` never destroys what it was not meant to: an existing file that
#     holds data, a read-only file, an unmounted block device holding a file system are
#     refused and left byte-identical; a size that does not fit the file system is refused
#     before a byte is written; a refused size or "all" on a missing path leaves no file
#     behind; a file of zeros (truncate, dd) or one signed before is signed;
#   - a single-copy test (the disk group) in a run whose every pass has more copies SKIPs
#     with the reason instead of vanishing from the log;
#   - a signed file truncated after signing: the header's disk.writes gives the reason the
#     write tests SKIP with (not "allowed"), the reads run on what is left;
#   - the report's percentile table names each run by its whole label;
#   - docs/benchmarks/disk-vs-fio.sh --summary: reads a cache answers after round 1 (one tool
#     12.5x faster) draw a WARNING naming the row, level rounds none; ours / fio is paired by
#     round (a drifting host's 1.053, not the medians' 1.159) and "within 15%" judges it
#     unrounded (1.1504 is not); two runs' lines joined (a round given twice) are refused,
#     status 2, naming the round and test; a directory, a binary file, WARMUP=x or CACHE_X=x
#     is status 2 with a message (not a traceback), an empty or garbled file 1; a row whose
#     rounds gave no figure above 0 from both tools says so;
#   - natively, `--disk FILE` takes a relative path as --make-scratch does;
#   - qemu/run --scratch: a directory or an image named twice is a usage error before
#     booting; an image QEMU cannot lock is "could not start" (7), not "log incomplete";
#   - in the image (TCG, one short boot): the host file system under the scratch image full
#     (blkdebug ENOSPC) gives a FAIL with the errno and a complete run, not a paused guest.
#
# In:  OUT/isobench, OUT/isobench-report, OUT/bzImage (qemu/run), qemu/run, python3 (the lock);
#      losetup, mkfs.ext4 (root) for the block device.
# Out: one line per assertion, then "N passed, M failed, K skipped"; files in results/disk-break/
#      (on the repository's filesystem: O_DIRECT needs a real one).
# Errors: exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
dir=$top/results/disk-break
rm -rf "$dir"
mkdir -p "$dir"
bin=$out/isobench
for f in isobench isobench-report; do
	[ -e "$out/$f" ] || { fail "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done

# ---- --make-scratch on what is not ours -----------------------------------------------------
# kept NAME FILE SIZE WHY: --make-scratch FILE SIZE is refused (status 2, WHY on stderr) and
# FILE is byte-identical.
kept() {
	local before
	before=$(sha256_of "$2")
	expect_status EXIT_USAGE "$1: --make-scratch refuses" -- "$bin" --make-scratch "$2" "$3"
	contains "$tmp/stderr" "$4" "$1: it says why ($4)"
	check "$1: not one byte changed" test "$before" = "$(sha256_of "$2")"
}
seq 1 500000 >"$dir/data.txt"	# 3.4 MB: above the smallest scratch size
kept "a file holding data" "$dir/data.txt" 4M "holds data and no scratch signature: not overwritten"
kept "a file holding data, all" "$dir/data.txt" all "holds data"
dd if=/dev/zero of="$dir/tail.img" bs=1M count=3 status=none
echo x >>"$dir/tail.img"
kept "zeros with data after the first MiB" "$dir/tail.img" 4M "holds data"
truncate -s 4M "$dir/ro.img"
chmod 444 "$dir/ro.img"
kept "a read-only file" "$dir/ro.img" 4M "is read-only (mode 0444)"

# Under a 64 MiB file-size limit: a build that writes first would otherwise fill the disk
# the whole machine shares (SIGXFSZ stops it: status 153, not 2).
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
expect_status EXIT_USAGE "a size beyond the file system's free space is refused" -- \
	bash -c 'ulimit -f 65536; exec "$0" "$@"' "$bin" --make-scratch "$dir/huge.img" 9000T
contains "$tmp/stderr" "do not fit: its file system has" "the refusal says the file system is too small"
check "nothing of the huge file is left behind" test ! -e "$dir/huge.img"
expect_status EXIT_USAGE "1 byte is refused" -- "$bin" --make-scratch "$dir/one.img" 1
check "the refused 1-byte file is not created" test ! -e "$dir/one.img"
expect_status EXIT_USAGE "all on a missing path is refused" -- "$bin" --make-scratch "$dir/none.img" all
check "all on a missing path creates nothing" test ! -e "$dir/none.img"

truncate -s 4M "$dir/sparse.img"
expect_status EXIT_OK "a file of holes (truncate) is signed, all of it" -- "$bin" --make-scratch "$dir/sparse.img" all
contains "$tmp/stdout" "signed as scratch: 4194304 bytes" "the file of holes: all 4 MiB signed"
dd if=/dev/zero of="$dir/zeros.img" bs=1M count=3 status=none
expect_status EXIT_OK "a file of written zeros is signed" -- "$bin" --make-scratch "$dir/zeros.img" 4M
expect_status EXIT_OK "a signed file is signed again" -- "$bin" --make-scratch "$dir/zeros.img" 4M

# An unmounted block device holding a file system: refused, unchanged; once its first MiB is
# zeroed (the way out the refusal names), signed.
block_case() {
	local loop before
	if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
		skip "block device: needs root, losetup and mkfs.ext4"
		return
	fi
	truncate -s 8M "$dir/fs.img"
	mkfs.ext4 -q -F "$dir/fs.img"
	if ! loop=$(losetup -f --show "$dir/fs.img" 2>/dev/null); then
		skip "block device: no loop device here"
		return
	fi
	at_exit "losetup -d $loop"
	before=$(sha256_of "$loop")
	expect_status EXIT_USAGE "an unmounted device holding ext4: --make-scratch refuses" -- \
		"$bin" --make-scratch "$loop" all
	contains "$tmp/stderr" "zero its first MiB first" "the device refusal names the way out"
	check "the ext4 device: not one byte changed" test "$before" = "$(sha256_of "$loop")"
	dd if=/dev/zero of="$loop" bs=1M count=1 conv=fsync status=none
	expect_status EXIT_OK "the same device, first MiB zeroed: signed" -- "$bin" --make-scratch "$loop" all
}
block_case

# ---- a single-copy test in a run with no 1-copy pass ----------------------------------------
"$bin" --make-scratch "$dir/s.img" 4M >/dev/null
st=0
"$bin" --suite quick --sample_ms 20 --samples 2 --copies 4 --tests disk-read-1m,disk-flush \
	--disk "$dir/s.img" >"$dir/copies4.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$dir/copies4.log" "disk tests with --copies 4 only"
count_is "$dir/copies4.log" "SKIP test=disk-(read-1m|flush) copies=4 reason=runs%20with%20at%20most%201%20copy" 2 \
	"--copies 4: both disk tests SKIP, saying they run with 1 copy only"
count_is "$dir/copies4.log" "TEST test=disk-(read-1m|flush) " 2 "--copies 4: both are announced (TEST)"
st=0
"$bin" --suite quick --sample_ms 20 --samples 2 --copies 1,2 --tests disk-read-1m \
	--disk "$dir/s.img" >"$dir/copies12.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$dir/copies12.log" "a disk test with --copies 1,2"
count_is "$dir/copies12.log" "RESULT test=disk-read-1m copies=1 " 1 "--copies 1,2: the 1-copy pass runs it"
hasnt "$dir/copies12.log" "SKIP test=disk-read-1m" "--copies 1,2: no SKIP (the 2-copy pass leaves it out, as before)"

# ---- a scratch file cut short after signing: the header's verdict is the write phase's ------
cp "$dir/s.img" "$dir/cut.img"
truncate -s 3M "$dir/cut.img"
st=0
"$bin" --suite quick --sample_ms 20 --samples 2 --copies 1 --tests disk-randread-4k-qd1,disk-write-1m \
	--disk "$dir/cut.img" >"$dir/cut.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$dir/cut.log" "a signed file truncated to 3 MiB"
has "$dir/cut.log" "INFO disk.select=.* disk.signed=1 .*disk.writes=[^ ]*signed%20for%204194304%20bytes%20but%20holds%203145728 .*disk.span_bytes=2097152 " \
	"cut short: the header says why writes are refused, and the span is what the file still holds"
count_is "$dir/cut.log" "SKIP test=disk-write-1m copies=1 reason=[^ ]*signed%20for%204194304%20bytes%20but%20holds%203145728" 1 \
	"cut short: the write test SKIPs with the same reason"
count_is "$dir/cut.log" "RESULT test=disk-randread-4k-qd1 " 1 "cut short: the read test runs on what is left"

# ---- isobench.disk.span= larger than the scratch area, or not whole MiBs: the header says ---
# what it did with the value (disk.span_note) instead of changing the span silently.
# span_run NAME SIZE: disk-randread-4k-qd1 on the 4 MiB s.img with --disk.span SIZE, $dir/NAME.log.
span_run() {
	st=0
	"$bin" --suite quick --sample_ms 20 --samples 2 --copies 1 --tests disk-randread-4k-qd1 \
		--disk "$dir/s.img" --disk.span "$2" >"$dir/$1.log" 2>/dev/null || st=$?
	ran EXIT_OK "$st" "$dir/$1.log" "--disk.span $2 on a 4 MiB scratch file"
}
span_run span-big 1G
has "$dir/span-big.log" "INFO disk.select=.* disk.span_bytes=3145728 disk.span_note=isobench\.disk\.span=1073741824%20bytes%20is%20larger%20than%20the%20scratch%20area%20\(3145728%20bytes\):%20clamped%20to%20it " \
	"--disk.span 1G: the span is the whole area, and the header says it clamped"
span_run span-odd 1536K
has "$dir/span-odd.log" "INFO disk.select=.* disk.span_bytes=1048576 disk.span_note=isobench\.disk\.span=1572864%20bytes%20rounded%20down%20to%20whole%20MiB%20\(1%20MiB%20I/O%20fits\):%201048576 " \
	"--disk.span 1536K: rounded down to a whole MiB, and the header says so"
span_run span-ok 2M
has "$dir/span-ok.log" "INFO disk.select=.* disk.span_bytes=2097152 " "--disk.span 2M: taken as it is"
lacks "$dir/span-ok.log" "disk.span_note" "--disk.span 2M: no note"

# ---- the report: two disk runs whose labels differ only past the 12th character ------------
"$bin" --suite quick --sample_ms 20 --samples 2 --copies 1 --tests disk-randread-4k-qd1 \
	--disk "$dir/s.img" >"$dir/second.log" 2>/dev/null || true
st=0
"$out/isobench-report" --label disk-run-on-a,disk-run-on-b "$dir/cut.log" "$dir/second.log" \
	>"$dir/compare.txt" 2>/dev/null || st=$?
check "the report compares the two disk runs (EXIT_OK or EXIT_DIFFERS, got $st)" \
	test "$st" -eq "$EXIT_OK" -o "$st" -eq "$EXIT_DIFFERS"
grep -A1 '^Latency percentiles (us; lower is better; ratio' "$dir/compare.txt" | tail -1 >"$dir/pct-head.txt" || true
has "$dir/pct-head.txt" "disk-run-on-a +disk-run-on-b +ratio" \
	"the percentile table heads each run's column with its whole label"

# ---- docs/benchmarks/disk-vs-fio.sh: repeated reads a cache answers are said (issue 30, item 5) ----
# --summary over per-run lines as a run prints them: fio's qd1 reads at 150 us in round 1 and
# 12 us after (the host's page cache filling), ours level: a WARNING names fio's row and the
# factor; level rounds draw none; the table is each tool's median and ours / fio paired by
# round either way.
vsfio=$top/docs/benchmarks/disk-vs-fio.sh
{
	echo "# a header line, skipped"
	for r in 1 2 3; do
		echo "$r disk-randread-4k-qd1 ours 50000 4.1"
		[ "$r" = 1 ] && echo "1 disk-randread-4k-qd1 theirs 150000 4.1" || echo "$r disk-randread-4k-qd1 theirs 12000 4.1"
		echo "$r disk-read-1m ours 1000 4.1"
		echo "$r disk-read-1m theirs 1050 4.1"
	done
} >"$dir/vsfio.lines"
expect_status EXIT_OK "disk-vs-fio.sh --summary: a table from a run's lines" -- bash "$vsfio" --summary "$dir/vsfio.lines"
contains "$tmp/stdout" "disk-read-1m                     1000.0         1050.0    0.952  yes" "disk-vs-fio.sh --summary: read-1m's medians and ratio"
contains "$tmp/stdout" "WARNING: disk-randread-4k-qd1 (fio) read 12.5x faster in rounds 2..3 than in round 1: a cache" \
	"disk-vs-fio.sh: fio's reads 12.5x faster after round 1 draw the cache WARNING"
count_is "$tmp/stdout" "WARNING" 1 "disk-vs-fio.sh: only that row (ours and read-1m level)"
expect_status EXIT_USAGE "disk-vs-fio.sh --summary of a missing file" -- bash "$vsfio" --summary "$dir/none.lines"
# Bad input stops in the script, status 2 with a line saying what is wrong, not a Python
# traceback (a directory, a binary file, WARMUP=x and CACHE_X=x gave one); a file with no
# per-run line (empty, garbled text, a figure such as 1.2.3 or .) is status 1, saying so.
printf 'a\0b\n' >"$dir/vsfio.bin"
: >"$dir/vsfio.empty"
printf '%s\n' 'garbled' '1 disk-read-1m ours 1.2.3 0.1' '1 disk-read-1m theirs . 0.1' >"$dir/vsfio.garbled"
# vsfio_refused WHAT FILE WANT: --summary FILE is status 2, saying WANT, without a traceback.
vsfio_refused() {
	expect_status EXIT_USAGE "disk-vs-fio.sh --summary of a $1" -- bash "$vsfio" --summary "$2"
	contains "$tmp/stderr" "disk-vs-fio: --summary $2: $3" "disk-vs-fio.sh --summary of a $1: says so"
	lacks "$tmp/stderr" "Traceback" "disk-vs-fio.sh --summary of a $1: no traceback"
}
vsfio_refused directory "$dir" "not a readable regular file"
vsfio_refused "binary file" "$dir/vsfio.bin" "a binary file"
for e in WARMUP=x WARMUP=-1 CACHE_X=x CACHE_X=0; do
	expect_status EXIT_USAGE "disk-vs-fio.sh --summary with $e" -- env "$e" bash "$vsfio" --summary "$dir/vsfio.lines"
	contains "$tmp/stderr" "disk-vs-fio: ${e%=*} must be a" "disk-vs-fio.sh with $e: names the variable and the rule"
done
# TESTS is checked before anything runs: an unknown name ran fio's default job under it, a
# name given twice was refused by the table only after every round (no file is signed here).
for t in "disk-foo:unknown name 'disk-foo'" "disk-read-1m disk-flush disk-read-1m:disk-read-1m given twice"; do
	expect_status EXIT_USAGE "disk-vs-fio.sh with TESTS=\"${t%%:*}\"" -- \
		env TESTS="${t%%:*}" bash "$vsfio" "$dir/vsfio-unmade.img" 64M 1 1
	contains "$tmp/stderr" "disk-vs-fio: TESTS: ${t#*:}" "disk-vs-fio.sh with TESTS=\"${t%%:*}\": says so"
	if [ -e "$dir/vsfio-unmade.img" ]; then fail "disk-vs-fio.sh with a bad TESTS made its file"
	else pass "disk-vs-fio.sh with a bad TESTS: nothing made or measured"; fi
done
for f in empty garbled; do
	expect_status CMD_FAILED "disk-vs-fio.sh --summary, $f file" -- bash "$vsfio" --summary "$dir/vsfio.$f"
	contains "$tmp/stderr" "disk-vs-fio: no per-run lines in $dir/vsfio.$f" "disk-vs-fio.sh --summary, $f file: says so"
done
# ours / fio is paired by round (peer-lib.sh's paired_ratio), not the ratio of the medians: five
# rounds of read-1m (MiB/s) on a host that sped up between the two tools of round 2 give medians
# 291 and 251 (1.159), while the rounds' own ratios are 0.996-1.160 with median 1.053. A row
# whose two tools never ran in the same round says so rather than dividing across rounds.
{
	printf '%s\n' "1 249 250" "2 290 250" "3 291 251" "4 318 306" "5 319 303" | while read -r r a b; do
		echo "$r disk-read-1m ours $a 0.1"
		echo "$r disk-read-1m theirs $b 0.1"
	done
	echo "1 disk-flush:flush ours 900 0.1"
	echo "3 disk-flush:flush theirs 800 0.1"
} >"$dir/vsfio-drift.lines"
expect_status EXIT_OK "disk-vs-fio.sh --summary: a drifting host's lines" -- bash "$vsfio" --summary "$dir/vsfio-drift.lines"
contains "$tmp/stdout" "disk-read-1m                      291.0          251.0    1.053  yes         0.996-1.160 (5)" \
	"disk-vs-fio.sh: ours / fio paired by round (1.053, its range over 5 rounds), not the medians' 1.159"
contains "$tmp/stdout" "disk-flush:flush         no round gave a figure above 0 from both tools" \
	"disk-vs-fio.sh: a row whose tools never shared a round gives no ratio"
# Both tools in the same round, but one figure 0: no ratio either, and the row says why (it
# said "no round gave both tools' figures", though both had).
printf '%s\n' "1 disk-flush:write ours 0 0.1" "1 disk-flush:write theirs 800 0.1" >"$dir/vsfio-zero.lines"
expect_status EXIT_OK "disk-vs-fio.sh --summary: a round with a 0 figure" -- bash "$vsfio" --summary "$dir/vsfio-zero.lines"
contains "$tmp/stdout" "disk-flush:write         no round gave a figure above 0 from both tools" \
	"disk-vs-fio.sh: both tools' lines in a round, one 0: no figure above 0 from both"
# "within 15%" judges the ratio unrounded: ours 115.04 against fio's 100 is 1.1504, outside,
# though it shows as 1.150 (paired_ratio's 3 decimals, 1.150, read "yes").
printf '%s\n' "1 disk-read-1m ours 115.04 0.1" "1 disk-read-1m theirs 100 0.1" >"$dir/vsfio-edge.lines"
expect_status EXIT_OK "disk-vs-fio.sh --summary: ours 1.1504 x fio" -- bash "$vsfio" --summary "$dir/vsfio-edge.lines"
contains "$tmp/stdout" "disk-read-1m                      115.0          100.0    1.150  NO          1.150-1.150 (1)" \
	"disk-vs-fio.sh: 1.1504 is not within 15% (judged unrounded, shown as 1.150)"
# Two runs' lines joined give each round twice: the pairing kept the last line of each round
# while the medians took every line, silently; --summary refuses it, before any table.
cat "$dir/vsfio-drift.lines" "$dir/vsfio-drift.lines" >"$dir/vsfio-twice.lines"
expect_status EXIT_USAGE "disk-vs-fio.sh --summary: two runs' lines joined" -- bash "$vsfio" --summary "$dir/vsfio-twice.lines"
contains "$tmp/stderr" "disk-vs-fio: round 1 of disk-read-1m (isobench) appears twice: two runs' lines joined? pair each run's file alone" \
	"disk-vs-fio.sh: names the round and test given twice"
check "disk-vs-fio.sh: no table from them" test ! -s "$tmp/stdout"

# ---- natively, --disk with a relative path: the file under the working directory -----------
st=0
(cd "$dir" && "$bin" --suite quick --sample_ms 20 --samples 2 --copies 1 --tests disk-write-1m \
	--disk s.img) >"$dir/relative.log" 2>"$dir/relative.err" || st=$?
ran EXIT_OK "$st" "$dir/relative.log" "--disk s.img (relative, as --make-scratch s.img takes it)"
has "$dir/relative.log" "INFO disk.select=$dir/s.img disk.device=$dir/s.img disk.kind=file disk.signed=1 " \
	"--disk s.img: the records name the file's absolute path"
count_is "$dir/relative.log" "RESULT test=disk-write-1m " 1 "--disk s.img: the write test runs on it"

# ---- qemu/run --scratch: what QEMU cannot attach is said before, or as "could not start" ----
run=(timeout 120 "$top/qemu/run" --out "$out" --direct --accel tcg --suite quick --copies 1 --tests disk-read-1m)
expect_status EXIT_USAGE "qemu/run --scratch DIR is a usage error" -- "${run[@]}" --scratch "$dir" --check-args
contains "$tmp/stderr" "is a directory, not a disk image" "qemu/run --scratch DIR says it is a directory"
expect_status EXIT_USAGE "qemu/run --scratch F --scratch F is a usage error" -- \
	"${run[@]}" --scratch "$dir/s.img" --scratch "$dir/../disk-break/s.img" --check-args
contains "$tmp/stderr" "is already attached" "qemu/run: the image named twice is said before booting"
# An image another process holds a lock on: QEMU refuses to start (status 7, its message),
# not "log incomplete, try more memory" (status 3).
python3 -c 'import fcntl,sys,time; f=open(sys.argv[1],"r+"); fcntl.lockf(f, fcntl.LOCK_EX); time.sleep(60)' \
	"$dir/s.img" &
locker=$!
kill_at_exit locker
sleep 0.5
expect_status EXIT_NOSTART "qemu/run: QEMU cannot lock the scratch image: could not start" -- \
	"${run[@]}" --scratch "$dir/s.img" --log "$dir/locked.log"
contains "$tmp/stderr" "QEMU failed (status 1)" "qemu/run: the locked image: QEMU's own message is shown"
lacks "$tmp/stderr" "try more memory" "qemu/run: the locked image: no advice about memory"
kill "$locker" 2>/dev/null || true
locker=

# ---- in the image: the host file system under a file-backed scratch fills (ENOSPC) ----------
# QEMU blkdebug answers writes at 4 MiB with ENOSPC. QEMU's default for ENOSPC is to pause the
# guest (werror=enospc), whose own timeouts then never run: the boot only ended at qemu/run's
# timeout (status 5). The guest must see the error: a FAIL with the errno, the run complete.
cat >"$dir/enospc.conf" <<EOF
[inject-error]
event = "write_aio"
iotype = "write"
errno = "28"
sector = "8192"
once = "off"
EOF
"$bin" --make-scratch "$dir/full.img" 8M >/dev/null
st=0
"$top/qemu/run" --out "$out" --direct --accel tcg --timeout 120 --suite quick --copies 1 \
	--tests disk-randread-4k-qd1,disk-write-1m --scratch "blkdebug:$dir/enospc.conf:$dir/full.img" \
	--params "isobench.sample_ms=20 isobench.samples=2 isobench.disk=/dev/vda loglevel=1" \
	--log "$dir/enospc.log" >"$dir/enospc.out" 2>&1 || st=$?
ran EXIT_FAILS "$st" "$dir/enospc.log" "a full host file system under the scratch image: the run completes (with a FAIL)"
has "$dir/enospc.log" "FAIL test=disk-write-1m .*note=pwrite%20of%201048576%20B%20at%20byte%204194304%20of%20/dev/vda:%20[^ ]*\(errno%20[0-9]+\)" \
	"the full file system: disk-write-1m FAILs with the offset and the errno"
count_is "$dir/enospc.log" "RESULT test=disk-randread-4k-qd1 " 1 "the full file system: the read test still runs"
contains "$dir/enospc.log" "reboot: Power down" "the full file system: the guest powers off"

finish
