#!/usr/bin/env python3
"""tests/disk-rules.py KIND FILE RAW — does a cloud's image file follow that cloud's rules?

In:  KIND, one of gce (isobench-gce.tar.gz), vhd (isobench-azure.vhd), vmdk
     (isobench-stream.vmdk), ova (isobench.ova); FILE, the file; RAW, the raw disk it was made
     from (image/build-disks.sh's isobench.raw). Every rule is read from FILE's own bytes with
     struct, gzip, zlib and hashlib, never through qemu-img, so a reader other than QEMU's
     judges QEMU's output.
Out: one line per rule on stdout, "ok: KIND: RULE" or "FAIL: KIND: RULE: what was found"
     (tests/test-disks.sh counts them). Exit 0 when every rule held, 1 otherwise, 2 on a
     usage error.
Rules and their sources (docs/clouds.md cites them in full):
  gce  Google Compute Engine, "Manually import boot disks" (import-existing-image): a gzip'd
       tar made by `tar --format=oldgnu -Sczf`, one member named disk.raw whose size is a
       whole number of GiB; here also: its contents are RAW's, then zeros.
  vhd  Azure (Add-AzVhd: a .vhd of "N * MiB + 512 bytes"; DESIGN.md §8: fixed, not VHDX): a
       fixed VHD whose virtual size is a multiple of 1 MiB; the footer as Microsoft's VHD Image Format
       Specification 1.0 defines it: cookie "conectix", features bit 1, version 1.0, data
       offset all ones for a fixed disk, disk type 2, a one's-complement checksum; Azure's
       upload size (DiskCreationData.UploadSizeBytes) between 20 MiB and 32 TiB, each plus the
       footer; here also: the data before the footer is RAW.
  vmdk VMware's Virtual Disk Format 5.0, stream-optimized sparse extent: magic "KDMV",
       version 3 (ESXi refuses 1), flags valid-newline-test + compressed grains + markers,
       deflate, descriptor createType="streamOptimized"; every grain marker inflates to RAW's
       bytes at its LBA, grains not stored are zeros in RAW, the stream ends with an
       end-of-stream marker.
  ova  DMTF DSP0243 (OVF 1.x): a ustar archive, the .ovf descriptor first (ovftool and
       VMware Workstation refuse another order: osbuild/images issue 431), the manifest next,
       then the files the descriptor references; each File's ovf:size its member's
       bytes; the manifest's SHA256 lines right; the Disk's capacity the VMDK's virtual size;
       the disk a stream-optimized VMDK (checked as vmdk above) on PVSCSI, a VMXNET3 NIC.
"""
import gzip
import hashlib
import io
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

MIB = 1 << 20
GIB = 1 << 30
failed = 0


def rule(kind, what, good, found=""):
    """One rule's verdict line; counts failures."""
    global failed
    if good:
        print(f"ok: {kind}: {what}")
    else:
        failed += 1
        print(f"FAIL: {kind}: {what}: {found}")
    return good


def octal(field):
    """A tar header's octal number (NUL/space terminated); GNU base-256 when the top bit is set."""
    if field and field[0] & 0x80:
        return int.from_bytes(bytes([field[0] & 0x7F]) + field[1:], "big")
    s = field.split(b"\0", 1)[0].strip()
    return int(s, 8) if s else 0


def zero(b):
    return not b.strip(b"\0")


