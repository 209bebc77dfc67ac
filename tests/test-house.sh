#!/usr/bin/env bash
# tests/test-house.sh — the rooms of the tree keep to docs/architecture.md:
#   * the report tool compiles and links nothing from payload/ (what it shares with the runner
#     lives in lib/);
#   * lib/ includes only its own and the system's headers (never payload/ or report/);
#   * no tracked file is a compiled (ELF) binary: build output stays out of git;
# and each check fails on a planted violation in a copy of the tree.
set -uo pipefail
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
	got=$(report_links_payload "$1")
	none "$got" "$2: report/ builds from report/ and lib/ only" \
		"$2: report/ uses payload/ files"
	got=$(lib_includes_outside "$1")
	none "$got" "$2: lib/ includes only lib/ and system headers" \
		"$2: lib/ includes outside itself"
}

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

# The same checks must fail on planted violations.
tree_copy "$tmp/tree" lib report payload
sed -i 's#^READ_SRCS := #vpath %.c ../payload\nREAD_SRCS := params.c #' "$tmp/tree/report/Makefile"
printf '#include "../payload/out.h"\n' >>"$tmp/tree/lib/stats.c"
planted_fails judge "$tmp/tree" 2 "both checks fail on a planted violation"

finish
