// CuTe C++'s MMA and copy atoms, printed for tests/diff/atoms.txt (see
// tests/gen/README.md): one line per atom, "mma|name|Shape_MNK|ThrID|ALayout|
// BLayout|CLayout" from the MMA_Traits, "copy|name|ThrID|SrcLayout|DstLayout|
// RefLayout" from the Copy_Traits of the CUTLASS headers (host compile; no GPU).
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cstdio>
#include <string>
using namespace cute;

// Each value as CuTe prints it, '|' between them, then the end of the line.
template <class... V> void fields(V const &...v) {
  int i = 0;
  ((printf(i++ ? "|" : ""), print(v)), ...);
  printf("\n");
}

template <class Op> void atom(const char *name) {
  using T = MMA_Traits<Op>;
  printf("mma|%s|", name);
  fields(typename T::Shape_MNK{}, typename T::ThrID{}, typename T::ALayout{}, typename T::BLayout{},
         typename T::CLayout{});
}

template <class Op> void copy(const char *name) {
  using T = Copy_Traits<Op>;
  printf("copy|%s|", name);
  fields(typename T::ThrID{}, typename T::SrcLayout{}, typename T::DstLayout{}, typename T::RefLayout{});
}

// A TiledMMA: "tiled|name|TileM,TileN,TileK|C_TV|A_TV|B_TV" (get_layoutC_TV ...)
template <class TM> void tiled(const char *name, TM tm) {
  printf("tiled|%s|(", name);
  print(tm.template tile_size_mnk<0>()); printf(",");
  print(tm.template tile_size_mnk<1>()); printf(",");
  print(tm.template tile_size_mnk<2>()); printf(")|");
  fields(tm.get_layoutC_TV(), tm.get_layoutA_TV(), tm.get_layoutB_TV());
}

// ThrMMA::partition_{C,A,B}: "part|lyt expression|layout|offset" for thread t,
// the tensor's thread mode sliced at the thread's coordinate (slice_and_offset).
template <class F, class C> void part_print(const char *expr, F f, C thr) {
  constexpr int R = decltype(rank<1,1>(f))::value;
  auto lo = slice_and_offset(make_coord(thr, make_coord(_, repeat<R>(_))), f);
  printf("part|%s|", expr);
  print(get<0>(lo)); printf("|");
  print(get<1>(lo)); printf("\n");
}
template <class TM, class L> void parts(const char *tm_expr, TM tm, L tensor, const char *tensor_expr, int t) {
  auto v = tm.get_thr_layout_vmnk().get_flat_coord(t);
  char e[512];
  snprintf(e, sizeof e, "partition_c(%s, %s, %d)", tm_expr, tensor_expr, t);
  part_print(e, tm.thrfrg_C(tensor), make_coord(get<0>(v), make_coord(get<1>(v), get<2>(v))));
  snprintf(e, sizeof e, "partition_a(%s, %s, %d)", tm_expr, tensor_expr, t);
  part_print(e, tm.thrfrg_A(tensor), make_coord(get<0>(v), make_coord(get<1>(v), get<3>(v))));
  snprintf(e, sizeof e, "partition_b(%s, %s, %d)", tm_expr, tensor_expr, t);
  part_print(e, tm.thrfrg_B(tensor), make_coord(get<0>(v), make_coord(get<2>(v), get<3>(v))));
}

// A TiledCopy: "tcopy|lyt expression|Tiler_MN|layoutS_TV|layoutD_TV"
template <class TC> void tcopy(const char *expr, TC tc) {
  printf("tcopy|%s|", expr);
  fields(typename TC::Tiler_MN{}, tc.get_layoutS_TV(), tc.get_layoutD_TV());
}

// A tensor view: "view|lyt expression|layout|offset", the offset read off the
// tensor's data pointer (CuTe's own tensor slicing, not a formula of ours).
static half_t hbuf[1 << 17];
template <class T> void view(const char *expr, T const &t) {
  printf("view|%s|", expr);
  print(t.layout()); printf("|%ld\n", (long)(t.data().get() - hbuf));
}

