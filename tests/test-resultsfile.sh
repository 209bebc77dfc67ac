#!/usr/bin/env bash
# tests/test-resultsfile.sh — the results file on the image's own FAT partition (issue 11):
#   - the hybrid image is attached as a USB stick (xHCI usb-storage), an AHCI disk (q35) and
#     an NVMe disk, with a second disk beside it that looks alike (a FAT partition with the
#     same label, another serial); the run (quick, one test; kernel booted directly so each
#     bus costs one short boot) writes ISOBENCH\RESULTS\*.LOG on the image's partition only;
#   - the file is read back with mtools and isobench-report accepts it as a complete run;
#     its name carries the first 8 hex digits of its first BEGIN's run id (the watchdog's too);
#     isobench-report also reads it straight out of the image file;
#   - the second disk's bytes do not change;
#   - the run's watchdog, firing on a stalled test, writes the results file before powering off;
#   - image/build-iso.sh refuses an EFI image larger than El Torito's 65,535 sectors.
#
# In:  OUT/isobench.iso, OUT/bzImage, OUT/initramfs.cpio.gz, OUT/IDENTITY, OUT/isobench-report,
#      qemu-system-x86_64, mtools.
# Out: one line per assertion, then "N passed, M failed"; files stay in results/resultsfile/.
# Errors: exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
dir=$top/results/resultsfile
rm -rf "$dir"
mkdir -p "$dir"
id=$(cut -c1-64 "$out/IDENTITY")
report=$out/isobench-report
base="console=ttyS0,115200 loglevel=4 panic=-1 isobench.suite=quick isobench.copies=1 isobench.tests=syscall isobench.image=$id"

# The FAT partition's byte offset in an image: the MBR partition entry whose type is 0xef.
esp_offset() {
	local i type start
	for i in 0 1 2 3; do
		type=$(od -An -tx1 -j $((446 + 16 * i + 4)) -N1 "$1" | tr -d ' ')
		start=$(od -An -tu4 -j $((446 + 16 * i + 8)) -N4 "$1" | tr -d ' ')
		if [ "$type" = ef ]; then
			echo $((start * 512))
			return 0
		fi
	done
	return 1
}

# The decoy: a disk whose only partition is FAT, label ISOBENCHEFI, another serial.
decoy=$dir/decoy.img
truncate -s 8M "$decoy"
# MBR: partition 1, type 0xef, LBA 2048, 14336 sectors (1 MiB - 8 MiB); then FAT in it.
printf '\xef' | dd of="$decoy" bs=1 seek=$((446 + 4)) conv=notrunc status=none
printf '\x00\x08\x00\x00\x00\x38\x00\x00' | dd of="$decoy" bs=1 seek=$((446 + 8)) conv=notrunc status=none
printf '\x55\xaa' | dd of="$decoy" bs=1 seek=510 conv=notrunc status=none
mformat -i "$decoy@@1M" -N 12345678 -v ISOBENCHEFI -T 14336 -h 2 -s 32 :: >"$dir/decoy.out" 2>&1 ||
	bad "cannot make the decoy disk: $(head -n 1 "$dir/decoy.out")"
mmd -i "$decoy@@1M" ::/ISOBENCH ::/ISOBENCH/RESULTS
decoy_sum=$(sha256_of "$decoy")

