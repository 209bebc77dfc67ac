# shellcheck shell=bash disable=SC2154,SC2034 # the globals qemu/run's parts share (set in one, read in another)
# qemu/lib/image.sh — image and disk assembly: what QEMU boots (part of qemu/run, sourced by it
# after qemu/lib/common.sh; the options checked by check_options). qemu_and_cmdline: qbin and
# kname (the QEMU and kernel of --arch), tmp (removed at exit, with a QEMU still running), the
# kernel command line's common words (image/cmdline). network_devices: netdev (QEMU's --nic
# options) and networds (the kernel's ip= words, isobench.peer=). boot_drives: mode and boot
# (QEMU's -kernel/-initrd/-append, or the ISO as a CD or disk, a throw-away ISO when the
# command line has words of its own, UEFI's flash). scratch_disks: scratch_mode and scratch_devs
# (each --scratch image with its cache mode, on its --scratch-if). die_start when a file,
# program or firmware they need is missing.

# shellcheck disable=SC2317 # called through the EXIT trap
cleanup() { [ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true; rm -rf "$tmp"; }
# The same console and log-level words as the image's boot entries (image/cmdline, their owner),
# read as image/build-iso.sh reads them: lib/sh/cmdline.sh's cmdline_words FILE.
# shellcheck source=../../lib/sh/cmdline.sh
. "$here/lib/sh/cmdline.sh" 2>/dev/null || die_start "cannot read $here/lib/sh/cmdline.sh"

# qemu_and_cmdline: the QEMU, a temporary directory, the kernel command line's common words.
qemu_and_cmdline() {
	if [ "$arch" = arm64 ]; then
		qbin=qemu-system-aarch64 kname=Image
		command -v qemu-system-aarch64 >/dev/null || die_start "qemu-system-aarch64 not found (apt-get install qemu-system-arm)"
	else
		qbin=qemu-system-x86_64 kname=bzImage
		command -v qemu-system-x86_64 >/dev/null || die_start "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
	fi
	command -v timeout >/dev/null || die_start "timeout(1) not found (coreutils)"
	tmp=$(mktemp -d)
	qpid=
	trap cleanup EXIT
	trap 'echo "$prog: interrupted" >&2; exit 130' INT TERM

	suite_eff=${suite:-standard}
	common=$(cmdline_words "$here/image/cmdline") || true
	[ -n "$common" ] || die_start "no kernel command line in $here/image/cmdline"
	# arm64's entries add image/cmdline.aarch64's words (the PL011 console), as the ISO's do.
	if [ "$arch" = arm64 ]; then
		w=$(cmdline_words "$here/image/cmdline.aarch64") || die_start "no $here/image/cmdline.aarch64"
		common="$common $w"
	fi
}
# ---- network (--nic): QEMU devices and the kernel's ip= words ---------------------------------
LINK_NET=10.0.77	# --link's /24: addresses that exist only on that link
# network_devices: netdev and networds for --nic (none without it).
network_devices() {
	netdev=() networds=()
	if [ -n "$nic" ]; then
		case $nic in virtio) dev=virtio-net-pci ;; e1000) dev=e1000 ;; esac
		if [ -n "$link" ]; then
			# Two guests on one Ethernet segment: QEMU's socket network over this host's
			# loopback; nothing reaches the host's network. The listening guest is LINK_NET.1, the
			# connecting one .2.
			me=1
			[ "${link%%:*}" = listen ] || me=2
			# QEMU's connect side neither fails nor retries when nobody listens (a dead link), and a
			# second guest on one listening port waits in its backlog: refuse both before booting.
			if [ "$me" = 2 ] && command -v ss >/dev/null; then
				[ -n "$(ss -Hltn "sport = :${link#*:}" 2>/dev/null)" ] ||
					die_start "--link $link: nothing listens on 127.0.0.1:${link#*:}: start the --link listen:${link#*:} guest first"
				[ -z "$(ss -Htn state established "dport = :${link#*:}" 2>/dev/null)" ] ||
					die_start "--link $link: the link on port ${link#*:} already has its second guest (a link joins two)"
			fi
			netdev=(-netdev "socket,id=n0,${link%%:*}=127.0.0.1:${link#*:}")
			networds=("ip=$LINK_NET.$me:::255.255.255.0:::off")
		elif [ -n "$tap" ]; then
			hostip=$(ip -4 -o addr show dev "$tap" 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4; exit }' || true)
			[ -n "$hostip" ] || die_start "--tap $tap: no such interface with an IPv4 address here"
			guestip=${hostip%.*}.2
			[ "$guestip" != "$hostip" ] || guestip=${hostip%.*}.3
			netdev=(-netdev "tap,id=n0,ifname=$tap,script=no,downscript=no")
			networds=("ip=$guestip::$hostip:255.255.255.0:::off")
			[ -z "$peer" ] || networds+=("isobench.peer=$peer")
		elif [ -n "$cloud" ]; then
			# The cloud's side, imitated: DMI strings, the metadata service (a new imds.py per
			# connection, reading a copy of the user data), DHCP from QEMU's own server. Guestfwd
			# takes only addresses of the user network: so the network is 169.254.0.0/16.
			command -v python3 >/dev/null || die_start "--cloud needs python3: the metadata service's imitation"
			cp "${user_data:-/dev/null}" "$tmp/user-data" || die_start "cannot read --user-data $user_data"
			touch "$imds_log" 2>/dev/null || die_start "--imds-log $imds_log: cannot write"
			imds_log=$(realpath "$imds_log")
			case "$here$tmp$imds_log" in *,* | *[[:space:]]*)
				die_start "--cloud: a comma or blank in a path ($here, $tmp, $imds_log) would split guestfwd's command" ;;
			esac
			fwd=",guestfwd=tcp:169.254.169.254:80-cmd:python3 $here/qemu/imds.py $cloud $imds_fault $imds_log $tmp/user-data"
			if [ -n "$peer" ]; then
				command -v socat >/dev/null || die_start "--peer needs socat (apt-get install socat): guestfwd runs one per connection"
				fwd+=",guestfwd=tcp:169.254.0.100:${peer##*:}-cmd:socat STDIO TCP:$peer"
				note "--cloud $cloud: the peer is 169.254.0.100:${peer##*:} for the guest; the user data names it (isobench.peer=169.254.0.100:${peer##*:})"
			fi
			netdev=(-netdev "user,id=n0,restrict=on,net=169.254.0.0/16,host=169.254.0.2,dhcpstart=169.254.0.15$fwd")
			case $cloud in
				aws) smbios=(-smbios "type=0,vendor=Amazon EC2" -smbios "type=1,manufacturer=Amazon EC2,product=m5.large") ;;
				gce) smbios=(-smbios "type=0,vendor=Google" -smbios "type=1,manufacturer=Google,product=Google Compute Engine") ;;
				azure) smbios=(-smbios "type=1,manufacturer=Microsoft Corporation,product=Virtual Machine"
					-smbios "type=3,asset=7783-7084-3265-9085-8269-3286-77") ;;
				oci) smbios=(-smbios "type=3,asset=OracleCloud.com") ;;
			esac
			netdev+=("${smbios[@]}")
		else
			fwd=
			if [ -n "$peer" ]; then
				command -v socat >/dev/null || die_start "--peer needs socat (apt-get install socat): guestfwd runs one per connection"
				fwd=",guestfwd=tcp:10.0.2.100:${peer##*:}-cmd:socat STDIO TCP:$peer"
				networds=("isobench.peer=10.0.2.100:${peer##*:}")
			fi
			# restrict=on: the guest reaches only QEMU's own services and the guestfwd above.
			netdev=(-netdev "user,id=n0,restrict=on,net=10.0.2.0/24,host=10.0.2.2$fwd")
			networds=("ip=10.0.2.15::10.0.2.2:255.255.255.0:::off" "${networds[@]}")
		fi
		netdev+=(-device "$dev,netdev=n0,romfile=")	# no option ROM: no PXE attempt
		networds+=(carrier_timeout=3)
	fi
}
# uefi_pflash CODE VARS PACKAGE: the UEFI firmware's two pflash drives added to boot, the
# variable store a throw-away copy; a missing file stops (status 7) naming PACKAGE.
uefi_pflash() {
	[ -f "$1" ] || die_start "no UEFI firmware $1 (apt-get install $3)"
	[ -f "$2" ] || die_start "no UEFI variable store $2 (apt-get install $3)"
	cp "$2" "$tmp/vars.fd"
	boot+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$1"
		-drive "if=pflash,format=raw,unit=1,file=$tmp/vars.fd")
}

