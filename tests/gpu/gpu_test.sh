#!/bin/sh
# make gpu-test, on a machine with an NVIDIA GPU: every PTX module in DIR
# (with its .expect beside it) is loaded through the CUDA driver API, each
# kernel run and every output element checked (tests/gpu/run_ptx.c), and
# the shared-memory bank conflicts counted by Nsight Compute must be zero.
#   tests/gpu/gpu_test.sh DIR [RUN_PTX]
# DIR holds lyt --emit=ptx / --emit=expect of examples/kernels and
# tests/kernels: bench/gpu/prepare.sh writes it as OUT/ex (make gpu-test:
# build/gpu/ex); it can be made on another machine and copied.
DIR=${1:?usage: gpu_test.sh DIR [RUN_PTX]}
RUN=${2:-build/run_ptx}
CUDA=${CUDA:-/usr/local/cuda}
if [ ! -x "$RUN" ]; then
  gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$CUDA/include" tests/gpu/run_ptx.c \
    -L"$CUDA/lib64/stubs" -lcuda -o "$RUN" || exit 1
fi
pass=0; fail=0
for ptx in "$DIR"/*.ptx; do
  e=${ptx%.ptx}.expect
  out=$("$RUN" "$ptx" "$e"); rc=$?
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
  f=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
  pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))
  [ "$rc" -eq 0 ] || [ "${f:-1}" -ne 0 ] || fail=$((fail + 1))
  if sh tests/gpu/ncu_conflicts.sh "$RUN" "$ptx" "$e"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
