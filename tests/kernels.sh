#!/bin/sh
# The kernels of examples/kernels and tests/kernels through every backend: the C is compiled
# with -Wall -Werror, run over inputs holding each element's own index and
# compared element by element with what lyt computes from the src/dst
# layouts (--emit=expect); the PTX goes through ptxas for sm_80, sm_90 and sm_100,
# the AMDGCN through llvm-mc for gfx90a (LLVM 14) and gfx942 (LLVM 19) and
# ld.lld. A missing tool skips its checks with a printed reason. The C is
# compiled at -O1 (some warnings need the optimizer) without -g: debug
# information for a conversion's long kernels doubles the compile time.
# The files are checked two at a time (xargs -P 2, each by this script
# with --one FILE, which prints "ok", "FAIL why" and "passed N" lines).
LYT=${1:-build/lyt}
ONE=${3:-}
[ "${2:-}" = "--one" ] || ONE=
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
MC14=$(command -v llvm-mc-14 || command -v llvm-mc)
MC19=$(command -v llvm-mc-19 || ls /usr/lib/llvm-19/bin/llvm-mc 2>/dev/null)
LLD14=$(command -v ld.lld-14 || command -v ld.lld)
LLD19=$(command -v ld.lld-19 || ls /usr/lib/llvm-19/bin/ld.lld 2>/dev/null)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' >"$T/t.c"
cc $SAN "$T/t.c" -o "$T/t" 2>/dev/null || SAN=
FILES=$(ls examples/kernels/*.lyt tests/kernels/*.lyt)
if [ -z "$ONE" ]; then
n=$(printf '%s\n' "$FILES" | wc -l)
[ -n "$PTXAS" ] || echo "skip $((3 * n + 1)): ptxas not found (CUDA toolkit), PTX not assembled"
[ -n "$MC14" ] || echo "skip $n: llvm-mc not found, gfx90a not assembled"
[ -n "$MC19" ] || echo "skip $n: llvm-mc 19 not found (apt-get install llvm-19), gfx942 not assembled"
[ -n "$LLD14" ] || echo "skip $n: ld.lld not found, gfx90a code objects not linked"
[ -n "$LLD19" ] || echo "skip $n: ld.lld 19 not found (apt-get install lld-19), gfx942 code objects not linked"
fi

# amd TARGET MC LLD FILE: assemble (any diagnostic fails), then link.
amd() {
  "$2" -triple=amdgcn-amd-amdhsa -mcpu="$1" -filetype=obj "$4" -o "$T/k.o" 2>"$T/mc.log" \
    && [ ! -s "$T/mc.log" ] && { [ -z "$3" ] || "$3" -shared "$T/k.o" -o "$T/k.hsaco" 2>"$T/mc.log"; }
}

# check FILE: every backend's checks of one file
check() {
  f=$1
  n=$(basename "$f" .lyt)
  if "$LYT" --emit=c "$f" >"$T/$n.c" && "$LYT" --emit=expect "$f" >"$T/$n.expect" \
     && cc -std=c11 -O1 -Wall -Wextra -Werror $SAN "$T/$n.c" tests/kernels/run_c.c -o "$T/$n"; then
    out=$("$T/$n" "$T/$n.expect"); rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    [ "$rc" -eq 0 ] && [ -n "$p" ] && echo "passed $p" || { printf '%s\n' "$out"; echo "FAIL $n: C run"; }
  else
    echo "FAIL $n: C backend"
  fi
  if [ -n "$PTXAS" ]; then
    for sm in sm_80 sm_90 sm_100; do
      "$LYT" --emit=ptx:$sm "$f" >"$T/$n.ptx" && "$PTXAS" -arch=$sm "$T/$n.ptx" -o "$T/$n.cubin" \
        && echo ok || echo "FAIL $n: ptxas $sm"
    done
  fi
  if [ -n "$MC14" ]; then
    "$LYT" --emit=amdgcn:gfx90a "$f" >"$T/$n.s" && amd gfx90a "$MC14" "$LLD14" "$T/$n.s" \
      && echo ok || { head -5 "$T/mc.log"; echo "FAIL $n: llvm-mc gfx90a"; }
  fi
  if [ -n "$MC19" ]; then
    "$LYT" --emit=amdgcn:gfx942 "$f" >"$T/$n.s" && amd gfx942 "$MC19" "$LLD19" "$T/$n.s" \
      && echo ok || { head -5 "$T/mc.log"; echo "FAIL $n: llvm-mc gfx942"; }
  fi
}
if [ -n "$ONE" ]; then check "$ONE"; exit 0; fi

# Every target in lyt's table of code generators (backends/targets.c, as
# the help lists it) must be one this script checks.
for t in $("$LYT" --help | sed -n 's/^ *TARGET: //p' | sed 's/([^)]*)//g; s/,/ /g'); do
  case $t in c|ptx|amdgcn|expect) ok ;; *) bad "target $t: no checks in tests/kernels.sh" ;; esac
done

printf '%s\n' "$FILES" |
  xargs -P 2 -I{} sh "$0" "$LYT" --one {} >"$T/files.log" 2>&1
while IFS= read -r line; do
  case $line in
    ok) ok ;;
    "passed "*) pass=$((pass + ${line#passed })) ;;
    "FAIL "*) bad "${line#FAIL }" ;;
    *) printf '%s\n' "$line" ;;
  esac
done <"$T/files.log"

# The bandwidth benchmark's kernels: the file's asserts hold (the kernels it
# calls conflict-free are), lyt's shared wavefronts equal the H100's counts
# (wavefronts_h100.lyt imports kernels.lyt and phases.lyt), and the PTX of
# all of them assembles; they run on the GPU only.
if "$LYT" --emit=ptx bench/gpu/wavefronts_h100.lyt >"$T/bench.ptx" 2>"$T/bench.err"; then
  ok
  if [ -n "$PTXAS" ]; then
    "$PTXAS" -arch=sm_90 "$T/bench.ptx" -o "$T/bench.cubin" && ok || bad "bench: ptxas sm_90"
  fi
else
  head -5 "$T/bench.err"; bad "bench/gpu/wavefronts_h100.lyt"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
