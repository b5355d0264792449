#!/bin/sh
# Dependencies run one way. Every quoted #include in lang/, interp/ and
# backends/ is an edge from the includer's folder to the included file's
# folder; the test fails on any cycle among folders, naming it, so a
# circle of folders that need each other cannot come back. The installed
# header interp/lyt.h is a node of its own (it must include no lyt header),
# as is the generated parser.h (it belongs to lang/). Every folder must
# also have its row in docs/architecture.md, so the map matches the tree.
#   sh tests/layering.sh          prints the folders in dependency order
cd "$(dirname "$0")/.." || exit 1
find lang interp backends -name '*.[ch]' -o -name '*.re' -o -name '*.y' | sort |
while read -r f; do
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
  while read -r inc; do printf '%s %s\n' "$f" "$inc"; done
done | awk '
function node(p) { if (p == "interp/lyt.h") return p; if (p == "parser.h") return "lang";
                   sub(/\/[^\/]*$/, "", p); return p }
{ from = node($1); to = node($2); nodes[from] = 1; nodes[to] = 1
  if ($1 == "interp/lyt.h") { print "FAIL interp/lyt.h includes " $2; bad++ }
  if (from != to && !((from, to) in edge)) { edge[from, to] = 1; out[from] = out[from] " " to
                                             why[from, to] = $1 " includes " $2 } }
function visit(n,   k, m, i, path) {
  state[n] = 1; stack[++sp] = n
  k = split(out[n], m, " ")
  for (i = 1; i <= k; i++) {
    if (state[m[i]] == 1) {
      path = m[i]; for (j = sp; j >= 1 && stack[j] != m[i]; j--) path = stack[j] " -> " path
      print "FAIL cycle: " m[i] " -> " path; print "  (" why[n, m[i]] ")"; bad++
    } else if (!state[m[i]]) visit(m[i])
  }
  state[n] = 2; sp--; order[++no] = n
}
END {
  for (n in nodes) if (!state[n]) visit(n)
  if (bad) { print "0 passed, " bad " failed"; exit 1 }
  s = ""; for (i = 1; i <= no; i++) s = s (i > 1 ? " <- " : "") order[i]
  print "folders, each needing only those before it:"; print "  " s
  for (i = 1; i <= no; i++) {
    want = order[i] ~ /\.h$/ ? order[i] : order[i] "/"
    found = 0
    while ((getline line < "docs/architecture.md") > 0) if (index(line, "| `" want "` |")) found = 1
    close("docs/architecture.md")
    if (!found) { print "FAIL docs/architecture.md has no row for " want; bad++ }
  }
  print (no - bad) " passed, " (bad + 0) " failed"
  exit bad != 0
}'
