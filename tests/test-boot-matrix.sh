#!/usr/bin/env bash
# tests/test-boot-matrix.sh [--bisect-mem] — the image boots everywhere that matters, proven.
#
# In:  OUT/bzImage, OUT/vmlinux, OUT/initramfs.cpio.gz, OUT/IDENTITY (OUT defaults to out/),
#      image/build-iso.sh, qemu/run, qemu-system-x86_64, OVMF. TCG always (comparable times).
# Out: one line per assertion; a table of cells with boot-to-BEGIN and boot-to-power-off
#      times (host wall clock from QEMU's start, as qemu/run measures them); then
#      "N passed, M failed". Logs stay in results/matrix-<cell>.log.
#      --bisect-mem: instead, find the smallest --mem (MiB) a direct boot on pc completes in.
#      --screen: only the screen check (results/matrix-screen.{txt,ppm}).
# Errors: exit 1 if any cell failed.
#
# Every cell boots a minimal run (--suite quick --tests syscall --copies 1) and must reach
# END with a valid log and power itself off (qemu/run status 0 and "reboot: Power down"):
#   BIOS and UEFI x CD and disk x pc and q35 (the ISO; one throw-away ISO for all, built from
#   OUT's kernel and initramfs with the run's parameters and a 0.1 s menu), direct (bzImage)
#   on pc, q35 and microvm, PVH (vmlinux) on pc and microvm; on direct-pc: 1 and 4 vCPUs,
#   128 MiB, 2 GiB; the documented smallest memory (direct, BIOS CD, UEFI CD); UEFI without syslinux.efi (the kernel's EFI stub started by
#   OVMF's shell from startup.nsh); and the screen without a serial port (VGA text, halt=wait:
#   the table must be in the VGA text buffer, and Enter must power the guest off).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
qpid=
kill_at_exit qpid
mkdir -p "$top/results"
run_params=(--suite quick --tests syscall --copies 1)
extra="isobench.suite=quick isobench.tests=syscall isobench.copies=1"
# Smallest memory found by --bisect-mem and by hand for UEFI (docs/benchmarks/boot.md); the
# matrix proves each still suffices. UEFI needs more: OVMF and syslinux.efi live in RAM too.
MIN_MEM=${MIN_MEM:-48M} UEFI_MIN_MEM=${UEFI_MIN_MEM:-120M}

for f in bzImage vmlinux initramfs.cpio.gz IDENTITY; do
	[ -f "$out/$f" ] || { bad "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done
id=$(head -n 1 "$out/IDENTITY")

# cell NAME QEMU/RUN-ARGS...: one boot through qemu/run under TCG, judged and timed (tests/lib.sh's
# qboot: status, valid log, power-off, this image's identity; a row of boot_rows); its log
# stays in results/matrix-NAME.log.
cell() {
	local name=$1
	shift
	qboot "$name" qemu/run "$top/results/matrix-$name.log" "${CELL_TIMEOUT:-120}" --accel tcg "$@"
}

# ---- the screen, without a serial port ---------------------------------------------------------
# Direct boot on pc, VGA text mode, console=tty0 only (the "screen only" menu entry's line
# with the quick run), no serial device at all. The VGA text buffer (0xb8000) is read through
# the QEMU monitor until "Press Enter" shows; the System Benchmarks table must be on screen
# then; a screenshot goes to results/matrix-screen.ppm; Enter (sendkey) must power it off.
screen_test() {
	local mon=$tmp/mon t0 n=0 st=0 txt=$tmp/vga.txt
	mkfifo "$mon.in" "$mon.out"
	t0=$(date +%s)
	timeout 120 qemu-system-x86_64 -nodefaults -accel tcg -cpu max -M pc -m 512 -smp 2 \
		-vga std -display none -no-reboot -chardev "pipe,id=mon,path=$mon" -mon chardev=mon \
		-kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz" \
		-append "console=tty0 loglevel=4 isobench.halt=wait isobench.image=$id $extra panic=-1" \
		>"$tmp/screen.qemu" 2>&1 &
	qpid=$!
	exec 7<>"$mon.in" 8<>"$mon.out"
	: >"$txt"
	while kill -0 "$qpid" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 100 ]; do
		sleep 2
		rm -f "$tmp/vga.bin"
		echo "pmemsave 0xb8000 32768 \"$tmp/vga.bin\"" >&7
		sleep 0.5
		timeout 0.2 cat <&8 >/dev/null || true # drain the monitor's echo, or QEMU blocks on it
		[ -s "$tmp/vga.bin" ] || continue
		# Every other byte is an attribute; 80 characters a row. vgacon scrolls by moving the
		# display origin through all 32 KiB, so keep the 25 rows that end with "Press Enter".
		od -An -v -c -w2 "$tmp/vga.bin" | cut -c4 | tr -d '\n' | fold -w 80 >"$tmp/vga.all" || true
		if grep -q 'Press Enter' "$tmp/vga.all"; then
			head -n "$(grep -n 'Press Enter' "$tmp/vga.all" | tail -n 1 | cut -d: -f1)" "$tmp/vga.all" |
				tail -n 25 >"$txt"
			break
		fi
		tail -n 3 "$tmp/vga.all" >"$txt"
		n=$((n + 1))
	done
	if grep -q 'Press Enter' "$txt"; then
		ok "screen only: the run finished and waits for Enter on the VGA console"
		if grep -q 'System Benchmarks' "$txt" && grep -Eq 'System Call Overhead +[0-9.]+ +[0-9.]+ +[0-9.]+' "$txt"; then
			ok "screen only: the results table is readable on screen"
		else
			bad "screen only: no results table in the VGA text buffer: $(tr -s ' ' <"$txt" | tail -c 300)"
		fi
		cp "$txt" "$top/results/matrix-screen.txt"
		echo "screendump \"$top/results/matrix-screen.ppm\"" >&7
		sleep 1
		echo "sendkey ret" >&7
		wait "$qpid" || st=$?
		qpid=
		status_is EXIT_OK "$st" "screen only: Enter powers the guest off (QEMU exited by itself)"
	else
		bad "screen only: no 'Press Enter' on the VGA console within 100 s: $(tr -s ' ' <"$txt" | tail -c 300)"
		kill "$qpid" 2>/dev/null || true
		qpid=
	fi
	exec 7>&- 8>&-
}
if [ "${1:-}" = --bisect-mem ]; then
	lo=16 hi=128 # MiB: lo fails (assumed), hi must work
	CELL_TIMEOUT=60 cell "mem-${hi}M" --direct --mem "${hi}M" "${run_params[@]}"
	[ "$fail" -eq 0 ] || { echo "direct boot fails even at ${hi}M"; finish; exit 1; }
	while [ $((hi - lo)) -gt 4 ]; do
		mid=$(((lo + hi) / 2))
		f0=$fail
		CELL_TIMEOUT=60 cell "mem-${mid}M" --direct --mem "${mid}M" "${run_params[@]}"
		if [ "$fail" -eq "$f0" ]; then hi=$mid; else lo=$mid; fail=$f0; fi
	done
	echo "smallest memory that completes (direct, pc, 2 vCPUs, 4 MiB steps): ${hi}M"
	boot_table "direct boots, bisecting --mem"
	exit 0
