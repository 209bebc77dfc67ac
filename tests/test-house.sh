#!/usr/bin/env bash
# tests/test-house.sh — the rooms of the tree keep to docs/architecture.md:
#   * the report tool compiles and links nothing from payload/ (what it shares with the runner
#     lives in lib/);
#   * lib/ includes only its own and the system's headers (never payload/ or report/);
#   * payload/'s rooms (root, pid1/, net/, bench/) include only their own headers, lib/'s and
#     those their row of docs/architecture.md's table names under "may include" (rooms.py);
#   * payload/bench/ holds the tests only: each of its .c files, as built (out/'s objects),
#     defines a test descriptor, a global const struct bench bench_<id> of a registry row
#     (machine facts and shared machinery live in payload/core/);
#   * no tracked file is a compiled (ELF) binary: build output stays out of git;
#   * a record is decoded once: payload/ calls rec_parse()/rec_parse_body() only on records
#     another process wrote (net/netserve.c: a peer's; runner.c's relay_line(): a test
#     child's; pid1/peer.c's note_line(): the peer program's), and builds BEGIN and END only
#     in out.c, which notes what they say as it
#     writes them (the summary, the results file's name and the replay read no record back);
#   * each test's name is spelled once, as its row's id in payload/registry.c (tests/names.py):
#     no string in payload/ or lib/ spells a name again, no descriptor names itself, no row
#     is written twice;
#   * no file of payload/ or lib/ turns text into a number past lib/num.h (atoi, strtol,
#     strtod, ...: each takes a prefix of bad text or clamps without a word), but the
#     exceptions written at lax_exempt below, nor through a numeric *scanf conversion (%d,
#     %lu, %llx, SCNu64, ...: undefined on overflow, blanks and signs taken silently);
#   * docs/architecture.md names every tracked source file (source_files below: C, headers,
#     shell, Python, Makefiles and *.mk, qemu/run and tests/run, anywhere but tests/fixtures/)
#     as tests/named.py rules: its path, or a tail of it no other such file shares;
# and each check fails on a planted violation (a copy of the tree, of the page or of the list).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# report_links_payload ROOT: prints the payload/ files report/'s build would read (none: 0).
# A build that make cannot even plan counts as a violation too.
report_links_payload() {
	local plan
	plan=$(make -n -B -C "$1/report" O="$tmp/o" "$tmp/o/isobench-report" fuzz 2>&1) || {
		echo "make -n failed: $(tail -n 1 <<<"$plan")"
		return
	}
	grep -oE '(\.\./)+payload/[^ ]*' <<<"$plan" | sort -u
}

