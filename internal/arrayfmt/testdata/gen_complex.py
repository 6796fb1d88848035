"""Generate complex_cases_test.go (package arrayfmt) from the real NumPy.

Re-run (needs NumPy; the system Python has it):

    cd internal/arrayfmt/testdata && /usr/bin/python3 gen_complex.py

The expected texts are NumPy's str() (for a 0-d array, the complex
scalar's str, as Str promises) and the JAX repr that gen_golden.py's
jax_repr() builds on the real np.array2string. The Go test only reads the
generated table; it never runs Python. Data are written as hex float
literals (exact for both complex64 and complex128), nan/inf/-0 through
the test's helper variables.
"""

import math

import numpy as np

from gen_golden import DEFAULTS, jax_repr

nan, inf = float("nan"), float("inf")
rng = np.random.default_rng(20260202)
cases = []


def case(name, dtype, values, shape=None, **opts):
    arr = np.asarray(values, dtype=dtype)
    if shape is not None:
        arr = arr.reshape(shape)
    options = dict(DEFAULTS, **opts)
    with np.printoptions(**options):
        text = str(arr) if arr.ndim else str(arr[()])
        rep = jax_repr(arr, dtype)
    cases.append(dict(name=name, dtype=dtype, shape=list(arr.shape), data=arr.ravel(),
                      options=options, str=text, repr=rep))


def build_cases():
    # --- 0-d: complex scalar str; repr through array2string ----------------
    for v in [1 + 2j, 0j, complex(0, -0.0), complex(-0.0, -0.0), 2j, complex(-0.0, -2),
              1.5 - 0.25j, 1e-5 + 1e20j, complex(nan, nan), complex(inf, -inf),
              complex(0, nan), complex(0, inf), complex(0, -inf), complex(nan, 0),
              complex(-inf, 1), complex(1e16, 1e-4), 0.1 + 0.2j, complex(3, -0.0),
              complex(1 / 3, -2 / 3), complex(123456789, 1e-7), complex(1e-4, 0)]:
        for dt in ("complex64", "complex128"):
            case(f"0d {dt} {v!r}", dt, v)

    # --- 1-D -------------------------------------------------------------------
    for dt in ("complex64", "complex128"):
        c = "c64" if dt == "complex64" else "c128"
        case(f"{c} brief example", dt, [1 + 2j, -3.5 - 0.25j])
        case(f"{c} zeros", dt, [0, 0])
        case(f"{c} ints", dt, [1 + 1j, 2 - 2j, 10 + 100j])
        case(f"{c} thirds", dt, [1 / 3 + 2j / 3, 1 - 1j / 3])
        case(f"{c} 0.1+0.2j", dt, [0.1 + 0.2j, 0.3 - 0.7j])
        case(f"{c} negative zeros", dt, [complex(-0.0, -0.0), complex(0, -0.0), complex(-0.0, 1)])
        case(f"{c} real scientific only", dt, [1e10 + 1j, 1 - 2j])
        case(f"{c} imag scientific only", dt, [1 + 1e-10j, 2 - 3j])
        case(f"{c} both scientific", dt, [1e-5 + 1e5j, -3e12 - 4e-7j])
        case(f"{c} 1e8 boundary", dt, [99999999 + 1j, 1e8 + 1j])
        case(f"{c} nan inf", dt, [complex(nan, 1), complex(1, nan), complex(inf, -inf),
                                  complex(-inf, inf)])
        case(f"{c} imag all nan", dt, [complex(1, nan), complex(2.5, nan)])
        case(f"{c} real all inf", dt, [complex(inf, 1), complex(-inf, 0.5)])
        case(f"{c} nan only", dt, [complex(nan, nan)] * 3)
        case(f"{c} nan with scientific", dt, [complex(1e-10, nan), complex(nan, 1e10), 1 + 1j])
        case(f"{c} inf imag positional", dt, [complex(1, inf), 2 + 0.5j])
        case(f"{c} random normal", dt, rng.standard_normal(6) + 1j * rng.standard_normal(6))
        case(f"{c} random mixed scale", dt,
             rng.standard_normal(5) * 10.0 ** rng.integers(-6, 6, 5)
             + 1j * rng.standard_normal(5) * 10.0 ** rng.integers(-6, 6, 5))
        case(f"{c} wrap", dt, np.linspace(0, 1, 20) + 1j * np.linspace(-2, 2, 20))
        case(f"{c} 2d", dt, [[1 + 1j, 2.5 - 3j], [-1e3 + 0.5j, 4j]])
        case(f"{c} 2d scientific", dt, [[1e-5 + 1j, 1], [1e5 - 2j, 3j]])
        case(f"{c} 3d", dt, (np.arange(12) / 4 - 1j * np.arange(12)).reshape(2, 3, 2))
        # Summaries: small thresholds keep the pasted data short; one case
        # at the default threshold, with integer parts.
        case(f"{c} summarised 1d default threshold", dt, np.arange(1001) * (1 - 2j))
        case(f"{c} summarised 1d", dt, np.arange(60) * (0.5 + 0.25j), threshold=50)
        case(f"{c} summarised 2d", dt, (np.arange(96) / 3 - 1j * np.arange(96)).reshape(8, 12),
             threshold=50)
        case(f"{c} summary format from shown only", dt,
             np.concatenate([[1.5 + 1j, 2, 3j], np.full(20, 1e-9 + 1e9j), [4, 5j, 6.25 - 1j]]),
             threshold=20)
        case(f"{c} precision 3", dt, [1 / 3 + 1j / 7, 2 - 1e-3j], precision=3)
        case(f"{c} precision 0", dt, [1.5 + 2.5j, -0.4 - 0.6j], precision=0)
        case(f"{c} suppress small", dt, [1e-10 + 1j, 1 - 1e-9j], suppress=True)
        case(f"{c} linewidth 30", dt, np.arange(6) * (1.5 - 0.5j), linewidth=30)
        case(f"{c} threshold edgeitems", dt,
             (np.arange(40) + 0.5 + 2j * np.arange(40)).reshape(4, 10), threshold=10, edgeitems=1)
        case(f"{c} empty", dt, [], shape=(0,))
        case(f"{c} empty 2x0", dt, [], shape=(2, 0))
        for n in (5, 6, 7, 8):
            case(f"{c} repr dtype fit {n}", dt, np.arange(n) * (1 + 1j) + 0.5)

    # Decided in the part's own dtype: float32 max/min rounds to 1000 exactly.
    case("c64 ratio rounded in float32", "complex64", [1 + (1 + 2**-23) * 1j, 2 + 1000.0001j])
    case("c128 ratio over 1000", "complex128", [1 + 1j, 2 + 1000.5j])
    case("c64 max and tiny", "complex64",
         [complex(np.finfo(np.float32).max, np.finfo(np.float32).tiny), 1 + 1j])
    case("c128 huge tiny", "complex128", [1e300 - 1e-300j, 1e-5 + 1e100j])


