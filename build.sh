#!/usr/bin/env bash
# build.sh — isobench's one entry point.
#
#   ./build.sh                build everything into out/ (image, kernel, initramfs, tools)
#   ./build.sh run [ARGS]     build, then boot the ISO under QEMU and print the results
#                             (ARGS go to qemu/run; see qemu/run --help)
#   ./build.sh test           build, then run the whole test suite (tests/run)
#   ./build.sh disks          build, then write the image as disks to out/disk/: raw, qcow2,
#                             VMDK, VHDX and the clouds' files (GCE tar.gz, Azure VHD, stream
#                             VMDK, OVA: docs/clouds.md)
#   ./build.sh clean          remove out/ (the kernel cache under ~/.cache/isobench stays)
#   ./build.sh packages       print the Debian packages each step needs (build, run, test)
#   ARCH=arm64 ./build.sh     the same image for arm64 into out/arm64/ (docs/arm64.md);
#                             ARCH=arm64 ./build.sh run [ARGS] boots it (qemu/run --arch arm64);
#                             ARCH=arm64 ./build.sh disks writes out/arm64/disk/: the clouds'
#                             files for arm64 instances (no OVA)
#
# Environment: ARCH=arm64 builds the arm64 image into out/arm64/ instead (cross-built here:
# Debian's aarch64-linux-gnu gcc, Debian's arm64 packages unpacked by cross/sysroot.sh; the
# host tools stay in out/); KERNEL=/path/to/bzImage (arm64: Image) uses a prebuilt kernel;
# ISOBENCH_CACHE (default ~/.cache/isobench) holds kernel builds keyed by their inputs and
# the arm64 packages; JOBS (default nproc).
# Missing Debian packages are installed when running as root, otherwise the exact
# apt-get line is printed and the build stops. A failed step stops with one line of reason.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
out=$top/out
cd "$top"

# shellcheck source=lib/sh/die.sh
die_prefix=build.sh
. "$top/lib/sh/die.sh" # die: "build.sh: MSG", exit 1
# shellcheck source=lib/sh/arm64bg.sh
. "$top/lib/sh/arm64bg.sh" # arm64_bg_wanted, arm64_bg_start: the background arm64 build, tests/run's too
step() { printf 'build.sh: %s\n' "$*" >&2; }