def check_gce(path, raw):
    k = "gce"
    blob = open(path, "rb").read()
    if not rule(k, "gzip stream (magic 1f 8b, deflate)", blob[:3] == b"\x1f\x8b\x08", blob[:3].hex()):
        return
    try:
        tar = gzip.decompress(blob)
    except (OSError, EOFError, zlib.error) as e:
        rule(k, "gzip stream decompresses", False, str(e))
        return
    h = tar[:512]
    name = h[:100].split(b"\0", 1)[0]
    rule(k, "first member named disk.raw", name == b"disk.raw", name)
    rule(k, "oldgnu format (magic 'ustar  \\0')", h[257:265] == b"ustar  \0", h[257:265])
    rule(k, "sparse member (type 'S', tar -S)", h[156:157] == b"S", h[156:157])
    chk = octal(h[148:156])
    rule(k, "header checksum", chk == sum(h[:148]) + 8 * 32 + sum(h[156:]), chk)
    if h[156:157] != b"S":
        return
    # oldgnu sparse: 4 (offset, numbytes) pairs at 386, isextended at 482, realsize at 483;
    # extension blocks of 21 pairs and their own isextended byte at 504.
    sparse = [(octal(h[386 + 24 * i:398 + 24 * i]), octal(h[398 + 24 * i:410 + 24 * i])) for i in range(4)]
    ext, pos = h[482], 512
    while ext:
        e = tar[pos:pos + 512]
        sparse += [(octal(e[24 * i:12 + 24 * i]), octal(e[12 + 24 * i:24 + 24 * i])) for i in range(21)]
        ext, pos = e[504], pos + 512
    sparse = [(o, n) for o, n in sparse if n or o]
    real = octal(h[483:495])
    stored = octal(h[124:136])
    rule(k, "disk.raw's size is a whole number of GiB", real > 0 and real % GIB == 0, f"{real} bytes")
    rule(k, "disk.raw at least as large as the raw disk", real >= len(raw), f"{real} < {len(raw)}")
    rule(k, "sparse map's bytes equal the stored size", sum(n for _, n in sparse) == stored,
         f"{sum(n for _, n in sparse)} vs {stored}")
    # Contents: each stored run equals the raw disk there (zeros past its end); holes are zeros.
    data, covered, good = pos, 0, True
    for off, n in sparse:
        chunk = tar[data:data + n]
        want = raw[off:off + n].ljust(n, b"\0") if off < len(raw) else b"\0" * n
        if chunk != want or off < covered:
            good = False
        if good and covered < min(off, len(raw)) and not zero(raw[covered:min(off, len(raw))]):
            good = False
        covered, data = off + n, data + n
    if covered < len(raw) and not zero(raw[covered:]):
        good = False
    rule(k, "disk.raw holds the raw disk's bytes, then zeros", good)
    end = data + (-data % 512)
    rule(k, "one member only (end-of-archive blocks follow disk.raw)",
         len(tar) >= end + 1024 and zero(tar[end:]), f"{len(tar) - end} bytes after disk.raw")


def check_vhd(path, raw):
    k = "vhd"
    blob = open(path, "rb").read()
    f = blob[-512:]
    (cookie, features, version, dataoff, _ts, _app, _appv, _os, orig, cur, _geo, dtype, chk) = \
        struct.unpack_from(">8sIIQI4sI4sQQIII", f, 0)
    rule(k, "footer cookie 'conectix' in the last 512 bytes", cookie == b"conectix", cookie)
    rule(k, "features: the reserved bit (2) set", features & 2 == 2, hex(features))
    rule(k, "file format version 1.0", version == 0x00010000, hex(version))
    rule(k, "disk type 2 (fixed)", dtype == 2, dtype)
    rule(k, "data offset all ones (a fixed disk has no dynamic header)", dataoff == (1 << 64) - 1, hex(dataoff))
    calc = ~(sum(f[:64]) + sum(f[68:])) & 0xFFFFFFFF
    rule(k, "footer checksum (one's complement of the byte sum)", chk == calc, f"{chk:#x}, computed {calc:#x}")
    rule(k, "virtual size a multiple of 1 MiB", cur > 0 and cur % MIB == 0, f"{cur} bytes")
    rule(k, "upload size within Azure's 20 MiB + 512 .. 32 TiB + 512 bytes",
         20 * MIB <= cur <= 32 * 1024 * GIB, f"{cur} + 512 bytes")
    rule(k, "original size = current size", orig == cur, f"{orig} vs {cur}")
    rule(k, "file = virtual size + the 512-byte footer", len(blob) == cur + 512, f"{len(blob)} vs {cur}+512")
    rule(k, "data before the footer is the raw disk", blob[:-512] == raw, "differs")


