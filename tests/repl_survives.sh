#!/bin/sh
# The REPL survives every case of the bad-input catalogue: each case's
# input is typed into `lyt -i` (standard input, REPL mode), followed by
# a line that must still be evaluated; the session must end normally.
LYT=${1:-build/lyt}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
for f in tests/errors/*.txt; do
  # one file per case: the lines between "=== name" and "---"
  awk -v dir="$T" '/^=== /{n++; out=dir "/case" n; printf "" > out; on=1; next}
                   /^---$/{on=0; next} on{print >> out}' "$f"
  for c in "$T"/case*; do
    # a case that leaves a bracket open would swallow the probe: close it
    printf '%s\n\n)\n\nprint "survived"\n' "$(cat "$c")" >"$T/in"
    out=$(cd tests/errors && "$OLDPWD/$LYT" -i <"$T/in" 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && printf '%s' "$out" | grep -q '^survived$\|[^"]survived$'; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL $f $(head -c 60 "$c" | tr '\n' ' ') (rc $rc)"
    fi
    rm -f "$c"
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
