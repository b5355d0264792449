#!/bin/sh
# lyt --explain against what Triton 3.6 itself compiled (tests/data/ttgir).
# - Every module in cvt/ is one ttg.convert_layout between a load and a
#   store, compiled by Triton on the GPU machine (tests/gen/triton/
#   cvt_oracle.py); its PTX counts say what Triton did: shared memory if
#   it has st.shared, ld.shared, stmatrix or ldmatrix, warp shuffles if
#   shfl.sync, neither otherwise (lyt's none and registers both move no
#   data between threads). lyt's mechanism must say the same.
# - Every real dump: each conversion's mechanism equals the PTX verdict of
#   its own single-conversion module (cvt/<kernel>_<k>), every encoding
#   alias is read and laid out, and nothing is unknown; the text form has
#   one block per conversion.
# - Every conversion through shared memory (cvt/shared.tsv, from
#   tests/gen/triton/cvt_shared.py): the instructions lyt predicts on each
#   side, ldmatrix/stmatrix exactly as the PTX spells them and plain
#   ld/st.shared by their width in bits, each with its count per thread,
#   are the PTX's.
# - Whole dumps: the shared-memory instructions lyt predicts (conversions,
#   local_alloc/local_load/local_store, cp.async by size) are the PTX's;
#   local/ checks local_alloc and local_load on their own.
# - Malformed modules are errors at file:line:col with a caret.
#   sh tests/explain.sh [path/to/lyt]
LYT=${1:-build/lyt}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
TAB=$(printf '\t')

# the mechanisms of the conversions in a JSON explanation, one per line
mechanisms() { sed 's/"memory":.*//' "$1" | grep -o '"mechanism":"[a-z]*"' | sed 's/.*:"//; s/"//'; }
# what the PTX of a case shows: shfl st_shared ld_shared stmatrix ldmatrix
ptx_verdict() {
  if [ $(($2 + $3 + $4 + $5)) -gt 0 ]; then echo shared
  elif [ "$1" -gt 0 ]; then echo shuffle
  else echo none; fi
}
case_verdict() {
  line=$(grep "^$1$TAB" "$D/cvt/ptx_counts.tsv") || { echo missing; return; }
  set -- $(printf '%s\n' "$line" | cut -f2-6 | tr "$TAB" ' ')
  ptx_verdict "$@"
}
same() { [ "$1" = "$2" ] || { [ "$1" = registers ] && [ "$2" = none ]; }; }
# a kernel's PTX forms, one "form*count" per line, as lyt names them: plain
# accesses by their bits ("st.shared, 64 bits"), counts summed, joined by ';'
norm_forms() {
  awk -F'*' '
    /^(st|ld)\.shared/ { n = 1; w = 0; k = split($1, p, ".")
      for (i = 3; i <= k; i++) { if (p[i] ~ /^v[0-9]+$/) n = substr(p[i], 2); if (p[i] ~ /^b[0-9]+$/) w = substr(p[i], 2) }
      c[p[1] ".shared, " n * w " bits"] += $2; next }
    $1 != "-" && NF { c[$1] += $2 }
    END { for (f in c) print f "*" c[f] }' | sort | tr '\n' ';'
}
# the shared-memory accesses of an explanation (conversions' sides and
# memory ops), "ptx*count" summed per form
lyt_forms() {
  grep -o '"ptx":"[^"]*","elements":[0-9]*,"bits":[0-9]*,"per_thread":[0-9]*' "$1" \
    | sed 's/"ptx":"\([^"]*\)".*"per_thread":\([0-9]*\)/\1*\2/' \
    | awk -F'*' '{c[$1] += $2} END {for (f in c) print f "*" c[f]}' | sort | tr '\n' ';'
}
# the same forms in a whole kernel's PTX, cp.async by its size
# ("cp.async.cg.shared.global, 16 bytes")
kernel_forms() {
  { grep -oE '\b((st|ld)\.shared[.a-z0-9]*|(st|ld)matrix[.a-z0-9]*)' "$1"
    grep -oE 'cp\.async\.c[ag]\.shared\.global [^;]*' "$1" \
      | awk -F', *' '{split($1, a, " "); h = tolower($3); sub(/^0x/, "", h); n = 0
          for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
          printf "%s, %d bytes\n", a[1], n}'
  } | sort | uniq -c | awk '{n = $1; $1 = ""; sub(/^ /, ""); print $0 "*" n}' | norm_forms
}

