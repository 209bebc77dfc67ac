#!/usr/bin/env bash
# tests/test-codegen.sh — the compiler kept the measured work: read the payload's objects
# (objdump, relocations) and check that the loops still call what they are meant to measure.
#
# In:  $OUT/obj and $OUT/obj-proc (the runner's and isobench-proc's objects; OUT defaults to
#      the repository's out/).
# Out: one line per assertion, then "N passed, M failed". Errors: exit 1 on any failure.
# Why: a Dhrystone whose procedures were inlined and folded, or a syscall loop whose calls
# were hoisted, would still "run" and report a huge, meaningless rate.
# shellcheck disable=SC2016  # the single-quoted $ are objdump's and make's, not the shell's
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
obj=${OUT:-$top/out}/obj
pobj=${OUT:-$top/out}/obj-proc	# isobench-proc's objects (Dhrystone)
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

# Dhrystone 2.1 (Weicker), in the shape byte-unixbench's build gives it (payload/proc/dhry_1.c):
# the loop calls exactly Proc_1, dhry_2.c's Proc_6..Proc_8, Func_1 and Func_2 (Proc_2, Proc_4
# and Proc_5 inlined; no dhry_2.c procedure merged), and Proc_1, with Proc_3 inlined, calls
# Proc_6 and Proc_7. Either more calls (procedures kept out of line) or fewer (dhry_2.c folded
# in) changes what dhry2reg measures against byte-unixbench's binary.
dl=$(calls "$pobj/dhry_1.o" dhry_loop | grep -E '^(Proc|Func)_' | tr '\n' ' ') || true
want="Func_1 Func_2 Proc_1 Proc_6 Proc_7 Proc_8 "
if [ "$dl" = "$want" ]; then ok "dhry2reg loop calls exactly: $want"
else bad "dhry2reg loop calls '$dl', byte-unixbench's shape is '$want'"; fi
p1=$(calls "$pobj/dhry_1.o" Proc_1 | grep -E '^(Proc|Func)_' | tr '\n' ' ') || true
if [ "$p1" = "Proc_6 Proc_7 " ]; then ok "Proc_1 calls exactly Proc_6 Proc_7 (Proc_3 inlined)"
else bad "Proc_1 calls '$p1', byte-unixbench's shape is 'Proc_6 Proc_7 '"; fi

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
for o in "$obj"/*.o "$obj"/bench/*.o "$obj"/core/*.o "$obj"/arch/*/*.o; do
	h=$(objdump -h "$o" 2>/dev/null) || { unread="$unread $o"; continue; }
	nobj=$((nobj + 1))
	if grep -q '\.gnu\.lto_' <<<"$h"; then lto="$lto $o"; fi
done
if [ -n "$unread" ] || [ "$nobj" -lt 10 ]; then bad "LTO check: $nobj objects read, unreadable:${unread:- none}"
elif [ -z "$lto" ]; then ok "no object carries LTO bytecode ($nobj objects)"
else bad "LTO objects:$lto"; fi

