#!/bin/bash
# html.sh: --report=html as a browser shows it: the page's text (escaping, nothing fetched, a
# section and a drawing per pipelined loop) and, where Debian's chromium is installed
# (scripts/bootstrap --browser), a headless screenshot that must show the drawing.
#   tests/html.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# a file whose name holds & and <, a kernel named with a letter outside ASCII, a loop with
# && and < in it; and a file with three kernels and a loop left as written
odd="$tmp/odd & <name>.cu"
sed 's/sgemm_tiled/sgemm_\xc3\xa9_odd/g; s|acc += As\[ty\]\[k\] \* Bs\[k\]\[tx\];|& // a \&\& b < c|' \
	testdata/sgemm_tiled.cu >"$odd"
cp testdata/harness.cuh "$tmp/"
"$pipefy" -q --report-file="$tmp/report.html" "$odd" testdata/multi_kernels.cu testdata/neg_early_exit.cu \
	>/dev/null 2>"$tmp/err"; rc=$?
page=$tmp/report.html
expect "--report-file=report.html: exit 0, nothing on standard error" '[ $rc = 0 ] && [ ! -s "$tmp/err" ]'
expect "one page for the run: one <html>, a section per loop (6), a drawing per pipelined loop (4)" \
	'[ "$(grep -c "<html" "$page")" = 1 ] && [ "$(grep -c "<section" "$page")" = 6 ] && [ "$(grep -c "<svg" "$page")" = 4 ]'
expect "self-contained: no script, no link, no src=, no url()" \
	'! grep -q -i -E "<script|<link|src=|url\(" "$page"'
# what a parser reads back is the text as it was
python3 - "$page" "$odd" >"$tmp/parsed" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.text = []; s.stack = []; s.bad = 0
    def handle_starttag(s, tag, a):
        if tag not in ('meta', 'br', 'rect', 'path', 'line'): s.stack.append(tag)
    def handle_startendtag(s, tag, a): pass
    def handle_endtag(s, tag):
        if tag in ('rect', 'path', 'line'): return
        if not s.stack or s.stack.pop() != tag: s.bad += 1
    def handle_data(s, d): s.text.append(d)
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read())
t = ''.join(p.text)
print('balanced' if p.bad == 0 and not p.stack else 'unbalanced %d %s' % (p.bad, p.stack))
print('name' if sys.argv[2] in t else 'no name')
print('kernel' if 'sgemm_\u00e9_odd' in t else 'no kernel')
print('code' if '// a && b < c' in t and 't < K / TILE' in t else 'no code')
PY
expect "the page's tags nest" 'grep -qx balanced "$tmp/parsed"'
expect "a file name with & and < reads back as it is" 'grep -qx name "$tmp/parsed"'
expect "a kernel named outside ASCII reads back as it is" 'grep -qx kernel "$tmp/parsed"'
expect "code with && and < reads back as it is, and is escaped in the page" \
	'grep -qx code "$tmp/parsed" && grep -q "// a &amp;&amp; b &lt; c" "$page" && ! grep -q "a && b" "$page"'
expect "the drawing names the phases, the stages and the barriers" \
	'grep -q ">prologue<" "$page" && grep -q ">main loop<" "$page" && grep -q ">epilogue<" "$page" && grep -q ">stage 1<" "$page" && grep -q "__syncthreads()" "$page"'

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$browser" ]; then
	echo "[SKIP] no chromium: the page is not rendered (scripts/bootstrap --browser installs Debian's)"
	echo "$pass passed, $fail failed"
	[ $fail = 0 ] && exit 77
	exit 1
fi
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,2400 \
	--user-data-dir="$tmp/profile" --screenshot="$tmp/page.png" "file://$page" >/dev/null 2>&1
# the screenshot, decoded: not blank, and the drawing's colours are there (compute: #7c6, a
# copy in flight: #bde, a wait: #d33)
python3 - "$tmp/page.png" >"$tmp/pixels" 2>&1 <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT': idat += body
bpp = {2: 3, 6: 4}[ctype]
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
colours, ink = {}, 0
for line in rows[::2]:
    for x in range(0, stride, bpp * 2):
        px = tuple(line[x:x + 3]); colours[px] = colours.get(px, 0) + 1; ink += px != (255, 255, 255)
print('ink', ink, 'colours', len(colours))
for name, rgb in (('compute', (0x77, 0xcc, 0x66)), ('flight', (0xbb, 0xdd, 0xee)), ('wait', (0xdd, 0x33, 0x33))):
    print(name, colours.get(rgb, 0))
PY
cat "$tmp/pixels"
expect "chromium renders the page: not blank (ink on over 5% of it)" \
	'[ "$(awk "/^ink/ { print (\$2 > 0.05 * 1300 * 2400 / 4) }" "$tmp/pixels")" = 1 ]'
expect "chromium draws the schedules: compute, in-flight and wait colours on the screenshot" \
	'awk "/^(compute|flight|wait) / && \$2 > 20 { n++ } END { exit n != 3 }" "$tmp/pixels"'
[ -n "${HTML_SCREENSHOT:-}" ] && cp "$tmp/page.png" "$HTML_SCREENSHOT"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
