# Generates linalg_complex_numpy.json: complex matrices (well- and
# ill-conditioned, Hermitian, positive definite, batched, square and
# rectangular) with NumPy 1.24's complex128 results for the complex
# lax.linalg kernels' tests. Run once with
#   python3 gen_linalg_complex.py > linalg_complex_numpy.json
# Inputs are rounded to complex64 first, so the same case checks both
# precisions. Complex numbers are stored as [re, im] pairs. Factors unique
# only up to phases (eigenvectors, singular vectors) are checked by
# reconstruction in the Go test; stored here are the unique parts:
# Cholesky factors, R of QR (zgeqrf leaves its diagonal real, as the
# kernel does), eigenvalues, singular values, determinants and triangular
# solutions.
import json
import numpy as np

rng = np.random.default_rng(1718)


def c64(a):
    return np.asarray(a, dtype=np.complex64).astype(np.complex128)


def pairs(a):
    return [[float(z.real), float(z.imag)] for z in np.asarray(a, dtype=np.complex128).ravel()]


def flat(a):
    return [float(v) for v in np.asarray(a).ravel()]


def crandn(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def herm(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


cases = []


def add(name, a, hpd=False, hermitian=False):
    a = c64(a)
    m, n = a.shape[-2:]
    c = {"name": name, "shape": list(a.shape), "a": pairs(a)}
    c["svd_s"] = flat(np.linalg.svd(a, compute_uv=False))
    if m >= n:
        c["qr_r"] = pairs(np.linalg.qr(a)[1])
    if m == n:
        c["cond"] = float(np.max(np.linalg.cond(a)))
        if hermitian:
            c["eigvalsh"] = flat(np.linalg.eigvalsh(a))
        if hpd:
            c["cholesky"] = pairs(np.linalg.cholesky(a))
        w = np.sort_complex(np.linalg.eigvals(a).reshape(-1, n))
        c["eigvals"] = pairs(w)
        c["det"] = pairs(np.linalg.det(a))
        # A well-conditioned triangle from a's: its lower part, with
        # 1+max|a| added to the diagonal. Solutions of tri·x = b and
        # triᴴ·x = b.
        tri = c64(np.tril(a) + np.eye(n) * (1 + np.abs(a).max()))
        b = c64(crandn(*a.shape[:-1], 3))
        c["b"] = pairs(b)
        c["tril_solve"] = pairs(np.linalg.solve(tri, b))
        c["tril_h_solve"] = pairs(np.linalg.solve(np.conj(np.swapaxes(tri, -1, -2)), b))
    else:
        c["cond"] = float(np.max(np.linalg.cond(a)))
    cases.append(c)


for n in (1, 2, 3, 5, 8, 17):
    g = crandn(n, n)
    add(f"random{n}", g)
    add(f"hpd{n}", g @ np.conj(g.T) + n * np.eye(n), hpd=True, hermitian=True)
    add(f"hermitian{n}", herm(g), hermitian=True)
# Ill-conditioned: a Hilbert matrix turned by a unitary diagonal (still
# Hermitian positive definite), and a random matrix with singular values
# from 1 down to 1e-6.
i = np.arange(7)
hil = 1.0 / (i[:, None] + i[None, :] + 1)
d = np.exp(1j * rng.uniform(0, 2 * np.pi, 7))
add("hilbert7_phased", d[:, None] * hil * np.conj(d)[None, :], hpd=True, hermitian=True)
u, _ = np.linalg.qr(crandn(6, 6))
v, _ = np.linalg.qr(crandn(6, 6))
add("graded6", u @ np.diag(np.logspace(0, -6, 6)) @ v)
add("batch2x3", crandn(2, 3, 4, 4))
g = crandn(3, 6, 6)
add("batch_hpd", g @ np.conj(np.swapaxes(g, -1, -2)) + 6 * np.eye(6), hpd=True, hermitian=True)
add("tall", crandn(7, 3))
add("wide", crandn(3, 7))
add("batch_tall", crandn(2, 5, 2))
add("batch_wide", crandn(2, 2, 5))
add("rank_deficient", np.outer(crandn(5), crandn(4)))
add("real_valued", rng.standard_normal((5, 5)))

print(json.dumps({"numpy": np.__version__, "cases": cases}, separators=(",", ":")))
