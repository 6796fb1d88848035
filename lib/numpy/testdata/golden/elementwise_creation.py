"""Golden cases for array creation and dtype utilities (creation.json);
gen_elementwise.py runs them."""

import math

import numpy as np

from elementwise_rules import A, INF, NAN, P, cast, is_float, is_int, spec


def creation_cases(c):
    def want(values, dtype):
        return spec(cast(values, dtype) if dtype != "bool" else np.asarray(values, bool), dtype)
    # array/asarray: a list's dtype is the promotion of its elements (Python
    # numbers weakly), strongly typed; a Python number stays weak.
    arrays = [
        ("ints", "jnp.array([[1, 2], [3, 4]])", [[1, 2], [3, 4]], "int32"),
        ("floats", "jnp.array([1.5, -2.0])", [1.5, -2.0], "float32"),
        ("mixed_int_float", "jnp.array([1, 2.5])", [1.0, 2.5], "float32"),
        ("bools", "jnp.array([True, False])", [True, False], "bool"),
        ("bool_int", "jnp.array([True, 2])", [1, 2], "int32"),
        ("dtype", "jnp.array([1, 2], dtype=jnp.int8)", [1, 2], "int8"),
        ("dtype_name", "jnp.array([1.5, 2.5], dtype='float16')", [1.5, 2.5], "float16"),
        ("dtype_python_float", "jnp.array([1, 2], dtype=float)", [1.0, 2.0], "float32"),
        ("float_to_int_truncates", "jnp.array([1.7, -1.7], dtype=jnp.int32)", [1, -1], "int32"),
        ("scalar", "jnp.array(3)", 3, "int32"),
        ("scalar_float_dtype", "jnp.array(3.5, dtype=jnp.int32)", 3, "int32"),
        ("empty", "jnp.array([])", np.zeros((0,)), "float32"),
        ("empty_nested", "jnp.array([[], []])", np.zeros((2, 0)), "float32"),
        ("tuple", "jnp.array(((1, 2), (3, 4)))", [[1, 2], [3, 4]], "int32"),
        ("ndmin", "jnp.array([1, 2], ndmin=3)", [[[1, 2]]], "int32"),
        ("nan_inf", "jnp.array([float('nan'), float('inf'), -0.0])", [NAN, INF, -0.0], "float32"),
        ("uint32_large", "jnp.array([4000000000], dtype=jnp.uint32)", [4000000000], "uint32"),
        ("int64", "jnp.array([-9007199254740992, 3], dtype='int64')", [-9007199254740992, 3], "int64"),
        ("asarray", "jnp.asarray([1, 2])", [1, 2], "int32"),
        ("asarray_dtype", "jnp.asarray([1, 2], jnp.float16)", [1.0, 2.0], "float16"),
        ("asarray_bfloat16", "jnp.asarray([1.0, 3.14159], dtype=jnp.bfloat16)", [1.0, 3.14159], "bfloat16"),
    ]
    for name, expr, values, dtype in arrays:
        c.add(f"array_{name}", expr, {}, want=want(values, dtype))
    # Arrays inside lists keep their dtypes in the promotion.
    i8 = A([1, -2], "int8")
    c.add("array_of_arrays", "jnp.array([a, a])", {"a": i8}, want=want([[1, -2], [1, -2]], "int8"))
    c.add("array_array_and_py", "jnp.array([a, [3, 4]])", {"a": i8}, want=want([[1, -2], [3, 4]], "int8"))
    c.add("array_f16_scalar_and_py", "jnp.array([a, 2])", {"a": A(1.5, "float16")}, want=want([1.5, 2.0], "float16"))
    c.add("array_u8_i8", "jnp.array([a, b])", {"a": A([200], "uint8"), "b": A([-1], "int8")}, want=want([[200], [-1]], "int16"))
    c.add("array_copy", "jnp.array(a)", {"a": A([1.5], "float32")}, want=want([1.5], "float32"))
    c.add("array_convert", "jnp.array(a, dtype=jnp.int32)", {"a": A([1.5, -2.5], "float32")}, want=want([1, -2], "int32"))
    c.add("asarray_array", "jnp.asarray(a)", {"a": A([1, 2], "uint8")}, want=want([1, 2], "uint8"))
    c.add("array_ragged", "jnp.array([[1, 2], [3]])", {}, error="array: ragged nested sequence")
    c.add("array_ragged_depth", "jnp.array([1, [2]])", {}, error="ragged")
    c.add("array_none", "jnp.array(None)", {}, error="array: None is not a valid value")
    c.add("array_none_inside", "jnp.array([1, None])", {}, error="array: None is not a valid value")
    c.add("array_string", "jnp.array(['a'])", {}, error="array: cannot convert string")
    c.add("array_bad_dtype", "jnp.array([1], dtype='float8')", {}, error="array: unknown dtype \"float8\"")
    c.add("array_overflow", "jnp.array([300], dtype=jnp.int8)", {}, error="300 too large to convert to int8")
    c.add("array_order", "jnp.array([1], order='F')", {}, error="array: only order='K'")
    # Weak types show in promotion: a Python scalar array adopts int8.
    c.add("array_scalar_is_weak", "jnp.array(3) + a", {"a": i8}, want=want([4, 1], "int8"))
    c.add("array_list_is_strong", "jnp.array([3]) + a", {"a": i8}, want=want([4, 1], "int32"))

    # zeros/ones/empty/full and the _like forms.
    filled = [
        ("zeros", "jnp.zeros((2, 3))", np.zeros((2, 3)), "float32"),
        ("zeros_int_shape", "jnp.zeros(3, dtype=jnp.int32)", np.zeros(3), "int32"),
        ("zeros_list_shape", "jnp.zeros([2, 1], jnp.bool_)", np.zeros((2, 1)), "bool"),
        ("zeros_scalar", "jnp.zeros(())", np.zeros(()), "float32"),
        ("zeros_empty", "jnp.zeros((0, 2))", np.zeros((0, 2)), "float32"),
        ("ones", "jnp.ones((2,), jnp.float16)", np.ones(2), "float16"),
        ("ones_python_int_dtype", "jnp.ones(2, dtype=int)", np.ones(2), "int32"),
        ("empty", "jnp.empty((2, 2), dtype=jnp.uint8)", np.zeros((2, 2)), "uint8"),
        ("full_int", "jnp.full((2, 2), 7)", np.full((2, 2), 7), "int32"),
        ("full_float", "jnp.full(3, 2.5)", np.full(3, 2.5), "float32"),
        ("full_dtype", "jnp.full((2,), 2.5, dtype=jnp.float16)", np.full(2, 2.5), "float16"),
        ("full_bool", "jnp.full((1, 2), True)", np.ones((1, 2)), "bool"),
        ("full_nan", "jnp.full((2,), float('nan'), jnp.float64)", np.full(2, NAN), "float64"),
    ]
    for name, expr, values, dtype in filled:
        c.add(name, expr, {}, want=want(values, dtype))
    c.add("full_array_fill", "jnp.full((2, 3), a)", {"a": A([1, 2, 3], "int8")}, want=want([[1, 2, 3], [1, 2, 3]], "int8"))
    c.add("full_array_fill_dtype", "jnp.full((2, 2), a, dtype=jnp.float32)", {"a": A([[1], [2]], "int8")},
          want=want([[1, 1], [2, 2]], "float32"))
    c.add("full_0d_array_fill", "jnp.full((2,), a)", {"a": A(3, "uint8")}, want=want([3, 3], "uint8"))
    c.add("full_weak_fill_promotes", "jnp.full((2,), 3) + a", {"a": i8}, want=want([4, 1], "int8"))
    c.add("full_fill_overflow", "jnp.full((2,), 300, dtype=jnp.int8)", {}, error="full: Python int 300 too large to convert to int8")
    c.add("full_fill_does_not_broadcast", "jnp.full((2, 2), a)", {"a": A([1, 2, 3], "int32")}, error="full: cannot broadcast")
    c.add("full_list_fill", "jnp.full((2,), [1, 2])", {}, error="full requires ndarray or scalar arguments, got list")
    c.add("zeros_negative", "jnp.zeros((2, -1))", {}, error="zeros: negative dimensions are not allowed")
    c.add("zeros_forgot_tuple", "jnp.zeros(3, 4)", {}, error=r"zeros: cannot interpret 4 as a data type")
    c.add("zeros_float_shape", "jnp.zeros(2.5)", {}, error="zeros: shape must be an int or a sequence of ints")
    x = A([[1.5, 2.5, 3.5]], "float32")
    c.add("zeros_like", "jnp.zeros_like(a)", {"a": i8}, want=want([0, 0], "int8"))
    c.add("ones_like_dtype", "jnp.ones_like(a, dtype=jnp.float32)", {"a": i8}, want=want([1, 1], "float32"))
    c.add("ones_like_shape", "jnp.ones_like(a, shape=(2, 2))", {"a": x}, want=want(np.ones((2, 2)), "float32"))
    c.add("empty_like", "jnp.empty_like(a)", {"a": A([True], "bool")}, want=want([False], "bool"))
    c.add("full_like_truncates", "jnp.full_like(a, 2.7)", {"a": A([1, 2], "int32")}, want=want([2, 2], "int32"))
    c.add("full_like_dtype", "jnp.full_like(a, 2.7, dtype=jnp.float16)", {"a": A([1, 2], "int32")}, want=want([2.7, 2.7], "float16"))
    c.add("full_like_array_fill", "jnp.full_like(a, b)", {"a": x, "b": A([1, 2, 3], "int32")}, want=want([[1.0, 2.0, 3.0]], "float32"))
    c.add("zeros_like_py_scalar_is_weak", "jnp.zeros_like(2) + a", {"a": i8}, want=want([1, -2], "int8"))
    c.add("zeros_like_list", "jnp.zeros_like([1, 2])", {}, error="zeros_like requires ndarray or scalar arguments, got list")

    # arange: start + step * iota in the result dtype (float32 for 16-bit
    # floats), converted; the dtype is the arguments' promotion.
    def arange(start, stop=None, step=None, dtype=None, working=None):
        if stop is None:
            start, stop = 0, start
        if step is None:
            n = max(0, math.ceil(stop - start))
            step = 1
        else:
            n = max(0, math.ceil((stop - start) / step))
        w = working or dtype
        k = cast(np.arange(n), w)
        with np.errstate(all="ignore"):
            if is_float(w):
                v = cast(cast([start], w).astype(np.float64) + cast(cast([step], w).astype(np.float64) * k.astype(np.float64), w).astype(np.float64), w)
            else:
                v = (cast([start], w) + cast([step], w) * k).astype(w)
        return want(v, dtype)
    c.add("arange_stop", "jnp.arange(5)", {}, want=arange(5, dtype="int32"))
    c.add("arange_start_stop", "jnp.arange(2, 7)", {}, want=arange(2, 7, dtype="int32"))
    c.add("arange_negative_step", "jnp.arange(10, 0, -3)", {}, want=arange(10, 0, -3, dtype="int32"))
    c.add("arange_float_step", "jnp.arange(0, 1, 0.25)", {}, want=arange(0, 1, 0.25, dtype="float32"))
    c.add("arange_float_stop", "jnp.arange(5.0)", {}, want=arange(5.0, dtype="float32"))
    c.add("arange_fractional", "jnp.arange(0.5, 4)", {}, want=arange(0.5, 4, dtype="float32"))
    c.add("arange_tenths", "jnp.arange(1, 2, 0.1)", {}, want=arange(1, 2, 0.1, dtype="float32"))
    c.add("arange_empty", "jnp.arange(0, -3)", {}, want=arange(0, -3, dtype="int32"))
    c.add("arange_empty_step", "jnp.arange(5, 0, 1)", {}, want=arange(5, 0, 1, dtype="int32"))
    c.add("arange_dtype", "jnp.arange(3, dtype=jnp.float32)", {}, want=arange(3, dtype="float32"))
    c.add("arange_f16_step", "jnp.arange(0, 10, 3, dtype=jnp.float16)", {}, want=arange(0, 10, 3, dtype="float16", working="float32"))
    c.add("arange_f16", "jnp.arange(1, 4, dtype='float16')", {}, want=arange(1, 4, dtype="float16"))
    c.add("arange_int_dtype_float_args", "jnp.arange(0.5, 5.5, 1.5, dtype=jnp.int32)", {},
          want=want(np.array([0, 1, 2, 3]), "int32"))
    c.add("arange_0d_array", "jnp.arange(a)", {"a": A(4, "int8")}, want=arange(4, dtype="int8"))
    c.add("arange_0d_arrays_promote", "jnp.arange(a, 3.0)", {"a": A(1, "int64")}, want=want([1.0, 2.0], "float32"))
    c.add("arange_step_zero", "jnp.arange(0, 5, 0)", {}, error="arange: step must not be zero")
    c.add("arange_array", "jnp.arange(a)", {"a": A([1, 2], "int32")}, error="arange: arguments must be scalars; got stop=int32")
    c.add("arange_bool_dtype", "jnp.arange(3, dtype=jnp.bool_)", {}, error="arange.*bool")

    # linspace: start*(1-t) + stop*t with t = iota/div, stop appended.
    def linspace(start, stop, num, endpoint=True, dtype=None, axis=0):
        start, stop = np.broadcast_arrays(np.asarray(start, np.float64), np.asarray(stop, np.float64))
        comp = "float32" if dtype in (None, "int32") else dtype
        dt = dtype or "float32"
        div = num - 1 if endpoint else num
        if num == 0:
            shape = list(np.broadcast(start, stop).shape)
            shape.insert(axis, 0)
            return want(np.zeros(shape), dt)
        if num == 1:
            out = np.expand_dims(np.broadcast_to(start, np.broadcast(start, stop).shape), axis)
        else:
            t = np.arange(div) / div
            t = np.expand_dims(t, tuple(i for i in range(np.broadcast(start, stop).ndim + 1) if i != axis))
            s = np.expand_dims(start, axis)
            e = np.expand_dims(stop, axis)
            out = s * (1 - t) + e * t
            if endpoint:
                out = np.concatenate([out, np.expand_dims(np.broadcast_to(stop, np.broadcast(start, stop).shape), axis)], axis)
        out = cast(out, comp).astype(np.float64)
        if is_int(dt):
            out = np.floor(out)
        return want(out, dt)
    c.add("linspace", "jnp.linspace(0, 1, 5)", {}, want=linspace(0, 1, 5))
    c.add("linspace_default_num", "jnp.linspace(-1, 1)", {}, want=linspace(-1, 1, 50))
    c.add("linspace_no_endpoint", "jnp.linspace(0, 1, 4, endpoint=False)", {}, want=linspace(0, 1, 4, endpoint=False))
    c.add("linspace_int", "jnp.linspace(1, 10, 4, dtype=jnp.int32)", {}, want=linspace(1, 10, 4, dtype="int32"))
    c.add("linspace_descending", "jnp.linspace(5, -5, 3)", {}, want=linspace(5, -5, 3))
    c.add("linspace_f16", "jnp.linspace(0, 1, 3, dtype=jnp.float16)", {}, want=linspace(0, 1, 3, dtype="float16"))
    c.add("linspace_f64", "jnp.linspace(0, 1, 7, dtype=jnp.float64)", {}, want=linspace(0, 1, 7, dtype="float64"))
    c.add("linspace_one", "jnp.linspace(2, 3, 1)", {}, want=linspace(2, 3, 1))
    c.add("linspace_zero", "jnp.linspace(2, 3, 0)", {}, want=linspace(2, 3, 0))
    c.add("linspace_retstep", "jnp.linspace(0, 2, 5, retstep=True)", {},
          want=[linspace(0, 2, 5), want(0.5, "float32")])
    c.add("linspace_arrays", "jnp.linspace(a, b, 3)", {"a": A([0.0, 10.0], "float32"), "b": A([1.0, 20.0], "float32")},
          want=linspace([0.0, 10.0], [1.0, 20.0], 3))
    c.add("linspace_arrays_axis_last", "jnp.linspace(a, b, 3, axis=-1)", {"a": A([0.0, 10.0], "float32"), "b": P(1.0)},
          want=linspace([0.0, 10.0], 1.0, 3, axis=1))
    c.add("linspace_negative_num", "jnp.linspace(0, 1, -1)", {}, error="linspace: number of samples, -1, must be non-negative")

    c.add("eye", "jnp.eye(3)", {}, want=want(np.eye(3), "float32"))
    c.add("eye_rect_k", "jnp.eye(2, 3, k=1)", {}, want=want(np.eye(2, 3, k=1), "float32"))
    c.add("eye_negative_k_int", "jnp.eye(3, k=-1, dtype=jnp.int32)", {}, want=want(np.eye(3, k=-1), "int32"))
    c.add("eye_k_beyond", "jnp.eye(3, k=5)", {}, want=want(np.zeros((3, 3)), "float32"))
    c.add("eye_empty", "jnp.eye(0)", {}, want=want(np.zeros((0, 0)), "float32"))
    c.add("eye_array_k", "jnp.eye(3, M=4, k=a)", {"a": A(2, "int8")}, want=want(np.eye(3, 4, k=2), "float32"))
    c.add("eye_negative", "jnp.eye(-1)", {}, error="eye: negative dimensions are not allowed")
    c.add("eye_float_k", "jnp.eye(2, k=0.5)", {}, error="eye: k must be a scalar integer")
    c.add("identity", "jnp.identity(3, dtype=jnp.bool_)", {}, want=want(np.eye(3), "bool"))
    c.add("identity_default", "jnp.identity(2)", {}, want=want(np.eye(2), "float32"))
    c.add("tri", "jnp.tri(3)", {}, want=want(np.tri(3), "float32"))
    c.add("tri_rect_k", "jnp.tri(3, 4, k=1, dtype=jnp.int32)", {}, want=want(np.tri(3, 4, k=1), "int32"))
    c.add("tri_negative_k", "jnp.tri(2, k=-1)", {}, want=want(np.tri(2, k=-1), "float32"))
    c.add("tri_int64_k", "jnp.tri(2, 3, k=a)", {"a": A(1, "int64")}, want=want(np.tri(2, 3, k=1), "float32"))
    c.add("tri_float_k", "jnp.tri(2, k=1.5)", {}, error="tri: k must be an integer")

    xs, ys = A([1, 2, 3], "int32"), A([10.0, 20.0], "float32")
    gx, gy = np.meshgrid([1, 2, 3], [10.0, 20.0])
    c.add("meshgrid_xy", "jnp.meshgrid(x, y)", {"x": xs, "y": ys}, want=[want(gx, "int32"), want(gy, "float32")])
    gx, gy = np.meshgrid([1, 2, 3], [10.0, 20.0], indexing="ij")
    c.add("meshgrid_ij", "jnp.meshgrid(x, y, indexing='ij')", {"x": xs, "y": ys}, want=[want(gx, "int32"), want(gy, "float32")])
    gx, gy = np.meshgrid([1, 2, 3], [10.0, 20.0], sparse=True)
    c.add("meshgrid_sparse", "jnp.meshgrid(x, y, sparse=True)", {"x": xs, "y": ys}, want=[want(gx, "int32"), want(gy, "float32")])
    g = np.meshgrid([1, 2], [3], [4, 5, 6])
    c.add("meshgrid_3", "jnp.meshgrid(x, y, z)", {"x": A([1, 2], "int8"), "y": A([3], "int8"), "z": A([4, 5, 6], "int8")},
          want=[want(a, "int8") for a in g])
    c.add("meshgrid_one", "jnp.meshgrid(x)", {"x": xs}, want=[want([1, 2, 3], "int32")])
    c.add("meshgrid_2d", "jnp.meshgrid(a)", {"a": A([[1]], "int32")}, error="meshgrid: arguments must be 1-D")
    c.add("meshgrid_indexing", "jnp.meshgrid(x, indexing='yx')", {"x": xs}, error="meshgrid: valid values for indexing")
    c.add("meshgrid_list", "jnp.meshgrid([1, 2])", {}, error="meshgrid requires ndarray or scalar arguments, got list")
    c.add("indices", "jnp.indices((2, 3))", {}, want=want(np.indices((2, 3)), "int32"))
    c.add("indices_1d_dtype", "jnp.indices((3,), dtype=jnp.float32)", {}, want=want(np.indices((3,)), "float32"))
    c.add("indices_3d", "jnp.indices([2, 1, 2])", {}, want=want(np.indices((2, 1, 2)), "int32"))
    c.add("indices_sparse", "jnp.indices((2, 3), sparse=True)", {}, want=[want(a, "int32") for a in np.indices((2, 3), sparse=True)])
    c.add("indices_empty", "jnp.indices(())", {}, want=want(np.zeros((0,)), "int32"))
    c.add("indices_int", "jnp.indices(3)", {}, error="indices: dimensions must be a sequence of ints")


