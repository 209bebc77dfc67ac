#!/usr/bin/env bash
# tests/test-dynamic.sh — the process tests' dynamically linked programs, in the image.
#
# In:  OUT/initramfs.cpio.gz, OUT/bzImage, OUT/isobench-report, qemu/run (OUT defaults to
#      the repository's out/).
# Out: one line per assertion, then "N passed, M failed"; the log stays in
#      results/e2e-dynamic.log.  Errors: exit 1 on any failure.
# Checks that the built initramfs holds glibc's loader, libc.so.6, isobench-proc and the
# shell tools, then boots it (direct, TCG, 1 CPU, quick suite) with execl, spawn, shell1 and
# dhry2reg only: PID 1's runner must execute the dynamically linked programs (INFO exec.* says
# what ran: path, linkage, loader, C library; dhry2reg runs Dhrystone in the glibc
# isobench-proc) and each test must give a RESULT, not a SKIP.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
mkdir -p "$top/results"
log=$top/results/e2e-dynamic.log
use_tmp

gzip -dc "$out/initramfs.cpio.gz" | TZ=UTC cpio -itv --quiet >"$tmp/list" 2>/dev/null
has "$tmp/list" "^-rwxr-xr-x .* lib64/ld-linux-x86-64\.so\.2$" "the image holds glibc's loader"
has "$tmp/list" "^-rwxr-xr-x .* lib/x86_64-linux-gnu/libc\.so\.6$" "the image holds libc.so.6"
has "$tmp/list" "^-rwxr-xr-x .* usr/lib/isobench/isobench-proc$" "the image holds isobench-proc"
has "$tmp/list" "^-rwxr-xr-x .* usr/lib/isobench/bin/dash$" "the image holds dash"

st=0
"$top/qemu/run" --out "$out" --direct --accel tcg --cpus 1 --suite quick --log "$log" \
	--tests execl,spawn,shell1,dhry2reg --copies 1 >"$log.stdout" 2>"$log.stderr" || st=$?
status_is EXIT_OK "$st" "direct boot, execl spawn shell1 dhry2reg: qemu/run"
glibc="exec\.%s\.linkage=dynamic-pie exec\.%s\.interp=/lib64/ld-linux-x86-64\.so\.2 \
exec\.%s\.libc=glibc%%20[0-9.]+ exec\.%s\.bytes=[1-9][0-9]* \
exec\.%s\.libc_path=/lib/x86_64-linux-gnu/libc\.so\.6 exec\.%s\.libc_bytes=[1-9][0-9]*"
for t in execl spawn dhry2reg; do
	# shellcheck disable=SC2059  # the format is ours
	has "$log" "INFO exec\.$t\.path=/usr/lib/isobench/isobench-proc $(printf "$glibc" $t $t $t $t $t $t)" \
		"$t executes isobench-proc, a glibc PIE, in the image"
done
# shellcheck disable=SC2059
has "$log" "INFO exec\.shell\.tools=distribution exec\.shell\.programs=/usr/lib/isobench/bin/dash,.* exec\.shell\.path=/usr/lib/isobench/bin/dash $(printf "$glibc" shell shell shell shell shell shell)" \
	"shell1 runs Debian's dash and tools, dynamically linked"
for t in execl spawn shell1 dhry2reg; do
	has "$log" "RESULT test=$t copies=1 unit=[a-z]+ better=higher value=[0-9]*[1-9][0-9]*\.[0-9]+ " "$t: RESULT"
done
has "$log" "END records=[0-9]+ results=4 fails=0 skips=0 errors=0 status=ok" "END, 4 results"
finish
