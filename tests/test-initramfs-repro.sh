#!/usr/bin/env bash
# tests/test-initramfs-repro.sh [INIT] — initramfs/build.sh gives the same bytes twice.
#
# In:  INIT (default: a throw-away #! stand-in written here), /bin/busybox.
# Out: one line per check, then "N passed, M failed".
# Errors: exits 1 if any check failed (or the build itself failed).
# Builds twice into different temp dirs, with the input's mtime and the working directory
# changed in between, compares sha256, then lists the archive and checks the entries the
# image cannot boot without.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$here/tests/lib.sh"
use_tmp

init=${1:-}
if [ -z "$init" ]; then
	init=$tmp/init
	printf '#!/bin/sh\necho stand-in\n/bin/busybox poweroff -f\n' >"$init"
	chmod 755 "$init"
fi

# The builds below use epoch 0 whatever the caller exported (build.sh exports the commit
# time), so that the mtime check can name the value it expects.
export SOURCE_DATE_EPOCH=0
mkdir -p "$tmp/a" "$tmp/b"
(cd "$tmp/a" && "$here/initramfs/build.sh" "$tmp/a/i.cpio.gz" "$init") ||
	die "first build failed"
if [ "$init" = "$tmp/init" ]; then touch -d '2001-02-03 04:05:06' "$init"; fi
(cd "$tmp/b" && "$here/initramfs/build.sh" "$tmp/b/i.cpio.gz" "$init") ||
	die "second build failed"

a=$(sha256_of "$tmp/a/i.cpio.gz")
b=$(sha256_of "$tmp/b/i.cpio.gz")
if [ "$a" = "$b" ]; then ok "two builds are identical ($a)"; else bad "builds differ: $a vs $b"; fi

# A different SOURCE_DATE_EPOCH must change the bytes: proves the epoch reaches the archive.
SOURCE_DATE_EPOCH=1700000000 "$here/initramfs/build.sh" "$tmp/c.cpio.gz" "$init"
c=$(sha256_of "$tmp/c.cpio.gz")
if [ "$c" != "$a" ]; then ok "SOURCE_DATE_EPOCH changes the archive"; else bad "SOURCE_DATE_EPOCH had no effect"; fi

if gzip -t "$tmp/a/i.cpio.gz"; then ok "gzip stream is valid"; else bad "gzip stream is corrupt"; fi
if [ "$(head -c 8 "$tmp/a/i.cpio.gz" | od -An -tx1 | tr -d ' ')" = 1f8b080000000000 ]; then
	ok "gzip header has no name and mtime 0"
else
	bad "gzip header carries a name or a time"
fi

list=$tmp/list	# the archive's entries, `cpio -itv` (TZ=UTC)
gzip -dc "$tmp/a/i.cpio.gz" | TZ=UTC cpio -itv --quiet >"$list" 2>/dev/null
has "$list" '^-rwxr-xr-x +1 root +root .* init$' "/init is a root-owned 0755 file"
has "$list" '^crw------- +1 root +root +5, +1 .* dev/console$' "/dev/console is c 5 1, mode 600"
has "$list" '^crw-rw-rw- .* 1, +3 .* dev/null$' "/dev/null is c 1 3"
has "$list" '^lrwxrwxrwx .* bin/sh -> busybox$' "/bin/sh -> busybox"
has "$list" '^-rwxr-xr-x .* bin/busybox$' "/bin/busybox is present"
for d in dev proc sys tmp bin sbin usr/bin usr/sbin root etc; do
	has "$list" "^d.* $d\$" "directory /$d"
done
# The process tests' dynamically linked programs and what they load (initramfs/build.sh).
has "$list" '^-rwxr-xr-x .* lib64/ld-linux-x86-64.so.2$' "glibc's loader at its PT_INTERP path"
has "$list" '^-rwxr-xr-x .* lib/x86_64-linux-gnu/libc.so.6$' "glibc's shared libc.so.6"
for t in dash sort od grep tee wc rm; do
	has "$list" "^-rwxr-xr-x .* usr/lib/isobench/bin/$t\$" "shell tool /usr/lib/isobench/bin/$t"
