#!/bin/sh
# make install into a temporary prefix (through DESTDIR as packagers do,
# and directly), then: the installed lyt finds its stdlib from another
# folder, its REPL runs, the worked embedding builds against the
# installed files with pkg-config (static and shared) and prints what
# examples/embed/embed.out holds, the libraries export only lyt names,
# and make uninstall removes every file.
# an installed build is a plain one, whatever build this suite runs in
unset SAN OPT BUILD CFLAGS CC MAKEFLAGS MFLAGS MAKELEVEL
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
P=$T/usr
make -s install PREFIX="$P" >"$T/log" 2>&1 || { cat "$T/log"; echo "0 passed, 1 failed"; exit 1; }
check "files installed" 'for f in bin/lyt lib/liblyt.a lib/liblyt.so lib/liblyt.so.0 lib/liblyt.so.0.1.0 include/lyt.h lib/pkgconfig/lyt.pc share/lyt/stdlib/triton.lyt share/man/man1/lyt.1; do [ -e "$P/$f" ] || exit 1; done'
check "stdlib from the installed copy" '(cd "$T" && "$P/bin/lyt" -e "import \"triton.lyt\"
print to_linear(blocked((1,1), (4,8), (1,1), (1,0)), (4,8))" | grep -q "lane: \[\[0,1\]")'
check "installed REPL" '(cd "$T" && printf "import \"triton.lyt\"\nlen((1,2,3))\n" | "$P/bin/lyt" -i | grep -q "^3$")'
# The shared library exports exactly the functions lyt.h declares; the
# static library's globals all carry the project prefix, so neither can
# clash with a host's names.
grep -o "lyt_[a-z_]*(" interp/lyt.h | tr -d '(' | grep -v '^lyt_pop$' | sort -u >"$T/declared"
nm -D --defined-only "$P/lib/liblyt.so" | awk '{print $3}' | sort >"$T/exported"
check "liblyt.so exports exactly lyt.h's functions" 'cmp -s "$T/declared" "$T/exported" || { diff "$T/declared" "$T/exported" | head -5; false; }'
check "liblyt.a: every global starts with lyt" \
  '[ -z "$(nm -g --defined-only "$P/lib/liblyt.a" | awk "NF == 3 && \$3 !~ /^lyt/" | head -3 | tee /dev/stderr)" ]'
check "liblyt.a: no abort, exit or assertion that could stop the host" \
  '[ -z "$(nm -u "$P/lib/liblyt.a" | grep -E " (abort|exit|_exit|_Exit|__assert_fail|__assert)$" | tee /dev/stderr)" ]'
check "man page" 'grep -q "^.SH NAME" "$P/share/man/man1/lyt.1"'
if command -v pkg-config >/dev/null 2>&1; then
  PC="env PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config"
  # no LD_LIBRARY_PATH: the rpath that pkg-config --libs gives finds it
  check "embed, shared" 'cc -std=c11 -Wall -Werror examples/embed/embed.c $($PC --cflags --libs lyt) -o "$T/embed" \
    && "$T/embed" | cmp -s - examples/embed/embed.out'
  check "embed, static" 'cc -std=c11 -Wall -Werror examples/embed/embed.c $($PC --cflags lyt) "$P/lib/liblyt.a" -o "$T/embed_s" \
    && "$T/embed_s" | cmp -s - examples/embed/embed.out'
else
  echo "skip 2: pkg-config not found, the embedding is not built against the installed copy"
fi
make -s uninstall PREFIX="$P" >/dev/null 2>&1
check "uninstall removes everything" '[ -z "$(find "$P" -type f -o -type l)" ]'
make -s install DESTDIR="$T/stage" PREFIX=/opt/lyt >/dev/null 2>&1
check "DESTDIR staging" '[ -x "$T/stage/opt/lyt/bin/lyt" ] && grep -q "^prefix=/opt/lyt" "$T/stage/opt/lyt/lib/pkgconfig/lyt.pc"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
