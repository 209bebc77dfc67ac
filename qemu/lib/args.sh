# shellcheck shell=bash disable=SC2154,SC2034 # the globals qemu/run's parts share (set in one, read in another)
# qemu/lib/args.sh — the options of one boot, read and checked before anything starts (part of
# qemu/run, sourced by it after qemu/lib/common.sh). parse_options ARGS...: sets each option's
# variable (arch, iso, direct, cpus, mem, nic, scratch ... the defaults first); --help prints
# usage and exits 0; an unknown option or one without its value exits USAGE. check_options: every
# value checked against the others and the host (die_usage on the first wrong one, naming it),
# the defaults of the architecture filled in, --cpus/--mem host sized (sizing says how), the
# test names checked by the image's own runner; out, report, img set; exits 0 for --check-args,
# with the verdict's status for --judge LOG, NOSTART without isobench-report.

need() { if [ $# -lt 2 ] || [ -z "$2" ]; then die_usage "option $1 needs a value"; fi; }
# The -object/-numa words splitting $mem (in MiB: ${mem%M}, or as given) over --numa's nodes.
numa_split() {
	local i j mib
	numa_opts=()
	[ -n "$numa" ] || return 0
	case $mem in *T) mib=$((${mem%T} << 20)) ;; *G) mib=$((${mem%G} << 10)) ;; *M) mib=${mem%M} ;; *) mib=$((mem >> 20)) ;; esac
	for ((i = 0; i < numa; i++)); do
		numa_opts+=(-object "memory-backend-ram,id=numa$i,size=$((mib / numa))M"
			-numa "node,nodeid=$i,memdev=numa$i,cpus=$((i * cpus / numa))-$(((i + 1) * cpus / numa - 1))")
		for ((j = 0; j < i; j++)); do numa_opts+=(-numa "dist,src=$j,dst=$i,val=21"); done
	done
}
# ipv4_port A: A is a dotted quad of 0..255 each and a port 1..65535 (no leading zeros).
ipv4_port() {
	local oct='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
	local port='([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])'
	[[ "$1" =~ ^$oct\.$oct\.$oct\.$oct:$port$ ]]
}
# parse_options ARGS...: each option into its variable, the defaults first.
parse_options() {
	topology='' numa='' mprops='' iso='' direct=0 pvh=0 kernel_opt='' firmware='' medium=cdrom accel=auto cpus=2 mem=1G machine='' suite='' tests='' copies='' params=''
	arch=x86_64
	nic='' peer='' tap='' link=''
	log='' tmo='' out=''
	scratch=() scratch_if=virtio scratch_cache=none dry_run=0
	cpus_src=default mem_src=default	# qemu/run's fixed default (--help says why), or given
	judge_log='' check_args=0 cloud='' user_data='' imds_fault=none imds_log=/dev/null
	while [ $# -gt 0 ]; do
		opt=$1 val=
		case $opt in
			--*=*) val=${opt#*=}; opt=${opt%%=*}; set -- "$opt" "$val" "${@:2}" ;;
		esac
		case $opt in
			-h | --help) usage; exit "${st[OK]}" ;;
			--direct) direct=1; shift; continue ;;
			--pvh) direct=1; pvh=1; shift; continue ;;
			--check-args) check_args=1; shift; continue ;;
			--dry-run) dry_run=1; shift; continue ;;
			--arch | --iso | --kernel | --firmware | --medium | --accel | --cpus | --topology | --numa | --mem | --machine | --suite | --tests | --copies | --params | \
				--nic | --peer | --tap | --link | --log | --timeout | --out | --judge | --scratch | --scratch-if | --scratch-cache | \
				--cloud | --user-data | --imds-fault | --imds-log) need "$@"; val=$2; shift 2 ;;
			*) die_usage "unknown option '$opt'" ;;
		esac
		case $opt in
			--arch) arch=$val ;;
			--iso) iso=$val ;;
			--kernel) kernel_opt=$val ;;
			--firmware) firmware=$val ;;
			--medium) medium=$val ;;
			--accel) accel=$val ;;
			--cpus) cpus=$val cpus_src=given ;;
			--topology) topology=$val ;;
			--numa) numa=$val ;;
			--mem) mem=$val mem_src=given ;;
			--machine) machine=$val ;;
			--suite) suite=$val ;;
			--tests) tests=$val ;;
			--copies) copies=$val ;;
			--params) params=$val ;;
			--nic) nic=$val ;;
			--peer) peer=$val ;;
			--tap) tap=$val ;;
			--link) link=$val ;;
			--cloud) cloud=$val ;;
			--user-data) user_data=$val ;;
			--imds-fault) imds_fault=$val ;;
			--imds-log) imds_log=$val ;;
			--log) log=$val ;;
			--scratch) scratch+=("$val") ;;
			--scratch-if) scratch_if=$val ;;
			--scratch-cache) scratch_cache=$val ;;
			--timeout) tmo=$val ;;
			--out) out=$val ;;
			--judge) judge_log=$val ;;
		esac
	done
}
# check_options: the values checked together, one family of options after the other in the order
# below (so the first wrong value found, the one named, is the same whatever the families hold);
# each check_* exits USAGE through die_usage on the first wrong value. Sets the derived values
# (the architecture's defaults, sizing, numa_opts, out, report, img). --check-args ends here
# with OK once the values are right; --judge LOG with the verdict's status; no isobench-report:
# NOSTART.
check_options() {
	check_arch		# --arch (its machine and firmware defaults), --accel
	check_size		# --cpus, --mem (host sized), --topology, --numa
	check_machine		# --machine, --firmware, --medium
	check_scratch		# --scratch, --scratch-if, --scratch-cache
	check_boot_mode		# --direct/--pvh against the firmware, medium, machine, --kernel
	check_run_words		# --suite, --timeout, --tests, --copies, --params (their form)
	check_network		# --nic, --peer, --tap, --link, --cloud, --user-data, --imds-*
	[ "$direct" -eq 0 ] || [ -z "$iso" ] || die_usage "--iso and --direct exclude each other"
	out_paths		# out, report, img
	check_test_names	# the test names, copies, suite and params, by the image's own runner
	[ "$check_args" -eq 0 ] || exit "${st[OK]}"
	[ -x "$report" ] || die_start "no $report: qemu/run judges and follows logs only through it (./build.sh builds it)"
	size_notes		# notes only: more vCPUs than host CPUs, the default size
	[ -z "$judge_log" ] || judge_only	# --judge LOG: exits
}
# check_arch: --arch (x86_64 or arm64, and their aliases) and what goes with it: the machine and
# firmware defaults (x86: pc, bios; arm64: virt, uefi or none with --direct), arm64's virt
# properties split into mprops; --accel. USAGE on a wrong value.
check_arch() {
	case $arch in
		x86_64 | x86 | amd64)
			arch=x86_64
			[ -n "$machine" ] || machine=pc
			[ -n "$firmware" ] || firmware=bios
			;;
		arm64 | aarch64)
			arch=arm64
			[ -n "$machine" ] || machine=virt
			# No BIOS on arm64: the ISO boots by UEFI; a direct boot takes no firmware.
			if [ "$direct" -eq 1 ]; then
				[ -z "$firmware" ] || die_usage "--arch arm64 --direct boots without firmware; drop --firmware"
				firmware=none
			elif [ -z "$firmware" ]; then firmware=uefi; fi
			# virt's own properties (virtualization=on, gic-version=3, ...) pass to -M unchanged.
			if [[ "$machine" =~ ^virt(,[a-z][a-z0-9-]*=[A-Za-z0-9._-]+)+$ ]]; then
				mprops=${machine#virt} machine=virt
			fi
			[ "$machine" = virt ] || die_usage "--arch arm64 runs on --machine virt only (virt,PROP=VALUE,... for QEMU's virt properties), not '$machine'"
			[ "$firmware" != bios ] || die_usage "--arch arm64 has no BIOS: the ISO boots by UEFI (--firmware uefi)"
			[ "$pvh" -eq 0 ] || die_usage "--pvh is x86's (the Xen PVH entry); --arch arm64 --direct boots the Image"
			;;
		*) die_usage "--arch must be x86_64 or arm64, not '$arch'" ;;
	esac
	case $accel in auto | kvm | tcg) ;; *) die_usage "--accel must be auto, kvm or tcg, not '$accel'" ;; esac
}
# check_size: the guest's size. --cpus (1..4096 or host) and --mem (a QEMU size or host) bounded,
# host sized from this host (nproc; MemAvailable less a margin), the sizing line's text set;
# --topology's -smp words; --numa (2..8 nodes, x86, at least a CPU and whole MiB per node).
# USAGE on a wrong value, and for --mem host on a host with under 256 MiB to spare.
check_size() {
	local avail total margin mib
	# Bounded before any arithmetic: bash's test and $((...)) wrap or fail past 2^63. 4096 vCPUs: no
	# QEMU machine takes more (QEMU 7.2 says its max: q35 288, pc 255, arm64 virt 512; newer q35
	# 4096), and QEMU names the machine's own bound below that; 9 digits of a size: up to 953 PiB.
	if ! [[ "$cpus" =~ ^([1-9][0-9]{0,3}|host)$ ]] || { [ "$cpus" != host ] && [ "$cpus" -gt 4096 ]; }; then
		die_usage "--cpus must be 1..4096 (more than any QEMU machine takes) or host, not '$cpus'"
	fi
	[[ "$mem" =~ ^([1-9][0-9]{0,8}[MGT]?|host)$ ]] || die_usage "--mem must look like 512M or 2G (at most 9 digits), or be host, not '$mem'"
	# --cpus host, --mem host: the guest the size of this host (docs/qemu.md "Both sides the same size").
	if [ "$cpus" = host ]; then
		# The CPUs this process may run on (nproc: its affinity; taskset or a cgroup's cpuset), not
		# every online one: more vCPUs than those would share them, and the host's own run under
		# the same restriction has only them.
		cpus=$(nproc)
		if [ "$cpus" -eq "$(getconf _NPROCESSORS_ONLN)" ]; then
			sizing="vcpus=$cpus (--cpus host: this host's online CPUs)"
		else sizing="vcpus=$cpus (--cpus host: the $cpus CPUs this process may run on, of $(getconf _NPROCESSORS_ONLN) online)"; fi
	else sizing="vcpus=$cpus ($cpus_src)"; fi
	if [ "$mem" = host ]; then
		# MemAvailable less the margin (docs/qemu.md's --mem host), in MiB; /proc/meminfo is in KiB.
		read -r avail total < <(awk '/^MemAvailable:/ { a = $2 } /^MemTotal:/ { t = $2 }
			END { print int(a / 1024), int(t / 1024) }' /proc/meminfo)
		margin=$((total / 8 > 1024 ? total / 8 : 1024))
		mib=$((avail - margin))
		[ -z "$numa" ] || [[ ! "$numa" =~ ^[2-8]$ ]] || mib=$((mib / numa * numa))
		[ "$mib" -ge 256 ] || die_usage "--mem host: this host has $avail MiB available, less the margin of $margin MiB that leaves $mib MiB (under 256 MiB): give --mem"
		mem=${mib}M mem_src=host	# capped by what the accelerator addresses once it is known (guest_ram_cap)
		sizing="$sizing mem=$mem (--mem host: MemAvailable $avail MiB less a margin of $margin MiB, max(1 GiB, MemTotal $total MiB / 8))"
	else sizing="$sizing mem=$mem ($mem_src)"; fi
	[ -z "$topology" ] || [[ "$topology" =~ ^(sockets|dies|clusters|cores|threads)=[1-9][0-9]*(,(sockets|dies|clusters|cores|threads)=[1-9][0-9]*)*$ ]] ||
		die_usage "--topology takes -smp words such as sockets=2,cores=16, not '$topology'"
	numa_opts=()
	if [ -n "$numa" ]; then
		[[ "$numa" =~ ^[2-8]$ ]] || die_usage "--numa must be 2..8 nodes, not '$numa'"
		[ "$arch" = x86_64 ] || die_usage "--numa is x86's here (ACPI SRAT/SLIT on pc and q35)"
		[ "$cpus" -ge "$numa" ] || die_usage "--numa $numa needs at least $numa CPUs (--cpus $cpus)"
		case $mem in *T) mib=$((${mem%T} << 20)) ;; *G) mib=$((${mem%G} << 10)) ;; *M) mib=${mem%M} ;; *) mib=$((mem >> 20)) ;; esac
		[ $((mib % numa)) -eq 0 ] || die_usage "--numa $numa: --mem $mem does not split into $numa whole MiB"
	fi
}
# check_machine: --machine (pc, q35, microvm; virt only with --arch arm64), --firmware (bios, uefi,
# none as check_arch set it), --medium (cdrom, disk). USAGE on a wrong value.
check_machine() {
	case $machine in pc | q35 | microvm | virt) ;; *) die_usage "--machine must be pc, q35, microvm or (--arch arm64) virt, not '$machine'" ;; esac
	[ "$machine" != virt ] || [ "$arch" = arm64 ] || die_usage "--machine virt is arm64's: add --arch arm64"
	case $firmware in bios | uefi | none) ;; *) die_usage "--firmware must be bios or uefi, not '$firmware'" ;; esac
	case $medium in cdrom | disk) ;; *) die_usage "--medium must be cdrom or disk, not '$medium'" ;; esac
}
# check_scratch: the disks the guest may write. --scratch-if, --scratch-cache by name; each
# --scratch image (blkdebug:CONF:IMAGE names it last) a readable and writable regular file without
# a comma in its path, attached once (scratch_seen: its real path to the --scratch word); none on
# microvm (no PCI). USAGE on a wrong one; nothing is opened or written here.
check_scratch() {
	local f real
	case $scratch_if in virtio | nvme | ahci) ;; *) die_usage "--scratch-if must be virtio, nvme or ahci, not '$scratch_if'" ;; esac
	case $scratch_cache in none | writeback) ;; *) die_usage "--scratch-cache must be none or writeback, not '$scratch_cache'" ;; esac
	declare -gA scratch_seen=()
	for f in "${scratch[@]}"; do
		[[ "$f" != *,* ]] || die_usage "--scratch $f: a comma in the path would split QEMU's -drive option"
		# The image itself (blkdebug:CONF:IMAGE names it last): a writable regular file, each
		# once (QEMU takes a write lock per -drive: the same file twice cannot start).
		img=${f##*:}
		[ ! -d "$img" ] || die_usage "--scratch $f: $img is a directory, not a disk image"
		[ -f "$img" ] || die_usage "--scratch $f: no such file"
		if ! { [ -r "$img" ] && [ -w "$img" ]; }; then die_usage "--scratch $f: $img is not readable and writable"; fi
		real=$(realpath "$img")
		[ -z "${scratch_seen[$real]:-}" ] || die_usage "--scratch $f: $real is already attached (as --scratch ${scratch_seen[$real]}); attach each image once"
		scratch_seen[$real]=$f
	done
	[ ${#scratch[@]} -eq 0 ] || [ "$machine" != microvm ] || die_usage "--scratch needs a PCI machine (pc or q35), not microvm"
}
# check_boot_mode: --direct/--pvh (the kernel by -kernel) excludes UEFI and --medium disk, which
# boot the ISO; the ISO excludes microvm (no firmware boots it) and --kernel. USAGE on a clash.
check_boot_mode() {
	if [ "$direct" -eq 1 ]; then
		[ "$firmware" != uefi ] || die_usage "--firmware uefi boots the ISO; it excludes --direct/--pvh"
		[ "$medium" = cdrom ] || die_usage "--medium disk boots the ISO; it excludes --direct/--pvh"
	else
		[ "$machine" != microvm ] || die_usage "--machine microvm has no firmware that boots an ISO: use --direct or --pvh"
		[ -z "$kernel_opt" ] || die_usage "--kernel needs --direct or --pvh"
	fi
}
# check_run_words: what the guest is told to run, by form only: --suite by name, --timeout a
# positive number of seconds, --tests/--copies comma lists without spaces, --params one line
# (check_test_names asks the runner whether the names exist). USAGE on a wrong form.
check_run_words() {
	local v
	case $suite in '' | quick | standard | thorough) ;; *) die_usage "--suite must be quick, standard or thorough, not '$suite'" ;; esac
	[ -z "$tmo" ] || [[ "$tmo" =~ ^[1-9][0-9]*$ ]] || die_usage "--timeout must be a positive number of seconds, not '$tmo'"
	for v in "$tests" "$copies"; do
		[[ "$v" =~ ^[A-Za-z0-9_.,:-]*$ ]] || die_usage "--tests/--copies take a comma list without spaces, not '$v'"
	done
	[[ "$params" != *$'\n'* ]] || die_usage "--params must be one line"
}
# check_network: --nic (virtio, e1000) and what needs it: --peer (IPv4:PORT; on loopback unless
# --tap), --tap (an interface name; whether it exists is network_devices' check, NOSTART),
# --link (listen|connect:PORT, no host side: excludes --peer and --tap), --cloud (aws, gce,
# azure, oci; QEMU's user network: excludes --link and --tap) with --user-data (a readable file),
# --imds-fault, --imds-log. USAGE on a wrong value or a clash.
check_network() {
	local link_port
	case $nic in '' | virtio | e1000) ;; *) die_usage "--nic must be virtio or e1000, not '$nic'" ;; esac
	[ -z "$peer$tap$link" ] || [ -n "$nic" ] || die_usage "--peer, --tap and --link need --nic"
	[ -z "$link" ] || [ -z "$peer$tap" ] || die_usage "--link excludes --peer and --tap (a link has no host side)"
	case $cloud in '' | aws | gce | azure | oci) ;; *) die_usage "--cloud must be aws, gce, azure or oci, not '$cloud'" ;; esac
	[ -z "$cloud" ] || [ -n "$nic" ] || die_usage "--cloud needs --nic"
	[ -z "$cloud" ] || [ -z "$link$tap" ] || die_usage "--cloud excludes --link and --tap (its metadata service is on QEMU's user network)"
	if [ -z "$cloud" ] && { [ -n "$user_data" ] || [ "$imds_fault" != none ] || [ "$imds_log" != /dev/null ]; }; then
		die_usage "--user-data, --imds-fault and --imds-log need --cloud"
	fi
	[ -z "$user_data" ] || [ -r "$user_data" ] || die_usage "--user-data $user_data: no such readable file"
	case $imds_fault in none | slow | garbage) ;; *) die_usage "--imds-fault must be slow or garbage, not '$imds_fault'" ;; esac
	link_port='([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])'
	[ -z "$link" ] || [[ "$link" =~ ^(listen|connect):$link_port$ ]] || die_usage "--link must be listen:PORT or connect:PORT (port 1..65535), not '$link'"
	[ -z "$peer" ] || ipv4_port "$peer" || die_usage "--peer must be IPv4:PORT (each number 0..255, port 1..65535), not '$peer'"
	if [ -n "$peer" ] && [ -z "$tap" ]; then
		[[ "$peer" == 127.* ]] || die_usage "--peer without --tap must listen on this host's loopback (127.x.y.z), not '$peer': user networking with restrict=on reaches nothing else"
	fi
	[ -z "$tap" ] || [[ "$tap" =~ ^[A-Za-z0-9_.-]{1,15}$ ]] || die_usage "--tap must be an interface name, not '$tap'"
}
# out_paths: out (--out, default the checkout's out/), report (its isobench-report), img (the
# image's own files: OUT/ for x86-64, OUT/arm64/ for arm64; the host tools stay in OUT/).
out_paths() {
	out=${out:-$here/out}
	report=$out/isobench-report
	img=$out
	[ "$arch" = x86_64 ] || img=$out/arm64
}
# check_test_names: test names, copies and the suite, checked by the payload's own parser before
# booting (the image would only report them as ERROR records); isobench.* words in --params only
# warned about, since the image's handling of bad input is itself something to try. The parser
# is the image's own runner: the host's for x86-64, arm64's under qemu-user for --arch arm64 (the
# image's own parser: its list, its checks). Without the runner (or
# qemu-aarch64): a note, nothing checked. USAGE on a name the runner refuses, or an isobench key
# in --params without its isobench. prefix.
check_test_names() {
	local runner chk msg w
	runner=("$out/isobench")
	[ "$arch" = x86_64 ] || runner=(qemu-aarch64 "$img/isobench")
	if [ ! -x "$img/isobench" ]; then
		note "test names, copies and suite not checked: no $img/isobench (./build.sh builds it)"
	elif ! command -v "${runner[0]}" >/dev/null; then
		note "test names, copies and suite not checked: no ${runner[0]} to run $img/isobench (apt-get install qemu-user)"
	else
		chk=()
		[ -z "$tests" ] || chk+=(--tests "$tests")
		[ -z "$copies" ] || chk+=(--copies "$copies")
		[ -z "$suite" ] || chk+=(--suite "$suite")
		msg=$("${runner[@]}" --check-params "${chk[@]}" 2>&1) || die_usage "${msg#isobench: }"
		for w in $params; do
			case $w in
				isobench.*=*)
					msg=$("${runner[@]}" --check-params --param "$w" 2>&1) ||
						note "the image will report an ERROR record: ${msg#isobench: }"
					;;
				console=* | *.*=*) ;;	# the kernel's own (console= is both: the kernel's here)
				*=*)
					# An isobench key without its prefix reaches the kernel, not isobench: the
					# run would quietly use the default. Refuse it before booting.
					if "${runner[@]}" --check-params --param "$w" >/dev/null 2>&1; then
						die_usage "--params: '$w' would not reach isobench; write isobench.$w"
					fi
					;;
			esac
		done
	fi
}
# size_notes: notes on stderr (no status): more vCPUs than this host's CPUs (multi-copy figures
# time-shared), and the default 2 vCPUs on a host of another size.
size_notes() {
	local host_cpus
	host_cpus=$(nproc)
	if [ "$cpus" -gt "$host_cpus" ]; then
		note "--cpus $cpus is more than this host's $host_cpus CPUs: vCPUs time-share host CPUs, so multi-copy figures are not per-CPU figures"
	fi
	if [ "$cpus_src" = default ] && [ "$cpus" -ne "$(getconf _NPROCESSORS_ONLN)" ]; then
		note "the guest has the default $cpus vCPUs, this host $(getconf _NPROCESSORS_ONLN) CPUs: beside this host's bare-metal run, --cpus host --mem host sizes it as the host"
	fi
}
# judge_only: --judge LOG: the log's verdict through isobench-report (judge), no boot; exits with
# its status, NOSTART when LOG is not there.
judge_only() {
	[ -f "$judge_log" ] || die_start "no such log: $judge_log"
	judge "$judge_log" || exit $?
	exit "${st[OK]}"
}
