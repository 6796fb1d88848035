#!/usr/bin/python3
"""Golden cases for jnp.linalg on complex matrices (linalg_complex.json), in
the format golden_test.go documents. Run with /usr/bin/python3 (NumPy 1.24)
from this directory:

    /usr/bin/python3 gen_linalg_complex.py

Complex operands are built as lax.complex(re, im) of float arrays, and
complex results returned as (jnp.real(y), jnp.imag(y)). Factors unique only
up to phases (qr, svd and eigenvectors) are checked by reconstruction: the
expression rebuilds the input and the expected value is the input itself;
R of qr is compared in absolute value. Inputs are rounded to the dtype and
the references computed in complex128; tolerances are relative to the
condition of the problem.
"""

import json

import numpy as np

rng = np.random.default_rng(1719)
cases = []


def arr(a, dtype):
    a = np.asarray(a, dtype=dtype)
    return {"dtype": np.dtype(dtype).name, "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


def add(name, expr, args, y, fdt, tol):
    y = np.asarray(y)
    if y.dtype.kind == "c":
        w = [arr(y.real, fdt), arr(y.imag, fdt)]
        expr = f"(lambda y: (jnp.real(y), jnp.imag(y)))({expr})"
    elif y.dtype.kind == "f":
        w = arr(y, fdt)
    else:
        w = arr(y, y.dtype)
    cases.append({"name": name, "expr": expr, "args": args, "want": w, "rtol": tol, "atol": tol})


def add_tuple(name, expr, args, ys, fdt, tol):
    # A tuple result, each member complex (as a (real, imag) pair) or real.
    parts, want = [], []
    for i, y in enumerate(ys):
        y = np.asarray(y)
        if y.dtype.kind == "c":
            parts.append(f"jnp.real(t[{i}]), jnp.imag(t[{i}])")
            want += [arr(y.real, fdt), arr(y.imag, fdt)]
        else:
            parts.append(f"t[{i}]")
            want.append(arr(y, fdt))
    expr = f"(lambda t: ({', '.join(parts)},))({expr})"
    cases.append({"name": name, "expr": expr, "args": args, "want": want, "rtol": tol, "atol": tol})


def crandn(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def cargs(names_values, fdt):
    # Each operand as two float arguments, NAME_re and NAME_im.
    args = {}
    for name, v in names_values:
        args[name + "_re"] = arr(v.real, fdt)
        args[name + "_im"] = arr(v.imag, fdt)
    return args


def c(name):
    return f"lax.complex({name}_re, {name}_im)"


A, B, BM = c("a"), c("b"), c("bm")
H = f"(lambda x: x @ jnp.conj(jnp.swapaxes(x, -1, -2)))({A})"

for cdt in (np.complex64, np.complex128):
    fdt = np.float32 if cdt == np.complex64 else np.float64
    eps = np.finfo(fdt).eps
    cn = np.dtype(cdt).name
    for shape_name, a in [("3x3", crandn(3, 3) + 3 * np.eye(3)),
                          ("batch", crandn(2, 4, 4) + 4 * np.eye(4)),
                          ("graded5", np.linalg.qr(crandn(5, 5))[0] @ np.diag(np.logspace(0, -3, 5)) @ np.linalg.qr(crandn(5, 5))[0])]:
        a = a.astype(cdt).astype(np.complex128)
        n = a.shape[-1]
        cond = float(np.max(np.linalg.cond(a)))
        tol = 50 * eps * n * cond
        b = crandn(*a.shape[:-1]).astype(cdt).astype(np.complex128)
        bm = crandn(*a.shape[:-1], 2).astype(cdt).astype(np.complex128)
        args = cargs([("a", a), ("b", b), ("bm", bm)], fdt)
        t = f"{shape_name}_{cn}"
        add("solve_vec_" + t, f"jnp.linalg.solve({A}, {B})", args, np.linalg.solve(a, b[..., None])[..., 0], fdt, tol)
        add("solve_mat_" + t, f"jnp.linalg.solve({A}, {BM})", args, np.linalg.solve(a, bm), fdt, tol)
        add("inv_" + t, f"jnp.linalg.inv({A})", args, np.linalg.inv(a), fdt, tol)
        add("det_" + t, f"jnp.linalg.det({A})", args, np.linalg.det(a), fdt, tol)
        sign, logdet = np.linalg.slogdet(a)
        add_tuple("slogdet_" + t, f"jnp.linalg.slogdet({A})", args, [sign, logdet], fdt, tol)
        add("qr_" + t, f"(lambda q, r: q @ r)(*jnp.linalg.qr({A}))", args, a, fdt, tol)
        r = np.linalg.qr(a, mode="r") if a.ndim == 2 else np.stack([np.linalg.qr(m, mode="r") for m in a])
        add("qr_r_" + t, f"jnp.abs(jnp.linalg.qr({A}, mode='r'))", args, np.abs(r), fdt, tol)
        add("svd_" + t, f"(lambda u, s, vh: (u * s[..., None, :].astype(u.dtype)) @ vh)(*jnp.linalg.svd({A}))", args, a, fdt, tol)
        add("svdvals_" + t, f"jnp.linalg.svdvals({A})", args, np.linalg.svd(a, compute_uv=False), fdt, tol)
        h = a @ np.conj(np.swapaxes(a, -1, -2))
        hcond = float(np.max(np.linalg.cond(h)))
        htol = 50 * eps * n * hcond
        add("eigh_" + t, f"(lambda w, v: (v * w[..., None, :].astype(v.dtype)) @ jnp.conj(jnp.swapaxes(v, -1, -2)))(*jnp.linalg.eigh({H}))",
            args, h, fdt, htol)
        add("eigvalsh_" + t, f"jnp.linalg.eigvalsh({H})", args, np.linalg.eigvalsh(h), fdt, htol)
        add("eigvalsh_U_" + t, f"jnp.linalg.eigvalsh({A}, UPLO='U', symmetrize_input=False)", args,
            np.linalg.eigvalsh(a, UPLO="U"), fdt, tol)
        add("cholesky_" + t, f"jnp.linalg.cholesky({H})", args, np.linalg.cholesky(h), fdt, htol)
        add("cholesky_upper_" + t, f"jnp.linalg.cholesky({H}, upper=True)", args,
            np.conj(np.swapaxes(np.linalg.cholesky(h), -1, -2)), fdt, htol)
        add("eig_" + t, f"(lambda w, v: (v * w[..., None, :]) @ jnp.linalg.inv(v))(*jnp.linalg.eig({A}))", args, a, fdt, tol * 10)
        add("eigvals_prod_" + t, f"jnp.prod(jnp.linalg.eigvals({A}), axis=-1)", args, np.linalg.det(a), fdt, tol * 10)
        add("eigvals_sum_" + t, f"jnp.sum(jnp.linalg.eigvals({A}), axis=-1)", args, np.trace(a, axis1=-2, axis2=-1), fdt, tol * 10)
        add("matrix_rank_" + t, f"jnp.linalg.matrix_rank({A})", args, np.linalg.matrix_rank(a).astype(np.int32), fdt, 0)
        add("cond_" + t, f"jnp.linalg.cond({A})", args, np.linalg.cond(a), fdt, tol)
        for ord_ in [2, -2, "'nuc'"]:
            npo = {"'nuc'": "nuc"}.get(ord_, ord_)
            add(f"norm_{ord_}_{t}", f"jnp.linalg.norm({A}, {ord_}, axis=(-2, -1))", args,
                np.linalg.norm(a, npo, axis=(-2, -1)), fdt, tol)

    # Rectangular: least squares, pseudo-inverse, rank, svd and qr shapes.
    for name, a in [("tall", crandn(6, 3)), ("wide", crandn(3, 5)),
                    ("rank1", np.outer(crandn(4), crandn(3)))]:
        a = a.astype(cdt).astype(np.complex128)
        m, n = a.shape
        t = f"{name}_{cn}"
        b = crandn(m).astype(cdt).astype(np.complex128)
        args = cargs([("a", a), ("b", b)], fdt)
        tol = 200 * eps * max(m, n) * (float(np.linalg.cond(a)) if name != "rank1" else 1.0)
        rcond = eps * max(m, n)  # JAX's default, in the dtype's epsilon
        x, resid, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
        add("lstsq_x_" + t, f"jnp.linalg.lstsq({A}, {B})[0]", args, x, fdt, tol)
        add("lstsq_rank_" + t, f"jnp.linalg.lstsq({A}, {B})[2]", args, np.int32(rank), fdt, 0)
        add("lstsq_s_" + t, f"jnp.linalg.lstsq({A}, {B})[3]", args, s, fdt, tol)
        if m > n and rank == n:
            add("lstsq_resid_" + t, f"jnp.linalg.lstsq({A}, {B})[1]", args, resid, fdt, tol)
        add("pinv_" + t, f"jnp.linalg.pinv({A})", args, np.linalg.pinv(a, rcond=10 * max(m, n) * eps), fdt, tol)
        smax = np.linalg.svd(a, compute_uv=False).max()
        add("matrix_rank_" + t, f"jnp.linalg.matrix_rank({A})", args, np.int32(np.linalg.matrix_rank(a, tol=smax * max(m, n) * eps)), fdt, 0)
        add("svd_full_" + t, f"(lambda u, s, vh: (u[:, :s.shape[0]] * s.astype(u.dtype)) @ vh[:s.shape[0]])(*jnp.linalg.svd({A}, full_matrices=True))", args, a, fdt, tol)
        add("svd_reduced_" + t, f"(lambda u, s, vh: (u * s.astype(u.dtype)) @ vh)(*jnp.linalg.svd({A}, full_matrices=False))", args, a, fdt, tol)
        add("qr_complete_" + t, f"(lambda q, r: q @ r)(*jnp.linalg.qr({A}, mode='complete'))", args, a, fdt, tol)
        add("qr_reduced_" + t, f"(lambda q, r: q @ r)(*jnp.linalg.qr({A}))", args, a, fdt, tol)
        add("norm_nuc_" + t, f"jnp.linalg.norm({A}, 'nuc')", args, np.linalg.norm(a, "nuc"), fdt, tol)

with open("linalg_complex.json", "w") as f:
    json.dump({"cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases")
