#!/usr/bin/env bash
# tests/test-vocab.sh — the record vocabulary has one owner, lib/vocab.h:
#   * lint: no rec_*()/out_*() call in payload/, lib/ or report/ spells a kind or key in
#     quotes — no string literal where a kind or key goes (rec_begin's kind, the key of
#     rec_str/u64/i64/dbl/fmt/get), and no literal anywhere in such a call that equals a
#     kind or key of the table (out_text() excepted: human text);
#   * docs: docs/records.md's generated "Key types" table is what the table prints, its kinds
#     table lists each kind's keys (always / optional) as the table does, and its INFO table
#     names the table's INFO keys;
#   * words: no C file of payload/, report/ or lib/ (but lib/vocab.h) spells a group, unit or
#     SAMPLE extra of the vocabulary (REC_GROUP_*, REC_UNIT_*, REC_EXTRA_*) in quotes, but for
#     the listed other meanings of the same word (WORD_OTHER below); docs/records.md's
#     generated "Groups, units and extras" table is what the lists print; docs/output.md's list of
#     record kinds is VOCAB_KINDS;
#   * the records of a native run (out/isobench) fit the table (types, ranges, required keys,
#     SAMPLE extras among VOCAB_EXTRAS);
# and each check fails on planted violations in a copy of the tree.
# shellcheck disable=SC2016  # the backticks in quotes here are markdown, not commands
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# dump_of ROOT: builds ROOT's vocab-dump (tests/unit/vocab_dump.c + ROOT's lib/) and prints
# its path; nothing when it does not build.
dump_of() {
	local o
	o=$tmp/o-$(echo "$1" | cksum | cut -d' ' -f1)
	make -s -C "$1/tests/unit" O="$o" "$o/vocab-dump" >"$o.log" 2>&1 && echo "$o/vocab-dump"
}

# vocab_lint ROOT DUMP: prints "FILE:LINE: why" for every quoted kind or key in a rec_*/out_*
# call of ROOT's payload/, lib/ and report/ C sources.
vocab_lint() {
	"$2" --list | python3 -c '
import os, re, sys
root = sys.argv[1]
names = set()
for line in sys.stdin:
    kind, key, _ = line.rstrip("\n").split("\t")
    names.add(kind)
    names.add(key)
names.discard("*")
# out_text() writes human text (its "SKIP" and "FAIL" are table labels), not records.
HUMAN = {"out_text"}
KEY_ARG = {"rec_begin": 1, "rec_str": 1, "rec_u64": 1, "rec_i64": 1, "rec_dbl": 1,
           "rec_fmt": 1, "rec_get": 1}
lit = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"")
def strip_comments(s):
    # Blank comments out, keeping string literals and line numbers.
    out, i, n = [], 0, len(s)
    while i < n:
        if s.startswith("/*", i):
            j = s.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", s[i:j])); i = j
        elif s.startswith("//", i):
            j = s.find("\n", i); j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif s[i] in "\"\x27":
            m = re.compile(s[i] + r"(?:[^" + s[i] + r"\\\n]|\\.)*" + s[i]).match(s, i)
            j = m.end() if m else i + 1
            out.append(s[i:j]); i = j
        else:
            out.append(s[i]); i += 1
    return "".join(out)
def args_of(s, i):
    # The top-level arguments of the call whose "(" is at s[i], and where it ends.
    depth, start, args, j = 0, i + 1, [], i
    while j < len(s):
        c = s[j]
        if c in "\"\x27":
            m = re.compile(c + r"(?:[^" + c + r"\\\n]|\\.)*" + c).match(s, j)
            j = m.end() if m else j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(s[start:j]); return args
        elif c == "," and depth == 1:
            args.append(s[start:j]); start = j + 1
        j += 1
    return args