VMDK_FLAGS = (1 << 0) | (1 << 16) | (1 << 17)  # valid newline test, compressed grains, markers
GD_AT_END = (1 << 64) - 1


def check_vmdk(path, raw, k="vmdk"):
    """The stream-optimized VMDK rules; returns the virtual size in bytes (0 when unreadable)."""
    blob = open(path, "rb").read() if isinstance(path, str) else path
    (magic, version, flags, capacity, grain, doff, dsize, _ngte, _rgd, gdoff, overhead, _unclean,
     nl, comp) = struct.unpack_from("<4sIIQQQQIQQQB4sH", blob, 0)
    if not rule(k, "sparse extent magic 'KDMV'", magic == b"KDMV", magic):
        return 0
    rule(k, "header version 3 (ESXi refuses version 1)", version == 3, version)
    rule(k, "flags: newline test, compressed grains, markers", flags & VMDK_FLAGS == VMDK_FLAGS, hex(flags))
    rule(k, "newline-detection bytes intact (no text-mode mangling)", nl == b"\n \r\n", nl)
    rule(k, "compression deflate (1)", comp == 1, comp)
    rule(k, "grain size a power of two above 8 sectors", grain > 8 and grain & (grain - 1) == 0, grain)
    rule(k, "capacity = the raw disk's sectors", capacity * 512 == len(raw), f"{capacity} sectors")
    desc = blob[doff * 512:(doff + dsize) * 512].split(b"\0", 1)[0].decode("ascii", "replace")
    rule(k, "descriptor: createType=\"streamOptimized\"", 'createType="streamOptimized"' in desc, desc[:80])
    ext = re.search(r'^RW (\d+) SPARSE "', desc, re.M)
    rule(k, "descriptor: one RW SPARSE extent of the capacity", bool(ext) and int(ext.group(1)) == capacity,
         ext.group(0) if ext else "none")
    if gdoff == GD_AT_END:
        foot = blob[-1024:-512]
        rule(k, "GD_AT_END: a footer with the real GD offset", foot[:4] == b"KDMV" and
             struct.unpack_from("<Q", foot, 56)[0] != GD_AT_END)
    # Walk the stream: grain markers (LBA, size, deflate data) and metadata markers (size 0).
    pos, seen, good, eos, gbytes = overhead * 512, set(), True, False, grain * 512
    while pos + 16 <= len(blob):
        lba, size = struct.unpack_from("<QI", blob, pos)
        if size:
            try:
                data = zlib.decompress(blob[pos + 12:pos + 12 + size])
            except zlib.error:
                good = False
                break
            want = raw[lba * 512:lba * 512 + gbytes]
            if lba % grain or data[:len(want)] != want or lba in seen:
                good = False
            seen.add(lba)
            pos += (12 + size + 511) // 512 * 512
        else:
            mtype = struct.unpack_from("<I", blob, pos + 12)[0]
            if mtype == 0:
                eos = True
                break
            pos += 512 + lba * 512
    rule(k, "every grain inflates to the raw disk's bytes at its LBA", good and bool(seen))
    missing = all(zero(raw[g * 512:g * 512 + gbytes]) for g in range(0, capacity, grain) if g not in seen)
    rule(k, "grains not in the stream are zeros in the raw disk", missing)
    rule(k, "the stream ends with an end-of-stream marker", eos and zero(blob[pos:pos + 512]),
         "none" if not eos else "not all zeros")
    return capacity * 512


