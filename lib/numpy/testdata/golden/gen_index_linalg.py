#!/usr/bin/python3
"""Golden cases for NumPy indexing, x.at[] updates and lax's structural
functions (indexing.json), and for jnp's products, einsum, trace and
linalg.norm (linalg.json), in the format golden_test.go documents.

Run with /usr/bin/python3 (NumPy 1.24) from this directory:

    /usr/bin/python3 gen_index_linalg.py

Values come from NumPy. Where JAX's semantics differ from NumPy's, the
expected value is computed by JAX's rule, written out here:

- integer array indices out of range are clamped by x[idx] and .get() (JAX's
  promise_in_bounds gathers), and dropped by .set/.add/... (fill_or_drop
  scatters); NumPy raises instead;
- .at[].add/.multiply/.min/.max apply every repeated index (np.add.at etc.);
- update values are promoted with x, applied, and cast back to x's dtype;
- products keep JAX's result dtype: int8 @ int8 is int8 (wrapping), a
  product of int32 and float32 is float32, preferred_element_type widens;
- sums in trace and norm follow jnp.sum: small integers widen to int32.
"""

import json
import os
import re

import numpy as np

f16, f32, f64 = np.float16, np.float32, np.float64
i8, i16, i32, i64 = np.int8, np.int16, np.int32, np.int64
u8, b_ = np.uint8, np.bool_
INF = float("inf")


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

    def add(self, name, expr, args, want=None, error=None, rtol=None, atol=None):
        assert all(c["name"] != name for c in self.cases), name
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
        if atol is not None:
            c["atol"] = atol
        self.cases.append(c)

    def write(self, path):
        with open(path, "w") as f:
            json.dump({"cases": self.cases}, f, indent=1)
            f.write("\n")
        return len(self.cases)


rng = np.random.default_rng(20240611)


def ints(shape, dt, lo=-9, hi=10):
    return rng.integers(lo, hi, size=shape).astype(dt)


def floats(shape, dt):
    return rng.uniform(-1, 1, size=shape).astype(dt)


# --- indexing ----------------------------------------------------------------