# boot_drives: what QEMU boots (mode, boot): the kernel directly, or the ISO as a CD or disk.
boot_drives() {
	extra=()
	[ -z "$tests" ] || extra+=("isobench.tests=$tests")
	[ -z "$copies" ] || extra+=("isobench.copies=$copies")
	extra+=("${networds[@]}")
	if [ "$direct" -eq 1 ]; then
		if [ "$pvh" -eq 1 ]; then mode=pvh; kernel=${kernel_opt:-$img/vmlinux}; else
			mode=direct; kernel=${kernel_opt:-$img/$kname}; fi
		initrd=$img/initramfs.cpio.gz
		[ -f "$kernel" ] || die_start "no $kernel (run ./build.sh first)"
		[ -f "$initrd" ] || die_start "no $initrd (run ./build.sh first)"
		if [ -f "$img/IDENTITY" ]; then id=$(head -n 1 "$img/IDENTITY"); else
			id=unknown; note "no $img/IDENTITY; passing isobench.image=unknown"
		fi
		cmdline="$common isobench.suite=$suite_eff isobench.image=$id ${extra[*]} panic=-1 $params"
		cmdline=$(echo "$cmdline" | tr -s ' ')
		cmdline=${cmdline% }
		boot=(-kernel "$kernel" -initrd "$initrd" -append "$cmdline")
	else
		mode=iso
		[ "$firmware" = bios ] || mode=$mode-uefi
		[ "$medium" = cdrom ] || mode=$mode-disk
		iso=${iso:-$img/isobench.iso}
		[ -f "$iso" ] || die_start "no ISO $iso (run ./build.sh first, or use --direct)"
		[ "$suite_eff" = standard ] || extra=("isobench.suite=$suite_eff" "${extra[@]}")
		[ -z "$params" ] || extra+=("$params")
		if [ ${#extra[@]} -gt 0 ]; then
			command -v xorriso >/dev/null || die_start "xorriso not found; needed for a custom ISO command line"
			xorriso -osirrox on -indev "$iso" -extract /isobench "$tmp/iso" >"$tmp/x.log" 2>&1 ||
				die_start "cannot extract /isobench from $iso: $(tail -n 1 "$tmp/x.log")"
			chmod -R u+w "$tmp/iso"
			menu=isolinux
			[ "$arch" = x86_64 ] || menu=systemd-boot
			note "$menu takes no command line from outside: booting a throw-away ISO whose default entry adds: ${extra[*]}"
			# arm64: the ISO carries its boot menu's loader for this rebuild (image/build-iso.sh).
			[ "$arch" = x86_64 ] || export SYSTEMD_BOOT_EFI=$tmp/iso/BOOTAA64.EFI
			ISOBENCH_MENU_TIMEOUT=1 "$here/image/build-iso.sh" "$tmp/custom.iso" "$tmp/iso/$kname" "$tmp/iso/initramfs.gz" \
				"$(head -n 1 "$tmp/iso/IDENTITY")" "${extra[*]}" || die_start "could not build the throw-away ISO"
			iso=$tmp/custom.iso
		fi
		if [ "$arch" = arm64 ]; then	# virt has no IDE: the CD on virtio-scsi, the disk on virtio-blk
			if [ "$medium" = cdrom ]; then
				boot=(-drive "if=none,id=boot,file=$iso,format=raw,media=cdrom,readonly=on")
				boot+=(-device "virtio-scsi-pci,id=scsi0" -device "scsi-cd,drive=boot,bus=scsi0.0")
			else
				boot=(-drive "if=none,id=boot,file=$iso,format=raw,media=disk,snapshot=on")
				boot+=(-device "virtio-blk-pci,drive=boot")
			fi
			uefi_pflash "${AAVMF_CODE:-/usr/share/AAVMF/AAVMF_CODE.fd}" \
				"${AAVMF_VARS:-/usr/share/AAVMF/AAVMF_VARS.fd}" qemu-efi-aarch64
		elif [ "$medium" = cdrom ]; then boot=(-drive "file=$iso,format=raw,media=cdrom,readonly=on")
		else boot=(-drive "file=$iso,format=raw,media=disk,snapshot=on"); fi
		if [ "$firmware" = uefi ] && [ "$arch" = x86_64 ]; then
			uefi_pflash "${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}" \
				"${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}" ovmf
		fi
	fi
}
# scratch_disks: each --scratch image's cache mode (scratch_mode) and QEMU devices (scratch_devs).
scratch_disks() {
	# --scratch disks: QEMU's cache mode per disk (--scratch-cache), O_DIRECT on the host for
	# cache=none: a file system that refuses O_DIRECT (tmpfs: EINVAL) gets writeback, said below.
	scratch_mode=()
	for i in "${!scratch[@]}"; do
		m=$scratch_cache f=${scratch[$i]##*:}
		if [ "$m" = none ] && ! dd if="$f" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null; then
			note "--scratch $f: its file system ($(stat -f -c %T "$f" 2>/dev/null || echo unknown)) refuses O_DIRECT, which cache=none needs: attached with cache=writeback, the host's page cache answering the guest's reads (isobench-report WARNs); put the image on a disk-backed file system"
			m="writeback (fallback: O_DIRECT refused)"
		fi
		case $(stat -f -c %T "$f" 2>/dev/null) in tmpfs | ramfs)
			note "--scratch $f: on $(stat -f -c %T "$f"), the host's memory: the disk tests measure memory behind the virtual disk, not a disk" ;;
		esac
		scratch_mode+=("$m")
	done
	# --scratch disks, each on the interface --scratch-if names, with a serial the guest can select.
	scratch_devs=()
	for i in "${!scratch[@]}"; do
		# werror/rerror=report: an I/O error (ENOSPC of a full host file system too, which QEMU
		# by default answers by pausing the guest until the timeout) reaches the guest, whose test
		# FAILs with the errno while the run goes on.
		# cache=none,aio=native: O_DIRECT on the host with Linux AIO (QEMU's manual, -drive: aio=native
		# needs cache.direct=on; io_uring is QEMU's too, but native needs no io_uring in the host
		# kernel, which some hosts disable); writeback is QEMU's default.
		copt=cache=writeback
		[ "${scratch_mode[$i]}" != none ] || copt=cache=none,aio=native
		scratch_devs+=(-drive "file=${scratch[$i]},format=raw,if=none,id=scr$i,$copt,werror=report,rerror=report")
		case $scratch_if in
			virtio) scratch_devs+=(-device "virtio-blk-pci,drive=scr$i,serial=isobench-scratch$i") ;;
			nvme) scratch_devs+=(-device "nvme,drive=scr$i,serial=isobench-scratch$i") ;;
			ahci) scratch_devs+=(-device "ahci,id=ahci$i" -device "ide-hd,drive=scr$i,bus=ahci$i.0,serial=isobench-scratch$i") ;;
		esac
	done
}
