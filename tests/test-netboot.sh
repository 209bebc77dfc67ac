#!/usr/bin/env bash
# tests/test-netboot.sh — the network-boot tree boots: BIOS PXE, UEFI PXE and iPXE.
#
# In:  OUT/bzImage, OUT/initramfs.cpio.gz, OUT/IDENTITY, OUT/isobench-report, OUT/netboot and
#      OUT/isobench.iso (OUT defaults to out/), image/build-iso.sh, image/build-netboot.sh,
#      qemu-system-x86_64 with Debian's ipxe-qemu option ROMs, OVMF. TCG always.
# Out: one line per assertion, a table of each path's time from QEMU's start to the END
#      record and to QEMU's exit (host wall clock), then "N passed, M failed". Serial logs
#      stay in results/netboot-<path>.log.
# Errors: exit 1 if any check failed.
#
# The tree under test is built the way ./build.sh builds OUT/netboot, from a throw-away ISO
# whose default entry runs a short suite (quick, syscall, 1 copy; 0.1 s menu), as
# tests/test-boot-matrix.sh does for the ISO. Each path boots QEMU with user-mode networking
# and its built-in TFTP server on that tree (restrict=on: the guest reaches nothing but
# QEMU's own DHCP/TFTP; no host network, no root), an e1000 NIC whose option ROM is iPXE
# (BIOS) or iPXE's EFI driver (OVMF), and must reach END with a valid log (isobench-report
# --check) and power itself off:
#   bios-pxe   SeaBIOS -> NIC ROM PXE -> pxelinux.0 -> pxelinux.cfg/default -> kernel
#   uefi-pxe   OVMF PXE -> efi64/syslinux.efi -> efi64/pxelinux.cfg/default -> kernel
#   ipxe       SeaBIOS -> NIC ROM (iPXE) fetches isobench.ipxe and runs it -> kernel
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
mkdir -p "$top/results"
extra="isobench.suite=quick isobench.tests=syscall isobench.copies=1"
timeout_s=${NETBOOT_TIMEOUT:-150}

for f in bzImage initramfs.cpio.gz IDENTITY isobench-report isobench.iso netboot/pxelinux.0; do
	[ -e "$out/$f" ] || { bad "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done
id=$(head -n 1 "$out/IDENTITY")

# ---- the tree ./build.sh made: the ISO's bytes and menu ------------------------------------
xorriso -osirrox on -indev "$out/isobench.iso" -extract /isolinux/isolinux.cfg "$tmp/iso.cfg" \
	-extract /isobench/bzImage "$tmp/iso.bzImage" >/dev/null 2>&1
nb=$out/netboot
check "out/netboot: BIOS menu is the ISO's menu, byte for byte" cmp "$tmp/iso.cfg" "$nb/pxelinux.cfg/default"
check "out/netboot: UEFI menu is the ISO's menu, byte for byte" cmp "$tmp/iso.cfg" "$nb/efi64/pxelinux.cfg/default"
check "out/netboot: kernel is the ISO's kernel" cmp "$tmp/iso.bzImage" "$nb/isobench/bzImage"
check "out/netboot: kernel is out/bzImage" cmp "$out/bzImage" "$nb/isobench/bzImage"
check "out/netboot: initramfs is out/initramfs.cpio.gz" cmp "$out/initramfs.cpio.gz" "$nb/isobench/initramfs.gz"
has "$nb/isobench.ipxe" '^#!ipxe' "out/netboot: isobench.ipxe is an iPXE script"
# Every menu entry's command line appears in the iPXE script, after "initrd=initramfs.gz".
while IFS= read -r line; do
	if grep -qF -- "initrd=initramfs.gz $line" "$nb/isobench.ipxe"; then ok "iPXE script has: ${line:0:60}..."
	else bad "iPXE script lacks the menu's command line: $line"; fi
done < <(sed -n 's/^ *APPEND //p' "$nb/pxelinux.cfg/default")
def=$(awk '$1 == "DEFAULT" { print $2 }' "$nb/pxelinux.cfg/default")
has "$nb/isobench.ipxe" "^choose --timeout [0-9]+ --default $def " "iPXE script defaults to the menu's default entry ($def)"

# ---- a tree with the short run in its default entry -----------------------------------------
ISOBENCH_MENU_TIMEOUT=1 "$top/image/build-iso.sh" "$tmp/t.iso" "$out/bzImage" "$out/initramfs.cpio.gz" "$id" "$extra"
"$top/image/build-netboot.sh" "$tmp/tftp" "$tmp/t.iso"
"$top/image/build-netboot.sh" "$tmp/tftp2" "$tmp/t.iso"
check "build-netboot.sh: the same ISO gives the same tree" diff -r "$tmp/tftp" "$tmp/tftp2"
has "$tmp/tftp/isobench.ipxe" "^kernel isobench/bzImage initrd=initramfs.gz .*$extra" "iPXE default entry carries the run's parameters"
st=0
"$top/image/build-netboot.sh" "$tmp/x" "$tmp/nonexistent.iso" 2>"$tmp/err" || st=$?
status_is CMD_FAILED "$st" "build-netboot.sh: a missing ISO is an error"
has "$tmp/err" '^build-netboot: no such file' "build-netboot.sh: ... with a one-line reason"

# netboot NAME BOOTFILE FIRMWARE: QEMU's DHCP names BOOTFILE, its TFTP serves the tree.
netboot() {
	qboot "$1" "$3" "$top/results/netboot-$1.log" "$timeout_s" \
		-netdev "user,id=n0,restrict=on,tftp=$tmp/tftp,bootfile=$2" \
		-device e1000,netdev=n0,bootindex=1 -boot n
	has "$top/results/netboot-$1.log" "isobench.tests=syscall" "$1: the kernel command line has the menu's parameters"
}

netboot bios-pxe pxelinux.0 bios
netboot uefi-pxe efi64/syslinux.efi uefi
netboot ipxe isobench.ipxe bios

boot_table "quick suite, syscall, 1 copy"
finish
