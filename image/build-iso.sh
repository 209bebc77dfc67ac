#!/usr/bin/env bash
# image/build-iso.sh OUT.iso BZIMAGE INITRAMFS IDENTITY [EXTRA_APPEND] — hybrid boot ISO.
#
# BZIMAGE is an x86 bzImage or an arm64 Image (told apart by the arm64 header's magic); the
# arm64 image is described under "arm64" below, everything else here is the x86 one.
#
# In:  BZIMAGE, INITRAMFS (gzip cpio), IDENTITY (a word naming this image, [A-Za-z0-9._+:@-],
#      passed to the guest as isobench.image=), optional EXTRA_APPEND (kernel parameters for
#      the default menu entry only; a key=value word there replaces the entry's own word with
#      the same key, so "isobench.suite=quick" switches the suite). image/isolinux.cfg (menu
#      template), image/cmdline (the entries' console and log-level words), Debian's isolinux + syslinux-common + syslinux-efi, mtools, xorriso.
#      SOURCE_DATE_EPOCH (default 0) fixes every date, the volume UUID and the GPT GUIDs; the
#      FAT volume serial is the CRC-32 of IDENTITY; so the same inputs give the same bytes.
#      ISOBENCH_RESULTS_MIB (default 4) is the free space for results files on the FAT
#      partition; an EFI image past El Torito's 65,535 sectors is refused. ISOBENCH_MENU_TIMEOUT
#      (tenths of a second, default 10) is the menu's wait; qemu/run's throw-away ISOs use 1.
# Out: OUT.iso, bootable
#      - by BIOS as a CD (El Torito, isolinux) and, written raw to a USB stick or used as a
#        disk image, through the isohybrid MBR;
#      - by x86-64 UEFI as a CD (El Torito EFI entry) and as a disk (GPT, with an MBR partition
#        table beside it for BIOS), both pointing at one FAT EFI system partition appended
#        to the ISO (see "UEFI" below).
#      Both menus come from one template, so they offer the same entries.
#      arm64: an ISO and GPT disk that UEFI alone boots (there is no BIOS on arm64), from
#      the same template: \EFI\BOOT\BOOTAA64.EFI is systemd-boot (Debian's systemd-boot-efi
#      for arm64; its path in SYSTEMD_BOOT_EFI), whose entries are the template's, and the
#      words of image/cmdline.aarch64 follow image/cmdline's in every entry.
# Errors: exits 1 with one line "build-iso: <reason>" on stderr; exits 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "build-iso: MSG", exit 1
# shellcheck source=../lib/sh/cmdline.sh
. "$(dirname "$0")/../lib/sh/cmdline.sh" # cmdline_words FILE: image/cmdline's words on one line
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
	echo "usage: image/build-iso.sh OUT.iso BZIMAGE INITRAMFS IDENTITY [EXTRA_APPEND]" >&2
	exit 2
fi
out=$1 bzimage=$2 initramfs=$3 id=$4 extra=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
epoch=${SOURCE_DATE_EPOCH:-0}
isolinux_dir=${ISOLINUX_DIR:-/usr/lib/ISOLINUX}
syslinux_dir=${SYSLINUX_BIOS_DIR:-/usr/lib/syslinux/modules/bios}
common=$(cmdline_words "$here/cmdline") || true
menu_timeout=${ISOBENCH_MENU_TIMEOUT:-10}

[[ "$menu_timeout" =~ ^[1-9][0-9]{0,3}$ ]] || die "ISOBENCH_MENU_TIMEOUT must be 1-9999 (tenths of a second), got '$menu_timeout'"
case "$epoch" in '' | *[!0-9]*) die "SOURCE_DATE_EPOCH must be a non-negative integer, got '$epoch'" ;; esac
[[ "$id" =~ ^[A-Za-z0-9._+:@-]{1,128}$ ]] || die "IDENTITY must be 1-128 chars of [A-Za-z0-9._+:@-], got '$id'"
[[ "$extra" != *$'\n'* ]] || die "EXTRA_APPEND must be one line"
[ -f "$bzimage" ] || die "no such file: $bzimage"
# An arm64 Image carries "ARM\x64" at offset 0x38 (Documentation/arm64/booting.rst).
if [ "$(od -An -c -j 56 -N 4 "$bzimage" | tr -d ' ')" = ARMd ]; then karch=aarch64; else karch=x86_64; fi
if [ "$karch" = aarch64 ]; then
	common="$common $(cmdline_words "$here/cmdline.aarch64")" || die "no $here/cmdline.aarch64"
	sdboot=${SYSTEMD_BOOT_EFI:-}
	[ -f "$sdboot" ] || die "arm64: SYSTEMD_BOOT_EFI must name systemd-bootaa64.efi (cross/sysroot.sh unpacks it)"
