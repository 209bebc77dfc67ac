#!/usr/bin/env bash
# tests/test-iso.sh [BZIMAGE] — image/build-iso.sh: reproducible bytes, menu, hybrid boot.
#
# In:  BZIMAGE (default: the newest cached kernel, $ISOBENCH_CACHE/kernel/*/bzImage; without
#      one, the boot checks are skipped and a random blob stands in for the kernel),
#      /bin/busybox, initramfs/build.sh, qemu-system-x86_64, qemu/run, mtools.
# Out: one line per check, boot timings, then "N passed, M failed".
# Errors: exits 1 if any check failed.
# Checks the UEFI side's layout (GPT, El Torito EFI entry, the FAT partition's files, the same
# menu); tests/test-boot-matrix.sh boots the real image under UEFI.
# Boots (TCG) a stand-in /init that prints fake records and powers off: as a CD on pc and q35,
# as a raw disk (the isohybrid MBR path), and through qemu/run with a custom command line.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}
# shellcheck source=lib.sh
. "$here/tests/lib.sh"
use_tmp
# cfg ISO FILE: the ISO's isolinux.cfg into FILE (nothing when it has none).
cfg() { xorriso -osirrox on -indev "$1" -extract /isolinux/isolinux.cfg "$2" >/dev/null 2>&1 || : >"$2"; }

kernel=${1:-$(find "$cache/kernel" -name bzImage -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -n 1 | cut -d" " -f2- || true)}
if [ -z "$kernel" ]; then
	skip "boot checks: no kernel built yet (run ./build.sh)"
	kernel=$tmp/fake-bzImage
	head -c 200000 /dev/urandom >"$kernel"
	boot=0
else
	boot=1
fi

# Stand-in /init (not product): records sealed here with their real CRC-32 (qemu/run judges
# through isobench-report, which checks them), its /proc/cmdline on a plain line.
records=$(PYTHONPATH=$here/tests python3 - <<'PY'
from seal import seal
for body in ["1 BEGIN run=0123456789abcdef version=standin mode=init",
             "2 INFO kernel.release=standin image.identity=test-id",
             "3 TEST test=standin k=1 n=1 copies=1 unit=lps better=higher",
             "4 RESULT test=standin copies=1 unit=lps better=higher value=1 samples=1",
             "5 END records=4 results=1 fails=0 skips=0 errors=0 status=ok"]:
    print("r '%s'" % seal("@isobench/1 " + body))
PY
)
cat >"$tmp/init" <<EOF
#!/bin/sh
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t proc proc /proc
r() { echo "\$1" >/dev/ttyS0; }
r "standin cmdline: \$(/bin/busybox cat /proc/cmdline)"
$records
/bin/busybox poweroff -f
EOF
chmod 755 "$tmp/init"
"$here/initramfs/build.sh" "$tmp/initramfs.cpio.gz" "$tmp/init"

"$here/image/build-iso.sh" "$tmp/a.iso" "$kernel" "$tmp/initramfs.cpio.gz" test-id
sleep 1
"$here/image/build-iso.sh" "$tmp/b.iso" "$kernel" "$tmp/initramfs.cpio.gz" test-id
if cmp -s "$tmp/a.iso" "$tmp/b.iso"; then ok "two builds a second apart are identical"; else bad "ISO builds differ"; fi
echo "ISO size: $(stat -c %s "$tmp/a.iso") bytes"

# Hybrid: an MBR boot signature and a partition entry, plus the El Torito catalogue.
if [ "$(od -An -tx1 -j510 -N2 "$tmp/a.iso" | tr -d ' ')" = 55aa ]; then ok "MBR signature 55aa"; else bad "no MBR signature (not hybrid)"; fi
# Partition 1 (the whole ISO) is marked active; its type is 0x00, as xorriso's
# -isohybrid-gpt-basdat writes it (Debian's own hybrid ISOs look the same).
if [ "$(od -An -tx1 -j446 -N1 "$tmp/a.iso" | tr -d ' ')" = 80 ]; then ok "MBR partition 1 is active"; else bad "MBR partition 1 is not active"; fi
if [ "$(dd if="$tmp/a.iso" bs=1 skip=$((17 * 2048 + 7)) count=23 2>/dev/null)" = "EL TORITO SPECIFICATION" ]; then
	ok "El Torito boot record"
