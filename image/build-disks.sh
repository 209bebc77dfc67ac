#!/usr/bin/env bash
# image/build-disks.sh OUTDIR ISO [raw|arm64] — the image as disk files for hypervisors and clouds.
#
# In:  ISO, an isobench hybrid ISO (image/build-iso.sh): as a disk it boots by BIOS through
#      its MBR and by UEFI through its GPT and EFI system partition. qemu-img (Debian package
#      qemu-utils), GNU tar, gzip, sha256sum.
# Out: OUTDIR/isobench.raw    the ISO's bytes, zero-padded to a whole MiB
#      OUTDIR/isobench.qcow2  QEMU/KVM, libvirt, Proxmox, OpenStack, Oracle Cloud
#      OUTDIR/isobench.vmdk   VMware Workstation/Fusion/Player, VirtualBox (monolithic sparse)
#      OUTDIR/isobench.vhdx   Hyper-V, generation 2 (UEFI; turn Secure Boot off) or 1 (BIOS)
#      The clouds' and ESXi's import formats (docs/clouds.md; each provider's rules are
#      checked byte by byte in tests/test-disks.sh):
#      OUTDIR/isobench-gce.tar.gz   Google Compute Engine: one member disk.raw (the raw disk
#                                   padded to a whole GiB), GNU tar's oldgnu format, sparse,
#                                   gzip'd
#      OUTDIR/isobench-azure.vhd    Azure: fixed VHD (footer "conectix", disk type 2), its
#                                   virtual size the raw disk's (a whole MiB)
#      OUTDIR/isobench-stream.vmdk  AWS VM Import, Oracle Cloud, ESXi: stream-optimized VMDK
#                                   (header version 3, deflate-compressed grains)
#      OUTDIR/isobench.ova          ESXi, vSphere, VirtualBox: a ustar archive of isobench.ovf
#                                   (one VM: OVA_CPUS vCPUs, default 2, and OVA_MEM_MIB MiB,
#                                   default 1024, from the environment; PVSCSI disk, VMXNET3
#                                   NIC, BIOS; size it as the host it is compared with,
#                                   docs/qemu.md "Both sides the same size"),
#                                   isobench.mf (SHA256 of the other two) and
#                                   isobench-disk1.vmdk (the same bytes as isobench-stream.vmdk)
#      Every disk holds the same contents as isobench.raw (qemu-img compare; disk.raw's extra
#      bytes are zeros), so every one boots the same kernel, initramfs and menu as the ISO.
#      qcow2/vmdk/vhdx/vhd carry random identifiers or times (VMDK CID, VHDX GUIDs, the VHD's
#      UUID and time stamp): unlike the ISO they are not byte-reproducible.
#      With `raw`: OUTDIR/isobench.raw only (no qemu-img; ARCH=arm64 ./build.sh).
#      With `arm64`: all but the OVA, whose OVF describes an x86 VM (BIOS, PVSCSI); the
#      clouds' files serve their arm64 instances (Graviton, Tau T2A/Axion, Cobalt/Ampere,
#      OCI Ampere: ARCH=arm64 ./build.sh disks).
# Every file is made under OUTDIR/.build and moved into OUTDIR only when all of them are made
# (so a VMDK's descriptor names its own file, never a temporary one); then the files of an
# earlier run this one does not make (another mode's OVA, ...) are removed. A failure leaves
# OUTDIR as it was and removes .build.
# Errors: exits 1 with one line "build-disks: <reason>" on stderr (the failing tool's first
# line of error in it); 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "build-disks: MSG", exit 1
if [ $# -lt 2 ] || [ $# -gt 3 ] || ! [[ ${3:-raw} =~ ^(raw|arm64)$ ]]; then
	echo "usage: image/build-disks.sh OUTDIR ISO [raw|arm64]" >&2
	exit 2
fi
dest=$1 iso=$2 only='' arm64=''
ova_cpus=${OVA_CPUS:-2} ova_mib=${OVA_MEM_MIB:-1024}
if ! [[ $ova_cpus =~ ^[1-9][0-9]{0,3}$ && $ova_mib =~ ^[1-9][0-9]{1,7}$ ]]; then
	echo "build-disks: OVA_CPUS (1-9999) and OVA_MEM_MIB (10-99999999) must be whole numbers, not '$ova_cpus', '$ova_mib'" >&2
	exit 2
fi
case ${3:-} in raw) only=raw ;; arm64) arm64=1 ;; esac
[ -e "$iso" ] || die "no such file: $iso"
[ -f "$iso" ] || die "not a file: $iso"
[ "$(dd if="$iso" bs=1 skip=32769 count=5 status=none 2>/dev/null)" = CD001 ] ||
	die "not an ISO 9660 image (no CD001 at byte 32769): $iso"
