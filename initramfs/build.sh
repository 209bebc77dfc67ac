#!/usr/bin/env bash
# initramfs/build.sh OUT.cpio.gz INIT_BINARY [BUSYBOX [PROC]] — reproducible, root-free initramfs.
#
# In:  INIT_BINARY (becomes /init, mode 0755; a static ELF or a #! script for busybox sh),
#      BUSYBOX (default /bin/busybox, Debian's busybox-static; must be static),
#      PROC (default INIT_BINARY's directory/isobench-proc when it exists): the dynamically
#      linked program the execl and spawn tests execute,
#      the host's Debian dash, coreutils (sort od tee wc rm) and grep: the dynamically linked
#      tools the shell1/shell8 tests run, as on a distribution (see payload/bench/shell.c),
#      SOURCE_DATE_EPOCH (default 0): the mtime of every entry,
#      SYSROOT (default empty: the host): another architecture's Debian packages unpacked
#      (cross/sysroot.sh); the tools and libraries above are then taken from SYSROOT, the
#      multiarch triplet from ${CROSS_COMPILE}gcc, and busybox's applets are checked in its
#      applet table instead of by running it (it is not the host's architecture),
#      the kernel's usr/gen_init_cpio.c (from the extracted source under $ISOBENCH_CACHE/src,
#      else from /usr/src/linux-source-*.tar.xz), compiled with host gcc into
#      $ISOBENCH_CACHE/tools/ (ISOBENCH_CACHE defaults to ~/.cache/isobench).
# Out: OUT.cpio.gz, a newc cpio compressed with `gzip -n -9`: same inputs, same bytes.
#      Contents: dirs /dev /proc /sys /tmp /bin /sbin /usr/bin /usr/sbin /root /etc,
#      /dev/console (c 5 1), /dev/null (c 1 3), /init, /bin/busybox and /bin/<applet> symlinks;
#      /usr/lib/isobench/initramfs (the image's identity: payload/pid1/init.h's INIT_IDENTITY),
#      /usr/lib/isobench/isobench-proc (with PROC), /usr/lib/isobench/bin/<tool>, and what
#      they load: the loader at its PT_INTERP path (/lib64/ld-linux-x86-64.so.2) and every
#      DT_NEEDED library (libc.so.6, libpcre2-8.so.0) in /lib/<multiarch> (Debian's multiarch
#      triplet of the host gcc, `gcc -print-multiarch`: x86_64-linux-gnu on x86-64), copied from
#      the host (Debian packages libc6, libpcre2-8-0, dash, coreutils, grep);
#      with TBENCH_LOAD=FILE (a dbench load file, e.g. the Debian package dbench's client.txt) also
#      /etc/isobench/tbench-load.txt, which the tbench tests then replay by default.
# Errors: exits 1 with one line "initramfs: <reason>" on stderr; exits 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
die_prefix=initramfs
. "$(dirname "$0")/../lib/sh/die.sh" # die: "initramfs: MSG", exit 1
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
	echo "usage: initramfs/build.sh OUT.cpio.gz INIT_BINARY [BUSYBOX [PROC]]" >&2
	exit 2
fi

out=$1
init=$2
busybox=${3:-/bin/busybox}
proc=${4:-}
[ -n "$proc" ] || [ ! -x "$(dirname "$init")/isobench-proc" ] || proc=$(dirname "$init")/isobench-proc
epoch=${SOURCE_DATE_EPOCH:-0}
cache=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}

# Applets the UnixBench shell workload needs, plus a few for a human at the console.
applets=(sh sort od grep tee wc rm cat echo ls mkdir cp mv sleep dd head tail)
# The shell workload's dynamically linked tools (name in the image: host path).
tools=(dash:/bin/dash sort:/usr/bin/sort od:/usr/bin/od grep:/bin/grep tee:/usr/bin/tee
	wc:/usr/bin/wc rm:/bin/rm)