# ---- the memory group (payload/bench/mem_latency.c, mem_stream.c) ----
# loop_of OBJECT FUNCTION: the instructions of FUNCTION's last loop (from the target of its
# last backward conditional jump to that jump), one "mnemonic operands" per line.
loop_of() {
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" | awk '
		/^ *[0-9a-f]+:\t/ {
			a = $1; sub(":", "", a); n++; addr[n] = strtonum("0x" a)
			line = $0; sub(/^ *[0-9a-f]+:\t/, "", line); text[n] = line
			if ($2 ~ /^j/ && $2 != "jmp" && strtonum("0x" $3) < addr[n]) { lo = strtonum("0x" $3); hi = n }
		}
		END { for (i = 1; i <= hi; i++) if (addr[i] >= lo) print text[i] }'
}
# mem_ops: of loop lines on stdin, "LOADS STORES": an operand "(...)" is a store when it is
# the last operand, else a load (lea and nop touch no memory).
mem_ops() {
	awk '$1 ~ /^(lea|nop)/ { next }
		/\(/ { if ($0 ~ /,[^,]*\([^)]*\)$/) st++; else ld++ }
		END { printf "%d %d\n", ld, st }'
}
# chase_check OBJECT [FUNCTION]: FUNCTION's (default mem_chase) loop is one load whose
# address is the register it writes (mov (%rX),%rX: each load needs the one before) and no
# store; prints why not, or nothing.
chase_check() {
	local body ops f=${2:-mem_chase}
	body=$(loop_of "$1" "$f")
	ops=$(mem_ops <<<"$body")
	if [ -z "$body" ]; then echo "$f has no loop"; return; fi
	[ "$ops" = "1 0" ] || echo "$f's loop has loads/stores $ops, want 1 0: $(tr '\n' ';' <<<"$body")"
	grep -qE '^mov +\((%r[a-z0-9]+)\),\1$' <<<"$body" ||
		echo "$f's load is not a dependent mov (%rX),%rX: $(tr '\n' ';' <<<"$body")"
}
# kernel_check OBJECT FUNCTION LOADS STORES MULS ADDS: FUNCTION's loop has that many loads,
# stores, floating-point multiplies and adds per step, steps of one 16-byte SSE2 pair (or
# one 8-byte scalar), and runs over the whole block (ST_BLOCK x 8 = 0x4000 bytes): not
# deleted, not fused with another kernel, not shortened. Prints why not, or nothing.
kernel_check() {
	local body ops mul add
	body=$(loop_of "$1" "$2")
	if [ -z "$body" ]; then echo "$2 has no loop"; return; fi
	ops=$(mem_ops <<<"$body")
	mul=$(grep -cE '^mul[sp]d ' <<<"$body" || true)	# none: "0", status 1
	add=$(grep -cE '^add[sp]d ' <<<"$body" || true)	# none: "0", status 1
	[ "$ops $mul $add" = "$3 $4 $5 $6" ] ||
		echo "$2: loads/stores/muls/adds $ops $mul $add, want $3 $4 $5 $6: $(tr '\n' ';' <<<"$body")"
	grep -qE '^add +\$0x(10|8|1),%r' <<<"$body" || echo "$2: no 16- or 8-byte (or 1-element) step"
	grep -qE '^cmp +\$0x(4000|800),' <<<"$body" || echo "$2: no bound of the whole block"
}
# copy_check OBJECT: stream_copy is one memcpy of its count x 8 bytes (what gcc makes of
# STREAM's own copy loop with the same flags), or a loop of one load and one store per step.
copy_check() {
	local d body
	d=$(objdump -dr --no-show-raw-insn --disassemble=stream_copy "$1")
	if grep -q 'R_X86_64_PLT32[[:space:]]*memcpy' <<<"$d"; then
		# exactly: test the count, shift it to bytes, tail-call memcpy (nothing shortens it)
		local ins
		ins=$(grep -E '^ +[0-9a-f]+:'$'\t' <<<"$d" | cut -f2 | grep -vE '^(nop|xchg|ret|data16|cs )' | tr '\n' ';') || true
		[[ $ins =~ ^test\ +%rdx,%rdx\;je\ +[^\;]+\;shl\ +\$0x3,%rdx\;jmp\ +[^\;]+\;$ ]] ||
			echo "stream_copy: memcpy not of count x 8 bytes: $ins"
		return
	fi
	body=$(loop_of "$1" stream_copy)
	[ "$(mem_ops <<<"$body")" = "1 1" ] || echo "stream_copy: neither memcpy nor a 1-load 1-store loop"
}
# memory_checks DIR: every check above on DIR/mem_latency.o and DIR/mem_stream.o.
memory_checks() {
	chase_check "$1/mem_latency.o"
	copy_check "$1/mem_stream.o"
	kernel_check "$1/mem_stream.o" stream_scale 1 1 1 0
	kernel_check "$1/mem_stream.o" stream_add 2 1 0 1
	kernel_check "$1/mem_stream.o" stream_triad 2 1 1 1
	local c
	c=$(calls "$1/mem_stream.o" st_run)
	for f in stream_copy stream_scale stream_add stream_triad; do
		grep -qx "$f" <<<"$c" || echo "st_run does not call $f"
	done
	grep -qx mem_chase < <(calls "$1/mem_latency.o" lat_run) || echo "lat_run does not call mem_chase"
}
why=$(memory_checks "$obj/bench")
if [ -z "$why" ]; then ok "memory: mem_chase is a dependent load chain; STREAM's kernels keep their loads, stores and arithmetic per element, each its own loop over the block, all called"
else bad "memory: $why"; fi

