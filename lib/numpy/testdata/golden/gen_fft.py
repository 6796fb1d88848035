#!/usr/bin/python3
"""Golden cases for jnp.fft and the complex parts (fft.json), in the format
golden_test.go documents. Run with /usr/bin/python3 (NumPy 1.24) from this
directory:

    /usr/bin/python3 gen_fft.py

Complex operands are passed as real and imaginary float arrays joined with
lax.complex; complex results are returned as (jnp.real(y), jnp.imag(y)).
NumPy 1.24 computes float32 FFTs in float64; the expected values are its
float64 results, with a tolerance of a few float32 ulp times log2(n) of the
result's largest magnitude. JAX's conventions where they differ from
NumPy's: hfft and ihfft pass norm to the underlying irfft and rfft as JAX
does (only "backward" is generated for them), and complex results keep
complex64 for float32 inputs.
"""

import json

import numpy as np

rng = np.random.default_rng(2017)
cases = []


def arr(a, dtype):
    a = np.asarray(a, dtype=dtype)
    return {"dtype": np.dtype(dtype).name, "shape": list(a.shape), "data": [float(v) for v in a.ravel()]}


def want(y, dtype):
    y = np.asarray(y)
    if np.iscomplexobj(y):
        return [arr(y.real, dtype), arr(y.imag, dtype)]
    return arr(y, dtype)


def tol(y, n, dtype):
    eps = 2.0**-23 if dtype == np.float32 else 2.0**-52
    scale = float(np.max(np.abs(y))) if np.size(y) else 1.0
    return 8 * eps * max(1.0, np.log2(max(n, 2))) * max(scale, 1.0)


def add(name, expr, args, y, n, dtype):
    a = tol(y, n, dtype)
    if np.iscomplexobj(y):
        expr = f"(lambda y: (jnp.real(y), jnp.imag(y)))({expr})"
    cases.append({"name": name, "expr": expr, "args": args, "want": want(y, dtype), "rtol": 2.0**-52, "atol": a})  # rtol > 0: the sign of a zero is not compared


for dtype in (np.float32, np.float64):
    dn = np.dtype(dtype).name
    for n in [1, 2, 3, 5, 8, 17, 64, 97, 100, 128]:
        xr = rng.standard_normal((2, n)).astype(dtype)
        xi = rng.standard_normal((2, n)).astype(dtype)
        z = xr.astype(np.float64) + 1j * xi.astype(np.float64)
        args = {"xr": arr(xr, dtype), "xi": arr(xi, dtype)}
        rargs = {"xr": arr(xr, dtype)}
        for norm in ["backward", "ortho", "forward"]:
            for axis in [-1, 0]:
                m = n if axis == -1 else 2
                tag = f"{dn}_n{n}_{norm}_axis{axis}"
                add("fft_" + tag, f"jnp.fft.fft(lax.complex(xr, xi), axis={axis}, norm='{norm}')", args,
                    np.fft.fft(z, axis=axis, norm=norm), m, dtype)
                add("ifft_" + tag, f"jnp.fft.ifft(lax.complex(xr, xi), axis={axis}, norm='{norm}')", args,
                    np.fft.ifft(z, axis=axis, norm=norm), m, dtype)
                add("rfft_" + tag, f"jnp.fft.rfft(xr, axis={axis}, norm='{norm}')", rargs,
                    np.fft.rfft(xr.astype(np.float64), axis=axis, norm=norm), m, dtype)
                nn = 2 * (z.shape[axis] - 1) if z.shape[axis] > 1 else 1
                add("irfft_" + tag, f"jnp.fft.irfft(lax.complex(xr, xi), n={nn}, axis={axis}, norm='{norm}')", args,
                    np.fft.irfft(z, n=nn, axis=axis, norm=norm), nn, dtype)
            add(f"fft_n_{dn}_{n}_{norm}", f"jnp.fft.fft(lax.complex(xr, xi), n={n + 3}, norm='{norm}')", args,
                np.fft.fft(z, n=n + 3, norm=norm), n + 3, dtype)
            if n > 2:
                add(f"rfft_crop_{dn}_{n}_{norm}", f"jnp.fft.rfft(xr, n={n - 1}, norm='{norm}')", rargs,
                    np.fft.rfft(xr.astype(np.float64), n=n - 1, norm=norm), n - 1, dtype)
        if n > 1:
            add(f"hfft_{dn}_{n}", "jnp.fft.hfft(lax.complex(xr, xi))", args, np.fft.hfft(z), max(1, 2 * (n - 1)), dtype)
        add(f"ihfft_{dn}_{n}", "jnp.fft.ihfft(xr)", rargs, np.fft.ihfft(xr.astype(np.float64)), n, dtype)

    # Several axes: 2-D and n-D, axes and s.
    x3r = rng.standard_normal((3, 4, 6)).astype(dtype)
    x3i = rng.standard_normal((3, 4, 6)).astype(dtype)
    z3 = x3r.astype(np.float64) + 1j * x3i.astype(np.float64)
    args = {"xr": arr(x3r, dtype), "xi": arr(x3i, dtype)}
    rargs = {"xr": arr(x3r, dtype)}
    for norm in ["backward", "ortho", "forward"]:
        t = f"{dn}_{norm}"
        add("fft2_" + t, f"jnp.fft.fft2(lax.complex(xr, xi), norm='{norm}')", args, np.fft.fft2(z3, norm=norm), 24, dtype)
        add("ifft2_" + t, f"jnp.fft.ifft2(lax.complex(xr, xi), axes=(0, 2), norm='{norm}')", args,
            np.fft.ifft2(z3, axes=(0, 2), norm=norm), 18, dtype)
        add("fftn_" + t, f"jnp.fft.fftn(lax.complex(xr, xi), norm='{norm}')", args, np.fft.fftn(z3, norm=norm), 72, dtype)
        add("ifftn_" + t, f"jnp.fft.ifftn(lax.complex(xr, xi), s=(5, 4), axes=(2, 0), norm='{norm}')", args,
            np.fft.ifftn(z3, s=(5, 4), axes=(2, 0), norm=norm), 20, dtype)
        add("rfft2_" + t, f"jnp.fft.rfft2(xr, norm='{norm}')", rargs,
            np.fft.rfft2(x3r.astype(np.float64), norm=norm), 24, dtype)
        add("irfft2_" + t, f"jnp.fft.irfft2(lax.complex(xr, xi), norm='{norm}')", args,
            np.fft.irfft2(z3, norm=norm), 40, dtype)
        add("rfftn_" + t, f"jnp.fft.rfftn(xr, axes=(1, 0), norm='{norm}')", rargs,
            np.fft.rfftn(x3r.astype(np.float64), axes=(1, 0), norm=norm), 12, dtype)
        add("irfftn_" + t, f"jnp.fft.irfftn(lax.complex(xr, xi), s=(3, 4, 8), norm='{norm}')", args,
            np.fft.irfftn(z3, s=(3, 4, 8), norm=norm), 96, dtype)

