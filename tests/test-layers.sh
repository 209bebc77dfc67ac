#!/usr/bin/env bash
# tests/test-layers.sh — report/ in layers. The layers, lowest first, are report/Makefile's
# LAYERS, and each layer's files its LAYER_<name> list (the build's own source lists, so the
# table cannot drift from what is compiled); a header X.h is in X.c's layer. Checked:
#   * every report/*.c and *.h is in exactly one layer;
#   * an #include "X.h" of a report/ header never names a higher layer than the includer's
#     (lib/ headers are below every layer; <...> system headers are not looked at);
#   * the includes between report/'s modules (X.c and X.h together) hold no cycle, within a
#     layer too.
# And payload/ with lib/ (the runner's modules, every room of payload/ and arch/ together):
#   * their includes between modules (X.c and X.h together, named by their path: net/netnic)
#     hold no cycle either: a module that needs another's function includes its header, and
#     the two never need each other (lib/ including nothing of payload/ or report/ is
#     tests/test-house.sh's check);
#   * arch/ is their lowest room of payload/: nothing in payload/arch/ includes a header of
#     payload/bench/ (the tests stand on arch/, never the other way).
# And how report/ reads records (docs/architecture.md "A record decoded once"):
#   * only logread.c, follow.c, digest.c and store.c decode a record line (rec_parse,
#     rec_parse_body, struct record); the rest reads the decoded struct rec_kept
#     (tests/unit/test_decode.c counts the decodes themselves);
#   * no report/ source converts a number with strtod/strtol/.../atoi/atof/sscanf.
# Each check fails on a planted violation in a copy of the tree: a file in no layer, an
# include from an input file to a format header (also spelled "./memsvg.h", "../report/memsvg.h"),
# signif.c including compare.h again, and payload/'s params.c including digest.h (digest.c
# includes params.h: a loop between two rooms' worth of modules, the shape out.c <-> digest.c
# had), a record decoded again in validate.c and an atoi in csv.c.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# layers DIR: "module rank layer" for each file of DIR/Makefile's LAYER_* lists (rank 1 is
# the lowest layer of LAYERS); a file listed twice is printed twice.
layers() {
	awk '
		/^LAYERS[ \t]*:=/ { for (i = 3; i <= NF; i++) rank[$i] = i - 2 }
		/^LAYER_[A-Za-z0-9_]+[ \t]*:=/ {
			name = substr($1, 7)
			for (i = 3; i <= NF; i++) {
				m = $i; sub(/\.c$/, "", m)
				print m, (name in rank ? rank[name] : 0), name
			}
		}' "$1/Makefile"
}

# includes DIR: "module header" for every #include "header" in DIR/*.c and DIR/*.h; a header
# whose path leads back into DIR ("./x.h", "../report/x.h") is named by its file name, as the
# compiler finds it, so a spelling cannot hide an include from the checks below.
includes() {
	local f h m d i
	local -a hs rs
	d=$(cd "$1" && pwd -P)
	for f in "$1"/*.[ch]; do
		m=${f##*/}
		m=${m%.[ch]}
		mapfile -t hs < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
		[ "${#hs[@]}" -gt 0 ] || continue
		mapfile -t rs < <(realpath -m "${hs[@]/#/$d/}")	# one realpath per file, not per include
		for i in "${!hs[@]}"; do
			h=${hs[$i]}
			if [ "${rs[$i]%/*}" = "$d" ]; then h=${rs[$i]##*/}; fi
			echo "$m $h"
		done
	done
}
# unplaced DIR: the files of DIR in no layer or in two, and the listed files that do not exist.
unplaced() {
	local f
	for f in "$1"/*.[ch]; do
		f=${f##*/}
		echo "${f%.[ch]} $f"
	done | awk 'NR == FNR { if ($2 > 0) n[$1]++; next }
		!($1 in n) { print $2 ": in no layer of report/Makefile\047s LAYERS"; next }
		n[$1] > 1 { print $2 ": in more than one layer" }' "$tmp/layers" -
	awk '$2 == 0 { print $1 ".c: LAYER_" $3 " is not one of LAYERS" }' "$tmp/layers"
	while read -r m _; do
		[ -f "$1/$m.c" ] || echo "$m.c: listed in a layer, no such file"
	done <"$tmp/layers"
}

