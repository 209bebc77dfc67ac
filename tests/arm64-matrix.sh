#!/usr/bin/env bash
# tests/arm64-matrix.sh — opt-in (`tests/run arm64-matrix`): every arm64 boot path and every
# group, under qemu-system-aarch64 -M virt TCG (a few minutes on 2 cores; CI boots only the
# one in tests/test-arm64.sh).
#   cd      out/arm64/isobench.iso itself (no throw-away copy: its own default entry, the
#           standard suite's index, 1 and N copies) as a CD (AAVMF, virtio-scsi)
#   disk    out/arm64/isobench.raw itself as a disk (AAVMF, virtio-blk), the same run, and the
#           results file the runner writes to the image's own FAT partition
#   direct  -kernel Image, device tree, no firmware: index, extra, probes and the ring-0
#           driver's probes (ring0), both passes
#   groups  direct: the memory and disk groups (a signed scratch disk on virtio-blk, then on
#           NVMe) and the net group against `isobench --serve` on the host's loopback (virtio-net)
# Every log must be one complete run (isobench-report --check 0: no FAIL, no ERROR), say
# kernel.machine=aarch64, and SKIP only with architecture reasons where it SKIPs at all.
# In: OUT (default out/) with out/arm64 built (ARCH=arm64 ./build.sh), OUT/isobench (the host
#     runner: scratch signing, the peer). Out: one line per check, a table of boot times, then
#     "N passed, M failed, K skipped".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
use_tmp
OUT=${OUT:-$top/out}
o=$OUT/arm64
if [ ! -f "$o/isobench.iso" ]; then
	fail "no $o/isobench.iso: run ARCH=arm64 ./build.sh first"
	finish
	exit
fi

id=$(cat "$o/IDENTITY")
# boot NAME ARGS...: qemu/run --arch arm64 --accel tcg ARGS (its timeout by suite), judged and
# timed by tests/lib.sh's qboot (log $tmp/NAME.log, qemu/run's output $tmp/NAME.out and .err);
# then the log must say kernel.machine=aarch64 and SKIP only for the architecture.
boot() {
	local name=$1 line
	shift
	qboot "$name" qemu/run "$tmp/$name.log" - --arch arm64 --accel tcg "$@"
	has "$tmp/$name.log" '^@isobench/1 [0-9]+ INFO .*kernel.machine=aarch64' "$name: INFO kernel.machine=aarch64"
	# SKIPs: only the architecture's (x86 instructions, CNTPCT_EL0).
	line=$(grep -a '^@isobench/1 [0-9]* SKIP ' "$tmp/$name.log" |
		grep -v 'reason=[A-Z0-9_ %]*is%20an%20x86%20instruction\|CNTPCT_EL0%20is%20not%20readable' || true)
	none "$line" "$name: every SKIP has an architecture reason" "$name: other SKIPs"
}

boot cd
lacks "$tmp/cd.err" "throw-away" "cd: the ISO itself booted (no throw-away copy)"
boot disk --iso "$o/isobench.raw" --medium disk
lacks "$tmp/disk.err" "throw-away" "disk: the raw image itself booted (no throw-away copy)"
has "$tmp/disk.log" 'results file written: vda2:/ISOBENCH/RESULTS/' "disk: the results file went to the image's FAT partition"
boot direct --suite quick --direct --tests index,extra,probes,ring0
count_is "$tmp/direct.log" '^@isobench/1 [0-9]+ RESULT ' "$(grep -ac '^@isobench/1 [0-9]* TEST ' "$tmp/direct.log" |
	awk -v s="$(grep -ac '^@isobench/1 [0-9]* SKIP ' "$tmp/direct.log")" '{ print $1 - s }')" \
	"direct: every test that did not SKIP gave a result"

"$OUT/isobench" --make-scratch "$tmp/scratch.img" 256M >/dev/null 2>&1 || fail "cannot sign a scratch disk"
boot groups-virtio --suite quick --direct --mem 2G --tests memory,disk --copies 1 --scratch "$tmp/scratch.img"
has "$tmp/groups-virtio.log" 'RESULT test=disk-randread-4k-qd1 ' "groups-virtio: the disk group ran on virtio-blk"
has "$tmp/groups-virtio.log" 'RESULT test=mem-latency-16k-4k ' "groups-virtio: the memory group ran"
boot groups-nvme --suite quick --direct --tests disk --copies 1 --scratch "$tmp/scratch.img" --scratch-if nvme
has "$tmp/groups-nvme.log" 'RESULT test=disk-randwrite-4k-qd1 ' "groups-nvme: the disk group ran on NVMe"

kill_at_exit peer_pid
start_peer net --max-seconds 300
port=$peer_port
if [ -n "$port" ]; then
	boot net --suite quick --direct --tests net-tcp-rr,net-tcp-crr,net-tcp-stream,net-tcp-maerts --copies 1 \
		--nic virtio --peer "127.0.0.1:$port"
	has "$tmp/net.log" 'RESULT test=net-tcp-rr ' "net: the net group ran against the host's peer"
else
	fail "the host peer (isobench --serve) gave no port"
fi
boot_table "cd and disk: the image's own default entry, the standard suite's index; the others the quick suite"
finish
