#!/usr/bin/env bash
# build.sh — isobench's one entry point.
#
#   ./build.sh                build everything into out/ (image, kernel, initramfs, tools)
#   ./build.sh run [ARGS]     build, then boot the ISO under QEMU and print the results
#                             (ARGS go to qemu/run; see qemu/run --help)
#   ./build.sh test           build, then run the whole test suite (tests/run)
#   ./build.sh clean          remove out/ (the kernel cache under ~/.cache/isobench stays)
#
# Environment: KERNEL=/path/to/bzImage uses a prebuilt kernel; ISOBENCH_CACHE (default
# ~/.cache/isobench) holds kernel builds keyed by their inputs; JOBS (default nproc).
# Missing Debian packages are installed when running as root, otherwise the exact
# apt-get line is printed and the build stops. A failed step stops with one line of reason.
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
out=$top/out
cd "$top"

die() { echo "build.sh: $*" >&2; exit 1; }
step() { printf 'build.sh: %s\n' "$*" >&2; }

# Debian packages, by what needs them.
PKGS_BUILD=(gcc make bc flex bison libelf-dev libssl-dev xz-utils musl-tools busybox-static
	linux-source lz4 syslinux isolinux syslinux-common syslinux-efi xorriso mtools
	libc6 libc6-dev dash coreutils grep libpcre2-8-0 binutils)
# (libc6, libc6-dev: isobench-proc is built against and ships with Debian's glibc; dash,
# coreutils, grep, libpcre2-8-0: the shell tests' dynamically linked tools in the image;
# binutils: readelf finds what they load)
PKGS_RUN=(qemu-system-x86 ovmf)
PKGS_TEST=(libcmocka-dev zlib1g-dev libjansson-dev shellcheck cpio clang libclang-rt-14-dev
	libxml2-utils python3 chromium)

ensure_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages; run: sudo apt-get install -y ${missing[*]}"
	fi
	step "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || die "apt-get update failed"
	apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
}

# Reproducible timestamps: the commit's time, else 0.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || echo 0)}

build() {
	ensure_packages "${PKGS_BUILD[@]}"
	mkdir -p "$out"
	if [ -n "${KERNEL:-}" ]; then
		[ -f "$KERNEL" ] || die "KERNEL=$KERNEL: no such file"
		step "using prebuilt kernel $KERNEL"
		cp "$KERNEL" "$out/bzImage"
		rm -f "$out/vmlinux"
		echo "prebuilt" >"$out/kernel.release"
	else
		step "kernel"
		kernel-config/build-kernel.sh "$out" || die "kernel build failed"
	fi
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
	step "done: $out/isobench.iso ($(du -h "$out/isobench.iso" | cut -f1)), identity $(cut -c1-16 "$out/IDENTITY")"
}

case "${1:-build}" in
build)
	build
	;;
run)
	shift
	qemu/run --check-args "$@" || exit $?	# a typo should not wait for a build
	build
	ensure_packages "${PKGS_RUN[@]}"
	exec qemu/run --out "$out" "$@"
	;;
test)
	shift
	build
	ensure_packages "${PKGS_RUN[@]}" "${PKGS_TEST[@]}"
	exec tests/run "$@"
	;;
clean)
	rm -rf "$out"
	;;
-h | --help | help)
	sed -n '2,14s/^# \{0,1\}//p' "$0"
	;;
*)
	die "unknown command '$1' (build, run, test, clean, help)"
	;;
esac
