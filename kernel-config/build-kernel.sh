#!/usr/bin/env bash
# build-kernel.sh OUTDIR — build isobench's kernel from Debian's linux-source package.
#
# In:  kernel-config/isobench.config (every architecture) and kernel-config/arch/<arch>.config
#      (<arch>: the first field of `${CROSS_COMPILE}gcc -dumpmachine`, the compiler that builds
#      the kernel: the host gcc, or with CROSS_COMPILE=aarch64-linux-gnu- Debian's arm64 cross
#      compiler), merged over `allnoconfig` in that order; kernel-config/driver/ (our ring-0 probe driver:
#      its generic files and driver/arch/<arch>/'s, added to the tree as drivers/misc/isobench/); the newest
#      /usr/src/linux-source-*.tar.xz, the host gcc, zstd (x86's bzImage is zstd-compressed).
# Out: OUTDIR/<image> (x86_64: bzImage; aarch64: Image, the uncompressed arm64 boot image, a
#      PE/COFF EFI application through the EFI stub), OUTDIR/vmlinux (uncompressed ELF, for PVH
#      boot), OUTDIR/kernel.config, OUTDIR/kernel.release. Results are cached under $ISOBENCH_CACHE/kernel/<key>, where key
#      hashes every input above (package version, fragments, driver sources, this script,
#      compiler version), so the kernel is rebuilt only when one of them changes.
#      The extracted source ($ISOBENCH_CACHE/src/<package>) is shared by every build and
#      worktree and never written: each build compiles a per-key tree
#      ($ISOBENCH_CACHE/tree/<key>, removed afterwards), a hard-link farm of it in which every
#      file we add or change is a new file, never one written through a link (patch_tree).
# Errors: exits non-zero with one line "build-kernel: <reason>" on stderr; a symbol requested by
#      a fragment that did not survive the merge is an error (merge_config.sh only warns).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:?usage: build-kernel.sh OUTDIR}
cache=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}
jobs=${JOBS:-$(nproc)}

die() { echo "build-kernel: $*" >&2; exit 1; }

tarball=$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1)
[ -f "$tarball" ] || tarball=
[ -n "$tarball" ] || die "no /usr/src/linux-source-*.tar.xz (apt-get install linux-source)"
srcname=$(basename "$tarball" .tar.xz)
pkgver=$(dpkg-query -W -f='${Version}' "$srcname" 2>/dev/null) || pkgver=unknown

command -v zstd >/dev/null || die "zstd not found (apt-get install zstd)"
cross=${CROSS_COMPILE:-}
cc=${cross}gcc
command -v "$cc" >/dev/null || die "$cc not found (apt-get install gcc-${cross%-})"
arch=$("$cc" -dumpmachine) || die "$cc -dumpmachine failed"
arch=${arch%%-*}
[ -f "$here/arch/$arch.config" ] || die "no kernel fragment for $arch (kernel-config/arch/$arch.config)"
# The kernel's name for the architecture (ARCH=) and the boot image we ship, by arch.
case $arch in
x86_64) karch=x86 imgname=bzImage ;;
aarch64) karch=arm64 imgname=Image ;;
*) die "no kernel ARCH for $arch" ;;
esac
kmake=(make ARCH="$karch" CROSS_COMPILE="$cross")
frags=("$here/isobench.config" "$here/arch/$arch.config")
# The driver's files: the generic ones (driver/, files only) and this architecture's
# (driver/arch/<arch>/; none for an architecture without a driver), copied flat into
# drivers/misc/isobench/. Only these enter the key: editing one architecture's driver files
# leaves the other architecture's kernel (and its cache entry) as it was.
mapfile -t drivers < <(find "$here/driver" "$here/driver/arch/$arch" -maxdepth 1 -type f 2>/dev/null | LC_ALL=C sort)
key=$( {
	echo "$srcname $pkgver"
	cat "${frags[@]}" "$0"
	for f in "${drivers[@]}"; do
		echo "driver/${f#"$here/driver/"}"
		cat "$f"
	done
	"$cc" --version | head -n 1
} | sha256sum | cut -c1-16)
dest=$cache/kernel/$key

