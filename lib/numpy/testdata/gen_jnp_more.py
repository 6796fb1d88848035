# Writes jnp_more_cases.json: expressions over the jnp names of aliases.star,
# setops.star and polyhist.star, with the values NumPy 1.24 gives for them.
# Run once with python3 (NumPy); the tests never need Python.
#   /usr/bin/python3 gen_jnp_more.py
# Each case: [jaxsh expression, value, flags]. flags: "eager" (the output
# shape depends on values: not run under jit; each such function also has
# a case with size= that runs under jit), "f64" (compare at float64
# precision).
import json, math
import numpy as np

A = "jnp.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])"
a = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])
X = "jnp.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 4.0])"
x = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 4.0])
N = "jnp.array([[1.0, jnp.nan, 3.0], [jnp.nan, jnp.nan, 2.0]])"
n = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]])
S1 = "jnp.array([5, 1, 3, 3, 7, 1])"
s1 = np.array([5, 1, 3, 3, 7, 1])
S2 = "jnp.array([3, 4, 5, 5, 8])"
s2 = np.array([3, 4, 5, 5, 8])
f32 = np.float32

def padded(v, size, fill):
    v = np.asarray(v)
    return np.concatenate([v, np.full(size - len(v), fill, dtype=v.dtype)])

def nextafter32(p, q):
    return np.nextafter(np.float32(p), np.float32(q))

def untrimmed_polydiv(u, v):
    "np.polydiv with the remainder kept at len(u), as JAX returns it by default."
    q, r = np.polydiv(u, v)
    return [q, np.concatenate([np.zeros(len(u) - len(r)), r])]

def bits(v):
    return bin(abs(int(v))).count("1")

