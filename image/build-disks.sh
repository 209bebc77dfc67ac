#!/usr/bin/env bash
# image/build-disks.sh OUTDIR ISO [raw] — the image as disk files for hypervisors and clouds.
#
# In:  ISO, an isobench hybrid ISO (image/build-iso.sh): as a disk it boots by BIOS through
#      its MBR and by UEFI through its GPT and EFI system partition. qemu-img (Debian package
#      qemu-utils).
# Out: OUTDIR/isobench.raw    the ISO's bytes, zero-padded to a whole MiB (clouds want sizes
#                             in whole MiB; Google Compute Engine wants whole GiB: see README)
#      OUTDIR/isobench.qcow2  QEMU/KVM, libvirt, Proxmox, OpenStack
#      OUTDIR/isobench.vmdk   VMware Workstation/Fusion/Player, VirtualBox (monolithic sparse;
#                             ESXi: vmkfstools -i, see README)
#      OUTDIR/isobench.vhdx   Hyper-V, generation 2 (UEFI; turn Secure Boot off) or 1 (BIOS)
#      Every file holds the same disk contents (qemu-img compare), so every one boots the same
#      kernel, initramfs and menu as the ISO. qcow2/vmdk/vhdx carry random identifiers
#      (VMDK CID, VHDX GUIDs): unlike the ISO they are not byte-reproducible.
#      With `raw`: OUTDIR/isobench.raw only (no qemu-img; ARCH=arm64 ./build.sh).
# Errors: exits 1 with one line "build-disks: <reason>" on stderr; 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "build-disks: MSG", exit 1
if [ $# -lt 2 ] || [ $# -gt 3 ] || [ "${3:-raw}" != raw ]; then
	echo "usage: image/build-disks.sh OUTDIR ISO [raw]" >&2
	exit 2
fi
dest=$1 iso=$2 only=${3:-}
[ -f "$iso" ] || die "no such file: $iso"
[ -n "$only" ] || command -v qemu-img >/dev/null || die "qemu-img not found (apt-get install qemu-utils)"
mkdir -p "$dest"
raw=$dest/isobench.raw
cp "$iso" "$raw.tmp" || die "cannot write $raw"
mib=$((($(stat -c %s "$iso") + 1048575) / 1048576))
truncate -s "${mib}M" "$raw.tmp"
mv "$raw.tmp" "$raw"
[ -z "$only" ] || exit 0
# name:format:options
for spec in qcow2:qcow2: vmdk:vmdk:subformat=monolithicSparse vhdx:vhdx:subformat=dynamic; do
	IFS=: read -r ext fmt opts <<<"$spec"
	f=$dest/isobench.$ext
	qemu-img convert -f raw -O "$fmt" ${opts:+-o "$opts"} "$raw" "$f.tmp" 2>"$dest/.err" ||
		die "qemu-img convert to $fmt failed: $(head -n 1 "$dest/.err")"
	qemu-img compare -q -f raw -F "$fmt" "$raw" "$f.tmp" 2>"$dest/.err" ||
		die "$f: its contents differ from $raw after conversion: $(head -n 1 "$dest/.err")"
	mv "$f.tmp" "$f"
done
rm -f "$dest/.err"
