# Writes lax_cases.json: expressions over lax's sorting, cumulative and scan
# functions with the values NumPy/SciPy give for them. Run once with
# python3 (NumPy, SciPy); the tests never need Python.
#   /usr/bin/python3 gen_lax.py
# Each case: [jaxsh expression, value, flags] as lib/numpy's gen_composed.py.
import json
import numpy as np
from scipy.special import logsumexp

X = "jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0])"
x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0])
M = "jnp.array([[1.5, -2.0, 0.25, 7.0], [3.0, 0.5, -1.0, 0.5], [0.0, 2.0, 2.0, -3.0]])"
m = np.array([[1.5, -2.0, 0.25, 7.0], [3.0, 0.5, -1.0, 0.5], [0.0, 2.0, 2.0, -3.0]])
I = "jnp.array([[4, 1, 4, 2, 4], [0, 7, 7, 1, 3]])"
i = np.array([[4, 1, 4, 2, 4], [0, 7, 7, 1, 3]])

def top_k(a, k):
    # largest first; equal values lowest index first (a stable sort of -a)
    idx = np.argsort(-a, axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(a, idx, -1), idx]

def cumlse(a, axis=0, reverse=False):
    a = np.flip(a, axis) if reverse else a
    out = np.stack([logsumexp(np.take(a, range(j + 1), axis=axis), axis=axis) for j in range(a.shape[axis])], axis)
    return np.flip(out, axis) if reverse else out

def rev(a, axis): return np.flip(a, axis)

