#!/usr/bin/python3
"""Golden cases for jnp's reductions (reduce.json) and shape functions
(shape.json), in the format golden_test.go documents.

Run with /usr/bin/python3 (NumPy 1.24) from this directory:

    /usr/bin/python3 gen_reduce_shape.py

Values come from NumPy, computed in float64 (or int64) and cast to the
result dtype. Result dtypes are JAX's, written out by the rule functions
below, because NumPy's differ: np.sum of int8 is int64 but jnp.sum gives
int32; np.mean of int64 is float64 and so is jnp's, but np.mean of int32 is
float64 where jnp gives float32. Where JAX's values differ from NumPy's
(take's out-of-bounds fill, argsort with descending=True, var with
ddof >= n) the expected value is written by the JAX rule, and the case says so.
"""

import json
import os

import numpy as np

f16, f32, f64 = np.float16, np.float32, np.float64
i8, i16, i32, i64 = np.int8, np.int16, np.int32, np.int64
u8, u32, b_ = np.uint8, np.uint32, np.bool_


# --- JAX's dtype rules, as jax/_src/numpy/reductions.py states them -------

def sum_dtype(dt):
    """jnp.sum/prod: bool and integers narrower than 32 bits widen to the
    default int (int32, uint32 for unsigned); others keep their dtype."""
    dt = np.dtype(dt)
    if dt == b_:
        return i32
    if dt.kind == "u" and dt.itemsize < 4:
        return u32
    if dt.kind == "i" and dt.itemsize < 4:
        return i32
    return dt.type


def inexact_dtype(dt):
    """jnp.mean/var/std: integers and bool become float32, 64-bit integers
    float64 (dtypes.to_inexact_dtype); floats keep their dtype."""
    dt = np.dtype(dt)
    if dt.kind == "f":
        return dt.type
    return f64 if dt.itemsize == 8 else f32


def cumsum_dtype(dt):
    """jnp.cumsum/cumprod: only bool widens (to int32)."""
    return i32 if np.dtype(dt) == b_ else np.dtype(dt).type


INDEX = i32  # argmax/argmin/argsort and count_nonzero: the default int


def promote(*dts):
    """JAX's promotion for the few pairs used here (64-bit types enabled)."""
    table = {
        frozenset([i8, u8]): i16,
        frozenset([f16, i32]): f16,
        frozenset([b_, i8]): i8,
        frozenset([i32, f32]): f32,
        frozenset([u32, i32]): i64,
        frozenset([i64, f16]): f16,
    }
    s = frozenset(dts)
    return dts[0] if len(s) == 1 else table[s]


# --- encoding ---------------------------------------------------------------

def enc(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    f = float(v)
    if np.isnan(f):
        return "nan"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0 and np.signbit(f):
        return "-0.0"
    return f


def arr(a):
    a = np.asarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape),
            "data": [enc(v) for v in a.ravel()]}


def py(v):
    return {"py": enc(v)}


class Cases:
    def __init__(self):
        self.cases = []
        self.names = set()

    def add(self, name, expr, args, want=None, error=None, rtol=None):
        assert name not in self.names, name
        self.names.add(name)
        c = {"name": name, "expr": expr,
             "args": {k: (v if isinstance(v, dict) else arr(v)) for k, v in args.items()}}
        if error is not None:
            c["error"] = error
        elif isinstance(want, list):
            c["want"] = [arr(w) for w in want]
        else:
            c["want"] = arr(want)
        if rtol is not None:
            c["rtol"] = rtol
        self.cases.append(c)

    def write(self, path):
        with open(path, "w") as f:
            json.dump({"cases": self.cases}, f, indent=None, separators=(",", ":"))
            f.write("\n")
        return len(self.cases)


def J(value, dtype):
    """The expected array: NumPy's value cast to JAX's result dtype."""
    return np.asarray(value).astype(dtype)


# --- operands -------------------------------------------------------------

rng = np.random.default_rng(20240611)
# Multiples of 1/8 in a small range: sums are exact in float32.
A = (rng.permutation(24).reshape(2, 3, 4) - 11.5).astype(f32) / 4
A64 = A.astype(f64)
H = np.array([[0.5, -1.5, 2.0, 3.0], [1.0, 0.25, -2.5, 4.0], [-0.75, 1.25, 0.5, -1.0]], f16)
I8 = np.array([[-3, 5, 100], [7, -128, 2]], i8)
I32 = np.array([[3, -1, 4, 1], [5, -9, 2, 6], [5, 3, -5, 8]], i32)
I64 = np.array([[2**40, -3], [7, 2**33]], i64)
U8 = np.array([[200, 100, 3], [255, 0, 1]], u8)
B = np.array([[True, False, True], [True, True, False]])
NAN = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]], f32)
E03 = np.zeros((0, 3), f32)
E20 = np.zeros((2, 0), f32)


