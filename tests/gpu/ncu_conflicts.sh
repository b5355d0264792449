#!/bin/sh
# ncu_conflicts.sh RUN_PTX MODULE.ptx EXPECT.txt
#
# Runs the run_ptx harness (check mode, no --bench) under Nsight Compute and
# reports the shared-memory bank conflicts of every kernel in EXPECT.txt:
#
#   conflicts NAME ld=X st=Y wavefronts lyt=W ncu=V
#
# X and Y are l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum,
# i.e. shared-memory wavefronts beyond the ideal number, as the L1 counts
# them: that count also takes in wavefronts lost to other L1 traffic (a few,
# now and then, in kernels whose accesses are conflict-free by
# construction). W is what lyt's bank model counts in the grid (the
# expect file's "# wavefronts" comment), V the SASS-level count of every
# shared load, store, ldmatrix and stmatrix
# (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st},
# sm__sass_..._op_{ldsm,stsm}), which counts each instruction's own
# wavefronts. Where this ncu has the SASS counters, V must equal W (lyt's
# model is the hardware's), or be less where the model counts no conflict
# (then the hardware had none either: seen by 1% on an H200 where four
# warps load the same 2-byte elements); where it has not, X and Y must be
# 0. run_ptx
# launches a kernel once per check pass (several passes for 1- and 2-byte
# elements); the largest count over a kernel's launches is reported ("n/a"
# if ncu reported nothing for it).
#
# Exit status: 0 model = hardware (or no conflicts); 1 not (0 anyway with
# ALLOW_CONFLICTS=1); 2 usage error, harness failure or missing ncu data.
# ncu is /usr/local/cuda/bin/ncu, else the one on PATH, or $NCU if set; if
# there is none the script prints "skip: ncu not found" and exits 0.
# Profiling needs access to the GPU performance counters (root, or the
# NVreg_RestrictProfilingToAdminUsers=0 driver option).

set -u