for sub in ("payload", "lib", "report"):
    for dp, _, files in os.walk(os.path.join(root, sub)):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dp, f)
            s = strip_comments(open(path, encoding="utf-8", errors="replace").read())
            for m in re.finditer(r"\b((?:rec|out)_[a-z0-9_]+)\s*\(", s):
                args = args_of(s, m.end() - 1)
                line = s.count("\n", 0, m.start()) + 1
                where = "%s:%d: %s()" % (os.path.relpath(path, root), line, m.group(1))
                k = KEY_ARG.get(m.group(1))
                if k is not None and len(args) > k and lit.fullmatch(args[k].strip()):
                    print("%s: literal %s where a kind or key goes" % (where, args[k].strip()))
                    continue
                for a in ([] if m.group(1) in HUMAN else args):
                    for q in lit.findall(a):
                        if q[1:-1] in names:
                            print("%s: %s is a vocabulary name" % (where, q))
' "$1"
}

# The same word with another meaning, allowed in quotes: ERE on the line, and why.
WORD_OTHER='__asm__|(^|[^a-z_])asm[ (]	an asm statement'"'"'s "memory" clobber
sysline\("mtu"	the NIC'"'"'s sysfs attribute file mtu (payload/net/netnic.c)
strstr\(ctl, "memory"\)	cgroup v1'"'"'s memory controller (payload/core/mem_util.c)
strcmp\(key, "disk"\)|\{"disk", "auto	the parameter isobench.disk= (payload/main.c, params.c)
\? "behind"	the console'"'"'s progress state (payload/out.c)
"mtu", model_info|"value", t->value, "extra"	JSON member names of the report
"index"	the report'"'"'s name of the index value and score (JSON, CSV, HTML, fleet rows)
numbered\(root, "cpu"	sysfs'"'"'s cpuN folders of cpuidle (payload/cpupolicy.c)
strcmp\(fd\[0\], "cpu"\)	/proc/stat'"'"'s cpu line (payload/sysfs.c)'

# words_lint ROOT DUMP: prints "FILE:LINE: "word" is a vocabulary group|unit|extra ..." for
# each string literal of ROOT's payload/, report/ and lib/ C code (comments left out; lib/vocab.h,
# which defines them, excepted) that is one,
# except on a line matching a WORD_OTHER pattern or a line of six or more literals (a list of
# plain words: the shell test's sort input, report/pct.c's time-scale labels).
words_lint() {
	"$2" --names | python3 -c '
import os, re, sys
root, other = sys.argv[1], [re.compile(l.split("\t")[0]) for l in sys.argv[2].splitlines()]
words = {}
for line in sys.stdin:
    what, word = line.rstrip("\n").split("\t")
    if what != "kind":
        words[word] = what
lit = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")
for sub in ("payload", "report", "lib"):
    for dp, _, files in sorted(os.walk(os.path.join(root, sub))):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dp, f)
            if os.path.relpath(path, root) == os.path.join("lib", "vocab.h"):
                continue    # the definitions
            s = open(path, encoding="utf-8", errors="replace").read()
            s = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), s, flags=re.S)
            for n, line in enumerate(s.split("\n"), 1):
                lits = lit.findall(line)
                if len(lits) >= 6 or any(o.search(line) for o in other):
                    continue
                for w in lits:
                    if w in words:
                        print("%s:%d: \"%s\" is a vocabulary %s (lib/vocab.h)" % (os.path.relpath(path, root), n, w, words[w]))
' "$1" "$WORD_OTHER"
}

# words_docs_diff ROOT DUMP: how docs/records.md's words table and docs/output.md's kinds list differ
# from lib/vocab.h (nothing when they agree).
words_docs_diff() {
	sed -n '/^<!-- words:begin/,/^<!-- words:end/p' "$1/docs/records.md" | sed '1d;$d' >"$tmp/doc-words"
	"$2" --words | diff - "$tmp/doc-words" | sed -n 's/^\([<>]\) /words table \1 /p'
	local readme table
	readme=$(grep -o 'a kind ([A-Z, ]*)' "$1/docs/output.md" | head -n 1 | grep -o '[A-Z]\+' | tr '\n' ' ') || true
	table=$("$2" --names | sed -n 's/^kind\t//p' | tr '\n' ' ')
	[ "$readme" = "$table" ] || echo "docs/output.md's record kinds ($readme) are not VOCAB_KINDS ($table)"
}

