# Writes special_cases.json: lax's special functions (special.star) with the
# values SciPy 1.10 gives. Run once with python3 (NumPy, SciPy); the tests
# never need Python.
#   /usr/bin/python3 gen_special.py
# Each case: [jaxsh expression, value, flags]; "f64" compares at float64
# precision (rtol 1e-12), else within float32's.
import json, math
import numpy as np
import scipy.special as sp

def arr(v, dt="float32"):
    return "jnp.array(%s, jnp.%s)" % (json.dumps(list(v)), dt)

G = [0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 150.0, -0.5, -2.25, 1e-8, 1e6]
D = [0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 150.0, -0.5, -2.25, 1e-3, 1e6]
# the incomplete gamma function across the series / continued fraction
# switch (x = a + 1), small and large a
A = [0.5, 0.5, 1.0, 1.0, 3.0, 3.0, 10.0, 10.0, 100.0, 100.0, 0.01, 1000.0, 2.0, 7.5]
XG = [0.2, 4.0, 2.0, 0.5, 3.0, 6.0, 9.0, 15.0, 90.0, 120.0, 0.3, 1010.0, 0.0, 1e-3]
# the incomplete beta function on both sides of its symmetry switch
BA = [0.5, 2.0, 5.0, 1.0, 0.2, 30.0, 3.0, 10.0]
BB = [0.5, 3.0, 1.5, 1.0, 0.3, 20.0, 0.7, 100.0]
BX = [0.3, 0.7, 0.95, 0.25, 0.5, 0.6, 0.999, 0.05]
BESSEL = [0.0, 0.5, 1.0, -3.0, 7.5, 19.9, 20.1, -35.0, 100.0, 1e4]
ZS = [2.0, 3.0, 1.5, 4.5, 10.0, 2.0, 1.1]
ZQ = [1.0, 2.0, 0.5, 0.01, 3.0, 50.0, 1.0]
PM = [0.0, 1.0, 2.0, 3.0, 1.0, 4.0]
PX = [1.5, 1.5, 1.5, 0.25, 20.0, 7.0]

cases = []
for dt, flag in [("float32", []), ("float64", ["f64"])]:
    cases += [
        ["lax.lgamma(%s)" % arr(G, dt), sp.gammaln(G)] + flag,
        ["lax.digamma(%s)" % arr(D, dt), sp.digamma(D)] + flag,
        ["lax.igamma(%s, %s)" % (arr(A, dt), arr(XG, dt)), sp.gammainc(A, XG)] + flag,
        ["lax.igammac(%s, %s)" % (arr(A, dt), arr(XG, dt)), sp.gammaincc(A, XG)] + flag,
        ["lax.betainc(%s, %s, %s)" % (arr(BA, dt), arr(BB, dt), arr(BX, dt)), sp.betainc(BA, BB, BX)] + flag,
        ["lax.bessel_i0e(%s)" % arr(BESSEL, dt), sp.i0e(BESSEL)] + flag,
        ["lax.bessel_i1e(%s)" % arr(BESSEL, dt), sp.i1e(BESSEL)] + flag,
        ["lax.zeta(%s, %s)" % (arr(ZS, dt), arr(ZQ, dt)), sp.zeta(ZS, ZQ)] + flag,
        ["lax.polygamma(%s, %s)" % (arr(PM, dt), arr(PX, dt)), sp.polygamma(np.array(PM, int), PX)] + flag,
    ]

