/*
** axe/io.c: Axe layouts as text, in the paper's notation:
**   S[(8,2,4,2):(4@lane,1@warp,1@lane,1@reg)] + R[2:4@warp] + {warp: 5}
** A memory-axis stride prints bare (`4`, not `4@m`); the value printers
** write `@m` where bare text would read back otherwise (print_iters). The reader takes
** the printer's text back, plus TVM's `5@warp` offsets and a bare shard
** without `S[...]`, so that tests and tools can write layouts briefly.
*/
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interp/axe/axe.h"

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

static void print_stride(lytS_buf *b, const lytX_iter *it, int bare_m) {
  lytS_buf_int(b, it->stride);
  if (!bare_m || strcmp(it->axis, LYTX_MEM) != 0) lytS_buf_printf(b, "@%s", it->axis);
}

/* How memory strides print. The paper's notation (lytX_print) writes them
** bare. The value printers (axe(...), iters) write them bare only beside a
** stride on another axis: iters all on memory would read back as a CuTe
** layout (colexicographic, not the iters' row-major order), and a replica
** must be iters. */
enum { PAPER, VALUE, REPLICA };

/* (e0,e1):(s0,s1), or e:s for one iter, ():() for none */
static void print_iters(lytS_buf *b, const lytX_iter *it, int32_t n, int how) {
  int bare_m = how == PAPER;
  for (int32_t i = 0; i < n && how == VALUE; i++) bare_m |= strcmp(it[i].axis, LYTX_MEM) != 0;
  if (n == 1) {
    lytS_buf_printf(b, "%lld:", (long long)it[0].extent);
    print_stride(b, &it[0], bare_m);
    return;
  }
  lytS_buf_puts(b, "(");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(b, "%s%lld", i ? "," : "", (long long)it[i].extent);
  lytS_buf_puts(b, "):(");
  for (int32_t i = 0; i < n; i++) {
    if (i) lytS_buf_puts(b, ",");
    print_stride(b, &it[i], bare_m);
  }
  lytS_buf_puts(b, ")");
}

void lytX_print_shard(lytS_buf *b, const lytX_layout *L) { print_iters(b, L->d, L->nd, VALUE); }

void lytX_print_replica(lytS_buf *b, const lytX_layout *L) {
  if (L->nr == 0) lytS_buf_puts(b, "()");
  else print_iters(b, L->r, L->nr, REPLICA);
}

void lytX_print_offset(lytS_buf *b, const lytX_layout *L) {
  lytS_buf_puts(b, "{");
  for (int32_t i = 0; i < L->no; i++)
    lytS_buf_printf(b, "%s%s: %lld", i ? ", " : "", L->oaxis[i], (long long)L->off[i]);
  lytS_buf_puts(b, "}");
}

void lytX_print(lytS_buf *b, const lytX_layout *L) {
  lytS_buf_puts(b, "S[");
  print_iters(b, L->d, L->nd, PAPER);
  lytS_buf_puts(b, "]");
  if (L->nr) {
    lytS_buf_puts(b, " + R[");
    print_iters(b, L->r, L->nr, PAPER);
    lytS_buf_puts(b, "]");
  }
  if (L->no) {
    lytS_buf_puts(b, " + ");
    lytX_print_offset(b, L);
  }
}

const char *lytX_str(lytS_ctx *cx, const lytX_layout *L) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytX_print(&b, L);
  return b.p;
}

void lytX_print_point(lytS_buf *b, const lytX_points *p, int32_t i) {
  lytS_buf_puts(b, "{");
  for (int32_t k = 0; k < p->naxes; k++)
    lytS_buf_printf(b, "%s%s: %lld", k ? ", " : "", p->axis[k],
                    (long long)p->v[i * p->naxes + k]);
  lytS_buf_puts(b, "}");
}

const char *lytX_points_str(lytS_ctx *cx, const lytX_points *p) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_buf_puts(&b, "[");
  for (int32_t i = 0; i < p->n; i++) {
    if (i) lytS_buf_puts(&b, ", ");
    lytX_print_point(&b, p, i);
  }
  lytS_buf_puts(&b, "]");
  return b.p;
}

const char *lytX_coords_str(lytS_ctx *cx, const lytX_coords *c) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_buf_puts(&b, "[");
  for (int32_t i = 0; i < c->n; i++) {
    lytS_buf_puts(&b, i ? ", (" : "(");
    for (int32_t d = 0; d < c->rank; d++)
      lytS_buf_printf(&b, "%s%lld", d ? "," : "", (long long)c->v[i * c->rank + d]);
    lytS_buf_puts(&b, ")");
  }
  lytS_buf_puts(&b, "]");
  return b.p;
}