cases = [
    # aliases.star: the array API names
    ("jnp.acos(jnp.array([0.5, -1.0]))", np.arccos([0.5, -1.0])),
    ("jnp.acosh(jnp.array([1.5, 3.0]))", np.arccosh([1.5, 3.0])),
    ("jnp.asin(jnp.array([0.5, -1.0]))", np.arcsin([0.5, -1.0])),
    ("jnp.asinh(jnp.array([0.5, -3.0]))", np.arcsinh([0.5, -3.0])),
    ("jnp.atan(jnp.array([0.5, -3.0]))", np.arctan([0.5, -3.0])),
    ("jnp.atanh(jnp.array([0.5, -0.25]))", np.arctanh([0.5, -0.25])),
    ("jnp.atan2(jnp.array([1.0, -1.0]), jnp.array([-2.0, -2.0]))", np.arctan2([1.0, -1.0], [-2.0, -2.0])),
    ("jnp.bitwise_invert(jnp.array([0, 5, -3]))", np.invert([0, 5, -3])),
    ("jnp.bitwise_not(jnp.array([True, False]))", np.invert([True, False])),
    ("jnp.bitwise_left_shift(jnp.array([1, 3]), jnp.array([4, 2]))", np.left_shift([1, 3], [4, 2])),
    ("jnp.bitwise_right_shift(jnp.array([64, -64]), 3)", np.right_shift([64, -64], 3)),
    ("jnp.pow(jnp.array([2.0, 3.0]), jnp.array([3.0, 0.5]))", np.power([2.0, 3.0], [3.0, 0.5])),
    ("jnp.permute_dims(jnp.arange(24).reshape(2, 3, 4), (2, 0, 1))", np.transpose(np.arange(24).reshape(2, 3, 4), (2, 0, 1))),
    ("jnp.matrix_transpose(jnp.arange(12).reshape(2, 2, 3))", np.swapaxes(np.arange(12).reshape(2, 2, 3), -1, -2)),
    ("jnp.around(jnp.array([1.256, -2.5, 3.5]), 1)", np.around([1.256, -2.5, 3.5], 1)),
    ("jnp.fabs(jnp.array([-2, 3]))", np.fabs([-2, 3])),
    ("jnp.iscomplex(lax.complex(jnp.array([1.0, 2.0]), jnp.array([0.0, 1.0])))", np.iscomplex([1.0, 2.0 + 1j])),
    ("jnp.isreal(lax.complex(jnp.array([1.0, 2.0]), jnp.array([0.0, 1.0])))", np.isreal([1.0, 2.0 + 1j])),
    ("jnp.isrealobj(%s)" % A, np.isrealobj(a)),
    # shapes
    ("jnp.array_equiv(jnp.array([1, 2]), jnp.array([[1, 2], [1, 2]]))", np.array_equiv([1, 2], [[1, 2], [1, 2]])),
    ("jnp.array_equiv(jnp.array([1, 2]), jnp.array([[1, 2], [1, 3]]))", np.array_equiv([1, 2], [[1, 2], [1, 3]])),
    ("jnp.array_equiv(jnp.array([1, 2]), jnp.array([1, 2, 3]))", np.array_equiv([1, 2], [1, 2, 3])),
    ("jnp.vsplit(jnp.arange(16).reshape(4, 4), 2)", np.vsplit(np.arange(16).reshape(4, 4), 2)),
    ("jnp.hsplit(jnp.arange(16).reshape(4, 4), [1, 3])", np.hsplit(np.arange(16).reshape(4, 4), [1, 3])),
    ("jnp.hsplit(jnp.arange(6), 3)", np.hsplit(np.arange(6), 3)),
    ("jnp.dsplit(jnp.arange(16).reshape(2, 2, 4), 2)", np.dsplit(np.arange(16).reshape(2, 2, 4), 2)),
    ("jnp.rollaxis(jnp.ones((2, 3, 4, 5)), 3, 1).shape", list(np.rollaxis(np.ones((2, 3, 4, 5)), 3, 1).shape)),
    ("jnp.rollaxis(jnp.ones((2, 3, 4, 5)), 1, 4).shape", list(np.rollaxis(np.ones((2, 3, 4, 5)), 1, 4).shape)),
    ("jnp.rollaxis(jnp.arange(6).reshape(2, 3), -1)", np.rollaxis(np.arange(6).reshape(2, 3), -1)),
    ("jnp.diagflat(jnp.array([[1, 2], [3, 4]]), 1)", np.diagflat([[1, 2], [3, 4]], 1)),
    ("jnp.ix_(jnp.array([0, 1]), jnp.array([2, 4, 5]))", np.ix_([0, 1], [2, 4, 5])),
    ("jnp.arange(36).reshape(6, 6)[jnp.ix_(jnp.array([0, 2]), jnp.array([1, 5]))]", np.arange(36).reshape(6, 6)[np.ix_([0, 2], [1, 5])]),
    ("jnp.mask_indices(3, jnp.triu, 1)", np.mask_indices(3, np.triu, 1), "eager"),
    ("jnp.mask_indices(3, jnp.tril, size=6)", np.mask_indices(3, np.tril)),
    # products
    ("jnp.vecdot(jnp.arange(6.0).reshape(2, 3), jnp.array([1.0, -1.0, 2.0]))", np.sum(np.arange(6.0).reshape(2, 3) * [1.0, -1.0, 2.0], axis=-1)),
    ("jnp.vecdot(jnp.arange(6.0).reshape(2, 3), jnp.ones((2, 3)), axis=0)", np.sum(np.arange(6.0).reshape(2, 3), axis=0)),
    ("jnp.matvec(jnp.arange(24.0).reshape(2, 3, 4), jnp.array([1.0, 0.0, -1.0, 2.0]))", np.arange(24.0).reshape(2, 3, 4) @ np.array([1.0, 0.0, -1.0, 2.0])),
    ("jnp.vecmat(jnp.array([1.0, 2.0, -1.0]), jnp.arange(12.0).reshape(3, 4))", np.array([1.0, 2.0, -1.0]) @ np.arange(12.0).reshape(3, 4)),
    # cumulative, NaN-skipping
    ("jnp.cumulative_prod(jnp.array([1, 2, 3, 4]))", np.cumprod([1, 2, 3, 4])),
    ("jnp.cumulative_prod(%s, axis=1, include_initial=True)" % A, np.concatenate([np.ones((2, 1)), np.cumprod(a, axis=1)], axis=1)),
    ("jnp.nancumsum(%s, axis=1)" % N, np.nancumsum(n, axis=1)),
    ("jnp.nancumsum(%s)" % N, np.nancumsum(n)),
    ("jnp.nancumprod(%s, axis=0)" % N, np.nancumprod(n, axis=0)),
    ("jnp.nanargmax(%s, axis=1)" % N, np.nanargmax(n, axis=1)),
    ("jnp.nanargmin(%s, axis=1)" % N, np.nanargmin(n, axis=1)),
    ("jnp.nanargmax(%s)" % N, np.nanargmax(n)),
    ("jnp.nanargmin(%s, axis=0)" % N, np.array([0, -1, 1])),  # NumPy raises for the all-NaN column; JAX gives -1
    # floating-point structure (float32 bits, as jaxsh computes them)
    ("jnp.nextafter(jnp.array([1.0, 1.0, 0.0, -2.0, 3.0]), jnp.array([2.0, 0.0, -1.0, 0.0, 3.0]))", [nextafter32(p, q) for p, q in [(1, 2), (1, 0), (0, -1), (-2, 0), (3, 3)]], "f64"),
    ("jnp.nextafter(jnp.array([1.0], dtype=jnp.float64), 2.0)", np.nextafter([1.0], 2.0), "f64"),
    ("jnp.spacing(jnp.array([1.0, -1.0, 1e10, 0.5]))", np.spacing(np.array([1.0, -1.0, 1e10, 0.5], dtype=f32)), "f64"),
    ("jnp.frexp(jnp.array([8.0, 0.3, -5.0, 0.0, 1e-40, 3e38]))", np.frexp(np.array([8.0, 0.3, -5.0, 0.0, 1e-40, 3e38], dtype=f32))),
    ("jnp.frexp(jnp.array([jnp.inf, -jnp.inf]))", np.frexp(np.array([np.inf, -np.inf], dtype=f32))),
    ("jnp.unwrap(jnp.array([0.0, 0.78, 5.49, 6.28]))", np.unwrap([0.0, 0.78, 5.49, 6.28])),
    ("jnp.unwrap(jnp.array([[0.0, 3.0, 6.5], [1.0, -2.5, 4.0]]), axis=1, period=4.0)", np.unwrap([[0.0, 3.0, 6.5], [1.0, -2.5, 4.0]], axis=1, period=4.0)),
    ("jnp.unwrap(jnp.array([0.0, 2.0, 4.5, 1.0]), discont=4.0)", np.unwrap([0.0, 2.0, 4.5, 1.0], discont=4.0)),
    ("jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0, 11.0]))", np.gradient([1.0, 2.0, 4.0, 7.0, 11.0])),
    ("jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0, 11.0]), 0.5)", np.gradient([1.0, 2.0, 4.0, 7.0, 11.0], 0.5)),
    ("jnp.gradient(jnp.array([1.0, 2.0, 4.0, 7.0, 11.0]), jnp.array([0.0, 1.0, 1.5, 3.5, 4.0]))", np.gradient([1.0, 2.0, 4.0, 7.0, 11.0], [0.0, 1.0, 1.5, 3.5, 4.0])),
    ("jnp.gradient(jnp.arange(12.0).reshape(3, 4) ** 2)", np.gradient(np.arange(12.0).reshape(3, 4) ** 2)),
    ("jnp.gradient(jnp.arange(12.0).reshape(3, 4) ** 2, 2.0, axis=1)", np.gradient(np.arange(12.0).reshape(3, 4) ** 2, 2.0, axis=1)),
    # applying functions
    ("jnp.apply_along_axis(lambda v: v[0] + 2 * v[-1], 1, jnp.arange(24.0).reshape(2, 3, 4))", np.apply_along_axis(lambda v: v[0] + 2 * v[-1], 1, np.arange(24.0).reshape(2, 3, 4))),
    ("jnp.apply_along_axis(jnp.cumsum, 0, jnp.arange(6.0).reshape(2, 3))", np.apply_along_axis(np.cumsum, 0, np.arange(6.0).reshape(2, 3))),
    ("jnp.apply_over_axes(jnp.sum, jnp.arange(24.0).reshape(2, 3, 4), [0, 2])", np.apply_over_axes(np.sum, np.arange(24.0).reshape(2, 3, 4), [0, 2])),
    ("jnp.fromfunction(lambda i, j: i + 10 * j, (2, 3))", np.fromfunction(lambda i, j: i + 10 * j, (2, 3))),
    # setops.star: set operations
    ("jnp.union1d(%s, %s)" % (S1, S2), np.union1d(s1, s2), "eager"),
    ("jnp.union1d(%s, %s, size=9, fill_value=-1)" % (S1, S2), padded(np.union1d(s1, s2), 9, -1)),
    ("jnp.setdiff1d(%s, %s)" % (S1, S2), np.setdiff1d(s1, s2), "eager"),
    ("jnp.setdiff1d(%s, %s, size=4, fill_value=0)" % (S1, S2), padded(np.setdiff1d(s1, s2), 4, 0)),
    ("jnp.setdiff1d(jnp.array([4, 1, 2]), jnp.array([2]), assume_unique=True)", np.setdiff1d([4, 1, 2], [2], assume_unique=True), "eager"),
    ("jnp.setxor1d(%s, %s)" % (S1, S2), np.setxor1d(s1, s2), "eager"),
    ("jnp.setxor1d(%s, %s, size=6, fill_value=99)" % (S1, S2), padded(np.setxor1d(s1, s2), 6, 99)),
    ("jnp.intersect1d(%s, %s)" % (S1, S2), np.intersect1d(s1, s2), "eager"),
    ("jnp.intersect1d(%s, %s, return_indices=True)" % (S1, S2), np.intersect1d(s1, s2, return_indices=True), "eager"),
    ("jnp.intersect1d(%s, %s, size=3, fill_value=0)" % (S1, S2), padded(np.intersect1d(s1, s2), 3, 0)),
    ("jnp.unique_values(%s)" % S1, np.unique(s1), "eager"),
    ("jnp.unique_values(%s, size=5, fill_value=0)" % S1, padded(np.unique(s1), 5, 0)),
    ("jnp.unique_counts(%s)" % S1, np.unique(s1, return_counts=True), "eager"),
    ("jnp.unique_inverse(jnp.array([[2, 1], [2, 3]]))", [np.unique([2, 1, 2, 3]), [[1, 0], [1, 2]]], "eager"),
    ("jnp.unique_all(%s)" % S1, np.unique(s1, return_index=True, return_inverse=True, return_counts=True), "eager"),
    # selections
    ("jnp.extract(%s > 2, %s)" % (S1, S1), np.extract(s1 > 2, s1), "eager"),
    ("jnp.extract(%s > 2, %s, size=6, fill_value=-1)" % (S1, S1), padded(np.extract(s1 > 2, s1), 6, -1)),
    ("jnp.compress(jnp.array([True, False, True]), jnp.arange(6).reshape(2, 3), axis=1)", np.compress([True, False, True], np.arange(6).reshape(2, 3), axis=1), "eager"),
    ("jnp.compress(jnp.array([0, 1]), jnp.arange(6).reshape(3, 2), size=3)", np.array([1, 0, 0])),
    ("jnp.compress(jnp.array([False, True]), jnp.arange(6).reshape(2, 3), axis=0, size=2, fill_value=9)", np.array([[3, 4, 5], [9, 9, 9]])),
    ("jnp.delete(jnp.arange(6), jnp.array([1, 3]))", np.delete(np.arange(6), [1, 3])),
    ("jnp.delete(jnp.arange(12).reshape(3, 4), -1, axis=1)", np.delete(np.arange(12).reshape(3, 4), -1, axis=1)),
    ("jnp.insert(jnp.arange(4), 1, jnp.array([9, 8]))", np.insert(np.arange(4), 1, [9, 8])),
    ("jnp.insert(jnp.arange(4), [1, 1, 4], jnp.array([7, 8, 9]))", np.insert(np.arange(4), [1, 1, 4], [7, 8, 9])),
    ("jnp.insert(jnp.arange(4), [3, 0], jnp.array([7, 8]))", np.insert(np.arange(4), [3, 0], [7, 8])),
    ("jnp.insert(jnp.arange(6).reshape(2, 3), 1, 5, axis=1)", np.insert(np.arange(6).reshape(2, 3), 1, 5, axis=1)),
    ("jnp.insert(jnp.arange(6).reshape(2, 3), 2, jnp.array([7, 8]), axis=1)", np.insert(np.arange(6).reshape(2, 3), 2, [7, 8], axis=1)),
    ("jnp.insert(jnp.arange(6).reshape(2, 3), [0, 2], 9, axis=0)", np.insert(np.arange(6).reshape(2, 3), [0, 2], 9, axis=0)),
    ("jnp.insert(jnp.arange(6).reshape(2, 3), -1, 1.7)", np.insert(np.arange(6).reshape(2, 3), -1, 1.7)),
    ("jnp.place(jnp.arange(6), jnp.arange(6) % 2 == 0, jnp.array([10, 20]), inplace=False)", (lambda v: (np.place(v, v % 2 == 0, [10, 20]), v)[1])(np.arange(6))),
    ("jnp.put(jnp.arange(5), jnp.array([0, 2]), jnp.array([-1, -2]), inplace=False)", (lambda v: (np.put(v, [0, 2], [-1, -2]), v)[1])(np.arange(5))),
    ("jnp.put(jnp.arange(6).reshape(2, 3), jnp.array([1, 4, 5]), 7, inplace=False)", (lambda v: (np.put(v, [1, 4, 5], 7), v)[1])(np.arange(6).reshape(2, 3))),
    ("jnp.put(jnp.arange(5), jnp.array([7, -7]), jnp.array([8, 9]), mode='clip', inplace=False)", (lambda v: (np.put(v, [7, -7], [8, 9], mode='clip'), v)[1])(np.arange(5))),
    ("jnp.put(jnp.arange(5), jnp.array([7, -7]), jnp.array([8, 9]), mode='wrap', inplace=False)", (lambda v: (np.put(v, [7, -7], [8, 9], mode='wrap'), v)[1])(np.arange(5))),
    ("jnp.put_along_axis(jnp.zeros((2, 3)), jnp.array([[1], [2]]), 9.0, axis=1, inplace=False)", (lambda v: (np.put_along_axis(v, np.array([[1], [2]]), 9.0, axis=1), v)[1])(np.zeros((2, 3)))),
    ("jnp.put_along_axis(jnp.arange(6.0).reshape(2, 3), jnp.array([[1, 0, 1]]), jnp.array([[7.0, 8.0, 9.0]]), axis=0, inplace=False)", (lambda v: (np.put_along_axis(v, np.array([[1, 0, 1]]), np.array([[7.0, 8.0, 9.0]]), axis=0), v)[1])(np.arange(6.0).reshape(2, 3))),
    ("jnp.fill_diagonal(jnp.zeros((3, 4)), jnp.array([1.0, 2.0]), inplace=False)", (lambda v: (np.fill_diagonal(v, [1.0, 2.0]), v)[1])(np.zeros((3, 4)))),
    ("jnp.fill_diagonal(jnp.zeros((5, 3)), 4.0, inplace=False)", (lambda v: (np.fill_diagonal(v, 4.0), v)[1])(np.zeros((5, 3)))),
    ("jnp.fill_diagonal(jnp.zeros((3, 3, 3), dtype=jnp.int32), 4, inplace=False)", (lambda v: (np.fill_diagonal(v, 4), v)[1])(np.zeros((3, 3, 3), dtype=np.int32))),
    ("jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0, 3, 0]))", np.trim_zeros(np.array([0, 0, 1, 2, 0, 3, 0])), "eager"),
    ("jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0]), trim='f')", np.trim_zeros(np.array([0, 0, 1, 2, 0]), trim='f'), "eager"),
    ("jnp.trim_zeros(jnp.array([0, 0]))", np.trim_zeros(np.array([0, 0])), "eager"),
    ("jnp.resize(jnp.array([1, 2, 3]), (2, 4))", np.resize(np.array([1, 2, 3]), (2, 4))),
    ("jnp.resize(jnp.arange(6).reshape(2, 3), 4)", np.resize(np.arange(6).reshape(2, 3), 4)),
    ("jnp.choose(jnp.array([0, 1, 2, 1]), [jnp.array([1, 2, 3, 4]), 10, jnp.array([20, 21, 22, 23])])", np.choose([0, 1, 2, 1], [[1, 2, 3, 4], 10, [20, 21, 22, 23]]), "eager"),
    ("jnp.choose(jnp.array([[0], [5], [-1]]), [jnp.array([1, 2]), jnp.array([10, 20]), jnp.array([7, 8])], mode='wrap')", np.choose([[0], [5], [-1]], [[1, 2], [10, 20], [7, 8]], mode='wrap')),
    ("jnp.choose(jnp.array([0, 5, -1]), [jnp.array([1, 2, 3]), jnp.array([10, 20, 30])], mode='clip')", np.choose([0, 5, -1], [[1, 2, 3], [10, 20, 30]], mode='clip')),
    ("jnp.piecewise(%s, [%s < 0, %s > 1], [lambda v: -v, lambda v: v * 10, 7.0])" % (X, X, X), np.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v * 10, 7.0])),
    ("jnp.piecewise(%s, [%s < 0, %s >= 0], [-1, 1])" % (X, X, X), np.piecewise(x, [x < 0, x >= 0], [-1, 1])),
    ("jnp.piecewise(%s, %s > 0, [lambda v, k: v * k, 0.5], 3.0)" % (X, X), np.piecewise(x, x > 0, [lambda v, k: v * k, 0.5], 3.0)),
    # orderings
    ("jnp.lexsort([jnp.array([1, 2, 1, 2, 0]), jnp.array([3, 3, 1, 1, 3])])", np.lexsort([[1, 2, 1, 2, 0], [3, 3, 1, 1, 3]])),
    ("jnp.lexsort(jnp.array([[3, 1, 2], [1, 1, 0]]))", np.lexsort(np.array([[3, 1, 2], [1, 1, 0]]))),
    ("jnp.lexsort([jnp.array([[3, 1], [1, 2]]), jnp.array([[0, 0], [1, 0]])], axis=0)", np.lexsort([np.array([[3, 1], [1, 2]]), np.array([[0, 0], [1, 0]])], axis=0)),
    ("jnp.partition(jnp.array([7, 2, 9, 1, 5]), 2)[2]", np.partition(np.array([7, 2, 9, 1, 5]), 2)[2]),
    ("jnp.sort(jnp.partition(jnp.array([7, 2, 9, 1, 5]), 2)[:2])", np.sort(np.partition(np.array([7, 2, 9, 1, 5]), 2)[:2])),
    ("jnp.array([7, 2, 9, 1, 5])[jnp.argpartition(jnp.array([7, 2, 9, 1, 5]), 3)][3]", np.array([7, 2, 9, 1, 5])[np.argpartition([7, 2, 9, 1, 5], 3)][3]),
    ("jnp.real(jnp.sort_complex(jnp.array([3, 1, 2])))", np.real(np.sort_complex([3, 1, 2]))),
    ("jnp.top_k(jnp.array([3.0, 9.0, 1.0, 7.0]), 2)", (np.array([9.0, 7.0]), np.array([1, 3]))),
    # bits (bitwise_count is NumPy 2's; its values from Python's int)
    ("jnp.bitwise_count(jnp.array([7, -3, 255, 0]))", [bits(v) for v in [7, -3, 255, 0]]),
    ("jnp.packbits(jnp.array([1, 0, 1, 1, 0, 0, 0, 1, 1]))", np.packbits([1, 0, 1, 1, 0, 0, 0, 1, 1])),
    ("jnp.packbits(jnp.array([[1, 0, 1], [0, 1, 1]]), axis=1, bitorder='little')", np.packbits([[1, 0, 1], [0, 1, 1]], axis=1, bitorder='little')),
    ("jnp.unpackbits(jnp.array([177, 3], dtype=jnp.uint8))", np.unpackbits(np.array([177, 3], dtype=np.uint8))),
    ("jnp.unpackbits(jnp.array([[177], [3]], dtype=jnp.uint8), axis=1, count=-3, bitorder='little')", np.unpackbits(np.array([[177], [3]], dtype=np.uint8), axis=1, count=-3, bitorder='little')),
    ("jnp.unpackbits(jnp.array([5], dtype=jnp.uint8), count=10)", np.unpackbits(np.array([5], dtype=np.uint8), count=10)),
]