def indexing_cases():
    c = Cases()
    x = np.arange(24, dtype=i32).reshape(2, 3, 4)
    m = np.arange(12, dtype=f32).reshape(3, 4) / 4
    v = np.arange(6, dtype=i32) * 10

    basic = [
        ("int", "x[1]"), ("neg_int", "x[-1]"), ("two_ints", "x[1, 2]"),
        ("three_ints", "x[1, -1, 3]"), ("slice", "x[:, 1:3]"),
        ("slice_step", "x[..., ::2]"), ("slice_rev", "x[:, ::-1]"),
        ("slice_rev_step", "x[:, :, ::-3]"), ("slice_rev_bounds", "x[0, 2:0:-1]"),
        ("slice_clamped", "x[:, -100:100]"), ("slice_empty", "x[:, 2:1]"),
        ("none", "x[None]"), ("none_middle", "x[:, None, 1]"),
        ("ellipsis_none", "x[1, ..., None]"), ("ellipsis_only", "x[...]"),
        ("ellipsis_middle", "x[0, ..., 2]"), ("empty_tuple", "x[()]"),
        ("all_forms", "x[1:, None, ..., ::-2]"),
    ]
    for name, expr in basic:
        c.add("basic_" + name, expr, {"x": x}, want=eval(expr))
    c.add("basic_float16", "m[1:, ::2]", {"m": m.astype(f16)}, want=m.astype(f16)[1:, ::2])
    c.add("basic_bool_dtype", "b[1]", {"b": x % 3 == 0}, want=(x % 3 == 0)[1])
    c.add("basic_scalar_of_0d", "s[()]", {"s": np.array(7.5, f64)}, want=np.array(7.5, f64))
    c.add("basic_none_of_0d", "s[None]", {"s": np.array(7, i8)}, want=np.array([7], i8))

    i = np.array([2, 0, -1], i32)
    j = np.array([[1, 3], [0, 2]], i32)
    k = np.array([1, 0], i32)
    adv = [
        ("array", "v[i]", {"v": v, "i": i}, v[i]),
        ("array_2d", "v[j]", {"v": v, "j": j}, v[j]),
        ("rows", "m[i]", {"m": m, "i": i}, m[i]),
        ("cols", "m[:, j]", {"m": m, "j": j}, m[:, j]),
        ("pairs", "m[i, k[:1]]", {"m": m, "i": i, "k": k}, m[i, k[:1]]),
        ("broadcast", "m[k[:, None], j[0]]", {"m": m, "k": k, "j": j}, m[k[:, None], j[0]]),
        ("with_slice_after", "x[k, 1:]", {"x": x, "k": k}, x[k, 1:]),
        ("with_slice_before", "x[:, i, ::2]", {"x": x, "i": i}, x[:, i, ::2]),
        ("separated", "x[k, :, k]", {"x": x, "k": k}, x[k, :, k]),
        ("int_separated", "x[0, :, k]", {"x": x, "k": k}, x[0, :, k]),
        ("int_adjacent", "x[:, 1, k]", {"x": x, "k": k}, x[:, 1, k]),
        ("none_and_array", "x[None, k, 2]", {"x": x, "k": k}, x[None, k, 2]),
        ("ellipsis_array", "x[..., j]", {"x": x, "j": j}, x[..., j]),
        ("ellipsis_between", "x[k, ..., k]", {"x": x, "k": k}, x[k, ..., k]),
        ("list_in_tuple", "m[[2, 0], ]", {"m": m}, m[[2, 0], ]),
        ("list_and_slice", "m[[0, 1], 1:3]", {"m": m}, m[[0, 1], 1:3]),
        ("negative_step_array", "x[k, ::-1, 0]", {"x": x, "k": k}, x[k, ::-1, 0]),
        ("int8_index", "v[i8i]", {"v": v, "i8i": i.astype(i8)}, v[i]),
        ("uint8_index", "v[u8i]", {"v": v, "u8i": np.array([5, 1], u8)}, v[[5, 1]]),
        ("int64_index", "m[i64i]", {"m": m, "i64i": i.astype(i64)}, m[i]),
        ("empty_index", "m[e]", {"m": m, "e": np.zeros(0, i32)}, m[np.zeros(0, i32)]),
    ]
    for name, expr, args, want in adv:
        c.add("advanced_" + name, expr, args, want=want)
    # Clamped (JAX) where NumPy raises.
    big = np.array([7, -9, 2], i32)
    c.add("advanced_out_of_range_clamped", "v[big]", {"v": v, "big": big},
          want=v[np.clip(np.where(big < 0, big + 6, big), 0, 5)])
    c.add("scalar_array_index", "m[s]", {"m": m, "s": np.array(2, i32)}, want=m[2])
    c.add("scalar_array_negative", "m[s, 1:]", {"m": m, "s": np.array(-1, i32)}, want=m[-1, 1:])
    c.add("scalar_array_clamped", "m[s]", {"m": m, "s": np.array(10, i32)}, want=m[2])
    c.add("scalar_array_and_array", "x[s, k]", {"x": x, "s": np.array(1, i32), "k": k}, want=x[1, k])

    mask = (m * 4) % 3 == 1
    rows = np.array([True, False, True])
    cols = np.array([False, True, True, False])
    masks = [
        ("full", "m[mask]", {"m": m, "mask": mask}, m[mask]),
        ("rows", "m[rows]", {"m": m, "rows": rows}, m[rows]),
        ("cols", "m[:, cols]", {"m": m, "cols": cols}, m[:, cols]),
        ("rows_and_int", "m[rows, 1]", {"m": m, "rows": rows}, m[rows, 1]),
        ("rows_and_slice", "x[:, np_rows[:3], 1:]", {"x": x, "np_rows": rows}, x[:, rows, 1:]),
        ("all_false", "m[none_set]", {"m": m, "none_set": np.zeros((3, 4), bool)}, m[np.zeros((3, 4), bool)]),
        ("list", "m[[True, False, True], ]", {"m": m}, m[[True, False, True], ]),
        ("scalar_true", "m[True]", {"m": m}, m[True]),
        ("scalar_false", "m[False]", {"m": m}, m[False]),
        ("scalar_true_after_int", "m[0, True]", {"m": m}, m[0, True]),
        ("scalar_true_after_slice", "m[:, True]", {"m": m}, m[:, True]),
        ("scalar_0d_array", "m[t]", {"m": m, "t": np.array(True)}, m[True]),
    ]
    for name, expr, args, want in masks:
        c.add("mask_" + name, expr, args, want=want)

    errors = [
        ("static_out_of_range", "x[2]", "index 2 is out of bounds for axis 0 with size 2"),
        ("static_negative_out_of_range", "x[0, -4]", "index -4 is out of bounds for axis 1 with size 3"),
        ("too_many", "x[0, 0, 0, 0]", "too many indices for array: array is 3-dimensional, but 4 were indexed"),
        ("float", "x[1.5]", "indexer must have integer or boolean type"),
        ("float_array", "x[jnp.array([1.0])]", "indexer must have integer or boolean type, got indexer of type float32"),
        ("two_ellipses", "x[..., 0, ...]", "an index can only have a single ellipsis"),
        ("bare_list", "x[[0, 1]]", r"non-tuple sequence for multidimensional indexing is not allowed; use `arr\[array\(seq\)\]`"),
        ("mask_shape", "x[jnp.array([True, False, True])]", r"boolean index did not match shape of indexed array in index 0: got \(3,\), expected \(2,\)"),
        ("broadcast", "x[jnp.array([0, 1]), jnp.array([0, 1, 2])]", r"shape mismatch: indexing arrays could not be broadcast together with shapes \(2,\) \(3,\)"),
        ("string", 'x["a"]', "string indices are not supported"),
    ]
    for name, expr, err in errors:
        c.add("error_" + name, expr, {"x": x}, error=err)
    return c