else
	bad "no El Torito boot record at sector 17"
fi
if [ "$(dd if="$tmp/a.iso" bs=1 skip=$((16 * 2048 + 40)) count=8 2>/dev/null)" = ISOBENCH ]; then ok "volume id ISOBENCH"; else bad "volume id is not ISOBENCH"; fi

# UEFI: GPT beside the MBR, an El Torito EFI entry, and the FAT EFI partition's contents.
if [ "$(dd if="$tmp/a.iso" bs=1 skip=512 count=8 2>/dev/null)" = "EFI PART" ]; then ok "GPT header (USB stick on UEFI)"; else bad "no GPT header at LBA 1"; fi
if xorriso -indev "$tmp/a.iso" -report_el_torito plain 2>/dev/null | grep -Eq 'El Torito boot img : +2 +UEFI'; then
	ok "El Torito EFI boot entry"
else
	bad "no El Torito UEFI entry"
fi
# Partition 2 of the MBR is the EFI system partition (type 0xef); mtools reads it in place.
p2=$((446 + 16))
if [ "$(od -An -tx1 -j$((p2 + 4)) -N1 "$tmp/a.iso" | tr -d ' ')" = ef ]; then ok "MBR partition 2 is type 0xef"; else bad "MBR partition 2 is not an EFI system partition"; fi
esp_off=$(($(od -An -tu4 -j$((p2 + 8)) -N4 "$tmp/a.iso" | tr -d ' ') * 512))
fat() { mtype -i "$tmp/a.iso@@$esp_off" "::$1" 2>/dev/null; }
for f in /EFI/BOOT/BOOTX64.EFI /EFI/BOOT/LDLINUX.E64 /EFI/BOOT/menu.c32 /isobench/bzImage.efi /isobench/initramfs.gz /startup.nsh; do
	if mdir -i "$tmp/a.iso@@$esp_off" "::$f" >/dev/null 2>&1; then ok "EFI partition holds $f"; else bad "EFI partition lacks $f"; fi
done
if cmp -s <(fat /EFI/BOOT/BOOTX64.EFI) /usr/lib/SYSLINUX.EFI/efi64/syslinux.efi; then ok "BOOTX64.EFI is syslinux.efi"; else bad "BOOTX64.EFI is not syslinux.efi"; fi
if cmp -s <(fat /isobench/bzImage.efi) "$kernel"; then ok "the EFI kernel is the same bytes as the BIOS kernel"; else bad "EFI kernel differs from $kernel"; fi
cfg "$tmp/a.iso" "$tmp/a.cfg"
fat /EFI/BOOT/syslinux.cfg | sed 's|/isobench/bzImage.efi|/isobench/bzImage|' >"$tmp/efi.cfg"
if [ -s "$tmp/a.cfg" ] && cmp -s "$tmp/efi.cfg" "$tmp/a.cfg"; then ok "the UEFI menu has the BIOS menu's entries"
else bad "UEFI and BIOS menus differ (or one is missing)"; fi
if fat /startup.nsh | tr -d '\r' | grep -q 'bzImage.efi initrd=\\isobench\\initramfs.gz console=tty0 console=ttyS0,115200 loglevel=4 isobench.suite=standard isobench.image=test-id$'; then
	ok "startup.nsh starts the kernel's EFI stub with the default entry's command line"
else
	bad "startup.nsh: $(fat /startup.nsh | tr -d '\r' | grep bzImage)"
fi

c=$tmp/a.cfg
has "$c" '^DEFAULT standard$' "default entry is standard"
has "$c" '^TIMEOUT [0-9]+$' "menu has a TIMEOUT"
count_is "$c" '^ *APPEND ' 6 "six menu entries"
has "$c" '^ *APPEND console=tty0 console=ttyS0,115200 loglevel=4 ip=dhcp isobench\.serve=1 isobench\.image=test-id$' \
	"the peer entry: isobench.serve=1 with the network by DHCP"
