#!/usr/bin/env bash
# cross/sysroot.sh DEBARCH DEST — Debian's DEBARCH packages the arm64 image is made of,
# unpacked into DEST, never installed as the host's.
#
# In:  DEBARCH, a Debian architecture other than the host's (arm64); the host's APT sources
#      and keys (/etc/apt: Debian's archive, signatures checked as for any install), used
#      with a private APT state under $ISOBENCH_CACHE/apt/DEBARCH (ISOBENCH_CACHE defaults to
#      ~/.cache/isobench) so the host's package lists, dpkg database and architectures stay
#      untouched. The packages (the list below): musl and musl-dev (the runner's static libc),
#      busybox-static (PID 1's shell), libc6, libpcre2-8-0, dash, coreutils and grep (the
#      dynamically linked programs of the process tests, as on a distribution), and
#      systemd-boot-efi (the UEFI boot menu, \EFI\BOOT\BOOTAA64.EFI: image/build-iso.sh).
#      Also a reference package no image holds: linux-config-6.1, Debian's kernel configurations
#      for DEBARCH (DEST/usr/src/linux-config-6.1/config.arm64_none_cloud-arm64.xz:
#      tests/test-kconfig.sh compares the arm64 kernel with it; the series follows
#      linux-source's, build.sh). Their .debs are kept in $ISOBENCH_CACHE/debs/DEBARCH; once all
#      are there, no network.
# Out: DEST/ holds the unpacked packages (DEST/bin/busybox, DEST/usr/lib/aarch64-linux-musl/,
#      ...), DEST/musl-gcc.specs (Debian's musl-gcc.specs with its absolute paths moved under
#      DEST, for `${CROSS}gcc -specs=DEST/musl-gcc.specs`) and DEST/PACKAGES (name version
#      sha256 of every .deb, sorted: what the image was made of), DEST/REFERENCE (the same for
#      the reference package). DEST is rebuilt only when PACKAGES or REFERENCE would change.
# Errors: exits 1 with one line "sysroot: <reason>" on stderr; 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "sysroot: MSG", exit 1
[ $# -eq 2 ] || { echo "usage: cross/sysroot.sh DEBARCH DEST" >&2; exit 2; }
debarch=$1 dest=$2
cache=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}
[[ "$debarch" =~ ^[a-z0-9]+$ ]] || die "DEBARCH must be a Debian architecture name, got '$debarch'"
[ "$debarch" != "$(dpkg --print-architecture)" ] || die "$debarch is the host's architecture: use the host's packages"
pkgs=(musl musl-dev busybox-static libc6 libpcre2-8-0 dash coreutils grep systemd-boot-efi)
refs=(linux-config-6.1)
debs=$cache/debs/$debarch
mkdir -p "$debs"

# have_all: every package (and reference package) has exactly one .deb in the cache.
have_all() {
	local p n
	for p in "${pkgs[@]}" "${refs[@]}"; do
		n=$(find "$debs" -maxdepth 1 -name "${p}_*_${debarch}.deb" | wc -l)
		[ "$n" -eq 1 ] || return 1
	done
}

if ! have_all; then
	apt=$cache/apt/$debarch
	mkdir -p "$apt/lists/partial" "$apt/archives/partial"
	: >"$apt/status"
	opts=(-o "APT::Architecture=$debarch" -o "APT::Architectures::=$debarch"
		-o "Dir::State=$apt" -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives" -o Debug::NoLocking=1
		-o APT::Sandbox::User="$(id -un)" -qq)
	echo "sysroot: fetching Debian $debarch package lists (private APT state $apt)" >&2
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update for $debarch failed: $(tail -n 1 "$apt/update.log")"
	rm -f "$debs"/*.deb
	(cd "$debs" && apt-get "${opts[@]}" download "${pkgs[@]/%/:$debarch}" "${refs[@]/%/:$debarch}") \
		>"$apt/download.log" 2>&1 ||
		die "apt-get download failed: $(tail -n 1 "$apt/download.log")"
	have_all || die "apt-get download did not give one .deb per package in $debs"
fi

# manifest PKG...: "name version sha256" of each package's .deb, sorted.
manifest() {
	local p f
	for p in "$@"; do
		f=$(find "$debs" -maxdepth 1 -name "${p}_*_${debarch}.deb")
		printf '%s %s %s\n' "$p" "$(dpkg-deb -f "$f" Version)" "$(sha256sum <"$f" | cut -c1-64)"
	done | LC_ALL=C sort
}
manifest=$(manifest "${pkgs[@]}")
refman=$(manifest "${refs[@]}")
if [ ! -f "$dest/PACKAGES" ] || [ "$(cat "$dest/PACKAGES")" != "$manifest" ] ||
	[ ! -f "$dest/REFERENCE" ] || [ "$(cat "$dest/REFERENCE")" != "$refman" ]; then
	tmp=$dest.tmp.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	for f in "$debs"/*_"$debarch".deb; do
		dpkg-deb -x "$f" "$tmp" || die "cannot unpack $f"
	done
	# musl's folders are named by the GNU CPU: /usr/lib/aarch64-linux-musl.
	case $debarch in arm64) triplet=aarch64-linux ;; *) die "no GNU CPU name known for $debarch" ;; esac
	specs=$tmp/usr/lib/$triplet-musl/musl-gcc.specs
	[ -f "$specs" ] || die "no $specs in musl-dev:$debarch"
	sed "s|/usr/include/$triplet-musl|$dest/usr/include/$triplet-musl|g; s|/usr/lib/$triplet-musl|$dest/usr/lib/$triplet-musl|g" \
		"$specs" >"$tmp/musl-gcc.specs"
	printf '%s\n' "$manifest" >"$tmp/PACKAGES"
	printf '%s\n' "$refman" >"$tmp/REFERENCE"
	rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$tmp" "$dest"
fi
