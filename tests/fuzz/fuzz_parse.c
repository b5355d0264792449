/*
** fuzz_parse.c: libFuzzer target for the front end alone: arbitrary bytes
** through the re2c lexer and the Lemon parser, without evaluation. Any
** outcome but a crash, a sanitizer report or a leak is fine; a failed
** parse must leave a message and a location. Two promises of the pass that
** checks a script before any of it runs are checked too: lytL_probe tells
** the types lytL_lex makes, and what lytP_valid accepts parses. And the
** parser lyt runs (lang/parse.c) gives what the grammar's own actions
** give (lytP_parse_grammar): the same status and errors, the same trees.
*/
#include "lang/parse.h"
#include "fuzz.h"

static const char *intern(void *ud, const char *s, size_t n) {
  lytS_ctx *cx = ud;
  char *p = lytS_alloc(cx, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static void ctx_init(lytP_ctx *p, lytS_ctx *cx, const lytL_src *src) {
  memset(p, 0, sizeof *p);
  p->cx = cx, p->src = src, p->intern = intern, p->intern_ud = cx;
  p->cur = p->linestart = src->text;
  p->line = 1;
  lytS_buf_init(&p->diag, cx);
}

/* The same tokens and the same errors from both lexers. */
static void same_types(lytS_ctx *cx, const lytL_src *src) {
  lytP_ctx a, b;
  lytP_token ta, tb;
  ctx_init(&a, cx, src);
  ctx_init(&b, cx, src);
  a.probing = b.probing = 1;
  for (int type = 1; type != 0 && a.nerr == 0;) {
    type = lytL_probe(&a, &ta);
    lytL_lex(&b, &tb);
    if (type != tb.type || a.nerr != b.nerr || a.cur != b.cur) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (!text) return 0;
  lytA_arena a;
  jmp_buf jb;
  lytS_ctx cx;
  lytA_init(&a, NULL, NULL, 64u << 20);
  memset(&cx, 0, sizeof cx);
  cx.arena = &a, cx.jb = &jb;
  lytL_src src = { "fuzz", text, size, 0, 0, NULL };
  lytP_ctx p;
  if (setjmp(jb) == 0) {
    same_types(&cx, &src);
    ctx_init(&p, &cx, &src);
    int valid = lytP_valid(&p);
    ctx_init(&p, &cx, &src);
    int status = lytP_parse(&p);
    if (status != LYT_OK && (p.errmsg[0] == 0 || p.errloc.line < 1)) abort();
    if (valid && status != LYT_OK) abort();
    lytP_ctx g;
    ctx_init(&g, &cx, &src);
    int gstatus = lytP_parse_grammar(&g);
    const char *gd = g.diag.p ? g.diag.p : "", *pd = p.diag.p ? p.diag.p : "";
    /* The two measure nesting apart (Lemon by its states, lang/parse.c by
    ** expressions and blocks): near the limit they stop at other tokens. */
    int deep = strstr(gd, "nested too deeply") || strstr(pd, "nested too deeply");
    if (!deep && (gstatus != status || g.nerr != p.nerr || g.incomplete != p.incomplete ||
                  strcmp(gd, pd) != 0))
      abort();
    if (status == LYT_OK && gstatus == LYT_OK && !lytP_same(g.stmts.head, p.stmts.head)) abort();
  }
  lytA_free(&a);
  free(text);
  return 0;
}
