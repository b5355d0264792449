/*
** eval/template.c: top-level lines that differ only in their numbers
** share one statement's tree and code. A script of many lines of one
** shape (print coalesce((3,8):(8,1)), then the same with other numbers)
** is lexed, parsed and compiled once per shape: the second time a line's
** key (lytL_line_key, each literal's digits written as zeros) is seen, or
** the first when the check saw the key on more lines, its statement
** becomes a template, its tree copied with each literal's node
** listed by the literal's place in the line, and its code compiled. A
** later line with the key is neither lexed nor parsed: its literals'
** values go into those nodes, its place into every node's location, and
** the code runs.
**
** Why that is the statement the parser would make: lines with one key lex
** to the same tokens but for the integers' values, and what the parser
** and the compiler make of a token depends on its type and text, not on
** an integer's value; each digit keeps its column in the key, so every
** location is the line's own. A template is made only where that can be
** checked: the statement fills its line, its nodes are kinds whose code
** reads nothing from them but their fields (no function, which keeps its
** node; no attribute), every node is on the line, and every literal of
** the line is the value of exactly one node, found at or after its place.
** A template's nodes change at each use, so one is used only at the top
** level (no statement running), where no other use can be under way.
*/
#include <string.h>

#include "parser.h"
#include "interp/eval/code.h"
#include "interp/eval/state.h"

#define SLOTS 512                   /* a power of two, twice the templates */
#define MAX_TEMPLATES (SLOTS / 2)

typedef struct lit {
  lytP_node *n;
  int neg;     /* written with a minus: the node holds the negated value */
} lit;

struct lytI_template {
  lytL_key key;
  int nnodes;
  lit *lit;                         /* a node for each of the key's literals */
  lytP_node *nodes;                 /* the tree, the statement first */
  const lytL_src *src;              /* the text its nodes point into now */
  const lytC_code *code;
};

struct lytI_templates {
  lytA_arena arena;
  lytI_template *slot[SLOTS];
  uint32_t once[SLOTS];             /* hashes of lines seen once, by their low bits */
  int count;
  int building;                     /* a template was being made when an error unwound */
  lytA_mark mark;                   /* the arena before it */
  /* the line lytI_template_find last left to the parser */
  const char *at;
  const lytL_src *src;
  int32_t line;
  int seen;                         /* a line with its hash was seen before */
};

static lytI_templates *templates(lyt_state *L) {
  if (L->templates) return L->templates;
  lytI_templates *T = L->cfg.alloc(L->cfg.alloc_ud, NULL, 0, sizeof *T);
  if (!T) return NULL;
  memset(T, 0, sizeof *T);
  lytA_init(&T->arena, L->cfg.alloc, L->cfg.alloc_ud, L->cfg.template_memory);
  T->arena.budget = &L->budget;
  return L->templates = T;
}

void lytI_templates_free(lyt_state *L) {
  if (!L->templates) return;
  lytA_free(&L->templates->arena);
  L->cfg.alloc(L->cfg.alloc_ud, L->templates, sizeof *L->templates, 0);
  L->templates = NULL;
}

/* Templates serve only the outermost code's lines, and a state that
** bounds its memory tightly keeps all of it for the script. */
static int usable(const lyt_state *L) {
  size_t m = L->cfg.template_memory;
  return L->stmts == 0 && m && (L->budget.limit == 0 || L->budget.limit / 64 >= m);
}

/* The slot of the template for the line l read at s, or the empty one
** where it goes. */
static lytI_template **slot_of(lytI_templates *T, const lytL_line *l, const char *s) {
  for (uint32_t i = l->hash;; i++) {  /* never full: at most half the slots are taken */
    lytI_template **p = &T->slot[i & (SLOTS - 1)], *t = *p;
    if (!t || (t->key.line.hash == l->hash && lytL_line_is(&t->key, l, s))) return p;
  }
}

#ifdef LYT_VERIFY_TEMPLATES
/* In a build with LYT_VERIFY_TEMPLATES (the sanitizer build, which CI runs
** the whole test suite in, and the fuzzers, which take its error for a
** finding), each use of a template is checked against the parser: the
** line parsed by itself must give the template's tree, node for node,
** and the code compiled from it the template's code. */
static int same_node(const lytP_node *a, const lytP_node *b) {
  if (!a || !b) return a == b;
  int strs = a->kind == N_STR ? a->len == b->len && memcmp(a->str, b->str, (size_t)a->len) == 0
                              : a->str == b->str;
  return a->kind == b->kind && a->op == b->op && a->ival == b->ival && strs &&
         a->len == b->len && a->n == b->n && a->loc.line == b->loc.line &&
         a->loc.col == b->loc.col;
}

