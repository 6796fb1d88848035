#!/usr/bin/python3
"""Golden cases for jnp's elementwise functions, nn and lax elementwise
functions (elementwise.json) and for array creation and dtype utilities
(creation.json), in the format golden_test.go documents.

Run with /usr/bin/python3 (NumPy 1.24) from this directory:

    /usr/bin/python3 gen_elementwise.py

The promotion rules and value helpers are in elementwise_rules.py, the
creation and dtype cases in elementwise_creation.py.

Result dtypes are JAX's, computed by the promotion rules (JAX's type
promotion lattice with 64-bit types enabled, weak Python scalars, and the
promote_args / promote_args_numeric / promote_args_inexact variants of
jax/_src/numpy/util.py); each function's table row names the rule it
follows. Values come from NumPy: operands are first converted to the dtype
JAX computes in (so int32_array * 2.5 multiplies float32 values), the
function is evaluated in float64 (or in the integer dtype itself, which
wraps as XLA does), and the result is rounded to the JAX dtype.

Where JAX's values are not NumPy's, the case computes JAX's definition and
says so: integer division by zero (lax.div gives -1, so x // 0 is -2 for
x != 0 and -1 for 0, and x % 0 is 0), integer shifts by out-of-range
amounts, and the jnp.isclose formula.
"""

import math
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ beside the golden files
from elementwise_creation import creation_cases, dtype_cases
from elementwise_rules import *  # noqa: F401,F403 (the rules and helpers the tables name)


# --- elementwise cases ------------------------------------------------------

def domain_cases(c, name, f, domain, rule=INEXACT, composite=False, ints=(0, 1, 2, -3, 10), expr=None):
    """One function over float32/float64/float16/bfloat16 arrays of domain,
    an int32 array, a bool array and a Python number."""
    expr = expr or f"jnp.{name}(a)"
    c.fn(f"{name}_f32", expr, rule, f, A(domain, "float32"))
    c.fn(f"{name}_f64", expr, rule, f, A(domain, "float64"))
    c.fn(f"{name}_f16", expr, rule, f, A(domain, "float16"), rtol=tol("float16", composite))
    c.fn(f"{name}_bf16", expr, rule, f, A(domain, "bfloat16"), rtol=tol("bfloat16", composite))
    c.fn(f"{name}_i32", expr, rule, f, A(list(ints), "int32"))
    c.fn(f"{name}_bool", expr, rule, f, A([True, False], "bool"))
    c.fn(f"{name}_py", expr, rule, f, P(2))
    c.fn(f"{name}_2d", expr, rule, f, A([[domain[2], domain[3]], [domain[4], domain[5]]], "float32"))


