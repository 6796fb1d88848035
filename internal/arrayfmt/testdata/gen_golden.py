"""Generate the golden files for package arrayfmt from the real NumPy.

Re-run (needs NumPy; the system Python has it, pyenv's python3 may not):

    cd internal/arrayfmt/testdata && /usr/bin/python3 gen_golden.py

Writes arrays.json (whole arrays: NumPy str() and JAX repr text) and
scalars.json (single values through the digit generator). The Go tests only
read these files, they never run Python. The NumPy version used is recorded
in both files; the texts follow that version's numpy/core/arrayprint.py.

JAX repr. JAX cannot run here, so jax_repr() re-implements
ArrayImpl.__repr__ from jax/_src/array.py (jax-ml/jax; the same rule is in
every release since jax.Array, and in TypedNdArray.__repr__) on top of the
real np.array2string:

    prefix = 'Array('
    dtype_str = f'dtype={self.dtype.name})'      # weak_type=True never shown in jaxsh
    if self.size == 0: s = f"[], shape={self.shape}"
    else: s = np.array2string(self._value, prefix=prefix, suffix=',',
                              separator=', ', max_line_width=line_width)
    last_line_len = len(s) - s.rfind('\\n') + 1
    sep = ' '
    if last_line_len + len(dtype_str) + 1 > line_width: sep = ' ' * len(prefix)
    return f"{prefix}{s},{sep}{dtype_str}"

bfloat16. ml_dtypes is not installed here. Its scalar type derives from
np.generic (ml_dtypes/_src/floats.cc, RegisterFloatDtype), not np.floating,
so NumPy's _get_format_function falls through to 'numpystr' = repr(x): every
element is printed by its own repr, with no column padding. The repr and str
of the scalar (PyCustomFloat_Repr/_Str) are C++ `ostream << float`, i.e.
printf "%g" (6 significant digits), nan printed without sign. We reproduce
this faithfully with an object array of BF16 objects whose repr is that
rule: NumPy's 'object' formatter is also plain repr() per element, so the
layout (wrapping, summarisation, separators) comes from the real NumPy.
"""

import json
import math
import sys

import numpy as np

FLOAT_BITS = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}


class BF16:
    """A bfloat16 scalar that prints as ml_dtypes prints one."""

    def __init__(self, bits):
        self.bits = int(bits)
        self.value = float(np.array([self.bits << 16], np.uint32).view(np.float32)[0])

    def __repr__(self):
        v = self.value
        if math.isnan(v):
            return "nan"
        return "%g" % v

    __str__ = __repr__


def bf16_bits(values):
    """Round float values to bfloat16 (ties to even) and return the bits."""
    out = []
    for v in np.asarray(values, np.float32).ravel():
        b = int(np.array([v], np.float32).view(np.uint32)[0])
        if math.isnan(v):
            out.append((b >> 16) | 0x40)
            continue
        b += 0x7FFF + ((b >> 16) & 1)
        out.append((b >> 16) & 0xFFFF)
    return out


def encode(arr, dtype):
    """Flat data for JSON: float bits as hex so nan, -0.0 and every bit survive."""
    flat = arr.ravel()
    if dtype == "bfloat16":
        return ["0x%04x" % b.bits for b in flat]
    if dtype in FLOAT_BITS:
        return ["0x%x" % b for b in flat.view(FLOAT_BITS[dtype])]
    if dtype == "bool":
        return [bool(b) for b in flat]
    return [int(b) for b in flat]


def jax_repr(x, dtype_name):
    prefix = "Array("
    dtype_str = f"dtype={dtype_name})"
    line_width = np.get_printoptions()["linewidth"]
    if x.size == 0:
        s = f"[], shape={x.shape}"
    else:
        s = np.array2string(x, prefix=prefix, suffix=",", separator=", ", max_line_width=line_width)
    last_line_len = len(s) - s.rfind("\n") + 1
    sep = " "
    if last_line_len + len(dtype_str) + 1 > line_width:
        sep = " " * len(prefix)
    return f"{prefix}{s},{sep}{dtype_str}"


DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False)
nan, inf = float("nan"), float("inf")
rng = np.random.default_rng(20260101)
cases = []


def case(name, dtype, values, shape=None, **opts):
    if dtype == "bfloat16":
        bits = bf16_bits(values)
        arr = np.empty(len(bits), dtype=object)
        for i, b in enumerate(bits):
            arr[i] = BF16(b)
    else:
        arr = np.asarray(values, dtype=dtype)
    if shape is not None:
        arr = arr.reshape(shape)
    elif dtype == "bfloat16":
        arr = arr.reshape(np.shape(values))
    options = dict(DEFAULTS, **opts)
    with np.printoptions(**options):
        text = str(arr) if arr.ndim else str(arr[()])
        rep = jax_repr(arr, dtype)
    cases.append(dict(name=name, dtype=dtype, shape=list(arr.shape), data=encode(arr, dtype),
                      options=options, str=text, repr=rep))


