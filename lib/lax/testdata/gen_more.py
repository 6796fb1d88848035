# Writes more_cases.json: lax's reductions, comparisons, constructors,
# products and transposed convolutions (reductions.go, more.star and the
# end of composed.star) with the values NumPy gives. Run once with python3
# (NumPy); the tests never need Python.
#   /usr/bin/python3 gen_more.py
# Each case: [jaxsh expression, value, flags] as lib/numpy's gen_composed.py.
import json, math
import numpy as np

M = "jnp.array([[1.5, -2.0, 0.25, 7.0], [3.0, 0.5, -1.0, 0.5], [0.0, 2.0, 2.0, -3.0]])"
m = np.array([[1.5, -2.0, 0.25, 7.0], [3.0, 0.5, -1.0, 0.5], [0.0, 2.0, 2.0, -3.0]])
I = "jnp.array([[4, 1, 4, 2, 4], [0, 7, 7, 1, 3]])"
i = np.array([[4, 1, 4, 2, 4], [0, 7, 7, 1, 3]])
T = "jnp.arange(24.0).reshape(2, 3, 4) / 7.0"
t = np.arange(24.0).reshape(2, 3, 4) / 7.0

def clz(v, bits):
    v = int(v) & ((1 << bits) - 1)
    return bits - v.bit_length()

def dilate_pad_correlate(x, w, s, pads):
    # The input dilated by the stride, padded, then cross-correlated with the
    # kernel (NWC, WIO): a transposed convolution without flipping.
    n, width, cin = x.shape
    k, _, cout = w.shape
    dil = np.zeros((n, (width - 1) * s + 1, cin))
    dil[:, ::s] = x
    lo, hi = pads
    if lo >= 0 and hi >= 0:
        dil = np.pad(dil, ((0, 0), (lo, hi), (0, 0)))
    out_w = dil.shape[1] - k + 1
    out = np.zeros((n, out_w, cout))
    for p in range(out_w):
        out[:, p] = np.einsum("nkc,kco->no", dil[:, p:p + k], w)
    return out

def transpose_pads(k, s, padding):
    # JAX's padding of the stride-dilated input for a transposed convolution.
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else int(math.ceil(pad_len / 2))
    else:
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    return (pad_a, pad_len - pad_a)