fi

if [ "${1:-}" = --screen ]; then
	screen_test
	finish
	exit
fi

# One throw-away ISO for every ISO cell: the run's parameters in the default entry, 0.1 s menu.
ISOBENCH_MENU_TIMEOUT=1 "$top/image/build-iso.sh" "$tmp/m.iso" "$out/bzImage" \
	"$out/initramfs.cpio.gz" "$id" "$extra"
ISOBENCH_EFI_LOADER=stub ISOBENCH_MENU_TIMEOUT=1 "$top/image/build-iso.sh" "$tmp/stub.iso" \
	"$out/bzImage" "$out/initramfs.cpio.gz" "$id" "$extra"

for fw in bios uefi; do
	for medium in cdrom disk; do
		for m in pc q35; do
			cell "$fw-$medium-$m" --iso "$tmp/m.iso" --firmware "$fw" --medium "$medium" --machine "$m"
		done
	done
done
cell direct-pc --direct --machine pc "${run_params[@]}"
cell direct-q35 --direct --machine q35 "${run_params[@]}"
cell direct-microvm --direct --machine microvm "${run_params[@]}"
cell pvh-pc --pvh --machine pc "${run_params[@]}"
cell pvh-microvm --pvh --machine microvm "${run_params[@]}"
cell direct-pc-1cpu --direct --cpus 1 "${run_params[@]}"
cell direct-pc-4cpu --direct --cpus 4 "${run_params[@]}"
cell direct-pc-128M --direct --mem 128M "${run_params[@]}"
cell direct-pc-2G --direct --mem 2G "${run_params[@]}"
cell "direct-pc-$MIN_MEM" --direct --mem "$MIN_MEM" "${run_params[@]}"
cell "bios-cdrom-pc-$MIN_MEM" --iso "$tmp/m.iso" --mem "$MIN_MEM"
cell "uefi-cdrom-pc-$UEFI_MIN_MEM" --iso "$tmp/m.iso" --firmware uefi --mem "$UEFI_MIN_MEM"
# UEFI without syslinux.efi: BOOTX64.EFI is absent, OVMF falls back to its shell, which runs
# startup.nsh after its 5 s countdown and starts the kernel's EFI stub.
cell uefi-stub-cdrom-q35 --iso "$tmp/stub.iso" --firmware uefi --medium cdrom --machine q35
screen_test


boot_table "quick suite, syscall, 1 copy; see docs/benchmarks/boot.md"
finish