# lib_includes_outside ROOT: prints lib/ files' #include lines naming a header that is not in
# lib/ and not a system header (<...>).
lib_includes_outside() ( # a subshell: it changes directory
	local f h
	cd "$1" || return
	for f in lib/*.[ch]; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r h; do
				[ -f "lib/$h" ] && [ "$(basename "$h")" = "$h" ] || echo "$f: $h"
			done
	done
)

judge() { # judge ROOT LABEL: the two checks on one tree
	local got
	got=$(report_links_payload "$1") || true	# its list is the verdict, not its status
	none "$got" "$2: report/ builds from report/ and lib/ only" \
		"$2: report/ uses payload/ files"
	got=$(lib_includes_outside "$1")
	none "$got" "$2: lib/ includes only lib/ and system headers" \
		"$2: lib/ includes outside itself"
}

# bench_not_tests ROOT OBJ: the files of ROOT/payload/bench/*.c whose object under OBJ/bench/
# (the runner's build: obj/ of out/) defines no test descriptor: no global data symbol
# bench_<id> whose <id> is a row of the registry (OBJ/registry.o defines the row's name,
# bench_name_<id>: any other bench_* datum, a table or a default of some machinery, is no
# test), or no object at all (a file the runner does not build).
bench_not_tests() {
	local f o rows
	rows=$(nm --defined-only "$2/registry.o" | sed -n 's/^[0-9a-f]* [DdRr] bench_name_\(.*\)$/\1/p')
	[ -n "$rows" ] || { echo "$2/registry.o: no row names (bench_name_<id>) read"; return; }
	for f in "$1"/payload/bench/*.c; do
		o=$2/bench/$(basename "$f" .c).o
		if [ ! -f "$o" ]; then echo "${f#"$1"/}: not built into the runner"
		elif ! nm --defined-only "$o" | sed -n 's/^[0-9a-f]* [DR] bench_\(.*\)$/\1/p' | grep -qxF "$rows"; then
			echo "${f#"$1"/}: defines no test (no const struct bench bench_<id> of a registry row)"
		fi
	done
}
obj=${OUT:-$top/out}/obj
if [ -d "$obj/bench" ]; then
	none "$(bench_not_tests "$top" "$obj")" "payload/bench/: every .c file defines a test" \
		"payload/bench/ holds what is no test"
	# Planted: a file of machinery in bench/ (core/paced.c's object beside the tests'); then the
	# same with a global datum named bench_* that is no row (bench_paced_version).
	tree_copy "$tmp/bench" payload/bench
	mkdir -p "$tmp/bobj/bench"
	cp "$obj"/bench/*.o "$tmp/bobj/bench/"
	cp "$obj/registry.o" "$tmp/bobj/"
	cp "$top/payload/core/paced.c" "$tmp/bench/payload/bench/paced.c"
	cp "$obj/core/paced.o" "$tmp/bobj/bench/paced.o"
	got=$(bench_not_tests "$tmp/bench" "$tmp/bobj")
	if [ "$got" = "payload/bench/paced.c: defines no test (no const struct bench bench_<id> of a registry row)" ]; then
		pass "planted: core/paced.c put in bench/ is found"
	else fail "planted paced.c in bench/: bench_not_tests printed '$got'"; fi
	printf 'const int bench_paced_version = 1;\n' >"$tmp/pv.c"
	if gcc -c -o "$tmp/pv.o" "$tmp/pv.c" && ld -r -o "$tmp/bobj/bench/paced.o" "$obj/core/paced.o" "$tmp/pv.o"; then
		got=$(bench_not_tests "$tmp/bench" "$tmp/bobj")
		if [ "$got" = "payload/bench/paced.c: defines no test (no const struct bench bench_<id> of a registry row)" ]; then
			pass "planted: core/paced.c with a datum bench_paced_version (no row) is found"
		else fail "planted paced.c with bench_paced_version: bench_not_tests printed '$got'"; fi
	else fail "cannot build the planted paced.o with bench_paced_version"; fi
else skip "payload/bench/ holds tests only: no runner build in $obj (make -C payload)"; fi

# tracked_binaries ROOT: prints the tracked files that are ELF objects (build output: a `make`
# without O= writes the runner or the report tool into its source folder; never committed).
tracked_binaries() {
	git -C "$1" ls-files -z | python3 -c 'import os, sys
for f in sys.stdin.buffer.read().split(b"\0"):
    p = os.path.join(sys.argv[1].encode(), f)
    if f and os.path.isfile(p) and open(p, "rb").read(4) == b"\x7fELF":
        print(f.decode(errors="replace"))' "$1"
}
none "$(tracked_binaries "$top")" "no tracked file is a compiled binary" "tracked binaries"

judge "$top" "tree"
if [ -n "$(cd "$top" && ls lib/*.c 2>/dev/null)" ]; then pass "lib/ holds the shared sources"
else fail "lib/ holds no .c file"; fi

# source_files ROOT: the tracked files docs/architecture.md must name, one a line.
source_files() {
	git -C "$1" ls-files | grep -v '^tests/fixtures/' |
		grep -E '\.(c|h|sh|py|mk)$|(^|/)Makefile[^/]*$|^(qemu|tests)/run$'
}
# unnamed DOC [EXTRA]: the source files (and EXTRA, a planted new one) DOC does not name.
unnamed() {
	{ source_files "$top"; [ -z "${2:-}" ] || echo "$2"; } | python3 "$here/named.py" "$1"
}
doc=$top/docs/architecture.md
n=$(source_files "$top" | wc -l)
if [ "$n" -lt 200 ]; then fail "only $n source files listed (git ls-files failed?)"
else none_listed "docs/architecture.md names all $n source files" \
	"docs/architecture.md does not name" -- unnamed "$doc"; fi
# Planted: a new file nobody named; a name taken out of the page; a name made ambiguous
# (payload/main.c written as main.c, which report/main.c shares).
got=$(unnamed "$doc" payload/planted.c) || true
if [ "$got" = payload/planted.c ]; then pass "planted: a new payload/planted.c is found unnamed"
else fail "planted payload/planted.c: named.py printed '$got'"; fi
sed 's#num\.c./.num\.h#the parser#; s#.lib/num\.c. (its counts)#the parser#' "$doc" >"$tmp/arch-num.md"
got=$(unnamed "$tmp/arch-num.md") || true
if [ "$got" = $'lib/num.c\nlib/num.h' ]; then pass "planted: lib/num.c and lib/num.h taken out are found"
else fail "planted num.c/num.h removal: named.py printed '$got'"; fi
sed 's#.payload/main\.c.#main.c#' "$doc" >"$tmp/arch-main.md"
got=$(unnamed "$tmp/arch-main.md") || true
if [ "$got" = payload/main.c ]; then pass "planted: an ambiguous main.c names neither main.c"
else fail "planted ambiguous main.c: named.py printed '$got'"; fi

# payload/'s rooms include what their "may include" cell says (tests/rooms.py).
none_listed "payload/'s rooms include only what docs/architecture.md lets them" \
	"payload/'s rooms include past docs/architecture.md" -- python3 "$here/rooms.py" "$top"
tree_copy "$tmp/rooms" payload docs/architecture.md lib kernel-config/driver
printf '#include "../harness.h"\n' >>"$tmp/rooms/payload/bench/getpid.c"	# bench -> the harness
printf '#include "../bench/disk.h"\n' >>"$tmp/rooms/payload/pid1/summary.c"	# pid1 -> bench
got=$(python3 "$here/rooms.py" "$tmp/rooms") || true
if grep -q '^payload/bench/getpid.c: #include "../harness.h"' <<<"$got" &&
	grep -q '^payload/pid1/summary.c: #include "../bench/disk.h"' <<<"$got" &&
	[ "$(grep -c . <<<"$got")" -eq 2 ]; then
	pass "planted: bench/ including ../harness.h and pid1/ including ../bench/disk.h are found"
else fail "planted room includes: rooms.py printed '$(tr '\n' '|' <<<"$got")'"; fi

# rereaders ROOT: each call in ROOT/payload/ (any depth) that decodes a record, rec_parse() or
# rec_parse_body(), outside the single decodes of records another process wrote: net/
# netserve.c (a peer's records, another machine's), runner.c's relay_line() (a test child's
# line) and pid1/peer.c's note_line() (PID 1's peer program's, isobench.serve=1); and each
# BEGIN or END built outside out.c (out_begin(), out_end(): their one writer,
# which notes the first BEGIN's run id and offset and the latest END's counts as it writes, so
# the guest never reads its own records back for them). As "FILE:LINE: in FUNCTION: the call".
# The function is the last line at column 0 that opens a definition (NAME(...), no ';').
rereaders() ( # a subshell: it changes directory
	local -a files
	cd "$1" || return
	mapfile -t files < <(find payload -name '*.c' | sort)
	awk '
		FNR == 1 { fn = "-"; inc = 0 }
		/^[A-Za-z_][A-Za-z0-9_ \t\*]*\(/ && !/;[ \t]*$/ {
			fn = $0; sub(/\(.*/, "", fn); sub(/.*[ \t\*]/, "", fn)
		}
		{	# the line without its comments (inc: inside a /* ... */ since an earlier line)
			line = $0; code = ""
			while (line != "") {
				if (inc) {
					i = index(line, "*/"); if (!i) break
					line = substr(line, i + 2); inc = 0
				} else {
					i = index(line, "/*"); if (!i) { code = code line; break }
					code = code substr(line, 1, i - 1); line = substr(line, i + 2); inc = 1
				}
			}
			sub(/\/\/.*/, "", code)
		}
		code ~ /(^|[^A-Za-z0-9_])rec_parse(_body)?[ \t]*\(/ &&
		    FILENAME != "payload/net/netserve.c" &&
		    !(FILENAME == "payload/runner.c" && fn == "relay_line") &&
		    !(FILENAME == "payload/pid1/peer.c" && fn == "note_line") {
			t = code; gsub(/^[ \t]+/, "", t)
			print FILENAME ":" FNR ": in " fn "(): decodes a record: " t
		}
		code ~ /rec_begin[ \t]*\([^,]*,[ \t]*RK_(BEGIN|END)[ \t]*\)/ && FILENAME != "payload/out.c" {
			t = code; gsub(/^[ \t]+/, "", t)
			print FILENAME ":" FNR ": in " fn "(): builds a BEGIN or END (out_begin/out_end write them): " t
		}' "${files[@]}"
)
none "$(rereaders "$top")" "payload/ decodes only records other processes wrote (netserve.c, the relays in runner.c and peer.c)" \
	"payload/ reads its own records back"