[ -n "$only" ] || command -v qemu-img >/dev/null || die "qemu-img not found (apt-get install qemu-utils)"
# Every tool's stderr goes to $err (outside OUTDIR, whose file system may be the full one), and
# its first line into die's one line.
err=$(mktemp) || die "cannot make a temporary file"
b=$dest/.build
trap 'rm -rf "$b" "$err"' EXIT
fail() { die "$1: $(grep -m 1 . "$err" || echo 'no reason given')"; }
mkdir -p "$dest" 2>"$err" || fail "cannot make $dest"
rm -rf "$b"
mkdir "$b" 2>"$err" || fail "cannot make $b"
raw=$b/isobench.raw
cp -- "$iso" "$raw" 2>"$err" || fail "cannot write $dest/isobench.raw"
mib=$((($(stat -c %s "$iso") + 1048575) / 1048576))
truncate -s "${mib}M" "$raw" 2>"$err" || fail "cannot grow $dest/isobench.raw to $mib MiB"
if [ -z "$only" ]; then
	# name:format:options
	for spec in qcow2:qcow2: vmdk:vmdk:subformat=monolithicSparse vhdx:vhdx:subformat=dynamic; do
		IFS=: read -r ext fmt opts <<<"$spec"
		f=$b/isobench.$ext
		qemu-img convert -f raw -O "$fmt" ${opts:+-o "$opts"} "$raw" "$f" 2>"$err" ||
			fail "qemu-img convert to $fmt failed"
		qemu-img compare -q -f raw -F "$fmt" "$raw" "$f" 2>"$err" ||
			fail "${f##*/}: its contents differ from isobench.raw after conversion"
	done
fi

# ovf FILE-BYTES CAPACITY-BYTES: the OVF 1.0 descriptor of the OVA on stdout: one VM (2 vCPUs,
# 1 GiB, virtual hardware 13 = ESXi 6.5 and later, BIOS), its disk isobench-disk1.vmdk
# (FILE-BYTES long, CAPACITY-BYTES of virtual disk) on a PVSCSI controller, one VMXNET3 NIC on
# "VM Network". The rasd elements of each Item are in the schema's (alphabetical) order,
# which ovftool and ESXi check. A serial port cannot be described portably: docs/clouds.md
# says how to add one after the import.
ovf() {
	local rasd='http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData'
	cat <<EOF_OVF
<?xml version="1.0" encoding="UTF-8"?>
<Envelope xmlns="http://schemas.dmtf.org/ovf/envelope/1" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:rasd="$rasd" xmlns:vmw="http://www.vmware.com/schema/ovf" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <References>
    <File ovf:href="isobench-disk1.vmdk" ovf:id="file1" ovf:size="$1"/>
  </References>
  <DiskSection>
    <Info>Virtual disk information</Info>
    <Disk ovf:capacity="$2" ovf:capacityAllocationUnits="byte" ovf:diskId="vmdisk1" ovf:fileRef="file1" ovf:format="http://www.vmware.com/interfaces/specifications/vmdk.html#streamOptimized"/>
  </DiskSection>
  <NetworkSection>
    <Info>The list of logical networks</Info>
    <Network ovf:name="VM Network">
      <Description>The VM Network network</Description>
    </Network>
  </NetworkSection>
  <VirtualSystem ovf:id="isobench">
    <Info>isobench: boots the benchmark image, runs the suite, powers off</Info>
    <Name>isobench</Name>
    <OperatingSystemSection ovf:id="101" vmw:osType="otherLinux64Guest">
      <Info>The kind of installed guest operating system</Info>
    </OperatingSystemSection>
    <VirtualHardwareSection>
      <Info>Virtual hardware requirements</Info>
      <System>
        <vssd:ElementName>Virtual Hardware Family</vssd:ElementName>
        <vssd:InstanceID>0</vssd:InstanceID>
        <vssd:VirtualSystemIdentifier>isobench</vssd:VirtualSystemIdentifier>
        <vssd:VirtualSystemType>vmx-13</vssd:VirtualSystemType>
      </System>
      <Item>
        <rasd:AllocationUnits>hertz * 10^6</rasd:AllocationUnits>
        <rasd:Description>Number of Virtual CPUs</rasd:Description>
        <rasd:ElementName>$ova_cpus virtual CPU(s)</rasd:ElementName>
        <rasd:InstanceID>1</rasd:InstanceID>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>$ova_cpus</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits>
        <rasd:Description>Memory Size</rasd:Description>
        <rasd:ElementName>${ova_mib}MB of memory</rasd:ElementName>
        <rasd:InstanceID>2</rasd:InstanceID>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>$ova_mib</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:Address>0</rasd:Address>
        <rasd:Description>SCSI Controller</rasd:Description>
        <rasd:ElementName>SCSI controller 0</rasd:ElementName>
        <rasd:InstanceID>3</rasd:InstanceID>
        <rasd:ResourceSubType>VirtualSCSI</rasd:ResourceSubType>
        <rasd:ResourceType>6</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:AddressOnParent>0</rasd:AddressOnParent>
        <rasd:ElementName>Hard disk 1</rasd:ElementName>
        <rasd:HostResource>ovf:/disk/vmdisk1</rasd:HostResource>
        <rasd:InstanceID>4</rasd:InstanceID>
        <rasd:Parent>3</rasd:Parent>
        <rasd:ResourceType>17</rasd:ResourceType>
      </Item>
      <Item>
        <rasd:AddressOnParent>7</rasd:AddressOnParent>
        <rasd:AutomaticAllocation>true</rasd:AutomaticAllocation>
        <rasd:Connection>VM Network</rasd:Connection>
        <rasd:Description>VmxNet3 ethernet adapter on "VM Network"</rasd:Description>
        <rasd:ElementName>Network adapter 1</rasd:ElementName>
        <rasd:InstanceID>5</rasd:InstanceID>
        <rasd:ResourceSubType>VmxNet3</rasd:ResourceSubType>
        <rasd:ResourceType>10</rasd:ResourceType>
      </Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
EOF_OVF
}

