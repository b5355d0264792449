#!/bin/sh
# make fuzz: run each libFuzzer target (already built in DIR) for SECONDS
# on a copy of its checked-in corpus, so that a run never changes the
# repository. A finding (crash, sanitizer report, leak, an input slower
# than 20 s, more than 2 GiB) is kept in DIR/findings/ and the target goes
# on for the rest of its time. One line per target: executions, exec/s,
# coverage (edges and features) and findings; exits 1 if anything was
# found. To keep a finding as a regression test, copy it into
# tests/fuzz/corpus/TARGET/ once it is fixed.
#   usage: tests/fuzz/run.sh DIR SECONDS TARGET...
set -u
dir=$1 secs=$2; shift 2
root=$(pwd)
mkdir -p "$dir/findings"
cd "$dir" || exit 1
total=0
for t; do
  rm -rf "corpus_$t" && cp -r "$root/tests/fuzz/corpus/$t" "corpus_$t" || exit 1
  left=$secs execs=0 found=0 : >"fuzz_$t.log"
  while [ "$left" -gt 0 ]; do
    t0=$(date +%s)
    "./fuzz_$t" -max_total_time="$left" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="findings/$t-" "corpus_$t" >"run_$t.log" 2>&1 || found=$((found + 1))
    cat "run_$t.log" >>"fuzz_$t.log"
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "run_$t.log" | tail -n 1)
    execs=$((execs + ${n:-0}))
    left=$((left - ($(date +%s) - t0) - 1))
  done
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "fuzz_$t.log" | tail -n 1)
  printf '%-9s %6d s %10d executions %7d exec/s  %s  corpus %d  findings %d\n' "$t" "$secs" \
    "$execs" $((execs / (secs > 0 ? secs : 1))) "${cov:-cov: ? ft: ?}" "$(ls "corpus_$t" | wc -l)" "$found"
  total=$((total + found))
done
[ "$total" -eq 0 ] || { echo "findings in $dir/findings:"; ls "findings"; exit 1; }