// A layout: "lay|lyt expression|layout" (a fragment, a retiled fragment).
template <class T> void lay(std::string const &expr, T const &t) {
  printf("lay|%s|", expr.c_str());
  print(t.layout()); printf("\n");
}

// partition_fragment_C/A/B of static shared-memory tensors for thread t of a
// tiled MMA, and retile_S/D of its A (and B) fragment by a tiled copy of A (B).
template <bool WithB = true, class TM, class LA, class LB, class LC>
void frags(std::string const &tme, TM tm, LA la, std::string const &lae, LB lb, std::string const &lbe,
           LC lc, std::string const &lce, int t) {
  auto thr = tm.get_slice(t);
  std::string ts = std::to_string(t);
  lay("partition_fragment_c(" + tme + ", " + lce + ", " + ts + ")", thr.partition_fragment_C(make_tensor(make_smem_ptr(hbuf), lc)));
  lay("partition_fragment_a(" + tme + ", " + lae + ", " + ts + ")", thr.partition_fragment_A(make_tensor(make_smem_ptr(hbuf), la)));
  if constexpr (WithB)
    lay("partition_fragment_b(" + tme + ", " + lbe + ", " + ts + ")", thr.partition_fragment_B(make_tensor(make_smem_ptr(hbuf), lb)));
}