def dtype_cases(c):
    for a, b, out in [("int32", "uint32", "int64"), ("int8", "uint8", "int16"), ("float16", "bfloat16", "float32"),
                      ("bool", "int8", "int8"), ("int64", "float16", "float16"), ("uint8", "bool", "uint8"),
                      ("int32", "float32", "float32"), ("float64", "int8", "float64")]:
        c.add(f"promote_types_{a}_{b}", f"jnp.zeros((), jnp.promote_types(jnp.{a}, '{b}'))", {}, want=spec(np.zeros(()), out))
    c.add("promote_types_python", "jnp.zeros((), jnp.promote_types(int, float))", {}, want=spec(np.zeros(()), "float32"))
    for name, expr, args, out in [
        ("array_pyfloat", "jnp.result_type(a, 2.5)", {"a": A([1], "int32")}, "float32"),
        ("f16_pyfloat", "jnp.result_type(a, 1.0)", {"a": A([1], "float16")}, "float16"),
        ("pyints", "jnp.result_type(2, 3)", {}, "int32"),
        ("py_bool", "jnp.result_type(True, False)", {}, "bool"),
        ("dtypes", "jnp.result_type(jnp.uint8, 'int8', a)", {"a": A([1.0], "bfloat16")}, "bfloat16"),
    ]:
        c.add(f"result_type_{name}", f"jnp.zeros((), {expr})", args, want=spec(np.zeros(()), out))
    c.add("promote_types_bad", "jnp.promote_types(jnp.int32, 'int128')", {}, error="promote_types: unknown dtype \"int128\"")
    for dt, eps, mx, tiny, res, bits in [
        ("float32", 2.0 ** -23, 3.4028234663852886e38, 2.0 ** -126, 1e-6, 32),
        ("float16", 2.0 ** -10, 65504.0, 2.0 ** -14, 1e-3, 16),
        ("bfloat16", 2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126, 1e-2, 16),
        ("float64", 2.0 ** -52, 1.7976931348623157e308, 2.0 ** -1022, 1e-15, 64),
    ]:
        c.add(f"finfo_{dt}_eps", f"jnp.finfo(jnp.{dt}).eps", {}, want=spec(cast(eps, dt), dt))
        c.add(f"finfo_{dt}_max", f"jnp.finfo('{dt}').max", {}, want=spec(cast(mx, dt), dt))
        c.add(f"finfo_{dt}_min", f"jnp.finfo(jnp.{dt}).min", {}, want=spec(cast(-mx, dt), dt))
        c.add(f"finfo_{dt}_tiny", f"jnp.finfo(jnp.{dt}).tiny", {}, want=spec(cast(tiny, dt), dt))
        c.add(f"finfo_{dt}_resolution", f"jnp.finfo(jnp.{dt}).resolution", {}, want=spec(cast(res, dt), dt))
        c.add(f"finfo_{dt}_bits", f"jnp.finfo(jnp.{dt}).bits", {}, want=bits)
    c.add("finfo_of_array", "jnp.finfo(a).eps", {"a": A([1.0], "float16")}, want=spec(cast(2.0 ** -10, "float16"), "float16"))
    c.add("finfo_eps_is_strong", "jnp.finfo(jnp.float32).eps + a", {"a": A([1.0], "float16")},
          want=spec(cast([1.0 + 2.0 ** -23], "float32"), "float32"))
    c.add("finfo_int", "jnp.finfo(jnp.int32)", {}, error="finfo: data type int32 is not a floating type")
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"):
        info = np.iinfo(dt)
        c.add(f"iinfo_{dt}_min", f"jnp.iinfo(jnp.{dt}).min", {}, want=int(info.min))
        c.add(f"iinfo_{dt}_max", f"jnp.iinfo('{dt}').max", {}, want=int(info.max))
        c.add(f"iinfo_{dt}_bits", f"jnp.iinfo(jnp.{dt}).bits", {}, want=info.bits)
    c.add("iinfo_float", "jnp.iinfo(jnp.float32)", {}, error="iinfo: data type float32 is not an integer type")
    c.add("constant_pi", "jnp.pi", {}, want=math.pi)
    c.add("constant_e", "jnp.e", {}, want=math.e)
    c.add("constant_inf", "jnp.inf", {}, want="inf")
    c.add("constant_nan", "jnp.nan", {}, want="nan")
    c.add("constant_newaxis", "jnp.newaxis == None", {}, want=True)
