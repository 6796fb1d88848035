#!/usr/bin/python3
"""Golden cases for jnp on complex arrays (complex.json), in the format
golden_test.go documents. Run with /usr/bin/python3 (NumPy 1.24) from this
directory:

    /usr/bin/python3 gen_complex.py

Complex operands are built as lax.complex(re, im) of float arrays, and
complex results returned as (jnp.real(y), jnp.imag(y)). Values come from
NumPy in complex128, rounded to the result dtype; result dtypes follow
JAX's promotion lattice, written out here where NumPy's differs: an
integer array or a Python float with complex64 stays complex64 (NumPy
gives complex128 for int32). sign(z) is z/|z| as in JAX (NumPy 1.24 gives
the sign of the real part).
"""

import json

import numpy as np

rng = np.random.default_rng(1707)
cases = []


def num(v):
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def arr(a, dtype):
    a = np.asarray(a, dtype=dtype)
    return {"dtype": np.dtype(dtype).name, "shape": list(a.shape), "data": [num(v) for v in a.ravel()]}


def want(y, cdtype):
    y = np.asarray(y)
    real = np.float32 if cdtype == np.complex64 else np.float64
    if np.iscomplexobj(y) or cdtype in (np.complex64, np.complex128):
        if np.iscomplexobj(y) or y.dtype.kind == "c":
            return [arr(y.real, real), arr(y.imag, real)], True
    return arr(y, real if y.dtype.kind == "f" else y.dtype), False


def add(name, expr, args, y, cdtype, tol):
    w, is_complex = want(y, cdtype)
    if is_complex:
        expr = f"(lambda y: (jnp.real(y), jnp.imag(y)))({expr})"
    cases.append({"name": name, "expr": expr, "args": args, "want": w, "rtol": tol, "atol": tol})


def jax_isclose(a, b, rtol=1e-5, atol=1e-8):
    # JAX's rule (NumPy 1.24 turns complex infinities into NaNs on the way):
    # the tolerance test, false where either is infinite, true where both
    # are the same infinity.
    with np.errstate(invalid="ignore"):
        out = np.abs(a - b) <= atol + rtol * np.abs(b)
    a_inf, b_inf = np.isinf(a), np.isinf(b)
    out &= ~(a_inf | b_inf)
    out |= a_inf & b_inf & (a == b)
    return out


tols = {np.complex64: 4e-6, np.complex128: 1e-13}
for cdt in (np.complex64, np.complex128):
    fdt = np.float32 if cdt == np.complex64 else np.float64
    cn = np.dtype(cdt).name
    zr, zi = rng.uniform(-2, 2, (2, 3)).astype(fdt), rng.uniform(-2, 2, (2, 3)).astype(fdt)
    wr, wi = rng.uniform(-2, 2, (2, 3)).astype(fdt), rng.uniform(-2, 2, (2, 3)).astype(fdt)
    z = zr.astype(np.complex128) + 1j * zi
    w = wr.astype(np.complex128) + 1j * wi
    args = {"zr": arr(zr, fdt), "zi": arr(zi, fdt), "wr": arr(wr, fdt), "wi": arr(wi, fdt)}
    Z, W = "lax.complex(zr, zi)", "lax.complex(wr, wi)"
    tol = tols[cdt]
    for op, f in [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
                  ("power", np.power)]:
        add(f"{op}_{cn}", f"jnp.{op}({Z}, {W})", args, f(z, w).astype(cdt), cdt, tol * 10)
    for op, f in [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("sin", np.sin), ("cos", np.cos),
                  ("tan", np.tan), ("sinh", np.sinh), ("cosh", np.cosh), ("tanh", np.tanh),
                  ("arcsin", np.arcsin), ("arccos", np.arccos), ("arctan", np.arctan), ("arcsinh", np.arcsinh),
                  ("arccosh", np.arccosh), ("arctanh", np.arctanh), ("square", np.square), ("negative", np.negative),
                  ("reciprocal", np.reciprocal), ("exp2", np.exp2), ("expm1", np.expm1), ("log10", np.log10),
                  ("log2", np.log2)]:
        add(f"{op}_{cn}", f"jnp.{op}({Z})", args, f(z).astype(cdt), cdt, tol * 10)
    add(f"abs_{cn}", f"jnp.abs({Z})", args, np.abs(z).astype(fdt), cdt, tol)
    add(f"sign_{cn}", f"jnp.sign({Z})", args, (z / np.abs(z)).astype(cdt), cdt, tol)
    add(f"equal_{cn}", f"jnp.equal({Z}, {Z}) & jnp.not_equal({Z}, {W})", args, np.ones((2, 3), bool), cdt, 0)
    add(f"sum_{cn}", f"jnp.sum({Z}, axis=1)", args, z.sum(axis=1).astype(cdt), cdt, tol * 10)
    add(f"prod_{cn}", f"jnp.prod({Z}, axis=0)", args, z.prod(axis=0).astype(cdt), cdt, tol * 10)
    add(f"mean_{cn}", f"jnp.mean({Z})", args, np.mean(z).astype(cdt), cdt, tol * 10)
    add(f"var_{cn}", f"jnp.var({Z}, axis=0)", args, np.var(z, axis=0).astype(fdt), cdt, tol * 10)
    add(f"cumsum_{cn}", f"jnp.cumsum({Z}, axis=1)", args, np.cumsum(z, axis=1).astype(cdt), cdt, tol * 10)
    add(f"cumprod_{cn}", f"jnp.cumprod({Z}, axis=1)", args, np.cumprod(z, axis=1).astype(cdt), cdt, tol * 10)
    add(f"matmul_{cn}", f"{Z} @ {W}.T", args, (z @ w.T).astype(cdt), cdt, tol * 10)
    add(f"einsum_{cn}", f"jnp.einsum('ij,kj->ik', {Z}, {W})", args, np.einsum("ij,kj->ik", z, w).astype(cdt), cdt, tol * 10)
    add(f"dot_{cn}", f"jnp.dot({Z}[0], {W}[1])", args, np.dot(z[0], w[1]).astype(cdt), cdt, tol * 10)
    add(f"vdot_{cn}", f"jnp.vdot({Z}[0], {W}[1])", args, np.vdot(z[0], w[1]).astype(cdt), cdt, tol * 10)

    # Sorting orders complex numbers by real part, then imaginary part.
    sr = np.array([3, 1, 1, -2, 1], fdt)
    si = np.array([0, 2, -1, 5, 2], fdt)
    sz = sr.astype(np.complex128) + 1j * si
    sargs = {"sr": arr(sr, fdt), "si": arr(si, fdt)}
    add(f"sort_{cn}", "jnp.sort(lax.complex(sr, si))", sargs, np.sort(sz).astype(cdt), cdt, 0)
    add(f"sort_descending_{cn}", "jnp.sort(lax.complex(sr, si), descending=True)", sargs, np.sort(sz)[::-1].astype(cdt), cdt, 0)
    add(f"argsort_{cn}", "jnp.argsort(lax.complex(sr, si))", sargs, np.argsort(sz, kind="stable").astype(np.int32), cdt, 0)

    # Special values: a part NaN or infinite.
    nr = np.array([3.3, np.nan, 1.6, -np.inf, 2.5], fdt)
    ni = np.array([0.4, 2.0, np.inf, 1.2, -1.5], fdt)
    nz = np.empty(5, np.complex128)
    nz.real, nz.imag = nr, ni
    nargs = {"nr": arr(nr, fdt), "ni": arr(ni, fdt)}
    N = "lax.complex(nr, ni)"
    add(f"isfinite_{cn}", f"jnp.isfinite({N})", nargs, np.isfinite(nz), cdt, 0)
    add(f"isinf_{cn}", f"jnp.isinf({N})", nargs, np.isinf(nz), cdt, 0)
    add(f"isnan_{cn}", f"jnp.isnan({N})", nargs, np.isnan(nz), cdt, 0)
    add(f"isclose_{cn}", f"jnp.isclose({N}, {N} + 1e-9)", nargs, jax_isclose(nz.astype(cdt), nz.astype(cdt) + cdt(1e-9)), cdt, 0)
    add(f"round_{cn}", f"jnp.round({N})", nargs, np.round(nz.astype(cdt)), cdt, tol)
    add(f"nan_to_num_{cn}", f"jnp.nan_to_num({N}, posinf=7.0, neginf=-7.0)", nargs,
        np.nan_to_num(nz, posinf=7.0, neginf=-7.0).astype(cdt), cdt, tol)

