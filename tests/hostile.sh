#!/bin/sh
# Hostile inputs made on the fly, too large to check in: each must end in
# a result or a located error, with status 0 or 1, never a signal. They run
# with a 512 KiB stack (ulimit -s), the smallest a host thread is expected
# to give lyt, so the default max_stack must hold there.
#   sh tests/hostile.sh [path/to/lyt]
LYT=${1:-build/lyt}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
# case NAME EXPECTED-FIRST-LINE-PART: runs $T/NAME.lyt
case_() {
  out=$( (ulimit -s 512 2>/dev/null; timeout 60 "$LYT" "$T/$1.lyt") 2>&1 ); rc=$?
  first=$(printf '%s\n' "$out" | head -1 | cut -c1-300)
  if [ "$rc" -le 1 ] && printf '%s' "$first" | grep -qF -- "$2"; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL $1: status $rc: $first (expected: $2)"; fi
}
awk 'BEGIN { printf "x = 1"; for (i = 0; i < 25000; i++) printf "+1"; print ""; print "print x" }' >"$T/chain.lyt"
case_ chain "chain.lyt:1:"
awk 'BEGIN { print "fn f(x) = x"; printf "x = "; for (i = 0; i < 100; i++) printf "f("; printf "1";
             for (i = 0; i < 100; i++) printf ")"; print ""; print "print x" }' >"$T/calls.lyt"
case_ calls "1"
awk 'BEGIN { print "r = {a: 1}"; for (i = 0; i < 20000; i++) print "r = {a: r}"; print "print r" }' >"$T/records.lyt"
case_ records "error: nesting too deep"
awk 'BEGIN { print "t = 1"; for (i = 0; i < 20000; i++) print "t = (t,)"; print "print t" }' >"$T/tuples.lyt"
case_ tuples "error: nesting too deep"
printf 'fn f(n) = if n == 0 then 0 else f(f(f(f(f(f(f(f(n - 1))))))))\nprint f(150)\n' >"$T/rec.lyt"
case_ rec "0"
# recursion 100,000 deep on this 512 KiB stack: calls do not use the C stack
printf 'fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\nprint f(100000)\n' >"$T/deep.lyt"
case_ deep "100000"
printf 'fn f(n) = f(n + 1)\nprint f(0)\n' >"$T/endless.lyt"
case_ endless "endless.lyt:1:11: error: call depth limit reached (200000 nested calls)"

# A file is read into the code arena at the size it says it has; one that
# says 0 and has text (a /proc file) goes on into scratch and is copied,
# and one past 16 MiB is refused.
out=$("$LYT" /proc/sys/kernel/ostype 2>&1 | head -1)
if [ "$out" = "/proc/sys/kernel/ostype:1:1: error: unknown name 'Linux'" ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL a file whose size reads 0: $out"; fi
awk 'BEGIN { print "print 5"; for (i = 0; i < 16383; i++) printf "%1022s#\n", ""; printf "%1014s#\n", "" }' >"$T/limit.lyt"
case_ limit "5"  # 16 MiB to the byte
printf '#' >>"$T/limit.lyt"
case_ limit "limit.lyt: file too large (limit 16 MiB)"

# the state stays usable after the limit: the next statement runs
out=$(printf 'x = %s\nprint 2\n' "$(awk 'BEGIN { printf "1"; for (i = 0; i < 25000; i++) printf "+1" }')" |
      (ulimit -s 512 2>/dev/null; "$LYT" -i 2>/dev/null) | grep -c '^2$')
if [ "$out" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the REPL goes on after the limit"; fi
# The REPL's pending lines cost time in proportion to their length: a
# statement over 200,000 lines (quadratic, it took hours) must end well
# inside a CPU limit, whether a bracket, a record or a function's '=' holds
# it open; then the session goes on.
repl_() {
  out=$( (ulimit -t 60; "$LYT" -i <"$T/$1.in") 2>&1 | grep -cxF -- "$2"); rc=$?
  if [ "$out" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL pending $1 (status $rc)"; fi
}
awk 'BEGIN { print "x = (0,"; for (i = 0; i < 200000; i++) print i ","; print "1)"; print "print len(x)" }' >"$T/tuple.in"
repl_ tuple 200002
awk 'BEGIN { print "r = {"; for (i = 0; i < 100000; i++) print "  a" i ": " i ","; print "  z: 7}"; print "print r.z" }' >"$T/record.in"
repl_ record 7
awk 'BEGIN { print "fn f(a) ="; for (i = 0; i < 200000; i++) print ""; print " a + 1"; print "print f(41)" }' >"$T/fn.in"
repl_ fn 42
awk 'BEGIN { print "fn g(a) {"; for (i = 0; i < 50000; i++) print "  a = a + 1"; print "  return a"; print "}"; print "print g(0)" }' >"$T/block.in"
repl_ block 50000
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
