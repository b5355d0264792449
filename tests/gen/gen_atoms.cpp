// CuTe C++'s MMA atoms, printed for tests/diff/atoms.txt (see tests/gen/README.md):
// one line per atom, "name|Shape_MNK|ThrID|ALayout|BLayout|CLayout", from the
// MMA_Traits of the CUTLASS headers (host compile; no GPU).
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>
#include <cstdio>
using namespace cute;

template <class Op> void atom(const char *name) {
  using T = MMA_Traits<Op>;
  printf("%s|", name);
  print(typename T::Shape_MNK{}); printf("|");
  print(typename T::ThrID{}); printf("|");
  print(typename T::ALayout{}); printf("|");
  print(typename T::BLayout{}); printf("|");
  print(typename T::CLayout{}); printf("\n");
}

#define SM80(n) atom<SM80_##n>("SM80_" #n)
#define GMMA_N(n, t)                                                                          \
  atom<SM90::GMMA::MMA_64x##n##x16_##t##_SS<GMMA::Major::K, GMMA::Major::K>>("SM90_64x" #n "x16_" #t "_SS"); \
  atom<SM90::GMMA::MMA_64x##n##x16_##t##_RS<GMMA::Major::K, GMMA::Major::K>>("SM90_64x" #n "x16_" #t "_RS")
#define GMMA(t) GMMA_N(8, t); GMMA_N(16, t); GMMA_N(24, t); GMMA_N(32, t); GMMA_N(64, t); \
  GMMA_N(96, t); GMMA_N(128, t); GMMA_N(192, t); GMMA_N(256, t)

int main() {
  SM80(16x8x8_F16F16F16F16_TN); SM80(16x8x16_F16F16F16F16_TN);
  SM80(16x8x8_F32F16F16F32_TN); SM80(16x8x16_F32F16F16F32_TN);
  SM80(16x8x8_F32BF16BF16F32_TN); SM80(16x8x16_F32BF16BF16F32_TN);
  SM80(16x8x4_F32TF32TF32F32_TN); SM80(16x8x8_F32TF32TF32F32_TN);
  SM80(16x8x16_S32S8S8S32_TN); SM80(16x8x32_S32S8S8S32_TN);
  atom<UniversalFMA<float, float, float, float>>("UniversalFMA");
  GMMA(F16F16F16); GMMA(F32F16F16); GMMA(F32BF16BF16);
}