def at_cases(c):
    x = np.arange(12, dtype=f32).reshape(3, 4)
    xi = np.arange(12, dtype=i32).reshape(3, 4)
    v = np.arange(6, dtype=i32)

    def upd(a, f):
        a = a.copy()
        f(a)
        return a

    def setv(a, idx, val):
        a[idx] = val

    cases = [
        ("set_int", "x.at[1].set(7.0)", {"x": x}, upd(x, lambda a: setv(a, 1, 7))),
        ("set_pair", "x.at[1, -1].set(7.0)", {"x": x}, upd(x, lambda a: setv(a, (1, -1), 7))),
        ("set_slice_row", "x.at[:, 1].set(r)", {"x": x, "r": np.array([10, 20, 30], f32)},
         upd(x, lambda a: setv(a, (slice(None), 1), [10, 20, 30]))),
        ("set_broadcast_row", "x.at[1:].set(r)", {"x": x, "r": np.array([1, 2, 3, 4], f32)},
         upd(x, lambda a: setv(a, slice(1, None), [1, 2, 3, 4]))),
        ("set_reversed", "v.at[::-2].set(w)", {"v": v, "w": np.array([10, 20, 30], i32)},
         upd(v, lambda a: setv(a, slice(None, None, -2), [10, 20, 30]))),
        ("set_array", "v.at[i].set(w)", {"v": v, "i": np.array([4, -6, 2], i32), "w": np.array([7, 8, 9], i32)},
         upd(v, lambda a: setv(a, [4, 0, 2], [7, 8, 9]))),
        ("set_mask", "x.at[big].set(0.0)", {"x": x, "big": x > 5}, upd(x, lambda a: setv(a, a > 5, 0))),
        ("set_mask_rows", "x.at[rows].set(-1.0)", {"x": x, "rows": np.array([True, False, True])},
         upd(x, lambda a: setv(a, np.array([True, False, True]), -1))),
        ("set_none", "x.at[None, 0].set(r)", {"x": x, "r": np.array([[5, 6, 7, 8]], f32)},
         upd(x, lambda a: setv(a, 0, [5, 6, 7, 8]))),
        ("set_ellipsis", "x.at[..., 2].set(1.5)", {"x": x}, upd(x, lambda a: setv(a, (Ellipsis, 2), 1.5))),
        ("set_everything", "x.at[...].set(2.0)", {"x": x}, np.full_like(x, 2)),
        ("set_advanced_separated", "y.at[k, :, k].set(0)", {"y": np.arange(24, dtype=i32).reshape(2, 3, 4), "k": np.array([1, 0], i32)},
         upd(np.arange(24, dtype=i32).reshape(2, 3, 4), lambda a: setv(a, ([1, 0], slice(None), [1, 0]), 0))),
        ("set_weak_float_into_int", "xi.at[0, 0].set(2.7)", {"xi": xi}, upd(xi, lambda a: setv(a, (0, 0), 2))),
        ("set_float16", "h.at[1].set(0.1)", {"h": x.astype(f16)}, upd(x.astype(f16), lambda a: setv(a, 1, f16(0.1)))),
        ("set_bool", "b.at[0].set(True)", {"b": np.zeros(3, bool)}, np.array([True, False, False])),
        ("set_list_values", "v.at[:3].set([9, 8, 7])", {"v": v}, upd(v, lambda a: setv(a, slice(None, 3), [9, 8, 7]))),
        ("set_out_of_range_dropped", "v.at[i].set(100)", {"v": v, "i": np.array([1, 6, 9], i32)},
         upd(v, lambda a: setv(a, 1, 100))),
        ("set_static_out_of_range_dropped", "v.at[10].set(100)", {"v": v}, v),
        ("set_clip", "v.at[i].set(100, mode='clip')", {"v": v, "i": np.array([9], i32)}, upd(v, lambda a: setv(a, 5, 100))),
        ("set_empty_index", "v.at[e].set(1)", {"v": v, "e": np.zeros(0, i32)}, v),
        ("add_duplicates", "v.at[i].add(10)", {"v": v, "i": np.array([0, 0, 3, 0], i32)},
         upd(v, lambda a: np.add.at(a, [0, 0, 3, 0], 10))),
        ("add_values_duplicates", "x.at[i, 1].add(w)", {"x": x, "i": np.array([2, 2, 0], i32), "w": np.array([1, 2, 4], f32)},
         upd(x, lambda a: np.add.at(a, ([2, 2, 0], 1), [1, 2, 4]))),
        ("add_rows_duplicates", "x.at[i].add(1.0)", {"x": x, "i": np.array([1, 1], i32)},
         upd(x, lambda a: np.add.at(a, [1, 1], 1))),
        ("add_out_of_range_dropped", "v.at[i].add(5)", {"v": v, "i": np.array([-1, 6, -7, 2], i32)},
         upd(v, lambda a: np.add.at(a, [5, 2], 5))),
        ("add_weak_float_into_int", "v.at[2].add(2.5)", {"v": v}, upd(v, lambda a: setv(a, 2, 4))),
        ("add_mask", "xi.at[ev].add(100)", {"xi": xi, "ev": xi % 2 == 0}, upd(xi, lambda a: np.add.at(a, a % 2 == 0, 100))),
        ("multiply", "x.at[:, 0].multiply(3.0)", {"x": x}, upd(x, lambda a: np.multiply.at(a, (slice(None), 0), 3))),
        ("multiply_duplicates", "v.at[i].multiply(2)", {"v": v, "i": np.array([1, 1, 1], i32)},
         upd(v, lambda a: np.multiply.at(a, [1, 1, 1], 2))),
        ("min", "v.at[i].min(w)", {"v": v, "i": np.array([5, 5, 1], i32), "w": np.array([3, 4, 9], i32)},
         upd(v, lambda a: np.minimum.at(a, [5, 5, 1], [3, 4, 9]))),
        ("max", "x.at[1].max(r)", {"x": x, "r": np.array([0, 9, 0, 9], f32)},
         upd(x, lambda a: np.maximum.at(a, 1, [0, 9, 0, 9]))),
        ("max_duplicates", "v.at[i].max(w)", {"v": v, "i": np.array([0, 0], i32), "w": np.array([7, 3], i32)},
         upd(v, lambda a: np.maximum.at(a, [0, 0], [7, 3]))),
        ("min_float64", "d.at[::2].min(0.5)", {"d": np.linspace(0, 1, 5)}, np.minimum(np.linspace(0, 1, 5), [0.5, 1, 0.5, 1, 0.5])),
        ("get", "x.at[1, ::2].get()", {"x": x}, x[1, ::2]),
        ("get_array_clamped", "v.at[i].get()", {"v": v, "i": np.array([8, -8], i32)}, v[[5, 0]]),
        ("get_clip_static", "v.at[9].get(mode='clip')", {"v": v}, v[5]),
        ("get_fill_float", "x.at[5].get(mode='fill')", {"x": x}, np.full(4, np.nan, f32)),
        ("get_fill_value", "x.at[i, 1].get(mode='fill', fill_value=-1)", {"x": x, "i": np.array([0, 3], i32)},
         np.array([x[0, 1], -1], f32)),
        ("get_fill_int_default", "v.at[i].get(mode='fill')", {"v": v, "i": np.array([1, 7], i32)},
         np.array([1, np.iinfo(i32).min], i32)),
        ("get_kwargs", "v.at[i].get(indices_are_sorted=True, unique_indices=True)", {"v": v, "i": np.array([1, 3], i32)}, v[[1, 3]]),
        ("set_kwargs", "v.at[i].set(0, indices_are_sorted=True, unique_indices=True)", {"v": v, "i": np.array([1, 3], i32)},
         upd(v, lambda a: setv(a, [1, 3], 0))),
    ]
    for name, expr, args, want in cases:
        c.add("at_" + name, expr, args, want=want)
    errs = [
        ("unbroadcastable", "v.at[:2].set(jnp.array([1, 2, 3]))", r"values of shape \(3,\) do not broadcast to the indexed shape \(2,\)"),
        ("static_get", "v.at[6].get()", "index 6 is out of bounds for axis 0 with size 6"),
        ("bad_mode", "v.at[0].get(mode='wrap')", "unknown gather mode"),
        ("float_index", "v.at[0.5].set(1)", "indexer must have integer or boolean type"),
        ("not_array", "[1, 2].at[0].set(1)", "has no .at field or method"),
    ]
    for name, expr, err in errs:
        c.add("at_error_" + name, expr, {"v": v}, error=err)