cases = [
    # reductions.go
    ("lax.reduce_sum(%s, (0,))" % M, m.sum(0)),
    ("lax.reduce_sum(%s, [1, 0])" % M, m.sum()),
    ("lax.reduce_prod(%s, (1,))" % M, m.prod(1)),
    ("lax.reduce_max(%s, (1,))" % M, m.max(1)),
    ("lax.reduce_min(%s, (0, 1))" % M, m.min()),
    ("lax.reduce_and(%s > 0, (1,))" % I, (i > 0).all(1)),
    ("lax.reduce_or(%s > 5, (1,))" % I, (i > 5).any(1)),
    ("lax.reduce_and(%s, (1,))" % I, np.bitwise_and.reduce(i, 1)),
    ("lax.reduce_or(%s, (0,))" % I, np.bitwise_or.reduce(i, 0)),
    ("lax.argmax(%s, 1, jnp.int32)" % M, m.argmax(1)),
    ("lax.argmin(%s, 0, jnp.int32)" % M, m.argmin(0)),
    ("lax.argmax(%s, -1, jnp.int16)" % I, i.argmax(-1)),
    ("lax.eq(%s, 4)" % I, i == 4),
    ("lax.ne(%s, 4)" % I, i != 4),
    ("lax.lt(%s, 0.5)" % M, m < 0.5),
    ("lax.le(%s, 0.5)" % M, m <= 0.5),
    ("lax.gt(%s, jnp.ones((3, 4)))" % M, m > 1),
    ("lax.ge(%s, jnp.ones((3, 4)))" % M, m >= 1),
    ("lax.integer_pow(%s, 3)" % M, m ** 3),
    ("lax.integer_pow(%s + 4.5, -2)" % M, (m + 4.5) ** -2.0),
    ("lax.integer_pow(%s, 0)" % I, i ** 0),
    ("lax.select_n(jnp.array([0, 1, 2, 1], dtype=jnp.int32), jnp.zeros(4), jnp.ones(4), jnp.full(4, 2.0))", [0.0, 1.0, 2.0, 1.0]),
    ("lax.select_n(%s > 0, %s, -%s)" % (M, M, M), np.where(m > 0, -m, m)),  # False picks case 0
    ("lax.select_n(True, jnp.arange(3), jnp.arange(3) * 10)", [0, 10, 20]),
    # more.star: reduce with a function
    ("lax.reduce(%s, 0.0, lax.add, (0,))" % M, m.sum(0)),
    ("lax.reduce(%s, 0.0, lambda a, b: a + b, (0, 1))" % T, t.sum((0, 1))),
    ("lax.reduce(%s, 1.0, lax.add, (0, 2))" % T, t.sum((0, 2)) + 1.0),
    ("lax.reduce(%s, -jnp.inf, lax.max, (2,))" % T, t.max(2)),
    ("lax.reduce(%s, 1, lax.mul, (1,))" % I, i.prod(1)),
    ("lax.reduce((%s, jnp.array([[4, 1, 4, 2], [0, 7, 7, 1], [3, 3, 9, 0]])), (0.0, 0), lambda a, b: (a[0] + b[0], lax.max(a[1], b[1])), (1,))" % M,
     [m.sum(1), np.array([[4, 1, 4, 2], [0, 7, 7, 1], [3, 3, 9, 0]]).max(1)]),
    ("lax.reduce(jnp.zeros((2, 0)), 5.0, lax.add, (1,))", [5.0, 5.0]),
    ("lax.reduce(jnp.arange(7), 0, lambda a, b: a + b, (0,))", 21),
    ("lax.reduce_xor(%s, (1,))" % I, np.bitwise_xor.reduce(i, 1)),
    ("lax.reduce_xor(%s > 3, (0,))" % I, np.logical_xor.reduce(i > 3, 0)),
    ("lax.clz(jnp.array([1, 0, 255, -1, 65536, 2147483647]))", [clz(v, 32) for v in [1, 0, 255, -1, 65536, 2147483647]]),
    ("lax.clz(jnp.array([1, 128, 0, 16], dtype=jnp.uint8))", [clz(v, 8) for v in [1, 128, 0, 16]]),
    ("lax.clz(jnp.array([3, -5], dtype=jnp.int16))", [clz(v, 16) for v in [3, -5]]),
    ("lax.full((2, 3), 7)", np.full((2, 3), 7)),
    ("lax.full((2,), 1.5, jnp.float16)", np.full((2,), 1.5)),
    ("lax.full_like(%s, 2.5)" % M, np.full((3, 4), 2.5)),
    ("lax.full_like(%s, 2, shape=(2,), dtype=jnp.float32)" % I, [2.0, 2.0]),
    ("lax.broadcast(jnp.array([1, 2]), (3,))", np.broadcast_to([1, 2], (3, 2))),
    ("lax.broadcast_to_rank(jnp.array([1, 2]), 3)", np.array([1, 2]).reshape(1, 1, 2)),
    ("lax.collapse(%s, 1)" % T, t.reshape(2, 12)),
    ("lax.collapse(%s, 0, 2)" % T, t.reshape(6, 4)),
    ("lax.split(jnp.arange(6), (1, 0, 5))", [np.arange(1), np.arange(0), np.arange(1, 6)]),
    ("lax.split(%s, (1, 3), axis=1)" % M, [m[:, :1], m[:, 1:]]),
    ("lax.reciprocal(jnp.array([2.0, -4.0, 0.5]))", [0.5, -0.25, 2.0]),
    ("lax.dot(%s, jnp.array([1.0, 0.0, -1.0, 2.0]))" % M, m @ [1.0, 0.0, -1.0, 2.0]),
    ("lax.dot(jnp.array([1.0, 2.0, 3.0]), %s)" % M, np.array([1.0, 2.0, 3.0]) @ m),
    ("lax.dot(%s, %s.T)" % (M, M), m @ m.T),
    ("lax.batch_matmul(%s, jnp.ones((2, 4, 2)))" % T, t @ np.ones((2, 4, 2))),
]
# The transposed convolution.
x = np.arange(10.0).reshape(1, 5, 2) / 4.0
X = "jnp.arange(10.0).reshape(1, 5, 2) / 4.0"
w = np.cos(np.arange(18.0)).reshape(3, 2, 3)
W = "jnp.cos(jnp.arange(18.0)).reshape(3, 2, 3)"
for s in [1, 2, 3]:
    for pad in ["VALID", "SAME"]:
        cases.append(("lax.conv_transpose(%s, %s, (%d,), '%s')" % (X, W, s, pad), dilate_pad_correlate(x, w, s, transpose_pads(3, s, pad))))
