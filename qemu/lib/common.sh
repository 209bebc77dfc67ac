# shellcheck shell=bash disable=SC2154,SC2034 # the globals qemu/run's parts share (set in one, read in another)
# qemu/lib/common.sh — what every part of qemu/run uses; sourced by qemu/run once $prog (its
# name in messages) and $here (the checkout) are set. In: lib/status.h through lib/sh/status.sh.
# Out: st[NAME], the exit statuses by name (none readable: it stops with NOSTART's number); usage (the
# --help text), die_usage MSG (status USAGE), die_start MSG (NOSTART), note MSG (a line on
# stderr), judge LOG [table] (a log's verdict, only through isobench-report; its status ours).
# Exit statuses, by name: lib/status.h's "#define EXIT_<NAME> <N>" lines (lib/sh/status.sh),
# the one table of every isobench tool (docs/exit-status.md). Without it nothing can start: 7, its NOSTART.
declare -A st=()
# shellcheck source=../../lib/sh/status.sh
if . "$here/lib/sh/status.sh" 2>/dev/null; then
	while read -r name n; do st[$name]=$n; done < <(exit_statuses)
fi
if [ "${#st[@]}" -lt 8 ]; then
	echo "$prog: cannot read the exit statuses from $here/lib/status.h" >&2
	exit 7 # lib/status.h's EXIT_NOSTART, which could not be read
fi

