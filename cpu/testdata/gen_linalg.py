# Generates linalg_numpy.json: matrices (well-conditioned, ill-conditioned,
# batched, square and rectangular) with NumPy 1.24's float64 results for
# the lax.linalg kernels' tests. Run once with
#   python3 gen_linalg.py > linalg_numpy.json
# Every input is rounded to float32 first, so the same case checks both
# precisions. Decompositions whose factors are unique up to signs (qr, svd
# vectors, eigenvectors) are checked by reconstruction in the Go test; the
# values stored here are the unique parts: cholesky factors, eigenvalues,
# singular values, R's absolute values and triangular solutions.
import json
import numpy as np

rng = np.random.default_rng(1717)


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def flat(a):
    return [float(v) for v in np.asarray(a).ravel()]


def hilbert(n):
    i = np.arange(n)
    return 1.0 / (i[:, None] + i[None, :] + 1)


cases = []


def add(name, a, spd=False, sym=False):
    a = f32(a)
    c = {"name": name, "shape": list(a.shape), "a": flat(a)}
    if a.shape[-1] == a.shape[-2]:
        if sym:
            c["eigvalsh"] = flat(np.linalg.eigvalsh(a))
        if spd:
            c["cholesky"] = flat(np.linalg.cholesky(a))
        w = np.linalg.eigvals(a)
        w = np.sort_complex(w.reshape(-1, a.shape[-1]))
        c["eigvals"] = [[float(z.real), float(z.imag)] for z in w.ravel()]
        tri = np.tril(a) + np.eye(a.shape[-1]) * (1 + np.abs(a).max())
        b = f32(rng.standard_normal(a.shape[:-1] + (3,)))
        c["b"] = flat(b)
        c["tril_solve"] = flat(np.linalg.solve(f32(tri), b))
    c["svd_s"] = flat(np.linalg.svd(a, compute_uv=False))
    c["cond"] = float(np.max(np.linalg.cond(a))) if a.shape[-1] == a.shape[-2] else 0.0
    cases.append(c)


for n in (1, 2, 3, 5, 8, 17):
    g = rng.standard_normal((n, n))
    add(f"random{n}", g)
    add(f"spd{n}", g @ g.T + n * np.eye(n), spd=True, sym=True)
    add(f"sym{n}", g + g.T, sym=True)
add("hilbert8", hilbert(8), spd=True, sym=True)
add("batch2x3", rng.standard_normal((2, 3, 4, 4)))
g = rng.standard_normal((3, 6, 6))
add("batch_spd", g @ np.swapaxes(g, -1, -2) + 6 * np.eye(6), spd=True, sym=True)
add("tall", rng.standard_normal((7, 3)))
add("wide", rng.standard_normal((3, 7)))
add("batch_tall", rng.standard_normal((2, 5, 2)))
add("rank_deficient", np.outer(rng.standard_normal(5), rng.standard_normal(4)))

print(json.dumps({"numpy": np.__version__, "cases": cases}, separators=(",", ":")))
