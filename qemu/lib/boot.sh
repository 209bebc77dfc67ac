# shellcheck shell=bash disable=SC2154,SC2034 # the globals qemu/run's parts share (set in one, read in another)
# qemu/lib/boot.sh — boot and follow (part of qemu/run, sourced by it after qemu/lib/common.sh).
# choose_accelerator: accel (KVM when it boots our kernel here, probed and cached; else TCG,
# said) and cpu; --mem host capped by what that accelerator addresses; numa_opts; lowmem (the
# docs' least memory). timeout_and_log: tmo (by suite, isobench.serve and isobench.repeat) and
# log (results/<time>-<mode>-<accel>-<N>cpu-<machine>.log by default). boot_and_follow: the
# host's header lines into the log, QEMU started (or, --dry-run, its command printed), the
# verified records followed, the boot timed and judged; exits with qemu/run's status.

kvm_kind() { # which kvm modules are loaded, e.g. "kvm_pvm"
	local m names=
	for m in /sys/module/kvm_*; do [ -d "$m" ] && names="$names ${m##*/}"; done
	echo "${names# }"
}
# probe_kvm: boot the kernel under KVM with no root (it must panic with "Unable to mount root",
# proving it got through early boot, SMP and timers) within 10 s. Verdict cached per host boot
# and kvm module set in results/.kvm-probe. Prints "yes" or "no <why>".
probe_kvm() {
	local cachef=$here/results/.kvm-probe key kern=$1 plog=$tmp/kvm-probe.log rc=0
	key=$( {
		cat /proc/sys/kernel/random/boot_id 2>/dev/null || true
		for f in /sys/module/kvm*/parameters/*; do [ -r "$f" ] && echo "$f=$(cat "$f" 2>/dev/null)"; done
		echo "$qbin"	# the verdicts of qemu-system-x86_64 and -aarch64 are apart
		"$qbin" --version | head -n 1
	} | sha256sum | cut -c1-16)
	if [ -f "$cachef" ] && grep -q "^$key " "$cachef"; then
		grep -m1 "^$key " "$cachef" | cut -d' ' -f2-
		return
	fi
	: >"$plog"
	local con=ttyS0
	[ "$arch" = x86_64 ] || con=ttyAMA0
	timeout -k 2 10 "$qbin" -accel kvm -cpu host -M "$machine" -m 256 -smp 2 \
		-display none -serial "file:$plog" -no-reboot -kernel "$kern" \
		-append "console=$con loglevel=7 panic=-1" >"$tmp/kvm-probe.err" 2>&1 || rc=$?
	local verdict
	if grep -q 'Unable to mount root\|VFS: Cannot open root' "$plog"; then
		verdict=yes
	elif [ "$rc" -eq 124 ]; then
		if grep -q 'Linux version' "$plog"; then verdict="no the kernel started but hung in early boot"
		else verdict="no the guest printed nothing in 10 s"; fi
	else
		verdict="no qemu failed: $(head -n 1 "$tmp/kvm-probe.err")"
	fi
	mkdir -p "$here/results"
	echo "$key $verdict" >>"$cachef"
	echo "$verdict"
}
# The guest RAM this QEMU can give with this accelerator, "MiB why" (QEMU 7.2, measured:
# docs/benchmarks/boot.md "--mem host and the accelerator"): a 32-bit host's QEMU maps the
# guest's RAM into its own 4 GiB address space beside its code, heap and TCG's translation cache: 2047 MiB. x86 pc/q35
# put RAM past 3 (pc) or 2 (q35) GiB above 4 GiB and a 32 GiB 64-bit PCI hole after it, and
# QEMU refuses to start when that top passes the vCPU's phys-bits ("phys-bits too low"):
# TCG's -cpu max has QEMU's default 40 bits, KVM's -cpu host the host's (/proc/cpuinfo's
# "address sizes"): 2^bits less 36 GiB. arm64 virt: RAM from 1 GiB to 256 GiB is the map
# every virt machine models whatever the vCPU's PA range (more needs a range QEMU checks at
# start, and under KVM the host kernel's IPA limit): 255 GiB.
guest_ram_cap() {
	local bits
	if [ "$(getconf LONG_BIT)" = 32 ]; then
		echo "2047 a 32-bit host (QEMU maps guest RAM into its own 4 GiB address space)"
	elif [ "$arch" = arm64 ]; then
		echo "261120 arm64 virt's RAM map, 1 GiB to 256 GiB"
	elif [ "$accel" = kvm ]; then
		bits=$(awk '/^address sizes/ { print $4; exit }' /proc/cpuinfo)
		[[ "$bits" =~ ^[0-9]+$ ]] && [ "$bits" -ge 36 ] && [ "$bits" -le 52 ] || bits=36
		echo "$(((1 << (bits - 20)) - 36 * 1024)) KVM -cpu host: the host's $bits physical address bits less 4 GiB below RAM and the 32 GiB 64-bit PCI hole above it"
	else
		echo "$(((1 << 20) - 36 * 1024)) TCG -cpu max: QEMU's phys-bits 40 less 4 GiB below RAM and the 32 GiB 64-bit PCI hole above it"
	fi
}
# The host's side of the run, as plain lines before the guest's output (readers skip them:
# they are not records; isobench-report reads the scratch lines' cache=). QEMU appends to
# the file after them.
header_lines() {
	echo "# qemu/run: $("$qbin" --version | head -n 1)"
	echo "# qemu/run: accel=$accel cpu=$cpu machine=$machine$mprops firmware=$firmware mode=$mode vcpus=$cpus${topology:+ topology=$topology}${numa:+ numa=$numa} mem=$mem"
	echo "# qemu/run: host $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# qemu/run: sizing $sizing; host $(getconf _NPROCESSORS_ONLN) online CPUs, MemTotal $(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo) MiB"
	for i in "${!scratch[@]}"; do
		fs=$(stat -f -c %T "${scratch[$i]##*:}" 2>/dev/null || echo unknown)
		case ${scratch_mode[$i]},$fs in
			none,tmpfs | none,ramfs) c="cache=none aio=native (O_DIRECT taken, but the file is in the host's memory: isobench-report WARNs)" ;;
			none,*) c="cache=none aio=native (O_DIRECT on the host: no host page cache)" ;;
			*) c="cache=${scratch_mode[$i]} (the host's page cache between guest and disk)" ;;
		esac
		echo "# qemu/run: scratch$i ${scratch[$i]} if=$scratch_if fs=$fs $c"
	done
}
usec() { local t=$EPOCHREALTIME; echo "${t//[!0-9]/}"; }
secs() { printf '%d.%02d' $(($1 / 1000000)) $(($1 % 1000000 / 10000)); }
# choose_accelerator: accel and cpu, --mem host capped for them, numa_opts, lowmem.
choose_accelerator() {
	if [ "$dry_run" -eq 1 ] && [ "$accel" = auto ]; then
		accel=tcg	# no probe boot in a dry run
		note "--dry-run: --accel auto not probed; TCG assumed"
	fi
	if [ "$dry_run" -eq 1 ]; then :
	elif [ "$accel" != tcg ]; then
		why=
		if [ "$arch" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
			why="the host is $(uname -m): KVM runs arm64 guests on an arm64 host only"
		elif [ ! -e /dev/kvm ]; then why="no /dev/kvm"
		elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then why="/dev/kvm is not readable and writable by $(id -un)"
		else
			if [ "$mode" = direct ]; then pk=$kernel; else
				pk=$tmp/probe-$kname
				xorriso -osirrox on -indev "$iso" -extract "/isobench/$kname" "$pk" >/dev/null 2>&1 ||
					die_start "cannot extract /isobench/$kname from $iso for the KVM probe"
			fi
			v=$(probe_kvm "$pk")
			[ "$v" = yes ] || why=${v#no }
		fi
		kind=$(kvm_kind)
		if [ -n "$why" ]; then
			case " $kind " in *" kvm_pvm "*) why="$why; /dev/kvm is kvm_pvm (nested PVM), which runs only PVM-aware guests" ;; esac
			[ "$accel" = auto ] || die_start "--accel kvm: KVM does not work here: $why"
			accel=tcg
			note "KVM unusable ($why) — using TCG (software emulation): figures are NOT hypervisor costs (probe verdict cached in results/.kvm-probe; delete it to probe again)"
		else
			accel=kvm
		fi
	else
		note "TCG (software emulation) requested: figures are NOT hypervisor costs"
	fi
	if [ "$accel" = kvm ]; then cpu=host
	elif [ "$arch" = arm64 ]; then
		# TCG: every feature (-cpu max), with QEMU's IMPDEF pointer-authentication algorithm in
		# place of the architected QARMA, which QEMU's manual says "can be quite slow to emulate"
		# (docs/system/arm/cpu-features.rst, "TCG VCPU Features"); our kernel is built without
		# PTR_AUTH, so today this only guards a kernel that enables it (docs/benchmarks/arm64.md).
		cpu=max,pauth-impdef=on
	else cpu=max; fi
	if [ "$mem_src" = host ]; then
		read -r cap capwhy < <(guest_ram_cap)
		[ -z "$numa" ] || cap=$((cap / numa * numa))
		if [ "${mem%M}" -gt "$cap" ]; then
			note "--mem host: $mem is more than this QEMU can give the guest ($cap MiB: $capwhy): capped"
			sizing="$sizing, capped at ${cap}M ($capwhy)"
			mem=${cap}M
		else sizing="$sizing, under the accelerator's ${cap}M ($capwhy)"; fi
	fi
	numa_split
	# microvm has neither HPET nor ACPI PM timer. Under KVM, kvmclock tells the guest its TSC rate;
	# under TCG the kernel can only calibrate the TSC against the PIT, which fails when the host is
	# busy, and then hangs in calibrate_delay() (no timer interrupt yet). TCG's TSC runs at the
	# host's rate, so hand the kernel that rate instead (tsc_early_khz, from /proc/cpuinfo).
	if [ "$machine" = microvm ] && [ "$accel" = tcg ]; then
		khz=$(awk '/^cpu MHz/ { printf "%d", $4 * 1000; exit }' /proc/cpuinfo)
		if [ -n "$khz" ] && [ "$khz" -gt 0 ]; then
			boot[5]="${boot[5]} tsc_early_khz=$khz"
			note "microvm under TCG: adding tsc_early_khz=$khz (host TSC rate; no HPET/PM timer to calibrate against)"
		fi
	fi

	# The smallest memory a quick run boots in, as docs/booting.md and docs/arm64.md say.
	if [ "$arch" = arm64 ]; then lowmem="docs/arm64.md: arm64 needs at least 32M booted directly, 128M by UEFI"
	else lowmem="docs/booting.md: at least 48M booted directly or by BIOS, 120M by UEFI"; fi
}
# timeout_and_log: tmo (when not given) and the log's path (its directory made).
timeout_and_log() {
	if [ -z "$tmo" ]; then
		case $suite_eff in quick) tmo=300 ;; standard) tmo=1800 ;; thorough) tmo=14400 ;; esac
		# The image as the peer (isobench.serve=1) lives isobench.serve_seconds (default
		# payload/net/netproto.h's NET_SERVE_LIFE_S, read from there), then powers off: its
		# life, and 5 minutes.
		if [[ " $params " == *" isobench.serve=1 "* ]]; then
			life=$(sed -n 's/^#define NET_SERVE_LIFE_S[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' \
				"$here/payload/net/netproto.h")
			[ -n "$life" ] || die_start "cannot read NET_SERVE_LIFE_S from $here/payload/net/netproto.h"
			[[ ! " $params " =~ \ isobench\.serve_seconds=([0-9]+)\  ]] || life=${BASH_REMATCH[1]}
			tmo=$((10#$life + 300))
		fi
		# isobench.repeat=N runs the suite N times in the boot: N runs' time (a value the image
		# refuses runs once, well within it).
		if [[ " $params " =~ \ isobench\.repeat=([1-9][0-9]{0,5})\  ]]; then
			tmo=$((tmo * BASH_REMATCH[1]))
		fi
	fi
	if [ "$dry_run" -eq 1 ] && [ -z "$log" ]; then :	# the header to stdout (header_lines)
	elif [ -z "$log" ]; then
		mkdir -p "$here/results"
		log=$here/results/$(date -u +%Y%m%dT%H%M%SZ)-$mode-$accel-${cpus}cpu-$machine.log
	fi
	[ -z "$log" ] || mkdir -p "$(dirname "$log")"
}
# boot_and_follow: the header into the log, QEMU run and followed, the boot judged; exits.
boot_and_follow() {
	if [ -z "$log" ]; then header_lines	# --dry-run without --log
	else header_lines >"$log" || die_start "cannot write $log"; fi

	# Only the devices a run needs (see --help): no NIC unless --nic, so no PXE attempt.
	case $machine in
		microvm) mopts=(-M "microvm,acpi=on") ;;
		virt) mopts=(-M "virt$mprops") ;;	# headless: the PL011 is the console, no display device
		*) mopts=(-M "$machine" -vga std -boot menu=off) ;;
	esac
	qemu=("$qbin" -nodefaults -accel "$accel" -cpu "$cpu" "${mopts[@]}" -m "$mem" -smp "$cpus${topology:+,$topology}"
		"${numa_opts[@]}"
		-display none -chardev "file,id=ser0,path=${log:--},append=on" -serial chardev:ser0 -no-reboot
		"${boot[@]}" "${scratch_devs[@]}" "${netdev[@]}")
	if [ "$dry_run" -eq 1 ]; then	# --dry-run: the command, one word a line; nothing booted
		printf '%s\n' "${qemu[@]}"
		exit "${st[OK]}"
	fi
	echo "$prog: $mode boot, $accel, $cpus cpu, $mem, $machine$mprops, $firmware, timeout ${tmo}s; log $log" >&2

	t0=$(usec)
	timeout -k 10 "$tmo" "${qemu[@]}" </dev/null >"$tmp/qemu.out" 2>&1 &
	qpid=$!
	t_begin=
	# Progress from verified records only: the report tool's parser, values decoded.
	while IFS= read -r line; do
		case $line in
			BEGIN\ *) [ -n "$t_begin" ] || t_begin=$(usec) ;;
			guest\ FAIL:* | guest\ ERROR:* | guest:\ * | *damaged\ record*) echo "$prog: $line" >&2 ;;
			*) echo "$line" ;;
		esac
	done < <("$report" --follow "$log" --pid "$qpid" 2>/dev/null)
	qrc=0
	wait "$qpid" || qrc=$?
	qpid=
	t_end=$(usec)

	timing="QEMU ran $(secs $((t_end - t0))) s"
	if [ -n "$t_begin" ]; then timing="first BEGIN after $(secs $((t_begin - t0))) s; $timing"
	else timing="no BEGIN record seen; $timing"; fi
	echo "$prog: $timing" >&2

	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		# The report judges the boot; --killed: QEMU was stopped here, so only a panic or the
		# watchdog make it a crash (its own line says which).
		jrc=${st[OK]}
		"$report" --boot --killed --check "$log" >"$tmp/judge.out" 2>&1 || jrc=$?
		if [ "$jrc" -eq "${st[CRASHED]}" ]; then
			cat "$tmp/judge.out" >&2
			echo "$prog: guest crashed and did not power off within ${tmo}s; QEMU killed; log $log" >&2
			exit "${st[CRASHED]}"
		fi
		case $jrc in "${st[OK]}" | "${st[FAILS]}" | "${st[CRASHED]}") state="run complete" ;; *) state="no complete run" ;; esac
		# AAVMF with too little RAM prints this and stops, never reaching the kernel: say why.
		if [ -z "$t_begin" ] && grep -qa '^Synchronous Exception at ' "$log"; then
			note "the UEFI firmware faulted before the kernel started (\"Synchronous Exception\" in the log): too little memory for --mem $mem? ($lowmem)"
		fi
		echo "$prog: timeout: guest did not power off within ${tmo}s ($state); QEMU killed; log $log" >&2
		exit "${st[TIMEOUT]}"
	fi
	# QEMU failed and the guest wrote nothing (the log holds only our own '#' lines): QEMU could
	# not start it (a drive it cannot open or lock, a device it refuses), not a short log.
	if [ "$qrc" -ne 0 ] && ! grep -qav '^# qemu/run: ' "$log" 2>/dev/null; then
		die_start "QEMU failed (status $qrc): $(grep -m1 . "$tmp/qemu.out" || echo 'no message')"
	fi
	[ "$qrc" -eq 0 ] || note "QEMU exited with status $qrc: $(grep -m1 . "$tmp/qemu.out" || true)"
	# Nothing from the guest at all, QEMU ended by itself: the guest reset before the kernel's
	# first message (with --mem 32M a bzImage's decompressor does, silently). Say so: "log
	# incomplete" alone leaves the user with an empty log and no clue.
	if [ "$qrc" -eq 0 ] && ! grep -qav '^# qemu/run: ' "$log"; then
		note "the guest wrote nothing before QEMU ended: it reset before the kernel's first message; too little memory for --mem $mem? ($lowmem)"
	fi
	rc=${st[OK]}
	judge "$log" table || rc=$?
	[ "$rc" -eq "${st[OK]}" ] || echo "$prog: log $log" >&2
	exit "$rc"
}
