/*
** nested/nested.h: IREE's nested layouts (#iree_vector_ext.nested_layout), the
** lytN_ core. Reference: shared/reference/axe_iree_tilelang.md §2 and
** seed 004.
**
** Every dim d of a vector is tiled five times, outermost first:
**   idx_d = ((((vsg_d*B_d + b_d)*O_d + o_d)*T_d + vt_d)*E_d + e_d)
** where the tiles S, B, O, T, E are COUNTS. A thread of the workgroup has
** the linear id tid = subgroup*subgroup_size + lane, and
**   vt_d  = (tid / thread_strides[d]) mod T_d
**   vsg_d = (subgroup / subgroup_strides[d]) mod S_d
** (stride 0: not distributed; the virtual id is 0). The thread holds the
** "distributed vector" [B..., O..., E...] (row-major), so its register r
** names (b, o, e) and with (vsg, vt) one element. Subgroups beyond the
** subgroup tiles wrap around and hold copies; lanes whose bits no thread
** stride reads hold copies too.
**
** Checked like IREE: tiles >= 1, strides >= 0, a size-1 tile's stride
** becomes 0; per level, the (stride, tile) pairs sorted by stride must
** satisfy stride_k % (stride_{k-1}*tile_{k-1}) == 0 ("overlapping
** strides" otherwise). IREE also accepts layouts that leave elements
** without an owner (a tile > 1 with stride 0, as in its "derived thread
** config" layouts, or fewer subgroups than the strides reach); so does
** lytN_make, but the conversions, which describe every element's owners,
** refuse them.
**
** Layouts are plain values; results live in cx's arena; errors leave
** through lytS_fail (LYT_ERRRUN, LYT_ERRLIMIT for the caps).
*/
#ifndef LYT_NESTED_H
#define LYT_NESTED_H

#include <stdint.h>

#include "interp/axe/axe.h"
#include "interp/base/context.h"
#include "interp/base/inttuple.h"  /* lytS_buf */
#include "interp/linear/linear.h"

#define LYTN_MAXRANK 8
#define LYTN_CHECK_MAX 4194304  /* (thread x register) pairs a conversion verifies */

enum { LYTN_SUBGROUP, LYTN_BATCH, LYTN_OUTER, LYTN_THREAD, LYTN_ELEMENT, LYTN_LEVELS };

typedef struct lytN_layout {
  int32_t rank;
  int64_t tile[LYTN_LEVELS][LYTN_MAXRANK];  /* counts, outermost level first */
  int64_t sg_stride[LYTN_MAXRANK];          /* subgroup_strides */
  int64_t th_stride[LYTN_MAXRANK];          /* thread_strides (of the workgroup-linear id) */
  int64_t subgroup_size;                    /* lanes per subgroup */
  int64_t subgroups;                        /* subgroups per workgroup */
} lytN_layout;

/* Checks and normalizes (see above). subgroup_size 0: the thread strides'
** reach (the top block of the sorted strides); subgroups 0: enough to
** reach every virtual subgroup and thread id. */
lytN_layout *lytN_make(lytS_ctx *cx, int32_t rank, const int64_t *const tiles[LYTN_LEVELS],
                       const int64_t *sg_strides, const int64_t *th_strides,
                       int64_t subgroup_size, int64_t subgroups);

int64_t lytN_dim(const lytN_layout *N, int32_t d);       /* the vector's size along d */
int64_t lytN_registers(const lytN_layout *N);            /* prod of B*O*E: elements per thread */
int64_t lytN_threads(const lytN_layout *N);              /* subgroups*subgroup_size */
/* The distributed shape, unpacked (B_d*O_d*E_d per dim; rank values) or
** packed ([B..., O..., E...]; 3*rank values). Returns the count. */
int32_t lytN_dist_shape(const lytN_layout *N, int packed, int64_t *out);

/* The logical coordinate (rank values) of register r of thread `lane` of
** `subgroup`. Fails when an argument is out of range. */
void lytN_coord(lytS_ctx *cx, const lytN_layout *N, int64_t subgroup, int64_t lane, int64_t r,
                int64_t *out);

/* As an Axe layout over the logical shape (row-major): per dim d the iters
** S_d:(sgs_d*subgroup_size)@tid, B_d:@m, O_d:@m, T_d:ts_d@tid, E_d:@m, the
** m strides being the row-major strides of [B..., O..., E...], with
** replica iters on tid for the ids that hold copies; canonicalized. Fails
** when an element has no owner, when the thread and subgroup strides
** overlap in the linear id, or when the workgroup size is not a multiple
** of what they reach. The result is
** verified against lytN_coord for every (thread, register), at most
** LYTN_CHECK_MAX of them. */
lytX_layout *lytN_to_axe(lytS_ctx *cx, const lytN_layout *N);

/* As a linear layout in Triton's direction: in-dims register (the
** distributed vector, row-major), lane, warp (the subgroup); out-dims dim0..
** with the vector's sizes. Needs every tile, stride and size a power of
** two; verified exhaustively like lytN_to_axe. */
lytG_ll *lytN_to_linear(lytS_ctx *cx, const lytN_layout *N);

/* #iree_vector_ext.nested_layout<subgroup_tile = [2, 1], ...> */
void lytN_print_attr(lytS_buf *b, const lytN_layout *N);
/* nested((2,1), (2,4), ..., subgroup_size=64, subgroups=4) */
void lytN_print(lytS_buf *b, const lytN_layout *N);

#endif