# The tools and their libraries are the host's (its gcc builds isobench-proc): Debian's
# multiarch triplet names their folder; this is the one place the script knows it.
sysroot=${SYSROOT:-}
[ -z "$sysroot" ] || [ -d "$sysroot" ] || die "SYSROOT=$sysroot: no such directory"
multiarch=$("${CROSS_COMPILE:-}gcc" -print-multiarch 2>/dev/null) || multiarch=
[ -n "$multiarch" ] || die "${CROSS_COMPILE:-}gcc -print-multiarch gave no triplet (apt-get install gcc)"
libdirs=("/lib/$multiarch" "/usr/lib/$multiarch" /lib64 /usr/lib64 /lib /usr/lib)
libdirs=("${libdirs[@]/#/$sysroot}")
if [ -n "$sysroot" ]; then
	for i in "${!tools[@]}"; do tools[i]=${tools[i]%%:*}:$sysroot${tools[i]#*:}; done
fi

# The image's identity: the file whose presence tells the runner, as PID 1 on the rootfs,
# that it is this image's /init (payload/pid1/init.h owns the path: INIT_IDENTITY).
identity=$(sed -n 's/^#define INIT_IDENTITY "\(\/usr\/lib\/isobench\/[a-z]*\)"$/\1/p' \
	"$(dirname "$0")/../payload/pid1/init.h")
[ -n "$identity" ] || die "payload/pid1/init.h defines no INIT_IDENTITY under /usr/lib/isobench"

case "$epoch" in '' | *[!0-9]*) die "SOURCE_DATE_EPOCH must be a non-negative integer, got '$epoch'" ;; esac
[ -f "$init" ] || die "no such file: $init"
[ -f "$busybox" ] || die "no such file: $busybox (apt-get install busybox-static)"
[ -z "${TBENCH_LOAD:-}" ] || [ -f "$TBENCH_LOAD" ] || die "TBENCH_LOAD=$TBENCH_LOAD: no such file"