def unary_cases(c):
    inexact = [
        ("sqrt", np.sqrt, POSITIVE), ("cbrt", np.cbrt, FLOATS),
        ("exp", np.exp, FLOATS), ("exp2", np.exp2, FLOATS), ("expm1", np.expm1, FLOATS),
        ("log", np.log, POSITIVE), ("log1p", np.log1p, POSITIVE + [-0.5, -1.0]),
        ("sin", np.sin, FLOATS), ("cos", np.cos, FLOATS), ("tan", np.tan, FLOATS),
        ("arcsin", np.arcsin, UNIT), ("arccos", np.arccos, UNIT), ("arctan", np.arctan, FLOATS),
        ("sinh", np.sinh, FLOATS), ("cosh", np.cosh, FLOATS), ("tanh", np.tanh, FLOATS),
        ("arcsinh", np.arcsinh, FLOATS), ("arccosh", np.arccosh, [1.0, 1.5, 2.0, 10.0, 0.5, INF, NAN]),
        ("arctanh", np.arctanh, UNIT),
    ]
    for name, f, dom in inexact:
        domain_cases(c, name, f, dom)
    # Composite: each step rounds to the operand's dtype.
    for name, f, dom in [
        ("log2", np.log2, POSITIVE), ("log10", np.log10, POSITIVE),
        ("deg2rad", np.deg2rad, FLOATS), ("rad2deg", np.rad2deg, FLOATS),
        ("reciprocal", lambda x: 1 / x, FLOATS),
    ]:
        domain_cases(c, name, f, dom, composite=True)

    # Sign-preserving functions: these keep integer dtypes.
    for name, f, rule in [
        ("negative", np.negative, COMMON), ("positive", lambda x: x, COMMON),
        ("sign", np.sign, COMMON), ("abs", np.abs, ABS), ("absolute", np.absolute, ABS),
        ("square", np.square, NUMERIC),
    ]:
        expr = f"jnp.{name}(a)"
        c.fn(f"{name}_f32", expr, rule, f, A(FLOATS, "float32"))
        c.fn(f"{name}_f16", expr, rule, f, A(HALF, "float16"))
        c.fn(f"{name}_bf16", expr, rule, f, A(HALF, "bfloat16"))
        c.fn(f"{name}_f64", expr, rule, f, A(FLOATS, "float64"))
        c.fn(f"{name}_i32", expr, rule, f, A(INT32, "int32"))
        c.fn(f"{name}_i8", expr, rule, f, A(INT8, "int8"))
        c.fn(f"{name}_u8", expr, rule, f, A(UINT8, "uint8"))
        c.fn(f"{name}_py", expr, rule, f, P(-3))
        if name not in ("negative", "sign"):
            c.fn(f"{name}_bool", expr, rule, f, A(BOOLS, "bool"))
    c.add("negative_bool", "jnp.negative(a)", {"a": A(BOOLS, "bool")}, error="negative.*neg.*bool")
    c.add("sign_bool", "jnp.sign(a)", {"a": A(BOOLS, "bool")}, error="sign.*bool")
    c.fn("negative_operator", "-a", COMMON, np.negative, A([[1.5, -2.0], [0.0, INF]], "float32"))
    c.fn("positive_operator", "+a", COMMON, np.positive, A([1, -2], "int32"))

    # Rounding. Integers and bool pass through floor, ceil and trunc; rint
    # makes them float32; round keeps them.
    rounding = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, -7.7, 1e10, NAN, INF, -INF, -0.0]
    for name, f, rule in [("floor", np.floor, INTEGRAL_KEPT), ("ceil", np.ceil, INTEGRAL_KEPT),
                          ("trunc", np.trunc, INTEGRAL_KEPT), ("rint", np.rint, RINT)]:
        expr = f"jnp.{name}(a)"
        for dt in ("float32", "float16", "bfloat16", "float64"):
            c.fn(f"{name}_{dt}", expr, rule, f, A(rounding, dt))
        c.fn(f"{name}_i32", expr, rule, f, A(INT32, "int32"))
        c.fn(f"{name}_u8", expr, rule, f, A(UINT8, "uint8"))
        c.fn(f"{name}_bool", expr, rule, f, A(BOOLS, "bool"))
        c.fn(f"{name}_py", expr, rule, f, P(-2.5))
    for d in (0, 1, 2, -1):
        c.fn(f"round_f32_decimals{d}", f"jnp.round(a, decimals={d})", COMMON,
             lambda x, d=d: np.round(x.astype(np.float32), d), A([0.5, 1.5, 2.5, -0.5, 1.25, 12.345, -17.5, 155.0, NAN], "float32"))
    c.fn("round_f64_decimals3", "jnp.round(a, 3)", COMMON, lambda x: np.round(x, 3), A([1.0005, -2.00049, 3.14159], "float64"))
    c.fn("round_f16_decimals1", "jnp.round(a, decimals=1)", COMMON,
         lambda x: np.round(x.astype(np.float32), 1), A([0.25, 1.15, -2.75, 9.96], "float16"))
    c.fn("round_f16_beyond_precision", "jnp.round(a, decimals=5)", COMMON, lambda x: x, A([0.1, 1.33], "float16"))
    c.fn("round_i32", "jnp.round(a)", COMMON, lambda x: x, A(INT32, "int32"))
    c.fn("round_method", "a.round(1)", COMMON, lambda x: np.round(x.astype(np.float32), 1), A([0.25, 0.35], "float32"))
    c.add("round_i32_negative_decimals", "jnp.round(a, -1)", {"a": A([15], "int32")}, error="round.*decimals < 0")
    c.add("round_bool", "jnp.round(a)", {"a": A(BOOLS, "bool")}, error="round.*bool")

    # Classification: no promotion, bool results; integers are never nan.
    for name, f in [("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)]:
        expr = f"jnp.{name}(a)"
        for dt in ("float32", "float16", "bfloat16", "float64"):
            c.fn(f"{name}_{dt}", expr, CLASSIFY, f, A(FLOATS if dt != "float16" else HALF, dt))
        c.fn(f"{name}_i32", expr, CLASSIFY, f, A(INT32, "int32"))
        c.fn(f"{name}_bool", expr, CLASSIFY, f, A(BOOLS, "bool"))
        c.fn(f"{name}_py", expr, CLASSIFY, f, P(1.5))

    for dt, vals in [("float32", [0.0, -0.0, 2.5, NAN]), ("int32", [0, 3, -1]), ("bool", BOOLS), ("uint8", [0, 255])]:
        c.fn(f"logical_not_{dt}", "jnp.logical_not(a)", LOGICAL, lambda x: np.logical_not(x), A(vals, dt))
    for dt, vals in [("int32", INT32), ("int8", INT8), ("uint8", UINT8), ("bool", BOOLS)]:
        c.fn(f"invert_{dt}", "jnp.invert(a)", COMMON, np.invert, A(vals, dt))
        c.fn(f"invert_operator_{dt}", "~a", COMMON, np.invert, A(vals, dt))
    c.add("invert_float", "jnp.invert(a)", {"a": A([1.0], "float32")}, error="invert.*float32")

    # Signed zeros and exact results, compared bit for bit (rtol 0).
    exact = dict(rtol=0.0, atol=0.0)
    c.fn("negative_zero_sign", "jnp.negative(a)", COMMON, np.negative, A([0.0, -0.0], "float32"), **exact)
    c.fn("floor_negative_zero", "jnp.floor(a)", INTEGRAL_KEPT, np.floor, A([-0.0, 0.0, -0.5], "float32"), **exact)
    c.fn("ceil_negative_zero", "jnp.ceil(a)", INTEGRAL_KEPT, np.ceil, A([-0.5, -0.0, 0.5], "float32"), **exact)
    c.fn("trunc_negative_zero", "jnp.trunc(a)", INTEGRAL_KEPT, np.trunc, A([-0.5, -0.0, 0.7], "float32"), **exact)
    c.fn("rint_negative_zero", "jnp.rint(a)", RINT, np.rint, A([-0.5, -0.4, 0.5], "float32"), **exact)
    c.fn("round_negative_zero", "jnp.round(a)", COMMON, np.round, A([-0.5, -0.2, 0.5], "float32"), **exact)
    c.fn("abs_negative_zero", "jnp.abs(a)", ABS, np.abs, A([-0.0, -2.0], "float32"), **exact)
    c.fn("sqrt_negative_zero", "jnp.sqrt(a)", INEXACT, np.sqrt, A([-0.0, 4.0], "float32"), **exact)
    c.fn("copysign_zero", "jnp.copysign(a, b)", INEXACT, np.copysign, A([1.0, 2.0, 0.0, 3.0], "float32"),
         A([-0.0, 0.0, -1.0, NAN], "float32"), **exact)


# Operand pairs for binary functions: broadcasting, weak scalars, and
# promotions between dtypes.
FLOAT_PAIRS = [
    ("f32", A([[1.5, -2.0, 0.0], [NAN, INF, -INF]], "float32"), A([2.0, -0.5, 3.0], "float32")),
    ("f32_py", A([1.5, -2.0, 0.0, 7.0], "float32"), P(2.5)),
    ("py_f32", P(3), A([1.5, -2.0, 0.5, 7.0], "float32")),
    ("i32_pyfloat", A([1, -2, 7, 0], "int32"), P(2.5)),
    ("f16_py", A([1.5, -2.0, 0.5, 100.0], "float16"), P(0.1)),
    ("f16_f32", A([1.5, -2.0], "float16"), A([0.1, 3.0], "float32")),
    ("bf16", A([1.5, -2.0, 0.5], "bfloat16"), A([0.25, 3.0, -8.0], "bfloat16")),
    ("f64_f32_rank", A([1.5, 1e-300], "float64"), A([[0.1], [3.0]], "float32")),
    ("i64_f16", A([3, -5], "int64"), A([0.5, 2.0], "float16")),
    ("scalar_0d", A(2.5, "float32"), A([[1.0], [4.0]], "float32")),
]
INT_PAIRS = [
    ("i32", A([[7, -7, 0], [2147483647, -2147483648, 5]], "int32"), A([2, -3, 4], "int32")),
    ("i32_py", A([7, -7, 0, 100], "int32"), P(3)),
    ("py_i32", P(-9), A([7, -7, 2, 100], "int32")),
    ("i8_u8", A([100, -100, 7], "int8"), A([27, 200, 3], "uint8")),
    ("u32_i32", A([4000000000, 1, 5], "uint32"), A([-1, 3, 2], "int32")),
    ("u8", A([250, 3, 7], "uint8"), A([10, 5, 2], "uint8")),
    ("bool_i32", A([True, False], "bool"), A([3, 4], "int32")),
    ("i8_wrap", A([127, -128, 100], "int8"), A([1, -1, 100], "int8")),
]
BOOL_PAIR = ("bool", A([True, False, True, False], "bool"), A([True, True, False, False], "bool"))


def pair_cases(c, name, expr, rule, f, pairs, composite=False):
    """One case per operand pair; composite functions round at each step,
    so their 16-bit results get a wider tolerance."""
    for label, a, b in pairs:
        out = rule(a.type, b.type)[1][0]
        c.fn(f"{name}_{label}", expr, rule, f, a, b, rtol=tol(out, composite))


def binary_cases(c):
    arith = [("add", "a + b", np.add), ("subtract", "a - b", np.subtract), ("multiply", "a * b", np.multiply)]
    for name, op, f in arith:
        pair_cases(c, name, f"jnp.{name}(a, b)", COMMON, f, FLOAT_PAIRS + INT_PAIRS)
        pair_cases(c, name + "_operator", op, COMMON, f, FLOAT_PAIRS[:4] + INT_PAIRS[:3])
    c.fn("add_bool_is_or", "a + b", COMMON, np.logical_or, *BOOL_PAIR[1:])
    c.fn("multiply_bool_is_and", "jnp.multiply(a, b)", COMMON, np.logical_and, *BOOL_PAIR[1:])
    c.add("subtract_bool", "a - b", {"a": BOOL_PAIR[1], "b": BOOL_PAIR[2]}, error="subtract.*boolean subtract")
    c.add("add_int8_overflowing_scalar", "a + 300", {"a": A([1], "int8")}, error="300 too large to convert to int8")
    c.add("add_shapes", "jnp.add(a, b)", {"a": A([1.0, 2.0, 3.0], "float32"), "b": A([1.0, 2.0], "float32")},
          error=r"add: incompatible shapes for broadcasting: \(3,\) and \(2,\)")

    for name in ("divide", "true_divide"):
        pair_cases(c, name, f"jnp.{name}(a, b)", INEXACT, np.true_divide, FLOAT_PAIRS + INT_PAIRS + [BOOL_PAIR])
    pair_cases(c, "true_divide_operator", "a / b", INEXACT, np.true_divide, FLOAT_PAIRS[:4] + INT_PAIRS[:3])
    c.fn("true_divide_by_zero", "a / b", INEXACT, np.true_divide, A([1.0, -1.0, 0.0, NAN], "float32"), A([0.0, 0.0, 0.0, 0.0], "float32"))
    c.fn("true_divide_int_by_zero", "a / b", INEXACT, np.true_divide, A([1, -1, 0], "int32"), A([0, 0, 0], "int32"))

    # floor_divide and remainder: Python's sign rules; JAX's values for
    # integer division by zero (see jax_floor_divide, jax_remainder).
    float_div = [("f32", A([[7.0, -7.0, 7.5], [-0.5, INF, NAN]], "float32"), A([2.0, 2.0, -2.0], "float32")),
                 ("f32_zero", A([1.0, -1.0, 0.0, 5.0], "float32"), A([0.0, 0.0, 0.0, INF], "float32")),
                 ("f32_inf", A([INF, -3.0, 3.0], "float32"), A([1.0, INF, -INF], "float32"))]
    float_div += [p for p in FLOAT_PAIRS if p[0] in ("f32_py", "i32_pyfloat", "f16_py", "bf16", "f64_f32_rank")]
    int_div = INT_PAIRS + [("i32_by_zero", A([7, -7, 0, -2147483648], "int32"), A([0, 0, 0, -1], "int32")),
                           ("u8_by_zero", A([7, 0], "uint8"), A([0, 0], "uint8")),
                           ("i8_signs", A([[7], [-7]], "int8"), A([3, -3, 1, -1], "int8"))]
    pair_cases(c, "floor_divide", "jnp.floor_divide(a, b)", NUMERIC, np.floor_divide, float_div, composite=True)
    pair_cases(c, "floor_divide_int", "a // b", NUMERIC, lambda x, y: int_elementwise(jax_floor_divide, x, y), int_div)
    c.fn("floor_divide_bool", "jnp.floor_divide(a, b)", NUMERIC, lambda x, y: int_elementwise(jax_floor_divide, x, y),
         A([True, False], "bool"), A([True, True], "bool"))
    for name in ("remainder", "mod"):
        pair_cases(c, name, f"jnp.{name}(a, b)", NUMERIC, np.remainder, float_div, composite=True)
        pair_cases(c, name + "_int", f"jnp.{name}(a, b)", NUMERIC, lambda x, y: int_elementwise(jax_remainder, x, y), int_div)
    pair_cases(c, "remainder_operator", "a % b", NUMERIC, np.remainder, float_div[:2])
    c.fn("remainder_operator_int", "a % b", NUMERIC, lambda x, y: int_elementwise(jax_remainder, x, y), *INT_PAIRS[0][1:])

    # power: a static integer exponent is integer_pow in the base's dtype
    # (promote_dtypes_numeric of the base alone); otherwise the operands
    # promote, integers multiply by squaring and floats use lax.pow.
    def int_pow_rule(tx, ty):
        t = to_numeric(tx)
        return t, t
    base = A([[1.5, -2.0, 0.0], [NAN, INF, 3.0]], "float32")
    for n in (0, 1, 2, 3, -1, -2, 10):
        c.fn(f"power_f32_static_{n}".replace("-", "neg"), f"a ** {n}", lambda tx: int_pow_rule(tx, None),
             lambda x, n=n: np.power(x, float(n)), base)
    c.fn("power_i32_static", "a ** 3", lambda tx: int_pow_rule(tx, None), lambda x: int_elementwise(lambda d, v: v ** 3, x), A(INT32, "int32"))
    c.fn("power_i8_static_wrap", "jnp.power(a, 2)", lambda tx: int_pow_rule(tx, None), lambda x: int_elementwise(lambda d, v: v ** 2, x), A(INT8, "int8"))
    c.fn("power_bool_static", "a ** 2", lambda tx: int_pow_rule(tx, None), lambda x: x.astype(np.int32) ** 2, A(BOOLS, "bool"))
    c.fn("power_f16_static", "a ** 2", lambda tx: int_pow_rule(tx, None), lambda x: x ** 2, A([1.5, -3.0, 300.0], "float16"))
    c.add("power_i32_negative_static", "a ** -1", {"a": A([2], "int32")}, error="power.*integers cannot be raised to negative powers")
    # A 0-d integer array exponent is concrete: integer_pow in int8.
    c.add("power_0d_int_array_exponent", "a ** b", {"a": A([1, 2, -3], "int8"), "b": A(3, "int32")},
          want=spec(np.array([1, 8, -27], dtype=np.int8), "int8"))
    c.fn("power_py_int_base", "a ** b", NUMERIC, lambda x, y: int_elementwise(int_power, x, y), P(2), A([0, 1, 5, 30, 31, 40], "int32"))
    c.fn("power_int_arrays", "jnp.power(a, b)", NUMERIC, lambda x, y: int_elementwise(int_power, x, y),
         A([[3, -3, 0], [7, 1, -1]], "int32"), A([0, 3, 5], "int32"))
    c.fn("power_u8_wrap", "a ** b", NUMERIC, lambda x, y: int_elementwise(int_power, x, y), A([3, 2, 255], "uint8"), A([5, 8, 2], "uint8"))
    c.fn("power_float_arrays", "jnp.power(a, b)", NUMERIC, np.power,
         A([[-2.0, 0.0, 4.0], [-1.0, NAN, 2.0]], "float32"), A([3.0, -1.0, 0.5], "float32"))
    c.fn("power_float_special", "a ** b", NUMERIC, np.power,
         A([-1.0, 1.0, NAN, 0.0, -8.0, INF], "float32"), A([INF, NAN, 0.0, 0.0, 1.0 / 3, -2.0], "float32"))
    c.fn("power_i32_pyfloat", "a ** 2.5", lambda tx: NUMERIC(tx, ("float32", True)), lambda x: x ** 2.5, A([1, 4, 9], "int32"))
    c.fn("power_f16_i32_array", "a ** b", NUMERIC, np.power, A([1.5, 2.0, -3.0], "float16"), A([2, -1, 3], "int32"))
    c.fn("power_py_float_base", "a ** b", NUMERIC, np.power, P(2.0), A([0.5, -1.0, 10.0], "float32"))
    c.fn("power_bf16", "a ** b", NUMERIC, np.power, A([1.5, 4.0], "bfloat16"), A([2.0, 0.5], "bfloat16"), rtol=HALF_RTOL["bfloat16"])

    pair_cases(c, "arctan2", "jnp.arctan2(a, b)", INEXACT, np.arctan2, FLOAT_PAIRS + INT_PAIRS[:3])
    c.fn("arctan2_signed_zeros", "jnp.arctan2(a, b)", INEXACT, np.arctan2,
         A([0.0, -0.0, 0.0, -0.0, 1.0, INF, -INF], "float32"), A([-0.0, -0.0, 0.0, 0.0, 0.0, INF, -INF], "float32"))
    pair_cases(c, "hypot", "jnp.hypot(a, b)", INEXACT, np.hypot, FLOAT_PAIRS + INT_PAIRS[:3], composite=True)
    c.fn("hypot_special", "jnp.hypot(a, b)", INEXACT, np.hypot,
         A([INF, NAN, 0.0, 3e38, 1e-40, -INF], "float32"), A([NAN, INF, 0.0, 4e38, 1e-40, 1.0], "float32"))
    pair_cases(c, "copysign", "jnp.copysign(a, b)", INEXACT, np.copysign, FLOAT_PAIRS + INT_PAIRS[:3])

    for name, prim in [("maximum", np.maximum), ("minimum", np.minimum), ("fmax", np.fmax), ("fmin", np.fmin)]:
        pair_cases(c, name, f"jnp.{name}(a, b)", COMMON, prim, FLOAT_PAIRS + INT_PAIRS + [BOOL_PAIR])
        c.fn(f"{name}_nan", f"jnp.{name}(a, b)", COMMON, prim,
             A([NAN, 1.0, NAN, -INF], "float32"), A([1.0, NAN, NAN, 2.0], "float32"))

    for name, f in [("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]:
        pair_cases(c, name, f"jnp.{name}(a, b)", LOGICAL, f,
                   [BOOL_PAIR, ("f32", A([0.0, -0.0, NAN, 2.0], "float32"), A([1.0, 0.0, 0.0, 3.0], "float32")),
                    ("i32_py", A([0, 3, -1, 0], "int32"), P(0)), ("u8_bool", A([0, 2, 0, 9], "uint8"), A([True, False, False, True], "bool"))])

    bit_pairs = [p for p in INT_PAIRS if p[0] != "u32_i32"] + [BOOL_PAIR, ("u32_i32", INT_PAIRS[4][1], INT_PAIRS[4][2])]
    for name, op, f in [("bitwise_and", "&", np.bitwise_and), ("bitwise_or", "|", np.bitwise_or), ("bitwise_xor", "^", np.bitwise_xor)]:
        pair_cases(c, name, f"jnp.{name}(a, b)", COMMON, f, bit_pairs)
        c.fn(f"{name}_operator", f"a {op} b", COMMON, f, *INT_PAIRS[0][1:])
        c.add(f"{name}_float", f"jnp.{name}(a, b)", {"a": A([1.0], "float32"), "b": A([1.0], "float32")}, error=f"{name}.*float32")

    shift_amounts = A([0, 1, 31, 32, 40, -1], "int32")
    c.fn("left_shift_i32", "jnp.left_shift(a, b)", NUMERIC, lambda x, y: int_elementwise(shift_left, x, y),
         A([1, -3, 1, 1, 1, 1], "int32"), shift_amounts)
    c.fn("left_shift_operator", "a << b", NUMERIC, lambda x, y: int_elementwise(shift_left, x, y), A([1, 7, 255], "uint8"), A([1, 5, 8], "uint8"))
    c.fn("left_shift_py", "a << 3", NUMERIC, lambda x, y: int_elementwise(shift_left, x, y), A([1, -2], "int8"), P(3))
    c.fn("left_shift_bool", "jnp.left_shift(a, b)", NUMERIC, lambda x, y: int_elementwise(shift_left, x, y), A(BOOLS, "bool"), A(BOOLS, "bool"))
    c.fn("right_shift_i32", "jnp.right_shift(a, b)", NUMERIC, lambda x, y: int_elementwise(shift_right, x, y),
         A([-8, 8, -8, -8, 8, -1], "int32"), shift_amounts)
    c.fn("right_shift_u8_logical", "a >> b", NUMERIC, lambda x, y: int_elementwise(shift_right, x, y), A([128, 255, 255], "uint8"), A([7, 1, 8], "uint8"))
    c.fn("right_shift_i8_u8", "a >> b", NUMERIC, lambda x, y: int_elementwise(shift_right, x, y), A([-128, 64], "int8"), A([1, 3], "uint8"))
    c.add("left_shift_float", "jnp.left_shift(a, 1)", {"a": A([1.0], "float32")}, error="left_shift.*float32")

    cmp_pairs = FLOAT_PAIRS + INT_PAIRS + [BOOL_PAIR, ("i32_f32_py", A([1, 2, 3], "int32"), P(2.0))]
    for name, op, f in [("equal", "==", np.equal), ("not_equal", "!=", np.not_equal), ("less", "<", np.less),
                        ("less_equal", "<=", np.less_equal), ("greater", ">", np.greater), ("greater_equal", ">=", np.greater_equal)]:
        pair_cases(c, name, f"jnp.{name}(a, b)", COMPARE, f, cmp_pairs)
        pair_cases(c, name + "_operator", f"a {op} b", COMPARE, f, cmp_pairs[:3] + INT_PAIRS[:2])


def selection_cases(c):
    cond = A([[True, False, True], [False, False, True]], "bool")
    x, y = A([1.5, -2.0, 3.0], "float32"), A([[10.0], [20.0]], "float32")

    def WHERE(tc, tx, ty):
        t = result_type(tx, ty)
        return t, t
    where = lambda cnd, a, b: np.where(cnd != 0, a, b)
    c.add("where_broadcast", "jnp.where(c, x, y)", {"c": cond, "x": x, "y": y},
          want=spec(np.where(cond.values, x.values, y.values), "float32"))
    c.add("where_int_condition", "jnp.where(c, x, 0)", {"c": A([0, 2, -1], "int32"), "x": A([1, 2, 3], "int32")},
          want=spec(np.array([0, 2, 3], np.int32), "int32"))
    c.add("where_float_condition_nan", "jnp.where(c, 1, 2)", {"c": A([0.0, NAN, -0.0, 0.5], "float32")},
          want=spec(np.array([2, 1, 2, 1], np.int32), "int32"))
    c.add("where_0d_condition", "jnp.where(c, x, y)", {"c": A(False, "bool"), "x": x, "y": y},
          want=spec(np.where(False, x.values, y.values), "float32"))
    c.add("where_promotes_i32_pyfloat", "jnp.where(c, x, 0.5)", {"c": A([True, False], "bool"), "x": A([3, 4], "int32")},
          want=spec(np.array([3.0, 0.5], np.float32), "float32"))
    c.add("where_f16_f32", "jnp.where(c, x, y)", {"c": A([True, False], "bool"), "x": A([1.5, 2.5], "float16"), "y": A([0.1, 0.2], "float32")},
          want=spec(np.array([1.5, 0.2], np.float32), "float32"))
    c.add("where_i8_u8", "jnp.where(c, x, y)", {"c": A([True, False], "bool"), "x": A([-1, 2], "int8"), "y": A([200, 3], "uint8")},
          want=spec(np.array([-1, 3], np.int16), "int16"))
    c.add("where_empty", "jnp.where(c, x, y)", {"c": A(np.zeros((0, 2), bool), "bool"), "x": A(np.zeros((0, 2)), "float32"), "y": P(1.0)},
          want=spec(np.zeros((0, 2), np.float32), "float32"))
    c.add("where_one_argument", "jnp.where(c)", {"c": cond}, error="where: the one-argument form")
    c.add("where_shapes", "jnp.where(c, x, y)", {"c": A([True, False], "bool"), "x": x, "y": y},
          error="where.*incompatible shapes")
    c.add("where_list", "jnp.where([True], 1, 2)", {}, error="where requires ndarray or scalar arguments, got list at position 0")

    vals = A([[-3.0, 0.5, NAN], [2.0, INF, -INF]], "float32")
    c.add("clip_both", "jnp.clip(a, -1, 1.5)", {"a": vals}, want=spec(np.clip(vals.values, -1, 1.5), "float32"))
    c.add("clip_min_only", "jnp.clip(a, 0)", {"a": vals}, want=spec(np.maximum(vals.values, 0), "float32"))
    c.add("clip_max_keyword", "jnp.clip(a, max=0.0)", {"a": vals}, want=spec(np.minimum(vals.values, 0), "float32"))
    c.add("clip_array_bounds", "jnp.clip(a, lo, hi)", {"a": vals, "lo": A([0.0, 1.0, 2.0], "float32"), "hi": A([[1.0], [3.0]], "float32")},
          want=spec(np.minimum(np.maximum(vals.values, [0.0, 1.0, 2.0]), [[1.0], [3.0]]), "float32"))
    c.add("clip_int_float_bound", "jnp.clip(a, 0.5, None)", {"a": A([-2, 0, 3], "int32")},
          want=spec(np.array([0.5, 0.5, 3.0], np.float32), "float32"))
    c.add("clip_int", "jnp.clip(a, -5, 5)", {"a": A([-100, 3, 100], "int8")}, want=spec(np.array([-5, 3, 5], np.int8), "int8"))
    c.add("clip_min_above_max", "jnp.clip(a, 3, 1)", {"a": A([0, 2, 5], "int32")}, want=spec(np.array([1, 1, 1], np.int32), "int32"))
    c.add("clip_method", "a.clip(0, 1)", {"a": A([-1.0, 0.5, 2.0], "float32")}, want=spec(np.array([0.0, 0.5, 1.0], np.float32), "float32"))
    c.add("clip_none", "jnp.clip(a)", {"a": A([1, 2], "int32")}, want=spec(np.array([1, 2], np.int32), "int32"))

    # isclose: JAX's formula in the operands' floating type: a == b, or b
    # finite and |a - b| <= atol + rtol*|b|.
    def isclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
        with np.errstate(all="ignore"):
            close = (a == b) | (np.isfinite(b) & (np.abs(a - b) <= atol + rtol * np.abs(b)))
            if equal_nan:
                close |= np.isnan(a) & np.isnan(b)
        return close
    a = A([[1.0, 1.0, NAN, INF, -INF, 1e10], [0.0, 1e-9, NAN, INF, 1.0, 1e10]], "float32")
    b = A([[1.000001, 1.1, NAN, INF, INF, 1.00001e10], [1e-9, 0.0, 1.0, 1.0, INF, 1.0002e10]], "float32")
    c.add("isclose", "jnp.isclose(a, b)", {"a": a, "b": b}, want=spec(isclose(a.values, b.values), "bool"))
    c.add("isclose_equal_nan", "jnp.isclose(a, b, equal_nan=True)", {"a": a, "b": b},
          want=spec(isclose(a.values, b.values, equal_nan=True), "bool"))
    c.add("isclose_tolerances", "jnp.isclose(a, b, rtol=0.2, atol=0.5)", {"a": a, "b": b},
          want=spec(isclose(a.values, b.values, 0.2, 0.5), "bool"))
    c.add("isclose_int_broadcast", "jnp.isclose(a, b)", {"a": A([[1], [3]], "int32"), "b": A([1, 2, 3], "int32")},
          want=spec(np.array([[1], [3]]) == np.array([1, 2, 3]), "bool"))
    c.add("isclose_py", "jnp.isclose(a, 1)", {"a": A([1.0, 1.00000001, 2.0], "float64")},
          want=spec(isclose(np.array([1.0, 1.00000001, 2.0]), 1.0), "bool"))
    c.add("allclose_true", "jnp.allclose(a, b)", {"a": A([1.0, 2.0], "float32"), "b": A([1.000001, 2.0], "float32")},
          want=spec(np.array(True), "bool"))
    c.add("allclose_false", "jnp.allclose(a, b)", {"a": a, "b": b}, want=spec(np.array(False), "bool"))
    c.add("allclose_nan", "jnp.allclose(a, a, equal_nan=True)", {"a": A([NAN, 1.0], "float32")}, want=spec(np.array(True), "bool"))
    c.add("allclose_empty", "jnp.allclose(a, a)", {"a": A(np.zeros((0,)), "float32")}, want=spec(np.array(True), "bool"))
    c.add("array_equal_true", "jnp.array_equal(a, b)", {"a": A([[1, 2]], "int32"), "b": A([[1.0, 2.0]], "float32")},
          want=spec(np.array(True), "bool"))
    c.add("array_equal_shapes", "jnp.array_equal(a, b)", {"a": A([1, 2], "int32"), "b": A([[1, 2]], "int32")},
          want=spec(np.array(False), "bool"))
    c.add("array_equal_nan", "jnp.array_equal(a, a)", {"a": A([NAN, 1.0], "float32")}, want=spec(np.array(False), "bool"))
    c.add("array_equal_equal_nan", "jnp.array_equal(a, a, equal_nan=True)", {"a": A([NAN, 1.0], "float32")},
          want=spec(np.array(True), "bool"))
    c.add("array_equal_lists", "jnp.array_equal([1, 2, 3], a)", {"a": A([1, 2, 3], "int8")}, want=spec(np.array(True), "bool"))
    c.add("array_equal_differ", "jnp.array_equal(a, b)", {"a": A([1, 2, 3], "int32"), "b": A([1, 2, 4], "int32")},
          want=spec(np.array(False), "bool"))

    special = A([NAN, INF, -INF, 1.5, -0.0], "float32")
    c.add("nan_to_num", "jnp.nan_to_num(a)", {"a": special}, want=spec(np.nan_to_num(special.values), "float32"))
    c.add("nan_to_num_values", "jnp.nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0)", {"a": special},
          want=spec(np.nan_to_num(special.values, nan=-1.0, posinf=9.0, neginf=-9.0), "float32"))
    c.add("nan_to_num_f16", "jnp.nan_to_num(a)", {"a": A([NAN, INF, -INF, 2.0], "float16")},
          want=spec(np.nan_to_num(np.array([NAN, INF, -INF, 2.0], np.float16)), "float16"))
    c.add("nan_to_num_bf16", "jnp.nan_to_num(a, nan=2)", {"a": A([NAN, INF, -INF], "bfloat16")},
          want=spec(np.array([2.0, 3.3895313892515355e38, -3.3895313892515355e38]), "bfloat16"))
    c.add("nan_to_num_int", "jnp.nan_to_num(a)", {"a": A([1, -2], "int32")}, want=spec(np.array([1, -2], np.int32), "int32"))


def nn_cases(c):
    x = A([[-2.0, -0.5, 0.0, 0.5, 3.0], [10.0, -10.0, 1.0, 2.0, NAN]], "float32")
    sig = lambda v: 1 / (1 + np.exp(-v))
    same = lambda t: (t, t)
    c.fn("relu_f32", "nn.relu(a)", lambda t: COMMON(t, ("int32", True)), lambda v: np.maximum(v, 0), x)
    c.fn("relu_i32", "nn.relu(a)", lambda t: COMMON(t, ("int32", True)), lambda v: np.maximum(v, 0), A([-3, 0, 4], "int32"))
    c.fn("relu_f16", "nn.relu(a)", lambda t: COMMON(t, ("int32", True)), lambda v: np.maximum(v, 0), A([-3.0, 0.5], "float16"))
    c.fn("sigmoid_f32", "nn.sigmoid(a)", same, sig, x, rtol=1e-5)
    c.fn("sigmoid_f16", "nn.sigmoid(a)", same, sig, A([-3.0, 0.0, 2.0, 20.0], "float16"), rtol=HALF_RTOL["float16"])
    c.fn("sigmoid_f64", "nn.sigmoid(a)", same, sig, A([-30.0, 0.5, 700.0], "float64"))
    c.add("sigmoid_int", "nn.sigmoid(a)", {"a": A([1], "int32")}, error="sigmoid.*logistic.*int32")
    c.fn("silu_f32", "nn.silu(a)", same, lambda v: v * sig(v), x, rtol=1e-5)
    gelu_tanh = lambda v: 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v ** 3)))
    gelu_exact = lambda v: 0.5 * v * np.vectorize(math.erfc)(-v / np.sqrt(2))
    c.fn("gelu_f32", "nn.gelu(a)", INEXACT, gelu_tanh, x, rtol=1e-5, atol=1e-6)
    c.fn("gelu_exact_f32", "nn.gelu(a, approximate=False)", INEXACT, gelu_exact, x, rtol=1e-5, atol=1e-6)
    c.fn("gelu_i32", "nn.gelu(a)", INEXACT, gelu_tanh, A([-1, 0, 2], "int32"), rtol=1e-5, atol=1e-6)
    c.fn("gelu_f16", "nn.gelu(a)", INEXACT, gelu_tanh, A([-1.5, 0.0, 2.0], "float16"), rtol=5e-3, atol=1e-3)

    def softmax(v, axis=-1, where=None):
        v = np.array(v, np.float64)
        if where is not None:
            v = np.where(where, v, -np.inf)
        e = np.exp(v - v.max(axis=axis, keepdims=True))
        out = e / e.sum(axis=axis, keepdims=True)
        return out if where is None else np.where(where, out, 0)

    def log_softmax(v, axis=-1, where=None):
        v = np.array(v, np.float64)
        if where is not None:
            v = np.where(where, v, -np.inf)
        s = v - v.max(axis=axis, keepdims=True)
        out = s - np.log(np.exp(s).sum(axis=axis, keepdims=True))
        return out if where is None else np.where(where, out, -np.inf)
    m = A([[1.0, 2.0, 3.0], [-1.0, 0.0, 1000.0]], "float32")
    mask = A([[True, False, True], [True, True, False]], "bool")
    for name, f in [("softmax", softmax), ("log_softmax", log_softmax)]:
        c.fn(f"{name}_last_axis", f"nn.{name}(a)", INEXACT, f, m, rtol=1e-5, atol=1e-7)
        c.fn(f"{name}_axis0", f"nn.{name}(a, axis=0)", INEXACT, lambda v, f=f: f(v, axis=0), m, rtol=1e-5, atol=1e-7)
        c.fn(f"{name}_all_axes", f"nn.{name}(a, axis=(0, 1))", INEXACT, lambda v, f=f: f(v, axis=(0, 1)), m, rtol=1e-5, atol=1e-7)
        c.add(f"{name}_where", f"nn.{name}(a, where=w)", {"a": m, "w": mask},
              want=spec(cast(f(m.values, where=mask.values), "float32"), "float32"), rtol=1e-5, atol=1e-7)
        c.fn(f"{name}_f16", f"nn.{name}(a)", INEXACT, f, A([[1.0, 2.0, 3.0]], "float16"), rtol=4e-3, atol=1e-4)
        c.add(f"{name}_bad_axis", f"nn.{name}(a, axis=2)", {"a": m}, error=f"{name}: axis 2 is out of bounds for array of dimension 2")

    def logsumexp(v, axis=None, b=None, keepdims=False, where=None):
        v = np.array(v, np.float64)
        w = np.ones_like(v) if b is None else np.asarray(b, np.float64)
        if where is not None:
            v = np.where(where, v, 0)
        live = (w != 0) if where is None else (w != 0) & where
        mx = np.max(np.where(live, v, -np.inf), axis=axis, keepdims=True)
        mx = np.where(np.isfinite(mx), mx, 0)
        s = np.sum(np.where(live, w * np.exp(v - mx), 0), axis=axis, keepdims=True)
        out = np.log(np.abs(s)) + mx
        if b is not None:
            out = np.where(s < 0, np.nan, out)
        return out if keepdims else np.squeeze(out, axis=axis)
    c.fn("logsumexp_all", "nn.logsumexp(a)", INEXACT, logsumexp, m, rtol=1e-6)
    c.fn("logsumexp_axis1", "nn.logsumexp(a, axis=1)", INEXACT, lambda v: logsumexp(v, axis=1), m, rtol=1e-6)
    c.fn("logsumexp_keepdims", "nn.logsumexp(a, axis=0, keepdims=True)", INEXACT, lambda v: logsumexp(v, axis=0, keepdims=True), m, rtol=1e-6)
    c.fn("logsumexp_int", "nn.logsumexp(a, axis=-1)", INEXACT, lambda v: logsumexp(v, axis=-1), A([[1, 2], [3, 4]], "int32"), rtol=1e-6)
    c.fn("logsumexp_infinite", "nn.logsumexp(a, axis=1)", INEXACT, lambda v: logsumexp(v, axis=1),
         A([[-INF, -INF], [INF, 1.0], [NAN, 1.0]], "float32"))
    bw = A([[1.0, -1.0, 0.5], [2.0, 0.0, -1.0]], "float32")
    c.fn("logsumexp_b", "nn.logsumexp(a, axis=1, b=b)", lambda ta, tb: INEXACT(ta, tb), lambda v, w: logsumexp(v, axis=1, b=w),
         A([[1.0, 0.5, 2.0], [0.0, 3.0, 1.0]], "float32"), bw, rtol=1e-5)
    sgn = np.sign(np.sum(bw.values * np.exp([[1.0, 0.5, 2.0], [0.0, 3.0, 1.0]]), axis=1))
    c.add("logsumexp_return_sign", "nn.logsumexp(a, axis=1, b=b, return_sign=True)",
          {"a": A([[1.0, 0.5, 2.0], [0.0, 3.0, 1.0]], "float32"), "b": bw},
          want=[spec(cast(np.log(np.abs(np.sum(bw.values * np.exp([[1.0, 0.5, 2.0], [0.0, 3.0, 1.0]]), axis=1))), "float32"), "float32"),
                spec(sgn.astype(np.float32), "float32")], rtol=1e-5)
    c.add("logsumexp_where", "nn.logsumexp(a, axis=1, where=w)", {"a": m, "w": mask},
          want=spec(cast(logsumexp(m.values, axis=1, where=mask.values), "float32"), "float32"), rtol=1e-6)

    labels = A([0, 2, 1, 5, -1], "int32")
    one_hot = lambda v, n=3: (np.asarray(v)[..., None] == np.arange(n)).astype(np.float32)
    c.add("one_hot", "nn.one_hot(a, 3)", {"a": labels}, want=spec(one_hot(labels.values), "float32"))
    c.add("one_hot_axis0_int", "nn.one_hot(a, 3, axis=0, dtype=jnp.int32)", {"a": labels},
          want=spec(one_hot(labels.values).T.astype(np.int32), "int32"))
    c.add("one_hot_2d", "nn.one_hot(a, 2)", {"a": A([[0, 1], [1, 1]], "int8")}, want=spec(one_hot([[0, 1], [1, 1]], 2), "float32"))
    c.add("one_hot_list", "nn.one_hot([1, 0], 2, dtype=jnp.bool_)", {}, want=spec(one_hot([1, 0], 2).astype(bool), "bool"))
    c.add("one_hot_bad_axis", "nn.one_hot(a, 3, axis=3)", {"a": labels}, error="one_hot: axis 3 is out of bounds")


def lax_cases(c):
    f = A([[1.5, -2.5, 0.5], [NAN, INF, -0.0]], "float32")
    g = A([[2.0, 0.5, -1.0], [1.0, 2.0, 3.0]], "float32")
    same2 = lambda ta, tb: (ta, ta)  # lax requires one dtype
    for name, fn in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
                     ("rem", np.fmod), ("max", np.maximum), ("min", np.minimum)]:
        c.fn(f"lax_{name}_f32", f"lax.{name}(a, b)", same2, fn, f, g)
    c.fn("lax_add_py_adopts_dtype", "lax.add(a, 2)", lambda t: (t, t), lambda v: v + 2, A([1.5, 2.5], "float16"))
    c.fn("lax_mul_scalar_broadcast", "lax.mul(a, b)", same2, np.multiply, A([1, 2, 3], "int32"), A(4, "int32"))
    c.fn("lax_div_int", "lax.div(a, b)", same2, lambda x, y: int_elementwise(lax_div, x, y),
         A([7, -7, 7, 5, -2147483648], "int32"), A([2, 2, -2, 0, -1], "int32"))
    c.fn("lax_rem_int", "lax.rem(a, b)", same2, lambda x, y: int_elementwise(lax_rem, x, y),
         A([7, -7, 7, 5], "int32"), A([2, 2, -2, 0], "int32"))
    c.add("lax_add_dtypes", "lax.add(a, b)", {"a": A([1.0], "float32"), "b": A([1], "int32")},
          error=r"lax.add requires arguments to have the same dtypes, got float32, int32 \(Tip: jnp.add")
    c.add("lax_add_float_scalar_int_array", "lax.add(a, 1.5)", {"a": A([1], "int32")},
          error="lax.add requires arguments to have the same dtypes, got int32, float32")
    c.add("lax_add_ranks", "lax.add(a, b)", {"a": A([1.0, 2.0], "float32"), "b": A([[1.0, 2.0]], "float32")},
          error="lax.add.*same number of dimensions")
    c.fn("lax_pow_int_exponent", "lax.pow(a, 3)", lambda t: (t, t), lambda v: v ** 3, A([1.5, -2.0], "float32"))
    c.fn("lax_pow_arrays", "lax.pow(a, b)", same2, np.power, A([4.0, 2.0], "float64"), A([0.5, -1.0], "float64"))
    c.add("lax_pow_int_base", "lax.pow(a, 2)", {"a": A([2], "int32")}, error="lax.pow.*floating")
    for name, fn, dom in [("neg", np.negative, FLOATS), ("abs", np.abs, FLOATS), ("sign", np.sign, FLOATS),
                          ("floor", np.floor, FLOATS), ("ceil", np.ceil, FLOATS), ("exp", np.exp, FLOATS),
                          ("log", np.log, POSITIVE), ("sin", np.sin, FLOATS), ("cos", np.cos, FLOATS),
                          ("tanh", np.tanh, FLOATS), ("sqrt", np.sqrt, POSITIVE),
                          ("rsqrt", lambda v: 1 / np.sqrt(v), POSITIVE),
                          ("erf", np.vectorize(lambda v: math.erf(v)), FLOATS)]:
        c.fn(f"lax_{name}_f32", f"lax.{name}(a)", lambda t: (t, t), fn, A(dom, "float32"))
        c.fn(f"lax_{name}_f16", f"lax.{name}(a)", lambda t: (t, t), fn, A(dom, "float16"))
    c.fn("lax_neg_int", "lax.neg(a)", lambda t: (t, t), np.negative, A(INT32, "int32"))
    c.add("lax_exp_int", "lax.exp(a)", {"a": A([1], "int32")}, error="lax.exp.*int32")
    c.add("lax_exp_py_int", "lax.exp(1)", {}, error="lax.exp.*int32")
    c.fn("lax_round_away", "lax.round(a)", lambda t: (t, t), lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
         A([0.5, 1.5, 2.5, -0.5, -2.5, 0.49], "float32"))
    c.fn("lax_round_even", "lax.round(a, lax.RoundingMethod.TO_NEAREST_EVEN)", lambda t: (t, t), np.rint,
         A([0.5, 1.5, 2.5, -0.5, -2.5, 0.49], "float32"))
    pred = A([[True, False, True], [False, True, False]], "bool")
    c.add("lax_select", "lax.select(p, a, b)", {"p": pred, "a": f, "b": g},
          want=spec(np.where(pred.values, f.values, g.values), "float32"))
    c.add("lax_select_scalar_pred", "lax.select(True, a, b)", {"a": f, "b": g}, want=spec(f.values, "float32"))
    c.add("lax_select_py_case", "lax.select(p, a, 0)", {"p": A([True, False], "bool"), "a": A(1.5, "float32")},
          error="lax.select.*shape")
    c.add("lax_select_dtypes", "lax.select(p, a, b)", {"p": pred, "a": f, "b": A(np.zeros((2, 3)), "int32")},
          error="lax.select requires arguments to have the same dtypes, got float32, int32")
    c.add("lax_convert_f32_i32", "lax.convert_element_type(a, jnp.int32)", {"a": A([1.7, -1.7, 0.5], "float32")},
          want=spec(np.array([1, -1, 0], np.int32), "int32"))
    c.add("lax_convert_py", "lax.convert_element_type(2.5, jnp.int32)", {}, want=spec(np.array(2, np.int32), "int32"))
    c.add("lax_convert_py_int_wraps", "lax.convert_element_type(300, jnp.int8)", {}, want=spec(np.array(44, np.int8), "int8"))
    c.add("lax_convert_bool", "lax.convert_element_type(a, 'float16')", {"a": A(BOOLS, "bool")},
          want=spec(np.array([1.0, 0.0, 1.0]), "float16"))
    c.add("lax_convert_to_bool", "lax.convert_element_type(a, jnp.bool_)", {"a": A([0.0, -0.0, 2.0, NAN], "float32")},
          want=spec(np.array([False, False, True, True]), "bool"))
    c.add("lax_iota", "lax.iota(jnp.float32, 4)", {}, want=spec(np.arange(4, dtype=np.float32), "float32"))
    c.add("lax_iota_int8", "lax.iota('int8', 3)", {}, want=spec(np.arange(3, dtype=np.int8), "int8"))
    c.add("lax_broadcast_in_dim", "lax.broadcast_in_dim(a, (2, 3, 2), (1,))", {"a": A([1, 2, 3], "int32")},
          want=spec(np.broadcast_to(np.array([1, 2, 3], np.int32)[None, :, None], (2, 3, 2)), "int32"))
    c.add("lax_broadcast_in_dim_bad", "lax.broadcast_in_dim(a, (2, 4), (1,))", {"a": A([1, 2, 3], "int32")},
          error="lax.broadcast_in_dim.*neither 1 nor")
    c.add("lax_reduce_precision_bf16", "lax.reduce_precision(a, 8, 7)", {"a": A([1.0 + 2 ** -9, 3.14159, 1e30, NAN], "float32")},
          want=spec(to_bf16([1.0 + 2 ** -9, 3.14159, 1e30, NAN]), "float32"), rtol=0.0, atol=0.0)
    c.add("lax_reduce_precision_f16", "lax.reduce_precision(a, exponent_bits=5, mantissa_bits=10)",
          {"a": A([0.1, 70000.0, 1e-8, -2.5], "float32")},
          want=spec(cast(cast([0.1, 70000.0, 1e-8, -2.5], "float16"), "float32"), "float32"),
          rtol=0.0, atol=0.0)
    c.add("lax_stop_gradient", "lax.stop_gradient(a)", {"a": f}, want=spec(f.values, "float32"))
    c.add("lax_stop_gradient_tree", "lax.stop_gradient((a, [a]))[1]", {"a": A([1, 2], "int32")},
          want=[spec(np.array([1, 2], np.int32), "int32")])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    elementwise = Cases()
    unary_cases(elementwise)
    binary_cases(elementwise)
    selection_cases(elementwise)
    nn_cases(elementwise)
    lax_cases(elementwise)
    elementwise.write(os.path.join(here, "elementwise.json"))
    creation = Cases()
    creation_cases(creation)
    dtype_cases(creation)
    creation.write(os.path.join(here, "creation.json"))
    print(f"elementwise.json: {len(elementwise.cases)} cases; creation.json: {len(creation.cases)} cases")


if __name__ == "__main__":
    main()