def f16(*bits):
    return np.array(bits, np.uint16).view(np.float16)


def build_cases():
    """Every whole-array case; each call of case() adds one."""
    # --- 0-d arrays: NumPy scalar str, JAX repr through array2string ---------
    for dt, v in [("float32", 3.0), ("float32", 0.1), ("float32", -0.0), ("float32", nan),
                  ("float32", -inf), ("float32", 1e-5), ("float32", 1e16), ("float32", 123456789.0),
                  ("float64", 0.1 + 0.2), ("float64", 1 / 3), ("float64", 1e16), ("float64", 1e-4),
                  ("float16", 0.1), ("float16", 65504), ("float16", 6e-8), ("int32", 7),
                  ("int8", -128), ("uint32", 4294967295), ("int64", -9223372036854775808),
                  ("bool", True), ("bool", False), ("bfloat16", 3.0), ("bfloat16", 0.1),
                  ("bfloat16", -nan), ("bfloat16", 1e6)]:
        case(f"0d {dt} {v!r}", dt, v)

    # --- 1-D floats --------------------------------------------------------------
    case("f32 basic", "float32", [1, 2, 3])
    case("f32 mixed decimals", "float32", [0.1, 0.25, -3.5, 100])
    case("f32 negatives", "float32", [-1.5, 2.25, -3, 0])
    case("f32 thirds", "float32", [1 / 3, 2 / 3, 1])
    case("f32 0.1+0.2", "float32", [np.float32(0.1) + np.float32(0.2), 0.3])
    case("f32 123456789", "float32", [123456789.0, 1.0])
    case("f32 1e7 positional", "float32", [1e7, 1.5])
    case("f32 just below 1e8", "float32", [99999992.0, 1.0])
    case("f32 1e8 scientific", "float32", [1e8])
    case("f32 float32(1e-4) below 1e-4", "float32", [1e-4, 2e-4])
    case("f32 ratio rounded in float32", "float32", [1 + 2**-23, 1000.0001])
    case("f32 ratio over 1000", "float32", [1, 1000.5])
    case("f32 nan inf -0", "float32", [nan, inf, -0.0, 1.5])
    case("f32 -inf widens column", "float32", [-inf, 1, 2])
    case("f32 only nan", "float32", [nan, nan])
    case("f32 nan -inf", "float32", [nan, -inf])
    case("f32 scientific with nan", "float32", [1e-10, nan, -inf, 1e10])
    case("f32 max and tiny", "float32", [np.finfo(np.float32).max, np.finfo(np.float32).tiny])
    case("f32 subnormal", "float32", [1e-45, 1])
    case("f32 zeros", "float32", [0, -0.0, 0])
    case("f64 precision cut", "float64", [0.1 + 0.2, 1 / 3, 2 / 3])
    case("f64 1e16", "float64", [1e16, 1])
    case("f64 huge tiny", "float64", [1e300, 1e-300, -1e-5])
    case("f64 three-digit exponents pad", "float64", [1e-100, 1e5])
    case("f64 exponent one digit mantissa", "float64", [1.5e10, 1e-10])
    case("f64 tie at 8 digits", "float64", [0.001953125, 1.0])
    case("f64 rounds to 1", "float64", [0.999999999999, 0.5])
    case("f64 ints as floats", "float64", [1, 10, 100, 1000])
    case("f64 random normal", "float64", rng.standard_normal(7))
    case("f64 random mixed scale", "float64", rng.standard_normal(6) * 10.0 ** rng.integers(-6, 6, 6))
    case("f16 decimals", "float16", [0.1, 0.2, 0.3])
    case("f16 extremes", "float16", [65504, -65504, 6e-8])
    case("f16 ratio rounded in float16", "float16", [1.0009765625, 1001])
    case("f16 1e-4 edge", "float16", [1e-4, 2e-4])
    case("f16 nan inf", "float16", [nan, -inf, 0.5])
    case("f16 all bit patterns sample", "float16", f16(*rng.integers(0, 0x7C00, 12)))
    # Dragon4's min_digits: scientific columns get further exact digits, not
    # zeros; positional columns print every integer digit exactly.
    case("f32 scientific extra digits", "float32", [0.1, 1.2345678e-5, 3])
    case("f16 scientific extra digits", "float16", [0.1, 1.234e-3, 2])
    case("f32 positional exact integers", "float32", [99999992.0, 5e7, 16777217.0])
    case("f16 positional exact integers", "float16", [65504, 2050, 100])
    case("f64 scientific extra digits", "float64", [0.1, 1.2345678e-5, 1 / 3])
    # 2^-12 = 0.000244140625 lies exactly between two 8-digit candidates:
    # Dragon4 takes the even one (strconv's shortest takes the other).
    case("f32 shortest tie to even", "float32", [2.0**-12, 1.5e-5])
    case("0d f32 shortest tie to even", "float32", 2.0**-12)

    # --- precision / suppress options -------------------------------------------
    case("precision 3", "float64", [1 / 3, 2.0, 1e-3], precision=3)
    case("precision 0", "float64", [1.5, 2.5, -0.4], precision=0)
    case("precision 3 scientific", "float64", [1e-10, 1 / 3], precision=3)
    case("suppress small", "float64", [1e-10, 1, -1e-9, 6e-9], suppress=True)
    case("suppress keeps 1e8 rule", "float64", [1e-10, 1e9], suppress=True)

    # --- integers -----------------------------------------------------------------
    case("i8 range", "int8", [-128, 0, 127, 5])
    case("i16", "int16", [-32768, 32767, 1])
    case("i32 basic", "int32", [1, 2, 3])
    case("i32 negative width", "int32", [-1, 100, 7])
    case("i64 extremes", "int64", [-9223372036854775808, 9223372036854775807])
    case("u8", "uint8", [0, 255, 17])
    case("u16", "uint16", [0, 65535])
    case("u32", "uint32", [0, 4294967295, 12])
    case("i32 2d", "int32", np.arange(-4, 8).reshape(3, 4))
    case("i32 3d", "int32", np.arange(24).reshape(2, 3, 4))
    case("i64 4d", "int64", np.arange(16).reshape(2, 2, 2, 2) * 1000 - 7000)
    case("i32 4d ones", "int32", np.arange(6).reshape(2, 1, 3, 1))

    # --- bools --------------------------------------------------------------------
    case("bool 1d", "bool", [True, False, True])
    case("bool single", "bool", [True])
    case("bool 2d", "bool", [[True, False], [False, True]])
    case("bool 3d", "bool", np.arange(12).reshape(2, 3, 2) % 3 == 0)

    # --- multi-dimensional floats -------------------------------------------------
    case("f32 2d", "float32", [[1, 2.5], [-3, 4]])
    case("f32 2d column", "float32", [[1], [2], [3]])
    case("f32 3d", "float32", np.arange(12).reshape(2, 3, 2) / 4)
    case("f64 4d", "float64", np.arange(24).reshape(2, 3, 2, 2) - 11.5)
    case("f32 2d scientific", "float32", [[1e-5, 1], [1e5, -2]])
    case("f16 2d", "float16", [[0.1, 1], [10, 100]])

    # --- line wrapping --------------------------------------------------------------
    case("f32 wrap 1d", "float32", np.linspace(0, 1, 30))
    case("f64 wrap negatives", "float64", -np.linspace(0, 2, 25) ** 3)
    case("i32 wrap 1d", "int32", np.arange(60))
    case("i64 wrap wide", "int64", np.arange(20) * 123456789012)
    case("f32 wrap 2d", "float32", np.arange(60).reshape(3, 20) / 7)
    case("i32 wrap 3d", "int32", np.arange(2 * 2 * 30).reshape(2, 2, 30))
    case("bool wrap", "bool", np.arange(40) % 3 == 0)
    case("linewidth 20", "float64", [1.5, 2, -3, 4, 5.25, 6], linewidth=20)
    case("linewidth tiny", "int32", [10, 20, 30], linewidth=1)
    case("linewidth wide", "int32", np.arange(40), linewidth=200)
    # Lengths around the point where JAX moves dtype= past six spaces.
    for n in (9, 10, 11, 12, 13, 14):
        case(f"f32 repr dtype fit {n}", "float32", np.arange(n) + 0.5)
    for n in (15, 16, 17, 18, 19, 20):
        case(f"i32 repr dtype fit {n}", "int32", np.arange(n) * 11)
    case("f32 2d repr last line long", "float32", np.arange(16).reshape(2, 8) + 0.125)

    # --- summarisation ----------------------------------------------------------------
    case("f32 1d 2000", "float32", np.arange(2000) * 0.5)
    case("i32 1d 1001", "int32", np.arange(1001))
    case("i32 1d 1000 not summarised", "int32", np.arange(1000))
    case("f64 2d 40x30", "float64", np.arange(1200).reshape(40, 30) / 3)
    case("i32 3d 10x11x12", "int32", np.arange(1320).reshape(10, 11, 12))
    case("bool 4d", "bool", (np.arange(2 * 8 * 3 * 30).reshape(2, 8, 3, 30) % 5) == 0)
    case("f32 summary format from shown only", "float32",
         np.concatenate([[1.5, 2, 3], np.full(1000, 1e-9), [4, 5, 6.25]]))
    case("i32 summary width from shown only", "int32",
         np.concatenate([[1, 2, 3], np.full(1000, -99999), [4, 5, 6]]))
    case("f32 2d short axis kept", "float32", np.arange(1004).reshape(2, 502) / 8)
    case("threshold 5", "int32", np.arange(10), threshold=5)
    case("edgeitems 1", "float64", np.arange(40).reshape(4, 10) + 0.5, threshold=10, edgeitems=1)
    case("edgeitems 0", "int32", np.arange(10), threshold=3, edgeitems=0)

    # --- empty arrays -------------------------------------------------------------------
    case("empty f32", "float32", [], shape=(0,))
    case("empty f32 0x3", "float32", [], shape=(0, 3))
    case("empty i32 2x0", "int32", [], shape=(2, 0))
    case("empty bool 3x0x2", "bool", [], shape=(3, 0, 2))

    # --- bfloat16 ------------------------------------------------------------------------
    case("bf16 basic", "bfloat16", [1, 2, 3])
    case("bf16 mixed", "bfloat16", [0.1, 1.5, -2, 1000])
    case("bf16 nonfinite", "bfloat16", [nan, inf, -inf, -0.0])
    case("bf16 exponents", "bfloat16", [1e6, 1e-5, 123456, 3e38])
    case("bf16 2d", "bfloat16", [[1, 2], [3, 4]])
    case("bf16 wrap", "bfloat16", np.linspace(-1, 1, 40))
    case("bf16 summarised", "bfloat16", np.arange(1500) / 3)

