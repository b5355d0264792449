// The expected text of tests/golden/pictures/latex_atoms.lyt: CuTe C++'s
// print_latex of a TiledMMA and of a TiledCopy, for each picture that file
// draws, in its order (build and run as tests/gen/README.md says, then strip
// the `_` of static integers).
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/util/print_latex.hpp>
using namespace cute;
int main() {
  print_latex(make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}));
  print_latex(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_1,_1>>{}));
  print_latex(make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_4,_2,_1>>{}));
  auto tm = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2,_1,_1>>{});
  print_latex(make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{},
                              Layout<Shape<_4,_2>, Stride<_2,_1>>{}, Layout<Shape<_1,_2>>{}));
  print_latex(make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, tm));
  print_latex(make_tiled_copy_B(Copy_Atom<SM75_U16x2_LDSM_T, half_t>{}, tm));
}