# Debian packages, by the step that needs them; each list is installed before its step.
# tests/deps.py checks mechanically that every header, library, program and file the build, the
# run and the tests use comes from these lists (or the base system); `./build.sh packages`.
PKGS_BUILD=(
	git                                    # the build version and SOURCE_DATE_EPOCH
	gcc make libc6-dev bc flex bison libelf-dev libssl-dev xz-utils zstd linux-source # kernel
	musl-tools                             # payload: the runner, static musl
	libjansson-dev                         # report tool: JSON output
	libsqlite3-dev                         # report tool: the results store (--db)
	busybox-static                         # initramfs: PID 1's shell and tools
	libc6 dash coreutils grep libpcre2-8-0 # initramfs: glibc's runtime and the shell tests'
	binutils                               #   dynamically linked tools (readelf: what they load)
	syslinux isolinux syslinux-common syslinux-efi xorriso mtools # image: BIOS + UEFI ISO
	pxelinux                               # image/build-netboot.sh: BIOS PXE loader
	qemu-utils                             # image/build-disks.sh (./build.sh disks): qemu-img
)
# ARCH=arm64: the cross compiler (gcc + binutils for aarch64, Debian's arm64 glibc headers for
# isobench-proc); the arm64 packages themselves are downloaded, never installed (cross/sysroot.sh).
PKGS_ARM64=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross # (the cross compiler only Recommends the latter)
	qemu-system-arm qemu-efi-aarch64       # qemu/run --arch arm64: qemu-system-aarch64, AAVMF
	qemu-user                              # tests: the arm64 runner's own checks, on this host
)
PKGS_RUN=(qemu-system-x86 ovmf             # qemu/run: boot the image (BIOS and UEFI)
	fio python3                            # docs/benchmarks/disk-vs-fio.sh: the peer, its JSON
)
PKGS_RUN+=(socat iproute2)                  # qemu/run --peer: guestfwd's relay per connection; --tap: ip
PKGS_RUN+=(sockperf iperf3 python3)         # docs/benchmarks/network-vs-peers.sh: the peers, its parsing
PKGS_RUN+=(autoconf automake)               #   and building netperf for it from its source (its header)
# isolation/run's layers (User-Mode Linux's kernel, the program linux; gVisor's runsc): not every
# user's (isolation/run names the package it misses); installed by ./build.sh test, whose
# tests/test-isolation.sh boots both.
PKGS_LAYERS=(user-mode-linux runsc)
PKGS_TEST=(
	libcmocka-dev zlib1g-dev               # unit tests (cmocka; zlib's CRC-32 as a reference)
	cpio                                   # reading the initramfs back
	clang libclang-rt-14-dev               # fuzzing the log reader (libFuzzer + sanitizers)
	shellcheck libxml2-utils python3 chromium # lint, SVG check, JSON checks, SVG rendering
	debootstrap                            # tests/run fresh: the README from a fresh root
	ipxe-qemu                              # tests/test-netboot.sh: the NIC's PXE/iPXE ROMs
	lava-dispatcher python3-yaml           # tests/test-lava.sh: lava-run, reading its log
	tftpd-hpa                              #   and its iPXE job's TFTP directory (lava-dispatcher only Recommends it)
	inetutils-telnet                       #   and the iPXE device's serial `connect` command (a Recommends too)
	strace                                 # tests/test-net.sh: counts net-tcp-crr's calls per connection; test-disk.sh: plants read stalls
	sqlite3                                # tests/test-history.sh: reads the results store
	dbench                                 # tests/unit/test_tbench_load.c: dbench's own client.txt, read as tbench's load
	xfsprogs btrfs-progs lvm2              # tests/test-scratch.sh: real XFS, btrfs and LVM labels on a signed disk
	linux-config-6.1                       # tests/test-kconfig.sh: Debian's x86 kernel configs (arm64's: cross/sysroot.sh)
)

ensure_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages; run: sudo apt-get install -y --no-install-recommends ${missing[*]}"
	fi
	step "installing ${missing[*]}"
	local t0=$SECONDS
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || die "apt-get update failed"
	# The lists and what they Depend on, not what they Recommend: that is what tests/deps.py
	# checks the build, the run and the tests use (a Recommends a step needs is named in its
	# list, e.g. libc6-dev-arm64-cross, tftpd-hpa). apt's default took lava-dispatcher's NFS
	# servers, LXC and libguestfs-tools, chromium's sandbox and clang's llvm-dev: 308 packages
	# for 8 in 561 s on a fresh machine (docs/benchmarks/image-pipeline.md, run 8).
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
	# How long: a fresh machine's time goes largely here (docs/benchmarks/image-pipeline.md run 7).
	step "installed ${#missing[@]} packages in $((SECONDS - t0)) s"
}

# kernel DIR IMAGE [CROSS_COMPILE]: DIR/IMAGE (bzImage, arm64: Image) from KERNEL=FILE when
# set, else built (kernel-config/build-kernel.sh, cached), with that cross compiler if any.
kernel() {
	if [ -n "${KERNEL:-}" ]; then
		[ -f "$KERNEL" ] || die "KERNEL=$KERNEL: no such file"
		step "using prebuilt kernel $KERNEL"
		cp "$KERNEL" "$1/$2"
		rm -f "$1/vmlinux"
		echo "prebuilt" >"$1/kernel.release"
	else
		step "kernel${3:+ (cross, ${3}gcc)}"
		CROSS_COMPILE=${3:-} kernel-config/build-kernel.sh "$1" || die "kernel build failed"
	fi
}

