#!/usr/bin/env bash
# tests/test-codegen.sh — the compiler kept the measured work: read the payload's objects
# (objdump, relocations) and check that the loops still call what they are meant to measure.
#
# In:  $OUT/obj (the payload's objects; OUT defaults to the repository's out/).
# Out: one line per assertion, then "N passed, M failed". Errors: exit 1 on any failure.
# Why: a Dhrystone whose procedures were inlined and folded, or a syscall loop whose calls
# were hoisted, would still "run" and report a huge, meaningless rate.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
obj=${OUT:-$top/out}/obj
# shellcheck source=lib.sh
. "$top/tests/lib.sh"

# calls OBJECT [FUNCTION]: the functions OBJECT (or FUNCTION in it) calls, one per line.
calls() {
	local o=$1
	shift
	# External calls show as relocations; calls to static functions as "call ... <name>".
	objdump -dr ${1:+--disassemble="$1"} "$o" |
		sed -nE 's/.*R_X86_64_PLT32[[:space:]]+([A-Za-z_0-9]+).*/\1/p; s/.*call[[:space:]]+[0-9a-f]+ <([A-Za-z_0-9]+)>.*/\1/p' |
		sort -u
}

# Dhrystone 2.1 (Weicker): the measured loop calls these procedures and functions; Proc_3
# is reached through Proc_1 and Func_3 through Proc_6 (both in the same check).
dl=$(calls "$obj/bench/dhry_1.o" dhry_loop)
for f in Proc_1 Proc_2 Proc_4 Proc_5 Proc_6 Proc_7 Proc_8 Func_1 Func_2; do
	if grep -qx "$f" <<<"$dl"; then ok "dhry2reg loop calls $f"; else bad "dhry2reg loop does not call $f"; fi
done
if grep -qx Proc_3 < <(calls "$obj/bench/dhry_1.o" Proc_1); then ok "Proc_1 calls Proc_3"; else bad "Proc_1 does not call Proc_3"; fi

# UnixBench syscall mix: close(dup()), getpid through syscall(2), getuid, umask.
sc=$(calls "$obj/bench/syscall.o" run)
for f in dup close syscall getuid umask; do
	if grep -qx "$f" <<<"$sc"; then ok "syscall loop calls $f"; else bad "syscall loop does not call $f"; fi
done

# Whetstone: module 8's procedure calls and the math library modules stay real calls.
wp=$(calls "$obj/bench/whetstone.o" whet_pass)
for f in PA P0 P3 atan exp log sqrt; do
	if grep -qx "$f" <<<"$wp"; then ok "whetstone pass calls $f"; else bad "whetstone pass does not call $f"; fi
done
if grep -qxE 'sin|sincos' <<<"$wp" && grep -qxE 'cos|sincos' <<<"$wp"; then ok "whetstone pass calls sin/cos"; else bad "whetstone pass calls no sin/cos"; fi

# No link-time optimisation anywhere: it could merge and fold across the files above.
#    (Every object must be read: a missing one or an objdump error is a failure, not "none".)
lto='' nobj=0 unread=''
for o in "$obj"/*.o "$obj"/bench/*.o "$obj"/arch/*/*.o; do
	h=$(objdump -h "$o" 2>/dev/null) || { unread="$unread $o"; continue; }
	nobj=$((nobj + 1))
	if grep -q '\.gnu\.lto_' <<<"$h"; then lto="$lto $o"; fi
done
if [ -n "$unread" ] || [ "$nobj" -lt 10 ]; then bad "LTO check: $nobj objects read, unreadable:${unread:- none}"
elif [ -z "$lto" ]; then ok "no object carries LTO bytecode ($nobj objects)"
else bad "LTO objects:$lto"; fi

finish