if [ $# -ne 3 ]; then
    echo "usage: $0 RUN_PTX MODULE.ptx EXPECT.txt" >&2
    exit 2
fi
run_ptx=$1
ptx=$2
expect=$3

ncu=${NCU:-}
if [ -z "$ncu" ]; then
    if [ -x /usr/local/cuda/bin/ncu ]; then
        ncu=/usr/local/cuda/bin/ncu
    elif command -v ncu >/dev/null 2>&1; then
        ncu=$(command -v ncu)
    else
        echo "skip: ncu not found"
        exit 0
    fi
fi

m_ld=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
m_st=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ncu_conflicts.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# The SASS-level wavefront counters this ncu has.
"$ncu" --query-metrics >"$tmp/metrics" 2>&1
sass=
for x in smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld \
         smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st \
         sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm \
         sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm; do
  grep -q "^$x " "$tmp/metrics" && sass=$sass,$x.sum
done
# lyt's counts, from the expect file
awk '$1 == "#" && $2 == "wavefronts" { print $3, $4, $6 }' "$expect" >"$tmp/model"

# Kernel names, in expect-file order (this also validates the file).
if ! "$run_ptx" --list "$expect" >"$tmp/list" 2>"$tmp/list.err"; then
    cat "$tmp/list.err" >&2
    echo "error: $run_ptx --list $expect failed" >&2
    exit 2
fi
awk '$1 == "kernel" { print $2 }' "$tmp/list" >"$tmp/names"

# The harness's own output stays on stdout/stderr files; ncu's (the CSV and
# its ==PROF== lines) goes to the log file.
"$ncu" --csv --metrics "$m_ld,$m_st$sass" --log-file "$tmp/ncu.csv" \
    "$run_ptx" "$ptx" "$expect" >"$tmp/app.out" 2>"$tmp/app.err"
rc=$?

status=0
if [ $rc -ne 0 ] || grep -q '^FAIL' "$tmp/app.out"; then
    echo "error: $run_ptx under ncu exited with status $rc:" >&2
    cat "$tmp/app.out" "$tmp/app.err" >&2
    status=2
fi
if grep -q '==ERROR==' "$tmp/ncu.csv" 2>/dev/null; then
    grep '==ERROR==' "$tmp/ncu.csv" >&2
    status=2
fi

if [ ! -s "$tmp/ncu.csv" ]; then
    echo "error: ncu wrote no output" >&2
    exit 2
fi

# Parse the CSV (every field is double-quoted; numbers may carry thousands
# separators). Columns are found by their header names.
awk -v m_ld="$m_ld" -v m_st="$m_st" -v allow="${ALLOW_CONFLICTS:-0}" \
    -v names="$tmp/names" -v status="$status" -v model="$tmp/model" -v sass="$sass" '
function csv(line, f,    n, i, c, q, cur, len) {
    n = 0; cur = ""; q = 0; len = length(line)
    for (i = 1; i <= len; i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"") {
                if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
                else q = 0
            } else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    sub(/\r$/, "", cur)
    f[++n] = cur
    return n
}
function kname(s) {
    sub(/^[ \t]+/, "", s); sub(/[ \t(].*$/, "", s)    # drop "(params)" if any
    return s
}
BEGIN { hdr = 0 }
substr($0, 1, 1) != "\"" { next }
{
    n = csv($0, f)
    if (!hdr) {
        for (i = 1; i <= n; i++) col[f[i]] = i
        if (("Kernel Name" in col) && ("Metric Name" in col) && ("Metric Value" in col)) {
            hdr = 1; ck = col["Kernel Name"]; cm = col["Metric Name"]; cv = col["Metric Value"]
        } else delete col
        next
    }
    if (n < cv) next
    k = kname(f[ck]); m = f[cm]; v = f[cv]
    gsub(/[ ,]/, "", v)
    if (m == m_ld) which = "ld"; else if (m == m_st) which = "st"
    else if (m ~ /^sm.*__sass_.*wavefronts/) which = m
    else next
    if (v !~ /^[0-9]+(\.[0-9]+)?$/) { bad[k] = 1; next }
    key = k SUBSEP which
    if (!(key in val) || v + 0 > val[key] + 0) val[key] = v + 0
}
END {
    rc = status + 0
    if (!hdr) {
        print "error: no metrics in the ncu output (see below)" > "/dev/stderr"
        rc = 2
    }
    while ((getline line < model) > 0) { split(line, w, " "); lyt[w[1]] = w[2]; lytc[w[1]] = w[3] }
    conflicts = 0
    while ((getline k < names) > 0) {
        ld = ((k SUBSEP "ld") in val) ? val[k SUBSEP "ld"] : "n/a"
        st = ((k SUBSEP "st") in val) ? val[k SUBSEP "st"] : "n/a"
        hw = 0
        for (key in val) { split(key, kk, SUBSEP); if (kk[1] == k && kk[2] ~ /wavefronts/) hw += val[key] }
        printf "conflicts %s ld=%s st=%s", k, ld, st
        if (sass != "") printf " wavefronts lyt=%s ncu=%d", (k in lyt) ? lyt[k] : "n/a", hw
        printf "\n"
        if (ld == "n/a" || st == "n/a" || (k in bad)) { if (rc < 2) rc = 2 }
        else if (sass == "" && (ld + 0 > 0 || st + 0 > 0)) conflicts = 1
        else if (sass != "" && (!(k in lyt) || hw > lyt[k] + 0 || (hw < lyt[k] + 0 && lytc[k] + 0 > 0)))
            conflicts = 1
    }
    if (conflicts && allow != "1" && rc == 0) rc = 1
    exit rc
}' "$tmp/ncu.csv"
rc=$?
if [ $rc -eq 2 ] && [ -f "$tmp/ncu.csv" ] && ! grep -q '"Metric Value"' "$tmp/ncu.csv"; then
    echo "--- ncu log (last 20 lines) ---" >&2
    tail -n 20 "$tmp/ncu.csv" >&2
fi
exit $rc
