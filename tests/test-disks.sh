#!/usr/bin/env bash
# tests/test-disks.sh — the image as raw, qcow2, VMDK and VHDX disks: converted and booted.
#
# In:  OUT/bzImage, OUT/initramfs.cpio.gz, OUT/IDENTITY, OUT/isobench-report (OUT defaults to
#      out/), image/build-iso.sh, image/build-disks.sh, qemu-img, qemu-system-x86_64, OVMF.
# Out: one line per assertion, a table of boot times, "N passed, M failed". Serial logs stay
#      in results/disk-<boot>.log.
# Errors: exit 1 if any check failed.
#
# The disks are made from a throw-away ISO whose default entry runs a short suite (quick,
# syscall, 1 copy; 0.1 s menu). Each format must be what its name says (qemu-img info) and
# hold the raw disk's contents (qemu-img compare); the raw disk boots by BIOS and the qcow2
# disk by UEFI (as a Hyper-V generation 2 or cloud UEFI VM would), each to a complete run
# and power-off. VMDK and VHDX are not booted here (QEMU's readers of them are not the
# hypervisors that matter); their contents equal the raw disk's that did boot.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
mkdir -p "$top/results"
extra="isobench.suite=quick isobench.tests=syscall isobench.copies=1"

for f in bzImage initramfs.cpio.gz IDENTITY isobench-report; do
	[ -e "$out/$f" ] || { bad "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done
id=$(head -n 1 "$out/IDENTITY")

ISOBENCH_MENU_TIMEOUT=1 "$top/image/build-iso.sh" "$tmp/t.iso" "$out/bzImage" "$out/initramfs.cpio.gz" "$id" "$extra"
st=0
"$top/image/build-disks.sh" "$tmp/d" "$tmp/t.iso" || st=$?
status_is EXIT_OK "$st" "build-disks.sh converts the ISO"
d=$tmp/d
size=$(stat -c %s "$d/isobench.raw")
if [ $((size % 1048576)) -eq 0 ] && [ "$size" -ge "$(stat -c %s "$tmp/t.iso")" ]; then
	ok "raw disk: a whole number of MiB ($((size / 1048576)) MiB), not smaller than the ISO"
else
	bad "raw disk: size $size is not a whole MiB at least the ISO's"
fi
check "raw disk: begins with the ISO's bytes" cmp -n "$(stat -c %s "$tmp/t.iso")" "$tmp/t.iso" "$d/isobench.raw"
for fmt in qcow2 vmdk vhdx; do
	got=$(qemu-img info --output=json "$d/isobench.$fmt" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["format"])' || true)
	if [ "$got" = "$fmt" ]; then ok "$fmt: qemu-img reads it as $fmt"; else bad "$fmt: qemu-img reads it as '$got'"; fi
	check "$fmt: same contents as the raw disk (qemu-img compare)" qemu-img compare -q -f raw -F "$fmt" "$d/isobench.raw" "$d/isobench.$fmt"
done
st=0
"$top/image/build-disks.sh" "$tmp/e" "$tmp/none.iso" 2>"$tmp/err" || st=$?
status_is CMD_FAILED "$st" "build-disks.sh: a missing ISO is an error"
has "$tmp/err" '^build-disks: no such file' "build-disks.sh: ... with a one-line reason"

qboot raw-bios bios "$top/results/disk-raw-bios.log" 150 \
	-drive "file=$d/isobench.raw,format=raw,media=disk,snapshot=on"
qboot qcow2-uefi uefi "$top/results/disk-qcow2-uefi.log" 150 \
	-drive "file=$d/isobench.qcow2,format=qcow2,media=disk,snapshot=on"
boot_table "quick suite, syscall, 1 copy"
finish
