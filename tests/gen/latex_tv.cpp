// The expected text of tests/golden/pictures/latex_tv.lyt: CuTe C++ print_latex_tv
// of each of its layouts (build and run as tests/gen/README.md says, then strip
// the `_` of static integers).
#include <cute/tensor.hpp>
#include <cute/util/print_latex.hpp>
using namespace cute;
template <class TV, class T> void go(TV tv, T tile) {
  print_latex_tv(composition(make_identity_layout(tile), tv), tile);
}
int main() {
  go(Layout<Shape<_2,_2>, Stride<_2,_1>>{}, Shape<_2,_2>{});
  go(Layout<Shape<Shape<_2,_2>,_2>, Stride<Stride<_4,_1>,_2>>{}, Shape<_4,_2>{});
  go(Layout<Shape<_4,_4>, Stride<_0,_1>>{}, Shape<_2,_2>{});
  go(Layout<Shape<Shape<_4,_8>,Shape<_2,_2>>, Stride<Stride<_16,_1>,Stride<_8,_64>>>{}, Shape<_16,_8>{});
}
