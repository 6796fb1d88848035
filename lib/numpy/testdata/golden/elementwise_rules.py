"""JAX's dtype rules and NumPy helpers shared by gen_elementwise.py and
elementwise_creation.py: the type promotion lattice with weak types, the
promote_args variants, conversions to a dtype (bfloat16 included), the
golden-case writer, and XLA's integer semantics as the CPU kernels
implement them."""

import json
import math

import numpy as np

NAN, INF = float("nan"), float("inf")

# --- JAX's type promotion ---------------------------------------------------

# jax/_src/dtypes.py _type_promotion_lattice with x64 enabled, without uint64
# (jaxsh has none): each node lists the nodes immediately above it. "i*" and
# "f*" are the weak categories of Python ints and floats.
LATTICE = {
    "bool": ["i*"],
    "i*": ["uint8", "int8"],
    "uint8": ["int16", "uint16"],
    "uint16": ["int32", "uint32"],
    "uint32": ["int64"],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": ["f*"],
    "f*": ["bfloat16", "float16"],
    "bfloat16": ["float32"],
    "float16": ["float32"],
    "float32": ["float64"],
    "float64": [],
}


def _ancestors(node):
    seen, todo = {node}, [node]
    while todo:
        for up in LATTICE[todo.pop()]:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return seen


def _lub(nodes):
    common = set.intersection(*(_ancestors(n) for n in nodes))
    (least,) = [c for c in common if _ancestors(c) >= common]
    return least


def is_float(dt):
    return dt in ("float16", "bfloat16", "float32", "float64")


def is_int(dt):
    return dt.startswith("int") or dt.startswith("uint")


def result_type(*types):
    """dtypes._lattice_result_type: types are (dtype, weak) pairs."""
    dts = [d for d, _ in types]
    if len(types) == 1:
        return types[0]
    if len(set(dts)) == 1 and not all(w for _, w in types):
        return dts[0], False
    if all(w for _, w in types):
        out, weak = _lub(set(dts)), True
    else:
        nodes = {("i*" if is_int(d) else "f*") if w else d for d, w in types}
        out = _lub(nodes)
        weak = out in ("i*", "f*")
        out = {"i*": "int32", "f*": "float32"}.get(out, out)
    return out, weak and out != "bool"


def to_inexact(t):
    """dtypes.to_inexact_dtype: int64 -> float64, other integers and bool ->
    float32; the weak flag is kept."""
    d, w = t
    if is_float(d):
        return t
    return ("float64" if d == "int64" else "float32"), w


def to_numeric(t):
    """dtypes.to_numeric_dtype: bool -> int32."""
    return ("int32", False) if t[0] == "bool" else t


# Rules: given the operands' (dtype, weak) types, the type the function
# computes in and the type of its result.
def COMMON(*ts):
    t = result_type(*ts)
    return t, t


def NUMERIC(*ts):
    t = to_numeric(result_type(*ts))
    return t, t


def INEXACT(*ts):
    t = to_inexact(result_type(*ts))
    return t, t


def COMPARE(*ts):
    t = result_type(*ts)
    return t, ("bool", False)


def CLASSIFY(t):
    """isnan/isinf/isfinite: no promotion, a bool result."""
    return t, ("bool", False)


def INTEGRAL_KEPT(t):
    """floor/ceil/trunc: integers and bool are returned unchanged."""
    if is_int(t[0]) or t[0] == "bool":
        return t, t
    return INEXACT(t)


def RINT(t):
    """rint: integers and bool become float32 (strong)."""
    if is_int(t[0]) or t[0] == "bool":
        return t, ("float32", False)
    return t, t


def ABS(t):
    return t, t


def LOGICAL(*ts):
    return result_type(*ts), ("bool", False)


# --- values -----------------------------------------------------------------

