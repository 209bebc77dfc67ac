#!/usr/bin/env bash
# tests/test-addtest.sh — adding a benchmark is one new file and one line, as
# docs/architecture.md's "Adding a test" says: in a copy of the tree, a new
# payload/bench/addtest.c defining bench_addtest_demo with BENCH(addtest_demo, ...) (no name
# in it) plus one X(addtest_demo) line in payload/registry.c's BENCH_TESTS build a runner whose
# `--list` shows the test as addtest-demo (the name the row's id gives it, with its group, unit
# and title) and whose `--tests addtest-demo` runs it to a RESULT; without the line the runner
# does not link (the descriptor's name, bench_name_addtest_demo, is the registry's). Step 3, the file's
# name in docs/architecture.md: with it the house's every-file check (tests/named.py, as
# tests/test-house.sh runs it) passes; without it, that check names the new file. And a test in
# a new group with a new unit and extra, added as step 1 says (lib/vocab.h, records.md's words
# table, docs/parameters.md's groups), runs, and the copy's test-vocab.sh and test-meanings.sh pass.
# In: the tree (git ls-files), musl-gcc, make, python3; OUT's runner objects when built (out/). Out: ok/FAIL lines, then finish's summary.
# shellcheck disable=SC2016  # the backticks in quotes here are markdown, not commands
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp
out=${OUT:-$_lib_top/out}

# add_file ROOT: writes the new test's one file, ROOT/payload/bench/addtest.c.
add_file() {
	cat >"$1/payload/bench/addtest.c" <<'EOF'
/* addtest.c — tests/test-addtest.sh's benchmark: one add per loop. */
#include "../benchapi.h"
#include "vocab.h"

static int addtest_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++)
		acc += i;
	ctx->sink += acc;
	return 0;
}

BENCH(addtest_demo, .title = "Added by tests/test-addtest.sh",
	.group = REC_GROUP_EXTRA,
	.unit = REC_UNIT_LPS,
	.kind = BENCH_RATE,
	.per_loop = 1,
	.run = addtest_run);
EOF
}

# add_line ROOT: the one line: X(addtest_demo) after the selftests in BENCH_TESTS.
add_line() {
	sed -i 's/^\(\tX(selftest_linger)\)$/\1 \\\n\tX(addtest_demo)/' \
		"$1/payload/registry.c"
	grep -q '^	X(addtest_demo)$' "$1/payload/registry.c"
}

# build ROOT: the runner of ROOT into ROOT.out/isobench; prints the first error, if any. The
# objects of out/'s runner are its start (seed_objs): make compiles what the copy changed
# (addtest.c, registry.c, what includes a changed lib/vocab.h; version.c) and links.
build() {
	seed_objs "$out" "$1.out"
	make -s -C "$1/payload" O="$1.out" VERSION=addtest >"$1.log" 2>&1 ||
		grep -m 1 -E 'error|undefined' "$1.log" || echo "make failed"
}

# The tree with the file and the line: builds, lists, runs.
tree_copy "$tmp/t" lib payload kernel-config
add_file "$tmp/t"
if add_line "$tmp/t"; then pass "the one line goes into registry.c's BENCH_TESTS"
else fail "registry.c has no selftest line to add X(addtest_demo) after"; fi
got=$(build "$tmp/t")
none "$got" "one new file + one line build the runner" "the added test does not build"
list=$tmp/t.list
"$tmp/t.out/isobench" --list >"$list" 2>&1
has "$list" '^addtest-demo +extra +lps +- +Added by tests/test-addtest\.sh$' \
	"--list shows the added test with its group, unit and title"
"$tmp/t.out/isobench" --tests addtest-demo --copies 1 --suite quick >"$tmp/t.run" 2>&1
has "$tmp/t.run" '^@isobench/1 [0-9]+ RESULT test=addtest-demo copies=1 unit=lps better=higher value=[0-9.]*[1-9]' \
	"--tests addtest-demo runs it to a RESULT with a value > 0"

# Step 3: the new file named in docs/architecture.md's payload/bench/ row. unnamed DOC: the
# tree's source files (test-house.sh's list) and the new file that DOC does not name.
unnamed() {
	{ git -C "$_lib_top" ls-files | grep -v '^tests/fixtures/' |
		grep -E '\.(c|h|sh|py|mk)$|(^|/)Makefile[^/]*$|^(qemu|tests)/run$'
		echo payload/bench/addtest.c; } | python3 "$here/named.py" "$1"
}
doc=$tmp/architecture.md
sed 's/the failure paths (`selftest\.c`)/&, the added test (`addtest.c`)/' \
	"$_lib_top/docs/architecture.md" >"$doc"
if cmp -s "$doc" "$_lib_top/docs/architecture.md"; then
	fail "docs/architecture.md has no payload/bench/ row naming selftest.c to add addtest.c beside"
else none_listed "step 3: docs/architecture.md names every source file, the new one too" \
	"step 3: docs/architecture.md does not name" -- unnamed "$doc"; fi
got=$(unnamed "$_lib_top/docs/architecture.md") || true	# its list is the verdict
if [ "$got" = payload/bench/addtest.c ]; then
	pass "planted (file and line, no step 3): the every-file check names payload/bench/addtest.c"
else fail "planted (no step 3): named.py printed '$got', not payload/bench/addtest.c"; fi
if grep -q '^3\. Name the new file in the `payload/bench/` row' "$_lib_top/docs/architecture.md"
then pass "docs/architecture.md's \"Adding a test\" lists step 3"
else fail "docs/architecture.md's \"Adding a test\" does not say to name the new file"; fi