# A dynamically linked /init cannot run: the initramfs holds no libc and no loader.
is_dynamic() { LC_ALL=C readelf -lW "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }
if [ "$(head -c 4 "$init" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	! is_dynamic "$init" || die "$init is dynamically linked; /init must be static"
elif [ "$(head -c 2 "$init")" != '#!' ]; then
	die "$init is neither an ELF binary nor a #! script"
fi
! is_dynamic "$busybox" || die "$busybox is dynamically linked; use busybox-static"
[ -z "$proc" ] || [ -f "$proc" ] || die "no such file: $proc"
[ -z "$proc" ] || is_dynamic "$proc" || die "$proc must be dynamically linked (payload/proc)"
if [ -z "$sysroot" ]; then
	have=$("$busybox" --list 2>/dev/null) || die "$busybox --list failed; is it busybox?"
else	# another architecture's busybox: its applet names are a NUL-separated table in the binary
	have=$(tr '\0' '\n' <"$busybox" | grep -E '^[a-z0-9_.[-]+$') || die "$busybox: no applet table"
fi
for a in "${applets[@]}"; do
	grep -qx "$a" <<<"$have" || die "$busybox has no applet '$a'"
done

# --- gen_init_cpio, compiled once per source version ------------------------------------------
gen_src=$(printf '%s\n' "$cache"/src/linux-source-*/usr/gen_init_cpio.c 2>/dev/null | sort -V | tail -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$gen_src" ]; then
	tarball=$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1)
	[ -f "$tarball" ] || die "no gen_init_cpio.c under $cache/src and no /usr/src/linux-source-*.tar.xz"
	top=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$tmp" "$top/usr/gen_init_cpio.c" 2>/dev/null ||
		die "cannot extract $top/usr/gen_init_cpio.c from $tarball"
	gen_src=$tmp/$top/usr/gen_init_cpio.c
fi
gen_key=$( { cat "$gen_src"; gcc --version | head -n 1; } | sha256sum | cut -c1-16)
gen=$cache/tools/gen_init_cpio-$gen_key
if [ ! -x "$gen" ]; then
	mkdir -p "$cache/tools"
	gcc -O2 -o "$gen.tmp.$$" "$gen_src" 2>"$tmp/gcc.log" ||
		die "cannot compile $gen_src: $(head -n 1 "$tmp/gcc.log")"
	mv "$gen.tmp.$$" "$gen"
fi
# -t only fixes the mtime of dirs, nodes and symlinks; regular files keep their own, so copy
# them into a staging dir and set their mtime there.
help=$("$gen" -h 2>&1 || true)
grep -q -- '-t <timestamp>' <<<"$help" || die "$gen has no -t option; cannot fix mtimes"

# --- the dynamically linked programs and what they load ----------------------------------------
interp_of() { LC_ALL=C readelf -lW "$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p'; }
needed_of() { LC_ALL=C readelf -dW "$1" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]$/\1/p'; }
dyn=()
for t in "${tools[@]}"; do
	[ -f "${t#*:}" ] || die "no ${t#*:} (apt-get install dash coreutils grep)"
	is_dynamic "${t#*:}" || die "${t#*:} is not dynamically linked"
	dyn+=("${t#*:}")
done
[ -z "$proc" ] || dyn+=("$proc")
declare -A interps=() libs=()
todo=("${dyn[@]}")
while [ ${#todo[@]} -gt 0 ]; do	# libraries and what they need in turn
	f=${todo[0]}
	todo=("${todo[@]:1}")
	i=$(interp_of "$f")
	[ -z "$i" ] || interps[$i]=1
	for n in $(needed_of "$f"); do
		[ -z "${libs[$n]:-}" ] || continue
		case $n in ld-linux*) continue ;; esac	# the loader, placed by its PT_INTERP path
		found=
		for d in "${libdirs[@]}"; do
			[ -f "$d/$n" ] && { found=$(realpath "$d/$n"); break; }
		done
		[ -n "$found" ] || die "$f needs $n, found in none of ${libdirs[*]}"
		libs[$n]=$found
		todo+=("$found")
	done
done
[ ${#interps[@]} -gt 0 ] || die "no loader found for ${dyn[*]}"

# --- staging and list ---------------------------------------------------------------------------
cp "$init" "$tmp/init"
cp "$busybox" "$tmp/busybox"
echo "isobench initramfs: PID 1 on a rootfs holding this file is the image's /init" >"$tmp/identity"
touch -d "@$epoch" "$tmp/init" "$tmp/busybox" "$tmp/identity"
mkdir "$tmp/dyn"
for t in "${tools[@]}"; do cp "${t#*:}" "$tmp/dyn/tool-${t%%:*}"; done
[ -z "$proc" ] || cp "$proc" "$tmp/dyn/isobench-proc"
for n in "${!libs[@]}"; do cp "${libs[$n]}" "$tmp/dyn/lib-$n"; done
for i in "${!interps[@]}"; do
	interp=$(realpath "$sysroot$i" 2>/dev/null) || interp=
	[ -f "$interp" ] || die "no loader $sysroot$i"
	# Debian's packages link relatively; an absolute link would leave SYSROOT for the host's file.
	[ "${interp#"$sysroot"/}" != "$interp" ] || [ -z "$sysroot" ] || die "$sysroot$i leads out of SYSROOT"
	cp "$interp" "$tmp/dyn/interp-$(basename "$i")"
done
touch -d "@$epoch" "$tmp"/dyn/*
if [ -n "${TBENCH_LOAD:-}" ]; then
	cp "$TBENCH_LOAD" "$tmp/tbench-load.txt"
	touch -d "@$epoch" "$tmp/tbench-load.txt"
fi

{
	for d in /dev /proc /sys /tmp /bin /sbin /usr /usr/bin /usr/sbin /root /etc; do
		case $d in
			/tmp) echo "dir $d 1777 0 0" ;;
			/root) echo "dir $d 0700 0 0" ;;
			*) echo "dir $d 0755 0 0" ;;
		esac
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /init $tmp/init 0755 0 0"
	echo "file /bin/busybox $tmp/busybox 0755 0 0"
	for a in "${applets[@]}"; do
		echo "slink /bin/$a busybox 0777 0 0"
	done
	for d in /lib "/lib/$multiarch" /usr/lib /usr/lib/isobench /usr/lib/isobench/bin; do
		echo "dir $d 0755 0 0"
	done
	for i in "${!interps[@]}"; do
		[ "$(dirname "$i")" = /lib ] || [ "$(dirname "$i")" = "/lib/$multiarch" ] ||
			echo "dir $(dirname "$i") 0755 0 0"
		echo "file $i $tmp/dyn/interp-$(basename "$i") 0755 0 0"
	done
	for n in "${!libs[@]}"; do
		echo "file /lib/$multiarch/$n $tmp/dyn/lib-$n 0755 0 0"
	done
	for t in "${tools[@]}"; do
		echo "file /usr/lib/isobench/bin/${t%%:*} $tmp/dyn/tool-${t%%:*} 0755 0 0"
	done
	[ -z "$proc" ] || echo "file /usr/lib/isobench/isobench-proc $tmp/dyn/isobench-proc 0755 0 0"
	echo "file $identity $tmp/identity 0644 0 0"
	if [ -n "${TBENCH_LOAD:-}" ]; then
		echo "dir /etc/isobench 0755 0 0"
		echo "file /etc/isobench/tbench-load.txt $tmp/tbench-load.txt 0644 0 0"
	fi
} | LC_ALL=C sort -k2,2 >"$tmp/list"

"$gen" -t "$epoch" "$tmp/list" >"$tmp/initramfs.cpio" 2>"$tmp/gen.log" ||
	die "gen_init_cpio failed: $(head -n 1 "$tmp/gen.log")"
gzip -n -9 <"$tmp/initramfs.cpio" >"$tmp/initramfs.cpio.gz"
mkdir -p "$(dirname "$out")"
cp "$tmp/initramfs.cpio.gz" "$out.tmp.$$" || die "cannot write $out"
mv "$out.tmp.$$" "$out"
