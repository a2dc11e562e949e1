#!/bin/sh
# Integration tests of `cbenchctl plot`: the HTML page of a JSON report of
# the example suite, and of two reports side by side, rendered in headless
# Chromium: it loads without an error and draws one SVG plot per benchmark.
# Bad input fails with a message and leaves no file.  Nothing here asserts
# speed: the reports come from the shortest trials run accepts.
#
# Usage: tests/run/plot.sh   (from the top of the tree, after make itest's deps)
set -u

OUTPUT_GLOB='out.html*'
. tests/run/lib.sh

SUITE=build/examples/suite.so
export XDG_CACHE_HOME="$TMP/cache"
# --keep-shared: what a run keeps must not hang on whether another thread
# shares the host's core (stats/trials.h; tested in test_report.c).
FAST="--keep-shared --trials 2 --trial-time 0.005 --warmup 0.001"


command -v chromium >/dev/null || { echo "plot.sh: chromium is missing: run scripts/install-deps.sh --all" >&2; exit 1; }

# render HTML: the DOM after loading, in $TMP/dom; chromium's log in $TMP/log.
# No network: every host resolves nowhere, so a page that fetched anything
# would show it as a failed load in the log.
render() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --enable-logging=stderr --v=0 \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$1" >"$TMP/dom" 2>"$TMP/log"
}