# named_by_run FILE WHAT: FILE (a results file) is named <utc>-<ID>.LOG, ID the first 8 hex
# digits of the run id of its first BEGIN (out.c notes it as it writes BEGIN, in memory the
# watchdog shares: the file's name is never read back from the log).
named_by_run() {
	local id
	id=$(grep -o -m 1 ' BEGIN run=[0-9a-f]*' "$1" | cut -c 12-19) || true
	if [ "${#id}" -eq 8 ] && [[ ${1##*/} == *-"$id".LOG ]]; then
		ok "$2: the results file is named by its first run's id ($id)"
	else bad "$2: results file ${1##*/}, first BEGIN's run id '${id:-none}'"; fi
}

# bus NAME QEMU-ARGS...: a copy of the image on that bus, plus the decoy; boot; check.
# $more: words added to the command line of this boot (the NVMe boot's replicates).
bus() {
	local name=$1 img=$dir/$1.img st=0 off
	shift
	cp "$out/isobench.iso" "$img"
	timeout -k 5 300 qemu-system-x86_64 -nodefaults -accel tcg -cpu max -m 512M -smp 1 \
		-display none -no-reboot -kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz" \
		-append "$base${more:+ $more}" -serial "file:$dir/$name.log" "$@" >"$dir/$name.qemu" 2>&1 || st=$?
	status_is EXIT_OK "$st" "$name: QEMU ends"
	has "$dir/$name.log" "isobench: results file written: [a-z0-9]+:/ISOBENCH/RESULTS/[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}\.LOG" \
		"$name: the runner says where it wrote the results file"
	off=$(esp_offset "$img") || { bad "$name: no EFI partition in the image"; return; }
	rm -rf "$dir/$name.got" && mkdir -p "$dir/$name.got"
	if mcopy -n -i "$img@@$off" "::/ISOBENCH/RESULTS/*" "$dir/$name.got/" >/dev/null 2>&1 &&
		[ "$(find "$dir/$name.got" -name '*.LOG' | wc -l)" -eq 1 ]; then
		ok "$name: mtools reads one results file back from the image"
		named_by_run "$(find "$dir/$name.got" -name '*.LOG')" "$name"
		st=0
		"$report" --check "$dir/$name.got"/*.LOG >"$dir/$name.check" 2>&1 || st=$?
		status_is EXIT_OK "$st" "$name: isobench-report accepts the results file as a complete run"
	else
		bad "$name: no results file in ::/ISOBENCH/RESULTS of $img"
	fi
	st=0
	"$report" --check "$img" >"$dir/$name.imgcheck" 2>&1 || st=$?
	status_is EXIT_OK "$st" "$name: isobench-report reads the log straight out of the image file"
	if [ "$(sha256_of "$decoy")" = "$decoy_sum" ]; then
		ok "$name: the second disk (same label, other serial) is untouched"
	else
		bad "$name: the second disk was written"
	fi
}

bus usb -M pc -device qemu-xhci,id=xhci \
	-drive "if=none,id=stick,format=raw,file=$dir/usb.img" -device usb-storage,bus=xhci.0,drive=stick \
	-drive "if=none,id=dec,format=raw,file=$decoy" -device usb-storage,bus=xhci.0,drive=dec
bus ahci -M q35 -drive "if=none,id=d0,format=raw,file=$dir/ahci.img" -device ide-hd,drive=d0,bus=ide.0 \
	-drive "if=none,id=dec,format=raw,file=$decoy" -device ide-hd,drive=dec,bus=ide.1
# The NVMe boot runs the suite three times (isobench.repeat=3, issue 45: replicates in one
# boot), replay on as the bare-metal menu entry has it: three complete runs, each its own run
# id and run.replicate 1..3, on the console and in the results file, which isobench-report
# gives to their side as three replicates (the replay's copies counted once).
more="isobench.repeat=3 isobench.replay=1" \
	bus nvme -M pc -drive "if=none,id=n0,format=raw,file=$dir/nvme.img" -device nvme,serial=isob1,drive=n0 \
	-drive "if=none,id=dec,format=raw,file=$decoy" -device nvme,serial=decoy,drive=dec
# replicates FILE WHAT: FILE holds three complete runs of one boot as isobench.repeat=3 writes them.
replicates() {
	local f=$1 what=$2 st=0
	# the first copy of each run (the replay repeats them after the last END)
	awk '/ BEGIN run=/ { n++ } n <= 3' "$f" >"$f.first"
	count_is "$f.first" " BEGIN run=" 3 "$what: three runs (BEGIN)"
	if [ "$(grep -o ' BEGIN run=[0-9a-f]*' "$f.first" | sort -u | wc -l)" -eq 3 ]; then
		ok "$what: each run has its own run id"
	else
		bad "$what: run ids repeat: $(grep -o ' BEGIN run=[0-9a-f]*' "$f.first" | tr '\n' ' ')"
	fi
	for k in 1 2 3; do
		count_is "$f.first" "INFO .*run\.repeat=3 run\.replicate=$k( |\*)" 1 "$what: run $k says run.replicate=$k"
	done
	count_is "$f.first" "run\.round=" 0 "$what: no run.round (replicates are not interleaved rounds)"
	count_is "$f.first" " END records=[0-9]+ results=1 fails=0 skips=0 errors=0 status=ok" 3 \
		"$what: three ENDs, status ok, each counting its own"
	"$report" --label a,b "$f" "$dir/other-side.log" >"$f.sides" 2>&1 || st=$?
	has "$f.sides" "^side 1: a, 3 run\(s\)" "$what: isobench-report reads the boot as three replicates of its side"
}
# the other side: three native runs of the same test (a side of its own, not the same runs)
"$out/isobench" --suite quick --copies 1 --tests syscall --repeat 3 >"$dir/other-side.log" 2>/dev/null || true
replicates "$dir/nvme.log" "repeat=3, console"
rlog=$(find "$dir/nvme.got" -name '*.LOG' 2>/dev/null | head -n 1)
if [ -n "$rlog" ]; then
	replicates "$rlog" "repeat=3, results file"
else
	bad "repeat=3: no results file to read the replicates from"
fi

# The watchdog's power-off writes the results file too: a test that stalls (selftest-stall,
# its own timeout far away) past the run's budget (isobench.watchdog=6), on the NVMe bus.
wd=$dir/watchdog.img
cp "$out/isobench.iso" "$wd"
st=0
timeout -k 5 300 qemu-system-x86_64 -nodefaults -accel tcg -cpu max -m 512M -smp 1 \
	-display none -no-reboot -kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz" \
	-append "${base/isobench.tests=syscall/isobench.tests=selftest-stall} isobench.timeout=120 isobench.watchdog=6" \
	-serial "file:$dir/watchdog.log" -M pc -drive "if=none,id=n0,format=raw,file=$wd" \
	-device nvme,serial=isob1,drive=n0 >"$dir/watchdog.qemu" 2>&1 || st=$?
status_is EXIT_OK "$st" "watchdog: QEMU ends"
has "$dir/watchdog.log" "FAIL test=watchdog reason=the%20run%20exceeded" "watchdog: it fired"
has "$dir/watchdog.log" "isobench: results file written: [a-z0-9]+:/ISOBENCH/RESULTS/" \
	"watchdog: the watchdog says where it wrote the results file"
rm -rf "$dir/watchdog.got" && mkdir -p "$dir/watchdog.got"
if off=$(esp_offset "$wd") && mcopy -n -i "$wd@@$off" "::/ISOBENCH/RESULTS/*" "$dir/watchdog.got/" \
	>/dev/null 2>&1 && [ "$(find "$dir/watchdog.got" -name '*.LOG' | wc -l)" -eq 1 ]; then
	has "$dir/watchdog.got"/*.LOG "FAIL test=watchdog" "watchdog: the results file holds the watchdog's FAIL"
	named_by_run "$(find "$dir/watchdog.got" -name '*.LOG')" "watchdog (its own process)"
	st=0
	"$report" --check "$dir/watchdog.got"/*.LOG >"$dir/watchdog.check" 2>&1 || st=$?
	status_is EXIT_INCOMPLETE "$st" "watchdog: the results file is read as the incomplete run it is"
else
	bad "watchdog: no results file in ::/ISOBENCH/RESULTS of $wd"
fi

# A log file that is not an image still reads as itself.
st=0
"$report" --check "$dir/usb.log" >/dev/null 2>&1 || st=$?
status_is EXIT_OK "$st" "a serial log still reads as a log"

# El Torito: the EFI image's sector count is 16 bits; the build refuses what it cannot name.
st=0
ISOBENCH_RESULTS_MIB=40 "$top/image/build-iso.sh" "$dir/big.iso" "$out/bzImage" \
	"$out/initramfs.cpio.gz" test-id >"$dir/big.out" 2>&1 || st=$?
status_is EXIT_FAILS "$st" "build-iso refuses a 40 MiB results space (EFI image > 65,535 sectors)"
has "$dir/big.out" "exceeds El Torito's 65,535 sectors" "and says why"

finish
