# tests/boot-lib.sh — boot one QEMU guest, time it and judge its serial log (source it after
# tests/lib.sh; bash). Used by tests/test-netboot.sh and tests/test-disks.sh, which boot
# through firmware paths qemu/run does not offer (network, qcow2 disks).
# shellcheck shell=bash disable=SC2154 # $out, $id and $tmp are the sourcing test's

# Paths: OVMF firmware (Debian package ovmf).
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}

_usec() { local t=$EPOCHREALTIME; echo "${t//[!0-9]/}"; }
_secs() { printf '%d.%02d' $(($1 / 1000000)) $(($1 % 1000000 / 10000)); }

# qboot NAME FIRMWARE LOG TIMEOUT QEMU-ARGS...: boot qemu-system-x86_64 under TCG (pc, 2 vCPUs,
# 512 MiB, serial to LOG, -no-reboot, FIRMWARE bios|uefi) plus QEMU-ARGS; wait at most TIMEOUT
# s for it to exit. Then assert: QEMU exited by itself, `OUT/isobench-report --check LOG` is 0,
# the kernel powered off, the log carries image.identity=$id. Appends a row "NAME RESULT END
# EXIT" to the array boot_rows (seconds from QEMU's start to the END record and to QEMU's exit,
# host wall clock; END is seen by polling the log every 0.1 s). Needs $out, $id, $tmp.
boot_rows=()
boot_pid=
qboot() {
	local name=$1 fw=$2 log=$3 tmo=$4 t0 t_end='' t_exit st=0 rst=0 fwopts=() verdict=ok
	shift 4
	if [ "$fw" = uefi ]; then
		cp "$OVMF_VARS" "$tmp/$name.vars.fd"
		fwopts=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
			-drive "if=pflash,format=raw,unit=1,file=$tmp/$name.vars.fd")
	fi
	: >"$log"
	t0=$(_usec)
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -accel tcg -cpu max -M pc -m 512 -smp 2 \
		-vga std -display none -no-reboot -serial "file:$log" "${fwopts[@]}" "$@" \
		</dev/null >"$tmp/$name.qemu" 2>&1 &
	boot_pid=$!
	while kill -0 "$boot_pid" 2>/dev/null; do
		if [ -z "$t_end" ] && grep -aEq '@isobench/1 [0-9]+ END ' "$log"; then t_end=$(_usec); fi
		sleep 0.1
	done
	wait "$boot_pid" || st=$?
	boot_pid=
	t_exit=$(_usec)
	if [ -z "$t_end" ] && grep -aEq '@isobench/1 [0-9]+ END ' "$log"; then t_end=$t_exit; fi
	"$out/isobench-report" --check "$log" >"$tmp/$name.check" 2>&1 || rst=$?
	if [ "$st" -ne 0 ]; then
		bad "$name: QEMU status $st (124: no power-off within ${tmo} s): $(head -c 300 "$tmp/$name.qemu")"
		verdict=FAIL
	elif [ "$rst" -ne 0 ]; then
		bad "$name: isobench-report --check status $rst: $(tail -n 1 "$tmp/$name.check")"
		verdict=FAIL
	elif ! grep -aq 'reboot: Power down' "$log"; then
		bad "$name: no 'reboot: Power down' in $log (QEMU ended another way)"
		verdict=FAIL
	elif ! grep -aq "image.identity=$id" "$log"; then
		bad "$name: the log does not carry image.identity=$id"
		verdict=FAIL
	else
		ok "$name: END, valid log, powered off"
	fi
	boot_rows+=("$(printf '%-12s %-5s %8s %8s' "$name" "$verdict" \
		"$(if [ -n "$t_end" ]; then _secs $((t_end - t0)); else echo -; fi)" "$(_secs $((t_exit - t0)))")")
}

# boot_table: the rows, with a header and the conditions.
boot_table() {
	echo
	printf '%-12s %-5s %8s %8s\n' boot result "END (s)" "exit (s)"
	printf '%s\n' "${boot_rows[@]}"
	echo "(TCG, host wall clock from QEMU's start; quick suite, syscall, 1 copy; the host is shared)"
}
