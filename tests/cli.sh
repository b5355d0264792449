#!/bin/sh
# Command-line tests: exit statuses, -e, standard input, diagnostics on
# stderr, and a REPL session (forced with -i, so no terminal is needed).
LYT=${1:-build/lyt}
case $LYT in /*) ;; *) LYT=$(pwd)/$LYT ;; esac
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() {  # name, expected, actual
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fi
}

out=$("$LYT" -e 'print (4,(2,3)):(2,(1,8))'); check "-e prints" "(4,(2,3)):(2,(1,8))" "$out"
"$LYT" -e 'x = 1' >/dev/null 2>&1; check "-e status 0" 0 $?
"$LYT" -e 'print nope' >/dev/null 2>&1; check "-e error status 1" 1 $?
out=$("$LYT" -e 'print nope' 2>&1); check "-e diagnostic" "<string>:1:7: error: unknown name 'nope'
print nope
      ^" "$out"

printf 'a = 3\nprint a * 2\nprint a(1)\nprint "not reached"\n' > "$T/bad.lyt"
out=$("$LYT" "$T/bad.lyt" 2>"$T/err"); rc=$?
check "script runs until the error" "6" "$out"
check "script error status" 1 $rc
check "script diagnostic" "$T/bad.lyt:3:7: error: cannot call an integer
print a(1)
      ^" "$(cat "$T/err")"

# A script's prints are gathered and written in pieces; a diagnostic still
# comes after everything printed before it, in one stream (2>&1), whether
# the prints fit the buffer or overflow it several times.
printf 'print 1\nprint 2\nprint x\n' > "$T/order.lyt"
check "prints before a diagnostic, one stream" "1
2
$T/order.lyt:3:7: error: unknown name 'x'" "$("$LYT" "$T/order.lyt" 2>&1 | head -3)"
awk 'BEGIN { for (i = 0; i < 3000; i++) print "print " i; print "print x" }' > "$T/order2.lyt"
check "3,000 prints, then the diagnostic" "2998
2999
$T/order2.lyt:3001:7: error: unknown name 'x'" "$("$LYT" "$T/order2.lyt" 2>&1 | sed -n '2999,3001p')"
check "-e strings: prints before the failing one's diagnostic" "1
<string>:1:7: error: unknown name 'y'" "$("$LYT" -e 'print 1' -e 'print y' 2>&1 | head -2)"

# A script runs a statement at a time, each statement's tree given back
# once it has run: 30,000 lines run in 8 MB, where keeping every tree
# took more than 16 MB (the text itself is kept, twice: read, and for
# the carets). A syntax error on the last line still stops it all first.
awk 'BEGIN { for (i = 0; i < 30000; i++) print "print coalesce((2,(4,8)):(1,(2,8)))" }' > "$T/long.lyt"
check "30,000 statements in 8 MB" "30000 0" "$("$LYT" --max-memory=8000000 "$T/long.lyt" | grep -c '^64:1$') $?"
printf 'print (' >> "$T/long.lyt"
check "a syntax error at the end: nothing runs" "0 1" "$("$LYT" "$T/long.lyt" 2>/dev/null | wc -l | tr -d ' ') $("$LYT" "$T/long.lyt" >/dev/null 2>&1; echo $?)"

# --emit: a kernel bound to two names is one kernel; two different kernels
# with one name are an error; a script without kernels is one too.
printf 'import "triton.lyt"\nB = to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))\nK = kernel("k", "f32", (64,64):(64,1), (64,64):(64,1), (64,64), load=B)\nK2 = K\n' > "$T/k.lyt"
check "--emit one kernel under two names" 1 "$("$LYT" --emit=ptx "$T/k.lyt" | grep -c '^.visible .entry k(')"
printf 'K3 = kernel("k", "f32", (64,64):(64,1), (64,64):(64,1), (32,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,64)))\n' >> "$T/k.lyt"
check "--emit two kernels, one name, at the later kernel()" "$T/k.lyt:5:6: error: emit: two different kernels are named k" \
  "$("$LYT" --emit=ptx "$T/k.lyt" 2>&1 | head -1)"
# a kernel that only the target refuses: the error points at its kernel()
printf 'import "triton.lyt"\nbig = kernel("big", "f32", (64,64):(64,1), (64,64):(64,1), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64)), smem_bytes=200000)\n' > "$T/big.lyt"
check "--emit: a target's limit, located" "$T/big.lyt:2:7: error: ptx: 'big' needs 200000 bytes of shared memory; a block on sm_80 has at most 166912" \
  "$("$LYT" --emit=ptx:sm_80 "$T/big.lyt" 2>&1 | head -1)"
printf 'x = 1\n' > "$T/none.lyt"
check "--emit without kernels" "error: emit: no kernel is bound to a global" "$("$LYT" --emit=c "$T/none.lyt" 2>&1)"

"$LYT" "$T/missing.lyt" 2>"$T/err"; rc=$?
check "missing file status" 1 $rc
check "missing file message" "error: $T/missing.lyt: cannot open" "$(cat "$T/err")"

# Limits from the command line.
out=$("$LYT" --max-steps=1000 -e 'fn f(n) = if n == 0 then 0 else f(n - 1)
print f(150)' 2>&1 | head -1)
check "--max-steps" "<string>:1:39: error: evaluation step limit reached (1000 steps in one statement)" "$out"
check "--max-steps, a plain run" "3" "$("$LYT" --max-steps=1000 -e 'print 1 + 2')"
out=$("$LYT" --max-memory=1048576 -e 'fn big(n) = if n == 0 then (1,2,3,4) else (big(n-1), big(n-1))
x = big(14)' 2>&1 | head -1)
case $out in *"out of memory budget: the state may hold 1 MiB"*) check "--max-memory" ok ok ;;
  *) check "--max-memory" "out of memory budget" "$out" ;; esac
"$LYT" --max-memory=lots -e 'print 1' >/dev/null 2>&1; check "--max-memory=lots status" 1 $?

# Imports: one file however its path is spelled (a cycle through
# ./sub/../b.lyt ends like one through b.lyt); a FIFO or a directory is an
# error at the import, and never blocks.
LA=$(cd "$(dirname "$LYT")" && pwd)/$(basename "$LYT")
mkdir -p "$T/imp/sub" "$T/imp/d.lyt"
printf 'import "./sub/../b.lyt"\nprint "a"\n' > "$T/imp/a.lyt"
printf 'import "a.lyt"\nprint "b"\n' > "$T/imp/b.lyt"
check "import cycle spelled two ways" "a
b
a" "$(cd "$T/imp" && timeout 10 "$LA" a.lyt 2>&1)"
if mkfifo "$T/imp/f.lyt" 2>/dev/null; then
  printf 'import "f.lyt"\n' > "$T/imp/c.lyt"
  check "import of a FIFO" "c.lyt:1:1: error: f.lyt: is not a regular file" \
    "$(cd "$T/imp" && timeout 10 "$LA" c.lyt 2>&1 | head -1)"
else
  check "mkfifo works here" 0 1
fi
printf 'import "d.lyt"\n' > "$T/imp/e.lyt"
check "import of a directory" "e.lyt:1:1: error: d.lyt: is a directory, not a file" \
  "$(cd "$T/imp" && timeout 10 "$LA" e.lyt 2>&1 | head -1)"

out=$(printf 'L = (2,2):(2,1)\nprint L(1,1)\n' | "$LYT"); check "stdin script" "3" "$out"
# A NUL byte in standard input is an error where it stands, as in a file,
# not the silent end of the script.
out=$(printf 'print 1\n\000print 2\n' | "$LYT" - 2>&1); rc=$?
check "stdin NUL byte status" 1 $rc
check "stdin NUL byte located" "<stdin>:2:1: error: unexpected NUL byte" "$(printf '%s\n' "$out" | head -1)"
out=$(printf 'print 7\n' | "$LYT" -); check "stdin with -" "7" "$out"
out=$("$LYT" --version); check "--version" "lyt 0.1.0" "$out"
"$LYT" --bogus >/dev/null 2>&1; check "bad option status" 1 $?

# A REPL session: values echoed, an error does not end it, unclosed
# brackets continue on the next line, :quit leaves.
printf 'x = (4,2):(1,4)\nx\nx(5)\nnope\nsize(x)\n(1,\n2)\n:quit\nprint 99\n' > "$T/session"
out=$("$LYT" -i < "$T/session" 2>&1 | sed 1d); rc=$?
check "repl session" "(4,2):(1,4)
5
<repl>:1:1: error: unknown name 'nope'
nope
^
8
(1,2)" "$out"
check "repl exit status" 0 $rc
# The same session without libedit (plain lines) reads and answers alike.
out2=$(LYT_NO_LIBEDIT=1 "$LYT" -i < "$T/session" 2>&1 | sed 1d)
check "repl session without libedit" "$out" "$out2"

# The same through a pseudo-terminal (util-linux script): the real
# interactive path, with libedit, prompts and continuation prompts.
if command -v script >/dev/null 2>&1; then
  printf 'L = (4,2):(1,4)\nL(5)\nlogical_divide(L,\n  [2, 1])\nnope\n:quit\n' > "$T/tty"
  # one line at a time, after the prompt has had time to appear: typed
  # ahead, the terminal would echo lines before libedit takes it over
  out=$( { sleep 0.5; while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.2; done < "$T/tty"; } |
        script -qc "$LYT" /dev/null 2>&1 | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' | grep -v '^$' | sed -n '/^lyt> L = /,$p')
  check "repl on a terminal" "lyt> L = (4,2):(1,4)
lyt> L(5)
5
lyt> logical_divide(L,
...>   [2, 1])
((2,2),(1,2)):((1,2),(0,4))
lyt> nope
<repl>:1:1: error: unknown name 'nope'
nope
^
lyt> :quit" "$out"
else
  echo "SKIP repl on a terminal: no 'script' command"
fi

# LYT_PATH: folders searched in order after the script's own, before the
# stdlib; a stdlib file's own imports stay in the stdlib.
mkdir -p "$T/p1" "$T/p2"
printf 'fn where() = "p2"\n' > "$T/p2/m.lyt"
printf 'fn where() = "p1"\n' > "$T/p1/m.lyt"
check "LYT_PATH, first folder first" "p1" "$(LYT_PATH="$T/none:$T/p1:$T/p2" "$LYT" -e 'import "m"
print where()')"
check "LYT_PATH, later folders" "p2" "$(LYT_PATH="$T/none::$T/p2" "$LYT" -e 'import "m"
print where()')"
printf 'print "not the stdlib"\n' > "$T/p1/triton_shared.lyt"
check "LYT_PATH does not reach into the stdlib's imports" "{register: [], lane: [[0,1],[0,2],[1,0],[2,0],[4,0]], warp: [], block: []} -> {dim0: 8, dim1: 4}" \
  "$(LYT_PATH="$T/p1" "$LYT" -e 'import "triton"
print to_linear(blocked((1,1), (8,4), (1,1), (1,0)), (8,4))')"
# help: every builtin and every public stdlib function has a sentence and
# an example (help(name) shows both), and every example runs; help() lists
# every family. One run asks help of every name, one REPL session runs
# every example (errors do not end it; svg() writes in a folder of its own).
names=$("$LYT" -e 'help()' | sed -n 's/^\([a-z_0-9]*\)(.*/\1/p')
for f in $names; do printf 'print "=== %s"\nhelp("%s")\n' "$f" "$f"; done >"$T/help.lyt"
"$LYT" "$T/help.lyt" >"$T/help.out" 2>&1
awk '/^=== / { name = $2; next }
     /^  example: / { if (doc[name]) printf "print \"=== %s\"\nprint %s\n", name, substr($0, 12); next }
     /\)[: ] *[A-Za-z({#"]|^  [A-Z]/ { doc[name] = 1 }' "$T/help.out" >"$T/examples.lyt"
mkdir -p "$T/ex"
(cd "$T/ex" && printf 'import "triton"\n' | cat - "$T/examples.lyt" | "$LYT" -i >"$T/ex.out" 2>&1)
ok=$(awk '/^=== / { if (name != "" && good) n++; name = $2; good = 1; next }
          /error:/ { if (name != "") { good = 0; print "example of " name " fails: " $0 > "/dev/stderr" } }
          END { if (name != "" && good) n++; print n + 0 }' "$T/ex.out")
n_all=$(printf '%s\n' $names | wc -l)
check "help: every builtin and stdlib function documented with an example that runs" "$n_all of $n_all" "$ok of $n_all"
[ "$n_all" -gt 170 ] || echo "FAIL help() lists only $n_all functions"
check "help() lists the families" "core: CuTe layouts: linear layouts (GF(2)): AxisInfo: Axe layouts: IREE nested layouts: kernels: pictures: texts (Triton IR, CuTe C++, IREE, JSON): Triton encodings (import \"triton\"):" \
  "$("$LYT" -e 'help()' | grep ':$' | tr '\n' ' ' | sed 's/ $//')"
# The man page documents every option and target the usage lists.
man=$(sed 's/\\-/-/g; s/\\f[BIR]//g' docs/lyt.1)
for o in $("$LYT" --help | grep -o -- '-\{1,2\}[a-z][a-z-]*' | sort -u) --help -h \
         $("$LYT" --help | sed -n 's/^ *TARGET: //p' | tr -c 'a-z0-9_\n' ' '); do
  case $man in *"$o"*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "FAIL docs/lyt.1 does not document $o" ;; esac
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