# patch_tree SRC TREE: TREE = SRC as hard links (cp -al copies no file data) plus our driver
# in drivers/misc/isobench/ and the two lines that hook it into drivers/misc/Kconfig and
# Makefile. A changed file is written beside its link and renamed over it, so SRC's files
# (shared with other builds) are never written.
patch_tree() {
	local src=$1 tree=$2 m=$2/drivers/misc
	rm -rf "$tree" && mkdir -p "$(dirname "$tree")" || return 1
	cp -al "$src" "$tree" || return 1
	mkdir "$m/isobench" && cp "${drivers[@]}" "$m/isobench/" || return 1
	{ cat "$src/drivers/misc/Kconfig" && echo 'source "drivers/misc/isobench/Kconfig"'; } \
		>"$m/Kconfig.isobench" && mv -f "$m/Kconfig.isobench" "$m/Kconfig" || return 1
	{ cat "$src/drivers/misc/Makefile" && echo 'obj-y += isobench/'; } \
		>"$m/Makefile.isobench" && mv -f "$m/Makefile.isobench" "$m/Makefile"
}

if [ ! -f "$dest/$imgname" ]; then
	src=$cache/src/$srcname-$pkgver
	if [ ! -f "$src/.extracted" ]; then
		echo "build-kernel: extracting $tarball" >&2
		rm -rf "$src" && mkdir -p "$src"
		tar -xf "$tarball" -C "$src" --strip-components=1 || die "cannot extract $tarball"
		touch "$src/.extracted"
	fi
	tree=$cache/tree/$key
	patch_tree "$src" "$tree" || die "cannot make the build's tree $tree from $src"
	src=$tree
	build=$cache/build/$key
	rm -rf "$build" && mkdir -p "$build"
	echo "build-kernel: configuring ($srcname $pkgver, key $key)" >&2
	(cd "$src" && ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -n -O "$build" "${frags[@]}") \
		>"$build/merge.log" 2>&1 || die "merge_config failed, see $build/merge.log"

	# Every requested symbol must have survived, with the requested value.
	missing=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		sym=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$build/.config" || continue
		else
			grep -qxF "$line" "$build/.config" && continue
		fi
		echo "build-kernel: requested $line, got: $(grep "^$sym=\|^# $sym is not set" \
			"$build/.config" || echo absent)" >&2
		missing=$((missing + 1))
	done < <(cat "${frags[@]}")
	[ "$missing" -eq 0 ] || die "$missing requested symbol(s) did not survive the merge"

	echo "build-kernel: compiling with -j$jobs (a cold build takes minutes)" >&2
	# Fixed build identity so that the same inputs give the same bytes. The timestamp is the
	# source tarball's mtime (set by the Debian package, the same on every host), not the
	# commit's time: the cache key does not hold the commit, so a commit-dated kernel would
	# make a cached kernel's bytes depend on which commit first built it.
	KBUILD_BUILD_TIMESTAMP=@$(stat -c %Y "$tarball")
	export KBUILD_BUILD_TIMESTAMP
	export KBUILD_BUILD_USER=isobench KBUILD_BUILD_HOST=isobench KBUILD_BUILD_VERSION=1
	# The architecture's boot image (x86: arch/x86/boot/bzImage, arm64: arch/arm64/boot/Image).
	image=arch/$karch/boot/$imgname
	"${kmake[@]}" -C "$src" O="$build" -j"$jobs" "$imgname" >"$build/build.log" 2>&1 ||
		die "kernel build failed, see $build/build.log (last line: $(tail -n 1 "$build/build.log"))"

	tmp=$dest.tmp.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	cp "$build/$image" "$tmp/$imgname"
	cp "$build/vmlinux" "$tmp/"
	cp "$build/.config" "$tmp/kernel.config"
	"${kmake[@]}" -s -C "$src" O="$build" kernelrelease >"$tmp/kernel.release"
	rm -rf "$dest" && mv "$tmp" "$dest"
	rm -rf "$build" "$tree"
fi

mkdir -p "$outdir"
for f in "$imgname" vmlinux kernel.config kernel.release; do
	cp "$dest/$f" "$outdir/$f"
done
echo "build-kernel: $(cat "$dest/kernel.release") ($key)" >&2