def to_bf16(x):
    """Round float values to bfloat16 (nearest even), as float32 values."""
    f = np.atleast_1d(np.asarray(x, dtype=np.float64).astype(np.float32))
    bits = f.view(np.uint32).astype(np.uint64)
    u = np.uint64
    bits = ((bits + u(0x7FFF) + ((bits >> u(16)) & u(1))) & u(0xFFFF0000)).astype(np.uint32)
    out = bits.view(np.float32).copy()
    out[np.isnan(f)] = np.nan
    return out.reshape(np.shape(x))


def cast(values, dtype):
    """values (a list, nested list or array) as a NumPy array of dtype;
    bfloat16 is float32 holding bfloat16 values."""
    if dtype == "bfloat16":
        return to_bf16(np.asarray(values, dtype=np.float64))
    a = np.asarray(values)
    with np.errstate(all="ignore"):
        if a.dtype.kind == "f" and is_int(dtype):
            return np.trunc(a).astype(np.int64).astype(dtype)
        return a.astype(dtype)


def enc(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0 and math.copysign(1, f) < 0:
        return "-0.0"
    return f


def spec(a, dtype):
    a = np.asarray(a)
    return {"dtype": dtype, "shape": list(a.shape), "data": [enc(v) for v in a.ravel()]}


class Operand:
    """An argument: an array of a dtype, or a Python number (weak)."""

    def __init__(self, values, dtype=None):
        if dtype is None:  # a Python scalar
            self.py = values
            self.type = ({bool: "bool", int: "int32", float: "float32"}[type(values)], type(values) is not bool)
            self.values = np.asarray(values)
        else:
            self.py = None
            self.type = (dtype, False)
            self.values = cast(values, dtype)

    def json(self):
        if self.py is not None:
            return {"py": enc(self.py)}
        return spec(self.values, self.type[0])

    def astype(self, dtype):
        """The operand converted as JAX converts it to the compute dtype."""
        if self.py is not None:
            return cast(np.asarray(self.py, dtype=np.float64 if isinstance(self.py, float) else None), dtype)
        if is_int(dtype) or dtype == "bool":
            return self.values.astype(dtype)
        return cast(self.values.astype(np.float64), dtype)


def A(values, dtype):
    return Operand(values, dtype)


def P(value):
    return Operand(value)


def evaluate(f, comp, out, ops):
    """f on the operands converted to the compute type, in float64 for
    floating computations, rounded to the result dtype."""
    xs = [op.astype(comp[0]) for op in ops]
    with np.errstate(all="ignore"):
        if is_float(comp[0]):
            r = f(*[x.astype(np.float64) for x in xs])
        else:
            r = f(*xs)
        r = np.asarray(r)
        if out[0] == "bool":
            return r.astype(bool)
        if is_float(out[0]):
            return cast(r.astype(np.float64), out[0])
        return r.astype(out[0])


class Cases:
    def __init__(self):
        self.cases = []
        self.names = set()

    def add(self, name, expr, args, want=None, error=None, rtol=None, atol=None, want_dtype=None):
        assert name not in self.names, name
        self.names.add(name)
        c = {"name": name, "expr": expr, "args": {k: v.json() for k, v in args.items()}}
        if error is not None:
            c["error"] = error
        elif isinstance(want, list):
            c["want"] = want
        elif isinstance(want, dict):
            c["want"] = want
        elif isinstance(want, (bool, int, float, str)):
            c["want"] = enc(float(want)) if want in ("inf", "nan") else want  # a Starlark number
        else:
            c["want"] = spec(want, want_dtype)
        if rtol is not None:
            c["rtol"] = rtol
        if atol is not None:
            c["atol"] = atol
        self.cases.append(c)

    def fn(self, name, expr, rule, f, *ops, rtol=None, atol=None):
        """A case whose dtype follows rule and whose value is f."""
        names = "abcd"[: len(ops)]
        comp, out = rule(*[op.type for op in ops])
        want = evaluate(f, comp, out, ops)
        self.add(name, expr, dict(zip(names, ops)), want=want, want_dtype=out[0], rtol=rtol, atol=atol)

    def write(self, path):
        with open(path, "w") as f:
            f.write('{"cases": [\n')
            f.write(",\n".join(json.dumps(c, sort_keys=True) for c in self.cases))
            f.write("\n]}\n")


# --- operand sets ---------------------------------------------------------

FLOATS = [0.0, -0.0, 0.5, -1.5, 2.5, 3.0, -7.25, 0.001, 100.0, NAN, INF, -INF]
UNIT = [-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, NAN]
POSITIVE = [0.0, 0.5, 1.0, 2.0, 10.0, 1e-3, 1e30, INF, NAN, -1.0]
INT32 = [0, 1, -1, 7, -7, 100, 2147483647, -2147483648]
INT8 = [0, 1, -1, 127, -128, 5]
UINT8 = [0, 1, 7, 128, 255]
BOOLS = [True, False, True]
# For float16/bfloat16, values that a float32 round trip keeps.
HALF = [0.0, -0.0, 0.5, -1.5, 2.5, 3.0, -7.25, 100.0, NAN, INF, -INF]

HALF_RTOL = {"float16": 4e-3, "bfloat16": 3e-2}


def tol(dtype, composite=False):
    """Tolerances for results computed in several rounded steps."""
    if composite and dtype in HALF_RTOL:
        return HALF_RTOL[dtype]
    return None


# --- JAX's integer semantics (XLA's, as the CPU kernels implement them) -----

def wrap(v, dtype):
    """v reduced to dtype's range, two's complement."""
    info = np.iinfo(dtype)
    v &= (1 << info.bits) - 1
    if info.min < 0 and v > info.max:
        v -= 1 << info.bits
    return v


def int_elementwise(f, *xs):
    """f on Python ints, element by element, wrapped to the first operand's
    dtype."""
    dtype = xs[0].dtype
    bs = np.broadcast_arrays(*xs)
    vals = [wrap(f(dtype, *[int(v) for v in t]), dtype) for t in zip(*[b.ravel() for b in bs])]
    return np.array(vals, dtype=dtype).reshape(bs[0].shape)


def lax_div(dtype, a, b):
    """lax.div on integers truncates; x / 0 is -1 (all bits set)."""
    if b == 0:
        return -1
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def lax_rem(dtype, a, b):
    """lax.rem has the dividend's sign; x rem 0 is x."""
    if b == 0:
        return a
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def sign(v):
    return (v > 0) - (v < 0)


def jax_floor_divide(dtype, a, b):
    """ufuncs.floor_divide: lax.div, minus one where the signs differ and the
    division is inexact. So x // 0 is -2 for x != 0 and -1 for 0 (signed)."""
    q = lax_div(dtype, a, b)
    if np.iinfo(dtype).min == 0:
        return q
    if sign(a) != sign(b) and lax_rem(dtype, a, b) != 0:
        return q - 1
    return q


def jax_remainder(dtype, a, b):
    """ufuncs.remainder: an integer divisor of 0 counts as 1, so x % 0 is 0."""
    if b == 0:
        b = 1
    m = lax_rem(dtype, a, b)
    if (m < 0) != (b < 0) and m != 0:
        m += b
    return m


def shift_left(dtype, a, b):
    """XLA: shifts by a negative or too large amount give 0."""
    bits = np.iinfo(dtype).bits
    return a << b if 0 <= b < bits else 0


def shift_right(dtype, a, b):
    """Arithmetic for signed, logical for unsigned; out of range amounts
    give the sign fill."""
    bits = np.iinfo(dtype).bits
    if 0 <= b < bits:
        return a >> b
    return -1 if a < 0 else 0


def int_power(dtype, a, b):
    """_pow_int_int for non-negative exponents: a**b, wrapped."""
    return pow(a, b, 1 << 64) if b >= 0 else None