# transpose_kernel=True with VALID padding is the gradient of a convolution:
# every input element scatters into the output (the kernel read as W, O, I).
wt = np.sin(np.arange(12.0)).reshape(3, 2, 2)
WT = "jnp.sin(jnp.arange(12.0)).reshape(3, 2, 2)"
def scatter(x, w, s):
    n, width, _ = x.shape
    k = w.shape[0]
    out = np.zeros((n, (width - 1) * s + k, w.shape[1]))
    for b in range(n):
        for p in range(width):
            for j in range(k):
                out[b, p * s + j] += w[j] @ x[b, p]
    return out
for s in [1, 2]:
    cases.append(("lax.conv_transpose(%s, %s, (%d,), 'VALID', transpose_kernel=True)" % (X, WT, s), scatter(x, wt, s)))
# Two spatial dimensions with explicit layouts and padding.
x2 = np.arange(18.0).reshape(1, 2, 3, 3) / 9.0
X2 = "jnp.arange(18.0).reshape(1, 2, 3, 3) / 9.0"
w2 = np.cos(np.arange(24.0)).reshape(3, 2, 2, 2)
W2 = "jnp.cos(jnp.arange(24.0)).reshape(3, 2, 2, 2)"
def dilate_pad_correlate_2d(x, w, s, pads):
    # NCHW input, OIHW kernel.
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    dil = np.zeros((n, c, (h - 1) * s[0] + 1, (wd - 1) * s[1] + 1))
    dil[:, :, ::s[0], ::s[1]] = x
    dil = np.pad(dil, ((0, 0), (0, 0), pads[0], pads[1]))
    oh, ow = dil.shape[2] - kh + 1, dil.shape[3] - kw + 1
    out = np.zeros((n, o, oh, ow))
    for p in range(oh):
        for q in range(ow):
            out[:, :, p, q] = np.einsum("nchw,ochw->no", dil[:, :, p:p + kh, q:q + kw], w)
    return out
cases.append(("lax.conv_transpose(%s, %s, (2, 1), [(1, 2), (0, 1)], dimension_numbers=('NCHW', 'OIHW', 'NCHW'))" % (X2, W2),
              dilate_pad_correlate_2d(x2, w2, (2, 1), [(1, 2), (0, 1)])))
cases.append(("lax.conv_transpose(%s, %s, (2, 2), 'SAME', dimension_numbers=('NCHW', 'OIHW', 'NCHW'))" % (X2, W2),
              dilate_pad_correlate_2d(x2, w2, (2, 2), [transpose_pads(2, 2, "SAME")] * 2)))
cases.append(("lax.conv_with_general_padding(%s, %s, (1, 1), [(1, 0), (0, 1)], (2, 1), (1, 1))" % (X2, W2),
              dilate_pad_correlate_2d(x2, w2, (2, 1), [(1, 0), (0, 1)])))

# Dimension numbers as permutations: JAX's documented ConvDimensionNumbers
# for TensorFlow's layouts, and a convolution given them.
cases += [
    ("lax.conv_dimension_numbers((1, 5, 5, 2), (3, 3, 2, 4), ('NHWC', 'HWIO', 'NHWC'))", [[0, 3, 1, 2], [3, 2, 0, 1], [0, 3, 1, 2]]),
    ("lax.conv_dimension_numbers((1, 2, 5), (4, 2, 3), None)", [[0, 1, 2], [0, 1, 2], [0, 1, 2]]),
    ("lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))", [[0, 3, 1, 2], [3, 2, 0, 1], [0, 3, 1, 2]]),
]
xh = np.arange(18.0).reshape(1, 3, 3, 2) / 9.0
wh = np.cos(np.arange(16.0)).reshape(2, 2, 2, 2)
out = np.zeros((1, 2, 2, 2))
for p in range(2):
    for q in range(2):
        out[:, p, q] = np.einsum("nhwc,hwco->no", xh[:, p:p + 2, q:q + 2], wh)