for s in standard quick thorough; do
	has "$c" "^ *APPEND console=tty0 console=ttyS0,115200 loglevel=4 isobench.suite=$s isobench.image=test-id\$" \
		"entry for suite $s has the full command line"
done
has "$c" '^ *APPEND console=tty0 loglevel=4 isobench.suite=standard isobench.repeat=3 isobench.halt=wait isobench.replay=1 isobench.image=test-id$' \
	"screen-only entry (three replicates, replay on: bare metal)"
has "$c" '^ *APPEND console=tty0 console=ttyS0,115200 loglevel=4 isobench.suite=standard isobench.repeat=3 isobench.replay=1 isobench.halt=wait isobench.image=test-id$' \
	"bare-metal entry: serial + screen, three replicates, replay, wait"

"$here/image/build-iso.sh" "$tmp/x.iso" "$kernel" "$tmp/initramfs.cpio.gz" test-id "isobench.suite=quick isobench.tests=pipe"
cfg "$tmp/x.iso" "$tmp/x.cfg"
c=$tmp/x.cfg
d=$(grep -m1 '^ *APPEND ' "$c" || true)
if grep -q 'isobench.suite=quick' <<<"$d" && ! grep -q 'isobench.suite=standard' <<<"$d" && grep -q 'isobench.tests=pipe$' <<<"$d"; then
	ok "EXTRA_APPEND replaces the default entry's suite and appends the rest"
else
	bad "EXTRA_APPEND handled wrongly: $d"
fi
count_is "$c" 'isobench.suite=quick' 2 "EXTRA_APPEND leaves the other entries alone"

# Refusals: status 1 and one "build-iso: reason" line (image/build-iso.sh's contract).
expect_status CMD_FAILED "identity with a space is refused" -- \
	"$here/image/build-iso.sh" "$tmp/y.iso" "$kernel" "$tmp/initramfs.cpio.gz" "a b"
has "$tmp/stderr" '^build-iso: ' "identity with a space: a 'build-iso:' reason"
expect_status CMD_FAILED "a missing kernel is refused" -- \
	"$here/image/build-iso.sh" "$tmp/y.iso" "$tmp/none" "$tmp/initramfs.cpio.gz" id
has "$tmp/stderr" '^build-iso: ' "missing kernel: a 'build-iso:' reason"

if [ "$boot" -eq 1 ]; then
	mkdir -p "$tmp/out"
	cp "$tmp/a.iso" "$tmp/out/isobench.iso"
	# qboot and qemu/run follow and judge only through the report tool (not isobench: the
	# stand-in's test name is not the runner's).
	if [ -x "$(report_tool)" ]; then cp "$(report_tool)" "$tmp/out/"
	else make -s -C "$here/report" O="$tmp/out" >/dev/null; fi
	export ISOBENCH_REPORT=$tmp/out/isobench-report
	id=test-id
	qboot cd-pc bios "$tmp/cd-pc.log" 60 -M pc -cdrom "$tmp/a.iso"
	qboot cd-q35 bios "$tmp/cd-q35.log" 60 -M q35 -cdrom "$tmp/a.iso"
	qboot disk-pc bios "$tmp/disk-pc.log" 60 -M pc -drive "file=$tmp/a.iso,format=raw"
	boot_table "a stand-in /init: 5 records, then power-off"
	rc=0
	"$here/qemu/run" --out "$tmp/out" --accel tcg --suite quick --tests standin --params 'isobench.test_marker=1' \
		--log "$tmp/run.log" >"$tmp/run.out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'standin cmdline: .*isobench.suite=quick isobench.tests=standin isobench.test_marker=1' "$tmp/run.log"; then
		ok "qemu/run: custom command line reaches the guest through a throw-away ISO"
	else
		bad "qemu/run custom command line: status $rc; $(tail -n 2 "$tmp/run.out" | tr '\n' '|')"
	fi
	grep 'first BEGIN' "$tmp/run.out" || true
fi

finish