fi
[ -f "$initramfs" ] || die "no such file: $initramfs"
[ -f "$here/isolinux.cfg" ] || die "no template $here/isolinux.cfg"
[ -n "$common" ] || die "no kernel command line in $here/cmdline"
command -v xorriso >/dev/null || die "xorriso not found (apt-get install xorriso)"
for f in "$isolinux_dir/isolinux.bin" "$isolinux_dir/isohdpfx.bin" \
	"$syslinux_dir/ldlinux.c32" "$syslinux_dir/menu.c32" "$syslinux_dir/libutil.c32"; do
	[ "$karch" = x86_64 ] || break
	[ -f "$f" ] || die "missing $f (apt-get install isolinux syslinux-common)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/isolinux" "$root/isobench"
if [ "$karch" = x86_64 ]; then
	cp "$isolinux_dir/isolinux.bin" "$syslinux_dir/ldlinux.c32" "$syslinux_dir/menu.c32" \
		"$syslinux_dir/libutil.c32" "$root/isolinux/"
	kname=bzImage
else	# the menu is built into $root/isolinux, then moved out: the arm64 ISO has no isolinux
	kname=Image
fi
cp "$bzimage" "$root/isobench/$kname"
# arm64: the boot menu's loader rides along in the ISO 9660 tree, so an image can be rebuilt
# from the ISO alone (qemu/run's throw-away images with a per-run command line).
[ "$karch" = x86_64 ] || cp "$sdboot" "$root/isobench/BOOTAA64.EFI"
cp "$initramfs" "$root/isobench/initramfs.gz"
printf '%s\n' "$id" >"$root/isobench/IDENTITY"

# The default entry's line: its own words, minus those EXTRA_APPEND overrides, then EXTRA_APPEND.
awk -v common="$common" -v id="$id" -v extra="$extra" -v timeout="$menu_timeout" '
	function key(w) { sub(/=.*/, "", w); return w }
	/^[ \t]*#/ { next }   # template comments stay in the template
	{ gsub(/@COMMON@/, common); gsub(/@ID@/, id); gsub(/@TIMEOUT@/, timeout) }
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

# systemd_boot_esp MENU ESP EFI: arm64's UEFI menu. ESP gets \EFI\BOOT\BOOTAA64.EFI = EFI
# (systemd-boot), \loader\loader.conf and one \loader\entries\<n>-<label>.conf per LABEL of
# MENU (the expanded isolinux template: MENU LABEL -> title, APPEND -> options; numbered in
# the template's order, which systemd-boot keeps by sorting the names). The kernel is
# \isobench\Image.efi, started through its EFI stub, which loads the initrd systemd-boot
# hands it. The menu waits TIMEOUT tenths rounded down to whole seconds; 0 boots the default
# at once (a key held at start shows the menu).
# Why a boot menu, not the EFI stub alone with a built-in command line: the command line
# carries isobench.image=<identity>, a hash of the kernel itself and the initramfs, and
# qemu/run's throw-away images carry per-run words; neither can be built into the kernel, and
# in 6.1 a built-in command line cannot name the initrd either (see "UEFI" below).
systemd_boot_esp() {
	local menu=$1 dir=$2 efi=$3
	mkdir -p "$dir/loader/entries"
	cp "$efi" "$dir/EFI/BOOT/BOOTAA64.EFI"
	awk -v dir="$dir/loader/entries" -v timeout="$menu_timeout" -v conf="$dir/loader/loader.conf" '
		function flush() { if (label != "") { n++; f = sprintf("%s/%d-%s.conf", dir, n, label)
			printf "title   %s\nlinux   /isobench/Image.efi\ninitrd  /isobench/initramfs.gz\noptions %s\n",
				title, opts > f; close(f)
			if (label == def) defname = sprintf("%d-%s.conf", n, label) } label = "" }
		/^DEFAULT / { def = $2 }
		/^LABEL / { flush(); label = $2; title = label; opts = "" }
		/^ *MENU LABEL / { sub(/^ *MENU LABEL /, ""); gsub(/\^/, ""); title = $0 }
		/^ *APPEND / { sub(/^ *APPEND /, ""); opts = $0 }
		END { flush(); if (defname == "") exit 1
			printf "timeout %d\ndefault %s\neditor no\n", int(timeout / 10), defname > conf }
	' "$menu" || die "systemd-boot: the menu has no default entry"
}