# polyhist.star
P = np.array([1.0, 2.0, 3.0])
V = np.array([0.0, 1.0, 0.5, 2.0])
for mode in ["full", "same", "valid"]:
    cases.append(("jnp.convolve(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5, 2.0]), mode='%s')" % mode, np.convolve(P, V, mode)))
    cases.append(("jnp.convolve(jnp.array([0.0, 1.0, 0.5, 2.0]), jnp.array([1.0, 2.0]), mode='%s')" % mode, np.convolve(V, [1.0, 2.0], mode)))
    cases.append(("jnp.correlate(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5, 2.0]), mode='%s')" % mode, np.correlate(P, V, mode)))
    cases.append(("jnp.correlate(jnp.array([0.0, 1.0, 0.5, 2.0]), jnp.array([1.0, 2.0]), mode='%s')" % mode, np.correlate(V, [1.0, 2.0], mode)))
cases += [
    ("jnp.convolve(jnp.array([1, 2, 3]), jnp.array([1, -1]))", np.convolve([1, 2, 3], [1, -1])),
    ("jnp.polyadd(jnp.array([1, 2]), jnp.array([1, 2, 3]))", np.polyadd([1, 2], [1, 2, 3])),
    ("jnp.polysub(jnp.array([1.0, 2.0, 3.0]), jnp.array([4.0, 5.0]))", np.polysub([1.0, 2.0, 3.0], [4.0, 5.0])),
    ("jnp.polymul(jnp.array([1.0, 2.0, 3.0]), jnp.array([2.0, -1.0]))", np.polymul([1.0, 2.0, 3.0], [2.0, -1.0])),
    ("jnp.polyder(jnp.array([1, 2, 3, 4]))", np.polyder([1, 2, 3, 4])),
    ("jnp.polyder(jnp.array([1.0, 2.0, 3.0, 4.0]), 2)", np.polyder([1.0, 2.0, 3.0, 4.0], 2)),
    ("jnp.polyder(jnp.array([1.0, 2.0]), 3)", np.polyder([1.0, 2.0], 3)),
    ("jnp.polyint(jnp.array([3.0, 2.0, 1.0]))", np.polyint([3.0, 2.0, 1.0])),
    ("jnp.polyint(jnp.array([6.0, 2.0]), m=2, k=[1.0, -1.0])", np.polyint([6.0, 2.0], m=2, k=[1.0, -1.0])),
    ("jnp.polyint(jnp.array([1.0]), m=3, k=2.0)", np.polyint([1.0], m=3, k=2.0)),
    ("jnp.polydiv(jnp.array([1.0, -3.0, 2.0]), jnp.array([1.0, -1.0]))", untrimmed_polydiv([1.0, -3.0, 2.0], [1.0, -1.0])),
    ("jnp.polydiv(jnp.array([3.0, 5.0, 2.0, 1.0]), jnp.array([2.0, 1.0]))", untrimmed_polydiv([3.0, 5.0, 2.0, 1.0], [2.0, 1.0])),
    ("jnp.polydiv(jnp.array([3.0, 5.0, 2.0, 1.0]), jnp.array([2.0, 1.0]), trim_leading_zeros=True)", np.polydiv([3.0, 5.0, 2.0, 1.0], [2.0, 1.0]), "eager"),
    ("jnp.poly(jnp.array([1.0, 2.0, -3.0]))", np.poly([1.0, 2.0, -3.0])),
    ("jnp.polyfit(jnp.array([0.0, 1.0, 2.0, 3.0, 4.0]), jnp.array([1.0, 2.5, 7.0, 13.5, 20.0]), 2)", np.polyfit([0.0, 1.0, 2.0, 3.0, 4.0], [1.0, 2.5, 7.0, 13.5, 20.0], 2)),
    ("jnp.polyfit(jnp.array([0.0, 1.0, 2.0, 3.0]), jnp.array([[1.0, 0.0], [2.0, 1.0], [2.5, 4.0], [4.5, 9.0]]), 1, w=jnp.array([1.0, 2.0, 1.0, 0.5]))", np.polyfit([0.0, 1.0, 2.0, 3.0], [[1.0, 0.0], [2.0, 1.0], [2.5, 4.0], [4.5, 9.0]], 1, w=[1.0, 2.0, 1.0, 0.5])),
    ("jnp.polyval(jnp.polyfit(jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 0.0, 3.0]), 2), 1.5)", np.polyval(np.polyfit([0.0, 1.0, 2.0], [1.0, 0.0, 3.0], 2), 1.5)),
    ("jnp.real(jnp.sort_complex(jnp.roots(jnp.array([0.0, 1.0, -6.0, 11.0, -6.0, 0.0]))))", np.sort(np.real(np.roots([0.0, 1.0, -6.0, 11.0, -6.0, 0.0]))), "eager"),
    ("jnp.imag(jnp.sort_complex(jnp.roots(jnp.array([1.0, 0.0, 4.0]))))", np.sort_complex(np.roots([1.0, 0.0, 4.0])).imag, "eager"),
    ("jnp.real(jnp.sort_complex(jnp.roots(jnp.array([2.0, -2.0, -4.0]), strip_zeros=False)))", np.sort(np.real(np.roots([2.0, -2.0, -4.0])))),
    ("jnp.bartlett(6)", np.bartlett(6)),
    ("jnp.blackman(5)", np.blackman(5)),
    ("jnp.hamming(7)", np.hamming(7)),
    ("jnp.hanning(4)", np.hanning(4)),
    ("jnp.hanning(1)", np.hanning(1)),
    ("jnp.hamming(0)", np.hamming(0)),
    ("jnp.kaiser(6, 8.6)", np.kaiser(6, 8.6)),
    ("jnp.i0(jnp.array([0.0, 0.5, -1.0, 3.0, 14.9, 15.1, 40.0]))", np.i0([0.0, 0.5, -1.0, 3.0, 14.9, 15.1, 40.0])),
]
H = np.array([1.0, 2.0, 2.5, 4.0, 5.0, 0.5, 3.3])
HS = "jnp.array([1.0, 2.0, 2.5, 4.0, 5.0, 0.5, 3.3])"
W = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 2.0])
WS = "jnp.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 2.0])"
cases += [
    ("jnp.histogram_bin_edges(%s, bins=4)" % HS, np.histogram_bin_edges(H, bins=4)),
    ("jnp.histogram_bin_edges(jnp.array([2.0, 2.0]), bins=2)", np.histogram_bin_edges([2.0, 2.0], bins=2)),
    ("jnp.histogram(%s)" % HS, np.histogram(H)),
    ("jnp.histogram(%s, bins=3, range=(1.0, 4.0))" % HS, np.histogram(H, bins=3, range=(1.0, 4.0))),
    ("jnp.histogram(%s, bins=jnp.array([0.0, 1.0, 2.5, 6.0]), weights=%s)" % (HS, WS), np.histogram(H, bins=[0.0, 1.0, 2.5, 6.0], weights=W)),
    ("jnp.histogram(%s, bins=4, density=True)" % HS, np.histogram(H, bins=4, density=True)),
    ("jnp.histogram2d(jnp.array([1.0, 2.0, 3.0, 2.5]), jnp.array([0.0, 1.0, 1.0, 0.2]), bins=2)", np.histogram2d([1.0, 2.0, 3.0, 2.5], [0.0, 1.0, 1.0, 0.2], bins=2)),
    ("jnp.histogram2d(jnp.array([1.0, 2.0, 3.0, 2.5]), jnp.array([0.0, 1.0, 1.0, 0.2]), bins=[2, 3], weights=jnp.array([1.0, 2.0, 3.0, 4.0]), density=True)", np.histogram2d([1.0, 2.0, 3.0, 2.5], [0.0, 1.0, 1.0, 0.2], bins=[2, 3], weights=[1.0, 2.0, 3.0, 4.0], density=True)),
    ("jnp.histogramdd(jnp.array([[0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, 0.5, 1.0], [0.5, 0.0, 2.0]]), bins=(2, 2, 3))", np.histogramdd(np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, 0.5, 1.0], [0.5, 0.0, 2.0]]), bins=(2, 2, 3))),
    ("jnp.histogramdd(jnp.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.5]]), bins=2, range=[(0.0, 4.0), (0.0, 2.0)])", np.histogramdd(np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.5]]), bins=2, range=[(0.0, 4.0), (0.0, 2.0)])),
    ("jnp.block([[jnp.ones((2, 2)), jnp.zeros((2, 1))], [jnp.full((1, 3), 5.0)]])", np.block([[np.ones((2, 2)), np.zeros((2, 1))], [np.full((1, 3), 5.0)]])),
    ("jnp.block([jnp.array([1, 2]), 3, jnp.array([4])])", np.block([np.array([1, 2]), 3, np.array([4])])),
    ("jnp.block([[1, 2], [3, 4]])", np.block([[1, 2], [3, 4]])),
    ("jnp.block([[[jnp.ones((1, 1, 2))]], [[jnp.zeros((1, 1, 2))]]])", np.block([[[np.ones((1, 1, 2))]], [[np.zeros((1, 1, 2))]]])),
]

