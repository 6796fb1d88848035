# Generates complex_numpy.json: NumPy 1.24's values for the complex
# primitives the CPU backend runs, per complex dtype. Run once with
#   python3 gen_complex.py > complex_numpy.json
# Inputs avoid branch cuts (math/cmplx and NumPy may pick different sides of
# a cut) and stay where the functions are finite. JAX's conventions where
# NumPy 1.24 differs: sign(z) = z/|z| (0 at 0); logistic = 1/(1+exp(-z));
# rsqrt = 1/sqrt(z). NumPy's complex log1p computes log(hypot(1+x, y)), which
# loses most digits near zero (0.1% off at 1e-5 in complex64); the reference
# here is the accurate 0.5*log1p(2x + x^2 + y^2) in float64, rounded once.
import json
import numpy as np

rng = np.random.default_rng(17)


def points(n):
    z = rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)
    fixed = [0.5 + 0.25j, 1j * 0.75, -0.3 + 0j + 0.1j, 1e-5 + 1e-5j, -1e-6 + 3e-7j, 1.5 - 0.5j]
    return np.concatenate([z, fixed])


def enc(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return [[float(v.real), float(v.imag)] for v in a.ravel()]
    if a.dtype == bool:
        return [bool(v) for v in a.ravel()]
    return [float(v) for v in a.ravel()]


def accurate_log1p(z):
    w = z.astype(np.complex128)
    x, y = w.real, w.imag
    re = 0.5 * np.log1p(x * (2 + x) + y * y)
    return (re + 1j * np.arctan2(y, x + 1)).astype(z.dtype)


unary = {
    "neg": np.negative, "exp": np.exp, "exp2": np.exp2, "log": np.log, "log1p": lambda z: accurate_log1p(z),
    "expm1": np.expm1, "tanh": np.tanh, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "sqrt": np.sqrt,
    "abs": np.abs, "square": np.square, "real": np.real, "imag": np.imag, "conj": np.conj,
    "sign": lambda z: np.where(z == 0, 0, z / np.where(z == 0, 1, np.abs(z))).astype(z.dtype),
    "logistic": lambda z: (1 / (1 + np.exp(-z))).astype(z.dtype),
    "rsqrt": lambda z: (1 / np.sqrt(z)).astype(z.dtype),
    "integer_pow": lambda z: z * z * z,
}
binary = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
    "pow": np.power, "max": np.maximum, "min": np.minimum, "eq": np.equal, "ne": np.not_equal,
}

cases = []
for dt in (np.complex64, np.complex128):
    name = np.dtype(dt).name
    x = points(24).astype(dt)
    for op, f in unary.items():
        with np.errstate(all="ignore"):
            y = f(x)
        cases.append({"op": op, "dtype": name, "in": [enc(x)], "out": enc(y)})
    y = points(24).astype(dt)
    y[::5] = x[::5]  # some equal pairs for eq/ne, max/min ties
    for op, f in binary.items():
        with np.errstate(all="ignore"):
            r = f(x, y)
        cases.append({"op": op, "dtype": name, "in": [enc(x), enc(y)], "out": enc(r)})
    part = np.float32 if dt == np.complex64 else np.float64
    re, im = x.real.astype(part), x.imag.astype(part)
    cases.append({"op": "complex", "dtype": np.dtype(part).name, "in": [enc(re), enc(im)],
                  "out": enc((re + 1j * im).astype(dt))})
    cases.append({"op": "conj", "dtype": np.dtype(part).name, "in": [enc(re)],
                  "out": enc(np.conj(re.astype(dt)))})

# Reductions, cumulative ops and matmul on a 4x6 (and 6x3) complex array.
reductions = []
for dt in (np.complex64, np.complex128):
    name = np.dtype(dt).name
    a = (rng.uniform(-1, 1, (4, 6)) + 1j * rng.uniform(-1, 1, (4, 6))).astype(dt)
    b = (rng.uniform(-1, 1, (6, 3)) + 1j * rng.uniform(-1, 1, (6, 3))).astype(dt)
    reductions.append({"op": "reduce_sum", "dtype": name, "axis": 1, "in": enc(a), "out": enc(a.sum(axis=1))})
    reductions.append({"op": "reduce_prod", "dtype": name, "axis": 1, "in": enc(a), "out": enc(a.prod(axis=1))})
    reductions.append({"op": "reduce_sum", "dtype": name, "axis": 0, "in": enc(a), "out": enc(a.sum(axis=0))})
    reductions.append({"op": "cumsum", "dtype": name, "axis": 1, "in": enc(a), "out": enc(np.cumsum(a, axis=1))})
    reductions.append({"op": "cumprod", "dtype": name, "axis": 1, "in": enc(a), "out": enc(np.cumprod(a, axis=1))})
    reductions.append({"op": "dot_general", "dtype": name, "axis": -1, "in": enc(a), "rhs": enc(b), "out": enc(a @ b)})

print(json.dumps({"numpy": np.__version__, "elementwise": cases, "reductions": reductions}))
