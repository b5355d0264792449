/*
** libs.c: the libraries of builtins, one per family, in the order
** help() lists them. A new family adds its library here.
*/
#include "backends/values.h"
#include "interp/axe/values.h"
#include "interp/axisinfo/values.h"
#include "interp/interop/interop.h"
#include "interp/linear/values.h"
#include "interp/nested/values.h"
#include "interp/picture/picture.h"
#include "interp/stride/values.h"

/* What help() calls each library, in the same order. */
const char *const lytI_lib_names[] = {
  "core", "CuTe layouts", "linear layouts (GF(2))", "AxisInfo", "Axe layouts",
  "IREE nested layouts", "kernels", "pictures", "texts (Triton IR, CuTe C++, IREE, JSON)", NULL,
};

const lytI_builtin *const lytI_libs[] = {
  lytI_core_lib, lytI_stride_lib, lytI_linear_lib, lytI_axisinfo_lib, lytI_axe_lib,
  lytI_nested_lib, lytI_kernel_lib, lytI_picture_lib, lytI_interop_lib, NULL,
};