# Planted: the summary parsing the stream again, a second decode in the runner outside the
# relay, PID 1 writing BEGIN itself; the allowed decodes, moved, stay allowed.
tree_copy "$tmp/reread" payload
printf 'static int planted_reread(const char *l, struct record *r)\n{\n\treturn rec_parse(l, 1, r);\n}\n' \
	>>"$tmp/reread/payload/pid1/summary.c"
printf 'static void planted_twice(struct record *r)\n{\n\trec_parse_body("RESULT", 6, r);\n}\n' \
	>>"$tmp/reread/payload/runner.c"
printf 'static void planted_begin(struct rec_body *b)\n{\n\trec_begin(b, RK_BEGIN);\n}\n' \
	>>"$tmp/reread/payload/pid1/init.c"
got=$(rereaders "$tmp/reread")
if grep -q '^payload/pid1/summary.c:[0-9]*: in planted_reread(): decodes a record: return rec_parse(l, 1, r);$' <<<"$got" &&
	grep -q '^payload/runner.c:[0-9]*: in planted_twice(): decodes a record: rec_parse_body' <<<"$got" &&
	grep -q '^payload/pid1/init.c:[0-9]*: in planted_begin(): builds a BEGIN or END' <<<"$got" &&
	[ "$(grep -c . <<<"$got")" -eq 3 ]; then
	pass "planted: the summary's rec_parse, a rec_parse_body outside the relay and a BEGIN built by init.c are found"