# casting.go and dtype_classes.go: NumPy's casting rules and names.
DT = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "float32", "float64", "complex64", "complex128"]
ALL = "[%s]" % ", ".join("jnp." + d for d in DT)
for d in DT:
    for casting in ["safe", "same_kind"]:
        cases.append(("[jnp.can_cast(jnp.%s, t, casting='%s') for t in %s]" % (d, casting, ALL),
                      [np.can_cast(getattr(np, d), getattr(np, t), casting=casting) for t in DT]))
cases += [
    ("jnp.can_cast(jnp.ones(2, dtype=jnp.int16), jnp.float32)", np.can_cast(np.ones(2, dtype=np.int16), np.float32)),
    ("[jnp.can_cast(jnp.float64, jnp.int8, casting=c) for c in ['no', 'equiv', 'unsafe']]", [np.can_cast(np.float64, np.int8, casting=c) for c in ['no', 'equiv', 'unsafe']]),
    ("[jnp.iterable(v) for v in [jnp.ones(2), jnp.array(1.0), 3, [1], (), 'ab']]", [np.iterable(v) for v in [np.ones(2), np.array(1.0), 3, [1], (), 'ab']]),
    ("[jnp.issubdtype(t, jnp.flexible) for t in %s]" % ALL, [np.issubdtype(getattr(np, t), np.flexible) for t in DT]),
    ("[jnp.issubdtype(jnp.character, c) for c in [jnp.flexible, jnp.generic, jnp.number]]", [np.issubdtype(np.character, c) for c in [np.flexible, np.generic, np.number]]),
    ("[jnp.zeros(1, dtype=t).dtype == jnp.dtype(n) for t, n in zip([jnp.single, jnp.double, jnp.float_, jnp.csingle, jnp.cdouble, jnp.complex_, jnp.int_], %r)]"
     % [np.dtype(t).name for t in [np.single, np.double, np.float_, np.csingle, np.cdouble, np.complex_, np.int_]], [True] * 7),
    ("jnp.euler_gamma", np.euler_gamma, "f64"),
]