build() {
	ensure_packages "${PKGS_BUILD[@]}"
	# Reproducible timestamps: the commit's time (git is installed just above), else 0.
	export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 0)}
	mkdir -p "$out"
	kernel "$out" bzImage
	step "payload (static musl)"
	make -s -C payload O="$out" >&2 || die "payload build failed"
	step "isobench-proc (dynamic glibc, for execl and spawn)"
	make -s -C payload/proc O="$out" >&2 || die "isobench-proc build failed"
	step "report tool"
	make -s -C report O="$out" >&2 || die "report tool build failed"
	step "initramfs"
	initramfs/build.sh "$out/initramfs.cpio.gz" "$out/isobench" /bin/busybox "$out/isobench-proc" ||
		die "initramfs build failed"
	cat "$out/bzImage" "$out/initramfs.cpio.gz" | sha256sum | cut -c1-64 >"$out/IDENTITY"
	step "image (hybrid ISO)"
	image/build-iso.sh "$out/isobench.iso" "$out/bzImage" "$out/initramfs.cpio.gz" \
		"$(cat "$out/IDENTITY")" || die "ISO build failed"
	step "netboot tree (BIOS/UEFI PXE, iPXE) and LAVA jobs"
	image/build-netboot.sh "$out/netboot" "$out/isobench.iso" || die "netboot tree build failed"
	lava/make-jobs.sh "$out/lava" "$out/netboot" || die "LAVA job definitions failed"
	step "done: $out/isobench.iso ($(du -h "$out/isobench.iso" | cut -f1)), identity $(cut -c1-16 "$out/IDENTITY")"
}

# build_arm64: out/arm64/ — the same image for arm64 (Image, initramfs.cpio.gz, IDENTITY,
# isobench.iso, isobench.raw, the arm64 runner and isobench-proc), plus the host's report tool
# in out/. Every step as in build(), with the cross compiler and the arm64 packages.
build_arm64() {
	local o=$out/arm64 sys cross=aarch64-linux-gnu-
	ensure_packages "${PKGS_BUILD[@]}" "${PKGS_ARM64[@]}"
	command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc not found (gcc-aarch64-linux-gnu)"
	export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 0)}
	sys=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}/sysroot/arm64
	mkdir -p "$o"
	step "arm64 packages (Debian's, unpacked into $sys)"
	cross/sysroot.sh arm64 "$sys" || die "arm64 sysroot failed"
	cp "$sys/PACKAGES" "$o/PACKAGES"	# which Debian arm64 packages the image is made of
	kernel "$o" Image "$cross"
	step "arm64 payload (static musl for arm64)"
	make -s -C payload O="$o" CC="${cross}gcc -specs=$sys/musl-gcc.specs" >&2 || die "arm64 payload build failed"
	step "arm64 isobench-proc (dynamic glibc)"
	make -s -C payload/proc O="$o" CC="${cross}gcc" >&2 || die "arm64 isobench-proc build failed"
	step "host tools: the report tool, and the host runner (qemu/run checks test names with it)"
	make -s -C report O="$out" >&2 || die "report tool build failed"
	make -s -C payload O="$out" >&2 || die "payload build failed"
	step "arm64 initramfs"
	SYSROOT=$sys CROSS_COMPILE=$cross initramfs/build.sh "$o/initramfs.cpio.gz" "$o/isobench" \
		"$sys/bin/busybox" "$o/isobench-proc" || die "arm64 initramfs build failed"
	cat "$o/Image" "$o/initramfs.cpio.gz" | sha256sum | cut -c1-64 >"$o/IDENTITY"
	step "arm64 image (UEFI ISO, raw disk)"
	SYSTEMD_BOOT_EFI=$sys/usr/lib/systemd/boot/efi/systemd-bootaa64.efi image/build-iso.sh \
		"$o/isobench.iso" "$o/Image" "$o/initramfs.cpio.gz" "$(cat "$o/IDENTITY")" || die "arm64 ISO build failed"
	image/build-disks.sh "$o" "$o/isobench.iso" raw || die "arm64 raw disk failed"
	step "done: $o/isobench.iso ($(du -h "$o/isobench.iso" | cut -f1)), identity $(cut -c1-16 "$o/IDENTITY")"
}