def go_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "negZero" if math.copysign(1, x) < 0 else "0"
    if x == int(x) and abs(x) < 2**53:
        return str(int(x))
    return x.hex()


def go_string(s):
    out = '"'
    for ch in s:
        if ch == "\n":
            out += "\\n"
        elif ch in '"\\':
            out += "\\" + ch
        else:
            out += ch
    return out + '"'


def main():
    build_cases()
    lines = [
        "// Code generated by testdata/gen_complex.py from NumPy %s; DO NOT EDIT." % np.__version__,
        "",
        "package arrayfmt",
        "",
        "// complexCases: NumPy %s str() and the JAX repr of complex arrays." % np.__version__,
        "// data holds the real and imaginary parts interleaved.",
        "var complexCases = []complexCase{",
    ]
    for c in cases:
        o = c["options"]
        parts = []
        for z in c["data"]:
            parts += [go_float(z.real), go_float(z.imag)]
        shape = ", ".join(str(d) for d in c["shape"])
        lines.append("\t{")
        lines.append("\t\tname: %s, dtype: %s, shape: []int{%s}," % (go_string(c["name"]), go_string(c["dtype"]), shape))
        lines.append("\t\tdata: []float64{%s}," % ", ".join(parts))
        lines.append("\t\to:    Options{Precision: %d, Threshold: %d, EdgeItems: %d, LineWidth: %d, SuppressSmall: %s},"
                     % (o["precision"], o["threshold"], o["edgeitems"], o["linewidth"], str(o["suppress"]).lower()))
        lines.append("\t\tstr:  %s," % go_string(c["str"]))
        lines.append("\t\trepr: %s," % go_string(c["repr"]))
        lines.append("\t},")
    lines.append("}")
    with open("../complex_cases_test.go", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(cases)} complex cases")


if __name__ == "__main__":
    main()
