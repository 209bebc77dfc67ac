#!/usr/bin/env bash
# tests/test-layers.sh — report/ in layers. The layers, lowest first, are report/Makefile's
# LAYERS, and each layer's files its LAYER_<name> list (the build's own source lists, so the
# table cannot drift from what is compiled); a header X.h is in X.c's layer. Checked:
#   * every report/*.c and *.h is in exactly one layer;
#   * an #include "X.h" of a report/ header never names a higher layer than the includer's
#     (lib/ headers are below every layer; <...> system headers are not looked at);
#   * the includes between report/'s modules (X.c and X.h together) hold no cycle, within a
#     layer too.
# Each check fails on a planted violation in a copy of the tree: a file in no layer, an
# include from an input file to a format header (also spelled "./memsvg.h", "../report/memsvg.h"),
# and signif.c including compare.h again.
set -uo pipefail
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
	local f h r d
	d=$(cd "$1" && pwd -P)
	for f in "$1"/*.[ch]; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r h; do
				r=$(realpath -m "$d/$h")
				if [ "${r%/*}" = "$d" ]; then h=${r##*/}; fi
				echo "$(basename "${f%.[ch]}") $h"
			done
	done
}

# unplaced DIR: the files of DIR in no layer or in two, and the listed files that do not exist.
unplaced() {
	local f m
	for f in "$1"/*.[ch]; do
		m=$(basename "${f%.[ch]}")
		case $(awk -v m="$m" '$1 == m && $2 > 0' "$tmp/layers" | wc -l) in
		1) ;;
		0) echo "$(basename "$f"): in no layer of report/Makefile's LAYERS" ;;
		*) echo "$(basename "$f"): in more than one layer" ;;
		esac
	done
	awk '$2 == 0 { print $1 ".c: LAYER_" $3 " is not one of LAYERS" }' "$tmp/layers"
	while read -r m _; do
		[ -f "$1/$m.c" ] || echo "$m.c: listed in a layer, no such file"
	done <"$tmp/layers"
}

# upward DIR: each include of a report/ header whose layer is above the includer's.
upward() {
	local m h t
	while read -r m h; do
		if [ ! -f "$1/$h" ] || [ "$(basename "$h")" != "$h" ]; then continue; fi	# lib/
		t=${h%.h}
		awk -v m="$m" -v t="$t" -v h="$h" '
			$1 == m { rm = $2; lm = $3 } $1 == t { rt = $2; lt = $3 }
			END { if (rm && rt && rt > rm) print m ": includes " h " (" lt " above " lm ")" }' \
			"$tmp/layers"
	done <"$tmp/includes"
}

# cycles DIR: the loop tsort finds in the module graph (module -> module it includes), if any.
cycles() {
	local m h
	while read -r m h; do
		[ -f "$1/$h" ] && [ "$(basename "$h")" = "$h" ] && [ "${h%.h}" != "$m" ] &&
			echo "$m ${h%.h}"
	done <"$tmp/includes" | tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | tr '\n' ' '
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

judge "$top" "tree"
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

finish
