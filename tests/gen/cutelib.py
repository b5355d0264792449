"""Small helpers for the differential-test generator (our own code, not CuTe).

Values used to describe test operands:
  int, tuple (IntTuple / coordinate), U (the wildcard `_`), Lay(shape, stride),
  Tiler([...]) (lyt `[...]`), Swz(b, m, s), Raw(lyt_text, cpp_text).
Each value can be rendered as lyt source text (lyt()) and as a C++ expression
with static integers (cpp()).
"""
import re


class _U:
    def __repr__(self):
        return "_"


U = _U()


class Lay:
    def __init__(self, shape, stride):
        self.shape = shape
        self.stride = stride

    def __repr__(self):
        return lyt(self)


class Tiler:
    def __init__(self, items):
        self.items = list(items)


class Swz:
    def __init__(self, b, m, s):
        self.b, self.m, self.s = b, m, s


class Raw:
    def __init__(self, l, c):
        self.l, self.c = l, c


def lyt(x):
    if isinstance(x, bool):
        raise TypeError
    if isinstance(x, int):
        return str(x)
    if x is U:
        return "_"
    if isinstance(x, tuple):
        return "(" + ",".join(lyt(e) for e in x) + ")"
    if isinstance(x, Lay):
        return lyt(x.shape) + ":" + lyt(x.stride)
    if isinstance(x, Tiler):
        return "[" + ",".join(lyt(e) for e in x.items) + "]"
    if isinstance(x, Swz):
        return "swizzle(%d,%d,%d)" % (x.b, x.m, x.s)
    if isinstance(x, Raw):
        return x.l
    raise TypeError(x)


def cpp_type(x):
    if isinstance(x, int):
        return "Int<%d>" % x
    if x is U:
        return "Underscore"
    if isinstance(x, tuple):
        return "cute::tuple<" + ",".join(cpp_type(e) for e in x) + ">"
    raise TypeError(x)


def cpp(x):
    if isinstance(x, int) or x is U or isinstance(x, tuple):
        if x is U:
            return "_"
        return cpp_type(x) + "{}"
    if isinstance(x, Lay):
        return "Layout<%s,%s>{}" % (cpp_type(x.shape), cpp_type(x.stride))
    if isinstance(x, Tiler):
        return "make_tile(" + ",".join(cpp(e) for e in x.items) + ")"
    if isinstance(x, Swz):
        return "Swizzle<%d,%d,%d>{}" % (x.b, x.m, x.s)
    if isinstance(x, Raw):
        return x.c
    raise TypeError(x)


_STRIP = re.compile(r"(?<![\w@])_(?=-?\d)")


def strip_static(text):
    """C++ print text -> lyt print text: drop the `_` static markers."""
    return _STRIP.sub("", text)


# ---------------------------------------------------------------- parsing
def parse_tuple(s, i=0):
    if s[i] == "(":
        i += 1
        items = []
        if s[i] == ")":
            return (), i + 1
        while True:
            v, i = parse_tuple(s, i)
            items.append(v)
            if s[i] == ",":
                i += 1
                continue
            assert s[i] == ")", (s, i)
            return tuple(items), i + 1
    if s[i] == "_" and (i + 1 >= len(s) or not (s[i + 1].isdigit() or s[i + 1] == "-")):
        return U, i + 1
    m = re.compile(r"-?\d+").match(s, i)
    assert m, (s, i)
    return int(m.group()), m.end()


def parse_layout(text):
    """Parse a printed (stripped) plain layout `shape:stride`; None if not one."""
    try:
        sh, i = parse_tuple(text, 0)
        if text[i] != ":":
            return None
        st, j = parse_tuple(text, i + 1)
        if j != len(text):
            return None
        return Lay(sh, st)
    except Exception:
        return None


# ---------------------------------------------------------------- int tuples
def is_tuple(x):
    return isinstance(x, tuple)


def flatten(t):
    if is_tuple(t):
        out = []
        for e in t:
            out.extend(flatten(e))
        return out
    return [t]


def size(t):
    if isinstance(t, Lay):
        t = t.shape
    p = 1
    for e in flatten(t):
        p *= e
    return p


def depth(t):
    if is_tuple(t):
        return 1 + max([depth(e) for e in t] or [0])
    return 0


def crd2idx(c, shape, stride):
    """CuTe crd2idx with the 'last mode extends' rule."""
    if is_tuple(c):
        assert is_tuple(shape) and len(c) == len(shape), (c, shape)
        return sum(crd2idx(a, b, d) for a, b, d in zip(c, shape, stride))
    if is_tuple(shape):
        r = 0
        for k in range(len(shape) - 1):
            sz = size(shape[k])
            r += crd2idx(c % sz, shape[k], stride[k])
            c //= sz
        return r + crd2idx(c, shape[-1], stride[-1])
    return c * stride


def ev(L, i):
    return crd2idx(i, L.shape, L.stride)


def modes(L):
    if is_tuple(L.shape):
        return [Lay(s, d) for s, d in zip(L.shape, L.stride)]
    return [L]


def flat_modes(L):
    return list(zip(flatten(L.shape), flatten(L.stride)))


def cosize(L):
    return sum((s - 1) * abs(d) for s, d in flat_modes(L)) + 1


def complement_admissible(L):
    """Reference §6: filter, sort by stride, M_{i-1}*d_{i-1} | d_i (no cotarget condition)."""
    fm = sorted((d, s) for s, d in flat_modes(L) if s != 1 and d != 0)
    if any(d < 0 for d, s in fm):
        return False
    cur = 1
    for d, s in fm:
        if d % cur != 0 or d < cur:
            return False
        cur = s * d
    return True


def complement_cpp(L, cotarget):
    """Scalar-cotarget complement (C++ algorithm, un-coalesced)."""
    fm = sorted((d, s) for s, d in flat_modes(L) if s != 1 and d != 0)
    shp, std = [], []
    cur = 1
    for d, s in fm:
        shp.append(d // cur)
        std.append(cur)
        cur = s * d
    shp.append(-(-cotarget // cur))
    std.append(cur)
    return Lay(tuple(shp), tuple(std))


def concat(*ls):
    return Lay(tuple(l.shape for l in ls), tuple(l.stride for l in ls))


def tolay(x):
    if isinstance(x, int):
        return Lay(x, 1)
    return x