else fail "planted rereads: rereaders printed '$(tr '\n' '|' <<<"$got")'"; fi

# One spelling per test (tests/names.py), and its finding on each kind of second spelling.
none_listed "each test's name is spelled once (its row in payload/registry.c)" \
	"a test's name spelled again" -- python3 "$here/names.py" "$top"
# A registry names.py cannot read (no BENCH_TESTS rows: status 2, nothing listed) fails the check:
# no names to look for is no proof that each is spelled once.
tree_copy "$tmp/norows" payload lib kernel-config/driver
sed -i 's/BENCH_TESTS/BENCH_LIST/g' "$tmp/norows/payload/registry.c"
got=$( (none_listed d "unread" -- python3 "$here/names.py" "$tmp/norows") )
if [[ $got == "FAIL: unread: python3 could not list (status 2): payload/registry.c: no BENCH_TESTS rows read"* ]]
then pass "planted: a registry without rows fails the names check (names.py's status 2)"
else fail "planted registry without rows: the names check said '$got'"; fi
tree_copy "$tmp/names" payload lib kernel-config/driver
printf 'static const char *const planted = "fsread-" "1024";\n' >>"$tmp/names/payload/bench/getpid.c"
sed -i 's/^BENCH(tbench_1, /BENCH(tbench_1, .name = "tbench-1", /' "$tmp/names/payload/bench/tbench.c"
sed -i 's/^\(\tX(selftest_linger)\)$/\1 X(pipe)/' "$tmp/names/payload/registry.c"
got=$(python3 "$here/names.py" "$tmp/names") || true	# its list is the verdict
if grep -q '^payload/bench/getpid.c:[0-9]*: "fsread-1024" spells' <<<"$got" &&
	grep -q '^payload/bench/tbench.c:[0-9]*: "tbench-1" spells' <<<"$got" &&
	grep -q '^payload/bench/tbench.c:[0-9]*: .name = ' <<<"$got" &&
	grep -q '^payload/registry.c: the row of pipe is written twice' <<<"$got" &&
	[ "$(grep -c . <<<"$got")" -eq 4 ]; then
	pass "planted: a name string in payload/, a descriptor naming itself and a row written twice are found"
else fail "planted second spellings: names.py printed '$(tr '\n' '|' <<<"$got")'"; fi

# lax_conversions ROOT: the calls in ROOT's payload/ and lib/ (.c, .h) of the C library's lax
# text-to-number conversions, "file:line: text", but in the files of lax_exempt. A man page
# reference in a comment ("strtol(3)") is no call.
lax_re='\b(ato(i|l|ll|f)|strto(l|ll|ul|ull|d|f|ld|imax|umax))\s*\((?![0-9]\))'
# The exceptions, each with its reason:
#   lib/num.c: num.h's parser itself (num_dbl is strtod(3) once its grammar has checked the
#     text).
# An exception whose file holds no such call any more fails below: take it off the list.
lax_exempt=(lib/num.c)
lax_conversions() (
	cd "$1" || return
	grep -rnP --include='*.[ch]' "$lax_re" payload lib |
		grep -vE "^($(IFS='|'; echo "${lax_exempt[*]}")):" || true
)
none "$(lax_conversions "$top")" "payload/ and lib/ turn text into numbers through lib/num.h only" \
	"lax conversions outside lib/num.h (use num_ll/num_ull/num_double)"
