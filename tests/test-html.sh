#!/usr/bin/env bash
# tests/test-html.sh — `isobench-report --format html`, the page a person reads: one
# self-contained file (no script, no external resource: nothing to fetch), warnings first, both
# machines named, the index tables side by side with ratio, 95% CI and p; rendered by headless
# Chromium (the DOM after rendering, and a screenshot that is not blank), and every figure on the
# rendered page equal to the same comparison's JSON (each cell names its JSON field:
# data-row/data-run/data-key, html.h). Inputs: the captured fixtures native.log and
# native-loaded.log (6 samples each: the significance test applies), and a log compared with
# itself (a warning).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp
report=$(report_tool)
fix=$top/tests/fixtures/logs

expect_status EXIT_OK "two runs that differ, one a side: html page, status 0 (no verdict without replicates)" -- \
	"$report" --format html --label bare,loaded "$fix/native.log" "$fix/native-loaded.log"
cp "$tmp/stdout" "$tmp/page.html"
"$report" --format json --label bare,loaded "$fix/native.log" "$fix/native-loaded.log" \
	>"$tmp/page.json" 2>/dev/null
has "$tmp/page.html" '^<!DOCTYPE html>' "an HTML5 document"
hasnt "$tmp/page.html" '<script|<link|<iframe|<img|src=|@import|url\(' "self-contained: no script, no external resource"
has "$tmp/page.html" '<svg xmlns=' "the ratio chart inline, as SVG"
hasnt "$tmp/page.html" '<\?xml' "... without an XML declaration inside the HTML"
contains "$tmp/page.html" "<th>run 1: bare</th><th>run 2: loaded</th>" "both machines named, in order"
contains "$tmp/page.html" "<h2>UnixBench index, 1 copy</h2>" "the index table of the 1-copy pass"

if ! have_chromium; then
	fail "no chromium: the page was not rendered (apt-get install chromium; build.sh test does)"
	finish
	exit
fi
chrome --dump-dom "file://$tmp/page.html" >"$tmp/dom.html"
# Every figure cell of the rendered DOM against the JSON's field it names.
if python3 - "$tmp/dom.html" "$tmp/page.json" >"$tmp/cmp.txt" 2>&1 <<'PY'; then
import html.parser, json, math, sys
dom, js = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
rows = js["comparison"]["rows"]
fmt = {"value": "%.1f", "ratio": "%.3f", "p_value": "%.2g", "ratio_ci95_lo": "%.3f",
       "ratio_ci95_hi": "%.3f"}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cur, self.cells = None, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-key" in a and "data-row" in a:
            self.cur = [int(a["data-row"]), int(a["data-run"]), a["data-key"], ""]
    def handle_data(self, d):
        if self.cur is not None:
            self.cur[3] += d
    def handle_endtag(self, tag):
        if self.cur is not None and tag in ("td", "span"):
            self.cells.append(self.cur)
            self.cur = None
p = P()
p.feed(dom)
checked = 0
for row, run, key, text in p.cells:
    if key not in fmt:
        continue
    v = rows[row]["cells"][run].get(key)
    want = "---" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt[key] % v
    assert text.strip() == want, (row, run, key, text, want)
    checked += 1
keys = {k for _, _, k, _ in p.cells}
assert {"value", "ratio", "p_value", "ratio_ci95_lo", "ratio_ci95_hi"} <= keys, keys
assert checked >= 15, checked
print("%d figures equal the JSON's" % checked)
PY
	pass "the rendered page's figures are the JSON's: $(cat "$tmp/cmp.txt")"
else
	fail "the rendered page and the JSON disagree: $(tail -n 3 "$tmp/cmp.txt" | tr '\n' '|')"
fi
contains "$tmp/dom.html" "beyond noise" "a flagged row says so in words"
chrome --window-size=1300,1700 --screenshot="$tmp/page.png" "file://$tmp/page.html" >/dev/null
rendered "$tmp/page.png" "the page"

# A value whose sampling did not converge: marked "!" (the style sheet's .unconv::after, so the
# cell's text stays the JSON's figure) on exactly the cells the JSON says converged 0, and the
# mark explained in words, as the text format does.
"$report" --format html "$fix/paced-a.log" "$fix/paced-b.log" >"$tmp/unconv.html" 2>/dev/null
"$report" --format json "$fix/paced-a.log" "$fix/paced-b.log" >"$tmp/unconv.json" 2>/dev/null
chrome --dump-dom "file://$tmp/unconv.html" >"$tmp/unconv-dom.html"
want=$(python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["comparison"]["rows"]
print(" ".join("%d/%d" % (i, j) for i, r in enumerate(rows) for j, c in enumerate(r["cells"])
               if c.get("converged") == 0))' "$tmp/unconv.json") || true
got=$(grep -o 'class="n unconv"[^>]*data-row="[0-9]*" data-run="[0-9]*" data-key="value"' "$tmp/unconv-dom.html" |
	sed 's/.*data-row="\([0-9]*\)" data-run="\([0-9]*\)".*/\1\/\2/' | tr '\n' ' ' | sed 's/ $//') || true
if [[ -n $want && $got == "$want" ]]; then
	pass "unconverged values marked on exactly the JSON's converged=0 cells ($got)"
else
	fail "unconverged marks: page '$got', JSON '$want'"
fi
contains "$tmp/unconv-dom.html" "after a value: that run's sampling did not converge" "... and the mark explained in words"
contains "$tmp/unconv.html" '.unconv::after{content:"!"' "... shown as a \"!\" by the page's own style"
hasnt "$tmp/page.html" 'class="n unconv' "runs that converged carry no mark"

# Warnings come first: a run compared with itself.
"$report" --format html "$fix/native.log" "$fix/native.log" >"$tmp/self.html" 2>/dev/null
first_warn=$(grep -n 'class="warn"' "$tmp/self.html" | head -n 1 | cut -d: -f1) || true
first_table=$(grep -n '<table' "$tmp/self.html" | head -n 1 | cut -d: -f1) || true
if [[ -n $first_warn && -n $first_table && $first_warn -lt $first_table ]]; then
	pass "warnings before the first table (line $first_warn < $first_table)"
else
	fail "warnings not first (warn line '${first_warn:-none}', first table line '${first_table:-none}')"
fi
contains "$tmp/self.html" "are the same run (run id" "a log compared with itself is a warning"

# Text from a log is escaped: a label with markup cannot inject any.
"$report" --format html --label '<b>x</b>,y&z' "$fix/native.log" "$fix/crlf.log" >"$tmp/esc.html" 2>/dev/null
contains "$tmp/esc.html" "run 1: &lt;b&gt;x&lt;/b&gt;" "a label's markup is escaped"
contains "$tmp/esc.html" "run 2: y&amp;z" "... and its ampersand"
finish