# One pass of awk over a table of cases, each explained beforehand into
# $T/c_<case> (its errors in $T/e_<case>): a line "ok" or "bad <why>" per
# case. mode=mech: ptx_counts.tsv, the mechanism against the PTX's verdict
# (lyt's registers and none both move nothing between threads); mode=forms:
# shared.tsv or ptx.tsv, the shared-memory forms lyt predicts (conversions'
# sides and memory ops, "ptx*count" summed per form) against the PTX's,
# plain accesses by their bits ("st.shared, 64 bits").
CASES_AWK='
function joined(c,   k, n, key, i, j, t, out) {
  n = 0
  for (k in c) key[++n] = k "*" c[k]
  for (i = 2; i <= n; i++) {
    t = key[i]
    for (j = i - 1; j >= 1 && key[j] > t; j--) key[j + 1] = key[j]
    key[j + 1] = t
  }
  out = ""
  for (i = 1; i <= n; i++) out = out key[i] ";"
  return out
}
function ptx_forms(s,   a, n, i, f, p, k, v, w, j, c) {
  split("", c)
  n = split(s, a, " ")
  for (i = 1; i <= n; i++) {
    if (!match(a[i], /\*[0-9]+$/)) continue
    f = substr(a[i], 1, RSTART - 1)
    if (f ~ /^(st|ld)\.shared/) {
      k = split(f, p, "."); v = 1; w = 0
      for (j = 3; j <= k; j++) {
        if (p[j] ~ /^v[0-9]+$/) v = substr(p[j], 2)
        if (p[j] ~ /^b[0-9]+$/) w = substr(p[j], 2)
      }
      f = p[1] ".shared, " v * w " bits"
    }
    c[f] += substr(a[i], RSTART + 1)
  }
  return joined(c)
}
function lyt_forms(js,   c, m, f, n) {
  split("", c)
  while (match(js, /"ptx":"[^"]*","elements":[0-9]+,"bits":[0-9]+,"per_thread":[0-9]+/)) {
    m = substr(js, RSTART, RLENGTH); js = substr(js, RSTART + RLENGTH)
    f = m; sub(/^"ptx":"/, "", f); sub(/",.*/, "", f)
    n = m; sub(/.*"per_thread":/, "", n)
    c[f] += n
  }
  return joined(c)
}
function mechanisms(js,   out) {
  sub(/"memory":.*/, "", js); out = ""
  while (match(js, /"mechanism":"[a-z]*"/)) {
    out = out (out == "" ? "" : " ") substr(js, RSTART + 13, RLENGTH - 14)
    js = substr(js, RSTART + RLENGTH)
  }
  return out
}
function verdict(shfl, st, ld, stm, ldm) {
  return st + ld + stm + ldm > 0 ? "shared" : shfl > 0 ? "shuffle" : "none"
}
BEGIN { FS = "\t" }
/^#/ || (mode == "forms" && $1 == skip) { next }
{
  if ($2 == "error") { print "bad " $1 ": Triton did not compile it (" $3 ")"; next }
  js = ""; err = ""
  if ((getline js < (T "/c_" $1)) <= 0) js = ""
  close(T "/c_" $1)
  if (js == "") {
    getline err < (T "/e_" $1); close(T "/e_" $1)
    print "bad " $1 ": " err; next
  }
  if (mode == "mech") {
    want = verdict($2, $3, $4, $5, $6); got = mechanisms(js)
    if (got == want || (got == "registers" && want == "none")) print "ok"
    else print "bad " $1 ": lyt says \047" got "\047, Triton\047s PTX shows " want
  } else {
    want = ptx_forms($2); got = lyt_forms(js)
    if (got == want) print "ok"
    else print "bad " $1 ": shared memory: lyt predicts \047" got "\047, the PTX has \047" want "\047"
  }
}'
# explain every module of a folder once: $T/c_<case>, errors in $T/e_<case>
explain_all() {
  for m in "$1"/*.ttgir; do
    c=$(basename "$m" .ttgir)
    "$LYT" --explain=json "$m" >"$T/c_$c" 2>"$T/e_$c" || : >"$T/c_$c"
  done
}
# the verdicts of CASES_AWK: mode, table, [a case to skip]
judge() {
  awk -v mode="$1" -v T="$T" -v skip="${3:-}" "$CASES_AWK" "$2" >"$T/verdicts"
  while read -r r why; do
    if [ "$r" = ok ]; then ok; else bad "$why"; fi
  done <"$T/verdicts"
}

# check DIR: its single-conversion modules (DIR/cvt) against their PTX, its
# dumps against their own PTX and their conversions' modules
check() {
  D=$1
  n=$(grep -vc '^#' "$D/cvt/ptx_counts.tsv")
  explain_all "$D/cvt"
  judge mech "$D/cvt/ptx_counts.tsv"
  judge forms "$D/cvt/shared.tsv"

  for f in "$D"/*.ttgir; do
    k=$(basename "$f" .ttgir)
    if ! "$LYT" --explain=json "$f" >"$T/j" 2>"$T/err"; then bad "$k: $(head -1 "$T/err")"; continue; fi
    i=0
    for m in $(mechanisms "$T/j"); do
      want=$(case_verdict "${k}_$i")
      same "$m" "$want" && ok || bad "$k conversion $i: lyt says '$m', its module's PTX shows $want"
      i=$((i + 1))
    done
    [ "$i" -eq "$(grep -c 'ttg\.convert_layout' "$f")" ] && ok || bad "$k: $i conversions explained"
    grep -q '"unknown":\[\]' "$T/j" && ok || bad "$k: something is unknown: $(grep -o '"unknown":.*' "$T/j")"
    # every alias but locations is an encoding; each laid out or a memory space
    aliases=$(grep -c '^#[A-Za-z_0-9]* = #' "$f")
    [ "$(grep -o '"name":"#[^"]*","line"' "$T/j" | wc -l)" -eq "$aliases" ] && ok || bad "$k: not every alias read"
    [ "$(grep -o '"linear":null,"note":"no type' "$T/j" | wc -l)" -eq 0 ] && ok || bad "$k: an encoding not laid out"
    # global accesses: per PTX form, the accesses lyt predicts = the kernel's ld/st.global
    for kind in load store; do
      pre=ld; [ $kind = store ] && pre=st
      want=$(grep -oE "\b$pre\.global(\.[a-z0-9]+)*" "$D/$k.ptx" | sed 's/^..\.global\.//' | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')
      got=$(grep -oE "\"op\":\"tt\.$kind\",\"tensor\":(\"[^\"]*\"|null),\"encoding\":(\"[^\"]*\"|null),\"vector\":[0-9]*,\"ptx\":\"[^\"]*\",\"accesses\":[0-9]*" "$T/j" \
        | sed 's/.*"ptx":"\([^"]*\)","accesses":\([0-9]*\)/\1 \2/' \
        | awk '{n[$1] += $2} END {for (f in n) print f "=" n[f]}' | sort | tr '\n' ' ')
      [ "$got" = "$want" ] && ok || bad "$k: global ${kind}s: lyt predicts '$got', the PTX has '$want'"
    done
    # shared memory: the kernel's PTX has every access lyt predicts
    # (conversions' sides, local ops, async copies); a kernel with no
    # tt.reduce or tt.scan nothing else (across warps they use it too)
    want=$(kernel_forms "$D/$k.ptx") got=$(lyt_forms "$T/j")
    if grep -q 'tt\.reduce\|tt\.scan' "$f"; then
      printf '%s\n%s\n' "$got" "$want" | awk -F';' 'NR == 1 { for (i = 1; i < NF; i++) g[i] = $i; n = NF - 1 }
        NR == 2 { for (i = 1; i < NF; i++) { split($i, p, "*"); w[p[1]] = p[2] } }
        END { for (i = 1; i <= n; i++) { split(g[i], p, "*"); if (w[p[1]] < p[2]) exit 1 } }' \
        && ok || bad "$k: shared memory: lyt predicts '$got', more than the PTX's '$want'"
    else
      [ "$got" = "$want" ] && ok || bad "$k: shared memory: lyt predicts '$got', the PTX has '$want'"
    fi
    "$LYT" --explain "$f" >"$T/t" && [ "$(grep -c ': ttg.convert_layout ' "$T/t")" -eq "$i" ] \
      && ok || bad "$k: text form"
    "$LYT" --explain=html "$f" >"$T/h" && [ "$(grep -c '</span></h3>' "$T/h")" -eq "$i" ] \
      && grep -q '</html>' "$T/h" && ok || bad "$k: html form"
  done
}

check tests/data/ttgir
[ "$n" -ge 180 ] && ok || bad "only $n single-conversion cases"
check tests/data/ttgir/more  # compiled after explain was written
check tests/data/ttgir/third  # compiled after the shared-memory model was written

# local/: a tensor through a buffer of a shared layout (local_alloc, then
# local_load; tests/gen/triton/local_oracle.py): each op's instruction,
# width and count are the PTX's. loc_012: LLVM splits half of the 16
# 128-bit ld.shared lyt predicts (Triton's choice) into two 64-bit ones,
# an alignment of the XOR-swizzled address it cannot prove.
nl=$(grep -vc '^#' tests/data/ttgir/local/ptx.tsv)
explain_all tests/data/ttgir/local
judge forms tests/data/ttgir/local/ptx.tsv loc_012
[ "$nl" -ge 120 ] && ok || bad "only $nl local cases"

# a log of several dumps (MLIR_ENABLE_DUMP): aliases defined again replace the old ones
D=tests/data/ttgir
{ cat "$D/column_sum.ttgir"; echo '// -----// IR Dump After Foo (foo) //----- //'; cat "$D/transpose.ttgir"; } >"$T/log.ttgir"
"$LYT" --explain=json "$T/log.ttgir" >"$T/j" && [ "$(mechanisms "$T/j" | tr '\n' ' ')" = "shared shared " ] \
  && ok || bad "a log of two dumps: $(mechanisms "$T/j" | tr '\n' ' ')"

# explain() from inside a function of a script that never imported the stdlib
printf 'fn f(t) = explain(t, "m", "json")\nprint f("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\\n")\n' >"$T/f.lyt"
"$LYT" "$T/f.lyt" >"$T/out" 2>&1 && grep -q '"name":"#b"' "$T/out" && ok || bad "explain inside a function: $(head -2 "$T/out")"

# an scf.if merges its own branches, not a nested if's: both of the outer
# if's yield the aligned pointer, so the load is 128 bits wide
cat >"$T/if.ttgir" <<'EOF'
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %f: i1) attributes {noinline = false} {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %one = arith.constant dense<1> : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %pa = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %pb = tt.addptr %pa, %one : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %q = scf.if %f -> (tensor<512x!tt.ptr<f32>, #b>) {
      %n = scf.if %f -> (tensor<512x!tt.ptr<f32>, #b>) {
        scf.yield %pb : tensor<512x!tt.ptr<f32>, #b>
      } else {
        scf.yield %pb : tensor<512x!tt.ptr<f32>, #b>
      }
      scf.yield %pa : tensor<512x!tt.ptr<f32>, #b>
    } else {
      scf.yield %pa : tensor<512x!tt.ptr<f32>, #b>
    }
    %v = tt.load %q : tensor<512x!tt.ptr<f32>, #b>
    %so = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %po = tt.addptr %so, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    tt.store %po, %v : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
EOF
"$LYT" --explain=json "$T/if.ttgir" >"$T/j" && grep -q '"op":"tt.load".*"vector":4,"ptx":"v4.b32"' "$T/j" \
  && ok || bad "nested scf.if: $(grep -o '"op":"tt.load"[^}]*' "$T/j")"

# ttg.warp_specialize's regions, labelled "default {" and "partition0(...)
# num_warps(4) {", hold ops as any region does: the load in the partition
# is explained (its pointer comes in through the region, so "at least")
cat >"$T/ws.ttgir" <<'EOF'
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) attributes {noinline = false} {
    ttg.warp_specialize(%arg0, %arg1) attributes {requestedRegisters = array<i32: 24>, warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    partition0(%arg2: !tt.ptr<f32>, %arg3: i32) num_warps(4) {
      %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
      %s = tt.splat %arg2 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
      %p = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %v = tt.load %p : tensor<512x!tt.ptr<f32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<f32>, i32) -> ()
    tt.return
  }
}
EOF
"$LYT" --explain=json "$T/ws.ttgir" >"$T/j" && grep -q '"op":"tt.load".*"exact":false' "$T/j" \
  && grep -q '"unknown":\[\]' "$T/j" && ok || bad "warp_specialize: $(head -c 300 "$T/j")"

# tensor memory: both its encodings laid out (the scales one as Triton
# 3.6's tensorMemoryScalesToLinearLayout), the module explained
cat >"$T/tmem.ttgir" <<'EOF'
#s = #ttng.tensor_memory_scales_encoding<>
#t = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @f(%a: !ttg.memdesc<128x8xi8, #s, #ttng.tensor_memory>, %b: !ttg.memdesc<128x64xf32, #t, #ttng.tensor_memory>) {
    tt.return
  }
}
EOF
"$LYT" --explain=json "$T/tmem.ttgir" >"$T/j" && grep -q '"name":"#s".*"linear":"{row: \[\[1,0\],\[2,0\],\[4,0\],\[8,0\],\[16,0\],\[0,0\],\[0,0\]\], col: \[\[0,1\],\[0,2\],\[32,0\],\[64,0\],\[0,4\]\]}' "$T/j" \
  && grep -q '"name":"#t".*"linear":"{row: ' "$T/j" && ok || bad "tensor memory: $(head -c 300 "$T/j")"

# malformed modules: located errors, exit 1, never a crash
err() {  # name text expected-location expected-message
  printf '%b' "$2" >"$T/$1.ttgir"
  "$LYT" --explain "$T/$1.ttgir" >/dev/null 2>"$T/e"; rc=$?
  if [ $rc -eq 1 ] && grep -q "^$T/$1.ttgir:$3: error: .*$4" "$T/e" && grep -q '\^' "$T/e"; then ok
  else bad "$1: rc $rc, $(head -3 "$T/e")"; fi
}
B='#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n'
M='module attributes {"ttg.num-warps" = 4 : i32} {\n'
err unbalanced "$B$M  %0 = ttg.convert_layout %x : tensor<64xf32, #b -> tensor<64xf32, #b>\n}\n" 3:38 'unbalanced'
err noname "$B$M  %0 = 42\n}\n" 3:8 'expected an op name'
err badfield "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], bogus = 1}>\n$M  %0 = ttg.convert_layout %x : tensor<64xf32, #b> -> tensor<64xf32, #b>\n}\n" 1:6 'bogus'
err badalias "#b = \n" 1:6 'no attribute'
err onetype "$B$M  %0 = ttg.convert_layout %x : tensor<64xf32, #b>\n}\n" 3:32 'needs'
err nothing "hello\n" 1:1 'expected an op name'
err empty "" 1:1 'no TTGIR module'
deep=$(i=0; while [ $i -lt 70 ]; do printf '  scf.for %%i = %%a to %%b step %%c : i32 {\\n'; i=$((i + 1)); done)
shut=$(i=0; while [ $i -lt 71 ]; do printf '  }\\n'; i=$((i + 1)); done)
err deep "$B$M$deep$shut" 66:1 'nested more than 64 deep'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