def lax_cases(c):
    x = np.arange(12, dtype=f32).reshape(3, 4)
    v = np.arange(6, dtype=i32)
    cases = [
        ("slice", "lax.slice(x, (1, 0), (3, 4))", {"x": x}, x[1:3, 0:4]),
        ("slice_strides", "lax.slice(x, (0, 1), (3, 4), (2, 2))", {"x": x}, x[0:3:2, 1:4:2]),
        ("dynamic_slice", "lax.dynamic_slice(x, (1, 2), (2, 2))", {"x": x}, x[1:3, 2:4]),
        ("dynamic_slice_clamped", "lax.dynamic_slice(x, (2, 3), (2, 2))", {"x": x}, x[1:3, 2:4]),
        ("dynamic_slice_negative", "lax.dynamic_slice(v, (-2,), (2,))", {"v": v}, v[4:6]),
        ("dynamic_slice_array", "lax.dynamic_slice(x, (s, 1), (1, 3))", {"x": x, "s": np.array(2, i32)}, x[2:3, 1:4]),
        ("dynamic_slice_1d_indices", "lax.dynamic_slice(x, st, (2, 2))", {"x": x, "st": np.array([0, 1], i32)}, x[0:2, 1:3]),
        ("dynamic_update_slice", "lax.dynamic_update_slice(x, u, (1, 1))", {"x": x, "u": np.ones((2, 2), f32)},
         np.where(np.pad(np.ones((2, 2), bool), ((1, 0), (1, 1))), 1, x).astype(f32)),
        ("dynamic_update_slice_clamped", "lax.dynamic_update_slice(v, u, (5,))", {"v": v, "u": np.array([9, 9], i32)},
         np.array([0, 1, 2, 3, 9, 9], i32)),
        ("transpose", "lax.transpose(y, (2, 0, 1))", {"y": np.arange(24, dtype=i8).reshape(2, 3, 4)},
         np.arange(24, dtype=i8).reshape(2, 3, 4).transpose(2, 0, 1)),
        ("reshape", "lax.reshape(x, (2, 6))", {"x": x}, x.reshape(2, 6)),
        ("reshape_dimensions", "lax.reshape(x, (4, 3), dimensions=(1, 0))", {"x": x}, x.T.reshape(4, 3)),
        ("squeeze", "lax.squeeze(s, (0, -1))", {"s": np.ones((1, 3, 1), f16)}, np.ones(3, f16)),
        ("expand_dims", "lax.expand_dims(v, (0, -1))", {"v": v}, v[None, :, None]),
        ("concatenate", "lax.concatenate([x, x[:1]], 0)", {"x": x}, np.concatenate([x, x[:1]], 0)),
        ("concatenate_axis1", "lax.concatenate((x, x), 1)", {"x": x}, np.concatenate([x, x], 1)),
        ("pad", "lax.pad(v, 0, [(1, 2, 1)])", {"v": v},
         np.array([0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0], i32)),
        ("pad_negative", "lax.pad(x, -1.0, [(0, 0, 0), (-1, 1, 0)])", {"x": x},
         np.concatenate([x[:, 1:], np.full((3, 1), -1, f32)], 1)),
        ("rev", "lax.rev(x, (0, 1))", {"x": x}, x[::-1, ::-1]),
    ]
    for name, expr, args, want in cases:
        c.add("lax_" + name, expr, args, want=want)
    errs = [
        ("pad_dtype", "lax.pad(v, 0.5, [(1, 1, 0)])", "lax.pad: operand and padding_value must have the same dtype, got int32 and float32"),
        ("concat_dtype", "lax.concatenate([v, v.astype(jnp.float32)], 0)", "lax.concatenate: operands must have the same dtype, got int32 and float32"),
        ("update_dtype", "lax.dynamic_update_slice(v, jnp.ones(2), (0,))", "lax.dynamic_update_slice: operand and update must have the same dtype, got int32 and float32"),
        ("dynamic_slice_rank", "lax.dynamic_slice(v, (0, 0), (1,))", "lax.dynamic_slice: length of start indices must match the operand's rank"),
    ]
    for name, expr, err in errs:
        c.add("lax_error_" + name, expr, {"v": v}, error=err)