cases.append(("lax.conv_general_dilated(jnp.arange(18.0).reshape(1, 3, 3, 2) / 9.0, jnp.cos(jnp.arange(16.0)).reshape(2, 2, 2, 2), (1, 1), 'VALID', dimension_numbers=lax.conv_dimension_numbers((1, 3, 3, 2), (2, 2, 2, 2), ('NHWC', 'HWIO', 'NHWC')))", out))
cases += [
    ("lax.broadcast_shapes((2, 1), (3,), (1, 1, 1))", [1, 2, 3]),
    ("lax.broadcast_shapes((5, 1, 4), (3, 1))", [5, 3, 4]),
    ("lax.empty((2, 3), jnp.float32).shape", [2, 3]),
]

# stack, unstack and tile as JAX's docstrings show them; index_take,
# approx_max_k/approx_min_k (exact on CPU) and dtype against NumPy.
src = np.arange(24).reshape(2, 3, 4)
mk = np.array([[3.0, 1.0, 4.0, 1.5], [5.0, 9.0, 2.0, 6.0], [0.5, -1.0, 7.0, 2.5]])
MK = "jnp.array([[3.0, 1.0, 4.0, 1.5], [5.0, 9.0, 2.0, 6.0], [0.5, -1.0, 7.0, 2.5]])"
def approx(a, k, dim, smallest):
    order = np.argsort(a if smallest else -a, axis=dim, kind="stable")
    idx = np.take(order, range(k), axis=dim)
    return [np.take_along_axis(a, idx, dim), idx]
cases += [
    ("lax.stack([jnp.array([1, 2]), jnp.array([3, 4])], axis=0)", [[1, 2], [3, 4]]),
    ("lax.stack([jnp.array([1, 2]), jnp.array([3, 4])], axis=1)", [[1, 3], [2, 4]]),
    ("lax.stack([%s, %s], axis=-1)" % (M, M), np.stack([m, m], axis=-1)),
    ("lax.unstack(jnp.array([[1, 2], [3, 4]]), axis=0)", [[1, 2], [3, 4]]),
    ("lax.unstack(jnp.array([[1, 2], [3, 4]]), axis=1)", [[1, 3], [2, 4]]),
    ("lax.tile(jnp.array([[1, 2], [3, 4]]), (2, 3))", [[1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4], [1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4]]),
    ("lax.tile(jnp.array([1, 2, 3]), (2,))", [1, 2, 3, 1, 2, 3]),
    ("lax.tile(%s, (1, 0))" % M, np.tile(m, (1, 0))),
    ("lax.index_take(jnp.arange(24).reshape(2, 3, 4), (jnp.array([0, 1, -1]), jnp.array([2, 5, 0])), (0, 2))",
     np.stack([src[i % 2, :, j % 4] for i, j in [(0, 2), (1, 5), (-1, 0)]])),
    ("lax.index_take(jnp.arange(24).reshape(2, 3, 4), (jnp.array([2, 0]),), (1,))", np.stack([src[:, 2], src[:, 0]])),
    ("lax.approx_max_k(%s, 2)" % MK, approx(mk, 2, 1, False)),
    ("lax.approx_max_k(%s, 1, reduction_dimension=0)" % MK, approx(mk, 1, 0, False)),
    ("lax.approx_min_k(%s, 3)" % MK, approx(mk, 3, 1, True)),
    ("lax.approx_min_k(%s, 2, reduction_dimension=0)" % MK, approx(mk, 2, 0, True)),
    ("[lax.dtype(1) == jnp.int32, lax.dtype(2.0) == jnp.float32, lax.dtype(True) == jnp.bool_, lax.dtype(jnp.ones(2, jnp.float16)) == jnp.float16, lax.dtype('uint8') == jnp.uint8]", [True] * 5),
]

def plain(v):
    if isinstance(v, (tuple, list)):
        return [plain(e) for e in v]
    if isinstance(v, np.ndarray):
        return plain(v.tolist()) if v.ndim else plain(v.item())
    if isinstance(v, (np.generic,)):
        return plain(v.item())
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v

out = [[c[0], plain(c[1])] + list(c[2:]) for c in cases]
with open("more_cases.json", "w") as f:
    json.dump(out, f, indent=0)
    f.write("\n")
print(len(out), "cases")
