#!/bin/sh
# SVG pictures seen by a browser: renders one picture of each kind with
# lyt, screenshots each in headless Chromium and checks that every cell in
# the window shows its own fill colour in the PNG. Skips its 11 checks,
# with a reason, when chromium or python3 is missing.
#   sh tests/pictures.sh [path/to/lyt]
LYT=${1:-build/lyt}
if ! command -v chromium >/dev/null 2>&1; then
  echo "skip 11: chromium is not installed (apt-get install -y chromium)"
  echo "0 passed, 0 failed"; exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "skip 11: python3 is not installed"; echo "0 passed, 0 failed"; exit 0
fi
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat >"$dir/kinds.lyt" <<'LYT'
import "triton.lyt"
svg((4,(2,4)):(2,(1,8)), "stride.svg")
svg(((4,8),(2,2)):((16,1),(8,64)), "tv.svg", tv=(16,8))
svg(to_linear(blocked((1,2),(4,8),(2,1),(1,0)), (16,16)), "distributed.svg")
svg(to_linear(swizzled_shared(2,1,4,(1,0)), (8,16)), "shared.svg", elem="f16")
svg(axe((8,2,2):(4@lane,1@warp,1@lane), 2:16@lane), "axe.svg", shape=(4,8))
svg(nested((2,1),(1,1),(1,1),(4,4),(2,4),(1,0),(4,1)), "nested.svg")
svg(composition(swizzle(3,3,3), (128,128):(128,1)), "big.svg", color="bank")
import "cute"
tm = make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"))
svg(tm, "mma.svg")
svg(make_tiled_copy_mma(copy_atom("SM75_U32x2_LDSM_N"), tm, "a", 16), "copy.svg")
LYT
lyt_abs=$(cd "$(dirname "$LYT")" && pwd)/$(basename "$LYT")
if ! (cd "$dir" && "$lyt_abs" kinds.lyt); then echo "lyt failed"; echo "0 passed, 1 failed"; exit 1; fi
cat >"$dir/check.py" <<'PY'
# check.py PNG SVG: decodes the screenshot (8-bit RGB/RGBA, zlib, the five
# row filters) and looks at every cell the SVG draws inside the window: the
# pixel 3 px in from its top-left corner (clear of the border and of the
# centred label) must have the cell's fill. Prints the cells looked at and
# how many of them match. The SVG's width and height equal its viewBox, so
# a user unit is a pixel.
import re, struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), 'unsupported PNG'
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
cell = re.compile(r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)" '
                  r'fill="#([0-9a-f]{6})" class="c"/>')
seen = match = 0
for m in cell.finditer(open(sys.argv[2]).read()):
    x, y, cw, ch = (float(v) for v in m.groups()[:4])
    if x + cw > w or y + ch > h:
        continue
    px, py = int(x) + 3, int(y) + 3
    got = rows[py][px * bpp:px * bpp + 3]
    want = bytes.fromhex(m.group(5))
    seen += 1
    match += all(abs(g - e) <= 8 for g, e in zip(got, want))
print(seen, match)
PY
# The cells each picture must draw, worked out from the shapes above:
# 4x8; 16 threads x 8 values; 16x16; 8x16; two 4x8 grids (lane, warp);
# the nested tile 16x16; 128x128 (of which the window shows a corner); a
# tiled MMA's C 16x8, A 16x8 and B 8x8; a tiled copy's source and
# destination, 16x8 each.
cells="stride:32 tv:128 distributed:256 shared:128 axe:64 nested:256 big:16384 mma:320 copy:256"
pass=0; fail=0
# colours NAME SVG: screenshot SVG alone in Chromium and check its cells
colours() {
  timeout 120 chromium --headless --disable-gpu --no-sandbox --screenshot="$dir/$1.png" \
    --window-size=1200,1200 "file://$2" >/dev/null 2>&1
  set -- "$1" $(python3 "$dir/check.py" "$dir/$1.png" "$2" 2>/dev/null)
  if [ "${2:-0}" -ge 8 ] && [ "$2" = "${3:-}" ]; then
    echo "PASS $1 ($2 cells in the window, each in its colour)"; pass=$((pass + 1))
  else
    echo "FAIL $1: ${3:-?} of ${2:-?} cells in the window show their colour"; fail=$((fail + 1))
  fi
}
for k in stride tv distributed shared axe nested big mma copy; do
  want=$(printf '%s\n' $cells | sed -n "s/^$k://p")
  got=$(grep -c 'class="[ce]"/>' "$dir/$k.svg")
  if [ "$got" != "$want" ]; then
    echo "FAIL $k: $got cells drawn, $want expected"; fail=$((fail + 1)); continue
  fi
  colours "$k" "$dir/$k.svg"
done
# lyt --explain=html: Chromium reads the whole page (every inline picture
# is in its DOM), the page fetches nothing, and its first picture, taken
# out on its own, shows each cell in its colour like the pictures above.
page="$dir/page.html"
if "$LYT" --explain=html tests/data/ttgir/column_sum.ttgir >"$page"; then
  timeout 120 chromium --headless --disable-gpu --no-sandbox --dump-dom "file://$page" \
    >"$dir/dom.html" 2>/dev/null
  want=$(grep -c '<svg ' "$page"); got=$(grep -c '<svg ' "$dir/dom.html")
  if [ "$want" -ge 3 ] && [ "$got" = "$want" ] && ! grep -q 'src=\|href="http\|url(' "$page"; then
    echo "PASS explain page ($got pictures in Chromium's DOM, nothing fetched)"; pass=$((pass + 1))
  else
    echo "FAIL explain page: $got of $want pictures in the DOM"; fail=$((fail + 1))
  fi
  sed -n '/^<svg /,/^<\/svg>/p' "$page" | sed '/^<\/svg>/q' >"$dir/first.svg"
  colours explain-picture "$dir/first.svg"
else
  echo "FAIL lyt --explain=html"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