# The clouds' formats. The archives' time stamps and owners are the ISO's and root's, so the
# GCE archive and the OVA's own members do not depend on when or by whom they were made.
mtime=@$(stat -c %Y "$iso")
tarfix=(--mtime="$mtime" --owner=0 --group=0 --numeric-owner)

# Azure: a fixed VHD whose virtual size is the raw disk's, exactly (force_size: not rounded
# to a CHS geometry, which would break the 1 MiB rule).
clouds() {
	local f=$b/isobench-azure.vhd fmt g gib o vsize m
	qemu-img convert -f raw -O vpc -o subformat=fixed,force_size "$raw" "$f" 2>"$err" ||
		fail "qemu-img convert to a fixed VHD failed"

	# Stream-optimized VMDK (qemu-img writes header version 3, the one ESXi requires).
	f=$b/isobench-stream.vmdk
	qemu-img convert -f raw -O vmdk -o subformat=streamOptimized,adapter_type=lsilogic "$raw" "$f" 2>"$err" ||
		fail "qemu-img convert to a stream-optimized VMDK failed"
	for fmt in vpc:isobench-azure.vhd vmdk:isobench-stream.vmdk; do
		qemu-img compare -q -f raw -F "${fmt%%:*}" "$raw" "$b/${fmt#*:}" 2>"$err" ||
			fail "${fmt#*:}: its contents differ from isobench.raw after conversion"
	done

	# GCE: disk.raw, a sparse copy of the raw disk grown to a whole GiB, alone in an oldgnu tar.
	g=$b/.gce
	mkdir "$g" 2>"$err" || fail "cannot make $g"
	cp --sparse=always "$raw" "$g/disk.raw" 2>"$err" || fail "cannot write GCE's disk.raw"
	gib=$((($(stat -c %s "$raw") + 1073741823) / 1073741824))
	truncate -s "${gib}G" "$g/disk.raw" 2>"$err" || fail "cannot grow GCE's disk.raw to $gib GiB"
	{ tar --format=oldgnu -S -C "$g" "${tarfix[@]}" -cf - disk.raw | gzip -n >"$b/isobench-gce.tar.gz"; } 2>"$err" ||
		fail "cannot write isobench-gce.tar.gz"
	rm -rf "$g"
	[ -z "$arm64" ] || return 0

	# OVA: the OVF descriptor first, then the manifest, then the disk (the order ovftool writes
	# and ESXi's importer streams). Sizes in the OVF are the VMDK file's bytes and the disk's
	# virtual bytes.
	o=$b/.ova
	mkdir "$o" 2>"$err" || fail "cannot make $o"
	cp "$b/isobench-stream.vmdk" "$o/isobench-disk1.vmdk" 2>"$err" || fail "cannot write the OVA's VMDK"
	vsize=$(stat -c %s "$raw")
	ovf "$(stat -c %s "$o/isobench-disk1.vmdk")" "$vsize" >"$o/isobench.ovf" 2>"$err" || fail "cannot write the OVF"
	(cd "$o" && for m in isobench.ovf isobench-disk1.vmdk; do
		echo "SHA256($m)= $(sha256sum "$m" | cut -d' ' -f1)"
	done) >"$o/isobench.mf" 2>"$err" || fail "cannot write the manifest"
	tar --format=ustar -C "$o" "${tarfix[@]}" -cf "$b/isobench.ova" isobench.ovf isobench.mf isobench-disk1.vmdk 2>"$err" ||
		fail "cannot write isobench.ova"
	rm -rf "$o"
}
[ -n "$only" ] || clouds

# Into OUTDIR: every file made, then what an earlier run left that this one did not make.
made=" "
for f in "$b"/isobench*; do
	mv -f "$f" "$dest/" 2>"$err" || fail "cannot move ${f##*/} into $dest"
	made="$made${f##*/} "
done
for f in isobench.raw isobench.qcow2 isobench.vmdk isobench.vhdx isobench-gce.tar.gz \
	isobench-azure.vhd isobench-stream.vmdk isobench.ova; do
	[[ $made == *" $f "* ]] || rm -f "$dest/$f"
done