def reductions():
    c = Cases()
    # sum: axes, keepdims, dtypes (JAX widens small integers to int32).
    for tag, axis in [("none", None), ("0", 0), ("neg1", -1), ("t02", (0, 2)), ("tneg", (-1, 0)), ("all3", (0, 1, 2))]:
        c.add(f"sum_f32_axis_{tag}", f"jnp.sum(a, axis={axis!r})", {"a": A}, J(A64.sum(axis=axis), f32))
        c.add(f"sum_f32_keepdims_{tag}", f"jnp.sum(a, axis={axis!r}, keepdims=True)", {"a": A},
              J(A64.sum(axis=axis, keepdims=True), f32))
    c.add("sum_method_axis0", "a.sum(axis=0)", {"a": A}, J(A64.sum(axis=0), f32))
    c.add("sum_f16_axis1", "jnp.sum(h, axis=1)", {"h": H}, J(H.astype(f64).sum(1), f16))
    c.add("sum_f16_none", "jnp.sum(h)", {"h": H}, J(H.astype(f64).sum(), f16))
    c.add("sum_f64", "jnp.sum(a, axis=1)", {"a": A64}, J(A64.sum(1), f64))
    for name, x in [("i8", I8), ("u8", U8), ("bool", B), ("i32", I32), ("i64", I64)]:
        want_dt = sum_dtype(x.dtype)
        c.add(f"sum_{name}_none", "jnp.sum(x)", {"x": x}, J(x.astype(i64).sum(), want_dt))
        c.add(f"sum_{name}_axis0", "jnp.sum(x, axis=0)", {"x": x}, J(x.astype(i64).sum(0), want_dt))
    big = np.array([[100, 100, 1], [-100, -100, -1]], i8)
    c.add("sum_dtype_i8_wraps", "jnp.sum(x, axis=1, dtype=jnp.int8)", {"x": big},
          J(big.astype(i64).sum(1), i8))
    c.add("sum_i8_promotes_no_wrap", "jnp.sum(x, axis=1)", {"x": big}, J(big.astype(i64).sum(1), sum_dtype(i8)))
    c.add("sum_i8_no_promotion", "jnp.sum(x, axis=1, promote_integers=False)", {"x": I8},
          J(I8.astype(i64).sum(1), i8))
    c.add("sum_i32_dtype_f32", "jnp.sum(x, axis=-1, dtype=jnp.float32)", {"x": I32}, J(I32.sum(-1), f32))
    c.add("sum_f32_dtype_bool", "jnp.sum(a, axis=0, dtype=jnp.bool_)", {"a": A}, J(A.any(0), b_))
    c.add("sum_initial", "jnp.sum(a, axis=(0, 1), initial=10)", {"a": A}, J(A64.sum((0, 1)) + 10, f32))
    W = A > 0
    c.add("sum_where", "jnp.sum(a, axis=2, where=w)", {"a": A, "w": W}, J(np.where(W, A64, 0).sum(2), f32))
    c.add("sum_where_broadcast", "jnp.sum(a, axis=0, where=w)", {"a": A, "w": W[0, 0]},
          J(np.where(W[0, 0], A64, 0).sum(0), f32))
    c.add("sum_nan", "jnp.sum(x, axis=1)", {"x": NAN}, J(NAN.astype(f64).sum(1), f32))
    c.add("sum_empty_axis0", "jnp.sum(e, axis=0)", {"e": E03}, J(E03.sum(0), f32))
    c.add("sum_empty_axis1", "jnp.sum(e, axis=1)", {"e": E03}, J(E03.sum(1), f32))
    c.add("sum_py_int", "jnp.sum(x)", {"x": py(3)}, J(3, i32))
    c.add("sum_py_float", "jnp.sum(x)", {"x": py(2.5)}, J(2.5, f32))
    c.add("sum_0d", "jnp.sum(x, axis=())", {"x": np.array(4.5, f32)}, J(4.5, f32))

    # prod
    P = np.array([[1.5, -2.0, 0.5], [4.0, 0.25, -3.0]], f32)
    for tag, axis in [("none", None), ("0", 0), ("neg1", -1), ("t10", (1, 0))]:
        c.add(f"prod_f32_axis_{tag}", f"jnp.prod(p, axis={axis!r})", {"p": P}, J(P.astype(f64).prod(axis=axis), f32))
    c.add("prod_keepdims", "jnp.prod(p, axis=1, keepdims=True)", {"p": P}, J(P.astype(f64).prod(1, keepdims=True), f32))
    c.add("prod_i8_promotes", "jnp.prod(x, axis=0)", {"x": I8}, J(I8.astype(i64).prod(0), sum_dtype(i8)))
    c.add("prod_bool", "jnp.prod(b, axis=1)", {"b": B}, J(B.astype(i64).prod(1), sum_dtype(b_)))
    c.add("prod_u8", "jnp.prod(u, axis=1)", {"u": U8}, J(U8.astype(i64).prod(1), sum_dtype(u8)))
    c.add("prod_f16", "jnp.prod(h, axis=0)", {"h": H}, J(H.astype(f64).prod(0), f16))
    c.add("prod_empty", "jnp.prod(e, axis=0)", {"e": E03}, J(np.ones(3), f32))
    c.add("prod_initial_where", "jnp.prod(p, axis=1, initial=2.0, where=w)", {"p": P, "w": P > 0},
          J(np.where(P > 0, P.astype(f64), 1).prod(1) * 2, f32))

    # max, amax, min, amin: NaN propagates; no identity for empty axes.
    for fn, np_fn in [("max", np.max), ("amax", np.max), ("min", np.min), ("amin", np.min)]:
        for tag, axis in [("none", None), ("1", 1), ("neg1", -1), ("t02", (0, 2))]:
            c.add(f"{fn}_f32_axis_{tag}", f"jnp.{fn}(a, axis={axis!r})", {"a": A}, J(np_fn(A, axis=axis), f32))
        c.add(f"{fn}_keepdims", f"jnp.{fn}(a, axis=(0, -1), keepdims=True)", {"a": A},
              J(np_fn(A, axis=(0, -1), keepdims=True), f32))
        c.add(f"{fn}_nan", f"jnp.{fn}(x, axis=1)", {"x": NAN}, J(np_fn(NAN, axis=1), f32))
        c.add(f"{fn}_i8", f"jnp.{fn}(x, axis=0)", {"x": I8}, J(np_fn(I8, axis=0), i8))
        c.add(f"{fn}_u8", f"jnp.{fn}(x)", {"x": U8}, J(np_fn(U8), u8))
        c.add(f"{fn}_bool", f"jnp.{fn}(b, axis=1)", {"b": B}, J(np_fn(B, axis=1), b_))
        c.add(f"{fn}_f16", f"jnp.{fn}(h, axis=0)", {"h": H}, J(np_fn(H, axis=0), f16))
        c.add(f"{fn}_i64", f"jnp.{fn}(x, axis=1)", {"x": I64}, J(np_fn(I64, axis=1), i64))
        c.add(f"{fn}_empty_error", f"jnp.{fn}(e, axis=0)", {"e": E03},
              error=r"zero-size array to reduction operation (max|min) which has no identity")
        c.add(f"{fn}_empty_other_axis", f"jnp.{fn}(e, axis=1)", {"e": E03}, J(np.zeros(0), f32))
        c.add(f"{fn}_empty_initial", f"jnp.{fn}(e, axis=0, initial=-1.5)", {"e": E03}, J(np.full(3, -1.5), f32))
    c.add("max_initial", "jnp.max(a, axis=0, initial=1.0)", {"a": A}, J(np.maximum(A.max(0), 1.0), f32))
    c.add("min_where_initial", "jnp.min(a, axis=1, initial=0.5, where=w)", {"a": A, "w": W},
          J(np.minimum(np.where(W, A, np.inf).min(1), 0.5), f32))
    c.add("max_where_needs_initial", "jnp.max(a, where=w)", {"a": A, "w": W},
          error=r"does not have an identity, so to use a where mask one has to specify 'initial'")

    # mean: integers give float32 (int64 gives float64); float16 stays float16.
    for tag, axis in [("none", None), ("0", 0), ("neg1", -1), ("t12", (1, 2))]:
        c.add(f"mean_f32_axis_{tag}", f"jnp.mean(a, axis={axis!r})", {"a": A}, J(A64.mean(axis=axis), f32))
    c.add("mean_keepdims", "jnp.mean(a, axis=(-1, 0), keepdims=True)", {"a": A},
          J(A64.mean(axis=(-1, 0), keepdims=True), f32))
    c.add("mean_method", "a.mean(1)", {"a": A}, J(A64.mean(1), f32))
    for name, x in [("i32", I32), ("i8", I8), ("u8", U8), ("bool", B), ("i64", I64)]:
        c.add(f"mean_{name}", "jnp.mean(x, axis=0)", {"x": x}, J(x.astype(f64).mean(0), inexact_dtype(x.dtype)))
    c.add("mean_f16", "jnp.mean(h, axis=1)", {"h": H}, J(H.astype(f64).mean(1), f16))
    c.add("mean_dtype_f64", "jnp.mean(x, dtype=jnp.float64)", {"x": I32}, J(I32.astype(f64).mean(), f64))
    c.add("mean_where", "jnp.mean(a, axis=2, where=w)", {"a": A, "w": W},
          J(np.where(W, A64, 0).sum(2) / W.sum(2), f32))
    c.add("mean_empty_is_nan", "jnp.mean(e, axis=0)", {"e": E03}, J(np.full(3, np.nan), f32))
    c.add("mean_nan", "jnp.mean(x, axis=1)", {"x": NAN}, J(NAN.astype(f64).mean(1), f32))

    # var and std: ddof/correction; JAX returns NaN when n - ddof <= 0.
    for fn, np_fn in [("var", np.var), ("std", np.std)]:
        for tag, axis in [("none", None), ("0", 0), ("neg1", -1), ("t02", (0, 2))]:
            c.add(f"{fn}_f32_axis_{tag}", f"jnp.{fn}(a, axis={axis!r})", {"a": A}, J(np_fn(A64, axis=axis), f32))
        c.add(f"{fn}_ddof1_keepdims", f"jnp.{fn}(a, axis=1, ddof=1, keepdims=True)", {"a": A},
              J(np_fn(A64, axis=1, ddof=1, keepdims=True), f32))
        c.add(f"{fn}_correction", f"jnp.{fn}(a, axis=-1, correction=1.5)", {"a": A},
              J(np_fn(A64, axis=-1, ddof=1.5), f32))
        c.add(f"{fn}_i32", f"jnp.{fn}(x, axis=1)", {"x": I32}, J(np_fn(I32.astype(f64), axis=1), inexact_dtype(i32)))
        c.add(f"{fn}_bool", f"jnp.{fn}(b)", {"b": B}, J(np_fn(B.astype(f64)), inexact_dtype(b_)))
        c.add(f"{fn}_f16", f"jnp.{fn}(h, axis=0)", {"h": H}, J(np_fn(H.astype(f64), axis=0), f16))
        c.add(f"{fn}_f64", f"jnp.{fn}(a, axis=0, ddof=1)", {"a": A64}, J(np_fn(A64, axis=0, ddof=1), f64))
        c.add(f"{fn}_where", f"jnp.{fn}(a, axis=2, where=w)", {"a": A, "w": W},
              J([[np_fn(A64[i, j][W[i, j]]) for j in range(3)] for i in range(2)], f32))
        # JAX: n - ddof <= 0 gives NaN (NumPy would divide by zero or a
        # negative count).
        c.add(f"{fn}_ddof_too_large_is_nan", f"jnp.{fn}(a, axis=0, ddof=2)", {"a": A}, J(np.full((3, 4), np.nan), f32))

    # argmax/argmin: int32 indices, first of ties, first NaN wins.
    T = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -1.0, -1.0], [0.5, np.nan, 7.0, np.nan]], f32)
    for fn, np_fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
        c.add(f"{fn}_none", f"jnp.{fn}(a)", {"a": A}, J(np_fn(A), INDEX))
        c.add(f"{fn}_axis1", f"jnp.{fn}(a, axis=1)", {"a": A}, J(np_fn(A, axis=1), INDEX))
        c.add(f"{fn}_neg", f"jnp.{fn}(a, axis=-1)", {"a": A}, J(np_fn(A, axis=-1), INDEX))
        c.add(f"{fn}_keepdims", f"jnp.{fn}(a, axis=0, keepdims=True)", {"a": A}, J(np_fn(A, axis=0, keepdims=True), INDEX))
        c.add(f"{fn}_none_keepdims", f"jnp.{fn}(a, keepdims=True)", {"a": A}, J(np_fn(A, keepdims=True), INDEX))
        c.add(f"{fn}_ties_nan", f"jnp.{fn}(t, axis=1)", {"t": T}, J(np_fn(T, axis=1), INDEX))
        c.add(f"{fn}_i8", f"jnp.{fn}(x, axis=0)", {"x": I8}, J(np_fn(I8, axis=0), INDEX))
        c.add(f"{fn}_bool", f"jnp.{fn}(b, axis=1)", {"b": B}, J(np_fn(B, axis=1), INDEX))
        c.add(f"{fn}_f16", f"jnp.{fn}(h)", {"h": H}, J(np_fn(H), INDEX))
        c.add(f"{fn}_method", f"a.{fn}(axis=2)", {"a": A}, J(np_fn(A, axis=2), INDEX))
        c.add(f"{fn}_empty_error", f"jnp.{fn}(e, axis=0)", {"e": E03}, error=rf"attempt to get {fn} of an empty sequence")

    # all/any: truth of each element (NaN is true); empty gives the identity.
    Z = np.array([[0.0, 1.0, np.nan], [2.0, -0.0, 3.0]], f32)
    for fn, np_fn in [("all", np.all), ("any", np.any)]:
        c.add(f"{fn}_f32_none", f"jnp.{fn}(z)", {"z": Z}, J(np_fn(Z), b_))
        c.add(f"{fn}_f32_axis0", f"jnp.{fn}(z, axis=0)", {"z": Z}, J(np_fn(Z, axis=0), b_))
        c.add(f"{fn}_f32_neg_keepdims", f"jnp.{fn}(z, axis=-1, keepdims=True)", {"z": Z}, J(np_fn(Z, axis=-1, keepdims=True), b_))
        c.add(f"{fn}_bool_tuple", f"jnp.{fn}(b, axis=(1, 0))", {"b": B}, J(np_fn(B, axis=(1, 0)), b_))
        c.add(f"{fn}_i32", f"jnp.{fn}(x, axis=1)", {"x": I32 - 3}, J(np_fn(I32 - 3, axis=1), b_))
        c.add(f"{fn}_empty", f"jnp.{fn}(e, axis=0)", {"e": E03}, J(np_fn(E03, axis=0), b_))
        c.add(f"{fn}_where", f"jnp.{fn}(z, axis=1, where=w)", {"z": Z, "w": B},
              J(np_fn(Z, axis=1, where=B), b_))
        c.add(f"{fn}_method", f"b.{fn}(axis=0)", {"b": B}, J(np_fn(B, axis=0), b_))

    # cumsum/cumprod: axis=None flattens; bool widens to int32, int8 stays.
    C = np.array([[1.5, -2.0, 0.5], [4.0, 0.25, -3.0]], f32)
    for fn, np_fn in [("cumsum", np.cumsum), ("cumprod", np.cumprod)]:
        c.add(f"{fn}_none", f"jnp.{fn}(c)", {"c": C}, J(np_fn(C.astype(f64)), f32))
        c.add(f"{fn}_axis0", f"jnp.{fn}(c, axis=0)", {"c": C}, J(np_fn(C.astype(f64), axis=0), f32))
        c.add(f"{fn}_neg", f"jnp.{fn}(c, axis=-1)", {"c": C}, J(np_fn(C.astype(f64), axis=-1), f32))
        c.add(f"{fn}_3d_axis1", f"jnp.{fn}(a, axis=1)", {"a": A / 2}, J(np_fn((A / 2).astype(f64), axis=1), f32))
        c.add(f"{fn}_bool", f"jnp.{fn}(b, axis=1)", {"b": B}, J(np_fn(B.astype(i64), axis=1), cumsum_dtype(b_)))
        small = np.array([[1, -2, 3], [2, 2, -1]], i8)
        c.add(f"{fn}_i8_keeps_dtype", f"jnp.{fn}(x, axis=1)", {"x": small}, J(np_fn(small.astype(i64), axis=1), cumsum_dtype(i8)))
        c.add(f"{fn}_u8", f"jnp.{fn}(x)", {"x": np.array([1, 2, 3, 4], u8)},
              J(np_fn(np.array([1, 2, 3, 4], i64)), cumsum_dtype(u8)))
        c.add(f"{fn}_dtype_f32", f"jnp.{fn}(x, axis=0, dtype=jnp.float32)", {"x": I32},
              J(np_fn(I32.astype(f64), axis=0), f32))
        hs = np.array([0.5, 1.5, -1.0, 2.0], f16)
        c.add(f"{fn}_f16", f"jnp.{fn}(h)", {"h": hs}, J(np_fn(hs.astype(f64)), f16))
        c.add(f"{fn}_empty", f"jnp.{fn}(e, axis=0)", {"e": E03}, J(E03, f32))
        c.add(f"{fn}_0d", f"jnp.{fn}(x)", {"x": np.array(2.5, f32)}, J([2.5], f32))
    c.add("cumsum_nan", "jnp.cumsum(x, axis=1)", {"x": NAN}, J(np.cumsum(NAN.astype(f64), axis=1), f32))
    c.add("cumsum_dtype_bool", "jnp.cumsum(x, dtype=jnp.bool_)", {"x": np.array([0, 2, 0, -1], i32)},
          J(np.cumsum(np.array([0, 1, 0, 1])) > 0, b_))
    c.add("cumsum_method", "c.cumsum(axis=1)", {"c": C}, J(np.cumsum(C.astype(f64), axis=1), f32))

    # count_nonzero: NaN counts; int32 result.
    c.add("count_nonzero_none", "jnp.count_nonzero(z)", {"z": Z}, J(np.count_nonzero(Z), INDEX))
    c.add("count_nonzero_axis0", "jnp.count_nonzero(z, axis=0)", {"z": Z}, J(np.count_nonzero(Z, axis=0), INDEX))
    c.add("count_nonzero_keepdims", "jnp.count_nonzero(a, axis=(0, -1), keepdims=True)", {"a": A},
          J(np.count_nonzero(A, axis=(0, 2)).reshape(1, 3, 1), INDEX))
    c.add("count_nonzero_bool", "jnp.count_nonzero(b, axis=1)", {"b": B}, J(np.count_nonzero(B, axis=1), INDEX))
    c.add("count_nonzero_u8", "jnp.count_nonzero(u)", {"u": U8}, J(np.count_nonzero(U8), INDEX))
    c.add("count_nonzero_empty", "jnp.count_nonzero(e)", {"e": E20}, J(0, INDEX))

    # Bad axes.
    c.add("sum_axis_out_of_range", "jnp.sum(a, axis=3)", {"a": A}, error=r"axis 3 is out of bounds for array of dimension 3")
    c.add("sum_duplicate_axis", "jnp.sum(a, axis=(0, -3))", {"a": A}, error=r"duplicate value in 'axis'")
    c.add("mean_axis_out_of_range", "jnp.mean(a, axis=-4)", {"a": A}, error=r"axis -4 is out of bounds")
    return c