# --- linear algebra ------------------------------------------------------------

def wrap(a, dt):
    """The exact integer result wrapped to dt, as integer products wrap."""
    return np.asarray(a).astype(i64).astype(dt)


def linalg_cases():
    c = Cases()
    shapes_dot = [
        ("vv", (4,), (4,)), ("mv", (3, 4), (4,)), ("vm", (4,), (4, 2)), ("mm", (3, 4), (4, 2)),
        ("tm", (2, 3, 4), (4, 5)), ("tt", (2, 3, 4), (5, 4, 2)),
    ]
    for dt in (i32, i8, f16, f32, f64):
        for name, sa, sb in shapes_dot:
            a, b = ints(sa, dt, -4, 5), ints(sb, dt, -4, 5)
            want = np.dot(a.astype(i64), b.astype(i64))
            c.add(f"dot_{name}_{np.dtype(dt).name}", "jnp.dot(a, b)", {"a": a, "b": b}, want=wrap(want, dt) if np.dtype(dt).kind == "i" else want.astype(dt))
    a, b = floats((5, 7), f32), floats((7, 3), f32)
    c.add("dot_random_float32", "jnp.dot(a, b)", {"a": a, "b": b}, want=(a.astype(f64) @ b.astype(f64)).astype(f32), rtol=1e-5, atol=1e-6)
    a, b = floats((5, 7), f64), floats((7, 3), f64)
    c.add("dot_random_float64", "jnp.dot(a, b)", {"a": a, "b": b}, want=a @ b)
    a = ints((3,), f32)
    c.add("dot_scalar", "jnp.dot(2, a)", {"a": a}, want=(2 * a).astype(f32))
    ai, af = ints((2, 3), i32), ints((3,), f32)
    c.add("dot_int32_float32", "jnp.dot(ai, af)", {"ai": ai, "af": af}, want=(ai @ af).astype(f32))
    a8 = np.full((2, 40), 100, i8)
    c.add("dot_int8_wraps", "jnp.dot(a8, a8.T)", {"a8": a8}, want=wrap(a8.astype(i64) @ a8.T.astype(i64), i8))
    c.add("dot_int8_preferred_int32", "jnp.dot(a8, a8.T, preferred_element_type=jnp.int32)", {"a8": a8},
          want=(a8.astype(i64) @ a8.T.astype(i64)).astype(i32))
    h = ints((3, 4), f16)
    c.add("dot_float16_preferred_float32", "jnp.dot(h, h.T, preferred_element_type=jnp.float32)", {"h": h},
          want=(h.astype(f64) @ h.T.astype(f64)).astype(f32))
    c.add("dot_precision", "jnp.dot(a, a, precision='highest')", {"a": a}, want=np.array(np.dot(a, a), f32))

    shapes_mm = [
        ("mm", (3, 4), (4, 2)), ("vm", (4,), (4, 2)), ("mv", (3, 4), (4,)), ("vv", (4,), (4,)),
        ("batch", (2, 3, 4), (2, 4, 5)), ("broadcast_batch", (2, 1, 3, 4), (5, 4, 2)),
        ("ones_batch", (1, 3, 4), (1, 4, 2)), ("vector_batch", (4,), (3, 4, 2)), ("batch_vector", (2, 3, 4), (4,)),
    ]
    for dt in (i32, f16, f32, f64):
        for name, sa, sb in shapes_mm:
            a, b = ints(sa, dt, -4, 5), ints(sb, dt, -4, 5)
            c.add(f"matmul_{name}_{np.dtype(dt).name}", "jnp.matmul(a, b)", {"a": a, "b": b},
                  want=np.matmul(a.astype(i64), b.astype(i64)).astype(dt))
    a, b = floats((2, 3, 6), f32), floats((6, 4), f32)
    c.add("matmul_operator", "a @ b", {"a": a, "b": b}, want=(a.astype(f64) @ b.astype(f64)).astype(f32), rtol=1e-5, atol=1e-6)
    ai, ah = ints((3, 2), i8), ints((2, 2), f16)
    c.add("matmul_int8_float16", "ai @ ah", {"ai": ai, "ah": ah}, want=(ai.astype(f64) @ ah.astype(f64)).astype(f16))

    for dt in (i32, f32):
        a, b = ints((2, 3), dt), ints((3, 2), dt)
        c.add(f"vdot_{np.dtype(dt).name}", "jnp.vdot(a, b)", {"a": a, "b": b}, want=np.array(np.vdot(a, b), dt))
    a, b = ints((2, 3), f32), ints((4, 3), f32)
    c.add("inner_2d", "jnp.inner(a, b)", {"a": a, "b": b}, want=np.inner(a, b).astype(f32))
    c.add("inner_1d", "jnp.inner(a[0], b[1])", {"a": a, "b": b}, want=np.array(np.inner(a[0], b[1]), f32))
    c.add("inner_scalar", "jnp.inner(a, 3)", {"a": a}, want=(a * 3).astype(f32))
    ai, bf = ints((3,), i32), ints((2, 2), f16)
    c.add("outer_int_float16", "jnp.outer(ai, bf)", {"ai": ai, "bf": bf}, want=np.outer(ai, bf).astype(f16))
    c.add("outer_int", "jnp.outer(ai, ai)", {"ai": ai}, want=np.outer(ai, ai).astype(i32))

    t3, t2, t4 = ints((2, 3, 4), f32), ints((3, 4, 2), f32), ints((4, 3), f32)
    tds = [
        ("default", "jnp.tensordot(t3, t2)", np.tensordot(t3, t2)),
        ("axes0", "jnp.tensordot(t3[0], t2[0], axes=0)", np.tensordot(t3[0], t2[0], axes=0)),
        ("axes1", "jnp.tensordot(t3, t4, axes=1)", np.tensordot(t3, t4, axes=1)),
        ("pair_ints", "jnp.tensordot(t3, t2, axes=(1, 0))", np.tensordot(t3, t2, axes=(1, 0))),
        ("pair_lists", "jnp.tensordot(t3, t2, axes=([1, 2], [0, 1]))", np.tensordot(t3, t2, axes=([1, 2], [0, 1]))),
        ("negative", "jnp.tensordot(t3, t2, axes=([-1], [1]))", np.tensordot(t3, t2, axes=([-1], [1]))),
    ]
    for name, expr, want in tds:
        c.add("tensordot_" + name, expr, {"t3": t3, "t2": t2, "t4": t4}, want=want.astype(f32))
    ti = ints((2, 3), i16)
    c.add("tensordot_int16", "jnp.tensordot(ti, ti, axes=([0, 1], [0, 1]))", {"ti": ti}, want=np.array(np.tensordot(ti, ti, 2), i16))

    a, b, sq = ints((3, 4), f32), ints((4, 5), f32), ints((3, 3), f32)
    bt, bu = ints((2, 3, 4), f32), ints((2, 4, 5), f32)
    v1, v2 = ints((4,), f32), ints((3,), f32)
    cb, c3 = ints((5, 2), f32), ints((3, 3, 4), f32)
    ops = {"a": a, "b": b, "sq": sq, "bt": bt, "bu": bu, "v1": v1, "v2": v2, "cb": cb, "c3": c3}
    ein = [
        ("matmul", "'ij,jk->ik', a, b"), ("implicit", "'ij,jk', a, b"), ("batch", "'bij,bjk->bik', bt, bu"),
        ("diag", "'ii->i', sq"), ("trace", "'ii', sq"), ("dot", "'i,i->', v1, v1"), ("transpose", "'ij->ji', a"),
        ("ellipsis", "'...ij,...jk->...ik', bt, b"), ("ellipsis_implicit", "'...ij,...jk', bt, bu"),
        ("outer", "'i,j->ij', v1, v2"), ("sum", "'ij->', a"), ("row_sums", "'ij->i', a"),
        ("elementwise", "'ij,ij->ij', a, a"), ("frobenius", "'ij,ij', a, a"), ("chain", "'ij,jk,kl->il', a, b, cb"),
        ("permute", "'bij->jbi', bt"), ("diag_3d", "'iij->ji', c3"),
        ("repeat_and_contract", "'ii,ij->j', sq, a"), ("upper", "'Ij,jK->KI', a, b"),
        ("spaces", "'ij , jk -> ik', a, b"), ("broadcast_one", "'ij,jk->ik', a[:1], b"),
        ("ellipsis_sum", "'...i->...', bt"), ("scalar", "',i->i', 3.0, v1"),
    ]
    for name, args in ein:
        expr = f"jnp.einsum({args})"
        want = np.einsum(*eval(args, {}, dict(ops)))
        used = {k: v for k, v in ops.items() if re.search(r"\b%s\b" % k, args)}
        c.add("einsum_" + name, expr, used, want=np.asarray(want).astype(f32))
    ai = ints((3, 3), i32)
    c.add("einsum_int32", "jnp.einsum('ij,jk->ki', ai, ai)", {"ai": ai}, want=np.einsum('ij,jk->ki', ai, ai).astype(i32))
    h = ints((2, 3), f16)
    c.add("einsum_float16", "jnp.einsum('ij,kj->ik', h, h)", {"h": h}, want=np.einsum('ij,kj->ik', h.astype(f64), h.astype(f64)).astype(f16))
    c.add("einsum_mixed", "jnp.einsum('ij,j', ai, v2)", {"ai": ai, "v2": v2}, want=(ai @ v2).astype(f32))
    c.add("einsum_preferred", "jnp.einsum('i,i', a8, a8, preferred_element_type=jnp.int32)", {"a8": np.full(40, 100, i8)},
          want=np.array(400000, i32))

    for dt, want_dt in ((i32, i32), (i8, i32), (f16, f16), (f32, f32), (f64, f64)):
        m = ints((3, 3), dt)
        name = np.dtype(dt).name
        c.add(f"trace_{name}", "jnp.trace(m)", {"m": m}, want=np.array(np.trace(m.astype(i64)), want_dt))
    r = ints((2, 3, 4), f32)
    c.add("trace_offset", "jnp.trace(r[0], offset=1)", {"r": r}, want=np.array(np.trace(r[0], 1), f32))
    c.add("trace_negative_offset", "jnp.trace(r[0], -1)", {"r": r}, want=np.array(np.trace(r[0], -1), f32))
    c.add("trace_axes", "jnp.trace(r, axis1=1, axis2=2)", {"r": r}, want=np.trace(r, axis1=1, axis2=2).astype(f32))
    c.add("trace_axes_reversed", "jnp.trace(r, 0, 2, 0)", {"r": r}, want=np.trace(r, 0, 2, 0).astype(f32))
    c.add("trace_dtype", "jnp.trace(r[0], dtype=jnp.float64)", {"r": r}, want=np.array(np.trace(r[0]), f64))

    norm_cases(c)

    errs = [
        ("matmul_shapes", "jnp.ones((2, 3)) @ jnp.ones((4, 5))", r"\(2, 3\) and \(4, 5\)"),
        ("matmul_batch", "jnp.matmul(jnp.ones((2, 3, 4)), jnp.ones((3, 4, 5)))", r"\(2, 3, 4\) and \(3, 4, 5\)"),
        ("matmul_scalar", "jnp.matmul(jnp.ones(3), 2.0)", "matmul input operand 1 must have ndim at least 1"),
        ("matmul_list", "jnp.ones(3) @ [1, 2, 3]", "unknown binary op"),
        ("dot_shapes", "jnp.dot(jnp.ones((2, 3)), jnp.ones(2))", r"shapes \(2, 3\) and \(2,\) not aligned"),
        ("dot_list", "jnp.dot([1.0], jnp.ones(1))", "dot requires ndarray or scalar arguments, got list at position 0"),
        ("einsum_operands", "jnp.einsum('ij,jk', jnp.ones((2, 2)))", "have 2 input terms but 1 operands were given"),
        ("einsum_char", "jnp.einsum('i1->i', jnp.ones((2, 2)))", "invalid subscript \"1\""),
        ("einsum_rank", "jnp.einsum('ijk', jnp.ones((2, 2)))", "operand 0 has 2 dimensions but its subscripts \"ijk\" name 3"),
        ("einsum_output", "jnp.einsum('ij->k', jnp.ones((2, 2)))", "output subscript 'k' does not appear in the inputs"),
        ("einsum_output_twice", "jnp.einsum('ij->ii', jnp.ones((2, 2)))", "output subscript 'i' appears more than once"),
        ("einsum_sizes", "jnp.einsum('ij,jk', jnp.ones((2, 3)), jnp.ones((4, 2)))", r"size of label 'j' for operand 1 \(4\) does not match previous terms \(3\)"),
        ("einsum_arrows", "jnp.einsum('i->i->i', jnp.ones(2))", "at most one '->'"),
        ("tensordot_axes", "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((3, 2)), axes=3)", "exceeds input ranks"),
        ("tensordot_sizes", "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((2, 3)), axes=1)", "shape mismatch for sum"),
        ("trace_axes", "jnp.trace(jnp.ones((2, 2)), axis1=1, axis2=-1)", "axis1 and axis2 can not be same"),
        ("dot_general_dims", "lax.dot_general(jnp.ones(2), jnp.ones(2), ((0,), (0,)))", "dimension_numbers must be"),
        ("dot_general_sizes", "lax.dot_general(jnp.ones(2), jnp.ones(3), (((0,), (0,)), ((), ())))", "contracting dimensions must have the same sizes"),
    ]
    for name, expr, err in errs:
        c.add("error_" + name, expr, {}, error=err)
    d = ints((2, 3), f32)
    c.add("dot_general", "lax.dot_general(d, d, (((1,), (1,)), ((), ())))", {"d": d}, want=(d @ d.T).astype(f32))
    c.add("dot_general_batch", "lax.dot_general(bt, bu, (((2,), (1,)), ((0,), (0,))))", {"bt": bt, "bu": bu}, want=np.matmul(bt, bu).astype(f32))
    c.add("dot_general_mixed", "lax.dot_general(ai, v2, (((1,), (0,)), ((), ())))", {"ai": ai, "v2": v2}, want=(ai @ v2).astype(f32))
    return c


