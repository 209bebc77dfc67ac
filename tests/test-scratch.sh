#!/usr/bin/env bash
# tests/test-scratch.sh — the scratch signature is the whole header MiB (issue 30), natively,
# in seconds: a disk is ours only while every byte of its first MiB reads as
# `isobench --make-scratch` left it (the 44-byte header, then zeros). Each case signs an
# image, then formats it, and the disk tests must refuse every write (SKIP with the reason,
# naming the label found), `--make-scratch` must refuse to sign it over, and the image must be
# byte-identical (sha256 before and after):
#   - the real tools where installed: mkswap (util-linux), mkfs.ext4 (e2fsprogs), mkfs.xfs,
#     mkfs.btrfs, pvcreate -Z n (lvm2, on a loop device; -Z n leaves sector 0 alone, so the
#     signature's 44 bytes survive); each image as the tool left it, and again with our 44
#     bytes put back where the tool wiped them (what a tool that writes only its own sectors
#     leaves: the signature valid, somebody's label behind it; the old 44-byte check wrote);
#   - by hand, at their documented offsets: an LVM2 label (when lvm2 is missing), a ZFS label
#     (no zpool here: uberblock magic 0x00bab10c at 128 KiB and 384 KiB, an XDR nvlist header
#     at 16 KiB), and one stray byte at the last byte of the header MiB;
#   - a disk laid out as every --make-scratch so far wrote it (built here byte by byte, not by
#     this build) stays ours: the write tests run on it;
#   - a signed disk that cannot be written (a loop device made with losetup -r: BLKROGET; a
#     file on a read-only bind mount: EROFS; as a user, a file of mode 0444: EACCES): the
#     write tests SKIP with that reason, the header says it, the read test runs.
#
# In:  OUT/isobench, OUT/isobench-report, python3; mkswap, mkfs.ext4, mkfs.xfs, mkfs.btrfs,
#      pvcreate + losetup (root) where present (each missing one is a SKIP).
# Out: one line per assertion, then "N passed, M failed, K skipped"; images and logs in
#      results/scratch/ (on the repository's filesystem: O_DIRECT needs a real one).
# Errors: exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
dir=$top/results/scratch
rm -rf "$dir"
mkdir -p "$dir"
at_exit "rm -f $dir/*.img $dir/ro-src/*.img"	# the images are large; the logs stay
bin=$out/isobench
for f in isobench isobench-report; do
	[ -e "$out/$f" ] || { fail "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done
tests=disk-randread-4k-qd1,disk-write-1m,disk-randwrite-4k-qd1,disk-flush
knobs=(--suite quick --sample_ms 20 --samples 2 --copies 1 --tests "$tests")
writers='disk-(write-1m|randwrite-4k-qd1|flush)'
export LVM_SUPPRESS_FD_WARNINGS=1

# foreign NAME TARGET WHY [FILE]: TARGET (a file or a loop device over FILE) is not ours: the
# header says unsigned, the read test runs, the 3 write tests SKIP with WHY (a regex of the
# encoded reason), --make-scratch refuses it, and FILE (default TARGET) is byte-identical.
foreign() {
	local name=$1 target=$2 why=$3 file=${4:-$2} before st=0
	before=$(sha256_of "$file")
	"$bin" "${knobs[@]}" --disk "$target" >"$dir/$name.log" 2>"$dir/$name.err" || st=$?
	ran EXIT_OK "$st" "$dir/$name.log" "$name: the run completes"
	has "$dir/$name.log" "INFO disk.select=.* disk.signed=0 disk.scratch_id=- disk.writes=refused:" \
		"$name: the header: not signed, writes refused"
	count_is "$dir/$name.log" "SKIP test=$writers copies=1 reason=refused:[^ ]*$why" 3 \
		"$name: the 3 write tests SKIP, saying $why"
	count_is "$dir/$name.log" "RESULT test=disk-randread-4k-qd1 " 1 "$name: the read test runs"
	expect_status EXIT_USAGE "$name: --make-scratch refuses to sign it over" -- \
		"$bin" --make-scratch "$target" all
	contains "$tmp/stderr" "not overwritten" "$name: --make-scratch says it is not overwritten"
	local after
	after=$(sha256_of "$file")
	check "$name: byte-identical (sha256 ${before:0:16}... before, ${after:0:16}... after)" \
		test "$before" = "$after"
}

# sign NAME SIZE: a fresh signed image $dir/NAME.img; its 44 header bytes kept in $dir/NAME.sig.
sign() {
	"$bin" --make-scratch "$dir/$1.img" "$2" >/dev/null
	dd if="$dir/$1.img" of="$dir/$1.sig" bs=44 count=1 status=none
}
# ours_at_0 NAME: the image's first 44 bytes are still the signature sign() wrote.
ours_at_0() { cmp -s -n 44 "$dir/$1.img" "$dir/$1.sig"; }
# replant NAME: the signature's 44 bytes back at byte 0 (the tool's bytes after them kept).
replant() { dd if="$dir/$1.sig" of="$dir/$1.img" bs=44 count=1 conv=notrunc status=none; }

# formatted NAME LABEL: after a tool formatted NAME.img: as it was left (the signature gone
# or not), then, if the tool wiped the 44 bytes, with them put back: refused, naming LABEL.
formatted() {
	if ours_at_0 "$1"; then
		pass "$1: the tool left the signature's 44 bytes alone"
		foreign "$1" "$dir/$1.img" "$2"
		return
	fi
	foreign "$1-as-left" "$dir/$1.img" "carries%20no%20scratch%20signature"
	replant "$1"
	foreign "$1-signature-put-back" "$dir/$1.img" "$2"
}

# ---- a disk as every --make-scratch so far left it stays ours -------------------------------
# The 44 bytes (scratch.h's layout: magic, version 1, data_off 1 MiB, size, id, CRC-32 of bytes
# 0..39), zeros to 1 MiB, random bytes after: written by python, not by this build.
python3 - "$dir/old.img" <<'EOF'
import os, struct, sys, zlib
size = 8 << 20
hdr = b"ISOBENCH-SCRATCH" + struct.pack("<IIQQ", 1, 1 << 20, size, 0x0123456789abcdef)
hdr += struct.pack("<I", zlib.crc32(hdr) & 0xffffffff)
with open(sys.argv[1], "wb") as f:
    f.write(hdr + bytes((1 << 20) - len(hdr)) + os.urandom(size - (1 << 20)))
EOF
st=0
"$bin" "${knobs[@]}" --disk "$dir/old.img" >"$dir/old.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$dir/old.log" "a disk laid out as every --make-scratch so far: the run completes"
has "$dir/old.log" "INFO disk.select=.* disk.signed=1 disk.scratch_id=0123456789abcdef disk.writes=allowed " \
	"the old layout: ours (signed, its id, writes allowed)"
count_is "$dir/old.log" "RESULT test=$writers copies=1 " 3 "the old layout: the 3 write tests run"

# One byte at the header MiB's last byte (1 MiB - 1): the check reaches the end of the MiB.
cp "$dir/old.img" "$dir/stray.img"
printf '\001' | dd of="$dir/stray.img" bs=1 seek=1048575 conv=notrunc status=none
foreign stray "$dir/stray.img" "byte%201048575%20of%20the%20header%20MiB%20is%200x01"

# ---- the real tools ------------------------------------------------------------------------
if command -v mkswap >/dev/null; then
	sign swap 8M
	mkswap "$dir/swap.img" >/dev/null 2>&1
	formatted swap "byte%20[0-9]+%20.*a%20swap%20signature%20\(SWAPSPACE2%20at%20byte%204086\)"
else skip "swap: no mkswap (util-linux) here"; fi

if command -v mkfs.ext4 >/dev/null; then
	sign ext4 16M
	mkfs.ext4 -q -F "$dir/ext4.img"
	formatted ext4 "an%20ext2/3/4%20superblock%20\(0xEF53%20at%20byte%201080\)"
else skip "ext4: no mkfs.ext4 (e2fsprogs) here"; fi

if command -v mkfs.xfs >/dev/null; then
	sign xfs 300M	# mkfs.xfs refuses less than 300 MiB
	if mkfs.xfs -q -f "$dir/xfs.img" 2>"$dir/xfs.mkfs.err"; then
		formatted xfs "an%20XFS%20allocation%20group%20header%20\(XAGF%20at%20sector%201\)"
	else skip "xfs: mkfs.xfs failed here: $(head -c 200 "$dir/xfs.mkfs.err")"; fi
else skip "xfs: no mkfs.xfs (xfsprogs) here"; fi

if command -v mkfs.btrfs >/dev/null; then
	sign btrfs 128M
	if mkfs.btrfs -q -f "$dir/btrfs.img" >/dev/null 2>"$dir/btrfs.mkfs.err"; then
		formatted btrfs "a%20btrfs%20superblock%20\(_BHRfS_M%20at%2064%20KiB%20\+%2064\)"
	else skip "btrfs: mkfs.btrfs failed here: $(head -c 200 "$dir/btrfs.mkfs.err")"; fi
else skip "btrfs: no mkfs.btrfs (btrfs-progs) here"; fi

# LVM2: pvcreate -Z n on a loop device (it wipes nothing: the label goes to sector 1 and the
# metadata area after it); without lvm2 or a loop device, the label by hand (LVM2
# lib/label/label.h: "LABELONE", u64 sector 1, u32 crc, u32 offset 32, "LVM2 001").
lvm_case() {
	local loop
	sign lvm 8M
	if [ "$(id -u)" -eq 0 ] && command -v pvcreate >/dev/null && command -v losetup >/dev/null &&
		loop=$(losetup -f --show "$dir/lvm.img" 2>/dev/null); then
		at_exit "losetup -d $loop"
		if pvcreate --devices "$loop" -Z n -y "$loop" </dev/null >"$dir/pvcreate.out" 2>&1; then
			check "lvm: pvcreate -Z n left the signature's 44 bytes alone" ours_at_0 lvm
			foreign lvm "$loop" "an%20LVM2%20physical%20volume%20label%20\(LABELONE,%20sector%201\)" "$dir/lvm.img"
			pvremove --devices "$loop" -y "$loop" </dev/null >/dev/null 2>&1 || true
			return
		fi
		skip "lvm: pvcreate failed here ($(head -c 200 "$dir/pvcreate.out")): the label by hand"
	else
		skip "lvm: no root, lvm2 or loop device here: the label written by hand"
	fi
	printf 'LABELONE\001\000\000\000\000\000\000\000\000\000\000\000\040\000\000\000LVM2 001' |
		dd of="$dir/lvm.img" bs=1 seek=512 conv=notrunc status=none
	foreign lvm-by-hand "$dir/lvm.img" "an%20LVM2%20physical%20volume%20label%20\(LABELONE,%20sector%201\)"
}
lvm_case

# ZFS: no zpool here (OpenZFS is not in Debian main); its label L0 (bytes 0-256 KiB) and L1
# (256-512 KiB) by hand, at their documented offsets (OpenZFS include/sys/vdev_impl.h
# vdev_label_t: 8 KiB pad, 8 KiB boot header, the XDR nvlist at 16 KiB, the uberblock ring at
# 128 KiB; include/sys/uberblock_impl.h UBERBLOCK_MAGIC 0x00bab10c, host-endian u64).
sign zfs 8M
for label in 0 262144; do
	printf '\001\001\000\000' | dd of="$dir/zfs.img" bs=1 seek=$((label + 16384)) conv=notrunc status=none
	printf '\014\261\272\000\000\000\000\000' |
		dd of="$dir/zfs.img" bs=1 seek=$((label + 131072)) conv=notrunc status=none
done
check "zfs: the hand-made label left the signature's 44 bytes alone" ours_at_0 zfs
foreign zfs "$dir/zfs.img" "byte%2016384%20.*a%20ZFS%20label%20\(uberblock%200x00bab10c%20at%20128%20KiB\)"

# ---- a read-only disk: the write tests SKIP with the reason, not FAIL -----------------------
# readonly NAME TARGET WHY [FILE]: a signed TARGET that cannot be written: the header says so
# (disk.writes), the read test runs, the 3 write tests SKIP with WHY, FILE is byte-identical.
readonly_case() {
	local name=$1 target=$2 why=$3 file=${4:-$2} before st=0
	before=$(sha256_of "$file")
	${as[@]+"${as[@]}"} "$bin" "${knobs[@]}" --disk "$target" >"$dir/$name.log" 2>"$dir/$name.err" || st=$?
	ran EXIT_OK "$st" "$dir/$name.log" "$name: the run completes, no FAIL"
	has "$dir/$name.log" "INFO disk.select=.* disk.signed=1 [^ ]* disk.writes=refused:[^ ]*$why" \
		"$name: the header: signed, writes refused: $why"
	count_is "$dir/$name.log" "SKIP test=$writers copies=1 reason=refused:[^ ]*$why" 3 \
		"$name: the 3 write tests SKIP, saying $why"
	count_is "$dir/$name.log" "RESULT test=disk-randread-4k-qd1 " 1 "$name: the read test runs"
	check "$name: byte-identical" test "$before" = "$(sha256_of "$file")"
}
# as: the command prefix of the mode-0444 case (as root: the user nobody, whom DAC binds).
as=()
ro_cases() {
	local loop mnt=$dir/ro-mnt
	sign ro-mode 8M
	chmod 444 "$dir/ro-mode.img"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
		as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
	if [ "$(id -u)" -ne 0 ] || [ ${#as[@]} -gt 0 ]; then
		# nobody must reach the runner and the image: a checkout under /root (mode 0700, as
		# in a fresh root) does not let it, so both go to a directory of mode 0755 of ours.
		local nb bin0=$bin
		nb=$(mktemp -d /tmp/isobench-nobody.XXXXXX)
		chmod 755 "$nb"
		cp "$bin" "$nb/isobench" && mv "$dir/ro-mode.img" "$nb/ro-mode.img"
		bin=$nb/isobench
		readonly_case ro-mode "$nb/ro-mode.img" "cannot%20be%20opened%20for%20writing:%20Permission%20denied%20\(EACCES\)"
		bin=$bin0
		rm -rf "$nb"
	else skip "mode 0444: root ignores it and there is no setpriv here"; fi
	as=()
	if [ "$(id -u)" -ne 0 ]; then
		skip "read-only loop device and mount: need root"
		return
	fi
	sign ro 8M
	if command -v losetup >/dev/null && loop=$(losetup -r -f --show "$dir/ro.img" 2>/dev/null); then
		at_exit "losetup -d $loop"
		readonly_case ro-loop "$loop" "is%20read-only%20\(BLKROGET" "$dir/ro.img"
	else skip "read-only loop device: no losetup or loop device here"; fi
	mkdir -p "$dir/ro-src" "$mnt"
	"$bin" --make-scratch "$dir/ro-src/s.img" 8M >/dev/null
	if mount --bind "$dir/ro-src" "$mnt" 2>/dev/null; then
		at_exit "umount $mnt"
		if mount -o remount,ro,bind "$mnt" 2>/dev/null; then
			readonly_case ro-mount "$mnt/s.img" "cannot%20be%20opened%20for%20writing:%20Read-only%20file%20system%20\(EROFS\)"
		else skip "read-only bind mount: remount ro refused here"; fi
	else skip "read-only bind mount: mount --bind refused here"; fi
}
ro_cases

finish
