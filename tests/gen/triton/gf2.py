"""Small pure-Python model of a GF(2) linear layout (written for this generator;
used to build operands, to check documented preconditions, and as a mock
backend when Triton is not installed).  Not Triton code."""


class LLError(Exception):
    pass


def log2(n):
    if n <= 0 or n & (n - 1):
        raise LLError("size %d is not a power of two" % n)
    return n.bit_length() - 1


def next_pow2_strict(b):  # LLVM NextPowerOf2: strictly greater
    p = 1
    while p <= b:
        p <<= 1
    return p


class LL:
    """ins: list of (name, [tuple(vec), ...]); outs: list of (name, size)."""

    def __init__(self, ins, outs, require_surjective=False):
        self.ins = [(n, [tuple(v) for v in vs]) for n, vs in ins]
        self.outs = [(n, int(s)) for n, s in outs]
        names = [n for n, _ in self.ins]
        if len(set(names)) != len(names) or len(set(self.out_names)) != len(self.outs):
            raise LLError("duplicate dim names")
        for n, vs in self.ins:
            for v in vs:
                if any(c < 0 for c in v):
                    raise LLError("negative basis component")
                if len(v) != len(self.outs):
                    raise LLError("basis length != number of out dims")
        for _, s in self.outs:
            log2(s)
        for n, vs in self.ins:
            for v in vs:
                for c, (o, s) in zip(v, self.outs):
                    if c >= s:
                        raise LLError("basis component %d >= out size %d of %s" % (c, s, o))
        if require_surjective and not self.is_surjective():
            raise LLError("layout is not surjective")

    # -- names / sizes
    @property
    def in_names(self):
        return [n for n, _ in self.ins]

    @property
    def out_names(self):
        return [n for n, _ in self.outs]

    def bases(self, name):
        return dict(self.ins)[name]

    def in_size(self, name):
        return 1 << len(self.bases(name))

    def out_size(self, name):
        return dict(self.outs)[name]

    def in_bits(self):
        return sum(len(vs) for _, vs in self.ins)

    def out_bits(self):
        return sum(log2(s) for _, s in self.outs)

    # -- flattening (first out-dim least significant)
    def flat(self, vec):
        r, sh = 0, 0
        for c, (_, s) in zip(vec, self.outs):
            r |= c << sh
            sh += log2(s)
        return r

    def columns(self):
        return [self.flat(v) for _, vs in self.ins for v in vs]

    def rank(self):
        return gf2_rank(self.columns())

    def is_surjective(self):
        return self.rank() == self.out_bits()

    def is_injective(self):
        return self.rank() == self.in_bits()

    def is_invertible(self):
        return self.is_surjective() and self.in_bits() == self.out_bits()

    def apply(self, vals):
        if sorted(vals) != sorted(self.in_names):
            raise LLError("apply: in dims differ")
        out = [0] * len(self.outs)
        for n, vs in self.ins:
            x = vals[n]
            for i, v in enumerate(vs):
                if x >> i & 1:
                    out = [a ^ b for a, b in zip(out, v)]
        return out

    def __eq__(self, o):
        return self.ins == o.ins and self.outs == o.outs

    def sublayout_bases(self, name, out_order):
        idx = [self.out_names.index(o) for o in out_order]
        return [tuple(v[i] for i in idx) for v in self.bases(name)]

    def transpose_outs(self, order):
        idx = [self.out_names.index(o) for o in order]
        return LL([(n, [tuple(v[i] for i in idx) for v in vs]) for n, vs in self.ins],
                  [self.outs[i] for i in idx])


def gf2_rank(cols):
    basis = []  # reduced vectors with distinct leading bits
    for c in cols:
        for b in basis:
            c = min(c, c ^ b)
        if c:
            basis.append(c)
    return len(basis)


def in_span(cols, v):
    return gf2_rank(cols + [v]) == gf2_rank(cols)


# ---------------------------------------------------------------- factories
def from_bases(bases, out_names, out_sizes=None, require_surjective=True):
    if out_sizes is None:
        if not require_surjective:
            raise LLError("out_dim_sizes required when require_surjective=False")
        sizes = [1] * len(out_names)
        for _, vs in bases:
            for v in vs:
                for k, c in enumerate(v):
                    if k < len(sizes):
                        sizes[k] = max(sizes[k], next_pow2_strict(c))
        out_sizes = sizes
    return LL(bases, list(zip(out_names, out_sizes)), require_surjective)


def strided_1d(size, stride, i, o):
    if size == 0:
        return LL([], [])
    return LL([(i, [(stride << k,) for k in range(log2(size))])], [(o, stride * size)], stride == 1)


def identity_1d(size, i, o):
    return strided_1d(size, 1, i, o)


def zeros_1d(size, i, o, out_size=1):
    return LL([(i, [(0,)] * log2(size))], [(o, out_size)], out_size == 1)


# ---------------------------------------------------------------- algebra
def supremum(x, y):
    """Merge of two name lists as Triton 3.6 does it (the documented
    'no supremum' error is never reached: [a,b] and [b,a] give [a,b])."""
    res = []
    px = {e: k for k, e in enumerate(x)}
    py = {e: k for k, e in enumerate(y)}
    INF = 1 << 30
    i = j = 0
    while i < len(x) or j < len(y):
        while i < len(x) and x[i] in res:
            i += 1
        while j < len(y) and y[j] in res:
            j += 1
        if i >= len(x) and j >= len(y):
            break
        if i < len(x) and j < len(y) and x[i] == y[j]:
            res.append(x[i])
            i += 1
            j += 1
            continue
        cx = py[x[i]] if i < len(x) and x[i] in py and py[x[i]] >= j else INF
        cy = px[y[j]] if j < len(y) and y[j] in px and px[y[j]] >= i else INF
        if i < len(x) and cx == INF:
            res.append(x[i])
            i += 1
        elif j < len(y) and cy == INF:
            res.append(y[j])
            j += 1
        elif cx <= cy:
            res.append(x[i])
            i += 1
        else:
            res.append(y[j])
            j += 1
    return res