# textcheck PAGE: PAGE laid out in headless Chromium with our script
# (tests/run/textcheck.js, added to a copy: the page has none), which
# measures every SVG text's box; its findings, JSON, in $TMP/textcheck.
textcheck() {
	python3 - "$1" "$TMP/checked.html" <<'EOF'
import sys
page = open(sys.argv[1]).read()
js = open("tests/run/textcheck.js").read()
open(sys.argv[2], "w").write(page.replace("</body>", "<script>" + js + "</script></body>"))
EOF
	render "$TMP/checked.html" && python3 - "$TMP/dom" >"$TMP/textcheck" <<'EOF'
import html, re, sys
m = re.search(r'<pre id="textcheck">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
print(html.unescape(m.group(1)) if m else "{}")
EOF
}

# uncut: no SVG text of the page in $TMP/textcheck past its SVG's edges,
# none over another (the failures in $TMP/err).
uncut() {
	python3 - "$TMP/textcheck" >"$TMP/err" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r.get("clipped", []):
    print("cut:", c)
for o in r.get("overlaps", []):
    print("overlap:", o)
sys.exit(0 if r.get("texts") and not r["clipped"] and not r["overlaps"] else 1)
EOF
}

run_cb run $FAST --filter 'chain|copy' --format json -o "$TMP/old.json" "$SUITE"
[ "$rc" -eq 0 ] || not_ok "run --format json for the plots (exit $rc)"
run_cb run $FAST --filter 'chain|fill' --format json -o "$TMP/new.json" "$SUITE"
[ "$rc" -eq 0 ] || not_ok "run --format json for the plots (exit $rc)"
benchmarks() {
	python3 -c 'import json, sys
names = []
for f in sys.argv[1:]:
    names += [b["name"] for b in json.load(open(f))["benchmarks"] if b["name"] not in names]
print(len(names))' "$@"
}

run_cb plot "$TMP/old.json" -o "$TMP/report.html"
want=$(benchmarks "$TMP/old.json")
if [ "$rc" -ne 0 ]; then
	not_ok "plot: exit status $rc"
elif grep -Eiq '<script|src=|href=|@import|url\(' "$TMP/report.html"; then
	not_ok "plot: the page refers to something outside itself"
elif ls "$TMP"/report.html.* >/dev/null 2>&1; then
	not_ok "plot: a temporary file left behind"
elif ! render "$TMP/report.html"; then
	cp "$TMP/log" "$TMP/err"
	not_ok "plot: chromium could not load the page"
elif grep -Eq 'CONSOLE|Uncaught|net::ERR' "$TMP/log"; then
	grep -E 'CONSOLE|Uncaught|net::ERR' "$TMP/log" >"$TMP/err"
	not_ok "plot: errors while loading the page"
elif ! grep -q '<footer id="end">' "$TMP/dom"; then
	not_ok "plot: the page did not load to its end"
elif [ "$(grep -o '<svg class="plot"' "$TMP/dom" | wc -l)" -ne "$want" ]; then
	not_ok "plot: want $want SVG plots, got $(grep -o '<svg class="plot"' "$TMP/dom" | wc -l)"
elif [ "$(grep -o '<circle class="estimate"' "$TMP/dom" | wc -l)" -ne $((want * 2)) ]; then
	not_ok "plot: want one estimate per trial"
elif ! textcheck "$TMP/report.html" || ! uncut; then
	not_ok "plot: text cut or overlapping"
else
	ok "plot: one SVG plot per benchmark, rendered in headless chromium ($want plots)"
fi

# A run's Go text plots too: one estimate per result line (its ns/op), and
# beside its JSON twin the same benchmarks side by side.
run_cb run $FAST --filter 'chain' -o "$TMP/go.txt" -o "$TMP/go.json" "$SUITE"
run_cb plot "$TMP/go.txt" -o "$TMP/go.html"
want=$(benchmarks "$TMP/go.json")
if [ "$rc" -ne 0 ]; then
	not_ok "plot of Go text: exit status $rc"
elif ! render "$TMP/go.html" || ! grep -q '<footer id="end">' "$TMP/dom"; then
	not_ok "plot of Go text: chromium could not load the page"
elif [ "$(grep -o '<svg class="plot"' "$TMP/dom" | wc -l)" -ne "$want" ] ||
     [ "$(grep -o '<circle class="estimate"' "$TMP/dom" | wc -l)" -ne $((want * 2)) ]; then
	not_ok "plot of Go text: want $want plots of 2 trials each"
else
	ok "plot reads a run's Go text: one plot per benchmark, one estimate per result line"
fi
# Its summary names the statistic it shows: the median of the trials, as
# run's headline (three result lines, 10, 30 and 20 ns/op).
printf 'goos: linux\ngoarch: amd64\nBenchmarkMed 100 10 ns/op\nBenchmarkMed 100 30 ns/op\nBenchmarkMed 100 20 ns/op\n' >"$TMP/med.txt"
run_cb plot "$TMP/med.txt" -o "$TMP/med.html"
if [ "$rc" -eq 0 ] && grep -q ': 20 ns/op (median of trials)' "$TMP/med.html" && ! grep -q 'least trial' "$TMP/med.html"; then
	ok "plot's summary: the median of trials, named so"
else
	not_ok "plot's summary of Go text: not the median of trials, or not named so"
fi
echo 'not a report' >"$TMP/junk.txt"
run_cb plot "$TMP/junk.txt" -o "$TMP/junk.html"
if [ "$rc" -ne 0 ] && grep -q "unable to read $TMP/junk.txt: no result line with ns/op" "$TMP/err" &&
   [ ! -e "$TMP/junk.html" ]; then
	ok "plot: a file that is neither JSON nor Go text is refused, naming it; no page"
else
	not_ok "plot of a file that is no report (exit $rc)"
fi

run_cb plot "$TMP/old.json" "$TMP/new.json" -o "$TMP/cmp.html"
want=$(benchmarks "$TMP/old.json" "$TMP/new.json")
if [ "$rc" -ne 0 ]; then
	not_ok "plot of two reports: exit status $rc"
elif ! render "$TMP/cmp.html" || ! grep -q '<footer id="end">' "$TMP/dom"; then
	not_ok "plot of two reports: chromium could not load the page"
elif [ "$(grep -o '<svg class="plot"' "$TMP/dom" | wc -l)" -ne "$want" ]; then
	not_ok "plot of two reports: want $want SVG plots (the union), got $(grep -o '<svg class="plot"' "$TMP/dom" | wc -l)"
elif ! python3 - "$TMP/dom" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
sections = re.findall(r'<section class="benchmark">.*?</section>', dom, re.S)
both = [s for s in sections if s.count('<g class="series"') == 2]
one = [s for s in sections if s.count('<g class="series"') == 1 and 'not in this report' in s]
# AddChain etc. are in both reports; Copy only in old, Fill only in new.
assert both and one and len(both) + len(one) == len(sections), (len(both), len(one), len(sections))
EOF
then
	not_ok "plot of two reports: benchmarks in both are not drawn side by side"
else
	ok "plot of two reports: both side by side per benchmark, the union of benchmarks"
fi

# An audit's JSON: one plot, a row per audit with its interval and estimate.
AUDIT=build/examples/audit.so
run_cb audit --a chain_1000 --b chain_1010 --budget 30 --format json -o "$TMP/audit.json" "$AUDIT"
[ "$rc" -eq 0 ] || not_ok "audit --format json for the plot (exit $rc)"
run_cb plot "$TMP/audit.json" -o "$TMP/audit.html"
if [ "$rc" -ne 0 ]; then
	not_ok "plot of an audit: exit status $rc"
elif ! render "$TMP/audit.html" || ! grep -q '<footer id="end">' "$TMP/dom"; then
	not_ok "plot of an audit: chromium did not load the whole page"
elif [ "$(grep -o '<svg class="forest"' "$TMP/dom" | wc -l)" -ne 1 ] ||
     [ "$(grep -o '<circle class="estimate"' "$TMP/dom" | wc -l)" -ne 1 ] ||
     ! grep -q 'class="band"' "$TMP/dom"; then
	not_ok "plot of an audit: want one plot with one estimate and the min-effect band"
else
	ok "plot of an audit: its change, interval and the min-effect band"
fi
# Verdicts drawn apart: the same audit as equivalent and as inconclusive
# (its JSON edited) must not look alike.
if python3 - "$TMP/audit.json" "$TMP/verdicts.json" <<'EOF'
import copy, json, sys
r = json.load(open(sys.argv[1]))
a = r["audits"][0]
r["audits"] = [dict(copy.deepcopy(a), name="Eq", verdict="equivalent"),
               dict(copy.deepcopy(a), name="Unsure", verdict="inconclusive")]
json.dump(r, open(sys.argv[2], "w"))
EOF
then
	run_cb plot "$TMP/verdicts.json" -o "$TMP/verdicts.html"
	if [ "$rc" -eq 0 ] && render "$TMP/verdicts.html" &&
	   grep -q '<g class="audit equivalent">' "$TMP/dom" &&
	   grep -q '<g class="audit inconclusive">' "$TMP/dom" &&
	   [ "$(grep -o 'class="unsure"' "$TMP/dom" | wc -l)" -eq 1 ] &&
	   grep -q '.inconclusive .interval { stroke: #d9661f; stroke-dasharray' "$TMP/dom"; then
		ok "plot of audits: an inconclusive audit is drawn unlike an equivalent one (dashed, a ?)"
	else
		not_ok "plot of audits: inconclusive and equivalent drawn alike (exit $rc)"
	fi
else
	not_ok "plot of audits: could not edit the audit's JSON"
fi
expect_failure "plot: an audit beside a report" "an audit is drawn alone" \
	plot "$TMP/audit.json" "$TMP/old.json" -o "$TMP/out.html"

# A screenshot: the page paints.
if timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMP/chromium" --window-size=900,1200 --screenshot="$TMP/shot.png" \
	"file://$TMP/cmp.html" >/dev/null 2>&1 && [ -s "$TMP/shot.png" ]; then
	ok "plot: chromium paints a screenshot of the page"
else
	not_ok "plot: no screenshot"
fi

# Sweeps: the suite's hash (algo x len) and copy (size), from JSON and Go
# text alike: per integer key a chart, a line per value of the other keys,
# a point per set, a log axis where the values span decades; none for the
# string key.  A screenshot of the page paints.
run_cb run $FAST --filter '^hash/|^copy/' -o "$TMP/sweep.json" -o "$TMP/sweep.txt" "$SUITE"
[ "$rc" -eq 0 ] || not_ok "run for the sweeps (exit $rc)"
for input in sweep.json sweep.txt; do
	run_cb plot "$TMP/$input" -o "$TMP/sweep.html"
	if [ "$rc" -ne 0 ]; then
		not_ok "plot of sweeps ($input): exit status $rc"
	elif ! render "$TMP/sweep.html" || ! grep -q '<footer id="end">' "$TMP/dom"; then
		not_ok "plot of sweeps ($input): chromium did not load the whole page"
	elif ! python3 - "$TMP/dom" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
sweeps = re.findall(r'<section class="sweep"><h2>(.*?)</h2>(.*?)</section>', dom, re.S)
titles = [t for t, _ in sweeps]
assert sorted(titles) == ["BenchmarkCopy: ns/op by size", "BenchmarkHash: ns/op by len"], titles
svg = dict(sweeps)
lines = re.findall(r'<g class="line[^"]*".*?</g>', svg["BenchmarkHash: ns/op by len"], re.S)
assert len(lines) == 2 and all(l.count("<circle") == 3 for l in lines), [l.count("<circle") for l in lines]
assert "algo=fnv1a" in svg["BenchmarkHash: ns/op by len"] and "algo=djb2" in svg["BenchmarkHash: ns/op by len"]
assert "len (log scale)" in svg["BenchmarkHash: ns/op by len"]      # 16 to 4096
lines = re.findall(r'<g class="line[^"]*".*?</g>', svg["BenchmarkCopy: ns/op by size"], re.S)
assert len(lines) == 1 and lines[0].count("<circle") == 4, lines
assert "size (log scale)" in svg["BenchmarkCopy: ns/op by size"]
EOF
	then
		not_ok "plot of sweeps ($input): not a chart per integer key with a line per other value"
	else
		ok "plot of sweeps ($input): hash by len, a line per algo, copy by size, log axes"
	fi
done
if timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMP/chromium" --window-size=900,1400 --screenshot="$TMP/sweep.png" \
	"file://$TMP/sweep.html" >/dev/null 2>&1 && [ -s "$TMP/sweep.png" ]; then
	ok "plot of sweeps: chromium paints a screenshot"
	[ -z "${PLOT_SHOTS:-}" ] || cp "$TMP/sweep.png" "$TMP/shot.png" "$PLOT_SHOTS/"
else
	not_ok "plot of sweeps: no screenshot"
fi

# ---- comparisons: what changed, first; nothing cut --------------------------

S18_OLD=build/tests/fixtures/sets18_old.so
S18_NEW=build/tests/fixtures/sets18_new.so
SLOW=BenchmarkChecksum/algo=fnv/len=512/align=1
# A real run of each version, plotted: the change view first, a row per
# set, nothing cut (the order is left to the runs: a shared host drifts).
run_cb run $FAST -o "$TMP/s18old.json" "$S18_OLD"
rc_old=$rc
run_cb run $FAST -o "$TMP/s18new.json" "$S18_NEW"
run_cb plot "$TMP/s18old.json" "$TMP/s18new.json" -o "$TMP/s18.html"
if [ "$rc_old/$rc" != 0/0 ]; then
	not_ok "plot of two runs of an 18-set object: exit status $rc (the run: $rc_old)"
elif ! textcheck "$TMP/s18.html" || ! uncut; then
	not_ok "plot of two runs of an 18-set object: text cut or overlapping"
elif ! python3 - "$TMP/textcheck" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["sections"][0]["cls"] == "change", r["sections"][:2]
assert len(r["rows"]) == 18 and all(x["cls"].startswith("change undecided") for x in r["rows"]), r["rows"]
EOF
then
	not_ok "plot of two runs of an 18-set object: not the change view first, a row per set"
else
	ok "plot of two runs of an 18-set object: the change view first, 18 rows, no text cut"
fi

# The held-out comparison, made known: two runs of the 18-set object, one
# set 5 % slower, the others within the drift of +-0.2 % (from the real
# old run, plot_runs.py).  The slow set stands out first on the page: the
# first section is the change view, its first row and its headline are
# that set at +5 %; no text is cut or overlaps another.
mkdir -p "$TMP/one" "$TMP/three"
python3 tests/run/plot_runs.py "$TMP/s18old.json" "$TMP/one" 1 1 "$SLOW"
python3 tests/run/plot_runs.py "$TMP/s18old.json" "$TMP/three" 3 3 "$SLOW"
run_cb plot "$TMP/one/old1.json" "$TMP/one/new1.json" -o "$TMP/held.html"
if [ "$rc" -ne 0 ]; then
	not_ok "plot of the 5 % comparison: exit status $rc"
elif ! textcheck "$TMP/held.html" || ! uncut; then
	not_ok "plot of the 5 % comparison: text cut or overlapping"
elif ! python3 - "$TMP/textcheck" "$TMP/held.html" <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
first = r["sections"][0]
assert first["cls"] == "change", r["sections"][:2]
rows = r["rows"]
assert len(rows) == 18, len(rows)
top = rows[0]
assert top["name"] == "Checksum/algo=fnv/len=512/align=1", top
assert re.match(r"\+[0-9.]+ % \?$", top["label"]) and 4.5 < float(top["label"].split()[0]) < 5.5, top
# Hollow (no verdict), but red: past the band, slower.
assert top["cls"] == "change undecided up", top
assert top["fill"] == "rgb(255, 255, 255)" and top["stroke"] == "rgb(179, 49, 44)", top
# It stands out: every other set within 1 %, drawn below it.
others = [float(x["label"].split()[0]) for x in rows[1:]]
assert all(abs(v) < 1 for v in others), others
assert all(x["top"] > top["top"] for x in rows[1:]) and top["top"] < min(s["top"] for s in r["sections"][1:])
changes = [float(x["label"].split()[0]) for x in rows]
assert changes == sorted(changes, reverse=True), changes
assert re.search(r'<p class="headline">Largest slowdown: <strong>Checksum/algo=fnv/len=512/align=1</strong>, \+[45]\.[0-9]+ %', page)
assert "1 run a side" in page or "one run a side" in page
EOF
then
	not_ok "plot of the 5 % comparison: the slow set is not first on the page"
elif ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMP/chromium" --window-size=1100,1200 --screenshot="$TMP/held.png" \
	"file://$TMP/held.html" >/dev/null 2>&1 || [ ! -s "$TMP/held.png" ]; then
	not_ok "plot of the 5 % comparison: no screenshot"
else
	ok "plot of two runs, one set of 18 5 % slower: it stands out first (first row, red, headline), no text cut"
	[ -z "${PLOT_SHOTS:-}" ] || cp "$TMP/held.png" "$PLOT_SHOTS/"
fi

# Three runs a side: the rows' verdicts are compare's, row for row, and the
# slow set's is slower, drawn red.
run_cb plot "$TMP"/three/old*.json -- "$TMP"/three/new*.json -o "$TMP/three.html"
rc_plot=$rc
run_cb compare "$TMP"/three/old*.json -- "$TMP"/three/new*.json
if [ "$rc_plot/$rc" != 0/0 ]; then
	not_ok "plot OLD... -- NEW...: exit status $rc_plot (compare: $rc)"
elif ! textcheck "$TMP/three.html" || ! uncut; then
	not_ok "plot OLD... -- NEW...: text cut or overlapping"
elif ! python3 - "$TMP/textcheck" "$TMP/out" <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
table = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(Checksum/\S+) .* 3\+3 (.*)$", line.rstrip())
    if m:
        table[m.group(1)] = m.group(2)
words = {"slower": "slower", "faster": "faster", "none": "~", "unsettled": "~ ", "equal": "~ equal",
         "undecided": "?"}
assert len(table) == 18 and len(r["rows"]) == 18, (len(table), len(r["rows"]))
for row in r["rows"]:
    verdict = row["cls"].split()[1]
    assert table[row["name"]].startswith(words[verdict]), (row, table[row["name"]])
assert r["rows"][0]["name"] == "Checksum/algo=fnv/len=512/align=1" and r["rows"][0]["cls"] == "change slower"
assert r["rows"][0]["fill"] == "rgb(179, 49, 44)", r["rows"][0]
assert all(x["fill"] != "rgb(179, 49, 44)" for x in r["rows"][1:]), r["rows"]
assert [x for x in r["rows"] if x["cls"] == "change slower"] == r["rows"][:1]
EOF
then
	not_ok "plot OLD... -- NEW...: the rows' verdicts are not compare's"
else
	ok "plot OLD... -- NEW...: compare's verdict on every row, the 5 % set slower and first"
fi

# The sweeps of a comparison: a hue per set on both sides, old dashed and
# new solid; len (64 to 4096) on a log axis with ticks at its values, align
# (0, 1) on a linear one with integer ticks; lines that coincide say so;
# the change in % on hover; --y-scale linear draws time from 0.
if ! python3 - "$TMP/held.html" <<'EOF'
import re, sys
page = open(sys.argv[1]).read()
charts = dict(re.findall(r'<section class="sweep"><h2>(.*?)</h2>(.*?)</section>', page, re.S))
assert sorted(charts) == ["BenchmarkChecksum: ns/op by align", "BenchmarkChecksum: ns/op by len"], sorted(charts)
for title, svg in charts.items():
    lines = re.findall(r'<g class="line (old|new)" stroke="(#[0-9a-f]+)"[^>]*><polyline([^>]*)>', svg)
    hues = {}
    for side, hue, polyline in lines:
        hues.setdefault(hue, []).append((side, "stroke-dasharray" in polyline))
    assert len(hues) == (6 if title.endswith("len") else 9), (title, len(hues))
    for hue, sides in hues.items():
        assert sorted(sides) == [("new", False), ("old", True)], (title, hue, sides)
by_len, by_align = charts["BenchmarkChecksum: ns/op by len"], charts["BenchmarkChecksum: ns/op by align"]
assert ">len (log scale)<" in by_len and ">align<" in by_align
def xticks(svg):
    return re.findall(r'<text class="xtick"[^>]*>([^<]*)</text>', svg)
assert xticks(by_len) == ["64", "512", "4096"], xticks(by_len)
assert xticks(by_align) == ["0", "1"], xticks(by_align)
# align does nothing: each align=1 set is drawn over its align=0 twin; the
# unchanged sets' old and new coincide; the slow one's do not.
notes = re.findall(r'>(algo=[^<]*)</text><text class="coincide"[^>]*>([^<]*)<', by_len)
assert notes == [("algo=crc align=0", "old and new coincide"), ("algo=crc align=1", "drawn over algo=crc align=0"),
                 ("algo=fnv align=0", "old and new coincide"), ("algo=fnv align=1", "old: drawn over algo=fnv align=0"),
                 ("algo=djb align=0", "old and new coincide"), ("algo=djb align=1", "drawn over algo=djb align=0")], notes
assert ">old and new coincide<" in by_align
slow = re.search(r"algo=fnv len=512</text>(<text class=\"coincide\"[^>]*>[^<]*</text>)?", by_align)
assert slow and not slow.group(1), slow.group(0)
assert re.search(r"<title>algo=fnv align=1, new1.json: len=512: [0-9.e+]+ ns/op \(trials [^)]*\); \+[45]\.[0-9]+ % against old1.json</title>", by_len)
assert "time/op (log scale)" in by_len
EOF
then
	not_ok "plot of a comparison's sweeps: hues, dashes, axes, coincidences or hover"
else
	run_cb plot --y-scale linear "$TMP/one/old1.json" "$TMP/one/new1.json" -o "$TMP/linear.html"
	if [ "$rc" -eq 0 ] && ! grep -q 'time/op (log scale)' "$TMP/linear.html" &&
	   grep -q 'class="ytick"[^>]*>0</text>' "$TMP/linear.html" && textcheck "$TMP/linear.html" && uncut; then
		ok "plot of a comparison's sweeps: a hue per set, old dashed, log len, integer align ticks, coincidences, % on hover, --y-scale linear"
	else
		not_ok "plot --y-scale linear (exit $rc)"
	fi
fi

# Many sets: a key's sets go ten to a chart, three charts at most, and the
# sets beyond are named with why; a key of 40 values (1 to 40, more than a
# decade) on a log axis with integer ticks, one of 0 to 30 on a linear
# axis with integer ticks, every set's label whole.
python3 - "$TMP/many.json" <<'EOF'
import json, sys
sys.path.insert(0, "tests/run")
from fake_report import report
def bench(name, ns):
    return {"name": name, "ns_per_op": ns, "trials": [{"status": "ok", "ns_per_op": ns, "min_ns_per_op": ns,
            "median_ns_per_op": ns, "max_ns_per_op": ns * 1.01}]}
b = [bench("BenchmarkMany/a=%d/n=%d" % (a, n), 10.0 * a * n + a) for a in range(1, 41) for n in (1, 2)]
b += [bench("BenchmarkSteps/b=%d" % v, 100.0 + 3 * v) for v in range(0, 31)]
json.dump(report(b), open(sys.argv[1], "w"))
EOF
run_cb plot "$TMP/many.json" -o "$TMP/many.html"
if [ "$rc" -ne 0 ]; then
	not_ok "plot of many sets: exit status $rc"
elif ! textcheck "$TMP/many.html" || ! uncut; then
	not_ok "plot of many sets: text cut or overlapping"
elif ! python3 - "$TMP/many.html" <<'EOF'
import re, sys
page = open(sys.argv[1]).read()
charts = re.findall(r'<section class="sweep"><h2>(.*?)</h2>(.*?)</section>', page, re.S)
titles = [t for t, _ in charts]
assert titles == ["BenchmarkMany: ns/op by a", "BenchmarkMany: ns/op by n (sets 1 to 10 of 40)",
                  "BenchmarkMany: ns/op by n (sets 11 to 20 of 40)", "BenchmarkMany: ns/op by n (sets 21 to 30 of 40)",
                  "BenchmarkSteps: ns/op by b"], titles
svg = dict(charts)
note = re.search(r'<p class="note">Not in the charts of BenchmarkMany by n, which draw 30 sets at most '
                 r'\(each has its own plot below\): 10 sets, ([^<]*)\.</p>', page)
assert note and note.group(1).split(", ") == ["a=%d" % a for a in range(31, 41)], note
for title, body in charts:
    ticks = re.findall(r'<text class="xtick"[^>]*>([^<]*)</text>', body)
    assert ticks and all(re.fullmatch(r"-?[0-9]+[kMGT]?", t) for t in ticks), (title, ticks)
    if "by n" in title:
        assert ticks == ["1", "2"], ticks
        assert len(re.findall(r'<g class="line new"', body)) == 10
assert ">a (log scale)<" in svg["BenchmarkMany: ns/op by a"]
steps = re.findall(r'<text class="xtick"[^>]*>([^<]*)</text>', svg["BenchmarkSteps: ns/op by b"])
assert ">b<" in svg["BenchmarkSteps: ns/op by b"] and steps == ["0", "10", "20", "30"], steps
EOF
then
	not_ok "plot of many sets: not ten to a chart, the rest named, integer ticks"
else
	ok "plot of many sets: ten to a chart, three charts, the rest named with why; integer ticks, log over a decade"
fi

# Long names are never cut: reports of long file names side by side (the
# legends, the trials' labels), and an audit of long benchmark names
# (its forest, sorted by change).
long_old="$TMP/the-baseline-build-of-the-checksum-library-before-the-patch.json"
long_new="$TMP/the-candidate-build-of-the-checksum-library-after-the-patch.json"
cp "$TMP/one/old1.json" "$long_old"
cp "$TMP/one/new1.json" "$long_new"
run_cb plot "$long_old" "$long_new" -o "$TMP/long.html"
if [ "$rc" -eq 0 ] && textcheck "$TMP/long.html" && uncut &&
   grep -q '>new: the-candidate-build-of-the-checksum-library-after-the-patch.json</text>' "$TMP/long.html" &&
   grep -q '>the-baseline-build-of-the-checksum-library-before-the-patch.json trial 1</text>' "$TMP/long.html"; then
	ok "plot: long report names whole in the legends and the trials' labels, nothing cut"
else
	not_ok "plot: long report names (exit $rc)"
fi
if python3 - "$TMP/audit.json" "$TMP/audits.json" <<'EOF'
import copy, json, sys
r = json.load(open(sys.argv[1]))
a = r["audits"][0]
rows = [("BenchmarkChecksum/algo=crc32c/len=4096/align=1", "slower", 1.02, 0.85, 1.19),
        ("BenchmarkChecksum/algo=adler32/len=64/align=0", "equivalent", 0.01, -0.1, 0.12),
        ("BenchmarkSortWithAVeryLongNameIndeed/dist=sawtooth/size=65536", "faster", -2.5, -3.0, -2.0),
        ("BenchmarkParse", "inconclusive", 0.3, -0.5, 1.1)]
r["audits"] = [dict(copy.deepcopy(a), name=n, verdict=v, change=c, lower=lo, upper=hi) for n, v, c, lo, hi in rows]
json.dump(r, open(sys.argv[2], "w"))
EOF
then
	run_cb plot "$TMP/audits.json" -o "$TMP/audits.html"
	if [ "$rc" -eq 0 ] && textcheck "$TMP/audits.html" && uncut && python3 - "$TMP/textcheck" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
names = [r["name"] for r in rows]
assert names == ["BenchmarkChecksum/algo=crc32c/len=4096/align=1", "BenchmarkParse",
                 "BenchmarkChecksum/algo=adler32/len=64/align=0",
                 "BenchmarkSortWithAVeryLongNameIndeed/dist=sawtooth/size=65536"], names
EOF
	then
		ok "plot of an audit: long benchmark names whole, rows by change, nothing cut"
	else
		not_ok "plot of an audit with long names (exit $rc)"
	fi
	# Audits drawn together: one forest of both files' audits, each named
	# with its file.
	run_cb plot "$TMP/audit.json" "$TMP/audits.json" -o "$TMP/audits2.html"
	if [ "$rc" -eq 0 ] && textcheck "$TMP/audits2.html" && uncut && python3 - "$TMP/textcheck" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
names = sorted(r["name"] for r in rows)
assert len(rows) == 5 and sum(n.endswith(" (audit.json)") for n in names) == 1, names
assert sum(n.endswith(" (audits.json)") for n in names) == 4, names
EOF
	then
		ok "plot of two audits: one forest, each audit named with its file, nothing cut"
	else
		not_ok "plot of two audits (exit $rc)"
	fi
else
	not_ok "plot of an audit with long names: could not edit the audit's JSON"
fi

# ---- bad input: a message, non-zero exit, no output file ----------------------

printf 'BenchmarkX 10 1.0 ns/op\n' >"$TMP/go.txt"
printf '{"benchmarks": [' >"$TMP/cut.json"
printf '{"a": 1}\n' >"$TMP/other.json"
python3 -c 'import json, sys; sys.path.insert(0, "tests/run"); from fake_report import report
json.dump(report([{"trials": []}]), open(sys.argv[1], "w"))' "$TMP/noname.json"
# A robust axis: one outlier (5 ns among 0.3082 ns) does not stretch it,
# but runs to the edge, marked; ticks are round and evenly spaced, scaled
# to the unit (40 µs in µs/op); a long failure is cut to fit, whole in its
# title.  The page is rendered too, and every tick is seen in its DOM.
python3 - "$TMP/outlier.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/run")
from fake_report import report
ok = {"status": "ok", "n": 10, "min_ns_per_op": 0.30822, "median_ns_per_op": 0.30823}
t = [dict(ok, ns_per_op=0.30822 + i * 1e-6, max_ns_per_op=5.0 if i == 1 else 0.3083) for i in range(4)]
t.append({"status": "failed", "reason": "worker killed by signal SIGSEGV; " + "and then some " * 20})
big = [{"status": "ok", "ns_per_op": 40435.2 + i * 10, "min_ns_per_op": 40430, "median_ns_per_op": 40440,
        "max_ns_per_op": 40500} for i in range(3)]