def norm_cases(c):
    x = floats((3, 4), f32)
    xd = x.astype(f64)
    vec = [("2", "None", None), ("two", "2", 2), ("one", "1", 1), ("inf", "jnp.inf", INF), ("neg_inf", "-jnp.inf", -INF),
           ("zero", "0", 0), ("three", "3", 3), ("neg_one", "-1", -1), ("half", "0.5", 0.5)]
    for name, ords, o in vec:
        want = np.linalg.norm(xd, ord=o, axis=1)
        c.add(f"norm_vector_{name}", f"jnp.linalg.norm(x, ord={ords}, axis=1)", {"x": x}, want=want.astype(f32), rtol=1e-5)
    mat = [("fro", "'fro'", "fro"), ("none", "None", None), ("one", "1", 1), ("neg_one", "-1", -1),
           ("inf", "jnp.inf", INF), ("neg_inf", "-jnp.inf", -INF)]
    for name, ords, o in mat:
        c.add(f"norm_matrix_{name}", f"jnp.linalg.norm(x, ord={ords})", {"x": x},
              want=np.array(np.linalg.norm(xd, ord=o), f32), rtol=1e-5)
    t = floats((2, 3, 4), f32)
    td = t.astype(f64)
    c.add("norm_all_axes", "jnp.linalg.norm(t)", {"t": t}, want=np.array(np.linalg.norm(td.ravel()), f32), rtol=1e-5)
    c.add("norm_keepdims", "jnp.linalg.norm(t, keepdims=True)", {"t": t},
          want=np.linalg.norm(td.ravel()).reshape(1, 1, 1).astype(f32), rtol=1e-5)
    c.add("norm_axis_tuple", "jnp.linalg.norm(t, ord=1, axis=(2, 0))", {"t": t},
          want=np.linalg.norm(td, ord=1, axis=(2, 0)).astype(f32), rtol=1e-5)
    c.add("norm_axis_tuple_keepdims", "jnp.linalg.norm(t, ord=jnp.inf, axis=(0, 2), keepdims=True)", {"t": t},
          want=np.linalg.norm(td, ord=INF, axis=(0, 2), keepdims=True).astype(f32), rtol=1e-5)
    c.add("norm_vector_keepdims", "jnp.linalg.norm(t, axis=-1, keepdims=True)", {"t": t},
          want=np.linalg.norm(td, axis=-1, keepdims=True).astype(f32), rtol=1e-5)
    xi = ints((5,), i32)
    c.add("norm_int", "jnp.linalg.norm(xi)", {"xi": xi}, want=np.array(np.linalg.norm(xi.astype(f64)), f32), rtol=1e-6)
    xh = ints((4, 3), f16)
    c.add("norm_float16", "jnp.linalg.norm(xh, axis=0)", {"xh": xh}, want=np.linalg.norm(xh.astype(f64), axis=0).astype(f16))
    c.add("norm_float16_matrix_1", "jnp.linalg.norm(xh, 1)", {"xh": xh}, want=np.array(np.linalg.norm(xh.astype(f64), 1), f16))
    xd2 = floats((6,), f64)
    c.add("norm_float64_p", "jnp.linalg.norm(xd, 2.5)", {"xd": xd2}, want=np.array(np.linalg.norm(xd2, 2.5), f64))
    c.add("norm_python_scalar", "jnp.linalg.norm(-3)", {}, want=np.array(3, f32))
    c.add("norm_empty_inf", "jnp.linalg.norm(e, jnp.inf)", {"e": np.zeros(0, f32)}, want=np.array(0, f32))
    xm = x.astype(f64)
    c.add("norm_nuc", "jnp.linalg.norm(x, 'nuc')", {"x": x}, want=np.array(np.linalg.norm(xm, "nuc"), f32), rtol=1e-5)
    c.add("norm_matrix_2", "jnp.linalg.norm(x, 2)", {"x": x}, want=np.array(np.linalg.norm(xm, 2), f32), rtol=1e-5)
    c.add("norm_matrix_minus_2", "jnp.linalg.norm(x, -2)", {"x": x}, want=np.array(np.linalg.norm(xm, -2), f32), rtol=1e-5)
    errs = [
        ("three_axes", "jnp.linalg.norm(t, 1)", r"improper number of axes for norm: axis=\(0, 1, 2\)"),
        ("bad_ord", "jnp.linalg.norm(x, 'spectral')", "invalid order 'spectral' for matrix norm"),
        ("bad_vector_ord", "jnp.linalg.norm(x, 'inf', axis=0)", "invalid order 'inf' for vector norm"),
    ]
    for name, expr, err in errs:
        c.add("norm_error_" + name, expr, {"x": x, "t": t}, error=err)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    idx = indexing_cases()
    at_cases(idx)
    lax_cases(idx)
    n1 = idx.write(os.path.join(here, "indexing.json"))
    n2 = linalg_cases().write(os.path.join(here, "linalg.json"))
    print(f"indexing.json: {n1} cases, linalg.json: {n2} cases")


if __name__ == "__main__":
    main()
