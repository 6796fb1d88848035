#!/usr/bin/python3
"""Golden cases for jnp.linalg's decompositions, solvers and array-API
members (linalg_decomp.json), in the format golden_test.go documents. Run
with /usr/bin/python3 (NumPy 1.24) from this directory:

    /usr/bin/python3 gen_linalg_decomp.py

Factors that are unique only up to signs (qr, svd and eigenvectors) are
checked by reconstruction: the expression rebuilds the input (Q @ R,
U diag(s) Vh, V diag(w) V^-1) and the expected value is the input itself.
Eigenvalues of eig are compared sorted. Inputs are rounded to float32 and
the references computed in float64; tolerances are relative to the
condition of the problem. JAX's conventions where they differ from
NumPy's: eigh symmetrizes its input, lstsq always returns residuals
(empty when m <= n), svd's vectors are checked by reconstruction only.
"""

import json

import numpy as np

rng = np.random.default_rng(3117)
cases = []


def arr(a, dtype):
    a = np.asarray(a, dtype=dtype)
    return {"dtype": np.dtype(dtype).name, "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


def add(name, expr, args, want, dtype, tol):
    if isinstance(want, (list, tuple)):
        w = [arr(x, dtype if np.asarray(x).dtype.kind == "f" else np.asarray(x).dtype) for x in want]
    else:
        w = arr(want, dtype if np.asarray(want).dtype.kind == "f" else np.asarray(want).dtype)
    cases.append({"name": name, "expr": expr, "args": args, "want": w, "rtol": tol, "atol": tol})


def spd(n, batch=()):
    g = rng.standard_normal(batch + (n, n))
    return g @ np.swapaxes(g, -1, -2) + n * np.eye(n)


for dtype in (np.float32, np.float64):
    dn = np.dtype(dtype).name
    eps = np.finfo(dtype).eps
    for shape_name, a in [("3x3", rng.standard_normal((3, 3)) + 3 * np.eye(3)),
                          ("batch", rng.standard_normal((2, 4, 4)) + 4 * np.eye(4)),
                          ("spd5", spd(5)), ("spd_batch", spd(3, (2,)))]:
        a = a.astype(dtype).astype(np.float64)
        n = a.shape[-1]
        cond = float(np.max(np.linalg.cond(a)))
        tol = 50 * eps * n * cond
        args = {"a": arr(a, dtype)}
        b = rng.standard_normal(a.shape[:-1]).astype(dtype).astype(np.float64)
        bm = rng.standard_normal(a.shape[:-1] + (2,)).astype(dtype).astype(np.float64)
        args_b = {"a": arr(a, dtype), "b": arr(b, dtype), "bm": arr(bm, dtype)}
        t = f"{shape_name}_{dn}"
        add("solve_vec_" + t, "jnp.linalg.solve(a, b)", args_b, np.linalg.solve(a, b[..., None])[..., 0], dtype, tol)
        add("solve_mat_" + t, "jnp.linalg.solve(a, bm)", args_b, np.linalg.solve(a, bm), dtype, tol)
        add("inv_" + t, "jnp.linalg.inv(a)", args, np.linalg.inv(a), dtype, tol)
        add("det_" + t, "jnp.linalg.det(a)", args, np.linalg.det(a), dtype, tol)
        sign, logdet = np.linalg.slogdet(a)
        add("slogdet_" + t, "jnp.linalg.slogdet(a)", args, [sign, logdet], dtype, tol)
        add("qr_" + t, "(lambda q, r: q @ r)(*jnp.linalg.qr(a))", args, a, dtype, tol)
        add("qr_r_" + t, "jnp.abs(jnp.linalg.qr(a, mode='r'))", args, np.abs(np.linalg.qr(a, mode="r") if a.ndim == 2 else np.stack([np.linalg.qr(m, mode="r") for m in a])), dtype, tol)
        add("svd_" + t, "(lambda u, s, vh: (u * s[..., None, :]) @ vh)(*jnp.linalg.svd(a))", args, a, dtype, tol)
        add("svdvals_" + t, "jnp.linalg.svdvals(a)", args, np.linalg.svd(a, compute_uv=False), dtype, tol)
        sym = (a + np.swapaxes(a, -1, -2)) / 2
        add("eigh_" + t, "(lambda w, v: (v * w[..., None, :]) @ jnp.swapaxes(v, -1, -2))(*jnp.linalg.eigh(a))", args, sym, dtype, tol)
        add("eigvalsh_" + t, "jnp.linalg.eigvalsh(a)", args, np.linalg.eigvalsh(sym), dtype, tol)
        add("eigvalsh_U_" + t, "jnp.linalg.eigvalsh(a, UPLO='U', symmetrize_input=False)", args,
            np.linalg.eigvalsh(a, UPLO="U"), dtype, tol)
        if shape_name.startswith("spd"):
            add("cholesky_" + t, "jnp.linalg.cholesky(a)", args, np.linalg.cholesky(a), dtype, tol)
            add("cholesky_upper_" + t, "jnp.linalg.cholesky(a, upper=True)", args,
                np.swapaxes(np.linalg.cholesky(a), -1, -2), dtype, tol)
            w = np.sort(np.linalg.eigvals(a).real, axis=-1)
            add("eigvals_" + t, "jnp.sort(jnp.real(jnp.linalg.eigvals(a)), axis=-1)", args, w, dtype, tol)
            add("eig_" + t, "(lambda w, v: jnp.real((v * w[..., None, :]) @ jnp.linalg.inv(jnp.real(v)).astype(v.dtype)))(*jnp.linalg.eig(a))",
                args, a, dtype, tol)
        add("matrix_power3_" + t, "jnp.linalg.matrix_power(a, 3)", args, np.linalg.matrix_power(a, 3), dtype, tol * 10)
        add("matrix_power_neg_" + t, "jnp.linalg.matrix_power(a, -2)", args, np.linalg.matrix_power(a, -2), dtype, tol * 10)
        add("matrix_rank_" + t, "jnp.linalg.matrix_rank(a)", args, np.linalg.matrix_rank(a).astype(np.int32), dtype, 0)
        add("cond_" + t, "jnp.linalg.cond(a)", args, np.linalg.cond(a), dtype, tol)
        add("cond_1_" + t, "jnp.linalg.cond(a, 1)", args, np.linalg.cond(a, 1), dtype, tol)
        for ord_ in [2, -2, "'nuc'", "'fro'", 1, "jnp.inf"]:
            npo = {"'nuc'": "nuc", "'fro'": "fro", "jnp.inf": np.inf}.get(ord_, ord_)
            add(f"norm_{ord_}_{t}", f"jnp.linalg.norm(a, {ord_}, axis=(-2, -1))", args,
                np.linalg.norm(a, npo, axis=(-2, -1)), dtype, tol)
        add("matrix_norm_" + t, "jnp.linalg.matrix_norm(a, ord=2)", args, np.linalg.norm(a, 2, axis=(-2, -1)), dtype, tol)
        add("vector_norm_" + t, "jnp.linalg.vector_norm(a)", args, np.linalg.norm(a.ravel()), dtype, tol)
        add("vector_norm_axis_" + t, "jnp.linalg.vector_norm(a, axis=-1, ord=1)", args, np.linalg.norm(a, 1, axis=-1), dtype, tol)
        add("trace_" + t, "jnp.linalg.trace(a)", args, np.trace(a, axis1=-2, axis2=-1), dtype, tol)
        add("diagonal_" + t, "jnp.linalg.diagonal(a, offset=1)", args, np.diagonal(a, 1, -2, -1), dtype, tol)
        add("matrix_transpose_" + t, "jnp.linalg.matrix_transpose(a)", args, np.swapaxes(a, -1, -2), dtype, tol)
        add("matmul_" + t, "jnp.linalg.matmul(a, a)", args, a @ a, dtype, tol)
        add("vecdot_" + t, "jnp.linalg.vecdot(a, a)", args, np.sum(a * a, axis=-1), dtype, tol)

    # Rectangular: least squares, pseudo-inverse, rank, svd shapes.
    for name, a in [("tall", rng.standard_normal((6, 3))), ("wide", rng.standard_normal((3, 5))),
                    ("rank1", np.outer(rng.standard_normal(4), rng.standard_normal(3)))]:
        a = a.astype(dtype).astype(np.float64)
        m, n = a.shape
        t = f"{name}_{dn}"
        b = rng.standard_normal(m).astype(dtype).astype(np.float64)
        args = {"a": arr(a, dtype), "b": arr(b, dtype)}
        tol = 200 * eps * max(m, n) * max(1.0, float(np.linalg.norm(np.linalg.pinv(a), 2) * np.linalg.norm(a, 2)) if name != "rank1" else 1.0)
        rcond = eps * max(m, n)  # JAX's default, in the dtype's epsilon
        x, resid, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
        add("lstsq_x_" + t, "jnp.linalg.lstsq(a, b)[0]", args, x, dtype, tol)
        add("lstsq_rank_" + t, "jnp.linalg.lstsq(a, b)[2]", args, np.int32(rank), dtype, 0)
        add("lstsq_s_" + t, "jnp.linalg.lstsq(a, b)[3]", args, s, dtype, tol)
        if m > n and rank == n:
            add("lstsq_resid_" + t, "jnp.linalg.lstsq(a, b)[1]", args, resid, dtype, tol)
        add("pinv_" + t, "jnp.linalg.pinv(a)", args, np.linalg.pinv(a, rcond=10 * max(m, n) * eps), dtype, tol)
        smax = np.linalg.svd(a, compute_uv=False).max()
        add("matrix_rank_" + t, "jnp.linalg.matrix_rank(a)", args, np.int32(np.linalg.matrix_rank(a, tol=smax * max(m, n) * eps)), dtype, 0)
        add("svd_full_" + t, "(lambda u, s, vh: (u[:, :s.shape[0]] * s) @ vh[:s.shape[0]])(*jnp.linalg.svd(a, full_matrices=True))", args, a, dtype, tol)
        cases.append({"name": "svd_shapes_" + t, "expr": "[x.shape[0] for x in jnp.linalg.svd(a, full_matrices=True)]",
                      "args": args, "want": [m, min(m, n), n]})
        add("qr_complete_" + t, "(lambda q, r: q @ r)(*jnp.linalg.qr(a, mode='complete'))", args, a, dtype, tol)
        add("norm_nuc_" + t, "jnp.linalg.norm(a, 'nuc')", args, np.linalg.norm(a, "nuc"), dtype, tol)

    # The rest of the array API.
    x3 = rng.standard_normal((2, 3)).astype(dtype)
    y3 = rng.standard_normal((2, 3)).astype(dtype)
    args = {"x": arr(x3, dtype), "y": arr(y3, dtype)}
    add("cross_" + dn, "jnp.linalg.cross(x, y)", args, np.cross(x3, y3), dtype, 1e-5)
    add("outer_" + dn, "jnp.linalg.outer(x[0], y[1])", args, np.outer(x3[0], y3[1]), dtype, 1e-5)
    m1, m2, m3 = (rng.standard_normal(s).astype(dtype) for s in [(3,), (3, 4), (4, 2)])
    add("multi_dot_" + dn, "jnp.linalg.multi_dot([p, q, r])", {"p": arr(m1, dtype), "q": arr(m2, dtype), "r": arr(m3, dtype)},
        np.linalg.multi_dot([m1, m2, m3]), dtype, 1e-5)
    t4 = (rng.standard_normal((4, 4)) + 4 * np.eye(4)).astype(dtype)
    add("tensorinv_" + dn, "jnp.linalg.tensorinv(t.reshape(2, 2, 4), ind=2)", {"t": arr(t4, dtype)},
        np.linalg.tensorinv(t4.astype(np.float64).reshape(2, 2, 4), ind=2), dtype, 1e-4)
    bb = rng.standard_normal((2, 2)).astype(dtype)
    add("tensorsolve_" + dn, "jnp.linalg.tensorsolve(t.reshape(2, 2, 4), b)", {"t": arr(t4, dtype), "b": arr(bb, dtype)},
        np.linalg.tensorsolve(t4.astype(np.float64).reshape(2, 2, 4), bb.astype(np.float64)), dtype, 1e-4)

cases.append({"name": "qr_mode_error", "expr": "jnp.linalg.qr(a, mode='bad')", "args": {"a": arr(np.eye(2), np.float32)},
              "error": "unsupported QR decomposition mode"})
cases.append({"name": "cross_error", "expr": "jnp.linalg.cross(a, a)", "args": {"a": arr(np.eye(2), np.float32)},
              "error": "3-dimensional vectors"})
cases.append({"name": "cholesky_not_pd", "expr": "jnp.linalg.cholesky(a)", "args": {"a": arr([[1, 2], [2, 1]], np.float32)},
              "want": arr([[np.nan, np.nan], [np.nan, np.nan]], np.float32)})

for c in cases:
    def fix(w):
        if not isinstance(w, dict):
            return
        for i, v in enumerate(w.get("data", [])):
            if isinstance(v, float) and np.isnan(v):
                w["data"][i] = "nan"
    if isinstance(c.get("want"), list):
        for w in c["want"]:
            fix(w)
    elif "want" in c:
        fix(c["want"])

with open("linalg_decomp.json", "w") as f:
    json.dump({"cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases")