def jax_argsort_descending(x, axis):
    """JAX's stable descending argsort: sort the reversed array stably
    (indices reversed with it), then reverse, so equal elements keep their
    original order and NaNs come first."""
    n = x.shape[axis]
    rev = np.flip(x, axis)
    iota = np.flip(np.arange(n).reshape([-1 if i == axis % x.ndim else 1 for i in range(x.ndim)]), axis)
    iota = np.broadcast_to(iota, x.shape)
    perm = np.argsort(rev, axis=axis, kind="stable")
    return np.flip(np.take_along_axis(iota, perm, axis), axis)


def take_fill(dt):
    """jnp.take's default fill for out-of-bounds indices (mode 'fill'):
    NaN for floats, the minimum for signed, the maximum for unsigned."""
    dt = np.dtype(dt)
    if dt.kind == "f":
        return np.nan
    if dt.kind == "i":
        return np.iinfo(dt).min
    if dt.kind == "u":
        return np.iinfo(dt).max
    return True


def shapes():
    c = Cases()
    X = np.arange(24, dtype=f32).reshape(2, 3, 4) - 7.5
    M = np.array([[1, 2, 3], [4, 5, 6]], i32)
    V = np.array([1.5, -2.0, 3.0], f32)
    BM = np.array([[True, False, True], [False, False, True]])

    # reshape, ravel
    c.add("reshape_neg1", "jnp.reshape(x, (4, -1))", {"x": X}, X.reshape(4, -1))
    c.add("reshape_flat", "jnp.reshape(x, -1)", {"x": X}, X.reshape(-1))
    c.add("reshape_order_f", "jnp.reshape(x, (3, 8), order='F')", {"x": X}, X.reshape(3, 8, order="F"))
    c.add("reshape_method_ints", "x.reshape(6, 4)", {"x": X}, X.reshape(6, 4))
    c.add("reshape_method_tuple", "x.reshape((2, -1, 2))", {"x": X}, X.reshape(2, -1, 2))
    c.add("reshape_bool", "jnp.reshape(b, (3, 2))", {"b": BM}, BM.reshape(3, 2))
    c.add("reshape_empty", "jnp.reshape(e, (3, 0, 5))", {"e": np.zeros((0, 5), f16)}, np.zeros((3, 0, 5), f16))
    c.add("reshape_to_0d", "jnp.reshape(x, ())", {"x": np.array([7], i8)}, np.array(7, i8))
    c.add("reshape_bad_size", "jnp.reshape(x, (5, 5))", {"x": X}, error=r"cannot reshape array of shape \(2, 3, 4\) \(size 24\) into shape \(5, 5\)")
    c.add("ravel_c", "jnp.ravel(x)", {"x": X}, X.ravel())
    c.add("ravel_f", "jnp.ravel(x, order='F')", {"x": X}, X.ravel(order="F"))
    c.add("ravel_method", "m.ravel()", {"m": M}, M.ravel())
    c.add("flatten_method", "m.flatten()", {"m": M}, M.ravel())

    # transpose, moveaxis, swapaxes
    c.add("transpose_none", "jnp.transpose(x)", {"x": X}, X.T)
    c.add("transpose_axes", "jnp.transpose(x, (1, 0, 2))", {"x": X}, X.transpose(1, 0, 2))
    c.add("transpose_neg_axes", "jnp.transpose(x, (-1, 0, 1))", {"x": X}, X.transpose(-1, 0, 1))
    c.add("transpose_attr_T", "m.T", {"m": M}, M.T)
    c.add("transpose_method_ints", "x.transpose(2, 0, 1)", {"x": X}, X.transpose(2, 0, 1))
    c.add("transpose_1d", "jnp.transpose(v)", {"v": V}, V)
    c.add("moveaxis_0_last", "jnp.moveaxis(x, 0, -1)", {"x": X}, np.moveaxis(X, 0, -1))
    c.add("moveaxis_tuple", "jnp.moveaxis(x, (0, 1), (-1, -2))", {"x": X}, np.moveaxis(X, (0, 1), (-1, -2)))
    c.add("moveaxis_bool", "jnp.moveaxis(b, 1, 0)", {"b": BM}, np.moveaxis(BM, 1, 0))
    c.add("swapaxes_0_2", "jnp.swapaxes(x, 0, 2)", {"x": X}, np.swapaxes(X, 0, 2))
    c.add("swapaxes_neg", "jnp.swapaxes(x, -1, 1)", {"x": X}, np.swapaxes(X, -1, 1))

    # expand_dims, squeeze
    c.add("expand_dims_0", "jnp.expand_dims(m, 0)", {"m": M}, np.expand_dims(M, 0))
    c.add("expand_dims_neg", "jnp.expand_dims(m, -1)", {"m": M}, np.expand_dims(M, -1))
    c.add("expand_dims_tuple", "jnp.expand_dims(m, (0, 2))", {"m": M}, np.expand_dims(M, (0, 2)))
    c.add("expand_dims_tuple_neg", "jnp.expand_dims(m, (0, -1))", {"m": M}, np.expand_dims(M, (0, -1)))
    S = np.arange(6, dtype=f16).reshape(1, 3, 1, 2)
    c.add("squeeze_none", "jnp.squeeze(s)", {"s": S}, np.squeeze(S))
    c.add("squeeze_axis", "jnp.squeeze(s, axis=2)", {"s": S}, np.squeeze(S, axis=2))
    c.add("squeeze_tuple_neg", "jnp.squeeze(s, axis=(0, -2))", {"s": S}, np.squeeze(S, axis=(0, -2)))
    c.add("squeeze_method", "s.squeeze(0)", {"s": S}, np.squeeze(S, 0))
    c.add("squeeze_bad_axis", "jnp.squeeze(s, axis=1)", {"s": S}, error=r"cannot select an axis to squeeze out which has size not equal to one")

    # broadcast_to, broadcast_arrays
    c.add("broadcast_to_row", "jnp.broadcast_to(v, (2, 3))", {"v": V}, np.broadcast_to(V, (2, 3)))
    c.add("broadcast_to_col", "jnp.broadcast_to(c, (2, 2, 3))", {"c": np.array([[1], [2]], u8)},
          np.broadcast_to(np.array([[1], [2]], u8), (2, 2, 3)))
    c.add("broadcast_to_0d", "jnp.broadcast_to(s, 4)", {"s": np.array(True)}, np.broadcast_to(True, 4))
    c.add("broadcast_to_bad", "jnp.broadcast_to(v, (2, 4))", {"v": V}, error=r"incompatible shapes for broadcasting")
    c.add("broadcast_arrays_two", "jnp.broadcast_arrays(v, c)", {"v": V, "c": np.array([[1.0], [2.0]], f32)},
          list(np.broadcast_arrays(V, np.array([[1.0], [2.0]], f32))))
    c.add("broadcast_arrays_mixed", "jnp.broadcast_arrays(m, b, s)", {"m": M, "b": BM[0], "s": py(2)},
          [M, np.broadcast_to(BM[0], (2, 3)), np.full((2, 3), 2, i32)])

    # concatenate, stack, hstack, vstack
    c.add("concatenate_axis0", "jnp.concatenate([m, m + 0])", {"m": M}, np.concatenate([M, M]))
    c.add("concatenate_axis_neg", "jnp.concatenate((m, n, m), axis=-1)", {"m": M, "n": M[:, :1] * 10},
          np.concatenate([M, M[:, :1] * 10, M], axis=-1))
    c.add("concatenate_axis_none", "jnp.concatenate([x, m], axis=None)", {"x": X[0], "m": M.astype(f32)},
          np.concatenate([X[0].ravel(), M.ravel().astype(f32)]))
    c.add("concatenate_empty_piece", "jnp.concatenate([e, m], axis=0)", {"e": np.zeros((0, 3), i32), "m": M},
          np.concatenate([np.zeros((0, 3), i32), M]))
    for a_dt, b_dt in [(i8, u8), (f16, i32), (b_, i8), (u32, i32), (i64, f16)]:
        a = np.array([1, 0, 1]).astype(a_dt)
        b = np.array([2, 3]).astype(b_dt)
        want_dt = promote(a_dt, b_dt)
        c.add(f"concatenate_promote_{np.dtype(a_dt).name}_{np.dtype(b_dt).name}", "jnp.concatenate([a, b])",
              {"a": a, "b": b}, J(np.concatenate([a.astype(f64), b.astype(f64)]), want_dt))
    c.add("concatenate_dtype", "jnp.concatenate([a, b], dtype=jnp.float16)", {"a": M[0], "b": V},
          J(np.concatenate([M[0], V]), f16))
    c.add("concatenate_bad_shapes", "jnp.concatenate([m, x])", {"m": M, "x": X[0]},
          error=r"dimensions except for the concatenation axis 0 must match exactly, got int32\[2,3\], float32\[3,4\]")
    c.add("stack_axis0", "jnp.stack([v, v * 2])", {"v": V}, np.stack([V, V * 2]))
    c.add("stack_axis_neg", "jnp.stack([m, m, m], axis=-1)", {"m": M}, np.stack([M, M, M], axis=-1))
    c.add("stack_axis1", "jnp.stack((m, n), axis=1)", {"m": M, "n": M.astype(f32) / 2},
          J(np.stack([M, M / 2], axis=1), promote(i32, f32)))
    c.add("stack_scalars", "jnp.stack([a, b])", {"a": np.array(1.5, f16), "b": np.array(-1, f16)}, np.array([1.5, -1], f16))
    c.add("stack_bad_shapes", "jnp.stack([v, m])", {"v": V, "m": M}, error=r"all input arrays must have the same shape")
    c.add("hstack_1d", "jnp.hstack([v, w])", {"v": V, "w": V[:2]}, np.hstack([V, V[:2]]))
    c.add("hstack_2d", "jnp.hstack((m, m))", {"m": M}, np.hstack([M, M]))
    c.add("hstack_0d", "jnp.hstack([a, b])", {"a": np.array(1, i32), "b": np.array(2, i32)}, np.array([1, 2], i32))
    c.add("vstack_1d", "jnp.vstack([v, v])", {"v": V}, np.vstack([V, V]))
    c.add("vstack_2d", "jnp.vstack((m, m[:1]))", {"m": M}, np.vstack([M, M[:1]]))
    c.add("vstack_bool", "jnp.vstack([b, b])", {"b": BM}, np.vstack([BM, BM]))

    # split
    R = np.arange(12, dtype=i32).reshape(2, 6)
    c.add("split_sections", "jnp.split(r, 3, axis=1)", {"r": R}, np.split(R, 3, axis=1))
    c.add("split_indices", "jnp.split(r, [1, 4], axis=-1)", {"r": R}, np.split(R, [1, 4], axis=-1))
    c.add("split_axis0", "jnp.split(r, 2)", {"r": R}, np.split(R, 2))
    c.add("split_empty_parts", "jnp.split(r, [0, 3, 3, 6], axis=1)", {"r": R}, np.split(R, [0, 3, 3, 6], axis=1))
    c.add("split_f16", "jnp.split(h, [2])", {"h": np.arange(5, dtype=f16)}, np.split(np.arange(5, dtype=f16), [2]))
    c.add("split_uneven", "jnp.split(r, 4, axis=1)", {"r": R}, error=r"array split does not result in an equal division")

    # tile, repeat
    c.add("tile_int", "jnp.tile(v, 2)", {"v": V}, np.tile(V, 2))
    c.add("tile_tuple", "jnp.tile(m, (2, 3))", {"m": M}, np.tile(M, (2, 3)))
    c.add("tile_more_reps", "jnp.tile(v, (2, 1, 2))", {"v": V}, np.tile(V, (2, 1, 2)))
    c.add("tile_fewer_reps", "jnp.tile(x, 2)", {"x": X}, np.tile(X, 2))
    c.add("tile_zero", "jnp.tile(b, (0, 2))", {"b": BM}, np.tile(BM, (0, 2)))
    c.add("repeat_scalar_flat", "jnp.repeat(m, 2)", {"m": M}, np.repeat(M, 2))
    c.add("repeat_scalar_axis", "jnp.repeat(m, 3, axis=-1)", {"m": M}, np.repeat(M, 3, axis=-1))
    c.add("repeat_array_axis0", "jnp.repeat(m, r, axis=0)", {"m": M, "r": np.array([2, 0], i32)},
          np.repeat(M, [2, 0], axis=0))
    c.add("repeat_array_axis1", "jnp.repeat(x, r, axis=1)", {"x": X, "r": np.array([1, 0, 3], i8)}, np.repeat(X, [1, 0, 3], axis=1))
    c.add("repeat_list_rejected", "jnp.repeat(x, [1, 0, 3], axis=1)", {"x": X}, error=r"repeat requires ndarray or scalar arguments, got list")
    c.add("repeat_bool", "jnp.repeat(b, 2, axis=0)", {"b": BM}, np.repeat(BM, 2, axis=0))
    # JAX pads with the element after the last non-empty block when
    # total_repeat_length exceeds the sum (here: index 2).
    c.add("repeat_total_length_pads", "jnp.repeat(v, r, total_repeat_length=5)",
          {"v": V, "r": np.array([1, 2, 0], i32)}, V[[0, 1, 1, 2, 2]])
    c.add("repeat_total_length_truncates", "jnp.repeat(v, 2, total_repeat_length=4)", {"v": V}, V[[0, 0, 1, 1]])

    # flip, roll
    c.add("flip_none", "jnp.flip(x)", {"x": X}, np.flip(X))
    c.add("flip_axis", "jnp.flip(x, 1)", {"x": X}, np.flip(X, 1))
    c.add("flip_tuple", "jnp.flip(x, (0, -1))", {"x": X}, np.flip(X, (0, -1)))
    c.add("flip_bool", "jnp.flip(b, axis=-1)", {"b": BM}, np.flip(BM, -1))
    c.add("roll_flat", "jnp.roll(m, 2)", {"m": M}, np.roll(M, 2))
    c.add("roll_negative", "jnp.roll(m, -1, axis=1)", {"m": M}, np.roll(M, -1, axis=1))
    c.add("roll_large_shift", "jnp.roll(v, 7)", {"v": V}, np.roll(V, 7))
    c.add("roll_tuple", "jnp.roll(x, (1, -2), axis=(0, 2))", {"x": X}, np.roll(X, (1, -2), axis=(0, 2)))
    c.add("roll_shift_broadcast", "jnp.roll(x, 1, axis=(1, 2))", {"x": X}, np.roll(X, 1, axis=(1, 2)))
    c.add("roll_same_axis_twice", "jnp.roll(v, (1, 1), axis=0)", {"v": V}, np.roll(V, (1, 1), axis=0))
    c.add("roll_f16", "jnp.roll(h, 1, axis=0)", {"h": S[0, :, 0]}, np.roll(S[0, :, 0], 1, axis=0))
    # Shifts held in arrays take JAX's dynamic path (dynamic_slice).
    c.add("roll_array_shift_flat", "jnp.roll(m, s)", {"m": M, "s": np.array(2, i32)}, np.roll(M, 2))
    c.add("roll_array_shifts", "jnp.roll(x, s, axis=(0, 2))", {"x": X, "s": np.array([1, -2], i32)},
          np.roll(X, (1, -2), axis=(0, 2)))
    c.add("roll_array_shift_i8", "jnp.roll(v, s, axis=0)", {"v": V, "s": np.array([-7], i8)}, np.roll(V, -7))

    # pad
    P = np.array([[1, 2, 3], [4, 5, 6]], i32)
    c.add("pad_int", "jnp.pad(p, 1)", {"p": P}, np.pad(P, 1))
    c.add("pad_before_after", "jnp.pad(p, (1, 2))", {"p": P}, np.pad(P, (1, 2)))
    c.add("pad_per_axis", "jnp.pad(p, ((1, 0), (0, 2)), constant_values=7)", {"p": P}, np.pad(P, ((1, 0), (0, 2)), constant_values=7))
    c.add("pad_per_side_values", "jnp.pad(p, ((1, 1), (2, 1)), constant_values=((-1, -2), (-3, -4)))", {"p": P},
          np.pad(P, ((1, 1), (2, 1)), constant_values=((-1, -2), (-3, -4))))
    c.add("pad_float_value_into_int", "jnp.pad(p, 1, constant_values=2.7)", {"p": P}, np.pad(P, 1, constant_values=2))
    c.add("pad_f16", "jnp.pad(v, (0, 3), constant_values=0.5)", {"v": V.astype(f16)}, np.pad(V.astype(f16), (0, 3), constant_values=0.5))
    c.add("pad_bool", "jnp.pad(b, ((0, 1),), constant_values=True)", {"b": BM}, np.pad(BM, ((0, 1),), constant_values=True))
    for mode in ["edge", "reflect", "symmetric", "wrap"]:
        c.add(f"pad_{mode}_1d", f"jnp.pad(v, (2, 1), mode='{mode}')", {"v": V}, np.pad(V, (2, 1), mode=mode))
        c.add(f"pad_{mode}_wide", f"jnp.pad(v, 7, mode='{mode}')", {"v": V}, np.pad(V, 7, mode=mode))
        c.add(f"pad_{mode}_2d", f"jnp.pad(p, ((1, 2), (3, 0)), mode='{mode}')", {"p": P}, np.pad(P, ((1, 2), (3, 0)), mode=mode))
        c.add(f"pad_{mode}_single", f"jnp.pad(s, 2, mode='{mode}')", {"s": np.array([5.0], f32)}, np.pad(np.array([5.0], f32), 2, mode=mode))
    c.add("pad_reflect_odd", "jnp.pad(v, (4, 2), mode='reflect', reflect_type='odd')", {"v": V},
          np.pad(V, (4, 2), mode="reflect", reflect_type="odd"))
    c.add("pad_symmetric_odd", "jnp.pad(v, (2, 4), mode='symmetric', reflect_type='odd')", {"v": V},
          np.pad(V, (2, 4), mode="symmetric", reflect_type="odd"))
    c.add("pad_empty_mode_zero_fill", "jnp.pad(p, 1, mode='empty')", {"p": P}, np.pad(P, 1))
    c.add("pad_negative", "jnp.pad(p, -1)", {"p": P}, error=r"index can't contain negative values")
    c.add("pad_bad_shape", "jnp.pad(p, ((1, 2), (3, 4), (5, 6)))", {"p": P}, error=r"pad_width with nd=2 has unsupported shape \(3, 2\)")

    # take, take_along_axis
    T = np.arange(12, dtype=f32).reshape(3, 4) / 2
    idx = np.array([[0, 2], [-1, 1]], i32)
    c.add("take_flat", "jnp.take(t, i)", {"t": T, "i": idx}, np.take(T, idx))
    c.add("take_axis0", "jnp.take(t, i, axis=0)", {"t": T, "i": idx}, np.take(T, idx, axis=0))
    c.add("take_axis_neg", "jnp.take(t, i, axis=-1)", {"t": T, "i": np.array([3, 0, -2], i8)}, np.take(T, np.array([3, 0, -2]), axis=-1))
    c.add("take_scalar_index", "jnp.take(t, i, axis=1)", {"t": T, "i": py(2)}, np.take(T, 2, axis=1))
    c.add("take_clip", "jnp.take(t, i, axis=1, mode='clip')", {"t": T, "i": np.array([-3, 9, 1], i32)},
          np.take(T, [-3, 9, 1], axis=1, mode="clip"))
    c.add("take_wrap", "jnp.take(t, i, axis=0, mode='wrap')", {"t": T, "i": np.array([-4, 5, 1], i32)},
          np.take(T, [-4, 5, 1], axis=0, mode="wrap"))
    # JAX's default mode 'fill' returns the fill value out of bounds (NumPy raises).
    c.add("take_fill_float_nan", "jnp.take(t, i, axis=1)", {"t": T, "i": np.array([1, 4, -5], i32)},
          np.stack([T[:, 1], np.full(3, take_fill(f32)), np.full(3, take_fill(f32))], axis=1).astype(f32))
    c.add("take_fill_int_min", "jnp.take(m, i)", {"m": M, "i": np.array([6, 0], i32)}, np.array([take_fill(i32), 1], i32))
    c.add("take_fill_value", "jnp.take(m, i, fill_value=-1)", {"m": M, "i": np.array([6, 5], i32)}, np.array([-1, 6], i32))
    c.add("take_bool", "jnp.take(b, i, axis=1)", {"b": BM, "i": np.array([2, 2, 0], u8)}, np.take(BM, [2, 2, 0], axis=1))
    c.add("take_empty_indices", "jnp.take(t, i, axis=0)", {"t": T, "i": np.zeros((0, 2), i32)}, np.zeros((0, 2, 4), f32))
    TI = np.array([[2, 0, 1, 3], [1, 1, -1, 0], [3, 2, 1, 0]], i32)
    c.add("take_along_axis_last", "jnp.take_along_axis(t, i, axis=-1)", {"t": T, "i": TI},
          np.take_along_axis(T, np.where(TI < 0, TI + 4, TI), axis=-1))
    c.add("take_along_axis_axis0", "jnp.take_along_axis(t, i, axis=0)", {"t": T, "i": np.array([[2, 0, 1, 1]], i32)},
          np.take_along_axis(T, np.array([[2, 0, 1, 1]]), axis=0))
    c.add("take_along_axis_broadcast_index", "jnp.take_along_axis(t, i, axis=1)", {"t": T, "i": np.array([[3, 0]], i32)},
          np.take_along_axis(T, np.broadcast_to(np.array([[3, 0]]), (3, 2)), axis=1))
    c.add("take_along_axis_broadcast_arr", "jnp.take_along_axis(t, i, axis=1)", {"t": T[:1], "i": np.array([[3, 0], [1, 1]], i32)},
          np.take_along_axis(np.broadcast_to(T[:1], (2, 4)), np.array([[3, 0], [1, 1]]), axis=1))
    c.add("take_along_axis_argsort", "jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)", {"x": X},
          np.sort(X, axis=1))
    c.add("take_along_axis_none", "jnp.take_along_axis(m, i, axis=None)", {"m": M, "i": np.array([5, 0, 2], i32)},
          M.ravel()[[5, 0, 2]])
    c.add("take_along_axis_3d", "jnp.take_along_axis(x, i, axis=1)", {"x": X, "i": np.array([[[2, 0, 1, 1]], [[0, 0, 2, 1]]], i32)},
          np.take_along_axis(X, np.array([[[2, 0, 1, 1]], [[0, 0, 2, 1]]]), axis=1))
    c.add("take_along_axis_fill", "jnp.take_along_axis(m, i, axis=1)", {"m": M, "i": np.array([[3], [0]], i32)},
          np.array([[take_fill(i32)], [4]], i32))

    # diag, diagonal, triu, tril
    Q = np.arange(12, dtype=f32).reshape(3, 4) - 3
    for k in [0, 1, -2]:
        c.add(f"diag_1d_k{k}", f"jnp.diag(v, k={k})", {"v": V}, np.diag(V, k=k))
        c.add(f"diag_2d_k{k}", f"jnp.diag(q, {k})", {"q": Q}, np.diag(Q, k))
    c.add("diag_bool", "jnp.diag(b)", {"b": np.array([True, False])}, np.diag(np.array([True, False])))
    c.add("diag_2d_far_offset", "jnp.diag(q, 5)", {"q": Q}, np.diag(Q, 5))
    for off in [0, 2, -1, -3]:
        c.add(f"diagonal_offset{off}", f"jnp.diagonal(q, offset={off})", {"q": Q}, np.diagonal(Q, offset=off))
    c.add("diagonal_3d", "jnp.diagonal(x, 1, 1, 2)", {"x": X}, np.diagonal(X, 1, 1, 2))
    c.add("diagonal_3d_neg_axes", "jnp.diagonal(x, axis1=-1, axis2=0)", {"x": X}, np.diagonal(X, axis1=-1, axis2=0))
    c.add("diagonal_i8", "jnp.diagonal(m, -1, 1, 0)", {"m": M.astype(i8)}, np.diagonal(M.astype(i8), -1, 1, 0))
    for fn, np_fn in [("triu", np.triu), ("tril", np.tril)]:
        for k in [0, 1, -1]:
            c.add(f"{fn}_k{k}", f"jnp.{fn}(q, k={k})", {"q": Q}, np_fn(Q, k=k))
        c.add(f"{fn}_batch", f"jnp.{fn}(x, 1)", {"x": X}, np_fn(X, 1))
        c.add(f"{fn}_bool", f"jnp.{fn}(b)", {"b": BM}, np_fn(BM))
        c.add(f"{fn}_far_k", f"jnp.{fn}(m, 10)", {"m": M}, np_fn(M, 10))
        c.add(f"{fn}_1d_error", f"jnp.{fn}(v)", {"v": V}, error=r"must be at least 2D")

    # sort, argsort: NaN last; stable ties; descending reverses.
    F = np.array([[3.0, np.nan, 1.0, 2.0, 1.0, -np.inf], [0.0, -0.0, 5.0, np.nan, -1.0, 0.0]], f32)
    c.add("sort_nan_last", "jnp.sort(f)", {"f": F}, np.sort(F))
    c.add("sort_axis0", "jnp.sort(x, axis=0)", {"x": X[:, ::-1]}, np.sort(X[:, ::-1], axis=0))
    c.add("sort_axis_none", "jnp.sort(m, axis=None)", {"m": M[::-1]}, np.sort(M[::-1], axis=None))
    c.add("sort_descending", "jnp.sort(f, descending=True)", {"f": F}, np.flip(np.sort(F), -1))
    c.add("sort_i8", "jnp.sort(x, axis=1)", {"x": I8}, np.sort(I8, axis=1))
    c.add("sort_u8", "jnp.sort(x, axis=0)", {"x": U8}, np.sort(U8, axis=0))
    c.add("sort_bool", "jnp.sort(b)", {"b": BM}, np.sort(BM))
    c.add("sort_f16", "jnp.sort(h, axis=-1)", {"h": H}, np.sort(H, axis=-1))
    c.add("sort_unstable", "jnp.sort(v, stable=False)", {"v": V}, np.sort(V))
    c.add("argsort_nan_ties", "jnp.argsort(f)", {"f": F}, J(np.argsort(F, kind="stable"), INDEX))
    c.add("argsort_axis0", "jnp.argsort(x, axis=0)", {"x": X[:, ::-1]}, J(np.argsort(X[:, ::-1], axis=0, kind="stable"), INDEX))
    c.add("argsort_axis_none", "jnp.argsort(m, axis=None)", {"m": M[::-1]}, J(np.argsort(M[::-1], axis=None, kind="stable"), INDEX))
    c.add("argsort_descending_stable", "jnp.argsort(f, descending=True)", {"f": F}, J(jax_argsort_descending(F, -1), INDEX))
    ties = np.array([1, 2, 1, 2, 0], i32)
    c.add("argsort_descending_ties", "jnp.argsort(t, descending=True)", {"t": ties}, J(jax_argsort_descending(ties, 0), INDEX))
    c.add("argsort_bool", "jnp.argsort(b, axis=1)", {"b": BM}, J(np.argsort(BM, axis=1, kind="stable"), INDEX))
    c.add("argsort_dtype", "jnp.argsort(v, dtype=jnp.int16)", {"v": V}, J(np.argsort(V, kind="stable"), i16))
    c.add("argsort_f16_neg_axis", "jnp.argsort(h, axis=-2)", {"h": H}, J(np.argsort(H, axis=-2, kind="stable"), INDEX))
    c.add("sort_0d_error", "jnp.sort(s)", {"s": np.array(1.0, f32)}, error=r"cannot sort a 0-d array")
    return c


def main():
    np.seterr(all="ignore")
    here = os.path.dirname(os.path.abspath(__file__))
    import warnings
    warnings.simplefilter("ignore")
    n1 = reductions().write(os.path.join(here, "reduce.json"))
    n2 = shapes().write(os.path.join(here, "shape.json"))
    print(f"reduce.json: {n1} cases, shape.json: {n2} cases")


if __name__ == "__main__":
    main()
