#!/usr/bin/env bash
# image/build-netboot.sh OUTDIR ISO — a network-boot tree (TFTP/HTTP root) made from the ISO.
#
# In:  ISO, an isobench ISO from image/build-iso.sh; Debian's pxelinux, syslinux-common,
#      syslinux-efi (loaders and modules), xorriso (to read the ISO). SOURCE_DATE_EPOCH
#      (default 0) fixes the files' mtimes.
# Out: OUTDIR, replaced as a whole, to serve as the root of a TFTP (or HTTP) server:
#        pxelinux.0, ldlinux.c32, menu.c32, libutil.c32    BIOS PXE: DHCP boot file pxelinux.0
#        pxelinux.cfg/default                              the BIOS menu
#        efi64/syslinux.efi, ldlinux.e64, *.c32            UEFI PXE (x86-64): boot file
#        efi64/pxelinux.cfg/default                        efi64/syslinux.efi, and its menu
#        efi64/isobench -> ../isobench                     (symbolic link, see below)
#        isobench.ipxe                                     iPXE: boot file (or chain target)
#        isobench/bzImage, initramfs.gz, IDENTITY          the ISO's kernel and initramfs
#      The menus are the ISO's isolinux.cfg, copied from the ISO itself: the one template
#      (image/isolinux.cfg, rendered by build-iso.sh) gives CD, USB, BIOS PXE and UEFI PXE the
#      same entries and the same kernel command lines, byte for byte; the kernel and initramfs
#      are the ISO's bytes too. isobench.ipxe is the same menu in iPXE's script language
#      (same labels, default, timeout, files and command lines), generated from that file;
#      its file names are relative, so iPXE fetches them from wherever it got the script
#      (tftp:// or http://).
# Errors: exits 1 with one line "build-netboot: <reason>" on stderr; 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "build-netboot: MSG", exit 1
if [ $# -ne 2 ]; then
	echo "usage: image/build-netboot.sh OUTDIR ISO" >&2
	exit 2
fi
dest=$1 iso=$2
epoch=${SOURCE_DATE_EPOCH:-0}
pxe_dir=${PXELINUX_DIR:-/usr/lib/PXELINUX}
bios_mod=${SYSLINUX_BIOS_DIR:-/usr/lib/syslinux/modules/bios}
efi_dir=${SYSLINUX_EFI_DIR:-/usr/lib/SYSLINUX.EFI/efi64}
efi_mod=${SYSLINUX_EFI64_DIR:-/usr/lib/syslinux/modules/efi64}

case "$epoch" in '' | *[!0-9]*) die "SOURCE_DATE_EPOCH must be a non-negative integer, got '$epoch'" ;; esac
[ -f "$iso" ] || die "no such file: $iso"
command -v xorriso >/dev/null || die "xorriso not found (apt-get install xorriso)"
for f in "$pxe_dir/pxelinux.0" "$bios_mod/ldlinux.c32" "$bios_mod/menu.c32" "$bios_mod/libutil.c32"; do
	[ -f "$f" ] || die "missing $f (apt-get install pxelinux syslinux-common)"
done
for f in "$efi_dir/syslinux.efi" "$efi_mod/ldlinux.e64" "$efi_mod/menu.c32" "$efi_mod/libutil.c32" \
	"$efi_mod/libcom32.c32"; do
	[ -f "$f" ] || die "missing $f (apt-get install syslinux-efi syslinux-common)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t=$tmp/tree
mkdir -p "$t/pxelinux.cfg" "$t/efi64/pxelinux.cfg" "$t/isobench"
for f in isolinux/isolinux.cfg isobench/bzImage isobench/initramfs.gz isobench/IDENTITY; do
	xorriso -osirrox on -indev "$iso" -extract "/$f" "$tmp/x/$f" >"$tmp/x.log" 2>&1 ||
		die "cannot extract /$f from $iso: $(tail -n 1 "$tmp/x.log")"