# ---- UEFI ----------------------------------------------------------------------------------
# Firmware reads only FAT, and syslinux.efi cannot read ISO 9660, so the EFI system partition
# (a FAT image, appended to the ISO as partition 2 and named by the El Torito EFI entry) holds
# everything an EFI boot needs:
#   \EFI\BOOT\BOOTX64.EFI            syslinux.efi: the same menu as BIOS (same template), so
#   \EFI\BOOT\LDLINUX.E64 + *.c32    "screen only" and the other entries exist on UEFI too
#   \EFI\BOOT\syslinux.cfg
#   \isobench\bzImage.efi, initramfs.gz, IDENTITY   the kernel (byte-identical to the BIOS one)
#   \startup.nsh                     fallback without syslinux.efi: the kernel's own EFI stub
#                                    started with the default entry's command line, initrd= on
#                                    the same FAT volume
# Why syslinux.efi first and the kernel's EFI stub as the fallback (not the other way round):
# booted as \EFI\BOOT\BOOTX64.EFI the stub gets no command line (no consoles, no initrd), and
# in Linux 6.1 a built-in CONFIG_CMDLINE cannot name the initrd (the stub reads initrd= only
# from the firmware's load options) — the stub alone would need the initramfs built into the
# kernel, i.e. a second kernel with other bytes. syslinux.efi gives the menu and keeps one
# kernel. Debian bug 1051445 reports syslinux.efi crashing as a CD on some firmware: there, a
# UEFI shell (built into OVMF and many firmwares; OVMF falls back to it when BOOTX64.EFI fails)
# runs \startup.nsh, which boots the same kernel through its EFI stub. ISOBENCH_EFI_LOADER=stub
# builds an image without syslinux.efi, to prove that path (tests/test-boot-matrix.sh).
# Secure Boot: nothing here is signed; Secure Boot firmware refuses the image.
efi_dir=${SYSLINUX_EFI_DIR:-/usr/lib/SYSLINUX.EFI/efi64}
efi_mod=${SYSLINUX_EFI64_DIR:-/usr/lib/syslinux/modules/efi64}
loader=${ISOBENCH_EFI_LOADER:-syslinux}
case $loader in syslinux | stub) ;; *) die "ISOBENCH_EFI_LOADER must be syslinux or stub, not '$loader'" ;; esac
for t in mformat mcopy mmd; do command -v "$t" >/dev/null || die "$t not found (apt-get install mtools)"; done
for f in "$efi_dir/syslinux.efi" "$efi_mod/ldlinux.e64" "$efi_mod/menu.c32" "$efi_mod/libutil.c32" \
	"$efi_mod/libcom32.c32"; do
	if [ "$karch" != x86_64 ] || [ "$loader" != syslinux ]; then break; fi
	[ -f "$f" ] || die "missing $f (apt-get install syslinux-efi syslinux-common)"
done
esp=$tmp/esp menu_cfg=$root/isolinux/isolinux.cfg
mkdir -p "$esp/EFI/BOOT" "$esp/isobench"
cp "$bzimage" "$esp/isobench/$kname.efi"
cp "$initramfs" "$esp/isobench/initramfs.gz"
cp "$root/isobench/IDENTITY" "$esp/isobench/IDENTITY"
if [ "$karch" = aarch64 ]; then
	[ "$loader" = stub ] || systemd_boot_esp "$root/isolinux/isolinux.cfg" "$esp" "$sdboot"
	mv "$root/isolinux/isolinux.cfg" "$tmp/menu.cfg" && rmdir "$root/isolinux"
	menu_cfg=$tmp/menu.cfg
elif [ "$loader" = syslinux ]; then
	cp "$efi_dir/syslinux.efi" "$esp/EFI/BOOT/BOOTX64.EFI"
	cp "$efi_mod/ldlinux.e64" "$efi_mod/menu.c32" "$efi_mod/libutil.c32" "$efi_mod/libcom32.c32" "$esp/EFI/BOOT/"
	sed 's|/isobench/bzImage$|/isobench/bzImage.efi|' "$root/isolinux/isolinux.cfg" >"$esp/EFI/BOOT/syslinux.cfg"
fi
# startup.nsh: the default entry's command line, for the kernel's EFI stub. (CRLF: UEFI shell.)
default_append=$(awk '/^DEFAULT /{d=$2} /^LABEL /{l=$2} /^ *APPEND /&&l==d{sub(/^ *APPEND /,""); print; exit}' \
	"$menu_cfg")
[ -n "$default_append" ] || die "no APPEND line for the default entry"
printf 'echo "isobench: booting the kernel EFI stub (no syslinux.efi)"\r\nfs0:\r\nfor %%m in 0 1 2 3 4 5 6 7 8 9\r\n  if exist fs%%m:\\isobench\\%s.efi then\r\n    fs%%m:\r\n    \\isobench\\%s.efi initrd=\\isobench\\initramfs.gz %s\r\n  endif\r\nendfor\r\n' \
	"$kname" "$kname" "$default_append" >"$esp/startup.nsh"