# upward DIR: each include of a report/ header whose layer is above the includer's.
upward() {
	local m h
	while read -r m h; do
		if [ ! -f "$1/$h" ] || [ "${h##*/}" != "$h" ]; then continue; fi	# lib/
		echo "$m $h"
	done <"$tmp/includes" | awk 'NR == FNR { r[$1] = $2 + 0; l[$1] = $3; next }
		{ t = $2; sub(/\.h$/, "", t)
		  if (r[$1] && r[t] && r[t] > r[$1]) print $1 ": includes " $2 " (" l[t] " above " l[$1] ")" }' \
		"$tmp/layers" -
}
# cycles DIR: the loop tsort finds in the module graph (module -> module it includes), if any.
cycles() {
	local m h
	while read -r m h; do
		[ -f "$1/$h" ] && [ "$(basename "$h")" = "$h" ] && [ "${h%.h}" != "$m" ] &&
			echo "$m ${h%.h}"
	done <"$tmp/includes" | tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | tr '\n' ' '
}

# runner_edges ROOT: "module module" for each #include "X" of a payload/ or lib/ file (.c, .h,
# any depth) naming another module of them, the header found as the runner's build finds it
# (payload/Makefile, payload/arch/arch.mk): the includer's folder, then lib/, then each
# architecture's folder (all of them: the graph is every build's), then payload/arch/.
runner_edges() ( # a subshell: it changes directory
	local f h s
	local -a hs found ms ps ds
	cd "$1" || return
	while read -r f; do
		# "X" and <X> both: <X> skips the includer's folder, then searches the same -I list
		# (a <../bench/ring0.h> from arch/ reaches bench/ through -I payload/arch as "X" does).
		mapfile -t hs < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\(["<]\)\([^">]*\)[">].*/\1\2/p' "$f")
		for h in "${hs[@]}"; do
			found=() ds=("${f%/*}" lib)
			[ "${h:0:1}" = '"' ] || ds=(lib)
			h=${h:1}
			for s in "${ds[@]}"; do
				[ -f "$s/$h" ] && found=("$s/$h") && break
			done
			if [ "${#found[@]}" -eq 0 ]; then
				for s in payload/arch/*/; do [ -f "$s$h" ] && found+=("$s$h"); done
			fi
			[ "${#found[@]}" -gt 0 ] || [ ! -f "payload/arch/$h" ] || found=("payload/arch/$h")
			for s in "${found[@]}"; do ms+=("${f%.[ch]}") ps+=("$s"); done
		done
	done < <(find payload lib -name '*.[ch]' | sort)
	[ "${#ps[@]}" -gt 0 ] || return 0
	mapfile -t ps < <(realpath -m --relative-to=. "${ps[@]}")	# one realpath for all
	for h in "${!ps[@]}"; do
		s=${ps[$h]%.[ch]}
		case $s in payload/* | lib/*) [ "$s" = "${ms[$h]}" ] || echo "${ms[$h]} $s" ;; esac
	done
)
# runner_cycles: the loops tsort finds in the module graph on stdin (runner_edges), if any.
runner_cycles() {
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | tr '\n' ' '
}
judge_runner() { # judge_runner ROOT LABEL
	local e
	e=$(runner_edges "$1")
	none "$(runner_cycles <<<"$e")" "$2: payload/'s and lib/'s includes hold no module cycle" \
		"$2: a module cycle in payload/ or lib/"
	none "$(awk '$1 ~ /^payload\/arch\// && $2 ~ /^payload\/bench\// { print $1 " includes " $2 }' <<<"$e")" \
		"$2: arch/ includes nothing from bench/" "$2: arch/ includes bench/"
}

judge() { # judge ROOT LABEL: the three checks on ROOT/report
	local dir=$1/report
	layers "$dir" >"$tmp/layers"
	includes "$dir" >"$tmp/includes"
	none "$(unplaced "$dir")" "$2: every report/ file is in one layer" "$2: layers"
	none "$(upward "$dir")" "$2: no report/ file includes a higher layer's header" \
		"$2: an upward include"
	none "$(cycles "$dir")" "$2: report/'s includes hold no cycle" "$2: an include cycle"
}

# decoders DIR: the report/ sources outside the four places a line is decoded (docs/
# architecture.md "A record decoded once": logread.c reading a log, follow.c's progress,
# digest.c sealing what a digest restates, store.c loading stored lines; log.c's log_add()
# keeps what they decoded) that name the parser
# (rec_parse, rec_parse_body) or its one-line room (struct record): everything else reads the
# decoded record (struct rec_kept).
decoders() {
	local f
	for f in "$1"/*.[ch]; do
		case ${f##*/} in logread.[ch] | follow.[ch] | digest.c | store.c | log.[ch]) continue ;; esac
		grep -HnE '\<rec_parse(_body)?\>|\<struct record\>' "$f" | code_lines "$1"
	done
}
# code_lines DIR: grep -Hn's lines from DIR without the comment lines (" * ...", "/* ...",
# "// ...") and with the file's path from DIR.
code_lines() {
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(\*|/\*|//)' | sed "s#^$1/##" || true
}
# lax_numbers DIR: the report/ lines that read a number with the C library's lax converters
# (strtod, strtol... take a prefix, white space, hex, "inf"; atoi and atof also overflow):
# record values are read with lib/record.h's rec_get_dbl/ull/ll, anything else with lib/num.h.
lax_numbers() {
	grep -HnE '\<(strto(d|f|ld|l|ul|ll|ull|imax|umax)|ato(i|l|ll|f)|sscanf)[[:space:]]*\(' \
		"$1"/*.[ch] | code_lines "$1"
}
judge_decode() { # judge_decode ROOT LABEL
	none "$(decoders "$1/report")" "$2: report/ decodes record lines only where it reads them" \
		"$2: a record decoded again"
	none "$(lax_numbers "$1/report")" "$2: report/ reads numbers with lib/num.h and rec_get_*()" \
		"$2: a lax number conversion"
}

judge "$top" "tree"
judge_runner "$top" "tree"
judge_decode "$top" "tree"
# The table must be real: some files in each of the seven layers, and the includes read.
layers "$top/report" >"$tmp/layers"
for l in util input model store analysis format main; do
	if awk -v l="$l" '$3 == l' "$tmp/layers" | grep -q .; then pass "layer $l holds files"
	else fail "layer $l holds no file"; fi
done
includes "$top/report" >"$tmp/includes"
if grep -qx 'compare model.h' "$tmp/includes"; then pass "the includes are read (compare.h -> model.h)"
else fail "the includes are not read: compare.h's #include \"model.h\" is missing"; fi

# Planted violations, one per copy: each must fail exactly its check.
tree_copy "$tmp/stray" report
printf 'int stray;\n' >"$tmp/stray/report/stray.c"
planted_fails judge "$tmp/stray" 1 "a file in no layer fails"
tree_copy "$tmp/up" report
printf '#include "memsvg.h"\n' >>"$tmp/up/report/image.c"	# input -> format
planted_fails judge "$tmp/up" 1 "an upward include fails"
if grep -q 'image: includes memsvg.h (format above input)' "$tmp/planted.out"; then
	pass "the upward include is named"
else fail "the upward include is not named"; fi
# The same include spelled with a path back into report/: the compiler finds the same header.
for spelled in ./memsvg.h ../report/memsvg.h; do
	tree_copy "$tmp/up2" report
	printf '#include "%s"\n' "$spelled" >>"$tmp/up2/report/image.c"
	planted_fails judge "$tmp/up2" 1 "an upward include spelled \"$spelled\" fails"
	rm -rf "$tmp/up2"
done
tree_copy "$tmp/loop" report
printf '#include "compare.h"\n' >>"$tmp/loop/report/signif.c"	# analysis <-> analysis
planted_fails judge "$tmp/loop" 1 "an include cycle within a layer fails"
if grep -q 'loop:.*compare' "$tmp/planted.out" && grep -q 'loop:.*signif' "$tmp/planted.out"
then pass "the cycle is named (compare, signif)"
else fail "the cycle's modules are not named"; fi

# A re-decode planted in validate.c (its room, and a rec_parse of a kept line) and an atoi
# in csv.c: each fails its check, and is named.
tree_copy "$tmp/dec" report
printf 'static struct record again;\nstatic void planted(const struct logrec *lr) { rec_parse(lr->r->line, lr->r->line_len, &again); }\n' \
	>>"$tmp/dec/report/validate.c"
printf 'static int planted(const char *v) { return atoi(v); }\n' >>"$tmp/dec/report/csv.c"
planted_fails judge_decode "$tmp/dec" 2 "a re-decode in validate.c and an atoi in csv.c fail"
if grep -q 'validate.c:[0-9]*:static struct record again' "$tmp/planted.out" &&
	grep -q 'csv.c:[0-9]*:static int planted' "$tmp/planted.out"
then pass "the re-decode and the lax conversion are named (validate.c, csv.c)"
else fail "the planted re-decode or atoi is not named"; fi

# payload/: the graph is read (runner.c includes harness.h; a room's header another room's,
# bench/mem.h's ../core/mem_util.h; the architecture's folder found through the include path;
# lib/ through the include path), and a loop planted between two modules is found and named.
runner_edges "$top" >"$tmp/redges"
for e in 'payload/runner payload/harness' 'payload/bench/mem payload/core/mem_util' \
	'payload/arch/arch payload/arch/x86_64/arch_impl' 'payload/out lib/record'; do
	if grep -qx "$e" "$tmp/redges"; then pass "the runner's include read: ${e/ / -> }"
	else fail "the runner's include ${e/ / -> } is not read"; fi
done
tree_copy "$tmp/rloop" payload lib
printf '#include "digest.h"\n' >>"$tmp/rloop/payload/params.c"	# params <-> digest
planted_fails judge_runner "$tmp/rloop" 1 "a module cycle in payload/ fails"
if grep -q 'loop:.*payload/params' "$tmp/planted.out" && grep -q 'loop:.*payload/digest' "$tmp/planted.out"
then pass "the runner's cycle is named (params, digest)"
else fail "the runner's cycle's modules are not named"; fi
tree_copy "$tmp/rdown" payload lib
printf '#include "../bench/ring0.h"\n' >>"$tmp/rdown/payload/arch/insn_probe.h"	# arch -> bench
planted_fails judge_runner "$tmp/rdown" 1 "arch/ including a bench/ header fails"
has "$tmp/planted.out" 'payload/arch/insn_probe includes payload/bench/ring0' "the include from arch/ into bench/ is named"
# The same include in angle brackets (the compiler finds it through -I payload/arch), and a
# loop closed by one: <X> is read too, through the include path only.
tree_copy "$tmp/rdown2" payload lib
printf '#include <../bench/ring0.h>\n' >>"$tmp/rdown2/payload/arch/insn_probe.h"	# arch -> bench
printf '#include <record.h>\n' >>"$tmp/rdown2/payload/arch/x86_64/cpu.c"	# lib/, not a loop
planted_fails judge_runner "$tmp/rdown2" 1 "arch/ including a bench/ header in <...> fails"
has "$tmp/planted.out" 'payload/arch/insn_probe includes payload/bench/ring0' "the <...> include from arch/ into bench/ is named"
tree_copy "$tmp/rloop2" payload lib
printf '#include <stats.h>\n' >>"$tmp/rloop2/lib/record.c"	# record -> stats
printf '#include <record.h>\n' >>"$tmp/rloop2/lib/stats.c"	# stats -> record
planted_fails judge_runner "$tmp/rloop2" 1 "a module cycle in lib/ through <...> includes fails"

finish