#define COPY(op) copy<op>(#op)
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
  COPY(SM75_U32x1_LDSM_N); COPY(SM75_U32x2_LDSM_N); COPY(SM75_U32x4_LDSM_N);
  COPY(SM75_U16x2_LDSM_T); COPY(SM75_U16x4_LDSM_T); COPY(SM75_U16x8_LDSM_T);
  COPY(SM90_U32x1_STSM_N); COPY(SM90_U32x2_STSM_N); COPY(SM90_U32x4_STSM_N);
  COPY(SM90_U16x2_STSM_T); COPY(SM90_U16x4_STSM_T); COPY(SM90_U16x8_STSM_T);
  copy<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>");
  copy<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>");
  copy<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>>("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>");
  copy<UniversalCopy<uint8_t>>("UniversalCopy<uint8_t>");
  copy<UniversalCopy<uint16_t>>("UniversalCopy<uint16_t>");
  copy<UniversalCopy<uint32_t>>("UniversalCopy<uint32_t>");
  copy<UniversalCopy<uint64_t>>("UniversalCopy<uint64_t>");
  copy<UniversalCopy<uint128_t>>("UniversalCopy<uint128_t>");
  // tiled MMAs; the lyt expression that builds each is the name
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(1,2,0), (32,32,16))",
        make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_1,_2,_0>>{}, Tile<_32,_32,_16>{}));
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(1,2,0))",
        make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_1,_2,_0>>{}));
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(2,1,0), (32,32,16))",
        make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_0>>{}, Tile<_32,_32,_16>{}));
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x8_F16F16F16F16_TN\"), (2,2):(1,2))",
        make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2,_2>, Stride<_1,_2>>{}));
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(1,2,0), (_, (4,4,2):(1,8,4), _))",
        make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_1,_2,_0>>{},
                       Tile<Underscore, Layout<Shape<_4,_4,_2>, Stride<_1,_8,_4>>, Underscore>{}));
  tiled("make_tiled_mma(mma_atom(\"SM80_16x8x32_S32S8S8S32_TN\"), (2,2,1):(1,2,0))",
        make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_1,_2,_0>>{}));
  tiled("make_tiled_mma(mma_atom(\"UniversalFMA\"), (16,16,1):(1,16,0))",
        make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>, Stride<_1,_16,_0>>{}));
  tiled("make_tiled_mma(mma_atom(\"SM90_64x64x16_F32F16F16_SS\"), (2,1,1):(1,0,0))",
        make_tiled_mma(SM90::GMMA::MMA_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{},
                       Layout<Shape<_2,_1,_1>, Stride<_1,_0,_0>>{}));
  tiled("make_tiled_mma(mma_atom(\"SM90_64x128x16_F32F16F16_RS\"), (1,1,1):(0,0,0))",
        make_tiled_mma(SM90::GMMA::MMA_64x128x16_F32F16F16_RS<GMMA::Major::K, GMMA::Major::K>{},
                       Layout<Shape<_1,_1,_1>, Stride<_0,_0,_0>>{}));
  // partitions of a 128x128 tensor (row- and column-major) for several threads
  auto tm1 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_1,_2,_0>>{}, Tile<_32,_32,_16>{});
  const char *tm1e = "make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(1,2,0), (32,32,16))";
  auto tm2 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_0>>{});
  const char *tm2e = "make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (2,2,1):(2,1,0))";
  for (int t : {0, 5, 37, 127}) {
    parts(tm1e, tm1, Layout<Shape<_128,_128>, Stride<_128,_1>>{}, "(128,128):(128,1)", t);
    parts(tm1e, tm1, Layout<Shape<_128,_64>, Stride<_1,_128>>{}, "(128,64):(1,128)", t);
    parts(tm2e, tm2, Layout<Shape<_64,_64>, Stride<_64,_1>>{}, "(64,64):(64,1)", t);
  }
  tcopy("make_tiled_copy(copy_atom(\"UniversalCopy<uint128_t>\"), (16,8):(8,1), make_layout((1,8)), 16)",
        make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}));
  tcopy("make_tiled_copy(copy_atom(\"SM80_CP_ASYNC_CACHEALWAYS<uint128_t>\"), (16,8):(8,1), make_layout((1,8)), 16)",
        make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}));
  tcopy("make_tiled_copy(copy_atom(\"UniversalCopy<uint32_t>\"), make_layout((32,8)), make_layout((4,1)), 32)",
        make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{}));
  tcopy("make_tiled_copy(copy_atom(\"SM80_CP_ASYNC_CACHEALWAYS<uint64_t>\"), make_layout((8,16)), make_layout((4,1)), 16)",
        make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, half_t>{}, Layout<Shape<_8,_16>>{}, Layout<Shape<_4,_1>>{}));
  tcopy(("make_tiled_copy_mma(copy_atom(\"SM75_U32x4_LDSM_N\"), " + std::string(tm1e) + ", \"a\", 16)").c_str(),
        make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm1));
  tcopy(("make_tiled_copy_mma(copy_atom(\"SM75_U32x4_LDSM_N\"), " + std::string(tm1e) + ", \"b\", 16)").c_str(),
        make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm1));
  tcopy(("make_tiled_copy_mma(copy_atom(\"SM75_U16x8_LDSM_T\"), " + std::string(tm1e) + ", \"b\", 16)").c_str(),
        make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, tm1));
  tcopy(("make_tiled_copy_mma(copy_atom(\"SM90_U32x4_STSM_N\"), " + std::string(tm1e) + ", \"c\", 16)").c_str(),
        make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, tm1));
  tcopy(("make_tiled_copy_mma(copy_atom(\"UniversalCopy<uint32_t>\"), " + std::string(tm2e) + ", \"c\", 32)").c_str(),
        make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, float>{}, tm2));
  // local_tile, local_partition, partition_S/D on tensors over hbuf
  {
    auto g = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_256,_256>, Stride<_256,_1>>{});
    view("local_tile((256,256):(256,1), (64,32), (1,2))", local_tile(g, Shape<_64,_32>{}, make_coord(1, 2)));
    view("local_tile((256,256):(256,1), (64,32), (3,7))", local_tile(g, Shape<_64,_32>{}, make_coord(3, 7)));
    view("local_tile((256,256):(256,1), (64,32), (2,_))", local_tile(g, Shape<_64,_32>{}, make_coord(2, _)));
    auto c = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_128,_64>, Stride<_1,_128>>{});
    view("local_tile((128,64):(1,128), (32,32), (3,1))", local_tile(c, Shape<_32,_32>{}, make_coord(3, 1)));
    auto s = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_16,_64>, Stride<_64,_1>>{});
    for (int t : {0, 5, 31})
      view(("local_partition((16,64):(64,1), (2,16):(16,1), " + std::to_string(t) + ")").c_str(),
           local_partition(s, Layout<Shape<_2,_16>, Stride<_16,_1>>{}, t));
    for (int t : {0, 9, 200})
      view(("local_partition((128,64):(1,128), make_layout((16,16)), " + std::to_string(t) + ")").c_str(),
           local_partition(c, Layout<Shape<_16,_16>>{}, t));
    // projections (CuTe's Step with X), as a GEMM's CTA and thread tiling uses them
    view("local_tile((256,256):(256,1), (64,32,16), (1,3,_), (1,_,1))",
         local_tile(g, make_shape(Int<64>{}, Int<32>{}, Int<16>{}), make_coord(1, 3, _), Step<_1, X, _1>{}));
    view("local_tile((256,256):(256,1), (64,32,16), (1,3,_), (_,1,1))",
         local_tile(g, make_shape(Int<64>{}, Int<32>{}, Int<16>{}), make_coord(1, 3, _), Step<X, _1, _1>{}));
    view("local_tile((128,64):(1,128), (32,16,8), (2,1,_), (1,1,_))",
         local_tile(c, make_shape(Int<32>{}, Int<16>{}, Int<8>{}), make_coord(2, 1, _), Step<_1, _1, X>{}));
    auto sm = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_128,_8>>{});
    for (int t : {0, 37, 255}) {
      view(("local_partition(make_layout((128,8)), make_layout((16,16)), " + std::to_string(t) + ", (1,_))").c_str(),
           local_partition(sm, Layout<Shape<_16,_16>>{}, t, Step<_1, X>{}));
      view(("local_partition(make_layout((128,8)), make_layout((16,16)), " + std::to_string(t) + ", (_,1))").c_str(),
           local_partition(sm, Layout<Shape<_16,_16>>{}, t, Step<X, _1>{}));
      view(("local_partition((128,64):(1,128), make_layout((16,16)), " + std::to_string(t) + ", (1,1))").c_str(),
           local_partition(c, Layout<Shape<_16,_16>>{}, t, Step<_1, _1>{}));
    }
    auto tc1 = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});
    const char *tc1e = "make_tiled_copy(copy_atom(\"UniversalCopy<uint128_t>\"), (16,8):(8,1), make_layout((1,8)), 16)";
    auto a = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_128,_128>, Stride<_128,_1>>{});
    for (int t : {0, 9, 127}) {
      view(("partition_s(" + std::string(tc1e) + ", (128,128):(128,1), " + std::to_string(t) + ")").c_str(),
           tc1.get_slice(t).partition_S(a));
      view(("partition_d(" + std::string(tc1e) + ", (128,128):(128,1), " + std::to_string(t) + ")").c_str(),
           tc1.get_slice(t).partition_D(a));
    }
    auto tca = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm1);
    std::string tcae = "make_tiled_copy_mma(copy_atom(\"SM75_U32x4_LDSM_N\"), " + std::string(tm1e) + ", \"a\", 16)";
    auto sa = make_tensor(make_gmem_ptr(hbuf), Layout<Shape<_128,_32>, Stride<_32,_1>>{});
    for (int t : {0, 5, 77})
      view(("partition_s(" + tcae + ", (128,32):(32,1), " + std::to_string(t) + ")").c_str(), tca.get_slice(t).partition_S(sa));
  }
  // register fragments (partition_fragment_*) and their retiling by ldmatrix copies
  {
    using SA = Layout<Shape<_128,_32>, Stride<_32,_1>>;
    using SB = Layout<Shape<_128,_32>, Stride<_1,_128>>;
    using SC = Layout<Shape<_128,_128>, Stride<_128,_1>>;
    std::string tm1s = tm1e, tm2s = tm2e;
    for (int t : {0, 37, 127}) {
      frags(tm1s, tm1, SA{}, "(128,32):(32,1)", SB{}, "(128,32):(1,128)", SC{}, "(128,128):(128,1)", t);
      frags(tm2s, tm2, Layout<Shape<_64,_64>, Stride<_1,_64>>{}, "(64,64):(1,64)",
            Layout<Shape<_64,_64>, Stride<_64,_1>>{}, "(64,64):(64,1)", SC{}, "(128,128):(128,1)", t);
    }
    auto tmr = make_tiled_mma(SM90::GMMA::MMA_64x128x16_F32F16F16_RS<GMMA::Major::K, GMMA::Major::K>{},
                              Layout<Shape<_1,_1,_1>, Stride<_0,_0,_0>>{});
    std::string tmre = "make_tiled_mma(mma_atom(\"SM90_64x128x16_F32F16F16_RS\"), (1,1,1):(0,0,0))";
    for (int t : {0, 77})
      frags<false>(tmre, tmr, Layout<Shape<_64,_64>, Stride<_64,_1>>{}, "(64,64):(64,1)", SB{}, "", 
            Layout<Shape<_128,_256>, Stride<_256,_1>>{}, "(128,256):(256,1)", t);
    auto tm4 = make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>, Stride<_1,_16,_0>>{});
    frags("make_tiled_mma(mma_atom(\"UniversalFMA\"), (16,16,1):(1,16,0))", tm4,
          Layout<Shape<_128,_8>, Stride<_8,_1>>{}, "(128,8):(8,1)", Layout<Shape<_128,_8>, Stride<_1,_128>>{},
          "(128,8):(1,128)", SC{}, "(128,128):(128,1)", 9);
    // retile_D of the A and B fragments by the tiled copies ldmatrix makes for them
    auto sa = make_tensor(make_smem_ptr(hbuf), SA{});
    auto sb = make_tensor(make_smem_ptr(hbuf), SB{});
    for (int t : {0, 37}) {
      std::string ts = std::to_string(t);
      auto fa = tm1.get_slice(t).partition_fragment_A(sa);
      auto fb = tm1.get_slice(t).partition_fragment_B(sb);
      std::string fae = "partition_fragment_a(" + tm1s + ", (128,32):(32,1), " + ts + ")";
      std::string fbe = "partition_fragment_b(" + tm1s + ", (128,32):(1,128), " + ts + ")";
      auto ca4 = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm1);
      auto ca2 = make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, tm1);
      auto cb4 = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm1);
      auto cbt = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, tm1);
      auto e = [&](const char *op, const char *w) {
        return "retile(make_tiled_copy_mma(copy_atom(\"" + std::string(op) + "\"), " + tm1s + ", \"" + w + "\", 16), ";
      };
      lay(e("SM75_U32x4_LDSM_N", "a") + fae + ")", ca4.get_slice(t).retile_D(fa));
      lay(e("SM75_U32x2_LDSM_N", "a") + fae + ")", ca2.get_slice(t).retile_D(fa));
      lay(e("SM75_U32x4_LDSM_N", "b") + fbe + ")", cb4.get_slice(t).retile_D(fb));
      lay(e("SM75_U16x8_LDSM_T", "b") + fbe + ")", cbt.get_slice(t).retile_D(fb));
      auto fc = tm1.get_slice(t).partition_fragment_C(make_tensor(make_smem_ptr(hbuf), SC{}));
      auto cc = make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, tm1);
      lay("retile(make_tiled_copy_mma(copy_atom(\"SM90_U32x4_STSM_N\"), " + tm1s + ", \"c\", 16), partition_fragment_c(" +
          tm1s + ", (128,128):(128,1), " + ts + "))", cc.get_slice(t).retile_S(fc));
    }
  }
  auto tm3 = make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>, Stride<_1,_16,_0>>{});
  for (int t : {0, 17, 255})
    parts("make_tiled_mma(mma_atom(\"UniversalFMA\"), (16,16,1):(1,16,0))", tm3,
          Layout<Shape<_128,_128>, Stride<_1,_128>>{}, "(128,128):(1,128)", t);
}