for f in "${lax_exempt[@]}"; do
	if grep -qP "$lax_re" "$top/$f"; then pass "$f: its exception from the lax-conversion check still holds"
	else fail "$f: exempt from the lax-conversion check, but holds no such call: take it off lax_exempt"; fi
done
# Planted: an atoi in payload/ and a strtoul in lib/ are found, and nothing else.
tree_copy "$tmp/lax" payload lib
printf 'int planted_n(const char *s) { return atoi(s); }\n' >>"$tmp/lax/payload/sysfs.c"
printf 'unsigned long planted_u(const char *s) { return strtoul (s, 0, 10); }\n' >>"$tmp/lax/lib/stats.c"
got=$(lax_conversions "$tmp/lax")
if grep -q '^payload/sysfs.c:[0-9]*:int planted_n' <<<"$got" && grep -q '^lib/stats.c:[0-9]*:unsigned long planted_u' <<<"$got" &&
	[ "$(grep -c . <<<"$got")" -eq 2 ]; then
	pass "planted: an atoi in payload/ and a strtoul in lib/ are found"
else fail "planted lax conversions: lax_conversions printed '$(tr '\n' '|' <<<"$got")'"; fi

# scanf_numeric ROOT: the *scanf calls in ROOT's payload/ and lib/ (.c, .h) with a numeric
# conversion (%d %i %u %o %x %f %e %g %a with any width, '*' or length: %lu, %llx, %*d, %lf,
# or an <inttypes.h> SCN macro), "file:line: text" at the call's first line (a call may span
# lines: up to its ';'). Their overflow is undefined behaviour and they take blanks and signs
# where no number is: lib/io.h's split_fields() and lib/num.h read such text instead. A string
# conversion (%15s, %[...]) and %n are no number; "sscanf(3)" in a comment is no call.
# shellcheck disable=SC2016 # the $ in it are perl's, not the shell's
scanf_numeric() (
	cd "$1" || return
	grep -rlP --include='*.[ch]' '\bv?[fs]?scanf\b' payload lib | sort |
		xargs -r perl -0777 -ne '
			while (/\bv?[fs]?scanf\s*\((?![0-9]\))([^;]*)/g) {
				my ($at, $args) = ($-[0], $1);
				$args =~ s/%%//g;
				next unless $args =~ /%\*?[0-9]*(?:hh|h|ll|l|j|z|t|L|q)?[diouxXaAeEfFgG]|\bSCN[diouxX]/;
				my $ln = 1 + (substr($_, 0, $at) =~ tr/\n//);
				my ($text) = split /\n/, substr($_, $at), 2;
				print "$ARGV:$ln: $text\n";
			}'
)
none "$(scanf_numeric "$top")" "payload/ and lib/ hold no numeric *scanf conversion" \
	"numeric scanf conversions (use split_fields() of lib/io.h and num_ll/num_ull of lib/num.h)"
# Planted: a %d sscanf in payload/ and an fscanf with an SCN macro over two lines in lib/ are
# found; the string-only sscanf already in the tree (pid1/console.c's %15s) is not.
tree_copy "$tmp/scanf" payload lib
printf 'int planted_d(const char *s) { int v; return sscanf(s, "x=%%d", &v); }\n' >>"$tmp/scanf/payload/sysfs.c"
printf '#include <inttypes.h>\nint planted_u(FILE *f, uint64_t *v)\n{\n\treturn fscanf(f, "ref:%%"\n\t\t      SCNu64, v);\n}\n' \
	>>"$tmp/scanf/lib/stats.c"
got=$(scanf_numeric "$tmp/scanf")
if grep -q '^payload/sysfs.c:[0-9]*: sscanf(s, "x=%d", &v); }$' <<<"$got" &&
	grep -q '^lib/stats.c:[0-9]*: fscanf(f, "ref:%"$' <<<"$got" && [ "$(grep -c . <<<"$got")" -eq 2 ] &&
	grep -q 'sscanf(l, "%15s"' "$tmp/scanf/payload/pid1/console.c"; then
	pass "planted: a %d sscanf in payload/ and a two-line SCNu64 fscanf in lib/ are found, %15s is not"
else fail "planted scanf conversions: scanf_numeric printed '$(tr '\n' '|' <<<"$got")'"; fi

# The same checks must fail on planted violations.
tree_copy "$tmp/tree" lib report payload
sed -i 's#^READ_SRCS := #vpath %.c ../payload\nREAD_SRCS := params.c #' "$tmp/tree/report/Makefile"
printf '#include "../payload/out.h"\n' >>"$tmp/tree/lib/stats.c"
planted_fails judge "$tmp/tree" 2 "both checks fail on a planted violation"

finish