# Edge values: the poles, out-of-domain arguments and the limits.
cases += [
    ["lax.lgamma(jnp.array([0.0, -1.0, -3.0, 1.0, 2.0, jnp.inf, -jnp.inf]))", [math.inf, math.inf, math.inf, 0.0, 0.0, math.inf, math.inf]],
    # JAX's digamma is nan at every pole (SciPy's is -inf at 0)
    ["lax.digamma(jnp.array([0.0, -2.0, jnp.inf]))", [math.nan, math.nan, math.inf]],
    ["lax.igamma(jnp.array([1.0, 0.0, 2.0, -1.0, 2.0, 3.0]), jnp.array([0.0, 2.0, jnp.inf, 1.0, -1.0, jnp.nan]))",
     [0.0, 1.0, 1.0, math.nan, math.nan, math.nan]],
    ["lax.igammac(jnp.array([1.0, 0.0, 2.0]), jnp.array([0.0, 2.0, jnp.inf]))", [1.0, 0.0, 0.0]],
    ["lax.betainc(jnp.array([2.0, 2.0, -1.0, 2.0]), jnp.array([3.0, 3.0, 1.0, 3.0]), jnp.array([0.0, 1.0, 0.5, 1.5]))",
     [0.0, 1.0, math.nan, math.nan]],
    ["lax.zeta(jnp.array([1.0, 0.5, 2.0, 2.5]), jnp.array([1.0, 1.0, -2.0, -0.5]))", [math.inf, math.nan, math.inf, math.nan]],
    # negative q for integer x, as SciPy defines it
    ["lax.zeta(jnp.array([2.0, 3.0, 2.0, 4.0]), jnp.array([-0.5, -2.25, -20.5, -7.75]), )", sp.zeta([2.0, 3.0, 2.0, 4.0], [-0.5, -2.25, -20.5, -7.75])],
    # the derivatives: d/dx igamma is the Gamma density, d/da by the series;
    # betainc in x by the Beta density; lgamma's is digamma
    ["grad(lambda t: lax.igamma(jnp.float64(2.5), t))(jnp.float64(1.5))", float(1.5 ** 1.5 * math.exp(-1.5) / sp.gamma(2.5)), "f64"],
    ["grad(lambda t: lax.igammac(jnp.float64(2.5), t))(jnp.float64(1.5))", -float(1.5 ** 1.5 * math.exp(-1.5) / sp.gamma(2.5)), "f64"],
    ["grad(lambda t: lax.betainc(jnp.float64(2.0), jnp.float64(3.0), t))(jnp.float64(0.4))", 12 * 0.4 * 0.6 ** 2, "f64"],
    ["grad(lax.lgamma)(jnp.float64(3.7))", float(sp.digamma(3.7)), "f64"],
    # at 1 and 2, where lgamma's value is pinned to exactly 0
    ["[grad(lax.lgamma)(jnp.float64(1.0)), grad(lax.lgamma)(jnp.float64(2.0))]", [float(sp.digamma(1.0)), float(sp.digamma(2.0))], "f64"],
    ["[grad(lax.digamma)(jnp.float64(1.0)), grad(lax.digamma)(jnp.float64(-0.5))]", [float(sp.polygamma(1, 1.0)), float(sp.polygamma(1, -0.5))], "f64"],
]

# d/da P(a, x) by central differences of SciPy's gammainc in extended
# steps (Richardson), good to ~1e-10 relative.
def dbeta(a, b, x, which):
    def f(h):
        return sp.betainc(a + h, b, x) if which == "a" else sp.betainc(a, b + h, x)
    def c(h): return (f(h) - f(-h)) / (2 * h)
    return (4 * c(1e-4) - c(2e-4)) / 3

def dgda(a, x):
    def c(h): return (sp.gammainc(a + h, x) - sp.gammainc(a - h, x)) / (2 * h)
    return (4 * c(1e-4) - c(2e-4)) / 3
GA = [0.5, 1.0, 3.0, 10.0, 100.0, 2.5]
GX = [0.2, 2.0, 3.0, 15.0, 90.0, 1.5]
cases += [
    ["lax.igamma_grad_a(%s, %s)" % (arr(GA, "float64"), arr(GX, "float64")), [dgda(a, x) for a, x in zip(GA, GX)]],
    ["grad(lambda a: lax.igamma(a, jnp.float64(1.5)))(jnp.float64(2.5))", dgda(2.5, 1.5)],
    # betainc in a and b, on both sides of the continued fraction's swap
    ["[grad(lambda a: lax.betainc(a, jnp.float64(2.0), jnp.float64(x)))(jnp.float64(a)) for a, x in [(1.0, 0.3), (3.0, 0.8), (0.5, 0.05)]]",
     [dbeta(1.0, 2.0, 0.3, "a"), dbeta(3.0, 2.0, 0.8, "a"), dbeta(0.5, 2.0, 0.05, "a")]],
    ["[grad(lambda b: lax.betainc(jnp.float64(a), b, jnp.float64(x)))(jnp.float64(2.0)) for a, x in [(1.5, 0.3), (3.0, 0.8)]]",
     [dbeta(1.5, 2.0, 0.3, "b"), dbeta(3.0, 2.0, 0.8, "b")]],
    # random_gamma_grad: d sample / d a at a fixed quantile, -dP/da / dP/dx
    ["lax.random_gamma_grad(%s, %s)" % (arr(GA, "float64"), arr(GX, "float64")),
     [-dgda(a, x) / (x ** (a - 1) * math.exp(-x) / sp.gamma(a)) for a, x in zip(GA, GX)]],
]

def plain(v):
    if isinstance(v, (tuple, list)):
        return [plain(e) for e in v]
    if isinstance(v, np.ndarray):
        return plain(v.tolist()) if v.ndim else plain(v.item())
    if isinstance(v, np.generic):
        return plain(v.item())
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v

with open("special_cases.json", "w") as f:
    json.dump([[c[0], plain(c[1])] + list(c[2:]) for c in cases], f, indent=0)
    f.write("\n")
print(len(cases), "cases")