static int same_tree(const lytP_node *a, const lytP_node *b) {
  for (; a && b; a = a->next, b = b->next)
    if (!same_node(a, b) || !same_tree(a->a, b->a) || !same_tree(a->b, b->b) ||
        !same_tree(a->c, b->c) || !same_tree(a->list, b->list))
      return 0;
  return a == b;
}

static void verify(lyt_state *L, const lytI_template *t, const lytL_src *src, const char *at,
                   int32_t line) {
  lytA_mark m = lytA_getmark(&L->scratch);
  const lytP_node *s = lytI_parse_line(L, src, at, t->key.line.n, line);
  int same = s && same_tree(s, t->nodes);
  if (same) {
    const lytC_code *c = lytC_statement(&L->cx, &L->scratch, s, 0, &L->errloc);
    same = c->n == t->code->n;
    for (int i = 0; same && i < c->n; i++) {
      const lytC_ins *x = &c->v[i], *y = &t->code->v[i];
      same = x->op == y->op && x->a == y->a && x->b == y->b && same_node(x->n, y->n);
    }
  }
  lytA_release(&L->scratch, m);
  L->errloc = t->nodes->loc;
  if (!same)
    lytS_fail(&L->cx, LYT_ERRRUN, "internal error: the template for line %d differs from "
              "the statement parsed there", (int)line);
}
#endif

const lytP_node *lytI_template_find(lyt_state *L, const lytL_src *src, const char *at,
                                    int32_t line, lytL_key *key, const lytC_code **code,
                                    int *len) {
  lytI_templates *T = usable(L) ? templates(L) : NULL;
  if (!T) return NULL;
  T->at = NULL;
  lytL_line own;
  const lytL_line *l = key ? &key->line : &own;
  lytI_template *t = key ? key->user : NULL;  /* found for an earlier line with the key */
  if (!t) {
    if (!key && !lytL_line_read(at, src->text + src->len, &own)) return NULL;
    t = *slot_of(T, l, at);
    if (key) key->user = t;
  }
  if (!t) {  /* made when the key comes again: the check may know it will */
    uint32_t *once = &T->once[l->hash & (SLOTS - 1)];
    T->at = at, T->src = src, T->line = line;
    T->seen = *once == l->hash || (key && key->lines > 1);
    *once = l->hash;
    return NULL;
  }
  for (int i = 0; i < t->key.nlit; i++) {
    int64_t v = lytL_literal(&t->key, at, i);
    t->lit[i].n->ival = t->lit[i].neg ? -v : v;
  }
  if (t->src != src)
    for (int i = 0; i < t->nnodes; i++) t->nodes[i].loc.src = src;
  t->src = src;
  for (int i = 0; i < t->nnodes; i++) t->nodes[i].loc.line = line;
#ifdef LYT_VERIFY_TEMPLATES
  verify(L, t, src, at, line);
#endif
  *code = t->code;
  *len = l->n;
  return t->nodes;
}

/* ---------------------------------------------------------------------
** Making a template
** ------------------------------------------------------------------- */

typedef struct build {
  const char *at;                   /* the line */
  const lytL_key *key;              /* its key */
  const lytL_src *src;
  int32_t line;
  int64_t v[LYTL_KEY_LITS];         /* its literals' values */
  int claimed[LYTL_KEY_LITS];       /* each literal's node, +1; 0: none yet */
  int neg[LYTL_KEY_LITS];           /* written with an odd number of minus signs */
  int nnodes;
  lytP_node *nodes;                 /* the copy, once counted */
  int next;
} build;

/* The literal a node of the line written at [anchor] holds: the first
** one at or after it, with only blanks, minus signs and an `@` before it;
** -1 if none. */
static int literal_at(const build *b, int anchor, int *neg) {
  const lytL_key *k = b->key;
  int i = 0;
  while (i < k->nlit && k->at[i] < anchor) i++;
  if (i == k->nlit) return -1;
  *neg = 0;
  for (int c = anchor; c < k->at[i]; c++) {
    char ch = b->at[c];
    if (ch == '-') *neg ^= 1;
    else if (ch != ' ' && ch != '\t' && ch != '@') return -1;
  }
  return i;
}