# docs_diff ROOT DUMP: prints how ROOT's docs/records.md and the table disagree (nothing when
# they agree).
docs_diff() {
	local doc=$1/docs/records.md
	sed -n '/^<!-- vocab:begin/,/^<!-- vocab:end/p' "$doc" | sed '1d;$d' >"$tmp/doc-gen"
	"$2" --markdown >"$tmp/table-gen"
	diff "$tmp/table-gen" "$tmp/doc-gen" | sed -n 's/^\([<>]\) /generated table \1 /p'
	"$2" --list >"$tmp/list"
	python3 -c '
import re, sys
doc, lst = open(sys.argv[1], encoding="utf-8").read(), open(sys.argv[2]).read()
table_kinds, table_info = set(), set()
for line in lst.splitlines():
    kind, key, pres = line.split("\t")
    if kind == "INFO":
        table_info.add(key)
    elif kind != "*" and key != "*":
        table_kinds.add((kind, key, "optional" if pres == "optional" else "always"))
def names(cell):
    # Backticked names outside parentheses; "pin=1" names pin, "vuln.<name>" vuln.*.
    flat, depth = [], 0
    for c in cell:
        depth += c == "("
        if depth == 0:
            flat.append(c)
        depth -= c == ")" and depth > 0
    got = []
    for t in re.findall(r"`([^`]+)`", "".join(flat)):
        got.append(re.sub(r"<[^>]*>", "*", t.split("=")[0]))
    return got
def cells(line):
    return [c.strip() for c in line.strip().strip("|").split(" | ")]
doc_kinds, doc_info, section = set(), set(), ""
for line in doc.splitlines():
    if line.startswith("#"):
        section = line
    m = re.match(r"\| `([A-Z]+)` \|", line)
    if section == "## Kinds" and m and m.group(1) != "INFO":
        c = cells(line)
        for key in names(c[2]):
            doc_kinds.add((m.group(1), key, "always"))
        for key in names(c[3]):
            doc_kinds.add((m.group(1), key, "optional"))
    if section == "### INFO keys" and line.startswith("| `"):
        doc_info.update(names(cells(line)[0]))
for t in sorted(table_kinds - doc_kinds):
    print("kinds table lacks %s %s (%s)" % t)
for t in sorted(doc_kinds - table_kinds):
    print("kinds table has %s %s (%s), the vocabulary does not" % t)
for k in sorted(table_info - doc_info):
    print("INFO table lacks %s" % k)
for k in sorted(doc_info - table_info):
    print("INFO table has %s, the vocabulary does not" % k)
' "$doc" "$tmp/list"
}

judge() { # judge ROOT LABEL
	local dump got
	dump=$(dump_of "$1")
	if [ -z "$dump" ]; then
		fail "$2: vocab-dump does not build"
		return
	fi
	got=$(vocab_lint "$1" "$dump")
	none "$got" "$2: no rec_*/out_* call spells a kind or key in quotes" \
		"$2: quoted kinds or keys"
	got=$(docs_diff "$1" "$dump")
	none "$got" "$2: docs/records.md agrees with lib/vocab.h" \
		"$2: docs/records.md and lib/vocab.h disagree"
	got=$(words_lint "$1" "$dump")
	none "$got" "$2: no C file of payload/, report/ or lib/ quotes a group, unit or extra" \
		"$2: quoted groups, units or extras"
	got=$(words_docs_diff "$1" "$dump")
	none "$got" "$2: records.md's words table and docs/output.md's kinds are lib/vocab.h's" \
		"$2: records.md's words or docs/output.md's kinds disagree with lib/vocab.h"
}

judge "$top" "tree"

# The records of a real run fit the table; a record that breaks it is found.
dump=$(dump_of "$top")
if [ -x "$out/isobench" ] && [ -n "$dump" ]; then
	"$out/isobench" --suite quick --tests syscall,exec,shell1,clock-monotonic,selftest-skip,selftest-error \
		--copies 1,2 >"$tmp/run.log" 2>/dev/null || true	# selftest-error: status EXIT_FAILS
	got=$("$dump" --check <"$tmp/run.log" || true)	# its last line is the verdict, judged below
	n=$(grep -c '^@isobench/1 ' "$tmp/run.log" || true)	# none: "0", status 1
	if [ "$n" -gt 20 ] && [ "$(tail -n 1 <<<"$got")" = "$n records, 0 problems" ]; then
		pass "a native run's $n records fit the table"
	else
		fail "a native run's records ($n) do not fit the table: $(tr '\n' '|' <<<"$got")"
	fi
	PYTHONPATH=$here python3 -c '
