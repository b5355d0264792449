#!/bin/sh
# On the build machine: everything one GPU session needs, into DIR (default
# gpu_out, which git ignores; pass it to the device in `carry`).
#   DIR/ex/NAME.ptx|.expect   every examples/kernels/NAME.lyt and tests/kernels/NAME.lyt
#   DIR/kernels.ptx|.expect   bench/gpu/kernels.lyt
#   DIR/convert.ptx|.expect|.manifest   bench/gpu/convert.lyt (for convert.py)
# Then, on the GPU machine: sh bench/gpu/session.sh DIR OUTDIR
LYT=${LYT:-build/lyt}
DIR=${1:-gpu_out}
mkdir -p "$DIR/ex" || exit 1
for f in examples/kernels/*.lyt tests/kernels/*.lyt; do
  n=$(basename "$f" .lyt)
  "$LYT" --emit=ptx "$f" >"$DIR/ex/$n.ptx" && "$LYT" --emit=expect "$f" >"$DIR/ex/$n.expect" || exit 1
done
"$LYT" --emit=ptx bench/gpu/kernels.lyt >"$DIR/kernels.ptx" &&
  "$LYT" --emit=expect bench/gpu/kernels.lyt >"$DIR/kernels.expect" || exit 1
"$LYT" bench/gpu/convert.lyt >"$DIR/convert.manifest" &&
  "$LYT" --emit=ptx bench/gpu/convert.lyt >"$DIR/convert.ptx" &&
  "$LYT" --emit=expect bench/gpu/convert.lyt >"$DIR/convert.expect" || exit 1
echo "prepared $DIR: $(ls "$DIR"/ex/*.ptx | wc -l) example modules, $(grep -c '^kernel' "$DIR/kernels.expect") benchmark kernels"