/* ------------------------------------------------------------------ */
/* reading                                                             */
/* ------------------------------------------------------------------ */

typedef struct rd {
  lytS_ctx *cx;
  const char *s;     /* whole text, for messages */
  const char *p;     /* cursor */
} rd;

static void skip(rd *r) {
  while (isspace((unsigned char)*r->p)) r->p++;
}

static _Noreturn void bad(rd *r, const char *what) {
  lytS_fail(r->cx, LYT_ERRSYNTAX, "axe: expected %s at column %d of \"%s\"", what,
            (int)(r->p - r->s) + 1, r->s);
}

static int eat(rd *r, char c) {
  skip(r);
  if (*r->p != c) return 0;
  r->p++;
  return 1;
}

static void need(rd *r, char c) {
  char what[4] = {'\'', c, '\'', 0};
  if (!eat(r, c)) bad(r, what);
}

static int64_t number(rd *r) {
  skip(r);
  char *end;
  errno = 0;
  long long v = strtoll(r->p, &end, 10);
  if (end == r->p || (!isdigit((unsigned char)*r->p) && *r->p != '-')) bad(r, "an integer");
  if (errno) lytS_fail(r->cx, LYT_ERRRUN, "axe: integer out of range in \"%s\"", r->s);
  r->p = end;
  return v;
}

static const char *name(rd *r) {
  skip(r);
  const char *b = r->p;
  if (!isalpha((unsigned char)*b) && *b != '_') bad(r, "an axis name");
  while (isalnum((unsigned char)*r->p) || *r->p == '_') r->p++;
  size_t n = (size_t)(r->p - b);
  char *s = lytS_alloc(r->cx, n + 1);
  memcpy(s, b, n);
  s[n] = 0;
  return s;
}

static const char *opt_axis(rd *r) { return eat(r, '@') ? name(r) : LYTX_MEM; }

/* (e,..):(s@a,..) or e:s@a into it[]; returns the count. */
static int32_t iters(rd *r, lytX_iter *it) {
  int32_t n = 0;
  if (!eat(r, '(')) {
    it[0].extent = number(r);
    need(r, ':');
    it[0].stride = number(r);
    it[0].axis = opt_axis(r);
    return 1;
  }
  if (!eat(r, ')')) {
    do {
      if (n >= LYTX_MAXITERS) lytS_fail(r->cx, LYT_ERRLIMIT, "axe: more than %d iters", LYTX_MAXITERS);
      it[n++].extent = number(r);
    } while (eat(r, ','));
    need(r, ')');
  }
  need(r, ':');
  need(r, '(');
  for (int32_t i = 0; i < n; i++) {
    if (i) need(r, ',');
    it[i].stride = number(r);
    it[i].axis = opt_axis(r);
  }
  need(r, ')');
  return n;
}

static void shard_part(rd *r, lytX_layout *L, int replica) {
  lytX_iter it[LYTX_MAXITERS];
  int32_t n = iters(r, it);
  for (int32_t i = 0; i < n; i++) {
    if (replica) lytX_replica(r->cx, L, it[i].extent, it[i].stride, it[i].axis);
    else lytX_shard(r->cx, L, it[i].extent, it[i].stride, it[i].axis);
  }
}

static void offset_part(rd *r, lytX_layout *L) {
  if (eat(r, '}')) return;
  do {
    const char *a = name(r);
    need(r, ':');
    lytX_offset(r->cx, L, number(r), a);
  } while (eat(r, ','));
  need(r, '}');
}

/* S[..] | R[..] | {..} | v@axis | a bare shard */
static void part(rd *r, lytX_layout *L) {
  skip(r);
  if (r->p[0] == 'S' || r->p[0] == 'R') {
    int rep = r->p[0] == 'R';
    r->p++;
    need(r, '[');
    shard_part(r, L, rep);
    need(r, ']');
  } else if (eat(r, '{')) {
    offset_part(r, L);
  } else if (*r->p == '(') {
    shard_part(r, L, 0);
  } else {
    const char *save = r->p;
    (void)number(r);
    skip(r);
    int is_off = *r->p == '@';
    r->p = save;
    if (is_off) {
      int64_t v = number(r);
      need(r, '@');
      lytX_offset(r->cx, L, v, name(r));
    } else {
      shard_part(r, L, 0);
    }
  }
}

lytX_layout *lytX_read(lytS_ctx *cx, const char *text) {
  rd r = {cx, text, text};
  lytX_layout *L = lytX_new(cx);
  do part(&r, L);
  while (eat(&r, '+'));
  skip(&r);
  if (*r.p) bad(&r, "'+' or the end");
  return L;
}