# Promotion: complex with other dtypes, JAX's lattice.
zr, zi = rng.uniform(-2, 2, 3).astype(np.float32), rng.uniform(-2, 2, 3).astype(np.float32)
z = zr.astype(np.complex128) + 1j * zi
args = {"zr": arr(zr, np.float32), "zi": arr(zi, np.float32)}
f64 = rng.uniform(-2, 2, 3)
i32 = np.array([1, -2, 3], np.int32)
args2 = dict(args, f=arr(f64, np.float64), i=arr(i32, np.int32), g=arr(f64.astype(np.float32), np.float32))
Z = "lax.complex(zr, zi)"
add("promote_c64_f64", f"{Z} + f", args2, (z + f64).astype(np.complex128), np.complex128, 1e-6)
add("promote_c64_f32", f"{Z} * g", args2, (z * f64.astype(np.float32)).astype(np.complex64), np.complex64, 1e-6)
add("promote_c64_i32", f"{Z} - i", args2, (z - i32).astype(np.complex64), np.complex64, 1e-6)
add("promote_c64_c128", f"{Z} + {Z}.astype(jnp.complex128)", args2, (2 * z).astype(np.complex128), np.complex128, 1e-6)
add("promote_c64_pyfloat", f"{Z} * 2.5", args2, (z * 2.5).astype(np.complex64), np.complex64, 1e-6)
add("promote_c64_pyint", f"{Z} + 3", args2, (z + 3).astype(np.complex64), np.complex64, 1e-6)
cases.append({"name": "promote_dtype_c64_f64", "expr": f"str(({Z} + f).dtype)", "args": args2, "want": None})
cases[-1]["expr"] = f"({Z} + f).dtype == jnp.complex128"
cases[-1]["want"] = True
cases.append({"name": "complex_array_dtype", "expr": "jnp.real(jnp.array([1.0, 2.0], dtype=jnp.complex64) * 2)",
              "args": {}, "want": arr([2.0, 4.0], np.float32)})
cases.append({"name": "floor_divide_complex_error", "expr": f"jnp.floor_divide({Z}, {Z})", "args": args,
              "error": "complex"})
cases.append({"name": "less_complex_error", "expr": f"{Z} < {Z}", "args": args, "error": "complex|accepted"})

with open("complex.json", "w") as f:
    json.dump({"cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases")
