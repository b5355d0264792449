/*
** linear/convert.h: exact conversions between the stride core and the GF(2)
** core (lytC_). Both directions either give a layout that computes the
** same function or fail saying why (a carry, a non-power-of-two extent,
** XOR mixing), never an approximation.
*/
#ifndef LYT_CONVERT_H
#define LYT_CONVERT_H

#include "interp/stride/layout.h"
#include "interp/linear/linear.h"

/* A stride layout as a linear layout: one in-dim per top-level mode
** (dim0, dim1, ...; a mode's bits in colexicographic order), one out-dim
** named [out] whose size is the smallest power of two above the image. */
lytG_ll *lytC_linear_of_layout(lytS_ctx *cx, lytS_layout l, const char *out);
/* swizzle o offset o layout: the offset must be 0 (an offset is affine). */
lytG_ll *lytC_linear_of_composed(lytS_ctx *cx, const lytS_composed *c, const char *out);
/* A linear layout as a stride layout: one mode per in-dim, onto the flat
** output (out-dims colexicographic, the first fastest, as CuTe flattens). */
lytS_layout lytC_strided_of_linear(lytS_ctx *cx, const lytG_ll *ll);

#endif
