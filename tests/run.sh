#!/bin/sh
# The whole test suite: unit tests of the cores, golden tests, the
# examples, the differential data, the bad-input catalogue and the
# command-line tests. Each part ends with "N passed, M failed"; a part
# that cannot run some checks (a tool is missing) says so with lines
# "skip K: why", K the checks not run. This script adds them up, names
# every skipped group at the end, prints "N passed, M failed, K skipped"
# and exits non-zero on any failure, and also on any skip when
# LYT_NO_SKIP=1 (CI sets it: there every tool must be installed).
B=${1:-build}
total_p=0; total_f=0; total_s=0
skipped=$(mktemp) || exit 1
trap 'rm -f "$skipped"' EXIT
part() {
  name=$1; shift
  out=$("$@" 2>&1); rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  p=$(printf '%s' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
  f=$(printf '%s' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
  if [ -z "$p" ]; then p=0; f=1; fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  if [ "$f" -ne 0 ]; then printf '%s\n' "$out" | grep -v '^PASS' | head -n 60; fi
  s=0
  for k in $(printf '%s\n' "$out" | sed -n 's/^skip \([0-9]*\): .*/\1/p'); do s=$((s + k)); done
  printf '%s\n' "$out" | sed -n "s/^skip \([0-9]*\): \(.*\)/  $name: \1 checks not run: \2/p" >>"$skipped"
  if [ "$s" -ne 0 ]; then printf '%-10s %s, %s skipped\n' "$name" "$last" "$s"
  else printf '%-10s %s\n' "$name" "$last"; fi
  total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + s))
}
part unit     "$B/test_stride"
part unit-gf2 "$B/test_linear"
part image    "$B/test_image"
part parse    "$B/test_parse" $(find examples stdlib tests -name '*.lyt' | sort) tests/errors/*.txt \
  tests/limits/limits.txt tests/fuzz/corpus/parse/*
part unit-axe "$B/test_axe"
part axisinfo "$B/test_axisinfo"
part nested   "$B/test_nested"
part kernel   "$B/test_kernel"
part kinds    "$B/test_kinds"
part threads  "$B/test_threads"
part lim-api  "$B/test_limits"
part api      "$B/test_api"
part oom      "$B/test_oom" examples/*.lyt tests/kernels/grid.lyt \
  tests/golden/algebra/swizzle.lyt tests/golden/axe/ops.lyt tests/golden/axisinfo/seed003.lyt \
  tests/golden/interop/roundtrip.lyt tests/golden/interop/real_texts.lyt tests/golden/iree/attrs.lyt \
  tests/golden/lang/functions.lyt tests/golden/pictures/linear.lyt tests/golden/pictures/latex_tv.lyt
part api-args "$B/test_api_args"
part golden   "$B/runner" golden $(find tests/golden examples -name '*.lyt' | sort)
part diff     "$B/runner" diff $(find tests/diff -name '*.txt' | sort)
if ls tests/ll/*.txt >/dev/null 2>&1; then
part triton   "$B/runner" diff $(find tests/ll -name '*.txt' | sort)
fi
part errors   "$B/runner" errors $(find tests/errors -name '*.txt' | sort)
part limits   "$B/runner" errors tests/limits/limits.txt
part layering sh tests/layering.sh
part cli      sh tests/cli.sh "$B/lyt"
part kernels  sh tests/kernels.sh "$B/lyt"
part repl     sh tests/repl_survives.sh "$B/lyt"
if command -v python3 >/dev/null 2>&1; then part repl-tty python3 tests/repl_tty.py "$B/lyt"
else part repl-tty sh -c 'echo "skip 11: python3 is not installed"; echo "0 passed, 0 failed"'; fi
part hostile  sh tests/hostile.sh "$B/lyt"
part embed    sh -c "$B/embed | cmp - examples/embed/embed.out && echo '1 passed, 0 failed'"
# Parts whose result does not depend on the build this suite runs in:
# install.sh makes a plain build of its own, pictures.sh checks Chromium's
# rendering of SVG text that every build writes alike (the golden tests
# check that text). CI runs them in its first stage only (LYT_BUILD_ONLY=1
# in the clang and sanitizer stages).
once() {
  if [ "${LYT_BUILD_ONLY:-0}" = 1 ]; then printf '%-10s run by the first stage (the same in every build)\n' "$1"
  else part "$@"; fi
}
once install  sh tests/install.sh
part explain  sh tests/explain.sh "$B/lyt"
once pictures sh tests/pictures.sh "$B/lyt"
for r in "$B"/replay_*; do
  part "fuzz-${r##*/replay_}" "$r" "tests/fuzz/corpus/${r##*/replay_}"
done
if [ "$total_s" -ne 0 ]; then
  echo "skipped:"; cat "$skipped"
  [ "${LYT_NO_SKIP:-0}" = 1 ] && echo "LYT_NO_SKIP=1: every check must run here; install what is missing"
fi
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ] && { [ "${LYT_NO_SKIP:-0}" != 1 ] || [ "$total_s" -eq 0 ]; }
