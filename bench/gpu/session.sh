#!/bin/sh
# On the GPU machine, from the repository root: the whole GPU side of the
# kernels issue in one call, since GPU time is scarce. DIR comes from
# bench/gpu/prepare.sh; results go to OUTDIR:
#   gpu-test.txt   every example kernel checked element by element, and its
#                  bank conflicts by Nsight Compute (make gpu-test's script)
#   results.md     bench.py's table (stderr: results.err): PyTorch, Triton 3.6 and every lyt
#                  benchmark kernel (SKIP_BENCH=1 leaves it out; ONLY=REGEX
#                  keeps the kernels whose names match, here and for ncu)
#   results-flush.md  with FLUSH=1: the same with L2 overwritten before
#                  every timed launch (bench.py --flush)
#   conflicts.txt  with CONFLICTS=1: Nsight Compute's bank conflicts and
#                  shared wavefronts of every benchmark kernel, hardware and
#                  SASS-level counters (slow: ~5 min); metrics.txt: what
#                  this ncu can count
#   convert.md     with CONVERT=1: bench/gpu/convert.py's table, lyt's layout
#                  conversions against Gluon's (stderr: convert.err), and
#   convert-ncu.md Nsight Compute's shared wavefronts and bank conflicts of
#                  both sides' kernels, against lyt's bank model
#   dram.txt       with DRAM=1: Nsight Compute's DRAM and L2 traffic and
#                  time of every (ONLY) benchmark kernel, one launch each
DIR=${1:-gpu_out}
OUT=${2:-${OUT:-.}}
CUDA=${CUDA:-/usr/local/cuda}
mkdir -p build "$OUT" || exit 1
gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$CUDA/include" tests/gpu/run_ptx.c \
  -L"$CUDA/lib64/stubs" -lcuda -o build/run_ptx || exit 1
sh tests/gpu/gpu_test.sh "$DIR/ex" build/run_ptx >"$OUT/gpu-test.txt" 2>&1
echo "gpu-test: $(tail -n 1 "$OUT/gpu-test.txt")"
EXPECT=$DIR/kernels.expect
if [ -n "${ONLY:-}" ]; then  # ONLY=REGEX: just the benchmark kernels whose names match
  awk -v re="$ONLY" '/^kernel /{keep = $2 ~ re} NR == 1 || keep' "$EXPECT" >"$OUT/only.expect"
  EXPECT=$OUT/only.expect
fi
# bench NAME [--flush]: the table into NAME.md, bench.py's stderr into NAME.err
bench() {
  python3 bench/gpu/bench.py $2 --reps 50 --n 8192 --lyt build/run_ptx "$DIR/kernels.ptx" \
    "$EXPECT" >"$OUT/$1.md" 2>"$OUT/$1.err"
  echo "bench${2:+ $2}: $(grep -c '^| lyt' "$OUT/$1.md") lyt rows"
}
if [ -z "${SKIP_BENCH:-}" ]; then
  bench results
  [ -z "${FLUSH:-}" ] || bench results-flush --flush
fi
if [ -n "${CONVERT:-}" ]; then
  python3 bench/gpu/convert.py --lyt build/run_ptx "$DIR" --ncu "$OUT/convert-ncu.md" \
    >"$OUT/convert.md" 2>"$OUT/convert.err"
  echo "convert: $(grep -c '^| [a-z]' "$OUT/convert.md") rows"
fi
if [ -n "${CONFLICTS:-}" ]; then
  ncu=$CUDA/bin/ncu
  m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  # The hardware counters above also count wavefronts lost to other traffic
  # in the L1 data stage (seen at 8192^2 for kernels whose every access is
  # conflict-free by construction); the SASS-level counts, where this ncu
  # has them, count each instruction's own wavefronts.
  "$ncu" --query-metrics >"$OUT/metrics.txt" 2>&1
  for x in smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld \
           smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st \
           smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld \
           smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st \
           smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st \
           sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm \
           sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm; do
    grep -q "^$x " "$OUT/metrics.txt" && m=$m,$x.sum
  done
  "$ncu" --csv --metrics "$m" build/run_ptx "$DIR/kernels.ptx" "$EXPECT" \
    >"$OUT/conflicts.txt" 2>&1
  echo "conflicts: $(grep -c bank_conflicts "$OUT/conflicts.txt") rows"
fi
if [ -n "${DRAM:-}" ]; then
  m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
  m=$m,lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct
  "$CUDA/bin/ncu" --csv --metrics "$m" build/run_ptx "$DIR/kernels.ptx" "$EXPECT" \
    >"$OUT/dram.txt" 2>&1
  echo "dram: $(grep -c dram__bytes_read "$OUT/dram.txt") rows"
fi