find "$esp" -exec touch -h -d "@$epoch" {} +
# Results: booted as a disk, the runner writes its log to \ISOBENCH\RESULTS on this
# partition (payload/pid1/resultsfile.c), which it finds by the label ISOBENCHEFI and a volume
# serial that is the CRC-32 of the image identity (unique per image, still reproducible).
mkdir -p "$esp/isobench/RESULTS"	# FAT is case-insensitive: \ISOBENCH\RESULTS
results_mib=${ISOBENCH_RESULTS_MIB:-4}
case "$results_mib" in '' | *[!0-9]*) die "ISOBENCH_RESULTS_MIB must be a whole number of MiB, got '$results_mib'" ;; esac
# FAT size: the files plus 10% and 256 KiB for FAT and directories, plus the results space,
# in whole MiB.
kib=$(du -sk --apparent-size "$esp" | cut -f1)
mib=$(((kib * 11 / 10 + 256 + 1023) / 1024 + results_mib))
# El Torito names the EFI image's size as a 16-bit count of 512-byte sectors: past 65,535
# sectors (32 MiB - 512 bytes) the count would be cut. Refuse rather than write a wrong one.
[ $((mib * 2048)) -le 65535 ] ||
	die "EFI system partition of ${mib} MiB exceeds El Torito's 65,535 sectors of 512 bytes (ISOBENCH_RESULTS_MIB=$results_mib)"
efi_img=$tmp/efi.img
truncate -s "${mib}M" "$efi_img"
# CRC-32 of the identity, from gzip's trailer (the same CRC as zlib's crc32(); gzip is
# Essential in Debian).
serial=$(printf '%s' "$id" | gzip -c | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n' | tr a-f A-F)
[[ "$serial" =~ ^[0-9A-F]{8}$ ]] || die "cannot compute the FAT serial from the identity"
# mtools honours SOURCE_DATE_EPOCH for the dates it writes; -m keeps the files' fixed mtimes.
SOURCE_DATE_EPOCH=$epoch mformat -i "$efi_img" -N "$serial" -v ISOBENCHEFI ::  >"$tmp/mtools.log" 2>&1 ||
	die "mformat failed: $(head -n 1 "$tmp/mtools.log")"
while IFS= read -r d; do
	SOURCE_DATE_EPOCH=$epoch mmd -i "$efi_img" "::/${d#"$esp"/}" >>"$tmp/mtools.log" 2>&1 || die "mmd ${d#"$esp"/} failed"
done < <(find "$esp" -mindepth 1 -type d | LC_ALL=C sort)
while IFS= read -r f; do
	SOURCE_DATE_EPOCH=$epoch mcopy -m -i "$efi_img" "$f" "::/${f#"$esp"/}" >>"$tmp/mtools.log" 2>&1 ||
		die "mcopy ${f#"$esp"/} failed: $(tail -n 1 "$tmp/mtools.log")"
done < <(find "$esp" -type f | LC_ALL=C sort)

find "$root" -exec touch -h -d "@$epoch" {} +
date=$(date -u -d "@$epoch" +%Y%m%d%H%M%S00)
# xorriso honours SOURCE_DATE_EPOCH itself (volume dates, UUID, no "now" timestamps);
# --modification-date makes the UUID explicit for older versions.
# x86: isolinux by BIOS (El Torito + isohybrid MBR), then the EFI entry; arm64: the EFI entry
# only, the FAT partition in a GPT (-appended_part_as_gpt) for firmware that boots it as a disk.
if [ "$karch" = x86_64 ]; then
	boot=(-isohybrid-mbr "$isolinux_dir/isohdpfx.bin"
		-c isolinux/boot.cat -b isolinux/isolinux.bin
		-no-emul-boot -boot-load-size 4 -boot-info-table
		-append_partition 2 0xef "$efi_img"
		-eltorito-alt-boot -e --interval:appended_partition_2:all:: -no-emul-boot
		-isohybrid-gpt-basdat)
else
	boot=(-append_partition 2 0xef "$efi_img" -appended_part_as_gpt
		-c boot.cat -e --interval:appended_partition_2:all:: -no-emul-boot)
fi
SOURCE_DATE_EPOCH=$epoch xorriso -as mkisofs -quiet \
	-o "$tmp/out.iso" \
	-V ISOBENCH --modification-date="$date" \
	-r -J -joliet-long \
	"${boot[@]}" \
	"$root" >"$tmp/xorriso.log" 2>&1 ||
	die "xorriso failed: $(grep -m1 -i 'FAILURE\|SORRY\|error' "$tmp/xorriso.log" || tail -n 1 "$tmp/xorriso.log")"
mkdir -p "$(dirname "$out")"
cp "$tmp/out.iso" "$out.tmp.$$" || die "cannot write $out"
mv "$out.tmp.$$" "$out"