def check_ova(path, raw):
    k = "ova"
    blob = open(path, "rb").read()
    members, pos = [], 0
    while pos + 512 <= len(blob) and not zero(blob[pos:pos + 512]):
        h = blob[pos:pos + 512]
        name = h[:100].split(b"\0", 1)[0].decode()
        size = octal(h[124:136])
        members.append((name, h[257:265], h[156:157], blob[pos + 512:pos + 512 + size]))
        pos += 512 + size + (-size % 512)
    names = [m[0] for m in members]
    rule(k, "every member in POSIX ustar format ('ustar\\0' '00')",
         bool(members) and all(m[1] == b"ustar\x0000" for m in members), [m[1] for m in members])
    rule(k, "every member a plain file without a directory", all(m[2] in (b"0", b"\0") and "/" not in m[0]
                                                                for m in members), names)
    rule(k, "the OVF descriptor first, the manifest second", len(names) >= 3 and names[0].endswith(".ovf")
         and names[1].endswith(".mf"), names)
    if len(members) < 3:
        return
    files = {m[0]: m[3] for m in members}
    ns = {"ovf": "http://schemas.dmtf.org/ovf/envelope/1",
          "rasd": "http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData"}
    O = "{%s}" % ns["ovf"]
    try:
        env = ET.fromstring(files[names[0]])
    except ET.ParseError as e:
        rule(k, "the descriptor is XML", False, str(e))
        return
    refs = {f.get(O + "href"): f for f in env.findall("ovf:References/ovf:File", ns)}
    rule(k, "References name exactly the members after the manifest", sorted(refs) == sorted(names[2:]),
         f"{sorted(refs)} vs {names[2:]}")
    rule(k, "each File's ovf:size is its member's bytes", all(
        r in files and int(f.get(O + "size", -1)) == len(files[r]) for r, f in refs.items()),
        [(r, f.get(O + "size"), len(files.get(r, b""))) for r, f in refs.items()])
    mf = dict(re.findall(r"^SHA256\(([^)]+)\)= ([0-9a-f]{64})$", files[names[1]].decode(), re.M))
    rule(k, "manifest: one SHA256 line for the descriptor and each File",
         sorted(mf) == sorted([names[0]] + list(refs)), sorted(mf))
    rule(k, "manifest: every SHA256 right", all(
        n in files and hashlib.sha256(files[n]).hexdigest() == h for n, h in mf.items()))
    disks = env.findall("ovf:DiskSection/ovf:Disk", ns)
    rule(k, "one Disk", len(disks) == 1, len(disks))
    if len(disks) != 1:
        return
    d = disks[0]
    fmt = d.get(O + "format", "")
    rule(k, "Disk format is stream-optimized VMDK", fmt.endswith("vmdk.html#streamOptimized"), fmt)
    href = next((r for r, f in refs.items() if f.get(O + "id") == d.get(O + "fileRef")), None)
    if not rule(k, "Disk's fileRef names a File", href in files, d.get(O + "fileRef")):
        return
    vsize = check_vmdk(files[href], raw, k + " disk")
    units = d.get(O + "capacityAllocationUnits", "byte")
    mult = {"byte": 1, "byte * 2^20": MIB, "byte * 2^30": GIB}.get(units, 0)
    rule(k, "Disk's capacity is the VMDK's virtual size", int(d.get(O + "capacity", -1)) * mult == vsize,
         f"{d.get(O + 'capacity')} {units} vs {vsize}")
    subs = [e.text for e in env.iter("{%s}ResourceSubType" % ns["rasd"])]
    rule(k, "hardware: a PVSCSI controller and a VMXNET3 NIC", "VirtualSCSI" in subs and "VmxNet3" in subs, subs)


def main(argv):
    kinds = {"gce": check_gce, "vhd": check_vhd, "vmdk": check_vmdk, "ova": check_ova}
    if len(argv) != 4 or argv[1] not in kinds:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    try:
        raw = open(argv[3], "rb").read()
        kinds[argv[1]](argv[2], raw)
    except (OSError, struct.error, ValueError, UnicodeDecodeError) as e:
        rule(argv[1], "file readable as its format", False, f"{type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