json.dump(report([{"name": "BenchmarkAddChain", "ns_per_op": 0.30822, "trials": t},
                 {"name": "BenchmarkBig", "ns_per_op": 40435.2, "trials": big}]), open(sys.argv[1], "w"))
PY
run_cb plot "$TMP/outlier.json" -o "$TMP/outlier.html"
if [ "$rc" -eq 0 ] && textcheck "$TMP/outlier.html" && uncut && render "$TMP/outlier.html" && python3 - "$TMP/dom" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
plots = dom.split('<svg class="plot"')[1:]
assert len(plots) == 2, len(plots)
assert plots[0].count('class="clipped"') == 1 and 'class="clipped"' not in plots[1]
for p, unit in zip(plots, ("ns/op", "µs/op")):
    ticks = [float(x) for x in re.findall(r'class="tick"[^>]*>([0-9.]+)<', p)]
    assert len(ticks) >= 4, ticks
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1, ticks
    step = steps.pop()
    mant = step / 10 ** __import__("math").floor(__import__("math").log10(step))
    assert any(abs(mant - m) < 1e-6 for m in (1, 2, 5)), step
    assert unit in p, unit
# The outlier's trial and the others share an axis a 0.1 % span wide, not 5 ns.
assert max(float(x) for x in re.findall(r'class="tick"[^>]*>([0-9.]+)<', plots[0])) < 0.31
failed = re.search(r'<text class="failed"[^>]*><title>([^<]*)</title>failed: ([^<]*)</text>', plots[0])
assert failed and failed.group(2).endswith("…") and len(failed.group(2)) < len(failed.group(1)), failed
PY
then
	ok "plot: a robust axis (an outlier marked at the edge), round scaled ticks, failures that fit"