# ARCH: x86_64 (default; also empty, x86, amd64) or arm64 (also aarch64). Unset afterwards, so
# no make below mistakes it for its own ARCH.
case "${ARCH:-}" in
'' | x86_64 | x86 | amd64) build_arch=x86_64 ;;
arm64 | aarch64) build_arch=arm64 ;;
*) die "ARCH=$ARCH: unknown architecture (x86_64 or arm64)" ;;
esac
unset ARCH
if [ "$build_arch" = arm64 ]; then
	case "${1:-build}" in
	build) build_arm64; exit 0 ;;
	run)	# build, then boot it under qemu-system-aarch64 (qemu/run --arch arm64 ARGS)
		shift
		build_arm64
		exec qemu/run --arch arm64 --out "$out" "$@"
		;;
	disks)	# the clouds' files for their arm64 instances (no OVA: its OVF is an x86 VM)
		build_arm64
		image/build-disks.sh "$out/arm64/disk" "$out/arm64/isobench.iso" arm64 || die "arm64 disk images failed"
		step "done: $out/arm64/disk/isobench{.raw,.qcow2,.vmdk,.vhdx,-gce.tar.gz,-azure.vhd,-stream.vmdk}"
		exit 0
		;;
	packages | clean | help | -h | --help) ;;
	*) die "ARCH=arm64: '$1' is x86's only (ARCH=arm64 takes build, run, disks, packages, clean)" ;;
	esac
fi

case "${1:-build}" in
build)
	build
	;;
run)
	shift
	# A typo should not wait for a kernel build: the runner (seconds to build) checks the
	# test names, copies and suite with its own parser first.
	ensure_packages "${PKGS_BUILD[@]}"
	mkdir -p "$out"
	make -s -C payload O="$out" >&2 || die "payload build failed"
	qemu/run --check-args "$@" || exit $?
	build
	ensure_packages "${PKGS_RUN[@]}"
	exec qemu/run --out "$out" "$@"
	;;
test)
	shift
	build
	# The arm64 image builds in the background while the x86 suites run (tests/run's "the
	# arm64 image"). On a fresh machine the test packages take minutes to install: the cross
	# compiler first, then that build starts here, then the rest installs beside it (its own
	# ensure_packages finds its packages installed: no second apt-get). tests/run adopts it
	# (lib/sh/arm64bg.sh: ISOBENCH_ARM64_BG_PID, its log and the status file it writes). Only
	# when tests/run would start it itself (arm64_bg_wanted: arm64 among the suites, not first).
	ensure_packages "${PKGS_ARM64[@]}"
	if arm64_bg_wanted "$@"; then
		arm64_bg_start "$out" || die "cannot start the background arm64 build in $out"
		step "ARCH=arm64 ./build.sh started in the background (niced): $ISOBENCH_ARM64_BG_LOG"
	fi
	ensure_packages "${PKGS_RUN[@]}" "${PKGS_TEST[@]}" "${PKGS_LAYERS[@]}"
	exec tests/run "$@"
	;;
disks)
	build
	image/build-disks.sh "$out/disk" "$out/isobench.iso" || die "disk images failed"
	step "done: $out/disk/isobench{.raw,.qcow2,.vmdk,.vhdx,-gce.tar.gz,-azure.vhd,-stream.vmdk,.ova}"
	;;
clean)
	rm -rf "$out"
	;;
packages)
	printf 'build: %s\nrun: %s\ntest: %s\narm64: %s\nlayers: %s\n' "${PKGS_BUILD[*]}" "${PKGS_RUN[*]}" \
		"${PKGS_TEST[*]}" "${PKGS_ARM64[*]}" "${PKGS_LAYERS[*]}"
	;;
-h | --help | help)
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"
	;;
*)
	die "unknown command '$1' (build, run, test, disks, clean, packages, help)"
	;;
esac