# The same checks on planted breakage, compiled with the payload's own flags: each must fail.
pl=$(mktemp -d)
trap 'rm -rf "$pl"' EXIT
flags=$(make -s -C "$top/payload" O="$pl" --eval 'print-flags: ; @echo $(CPPFLAGS) $(CFLAGS)' print-flags)
plant() {	# plant NAME FILE SED-EXPRESSION: DIR $pl/NAME with the real objects, FILE mutated
	mkdir -p "$pl/$1"
	cp "$obj/bench/mem_latency.o" "$obj/bench/mem_stream.o" "$pl/$1/"
	sed -E "$3" "$top/payload/bench/$2.c" >"$pl/$1/$2.c"
	# shellcheck disable=SC2086  # flags are words
	(cd "$top/payload" && musl-gcc $flags -I bench -c "$pl/$1/$2.c" -o "$pl/$1/$2.o")
}
planted() {	# planted NAME FILE SED-EXPRESSION WHAT
	if ! plant "$1" "$2" "$3" 2>"$pl/$1.err"; then bad "planted $4: does not compile: $(head -3 "$pl/$1.err")"; return; fi
	why=$(memory_checks "$pl/$1")
	if [ -n "$why" ]; then ok "planted $4 is caught: $(head -1 <<<"$why" | cut -c1-150)"
	else bad "planted $4 passes the memory checks"; fi
}
planted nochain mem_latency 's|p = \(void \*\*\)\*p;|p = (void **)((char *)p + 64);|' "chase without loads (address arithmetic)"
planted indep mem_latency 's|p = \(void \*\*\)\*p;|p = (void **)((char *)p + 64 + (*(volatile char *)p \& 0));|' "chase whose loads are independent"
planted addcopy mem_stream 's|c\[j\] = a\[j\] \+ b\[j\];|c[j] = a[j] + 0 * b[0];|' "add that lost a load"
planted short mem_stream '/static void stream_triad/,/^}/ s|j < ST_BLOCK;|j < ST_BLOCK / 2;|' "triad over half the block"
planted fused mem_stream 's|c\[j\] = a\[j\] \+ b\[j\];|{ c[j] = a[j] + b[j]; c[j + ST_BLOCK] = a[j]; }|' "add fused with a copy (a second store)"
planted halfcopy mem_stream 's|for \(size_t j = 0; j < n; j\+\+\)|for (size_t j = 0; j < n / 2; j++)|' "copy of half its span"
planted uncalled mem_stream 's|case K_TRIAD: stream_triad\(s->a \+ at, s->b \+ at, s->c \+ at\)|case K_TRIAD: stream_add(s->a + at, s->b + at, s->c + at)|; s|^__attribute__\(\(noinline\)\) static void stream_triad|__attribute__((noinline, used)) static void stream_triad|' "triad never called"

# docs/benchmarks/memory-walk-order.c, the diagnostic memory.md compares walk orders with:
# built with the runner's flags and -Werror, its timed loop (walk) the same dependent load as
# mem_chase (a planted independent load is caught), and at 16 KiB each order prints its line.
wo=$top/docs/benchmarks/memory-walk-order.c
# shellcheck disable=SC2086  # flags are words
if musl-gcc -static $flags -Wall -Wextra -Werror -o "$pl/walk-order" "$wo" 2>"$pl/wo.err"; then
	why=$(chase_check "$pl/walk-order" walk)
	if [ -z "$why" ]; then ok "memory-walk-order.c: walk is a dependent load chain"; else bad "memory-walk-order.c: $why"; fi
	for o in random pages; do
		line=$("$pl/walk-order" 16 4k "$o" 100000 2>&1) || true
		if [[ $line =~ ^16\ 4k\ $o\ [0-9]+\.[0-9]{3}\ (-1|[0-9]+)$ ]] && awk -v v="${line#16 4k "$o" }" 'BEGIN { exit !(v + 0 > 0) }'
		then ok "memory-walk-order $o: $line"; else bad "memory-walk-order $o printed: $line"; fi
	done
	if bad_out=$("$pl/walk-order" 15 4k random 10 2>&1); then bad "memory-walk-order accepted 15 KiB: $bad_out"
	else ok "memory-walk-order refuses a set that is not whole pages: $bad_out"; fi
	sed -E 's|p = \(char \*\*\)\*p;|p = (char **)((char *)p + 64 + (*(volatile char *)p \& 0));|' "$wo" >"$pl/wo-indep.c"
	# shellcheck disable=SC2086  # flags are words
	musl-gcc -static $flags -Wall -Wextra -Werror -o "$pl/wo-indep" "$pl/wo-indep.c"
	why=$(chase_check "$pl/wo-indep" walk)
	if [ -n "$why" ]; then ok "planted independent loads in walk are caught: $(cut -c1-120 <<<"$why")"
	else bad "planted independent loads in walk pass"; fi
else bad "memory-walk-order.c does not build: $(head -3 "$pl/wo.err")"; fi

finish