done
chmod -R u+w "$tmp/x"
cfg=$tmp/x/isolinux/isolinux.cfg
cp "$tmp"/x/isobench/* "$t/isobench/"
cp "$pxe_dir/pxelinux.0" "$bios_mod/ldlinux.c32" "$bios_mod/menu.c32" "$bios_mod/libutil.c32" "$t/"
cp "$cfg" "$t/pxelinux.cfg/default"
cp "$efi_dir/syslinux.efi" "$efi_mod/ldlinux.e64" "$efi_mod/menu.c32" "$efi_mod/libutil.c32" \
	"$efi_mod/libcom32.c32" "$t/efi64/"
cp "$cfg" "$t/efi64/pxelinux.cfg/default"
# syslinux.efi (6.04) puts its own directory in front of every path, absolute ones too: it asks
# the server for "efi64//isobench/bzImage" where pxelinux.0 asks for "/isobench/bzImage". A
# link, not a copy: TFTP servers (dnsmasq, tftpd-hpa, QEMU's) and HTTP servers follow it.
ln -s ../isobench "$t/efi64/isobench"

# The same menu for iPXE. A syslinux LINUX/INITRD path "/isobench/x" becomes "isobench/x"
# (relative to the script's own URI); "initrd=" names the initramfs for the kernel's EFI stub
# when iPXE runs under UEFI (under BIOS the kernel ignores it).
awk -v src="image/isolinux.cfg (via $(basename "$iso"))" '
	function flush() {
		if (label == "") return
		n++; lab[n] = label; title[n] = mlabel != "" ? mlabel : label
		kern[n] = linux; ird[n] = initrd; app[n] = append
		label = mlabel = linux = initrd = append = ""
	}
	function rel(p) { sub(/^\/+/, "", p); return p }
	{ sub(/\r$/, "") }
	$1 == "TIMEOUT" { timeout = $2 }
	$1 == "DEFAULT" { def = $2 }
	$1 == "MENU" && $2 == "TITLE" { t = $0; sub(/^[ \t]*MENU[ \t]+TITLE[ \t]+/, "", t); mtitle = t }
	$1 == "LABEL" { flush(); label = $2 }
	$1 == "MENU" && $2 == "LABEL" { t = $0; sub(/^[ \t]*MENU[ \t]+LABEL[ \t]+/, "", t); gsub(/\^/, "", t); mlabel = t }
	$1 == "LINUX" || $1 == "KERNEL" { linux = rel($2) }
	$1 == "INITRD" { initrd = rel($2) }
	$1 == "APPEND" { t = $0; sub(/^[ \t]*APPEND[ \t]+/, "", t); append = t }
	END {
		flush()
		if (n == 0 || def == "") { print "no LABEL or DEFAULT entries" > "/dev/stderr"; exit 1 }
		print "#!ipxe"
		print "# isobench network boot for iPXE: the ISO menu, generated from " src "."
		print "# Served next to isobench/ (TFTP or HTTP): file names below are relative to this script."
		print "menu " mtitle
		for (i = 1; i <= n; i++) print "item " lab[i] " " title[i]
		printf "choose --timeout %d --default %s entry || goto %s\n", timeout * 100, def, def
		print "goto ${entry}"
		for (i = 1; i <= n; i++) {
			if (kern[i] == "" || ird[i] == "") { print "entry " lab[i] " lacks LINUX or INITRD" > "/dev/stderr"; exit 1 }
			b = ird[i]; sub(/.*\//, "", b)
			print ":" lab[i]
			print "kernel " kern[i] " initrd=" b " " app[i]
			print "initrd " ird[i]
			print "boot"
		}
	}' "$cfg" >"$t/isobench.ipxe" || die "cannot turn $cfg into an iPXE script"

find "$t" -exec touch -h -d "@$epoch" {} +
rm -rf "$dest.tmp.$$"
mkdir -p "$(dirname "$dest")"
cp -a "$t" "$dest.tmp.$$" || die "cannot write $dest"
rm -rf "$dest"
mv "$dest.tmp.$$" "$dest"
