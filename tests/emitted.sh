#!/bin/sh
# Every kernel file's emitted text through every target, one sha256 per
# file and target, for checking that a change of code shape leaves the
# generated code byte-identical:
#   sh tests/emitted.sh build/lyt >before.txt   (on the old tree)
#   sh tests/emitted.sh build/lyt | diff before.txt -
LYT=${1:-build/lyt}
# The targets and their variants as the help lists them (backends/targets.c):
# "c, ptx (sm_90, sm_80), ..." -> c ptx:sm_90 ptx:sm_80 ...
targets=$("$LYT" --help | sed -n 's/^ *TARGET: //p' | sed -e ':a' \
  -e 's/\([a-z0-9_]*\) (\([^,)]*\), */\1:\2, \1 (/' -e 'ta' -e 's/\([a-z0-9_]*\) (\([^)]*\))/\1:\2/g' -e 's/,/ /g')
for f in examples/kernels/*.lyt tests/kernels/*.lyt bench/gpu/kernels.lyt bench/gpu/phases.lyt; do
  for t in $targets; do
    h=$("$LYT" --emit=$t "$f" 2>&1 | sha256sum | cut -c1-16)
    echo "$f $t $h"
  done
done