from seal import seal
for body in ("BEGIN run=xyz version=v mode=other", "SAMPLE test=t copies=1 i=0 warmup=1",
             "SAMPLE test=t copies=1 i=1 nosuch_ns=5"):
    print(seal("@isobench/1 1 " + body))
' >"$tmp/bad.log"
	got=$("$dump" --check <"$tmp/bad.log") || true	# refused: what it says is checked
	if grep -q 'run=xyz is not of its type' <<<"$got" && grep -q 'mode=other' <<<"$got" &&
		grep -q 'SAMPLE: no loops' <<<"$got" && grep -q '2 of its one-of keys' <<<"$got" &&
		grep -q 'extra nosuch_ns is not in VOCAB_EXTRAS' <<<"$got"; then
		pass "records that break the table are found (bad hex, bad enum, missing key, i and warmup, an extra not in VOCAB_EXTRAS)"
	else
		fail "broken records not all found: $(tr '\n' '|' <<<"$got")"
	fi
else
	skip "no $out/isobench or vocab-dump: the native run's records are not checked"
fi

# The same checks must fail on planted violations.
tree_copy "$tmp/tree" lib report payload docs/records.md docs/output.md tests/unit
t=$tmp/tree
printf 'static void planted(struct rec_body *b) { rec_u64(b, "dropped_fields", 1); }\n' >>"$t/payload/out.c"
sed -i 's/rec_str(&rb, RK_WHAT, REC_WHAT_TEST);/rec_str(\&rb, RK_WHAT, "test");/' "$t/payload/runner.c"
sed -i 's/`note`, `signal`, `status`, `what`, `oom_kills`/`note`, `signal`, `status`, `what`/' \
	"$t/docs/records.md"
sed -i '/^| `mm.thp` |/d' "$t/docs/records.md"
sed -i 's/^#define VOCAB_SHAPE_RUN_ID HEX, 16, 16, NULL/#define VOCAB_SHAPE_RUN_ID HEX, 8, 8, NULL/' "$t/lib/vocab.h"
sed -i 's/\.group = REC_GROUP_EXTRA,/.group = "extra",/' "$t/payload/bench/getpid.c"
sed -i 's/model_sample_get(m, &t->smp\[i\], REC_EXTRA_THP_KIB)/model_sample_get(m, \&t->smp[i], "thp_kib")/' \
	"$t/report/memsvg.c"
sed -i 's/^| units | `lps`, `lpm`, /| units | `lps`, /' "$t/docs/records.md"
sed -i 's/SAMPLE, WARN, RESULT/SAMPLE, RESULT/' "$t/docs/output.md"
planted_fails judge "$t" 4 "the four checks fail on planted violations"
lint=$(grep -o 'out\.c:[0-9]*: rec_u64(): literal "dropped_fields"\|runner\.c:[0-9]*: rec_str(): "test" is a vocabulary name' \
	"$tmp/planted.out" | wc -l) || true
docs=$(grep -o 'kinds table lacks FAIL oom_kills\|INFO table lacks mm.thp\|generated table [<>] | `run` | 8 hex' \
	"$tmp/planted.out" | wc -l) || true
words=$(grep -o 'getpid\.c:[0-9]*: "extra" is a vocabulary group\|memsvg\.c:[0-9]*: "thp_kib" is a vocabulary extra\|words table [<>] | units | `lps`, `lpm`\|docs/output.md.s record kinds (BEGIN INFO ERROR TEST SAMPLE RESULT' \
	"$tmp/planted.out" | sort -u | wc -l) || true
if [ "$lint" -eq 2 ] && [ "$docs" -ge 3 ] && [ "$words" -ge 4 ]; then
	pass "the planted FAILs name 2 quoted names, 3 docs disagreements, 2 quoted words, the words table and docs/output.md's kinds"
else
	fail "the planted FAILs name $lint of 2 quoted names, $docs of 3 docs disagreements, $words of 4 word problems: $(tr '\n' '|' <"$tmp/planted.out")"
fi

finish
