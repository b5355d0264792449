#!/bin/sh
# Every kernel file's emitted text through every target, one sha256 per
# file and target, for checking that a change of code shape leaves the
# generated code byte-identical:
#   sh tests/emitted.sh build/lyt >before.txt   (on the old tree)
#   sh tests/emitted.sh build/lyt | diff before.txt -
LYT=${1:-build/lyt}
for f in examples/kernels/*.lyt tests/kernels/*.lyt bench/gpu/kernels.lyt bench/gpu/phases.lyt; do
  for t in c expect ptx:sm_80 ptx:sm_90 amdgcn:gfx90a amdgcn:gfx942; do
    h=$("$LYT" --emit=$t "$f" 2>&1 | sha256sum | cut -c1-16)
    echo "$f $t $h"
  done
done