# Frequencies and shifts.
for n in [1, 4, 5, 8]:
    for d in [1.0, 0.1]:
        cases.append({"name": f"fftfreq_{n}_{d}", "expr": f"jnp.fft.fftfreq({n}, d={d})", "args": {},
                      "want": arr(np.fft.fftfreq(n, d), np.float32)})
        cases.append({"name": f"rfftfreq_{n}_{d}", "expr": f"jnp.fft.rfftfreq({n}, d={d})", "args": {},
                      "want": arr(np.fft.rfftfreq(n, d), np.float32)})
x = np.arange(15.0).reshape(3, 5)
for axes in [None, 0, (1,)]:
    for f in ["fftshift", "ifftshift"]:
        cases.append({"name": f"{f}_{axes}", "expr": f"jnp.fft.{f}(x, axes={axes})", "args": {"x": arr(x, np.float32)},
                      "want": arr(getattr(np.fft, f)(x, axes=axes), np.float32)})
cases.append({"name": "fft_norm_error", "expr": "jnp.fft.fft(x, norm='bad')", "args": {"x": arr(x, np.float32)},
              "error": "invalid norm value"})
cases.append({"name": "rfft_complex_error", "expr": "jnp.fft.rfft(lax.complex(x, x))", "args": {"x": arr(x, np.float32)},
              "error": "only real valued inputs"})

# Complex parts and angle.
zr = rng.standard_normal((2, 3)).astype(np.float32)
zi = rng.standard_normal((2, 3)).astype(np.float32)
z = zr.astype(np.complex64) + 1j * zi.astype(np.complex64)
args = {"zr": arr(zr, np.float32), "zi": arr(zi, np.float32)}
cases.append({"name": "real", "expr": "jnp.real(lax.complex(zr, zi))", "args": args, "want": arr(z.real, np.float32)})
cases.append({"name": "imag", "expr": "lax.complex(zr, zi).imag", "args": args, "want": arr(z.imag, np.float32)})
cases.append({"name": "conj", "expr": "(jnp.real(jnp.conj(lax.complex(zr, zi))), jnp.imag(jnp.conjugate(lax.complex(zr, zi))))",
              "args": args, "want": [arr(z.real, np.float32), arr(-z.imag, np.float32)]})
cases.append({"name": "angle", "expr": "jnp.angle(lax.complex(zr, zi))", "args": args, "want": arr(np.angle(z), np.float32)})
cases.append({"name": "angle_deg", "expr": "jnp.angle(lax.complex(zr, zi), deg=True)", "args": args,
              "want": arr(np.angle(z, deg=True), np.float32), "rtol": 1e-5, "atol": 1e-4})
cases.append({"name": "angle_real", "expr": "jnp.angle(zr)", "args": args, "want": arr(np.angle(zr), np.float32)})
cases.append({"name": "imag_of_real", "expr": "jnp.imag(zr)", "args": args, "want": arr(np.imag(zr), np.float32)})
cases.append({"name": "iscomplexobj", "expr": "(jnp.iscomplexobj(lax.complex(zr, zi)), jnp.iscomplexobj(zr))", "args": args,
              "want": [True, False]})
cases.append({"name": "var_complex", "expr": "jnp.var(lax.complex(zr, zi), axis=1)", "args": args,
              "want": arr(np.var(z, axis=1), np.float32)})
cases.append({"name": "mean_complex", "expr": "(jnp.real(jnp.mean(lax.complex(zr, zi))), jnp.imag(jnp.mean(lax.complex(zr, zi))))",
              "args": args, "want": [arr(np.mean(z).real, np.float32), arr(np.mean(z).imag, np.float32)]})

with open("fft.json", "w") as f:
    json.dump({"cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases")
