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
#                                   (one VM: 2 vCPUs, 1 GiB, PVSCSI disk, VMXNET3 NIC, BIOS),
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
# Errors: exits 1 with one line "build-disks: <reason>" on stderr; 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "build-disks: MSG", exit 1
if [ $# -lt 2 ] || [ $# -gt 3 ] || ! [[ ${3:-raw} =~ ^(raw|arm64)$ ]]; then
	echo "usage: image/build-disks.sh OUTDIR ISO [raw|arm64]" >&2
	exit 2
fi
dest=$1 iso=$2 only='' arm64=''
case ${3:-} in raw) only=raw ;; arm64) arm64=1 ;; esac
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
    <OperatingSystemSection ovf:id="101" vmw:osType="other5xLinux64Guest">
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
        <rasd:ElementName>2 virtual CPU(s)</rasd:ElementName>
        <rasd:InstanceID>1</rasd:InstanceID>
        <rasd:ResourceType>3</rasd:ResourceType>
        <rasd:VirtualQuantity>2</rasd:VirtualQuantity>
      </Item>
      <Item>
        <rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits>
        <rasd:Description>Memory Size</rasd:Description>
        <rasd:ElementName>1024MB of memory</rasd:ElementName>
        <rasd:InstanceID>2</rasd:InstanceID>
        <rasd:ResourceType>4</rasd:ResourceType>
        <rasd:VirtualQuantity>1024</rasd:VirtualQuantity>
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
f=$dest/isobench-azure.vhd
qemu-img convert -f raw -O vpc -o subformat=fixed,force_size "$raw" "$f.tmp" 2>"$dest/.err" ||
	die "qemu-img convert to a fixed VHD failed: $(head -n 1 "$dest/.err")"
mv "$f.tmp" "$f"

# Stream-optimized VMDK (qemu-img writes header version 3, the one ESXi requires).
f=$dest/isobench-stream.vmdk
qemu-img convert -f raw -O vmdk -o subformat=streamOptimized,adapter_type=lsilogic "$raw" "$f.tmp" 2>"$dest/.err" ||
	die "qemu-img convert to a stream-optimized VMDK failed: $(head -n 1 "$dest/.err")"
mv "$f.tmp" "$f"
for fmt in vpc:isobench-azure.vhd vmdk:isobench-stream.vmdk; do
	qemu-img compare -q -f raw -F "${fmt%%:*}" "$raw" "$dest/${fmt#*:}" 2>"$dest/.err" ||
		die "${fmt#*:}: its contents differ from $raw after conversion: $(head -n 1 "$dest/.err")"
done

# GCE: disk.raw, a sparse copy of the raw disk grown to a whole GiB, alone in an oldgnu tar.
g=$dest/.gce
rm -rf "$g" && mkdir "$g"
cp --sparse=always "$raw" "$g/disk.raw"
gib=$((($(stat -c %s "$raw") + 1073741823) / 1073741824))
truncate -s "${gib}G" "$g/disk.raw"
tar --format=oldgnu -S -C "$g" "${tarfix[@]}" -cf - disk.raw | gzip -n >"$dest/isobench-gce.tar.gz.tmp" ||
	die "cannot write $dest/isobench-gce.tar.gz"
mv "$dest/isobench-gce.tar.gz.tmp" "$dest/isobench-gce.tar.gz"
rm -rf "$g"

[ -z "$arm64" ] || { rm -f "$dest/.err"; exit 0; }

# OVA: the OVF descriptor first, then the manifest, then the disk (the order ovftool writes
# and ESXi's importer streams). Sizes in the OVF are the VMDK file's bytes and the disk's
# virtual bytes.
o=$dest/.ova
rm -rf "$o" && mkdir "$o"
cp "$dest/isobench-stream.vmdk" "$o/isobench-disk1.vmdk"
vsize=$(stat -c %s "$raw")
ovf "$(stat -c %s "$o/isobench-disk1.vmdk")" "$vsize" >"$o/isobench.ovf"
(cd "$o" && for m in isobench.ovf isobench-disk1.vmdk; do
	echo "SHA256($m)= $(sha256sum "$m" | cut -d' ' -f1)"
done) >"$o/isobench.mf"
tar --format=ustar -C "$o" "${tarfix[@]}" -cf "$dest/isobench.ova.tmp" isobench.ovf isobench.mf isobench-disk1.vmdk ||
	die "cannot write $dest/isobench.ova"
mv "$dest/isobench.ova.tmp" "$dest/isobench.ova"
rm -rf "$o" "$dest/.err"