usage() {
	cat <<EOF
usage: qemu/run [options]

Boot the isobench image in QEMU with the serial console in a log file, show progress,
then judge the log: out/isobench-report --boot prints the results table and decides the
status (--judge uses its --check mode). Both progress and judgement go through it (its
record parser checks every CRC); without it qemu/run does not start (status 7).

  --arch A          x86_64|arm64 (default x86_64). arm64: the image in OUT/arm64/ on
                    qemu-system-aarch64 -M virt; the ISO (CD or, with --medium disk, a disk)
                    by UEFI (AAVMF: /usr/share/AAVMF, or AAVMF_CODE and AAVMF_VARS from the
                    environment), or --direct: OUT/arm64/Image with -kernel (device tree, no
                    firmware). CPU under TCG: max,pauth-impdef=on (every feature; QEMU's cheap
                    pointer-authentication hash instead of QARMA5); KVM only on an arm64 host
  --iso FILE        ISO to boot (default OUT/isobench.iso)
  --direct          boot OUT/bzImage + OUT/initramfs.cpio.gz with -kernel/-initrd/-append
                    (command line as the ISO's, isobench.image=\$(cat OUT/IDENTITY), panic=-1)
  --pvh             like --direct, but boot the uncompressed ELF OUT/vmlinux: QEMU enters it
                    through its PVH entry point (Xen ELF note; CONFIG_PVH), no bzImage setup
  --kernel FILE     with --direct/--pvh: this kernel instead of OUT/bzImage or OUT/vmlinux
  --firmware F      bios|uefi (default bios; uefi: OVMF from /usr/share/OVMF, or OVMF_CODE
                    and OVMF_VARS from the environment; a fresh copy of VARS per boot)
  --medium M        cdrom|disk: the ISO as a CD (El Torito) or as a disk (the hybrid
                    MBR/GPT path a USB stick takes; writes go to a throw-away snapshot)
  --accel A         auto|kvm|tcg (default auto: KVM only if a short probe boot works,
                    else TCG; kvm: fail if KVM does not work)
  --cpus N|host     virtual CPUs (default 2; host: every CPU this process may run on,
                    as nproc counts them (every online CPU unless taskset or a cpuset
                    narrows it): the N-copy pass then runs as many copies as on this
                    host bare metal). The default is fixed, not the
                    host's, so a boot is the same size on every host and the test suite's
                    boots stay cheap; size a comparison with bare metal as the host
  --topology T      how the --cpus CPUs are laid out, QEMU's -smp words, e.g.
                    sockets=2,dies=2,cores=8,threads=1 (x86 under TCG: -cpu max reports
                    a 16 MiB L3 per die, so that is 4 L3s, 64 MiB: docs/benchmarks/memory.md)
  --numa N          N NUMA nodes (2..8): --mem and the CPUs split evenly, node i holding
                    CPUs i*C/N..(i+1)*C/N-1, distance 10 to itself and 21 to the others
                    (an ACPI SRAT and SLIT the guest reads); --mem in whole MiB per node
  --mem SIZE|host   guest memory, QEMU syntax (default 1G, fixed for the same reason as
                    --cpus); host: what this host can spare, MemAvailable less a margin of
                    max(1 GiB, MemTotal/8) for QEMU itself (its TCG translation cache is
                    up to 1 GiB) and the host, in MiB (a multiple of --numa's nodes),
                    at least 256M, at most what the accelerator addresses (x86 TCG:
                    1 TiB less 36 GiB; KVM: the host's physical address bits less
                    36 GiB; arm64: 255 GiB; a 32-bit host: 2047M); said in the log's
                    '# qemu/run: sizing' line
  --machine M       pc|q35|microvm (default pc; microvm: QEMU's minimal VM, -M microvm,acpi=on
                    — ACPI (hardware-reduced) is how the guest powers it off; direct/PVH only;
                    under TCG, tsc_early_khz=<host TSC rate> is added: see the note it prints);
                    arm64: virt, with QEMU's virt properties after it if wanted, e.g.
                    virt,virtualization=on (EL2: the kernel boots at EL2, PSCI over SMC)
  --suite S         quick|standard|thorough (default standard)
  --tests LIST      isobench.tests=LIST (comma-separated test names)
  --copies LIST     isobench.copies=LIST
  --params '...'    extra kernel parameters, appended last
  --scratch FILE    attach FILE as a disk for the disk tests (repeatable; raw format,
                    writable): sign it first with out/isobench --make-scratch FILE SIZE, or
                    the guest only reads it. blkdebug:CONF:FILE attaches it through QEMU's
                    blkdebug driver (injected errors). Each gets serial isobench-scratchN
                    (N = 0, 1, ...: isobench.disk=serial:isobench-scratch0)
  --scratch-cache C none|writeback: how QEMU opens --scratch disks (default none:
                    cache=none,aio=native, O_DIRECT on the host, so the host's page cache
                    never answers the guest's reads; writeback: QEMU's own default, the old
                    behaviour, the host's page cache between guest and disk: isobench-report
                    WARNs about such a log). A file on a file system that refuses O_DIRECT
                    (tmpfs) gets writeback with a note; the log's '# qemu/run: scratchN'
                    line says which mode each disk had
  --scratch-if I    virtio|nvme|ahci: how --scratch disks are attached (default virtio:
                    virtio-blk-pci; nvme: QEMU's NVMe controller; ahci: a SATA disk on an
                    ICH9 AHCI controller)
  --nic MODEL       virtio|e1000: add one NIC (virtio-net-pci or e1000) on QEMU user
                    networking with restrict=on (the guest reaches nothing outside QEMU);
                    the kernel configures it (ip=10.0.2.15 static, carrier_timeout=3)
  --peer HOST:PORT  with --nic: a peer (isobench --serve) listening on this host's loopback
                    (HOST 127.x.y.z): guestfwd carries the guest's TCP connections to
                    10.0.2.100:PORT to it (one socat per connection), and the guest gets
                    isobench.peer=10.0.2.100:PORT. TCP only (no UDP through user networking:
                    use --tap for net-udp-rr). With --tap: passed to the guest unchanged
  --link listen:PORT | connect:PORT
                    with --nic: the NIC on a link to another guest instead (QEMU's socket
                    network over this host's loopback, 127.0.0.1:PORT: start the listening
                    guest first); the listening guest is 10.0.77.1, the connecting one
                    10.0.77.2 (/24, no gateway: addresses only that link has). Two guests of
                    one image measure the net group between themselves: --link listen:P
                    --params 'isobench.serve=1', then --link connect:P --tests net
                    --params 'isobench.peer=10.0.77.1'
  --cloud P         with --nic: imitate cloud P (aws|gce|azure|oci) inside QEMU: its DMI strings
                    (-smbios) and its instance metadata service at 169.254.169.254 (guestfwd:
                    qemu/imds.py, one per connection) serving --user-data FILE; user networking
                    with restrict=on on 169.254.0.0/16 and no ip=: the image recognises the
                    cloud and brings its NIC up by DHCP itself, as in the cloud. With --peer the
                    peer is at 169.254.0.100:PORT and the user data names it (no isobench.peer
                    is added). Try a user data file here before paying for an instance
  --user-data FILE  with --cloud: the user data the imitation serves (none: not given)
  --imds-fault F    with --cloud: slow (answers after 10 s) or garbage (no HTTP): the
                    image's WARN path
  --imds-log FILE   with --cloud: every request the imitation gets, one line each, appended
  --tap IF          with --nic: the NIC on the existing tap device IF instead (no user
                    networking; for UDP); the guest takes .2 of IF's IPv4 /24, IF's address
                    as gateway. Meant for a network namespace the caller made (tests/test-net.sh)
  --repeat N        N boots one after the other, one log each: BASE-r1.log .. BASE-rN.log
                    (BASE: --log without .log, default results/<UTC>-repeat); replicates
                    for isobench-report (--label a,a,a,b,b,b A-r1.log ... B-r3.log: with
                    >= 3 runs a side each test is decided on the runs' values)
  --ab-params 'A' 'B'
                    interleaved A/B on one image: --rounds N (default 5) rounds of a boot
                    with kernel parameters A and one with B, in a balanced order (A B, B A,
                    A B, ...: BASE-rK-a.log, BASE-rK-b.log; BASE default
                    results/<UTC>-ab); each boot's command line carries isobench.round=K
                    isobench.ab_side=a|b isobench.ab_pos=1|2, so isobench-report BASE-r*.log
                    pairs the rounds (a slow drift of the host cancels), e.g.
                    --ab-params 'clocksource=tsc tsc=reliable' 'clocksource=hpet'
  --ab IMAGE_A IMAGE_B
                    interleaved A/B of two images: as --ab-params (--rounds N, logs
                    BASE-rK-a.log and BASE-rK-b.log, isobench.round=K isobench.ab_side=a|b
                    isobench.ab_pos=1|2, the balanced order),
                    but A boots IMAGE_A and B IMAGE_B, each an out/ directory (given as
                    --out DIR: its ISO, or its kernel with --direct) or an ISO file (--iso
                    FILE; not with --iso or --ab-params), e.g. two kernels:
                    --ab out-old out-new --rounds 5
  --rounds N        with --ab-params or --ab: the number of A, B rounds (default 5)
  --log FILE        serial log (default results/<UTC>-<MODE>-<accel>-<N>cpu-<machine>.log,
                    MODE: iso, iso-uefi, iso-disk, iso-uefi-disk, direct or pvh)
  --timeout SECS    kill QEMU after SECS (default by suite: quick 300, standard 1800,
                    thorough 14400; times N with --params 'isobench.repeat=N')
  --out DIR         build output directory (default: the repository's out/)
  --judge LOG       do not boot: judge an existing LOG and exit with the status below
  --dry-run         do everything but boot: size the guest, write the log's '# qemu/run:'
                    lines (to --log, default stdout) and print QEMU's command line to
                    stdout, one word a line; --accel auto is not probed (TCG assumed)
  --check-args      only check these options (exit ${st[OK]} or ${st[USAGE]}); build.sh run uses it before
                    it builds
  -h, --help        this text

ISO and custom command lines: isolinux's menu (arm64: systemd-boot's) cannot be given kernel
parameters from outside. When --suite (other than standard), --tests, --copies or --params is used with
the ISO, qemu/run extracts kernel and initramfs from that ISO and builds a throw-away
ISO (image/build-iso.sh, about a second) whose default entry carries them and whose menu
waits 0.1 s instead of 1 s; it says so. The same applies to the UEFI menu.

QEMU is started with -nodefaults and only the devices a run needs: the serial port
(the log), a VGA card (pc/q35: the screen console), the boot medium. No network card unless --nic,
so no option ROM to load and no PXE attempt; -boot menu=off.

Exit status (QEMU's own status proves nothing: power-off, reboot, triple fault and
panic all end it with 0, so the log decides):
  ${st[OK]}  one complete, valid run; the guest powered off (or rebooted, as isobench.halt=reboot
     asks); no FAIL or ERROR records
  ${st[FAILS]}  a complete run, but it holds FAIL or ERROR records
  ${st[USAGE]}  usage error
  ${st[INCOMPLETE]}  log incomplete or corrupt (no complete run)
  ${st[TIMEOUT]}  timeout: the guest did not power off in time; QEMU was killed
  ${st[CRASHED]}  guest crashed: in the latest boot, the kernel's "Kernel panic - not syncing", a
     verified FAIL record with test=watchdog, or no power-off/reboot after END
  ${st[NOSTART]}  could not start: missing image, QEMU, firmware, isobench-report, or KVM forced but
     not working
  130 interrupted
EOF
}

die_usage() { echo "$prog: $*" >&2; echo "$prog: see '$prog --help'" >&2; exit "${st[USAGE]}"; }
die_start() { echo "$prog: $*" >&2; exit "${st[NOSTART]}"; }
note() { echo "$prog: note: $*" >&2; }

# ---- judgement: only through the report tool ---------------------------------------------
# judge LOG [table]: isobench-report --boot judges the log's latest boot (CRCs, sequence, END
# counts, a kernel panic or a watchdog FAIL in that boot, power-off), with its results table
# when "table" is given. Its status is ours (docs/exit-status.md); prints why on non-zero.
judge() {
	local log=$1 rc=${st[OK]} args=(--boot --check)
	[ "${2:-}" != table ] || args=(--boot)
	"$report" "${args[@]}" "$log" || rc=$?
	case $rc in
		"${st[OK]}") ;;
		"${st[FAILS]}") echo "$prog: complete run, but it holds FAIL or ERROR records" >&2 ;;
		"${st[USAGE]}") echo "$prog: isobench-report could not write its output" >&2 ;;
		"${st[INCOMPLETE]}") echo "$prog: log incomplete or corrupt (no complete run)" >&2
			# Only our own '#' lines: the guest never printed, as when --mem leaves the
			# kernel no room to start (docs/benchmarks/boot.md: the least each path needs).
			if ! grep -qv '^# qemu/run: ' "$log" 2>/dev/null; then
				echo "$prog: the guest printed nothing at all; with --mem $mem the kernel may" \
					"not have room to start: try more memory (docs/benchmarks/boot.md)" >&2
			fi ;;
		"${st[CRASHED]}") echo "$prog: guest crashed (the report's line above says how)" >&2 ;;
		*) echo "$prog: isobench-report exited $rc; treating the log as unusable" >&2; rc=${st[INCOMPLETE]} ;;
	esac
	return "$rc"
}