# indextricks.go
R = "jnp.arange(10)"
r = np.arange(10)
G = "jnp.arange(12).reshape(3, 4)"
g = np.arange(12).reshape(3, 4)
cases += [
    ("jnp.mgrid[0:3, 0:4]", np.mgrid[0:3, 0:4]),
    ("jnp.mgrid[0:2, 1:4:2, 0:1]", np.mgrid[0:2, 1:4:2, 0:1]),
    ("jnp.mgrid[1:7:2]", np.mgrid[1:7:2]),
    ("jnp.mgrid[5:0:-2]", np.mgrid[5:0:-2]),
    ("jnp.mgrid[-4:-1]", np.mgrid[-4:-1]),
    ("jnp.mgrid[:3]", np.mgrid[:3]),
    ("jnp.mgrid[-3:3:2,]", np.mgrid[-3:3:2,]),
    ("jnp.ogrid[0:2, 0:3]", np.ogrid[0:2, 0:3]),
    ("jnp.ogrid[2:8:3]", np.ogrid[2:8:3]),
    ("jnp.r_[1:4, 7, jnp.array([9, 10])]", np.r_[1:4, 7, np.array([9, 10])]),
    ("jnp.r_[jnp.array([[1, 2]]), jnp.array([[3, 4]])]", np.r_[np.array([[1, 2]]), np.array([[3, 4]])]),
    ("jnp.r_[-2:2,]", np.r_[-2:2,]),
    ("jnp.c_[jnp.array([1, 2, 3]), jnp.array([4, 5, 6])]", np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])]),
    ("jnp.c_[jnp.ones((2, 2)), jnp.array([7.0, 8.0])]", np.c_[np.ones((2, 2)), np.array([7.0, 8.0])]),
    ("jnp.c_[0:3, 5:8]", np.c_[0:3, 5:8]),
    ("%s[jnp.s_[2:5]]" % R, r[np.s_[2:5]]),
    ("%s[jnp.s_[-3:]]" % R, r[np.s_[-3:]]),
    ("%s[jnp.s_[::-2]]" % R, r[np.s_[::-2]]),
    ("%s[jnp.s_[:-7]]" % R, r[np.s_[:-7]]),
    ("%s[jnp.s_[8:2:-3]]" % R, r[np.s_[8:2:-3]]),
    ("%s[jnp.s_[-2:-8:-2]]" % R, r[np.s_[-2:-8:-2]]),
    ("%s[jnp.s_[3]]" % R, r[np.s_[3]]),
    ("%s[jnp.s_[1:, ::2]]" % G, g[np.s_[1:, ::2]]),
    ("%s[jnp.s_[1:2,]]" % G, g[np.s_[1:2,]]),
    ("%s[jnp.index_exp[2:3]]" % G, g[np.index_exp[2:3]]),
]

