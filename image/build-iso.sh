#!/usr/bin/env bash
# image/build-iso.sh OUT.iso BZIMAGE INITRAMFS IDENTITY [EXTRA_APPEND] — hybrid boot ISO.
#
# In:  BZIMAGE, INITRAMFS (gzip cpio), IDENTITY (a word naming this image, [A-Za-z0-9._+:@-],
#      passed to the guest as isobench.image=), optional EXTRA_APPEND (kernel parameters for
#      the default menu entry only; a key=value word there replaces the entry's own word with
#      the same key, so "isobench.suite=quick" switches the suite). image/isolinux.cfg (menu
#      template), Debian's isolinux + syslinux-common, xorriso. SOURCE_DATE_EPOCH (default 0)
#      fixes every date and the volume UUID, so the same inputs give the same bytes.
# Out: OUT.iso, bootable by BIOS as a CD (El Torito, isolinux) and, written raw to a USB stick
#      or used as a disk image, through the isohybrid MBR.
# Errors: exits 1 with one line "build-iso: <reason>" on stderr; exits 2 on a usage error.
set -euo pipefail

die() { echo "build-iso: $*" >&2; exit 1; }
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
	echo "usage: image/build-iso.sh OUT.iso BZIMAGE INITRAMFS IDENTITY [EXTRA_APPEND]" >&2
	exit 2
fi
out=$1 bzimage=$2 initramfs=$3 id=$4 extra=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
epoch=${SOURCE_DATE_EPOCH:-0}
isolinux_dir=${ISOLINUX_DIR:-/usr/lib/ISOLINUX}
syslinux_dir=${SYSLINUX_BIOS_DIR:-/usr/lib/syslinux/modules/bios}
common="console=tty0 console=ttyS0,115200 loglevel=4"

case "$epoch" in '' | *[!0-9]*) die "SOURCE_DATE_EPOCH must be a non-negative integer, got '$epoch'" ;; esac
[[ "$id" =~ ^[A-Za-z0-9._+:@-]{1,128}$ ]] || die "IDENTITY must be 1-128 chars of [A-Za-z0-9._+:@-], got '$id'"
[[ "$extra" != *$'\n'* ]] || die "EXTRA_APPEND must be one line"
[ -f "$bzimage" ] || die "no such file: $bzimage"
[ -f "$initramfs" ] || die "no such file: $initramfs"
[ -f "$here/isolinux.cfg" ] || die "no template $here/isolinux.cfg"
command -v xorriso >/dev/null || die "xorriso not found (apt-get install xorriso)"
for f in "$isolinux_dir/isolinux.bin" "$isolinux_dir/isohdpfx.bin" \
	"$syslinux_dir/ldlinux.c32" "$syslinux_dir/menu.c32" "$syslinux_dir/libutil.c32"; do
	[ -f "$f" ] || die "missing $f (apt-get install isolinux syslinux-common)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/isolinux" "$root/isobench"
cp "$isolinux_dir/isolinux.bin" "$syslinux_dir/ldlinux.c32" "$syslinux_dir/menu.c32" \
	"$syslinux_dir/libutil.c32" "$root/isolinux/"
cp "$bzimage" "$root/isobench/bzImage"
cp "$initramfs" "$root/isobench/initramfs.gz"
printf '%s\n' "$id" >"$root/isobench/IDENTITY"

# The default entry's line: its own words, minus those EXTRA_APPEND overrides, then EXTRA_APPEND.
awk -v common="$common" -v id="$id" -v extra="$extra" '
	function key(w) { sub(/=.*/, "", w); return w }
	/^[ \t]*#/ { next }   # template comments stay in the template
	{ gsub(/@COMMON@/, common); gsub(/@ID@/, id) }
	/@EXTRA@/ {
		sub(/[ \t]*@EXTRA@/, "")
		ne = split(extra, ew, /[ \t]+/)
		for (i = 1; i <= ne; i++) if (ew[i] != "") drop[key(ew[i])] = 1
		n = split($0, w, /[ \t]+/); line = ""
		for (i = 1; i <= n; i++) {
			if (w[i] == "") { line = line "  "; continue }   # keep the indent
			if (w[i] != "APPEND" && key(w[i]) in drop) continue
			line = line w[i] " "
		}
		for (i = 1; i <= ne; i++) if (ew[i] != "") line = line ew[i] " "
		sub(/ +$/, "", line); $0 = line
	}
	{ print }' "$here/isolinux.cfg" >"$root/isolinux/isolinux.cfg"
grep -q '@[A-Z]*@' "$root/isolinux/isolinux.cfg" && die "unreplaced placeholder in isolinux.cfg"
while read -r line; do
	[ "${#line}" -le 2040 ] || die "kernel command line longer than 2048 bytes: ${line:0:60}..."
done < <(sed -n 's/^ *APPEND //p' "$root/isolinux/isolinux.cfg")

# UEFI: a later issue. It will add an El Torito EFI image here (a FAT file made with mtools
# holding BOOTX64.EFI, its config, kernel and initramfs; syslinux.efi cannot read ISO 9660)
# and, below, "-eltorito-alt-boot -e efi/efiboot.img -no-emul-boot -isohybrid-gpt-basdat".

find "$root" -exec touch -h -d "@$epoch" {} +
date=$(date -u -d "@$epoch" +%Y%m%d%H%M%S00)
# xorriso honours SOURCE_DATE_EPOCH itself (volume dates, UUID, no "now" timestamps);
# --modification-date makes the UUID explicit for older versions.
SOURCE_DATE_EPOCH=$epoch xorriso -as mkisofs -quiet \
	-o "$tmp/out.iso" \
	-V ISOBENCH --modification-date="$date" \
	-r -J -joliet-long \
	-isohybrid-mbr "$isolinux_dir/isohdpfx.bin" \
	-c isolinux/boot.cat -b isolinux/isolinux.bin \
	-no-emul-boot -boot-load-size 4 -boot-info-table \
	"$root" >"$tmp/xorriso.log" 2>&1 ||
	die "xorriso failed: $(grep -m1 -i 'FAILURE\|SORRY\|error' "$tmp/xorriso.log" || tail -n 1 "$tmp/xorriso.log")"
mkdir -p "$(dirname "$out")"
cp "$tmp/out.iso" "$out.tmp.$$" || die "cannot write $out"
mv "$out.tmp.$$" "$out"