static int allowed(int kind) {
  switch (kind) {
    case N_ATTR: case N_FUNC: case N_FNDEF: case N_PARAM: case N_BLOCK: case N_RETURN:
    case N_FOR: case N_WHILE: case N_IFSTMT: case N_BREAK: case N_CONTINUE: case N_IMPORT:
    case N_ALIASDEF:
      return 0;
    default:
      return 1;
  }
}

/* Whether the tree from n (with its siblings) can be a template's: its
** nodes counted, each literal's node claimed. */
static int check(build *b, const lytP_node *n) {
  for (; n; n = n->next) {
    if (!allowed(n->kind) || n->loc.src != b->src || n->loc.line != b->line) return 0;
    b->nnodes++;
    if (n->kind == N_INT || n->kind == N_BASIS) {
      int neg = 0, i = literal_at(b, n->loc.col - 1, &neg);
      if (i < 0 || b->claimed[i] || (neg ? -b->v[i] : b->v[i]) != n->ival ||
          (n->kind == N_BASIS && neg))
        return 0;
      b->claimed[i] = b->nnodes, b->neg[i] = neg;
    }
    if (!check(b, n->a) || !check(b, n->b) || !check(b, n->c) || !check(b, n->list)) return 0;
  }
  return 1;
}

/* n and its siblings copied into b->nodes in the order check counted
** them (so claimed[] names the copies). */
static lytP_node *copy(build *b, const lytP_node *n) {
  lytP_node *first = NULL, **at = &first;
  for (; n; n = n->next) {
    lytP_node *c = &b->nodes[b->next++];
    *c = *n;
    if (c->kind == N_TUPLE) c->tup = NULL;  /* made in the statement's arena, for one line */
    c->a = copy(b, n->a), c->b = copy(b, n->b), c->c = copy(b, n->c);
    c->list = copy(b, n->list);
    *at = c, at = &c->next;
  }
  return first;
}

/* The template of s with its code, in T's arena; NULL when that is full
** (nothing of it is kept then). */
static lytI_template *new_template(lyt_state *L, lytI_templates *T, build *b,
                                   const lytP_node *s) {
  lytI_template *t = lytA_alloc(&T->arena, sizeof *t);
  lytP_node *nodes = lytA_alloc(&T->arena, sizeof *nodes * (size_t)b->nnodes);
  lit *lits = lytA_alloc(&T->arena, sizeof *lits * (size_t)(b->key->nlit ? b->key->nlit : 1));
  if (!t || !nodes || !lits) return NULL;
  *t = (lytI_template){ *b->key, b->nnodes, lits, nodes, b->src, NULL };
  b->nodes = nodes;
  copy(b, s);
  for (int i = 0; i < b->key->nlit; i++) lits[i] = (lit){ &nodes[b->claimed[i] - 1], b->neg[i] };
  /* compiled in the statement's arena as it would be without a template
  ** (its errors are the statement's own), then kept */
  T->building = 1;
  const lytC_code *c = lytC_statement(&L->cx, &L->scratch, nodes, 0, &L->errloc);
  T->building = 0;
  lytC_code *kept = lytA_alloc(&T->arena, sizeof *kept + sizeof(lytC_ins) * (size_t)c->n);
  if (!kept) return NULL;
  *kept = *c;
  kept->v = memcpy(kept + 1, c->v, sizeof(lytC_ins) * (size_t)c->n);
  t->code = kept;
  return t;
}

const lytP_node *lytI_template_make(lyt_state *L, const lytP_node *s, const char *line,
                                    const lytC_code **code) {
  lytI_templates *T = L->templates;
  if (!T || !usable(L)) return NULL;
  if (T->building) lytA_release(&T->arena, T->mark);  /* an error unwound the last one */
  T->building = 0;
  if (T->at != line || !T->seen || T->count == MAX_TEMPLATES) return NULL;
  T->at = NULL;
  lytL_key key;
  if (!lytL_line_key(line, T->src->text + T->src->len, &key)) return NULL;
  build b = { line, &key, T->src, T->line, { 0 }, { 0 }, { 0 }, 0, NULL, 0 };
  lytL_line_values(&key, line, b.v);
  if (s->next || !check(&b, s)) return NULL;
  for (int i = 0; i < key.nlit; i++)
    if (!b.claimed[i]) return NULL;  /* a literal in a comment or a string */
  T->mark = lytA_getmark(&T->arena);
  lytI_template *t = new_template(L, T, &b, s);
  if (!t) {
    lytA_release(&T->arena, T->mark);
    return NULL;
  }
  *slot_of(T, &key.line, line) = t;
  T->count++;
  *code = t->code;
  return t->nodes;
}