def random_values(dtype, n):
    """Random bit patterns (every exponent) plus values of ordinary size."""
    bits = FLOAT_BITS[dtype]
    width = np.dtype(bits).itemsize * 8
    raw = rng.integers(0, 2 ** (width - 1), n, dtype=np.uint64).astype(bits)
    vals = raw.view(dtype)
    vals = vals[np.isfinite(vals)]
    extra = rng.standard_normal(n // 2) * 10.0 ** rng.integers(-9, 9, n // 2)
    extra = extra[np.abs(extra) < np.finfo(dtype).max].astype(dtype)
    return np.concatenate([vals, extra, -vals[:8]])


def scalar_entry(dtype, v):
    entry = dict(dtype=dtype, bits="0x%x" % np.array([v]).view(FLOAT_BITS[dtype])[0],
                 str=str(v),
                 sci8=np.format_float_scientific(v, precision=8, unique=True, trim="."))
    if abs(v) < 1e17:
        entry["pos8"] = np.format_float_positional(v, precision=8, unique=True,
                                                   fractional=True, trim=".")
    return entry


def build_scalars(per_dtype):
    """Single values through NumPy's scalar str and the Dragon4 formatters."""
    scalars = []
    for dtype in ("float16", "float32", "float64"):
        vals = random_values(dtype, per_dtype)
        if dtype == "float16":
            vals = np.concatenate([vals, np.arange(0, 0x7C00, 97, dtype=np.uint16).view(np.float16)])
        for v in vals:
            scalars.append(scalar_entry(dtype, v))
    # Powers of two and their neighbours: unequal rounding margins, and
    # exact ties between shortest candidates.
    for dtype, lo, hi in (("float32", -149, 128), ("float64", -1074, 1024)):
        bits = FLOAT_BITS[dtype]
        for k in range(lo, hi, 1 if dtype == "float32" else 7):
            b = np.array([np.ldexp(np.array(1, dtype), k)], dtype).view(bits)[0]
            for v in np.array([b - 1, b, b + 1], bits).view(dtype):
                if np.isfinite(v):
                    scalars.append(scalar_entry(dtype, v))
    for b in list(range(0, 0x7F80, 331)) + [0x7F80, 0xFF80, 0x7FC0, 0x8000, 0x0001, 0x3DCD]:
        scalars.append(dict(dtype="bfloat16", bits="0x%04x" % b, str=str(BF16(b))))
    return scalars


def write(path, key, items):
    """One item per line: readable diffs without a line per number."""
    with open(path, "w") as f:
        f.write('{"numpy": %s, "generator": "gen_golden.py", "%s": [\n' % (json.dumps(np.__version__), key))
        f.write(",\n".join(json.dumps(item) for item in items))
        f.write("\n]}\n")


def main():
    build_cases()
    if len(cases) < 80:
        sys.exit(f"only {len(cases)} cases")
    scalars = build_scalars(400)
    write("arrays.json", "cases", cases)
    write("scalars.json", "scalars", scalars)
    print(f"{len(cases)} array cases, {len(scalars)} scalars")


if __name__ == "__main__":
    main()