done
# With PROC (a dynamically linked program) it lands in /usr/lib/isobench; every dynamic ELF
# in the archive finds its loader and each DT_NEEDED library inside the archive itself.
printf 'int main(void) { return 0; }\n' >"$tmp/p.c"
gcc -O2 -fPIE -pie -o "$tmp/isobench-proc" "$tmp/p.c"
"$here/initramfs/build.sh" "$tmp/p.cpio.gz" "$init" /bin/busybox "$tmp/isobench-proc"
mkdir "$tmp/root"
gzip -dc "$tmp/p.cpio.gz" | (cd "$tmp/root" && cpio -id --quiet 2>/dev/null)
if cmp -s "$tmp/isobench-proc" "$tmp/root/usr/lib/isobench/isobench-proc"; then
	ok "PROC lands in /usr/lib/isobench/isobench-proc"
else bad "PROC is not /usr/lib/isobench/isobench-proc"; fi
unresolved=0 ndyn=0
while read -r f; do
	interp=$( (LC_ALL=C readelf -lW "$f" 2>/dev/null || true) | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	[ -n "$interp" ] || continue
	ndyn=$((ndyn + 1))
	[ -f "$tmp/root$interp" ] || { echo "  $f: no loader $interp"; unresolved=$((unresolved + 1)); }
	for n in $(LC_ALL=C readelf -dW "$f" | sed -n 's/.*Shared library: \[\(.*\)\]$/\1/p'); do
		case $n in ld-linux*) continue ;; esac	# the loader itself, matched by its soname
		[ -f "$tmp/root/lib/x86_64-linux-gnu/$n" ] ||
			{ echo "  $f: no $n"; unresolved=$((unresolved + 1)); }
	done
done < <(find "$tmp/root" -type f)
if [ "$ndyn" -ge 8 ] && [ "$unresolved" -eq 0 ]; then
	ok "all $ndyn dynamically linked programs find their loader and libraries in the archive"
else bad "$ndyn dynamic programs, $unresolved unresolved loader/library references"; fi
st=0
"$here/initramfs/build.sh" "$tmp/s.cpio.gz" "$init" /bin/busybox /bin/busybox 2>/dev/null || st=$?
status_is CMD_FAILED "$st" "a static PROC stops the build"
hasnt "$list" 'isobench-proc' "no isobench-proc without PROC"

entries=$(wc -l <"$list")
if [ "$entries" -ge 30 ]; then ok "the archive lists $entries entries"; else bad "the archive lists $entries entries only"; fi
count_is "$list" ' Jan  1  1970 ' "$entries" "every entry has mtime 0 (SOURCE_DATE_EPOCH=0)"
# TBENCH_LOAD=FILE ships a dbench load file for the tbench tests; without it, none.
lacks "$list" 'etc/isobench/tbench-load.txt' "no tbench load file by default"
printf '0 WriteX 1 0 4096 4096 NT_STATUS_OK\n' >"$tmp/load.txt"
TBENCH_LOAD=$tmp/load.txt "$here/initramfs/build.sh" "$tmp/t.cpio.gz" "$init"
tl=$(gzip -dc "$tmp/t.cpio.gz" | (cd "$tmp" && mkdir -p x && cd x && cpio -id --quiet 2>/dev/null &&
	cat etc/isobench/tbench-load.txt))
if [ "$tl" = "$(cat "$tmp/load.txt")" ]; then ok "TBENCH_LOAD lands in /etc/isobench/tbench-load.txt"
else bad "TBENCH_LOAD did not land in the archive"; fi
st=0
TBENCH_LOAD=$tmp/absent "$here/initramfs/build.sh" "$tmp/u.cpio.gz" "$init" 2>/dev/null || st=$?
status_is CMD_FAILED "$st" "a missing TBENCH_LOAD file stops the build"
count_is "$list" '^[^ ]+ +[0-9]+ root +root ' "$entries" "every entry is owned by 0:0"

finish