def mul(a, b):
    ins = supremum(a.in_names, b.in_names)
    outs = supremum(a.out_names, b.out_names)
    asz, bsz = dict(a.outs), dict(b.outs)
    ab, bb = dict(a.ins), dict(b.ins)

    def ext(layout, v):
        d = dict(zip(layout.out_names, v))
        return d

    new_ins = []
    for n in ins:
        vs = []
        for v in ab.get(n, []):
            d = ext(a, v)
            vs.append(tuple(d.get(o, 0) for o in outs))
        for v in bb.get(n, []):
            d = ext(b, v)
            vs.append(tuple(d.get(o, 0) << (log2(asz[o]) if o in asz else 0) for o in outs))
        new_ins.append((n, vs))
    new_outs = [(o, asz.get(o, 1) * bsz.get(o, 1)) for o in outs]
    return LL(new_ins, new_outs)


def compose(a, b):
    if sorted(a.out_names) != sorted(b.in_names):
        raise LLError("compose: out dims of A != in dims of B")
    for o, s in a.outs:
        if s > b.in_size(o):
            raise LLError("compose: out size of A > in size of B")
    ins = [(n, [tuple(b.apply(dict(zip(a.out_names, v)))) for v in vs]) for n, vs in a.ins]
    return LL(ins, b.outs)


def _lstsq(A, B):
    """A outer (in A's out order = B's out order), B this."""
    ca = A.in_bits()
    if A.out_bits() < B.out_bits():
        raise LLError("lstsq: incompatible output shapes")
    # rows: out bits following A's out dims
    rows = []
    acols, bcols = A.columns(), B.columns()
    # flatten B columns into A's row numbering
    bsz = dict(B.outs)
    rowA = 0
    rowmap = []  # (rowA) for each B bit, in order
    for o, s in A.outs:
        for r in range(log2(s)):
            if r < log2(bsz[o]):
                rowmap.append(rowA)
            rowA += 1
    nrows = rowA
    mat = [0] * nrows
    for c, col in enumerate(acols):
        for r in range(nrows):
            if col >> r & 1:
                mat[r] |= 1 << c
    for c, col in enumerate(bcols):
        for rb, r in enumerate(rowmap):
            if col >> rb & 1:
                mat[r] |= 1 << (ca + c)
    # RREF
    ncols = ca + len(bcols)
    piv_r = 0
    for c in range(ncols):
        pr = next((r for r in range(piv_r, nrows) if mat[r] >> c & 1), None)
        if pr is None:
            continue
        mat[piv_r], mat[pr] = mat[pr], mat[piv_r]
        for r in range(nrows):
            if r != piv_r and mat[r] >> c & 1:
                mat[r] ^= mat[piv_r]
        piv_r += 1
    X = [0] * ca
    for r in range(nrows):
        if mat[r] == 0:
            continue
        c = (mat[r] & -mat[r]).bit_length() - 1
        if c >= ca:
            raise LLError("Precondition broken. Im(B) not contained in Im(A)")
        X[c] = mat[r] >> ca
    # column j of B -> flat A-input index
    flat = []
    for j in range(len(bcols)):
        v = 0
        for r in range(ca):
            v |= (X[r] >> j & 1) << r
        flat.append(v)
    # reshape: ins = B's in dims, outs = A's in dims
    outs = [(n, 1 << len(vs)) for n, vs in A.ins]
    res_ins, k = [], 0
    for n, vs in B.ins:
        vecs = []
        for _ in vs:
            v, f = [], flat[k]
            for _, s in outs:
                v.append(f % s)
                f //= s
            vecs.append(tuple(v))
            k += 1
        res_ins.append((n, vecs))
    return LL(res_ins, outs)


def invert_and_compose(this, outer):
    B = this
    if sorted(B.out_names) != sorted(outer.out_names):
        raise LLError("invert_and_compose: out dims differ")
    A = outer.transpose_outs(B.out_names)
    for o in B.out_names:
        if A.out_size(o) < B.out_size(o):
            raise LLError("invert_and_compose: incompatible output shapes")
    # identity dims: equal sublayouts, out sizes included (3.6 compares with ==)
    ident = [n for n in A.in_names if n in B.in_names and
             A.bases(n) == B.bases(n) and A.outs == B.outs]
    Ar = LL([(n, vs) for n, vs in A.ins if n not in ident], A.outs)
    Br = LL([(n, vs) for n, vs in B.ins if n not in ident], B.outs)
    if (not Ar.ins) != (not Br.ins):
        raise LLError("invert_and_compose: one side empty")
    if Ar.ins:
        ret = _lstsq(Ar, Br)
    else:
        ret = LL([], [])
    for n in ident:
        ret = mul(ret, identity_1d(A.in_size(n), n, n))
    # transpose ins to B's order, outs to A's order
    d = dict(ret.ins)
    ret = LL([(n, d[n]) for n in B.in_names], ret.outs)
    return ret.transpose_outs(A.in_names)


def pseudoinvert(a):
    ident = LL([], [])
    for o, s in a.outs:
        ident = mul(ident, identity_1d(s, o, o))
    return invert_and_compose(ident, a)


def invert(a):
    if not a.is_invertible():
        raise LLError("A linear layout must be surjective and square to be invertible")
    return pseudoinvert(a)