else
	not_ok "plot: the robust axis (exit $rc)"
fi

expect_failure "plot: neither JSON nor Go text" "unable to read $TMP/junk.txt: no result line with ns/op" plot "$TMP/junk.txt" -o "$TMP/out.html"
printf '{"config": ' >"$TMP/brace.txt"
expect_failure "plot: starts as JSON, is not" "unable to read $TMP/brace.txt: not JSON, or cut short: " plot "$TMP/brace.txt" -o "$TMP/out.html"
expect_failure "plot: JSON cut short" "unable to read $TMP/cut.json: not JSON, or cut short: no value at line 1" plot "$TMP/cut.json" -o "$TMP/out.html"
expect_failure "plot: JSON, not a cbench report" "unable to read $TMP/other.json: not a cbench run report \\(no schema_version\\)" plot "$TMP/other.json" -o "$TMP/out.html"
expect_failure "plot: a benchmark without a name" "benchmarks\\[0\\] has no member 'name'" plot "$TMP/noname.json" -o "$TMP/out.html"
expect_failure "plot: a directory" "unable to read $TMP: Is a directory" plot "$TMP" -o "$TMP/out.html"
expect_failure "plot: a missing file" "unable to read $TMP/absent.json: No such file" plot "$TMP/absent.json" -o "$TMP/out.html"
expect_failure "plot: the second report bad" "unable to read $TMP/junk.txt: no result line" plot "$TMP/old.json" "$TMP/junk.txt" -o "$TMP/out.html"
expect_failure "plot: output is a directory" "unable to write $TMP: Is a directory" plot "$TMP/old.json" -o "$TMP"
expect_failure "plot: output in a missing directory" "unable to write $TMP/nodir/out.html: No such file" plot "$TMP/old.json" -o "$TMP/nodir/out.html"
expect_failure "plot: no -o" "plot: it wants -o FILE.html" plot "$TMP/old.json"
expect_failure "plot: three reports without --" "plot: more than two reports want '--' between the old and the new ones" \
	plot "$TMP/old.json" "$TMP/old.json" "$TMP/old.json" -o "$TMP/out.html"
expect_failure "plot: -- with no new report" "plot: no new report beside '--'" plot "$TMP/old.json" -- -o "$TMP/out.html"
expect_failure "plot: -- with no old report" "plot: no old report beside '--'" plot -- "$TMP/old.json" -o "$TMP/out.html"
expect_failure "plot: a file twice on a side" "unable to plot: $TMP/old.json is given twice on one side" \
	plot "$TMP/old.json" "$TMP/old.json" -- "$TMP/new.json" -o "$TMP/out.html"
expect_failure "plot: --min-effect out of range" "--min-effect wants a percentage from 0 to below 100, not '100'" \
	plot --min-effect 100 "$TMP/old.json" "$TMP/new.json" -o "$TMP/out.html"
expect_failure "plot: --y-scale unknown" "--y-scale must be auto, linear or log, not 'lin'" \
	plot --y-scale lin "$TMP/old.json" -o "$TMP/out.html"

finish