# frombytes.go: bytes written out as a Starlark literal.
def blit(b):
    return 'b"' + "".join("\\x%02x" % c for c in b) + '"'
F64 = np.array([1.5, -2.25, 1e300]).tobytes()
I32 = np.array([7, -1, 65536], dtype=np.int32).tobytes()
cases += [
    ("jnp.frombuffer(%s)" % blit(F64), np.frombuffer(F64), "f64"),
    ("jnp.frombuffer(%s, dtype=jnp.int32)" % blit(I32), np.frombuffer(I32, dtype=np.int32)),
    ("jnp.frombuffer(%s, dtype=jnp.int16, count=3, offset=2)" % blit(I32), np.frombuffer(I32, dtype=np.int16, count=3, offset=2)),
    ("jnp.frombuffer(%s, dtype=jnp.uint8)" % blit(b"\x00\xff\x10"), np.frombuffer(b"\x00\xff\x10", dtype=np.uint8)),
    ("jnp.fromstring('1 2  3.5\\n-4e2', sep=' ')", np.fromstring('1 2  3.5\n-4e2', sep=' '), "f64"),
    ("jnp.fromstring('1, 2,3', dtype=jnp.int32, sep=',')", np.fromstring('1, 2,3', dtype=np.int32, sep=',')),
    ("jnp.fromstring('5 6 7 8', dtype=jnp.float32, count=2, sep=' ')", np.fromstring('5 6 7 8', dtype=np.float32, count=2, sep=' ')),
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
with open("jnp_more_cases.json", "w") as f:
    json.dump(out, f, indent=0)
    f.write("\n")
print(len(out), "cases")