def reduce_window(a, init, op, window, strides, pads, base=None, wdil=None):
    # XLA's ReduceWindow written out: dilate the base with init, pad with
    # init, fold op over each (dilated) window from init.
    base = base or (1,) * a.ndim
    wdil = wdil or (1,) * a.ndim
    shape = [(n - 1) * b + 1 for n, b in zip(a.shape, base)]
    d = np.full(shape, init, a.dtype)
    d[tuple(slice(None, None, b) for b in base)] = a
    p = np.pad(d, pads, constant_values=init)
    out_shape = [(n - ((w - 1) * wd + 1)) // s + 1 for n, w, s, wd in zip(p.shape, window, strides, wdil)]
    out = np.full(out_shape, init, a.dtype)
    for idx in np.ndindex(*out_shape):
        acc = init
        for off in np.ndindex(*window):
            acc = op(acc, p[tuple(i * s + o * wd for i, s, o, wd in zip(idx, strides, off, wdil))])
        out[idx] = acc
    return out

def same_pads(shape, window, strides):
    pads = []
    for n, w, s in zip(shape, window, strides):
        total = max(0, (-(-n // s) - 1) * s + w - n)
        pads.append((total // 2, total - total // 2))
    return pads

def conv_nchw(x, w, strides, pads, ldil, rdil, groups):
    # Cross-correlation written out in NCHW/OIHW: dilate and pad the input,
    # then sum each output's window against its group's kernel.
    n, c = x.shape[:2]
    o, i = w.shape[:2]
    sp = [(s - 1) * d + 1 for s, d in zip(x.shape[2:], ldil)]
    xd = np.zeros((n, c) + tuple(sp))
    xd[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in ldil)] = x
    xp = np.pad(xd, [(0, 0), (0, 0)] + [tuple(p) for p in pads])
    k = w.shape[2:]
    out_sp = [(size - ((kk - 1) * d + 1)) // s + 1 for size, kk, s, d in zip(xp.shape[2:], k, strides, rdil)]
    out = np.zeros((n, o) + tuple(out_sp))
    per = o // groups
    for b in range(n):
        for oc in range(o):
            g = oc // per
            for idx in np.ndindex(*out_sp):
                acc = 0.0
                for ic in range(i):
                    for off in np.ndindex(*k):
                        pos = tuple(j * s + q * d for j, s, q, d in zip(idx, strides, off, rdil))
                        acc += xp[(b, g * i + ic) + pos] * w[(oc, ic) + off]
                out[(b, oc) + idx] = acc
    return out

CX = "(jnp.arange(120.0).reshape(2, 3, 5, 4) % 7.0 - 3.0)"
cx = np.arange(120.0).reshape(2, 3, 5, 4) % 7.0 - 3.0
CW = "(jnp.arange(108.0).reshape(6, 3, 2, 3) % 5.0 - 2.0) / 4.0"
cw = (np.arange(108.0).reshape(6, 3, 2, 3) % 5.0 - 2.0) / 4.0
C1 = "(jnp.arange(14.0).reshape(1, 2, 7) - 6.0)"
c1 = np.arange(14.0).reshape(1, 2, 7) - 6.0
W1 = "jnp.array([[[1.0, 0.5, -1.0]], [[2.0, -0.5, 0.25]], [[0.0, 1.0, 1.0]], [[-1.0, -1.0, 3.0]]])"
w1 = np.array([[[1.0, 0.5, -1.0]], [[2.0, -0.5, 0.25]], [[0.0, 1.0, 1.0]], [[-1.0, -1.0, 3.0]]])

R = "jnp.arange(20.0).reshape(4, 5) * jnp.array([1.0, -1.0, 0.5, 2.0, -0.25])"
r = np.arange(20.0).reshape(4, 5) * np.array([1.0, -1.0, 0.5, 2.0, -0.25])
N = "jnp.arange(48.0).reshape(1, 4, 4, 3) % 7.0"
nhwc = np.arange(48.0).reshape(1, 4, 4, 3) % 7.0

cases = [
    ("lax.top_k(%s, 3)" % X, top_k(x, 3)),
    ("lax.top_k(%s, 2)" % M, top_k(m, 2)),
    ("lax.top_k(%s, 3)" % I, top_k(i, 3)),
    ("lax.top_k(%s, 0)" % X, top_k(x, 0)),
    ("lax.cumsum(%s)" % X, np.cumsum(x)),
    ("lax.cumsum(%s, axis=1, reverse=True)" % M, rev(np.cumsum(rev(m, 1), 1), 1)),
    ("lax.cumprod(%s, axis=0)" % M, np.cumprod(m, 0)),
    ("lax.cummax(%s)" % X, np.maximum.accumulate(x)),
    ("lax.cummax(%s, axis=1, reverse=True)" % I, rev(np.maximum.accumulate(rev(i, 1), 1), 1)),
    ("lax.cummin(%s, axis=-1)" % M, np.minimum.accumulate(m, -1)),
    ("lax.cumlogsumexp(%s)" % X, cumlse(x)),
    ("lax.cumlogsumexp(%s, axis=1, reverse=True)" % M, cumlse(m, 1, True)),
    ("lax.cumlogsumexp(jnp.array([-1000.0, 0.0, 1000.0, -jnp.inf]))", cumlse(np.array([-1000.0, 0.0, 1000.0, -np.inf]))),
    ("lax.associative_scan(lax.add, %s)" % X, np.cumsum(x)),
    ("lax.associative_scan(lax.mul, %s, axis=1)" % M, np.cumprod(m, 1)),
    ("lax.associative_scan(lax.max, %s, reverse=True)" % X, rev(np.maximum.accumulate(rev(x, 0)), 0)),
    ("lax.associative_scan(lambda a, b: (lax.add(a[0], b[0]), lax.min(a[1], b[1])), (%s, %s))" % (M, M), [np.cumsum(m, 0), np.minimum.accumulate(m, 0)]),
    # x_t = a_t * x_{t-1} + b_t as the scan of affine maps (a, b)
    ("lax.associative_scan(lambda p, q: (lax.mul(q[0], p[0]), lax.add(lax.mul(q[0], p[1]), q[1])), (jnp.array([0.5, 2.0, 1.0, 0.25, 3.0]), jnp.array([1.0, -1.0, 2.0, 4.0, 0.5])))[1]",
     (lambda a, b: np.array([sum(b[s] * np.prod(a[s + 1:t + 1]) for s in range(t + 1)) for t in range(5)]))(np.array([0.5, 2.0, 1.0, 0.25, 3.0]), np.array([1.0, -1.0, 2.0, 4.0, 0.5]))),
    ("lax.associative_scan(lax.bitwise_or, jnp.array([False, False, True, False, False]))", np.logical_or.accumulate([False, False, True, False, False])),
    ("lax.reduce_window(%s, -jnp.inf, lax.max, (2, 2), (2, 2), 'VALID')" % R, reduce_window(r, -np.inf, max, (2, 2), (2, 2), [(0, 0), (0, 0)])),
    ("lax.reduce_window(%s, 0.0, lax.add, (3, 3), (1, 1), 'SAME')" % R, reduce_window(r, 0.0, lambda x, y: x + y, (3, 3), (1, 1), same_pads(r.shape, (3, 3), (1, 1)))),
    ("lax.reduce_window(%s, 0.0, lax.add, (2, 3), (2, 2), 'SAME')" % R, reduce_window(r, 0.0, lambda x, y: x + y, (2, 3), (2, 2), same_pads(r.shape, (2, 3), (2, 2)))),
    ("lax.reduce_window(%s, jnp.inf, lax.min, (2, 2), (1, 2), ((1, 0), (0, 2)), (2, 1), (1, 2))" % R, reduce_window(r, np.inf, min, (2, 2), (1, 2), [(1, 0), (0, 2)], (2, 1), (1, 2))),
    ("lax.reduce_window(%s, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), 'SAME')" % N, reduce_window(nhwc, -np.inf, max, (1, 3, 3, 1), (1, 2, 2, 1), same_pads(nhwc.shape, (1, 3, 3, 1), (1, 2, 2, 1)))),
    ("lax.reduce_window(jnp.array([[3, 1, 4], [1, 5, 9]]), 0, lax.add, (1, 2), (1, 1), 'VALID')", reduce_window(np.array([[3, 1, 4], [1, 5, 9]]), 0, lambda x, y: x + y, (1, 2), (1, 1), [(0, 0), (0, 0)])),
    ("lax.reduce_window(%s, 1.0, lax.mul, (2, 1), (1, 1), 'VALID')" % R, reduce_window(r, 1.0, lambda x, y: x * y, (2, 1), (1, 1), [(0, 0), (0, 0)])),
    ("lax.padtype_to_pads((5, 7), (3, 2), (2, 3), 'SAME')", [[1, 1], [0, 1]]),
    ("lax.conv(%s, %s, (1, 1), 'VALID')" % (CX, CW), conv_nchw(cx, cw, (1, 1), [(0, 0), (0, 0)], (1, 1), (1, 1), 1)),
    ("lax.conv(%s, %s, (2, 1), 'SAME')" % (CX, CW), conv_nchw(cx, cw, (2, 1), same_pads((5, 4), (2, 3), (2, 1)), (1, 1), (1, 1), 1)),
    ("lax.conv_general_dilated(jnp.transpose(%s, (0, 2, 3, 1)), jnp.transpose(%s, (2, 3, 1, 0)), (2, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))" % (CX, CW),
     np.transpose(conv_nchw(cx, cw, (2, 1), same_pads((5, 4), (2, 3), (2, 1)), (1, 1), (1, 1), 1), (0, 2, 3, 1))),
    ("lax.conv_general_dilated(%s, %s, (1, 1), ((1, 1), (0, 2)), (1, 2), (2, 1), feature_group_count=3)" % (CX, CW.replace("(6, 3, 2, 3)", "(6, 3, 2, 3)[:, :1]").replace("reshape(6, 3, 2, 3) % 5.0 - 2.0) / 4.0", "reshape(6, 3, 2, 3) % 5.0 - 2.0)[:, :1] / 4.0")),
     conv_nchw(cx, cw[:, :1], (1, 1), [(1, 1), (0, 2)], (1, 2), (2, 1), 3)),
    ("lax.conv_general_dilated(%s, %s, (2,), ((2, 1),), rhs_dilation=(2,), feature_group_count=2)" % (C1, W1), conv_nchw(c1, w1, (2,), [(2, 1)], (1,), (2,), 2)),
    ("lax.conv_general_dilated(jnp.transpose(%s, (0, 2, 1)), jnp.transpose(%s, (2, 1, 0)), (1,), 'VALID', dimension_numbers=('NWC', 'WIO', 'NCW'))" % (C1, W1.replace("[[[1.0, 0.5, -1.0]], [[2.0, -0.5, 0.25]]", "[[[1.0, 0.5, -1.0], [0.5, 0.5, 0.5]], [[2.0, -0.5, 0.25], [1.0, 0.0, -1.0]]").replace("[[0.0, 1.0, 1.0]], [[-1.0, -1.0, 3.0]]", "[[0.0, 1.0, 1.0], [1.0, 1.0, 1.0]], [[-1.0, -1.0, 3.0], [0.0, 0.0, 2.0]]")),
     conv_nchw(c1, np.array([[[1.0, 0.5, -1.0], [0.5, 0.5, 0.5]], [[2.0, -0.5, 0.25], [1.0, 0.0, -1.0]], [[0.0, 1.0, 1.0], [1.0, 1.0, 1.0]], [[-1.0, -1.0, 3.0], [0.0, 0.0, 2.0]]]), (1,), [(0, 0)], (1,), (1,), 1)),
    ("lax.sort(%s)" % M, np.sort(m, -1)),
    ("lax.sort(%s, dimension=0)" % I, np.sort(i, 0)),
    ("lax.sort((%s, jnp.array([[1.5, -2.0, 0.25, 7.0, 9.0], [3.0, 0.5, -1.0, 0.5, 10.0]])), num_keys=1)" % I,
     (lambda k, v: [np.take_along_axis(k, np.argsort(k, -1, kind="stable"), -1), np.take_along_axis(v, np.argsort(k, -1, kind="stable"), -1)])(i, np.array([[1.5, -2.0, 0.25, 7.0, 9.0], [3.0, 0.5, -1.0, 0.5, 10.0]]))),
    ("lax.sort((jnp.array([2, 1, 2, 1, 0]), jnp.array([4.0, 3.0, 2.0, 5.0, 1.0])), num_keys=2)", [[0, 1, 1, 2, 2], [1.0, 3.0, 5.0, 2.0, 4.0]]),
    ("lax.sort_key_val(jnp.array([3, 1, 2]), jnp.array([30.0, 10.0, 20.0]))", [[1, 2, 3], [10.0, 20.0, 30.0]]),
    ("lax.clamp(0.0, %s, 1.0)" % M, np.clip(m, 0.0, 1.0)),
    ("lax.clamp(jnp.zeros((3, 4)), %s, jnp.full((3, 4), 2.0))" % M, np.clip(m, 0.0, 2.0)),
    ("lax.clamp(2, %s, 5)" % I, np.clip(i, 2, 5)),
    ("lax.bitcast_convert_type(jnp.array([1.0, -2.0, 0.5]), jnp.int32)", np.array([1.0, -2.0, 0.5], np.float32).view(np.int32)),
    ("lax.bitcast_convert_type(jnp.array([1065353216, -1073741824]), jnp.float32)", np.array([1065353216, -1073741824], np.int32).view(np.float32)),
    ("jnp.dot(%s, %s.T, precision=lax.Precision.HIGHEST)" % (M, M), m @ m.T),
    ("jnp.matmul(%s, %s.T, precision=(lax.Precision.HIGH, lax.Precision.DEFAULT))" % (M, M), m @ m.T),
    ("jnp.einsum('ij,kj->ik', %s, %s, precision=lax.Precision.HIGHEST)" % (M, M), m @ m.T),
]

def enc(v):
    if isinstance(v, (list, tuple)):
        return [enc(e) for e in v]
    if isinstance(v, np.ndarray):
        return enc(v.tolist())
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if np.isnan(v): return "nan"
        if np.isinf(v): return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.bool_,)):
        return bool(v)
    return v

with open("lax_cases.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps([c[0], enc(c[1])] + list(c[2:])) for c in cases) + "\n]\n")