# Planted: the file without the line. The runner does not link: the descriptor's name is the
# registry's (BENCH_NAME(addtest_demo)), which only the row makes.
tree_copy "$tmp/p" lib payload kernel-config
add_file "$tmp/p"
got=$(build "$tmp/p")
if grep -q 'bench_name_addtest_demo' <<<"$got" && [ ! -e "$tmp/p.out/isobench" ]; then
	pass "planted (file, no line): the runner does not link, for want of the row's name ($got)"
else fail "planted (file, no line): want a link error naming bench_name_addtest_demo, got '$got'"; fi

# A test in a new group, with a new unit and a new SAMPLE extra, as step 1 says: a #define and
# a list entry each in lib/vocab.h, docs/records.md's words and key-types tables replaced by the
# commands the doc gives, and the new group in docs/parameters.md's `tests` row. Then the copy's own
# vocabulary and meanings suites (which hold records.md and docs/ to lib/vocab.h) pass.
if grep -q 'a new group is also a word of' "$_lib_top/docs/architecture.md"; then
	pass "docs/architecture.md's \"Adding a test\" says a new group goes into docs/parameters.md's tests row"
else fail "docs/architecture.md's \"Adding a test\" does not say where a new group is listed for users"; fi
g=$tmp/g
tree_copy "$g" lib payload kernel-config docs tests report qemu image
git -C "$g" init -q	# the copy's suites list their files with git ls-files -co
add_file "$g"
add_line "$g"
sed -i 's/REC_GROUP_EXTRA,/REC_GROUP_ADDTEST,/; s/REC_UNIT_LPS,/REC_UNIT_ADDS,/' "$g/payload/bench/addtest.c"
sed -i 's/^\tctx->sink += acc;$/&\n\tbench_extra(ctx, REC_EXTRA_ADDTEST_ACC, (int64_t)(acc \& 0xff));/' \
	"$g/payload/bench/addtest.c"
sed -i -e 's/^\(\tX(REC_GROUP_NET) X(REC_GROUP_MEMORY) X(REC_GROUP_RING0) X(REC_GROUP_SELFTEST)\)$/\1 \\\n\tX(REC_GROUP_ADDTEST)/' \
	-e 's/^\(\tX(REC_UNIT_NS) X(REC_UNIT_CPU_PCT) X(REC_UNIT_IOPS) X(REC_UNIT_MIBPS) X(REC_UNIT_TPS)\)$/\1 \\\n\tX(REC_UNIT_ADDS)/' \
	-e 's/^#define VOCAB_GROUPS(X)/#define REC_GROUP_ADDTEST "addtest"\n&/' \
	-e 's/^#define VOCAB_UNITS(X)/#define REC_UNIT_ADDS "adds"\n&/' \
	-e 's/^#define VOCAB_EXTRAS(X)/#define REC_EXTRA_ADDTEST_ACC "addtest_acc"\n&/' "$g/lib/vocab.h"
# The extra at the end of VOCAB_EXTRAS, whatever its last line holds (the first line in the
# block without a continuing backslash).
awk '/^#define VOCAB_EXTRAS\(X\)/ { in_x = 1 }
	in_x && !/\\$/ { print $0 " \\"; print "\tX(REC_EXTRA_ADDTEST_ACC)"; in_x = 0; next } { print }' \
	"$g/lib/vocab.h" >"$g/lib/vocab.h.new" && mv "$g/lib/vocab.h.new" "$g/lib/vocab.h"
n=$(grep -c 'ADDTEST\|ADDS' "$g/lib/vocab.h" || true)	# none: "0", status 1
if [ "$n" -eq 6 ]; then pass "lib/vocab.h: a #define and a list entry for the new group, unit and extra"
else fail "lib/vocab.h: $n of 6 lines for the new group, unit and extra went in"; fi
words=$( (cd "$g" && make -s -C tests/unit ../build/vocab-dump >/dev/null 2>&1 && tests/build/vocab-dump --words))
types=$( (cd "$g" && tests/build/vocab-dump --markdown))
python3 -c 'import re, sys
p, w, t = sys.argv[1], sys.argv[2] + "\n", sys.argv[3] + "\n"
s = open(p).read()
s = re.sub(r"(<!-- words:begin[^\n]*\n).*?(<!-- words:end -->)", lambda m: m.group(1) + w + m.group(2),
           s, flags=re.S)
open(p, "w").write(re.sub(r"(<!-- vocab:begin[^\n]*\n).*?(<!-- vocab:end -->)",
                          lambda m: m.group(1) + t + m.group(2), s, flags=re.S))' "$g/docs/records.md" "$words" "$types"
sed -i '/^| `tests` |/s/, `all` (/, `addtest` (a test of the new group), `all` (/' "$g/docs/parameters.md"
got=$(build "$g")
none "$got" "the runner builds with the new group, unit and extra" "the new group does not build"
"$g.out/isobench" --tests addtest --copies 1 --suite quick >"$g.run" 2>&1
has "$g.run" '^@isobench/1 [0-9]+ SAMPLE test=addtest-demo .* addtest_acc=[0-9]+ ' \
	"--tests addtest (the new group) runs it; its SAMPLEs carry the new extra"
for suite in vocab meanings; do
	st=0
	OUT=$g.out bash "$g/tests/test-$suite.sh" >"$g.$suite" 2>&1 || st=$?	# said below
	none "$(grep '^FAIL' "$g.$suite" | cut -c1-300 || true)" "the copy's test-$suite.sh passes with the new words" \
		"the copy's test-$suite.sh"
	status_is EXIT_OK "$st" "the copy's test-$suite.sh ends with status 0"
done

finish
