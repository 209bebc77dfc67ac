#!/usr/bin/env bash
# tests/test-repro.sh — two clean builds of the same commit give byte-identical artefacts.
#
# In:  the repository's HEAD commit (uncommitted changes are not part of it), ./build.sh and
#      what it needs; ISOBENCH_CACHE (default ~/.cache/isobench): the kernel cache;
#      ISOBENCH_REPRO_FULL=1: build the kernel cold twice, in two fresh caches (~5-6 min each
#      on 2 cores); ISOBENCH_REPRO_CACHE2 (default ~/.cache/isobench-repro): a second cache
#      whose kernel, if one for the same inputs is there, is compared with the first cache's.
# Out: one line per check, what was and was not rebuilt, SHA-256 of each artefact, then
#      "N passed, M failed".
# Errors: exit 1 if a build failed or an artefact differs.
#
# Builds HEAD twice in different directories, a few seconds apart, with SOURCE_DATE_EPOCH unset
# (build.sh takes it from the commit): this checkout in place when it is HEAD (else a clean
# clone), then a clean clone with another umask. By default both builds share
# the kernel cache, so the kernel is compiled at most once and bzImage/vmlinux prove only that
# the cache hands out the same bytes; payload, report tool, initramfs and ISO (with its FAT EFI
# image) are rebuilt in each directory. Cold kernel builds are compared when both caches hold
# one (ISOBENCH_REPRO_FULL=1 makes sure they do).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
unset SOURCE_DATE_EPOCH KERNEL
cache=${ISOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench}
cache2=${ISOBENCH_REPRO_CACHE2:-${XDG_CACHE_HOME:-$HOME/.cache}/isobench-repro}
arts=(isobench.iso bzImage vmlinux initramfs.cpio.gz IDENTITY)

if [ "${ISOBENCH_REPRO_FULL:-0}" = 1 ]; then
	ca=$tmp/cache-a cb=$tmp/cache-b
	echo "note: ISOBENCH_REPRO_FULL=1: the kernel is built cold twice, in two fresh caches"
else
	ca=$cache cb=$cache
	echo "note: both builds share the kernel cache $cache: the kernel is NOT rebuilt between them" \
		"(ISOBENCH_REPRO_FULL=1 rebuilds it twice); payload, report, initramfs and ISO are"
fi

# Build 1: this checkout itself, rebuilt in place (warm: seconds), when it is HEAD (nothing
# modified or untracked: a fresh clone, as on a new machine) and the kernel cache is shared;
# else a clean clone. Either is another directory than build 2's, made seconds earlier.
st=0
if [ "${ISOBENCH_REPRO_FULL:-0}" != 1 ] && [ -z "$(git -C "$top" status --porcelain)" ]; then
	a_out=$top/out a_what="this checkout ($top, it is HEAD), rebuilt in place"
	(cd "$top" && ISOBENCH_CACHE=$ca ./build.sh) >"$tmp/a-build.log" 2>&1 || st=$?
else
	a_out=$tmp/a-build/out a_what="a clean clone in $tmp/a-build"
	clean_build "$tmp/a-build" ISOBENCH_CACHE="$ca" || st=$?
fi
status_is EXIT_OK "$st" "build 1: $a_what"
[ "$st" -eq 0 ] || tail -n 3 "$tmp/a-build.log"
sleep 3
st=0
(cd "$tmp" && umask 002 && clean_build "$tmp/second/b" ISOBENCH_CACHE="$cb") || st=$?
status_is EXIT_OK "$st" "build 2: a clean clone in $tmp/second/b, 3 s later, another umask"
[ "$st" -eq 0 ] || tail -n 3 "$tmp/second/b.log"
echo "commit $(git -C "$top" rev-parse --short HEAD), SOURCE_DATE_EPOCH $(git -C "$top" log -1 --format=%ct)"

for f in "${arts[@]}"; do
	a=$a_out/$f b=$tmp/second/b/out/$f
	if [ ! -f "$a" ] || [ ! -f "$b" ]; then bad "$f: missing from a build"; continue; fi
	ha=$(sha256_of "$a") hb=$(sha256_of "$b")
	if [ "$ha" = "$hb" ]; then ok "$f identical: sha256 $ha"; else bad "$f differs: $ha vs $hb"; fi
done

# The kernel from two cold builds, when a second cache holds one for the same inputs.
key=$(sed -n 's/^build-kernel: .*(\([0-9a-f]\{16\}\))$/\1/p' "$tmp/a-build.log" | tail -n 1)
if [ "${ISOBENCH_REPRO_FULL:-0}" = 1 ]; then
	echo "kernel: built cold in both directories (compared above)"
elif [ -n "$key" ] && [ -f "$cache/kernel/$key/bzImage" ] && [ -f "$cache2/kernel/$key/bzImage" ]; then
	for f in bzImage vmlinux; do
		if cmp -s "$cache/kernel/$key/$f" "$cache2/kernel/$key/$f"; then
			ok "$f from two cold builds ($cache, $cache2) identical"
		else
			bad "$f from two cold builds ($cache, $cache2) differs"
		fi
	done
else
	echo "note: kernel $key NOT compared across two cold builds: $cache2 holds none (build one:" \
		"ISOBENCH_CACHE=$cache2 kernel-config/build-kernel.sh /tmp/k; or ISOBENCH_REPRO_FULL=1)"
fi
finish
