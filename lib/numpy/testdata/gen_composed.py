# Writes composed_cases.json: expressions over the jnp, nn and lax names that
# jaxsh composes in the dialect, with the values NumPy 1.24 / SciPy give for
# them. Run once with python3 (NumPy, SciPy); the tests never need Python.
#   /usr/bin/python3 gen_composed.py
# Each case: [jaxsh expression, value, flags]. flags: "eager" (the output
# shape depends on values: not run under jit), "f64" (compare at float64
# precision).
import json, math
import numpy as np
import scipy.special as sp

A = "jnp.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])"
a = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])
X = "jnp.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 4.0])"
x = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 4.0])
I = "jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3])"
i = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3])

def sig(v): return 1 / (1 + np.exp(-v))
def softplus(v): return np.logaddexp(v, 0)
def elu(v, alpha=1.0): return np.where(v > 0, v, alpha * np.expm1(np.minimum(v, 0)))

cases = [
    # jnp: arithmetic
    ("jnp.logaddexp(%s, 2.0)" % X, np.logaddexp(x, 2.0)),
    ("jnp.logaddexp(jnp.array([1000.0, -1000.0]), jnp.array([1000.0, -999.0]))", np.logaddexp([1000.0, -1000.0], [1000.0, -999.0])),
    ("jnp.logaddexp2(%s, 1.0)" % X, np.logaddexp2(x, 1.0)),
    ("jnp.radians(jnp.array([180.0, 90.0]))", np.radians([180.0, 90.0])),
    ("jnp.degrees(jnp.array([3.14159265, 1.0]))", np.degrees([3.14159265, 1.0])),
    ("jnp.isneginf(jnp.array([-jnp.inf, jnp.inf, 1.0]))", np.isneginf([-np.inf, np.inf, 1.0])),
    ("jnp.isposinf(jnp.array([-jnp.inf, jnp.inf, 1.0]))", np.isposinf([-np.inf, np.inf, 1.0])),
    ("jnp.signbit(jnp.array([-0.0, 0.0, -2.0, 3.0]))", np.signbit([-0.0, 0.0, -2.0, 3.0])),
    ("jnp.fmod(jnp.array([-7, 7, -7]), jnp.array([3, -3, -3]))", np.fmod([-7, 7, -7], [3, -3, -3])),
    ("jnp.fmod(jnp.array([-7.5, 7.5]), 2.0)", np.fmod([-7.5, 7.5], 2.0)),
    ("jnp.divmod(jnp.array([-7, 7]), 3)", np.divmod([-7, 7], 3)),
    ("jnp.heaviside(%s, 0.5)" % X, np.heaviside(x, 0.5)),
    ("jnp.float_power(jnp.array([2, 3]), 0.5)", np.float_power([2, 3], 0.5), "f64"),
    ("jnp.sinc(%s)" % X, np.sinc(x)),
    ("jnp.ldexp(jnp.array([1.5, -2.0]), jnp.array([3, -1]))", np.ldexp([1.5, -2.0], [3, -1])),
    ("jnp.modf(jnp.array([2.5, -3.75]))", np.modf([2.5, -3.75])),
    ("jnp.gcd(jnp.array([12, 18, -24, 0]), jnp.array([8, 12, 36, 5]))", np.gcd([12, 18, -24, 0], [8, 12, 36, 5])),
    ("jnp.lcm(jnp.array([4, 6, 0]), jnp.array([6, 4, 3]))", np.lcm([4, 6, 0], [6, 4, 3])),
    # jnp: shapes and stacking
    ("jnp.atleast_1d(3.0)", np.atleast_1d(3.0)),
    ("jnp.atleast_2d(jnp.array([1, 2]))", np.atleast_2d([1, 2])),
    ("jnp.atleast_3d(jnp.ones((2, 3))).shape", list(np.atleast_3d(np.ones((2, 3))).shape)),
    ("jnp.atleast_3d(jnp.array([1, 2])).shape", list(np.atleast_3d(np.array([1, 2])).shape)),
    ("jnp.append(jnp.array([1, 2]), jnp.array([[3, 4]]))", np.append([1, 2], [[3, 4]])),
    ("jnp.append(%s, jnp.ones((1, 3)), axis=0)" % A, np.append(a, np.ones((1, 3)), axis=0)),
    ("jnp.concat([jnp.array([1]), jnp.array([2, 3])])", np.concatenate([[1], [2, 3]])),
    ("jnp.column_stack([jnp.array([1, 2]), jnp.array([3, 4])])", np.column_stack([[1, 2], [3, 4]])),
    ("jnp.dstack([jnp.array([1, 2]), jnp.array([3, 4])])", np.dstack([[1, 2], [3, 4]])),
    ("jnp.unstack(%s, axis=1)" % A, list(np.moveaxis(a, 1, 0))),
    ("jnp.array_split(jnp.arange(7), 3)", np.array_split(np.arange(7), 3)),
    ("jnp.array_split(jnp.arange(7), [2, 5])", np.array_split(np.arange(7), [2, 5])),
    ("jnp.fliplr(%s)" % A, np.fliplr(a)),
    ("jnp.flipud(%s)" % A, np.flipud(a)),
    ("jnp.rot90(%s)" % A, np.rot90(a)),
    ("jnp.rot90(%s, k=2)" % A, np.rot90(a, k=2)),
    ("jnp.rot90(%s, k=3)" % A, np.rot90(a, k=3)),
    ("jnp.broadcast_shapes((2, 1), (3,), (1, 1, 1))", list(np.broadcast_shapes((2, 1), (3,), (1, 1, 1)))),
    ("jnp.copy(%s)" % A, a.copy()),
    ("jnp.astype(jnp.array([1.7, -2.2]), jnp.int32)", np.array([1.7, -2.2]).astype(np.int32)),
    # jnp: differences, statistics
    ("jnp.diff(jnp.array([1, 4, 9, 16, 25]))", np.diff([1, 4, 9, 16, 25])),
    ("jnp.diff(jnp.array([1, 4, 9, 16, 25]), n=2)", np.diff([1, 4, 9, 16, 25], n=2)),
    ("jnp.diff(%s, axis=0)" % A, np.diff(a, axis=0)),
    ("jnp.diff(jnp.array([1, 3]), prepend=0, append=jnp.array([10]))", np.diff([1, 3], prepend=0, append=[10])),
    ("jnp.diff(jnp.array([True, True, False]))", np.diff([True, True, False])),
    ("jnp.ediff1d(jnp.array([1, 2, 4]), to_begin=0, to_end=jnp.array([7, 8]))", np.ediff1d([1, 2, 4], to_begin=0, to_end=[7, 8])),
    ("jnp.average(%s)" % A, np.average(a)),
    ("jnp.average(%s, axis=1, weights=jnp.array([1.0, 2.0, 3.0]))" % A, np.average(a, axis=1, weights=[1.0, 2.0, 3.0])),
    ("jnp.average(%s, axis=0, weights=jnp.array([1.0, 3.0]), returned=True)" % A, np.average(a, axis=0, weights=[1.0, 3.0], returned=True)),
    ("jnp.ptp(%s, axis=1)" % A, np.ptp(a, axis=1)),
    ("jnp.trapezoid(jnp.array([1.0, 2.0, 4.0]))", np.trapz([1.0, 2.0, 4.0])),
    ("jnp.trapezoid(jnp.array([1.0, 2.0, 4.0]), x=jnp.array([0.0, 0.5, 2.0]))", np.trapz([1.0, 2.0, 4.0], x=[0.0, 0.5, 2.0])),
    ("jnp.trapezoid(%s, dx=0.5, axis=0)" % A, np.trapz(a, dx=0.5, axis=0)),
    ("jnp.cumulative_sum(jnp.array([1, 2, 3]), include_initial=True)", np.array([0, 1, 3, 6])),
    ("jnp.nansum(jnp.array([1.0, jnp.nan, 2.0]))", np.nansum([1.0, np.nan, 2.0])),
    ("jnp.nanprod(jnp.array([2.0, jnp.nan, 3.0]))", np.nanprod([2.0, np.nan, 3.0])),
    ("jnp.nanmax(jnp.array([[1.0, jnp.nan], [jnp.nan, jnp.nan]]), axis=1)", np.array([1.0, np.nan])),
    ("jnp.nanmin(jnp.array([4.0, jnp.nan, -1.0]))", np.nanmin([4.0, np.nan, -1.0])),
    ("jnp.nanmean(jnp.array([[1.0, jnp.nan, 3.0], [2.0, 2.0, 5.0]]), axis=1)", np.nanmean([[1.0, np.nan, 3.0], [2.0, 2.0, 5.0]], axis=1)),
    ("jnp.nanvar(jnp.array([1.0, jnp.nan, 3.0, 4.0]))", np.nanvar([1.0, np.nan, 3.0, 4.0])),
    ("jnp.nanstd(jnp.array([1.0, jnp.nan, 3.0, 4.0]), ddof=1)", np.nanstd([1.0, np.nan, 3.0, 4.0], ddof=1)),
    ("jnp.median(%s)" % A, np.median(a)),
    ("jnp.median(%s, axis=1)" % A, np.median(a, axis=1)),
    ("jnp.median(jnp.arange(6.0).reshape(2, 3), axis=0, keepdims=True)", np.median(np.arange(6.0).reshape(2, 3), axis=0, keepdims=True)),
    ("jnp.quantile(%s, jnp.array([0.1, 0.5, 0.9]))" % X, np.quantile(x, [0.1, 0.5, 0.9])),
    ("jnp.quantile(%s, 0.3, axis=1, method='lower')" % A, np.quantile(a, 0.3, axis=1, method="lower")),
    ("jnp.quantile(%s, 0.3, axis=1, method='higher')" % A, np.quantile(a, 0.3, axis=1, method="higher")),
    ("jnp.quantile(%s, 0.4, method='nearest')" % X, np.quantile(x, 0.4, method="nearest")),
    ("jnp.quantile(%s, 0.25, method='midpoint')" % X, np.quantile(x, 0.25, method="midpoint")),
    ("jnp.percentile(jnp.arange(10.0), 25)", np.percentile(np.arange(10.0), 25)),
    ("jnp.nanmedian(jnp.array([1.0, jnp.nan, 3.0, 2.0]))", np.nanmedian([1.0, np.nan, 3.0, 2.0])),
    ("jnp.nanpercentile(jnp.array([1.0, jnp.nan, 3.0, 2.0]), 75)", np.nanpercentile([1.0, np.nan, 3.0, 2.0], 75)),
    ("jnp.cov(%s)" % A, np.cov(a)),
    ("jnp.cov(%s, rowvar=False, bias=True)" % A, np.cov(a, rowvar=False, bias=True)),
    ("jnp.corrcoef(%s)" % A, np.corrcoef(a)),
    # jnp: products, polynomials, ranges
    ("jnp.kron(jnp.array([[1, 2], [3, 4]]), jnp.array([[0, 1], [1, 0]]))", np.kron([[1, 2], [3, 4]], [[0, 1], [1, 0]])),
    ("jnp.kron(jnp.array([1, 10]), jnp.array([1, 2, 3]))", np.kron([1, 10], [1, 2, 3])),
    ("jnp.cross(jnp.array([1.0, 2.0, 3.0]), jnp.array([4.0, 5.0, 6.0]))", np.cross([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])),
    ("jnp.cross(jnp.array([[1.0, 2.0], [0.0, 1.0]]), jnp.array([[3.0, 4.0], [1.0, 0.0]]))", np.cross([[1.0, 2.0], [0.0, 1.0]], [[3.0, 4.0], [1.0, 0.0]])),
    ("jnp.polyval(jnp.array([3.0, 0.0, -1.0]), %s)" % X, np.polyval([3.0, 0.0, -1.0], x)),
    ("jnp.vander(jnp.array([1, 2, 3]), 3)", np.vander([1, 2, 3], 3)),
    ("jnp.vander(jnp.array([1, 2, 3]), increasing=True)", np.vander([1, 2, 3], increasing=True)),
    ("jnp.logspace(0.0, 2.0, 5)", np.logspace(0.0, 2.0, 5)),
    ("jnp.logspace(1.0, 3.0, 3, base=2.0, endpoint=False)", np.logspace(1.0, 3.0, 3, base=2.0, endpoint=False)),
    ("jnp.geomspace(1.0, 1000.0, 4)", np.geomspace(1.0, 1000.0, 4)),
    ("jnp.geomspace(-2.0, -32.0, 5)", np.geomspace(-2.0, -32.0, 5)),
    # jnp: indices
    ("jnp.tril_indices(3)", np.tril_indices(3)),
    ("jnp.triu_indices(3, k=1)", np.triu_indices(3, k=1)),
    ("jnp.triu_indices(2, m=4)", np.triu_indices(2, m=4)),
    ("jnp.tril_indices_from(jnp.ones((3, 2)), k=-1)", np.tril_indices_from(np.ones((3, 2)), k=-1)),
    ("jnp.diag_indices(3)", np.diag_indices(3)),
    ("jnp.unravel_index(jnp.array([0, 5, 11]), (3, 4))", np.unravel_index([0, 5, 11], (3, 4))),
    ("jnp.ravel_multi_index((jnp.array([0, 1, 2]), jnp.array([3, 1, 0])), (3, 4))", np.ravel_multi_index(([0, 1, 2], [3, 1, 0]), (3, 4))),
    ("jnp.ravel_multi_index((jnp.array([4, -1]), jnp.array([5, 2])), (3, 4), mode='clip')", np.ravel_multi_index(([4, -1], [5, 2]), (3, 4), mode="clip")),
    ("jnp.nonzero(jnp.array([[0, 1, 0], [2, 0, 3]]))", np.nonzero([[0, 1, 0], [2, 0, 3]]), "eager"),
    ("jnp.nonzero(jnp.array([0, 7, 0, 8]), size=3, fill_value=-1)", (np.array([1, 3, -1]),)),
    ("jnp.flatnonzero(jnp.array([[0, 1], [2, 0]]))", np.flatnonzero([[0, 1], [2, 0]]), "eager"),
    ("jnp.argwhere(jnp.array([[0, 1], [2, 0]]))", np.argwhere([[0, 1], [2, 0]]), "eager"),
    ("jnp.argwhere(jnp.array([0, 5, 0]), size=2)", np.array([[1], [0]])),
    ("jnp.searchsorted(jnp.array([1, 2, 2, 3, 5]), jnp.array([0, 2, 4, 6]))", np.searchsorted([1, 2, 2, 3, 5], [0, 2, 4, 6])),
    ("jnp.searchsorted(jnp.array([1, 2, 2, 3, 5]), jnp.array([0, 2, 4, 6]), side='right')", np.searchsorted([1, 2, 2, 3, 5], [0, 2, 4, 6], side="right")),
    ("jnp.searchsorted(jnp.array([3.0, 1.0, 2.0]), 2.5, sorter=jnp.array([1, 2, 0]))", np.searchsorted([3.0, 1.0, 2.0], 2.5, sorter=[1, 2, 0])),
    ("jnp.digitize(jnp.array([0.2, 6.4, 3.0, 1.6]), jnp.array([0.0, 1.0, 2.5, 4.0, 10.0]))", np.digitize([0.2, 6.4, 3.0, 1.6], [0.0, 1.0, 2.5, 4.0, 10.0])),
    ("jnp.digitize(jnp.array([0.2, 6.4, 3.0, 1.6]), jnp.array([10.0, 4.0, 2.5, 1.0, 0.0]), right=True)", np.digitize([0.2, 6.4, 3.0, 1.6], [10.0, 4.0, 2.5, 1.0, 0.0], right=True)),
    ("jnp.interp(jnp.array([-1.0, 0.5, 1.5, 2.5]), jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 10.0, 5.0]))", np.interp([-1.0, 0.5, 1.5, 2.5], [0.0, 1.0, 2.0], [0.0, 10.0, 5.0])),
    ("jnp.interp(jnp.array([0.5, 3.0]), jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0]), left=-1.0, right=9.0)", np.interp([0.5, 3.0], [0.0, 1.0], [1.0, 2.0], left=-1.0, right=9.0)),
    ("jnp.bincount(%s)" % I, np.bincount(i), "eager"),
    ("jnp.bincount(jnp.array([0, 1, 1, 3]), weights=jnp.array([0.5, 1.0, 2.0, 4.0]), length=5)", np.bincount([0, 1, 1, 3], weights=[0.5, 1.0, 2.0, 4.0], minlength=5)),
    ("jnp.isin(%s, jnp.array([1, 5, 7]))" % I, np.isin(i, [1, 5, 7])),
    ("jnp.isin(%s, jnp.array([1, 5, 7]), invert=True)" % I, np.isin(i, [1, 5, 7], invert=True)),
    ("jnp.unique(%s)" % I, np.unique(i), "eager"),
    ("jnp.unique(%s, return_index=True, return_inverse=True, return_counts=True)" % I, np.unique(i, return_index=True, return_inverse=True, return_counts=True), "eager"),
    ("jnp.unique(%s, size=9, fill_value=0)" % I, np.concatenate([np.unique(i), [0, 0]])),
    ("jnp.unique(jnp.array([[2.0, 1.0], [2.0, 3.0]]))", np.unique([[2.0, 1.0], [2.0, 3.0]]), "eager"),
    ("jnp.select([%s < 0, %s > 1], [%s * 10, -%s], default=7.0)" % (X, X, X, X), np.select([x < 0, x > 1], [x * 10, -x], default=7.0)),
    # dtype functions (JAX's answers; NumPy agrees on these)
    ("jnp.issubdtype(jnp.int8, jnp.integer)", True),
    ("jnp.issubdtype(jnp.float16, jnp.inexact)", True),
    ("jnp.issubdtype(jnp.uint32, jnp.signedinteger)", False),
    ("jnp.issubdtype(jnp.complex64, jnp.floating)", False),
    ("jnp.issubdtype(jnp.bool_, jnp.number)", False),
    ("jnp.issubdtype(jnp.floating, jnp.number)", True),
    ("jnp.issubdtype(jnp.array([1.0]).dtype, jnp.floating)", True),
    ("jnp.isdtype(jnp.int16, 'integral')", True),
    ("jnp.isdtype(jnp.float32, ('bool', 'complex floating'))", False),
    ("jnp.shape(jnp.ones((2, 3)))", [2, 3]),
    ("jnp.shape([[1, 2], [3, 4], [5, 6]])", [3, 2]),
    ("jnp.ndim(2.0)", 0),
    ("jnp.size(jnp.ones((2, 3)), axis=0)", 2),
    ("jnp.size([[1, 2, 3]])", 3),
    ("jnp.isscalar(3.0)", True),
    ("jnp.isscalar(jnp.array(3.0))", True),
    ("jnp.isscalar(jnp.array([3.0]))", False),
    ("jnp.dtype('int16') == jnp.int16", True),
    # lax conveniences
    ("lax.slice_in_dim(jnp.arange(10), 2, -2)", np.arange(10)[2:-2]),
    ("lax.slice_in_dim(%s, 0, 3, stride=2, axis=1)" % A, a[:, 0:3:2]),
    ("lax.index_in_dim(%s, -1, axis=1, keepdims=False)" % A, a[:, -1]),
    ("lax.dynamic_slice_in_dim(jnp.arange(10), jnp.array(7), 4)", np.arange(6, 10)),
    ("lax.dynamic_index_in_dim(%s, 1, axis=0)" % A, a[1:2]),
    ("lax.dynamic_update_slice_in_dim(jnp.zeros(5), jnp.ones(2), 2, 0)", np.array([0.0, 0.0, 1.0, 1.0, 0.0])),
    ("lax.dynamic_update_index_in_dim(jnp.zeros((2, 3)), jnp.ones(3), 1, 0)", np.array([[0.0] * 3, [1.0] * 3])),
    ("lax.broadcasted_iota(jnp.int32, (2, 3), 1)", np.broadcast_to(np.arange(3), (2, 3))),
    # nn activations (jax.nn's definitions)
    ("nn.softplus(%s)" % X, softplus(x)),
    ("nn.soft_sign(%s)" % X, x / (np.abs(x) + 1)),
    ("nn.log_sigmoid(%s)" % X, -softplus(-x)),
    ("nn.swish(%s)" % X, x * sig(x)),
    ("nn.relu6(jnp.array([-1.0, 3.0, 7.5]))", np.array([0.0, 3.0, 6.0])),
    ("nn.hard_sigmoid(%s)" % X, np.minimum(np.maximum(x + 3, 0), 6) / 6),
    ("nn.hard_silu(%s)" % X, x * np.minimum(np.maximum(x + 3, 0), 6) / 6),
    ("nn.hard_swish(%s)" % X, x * np.minimum(np.maximum(x + 3, 0), 6) / 6),
    ("nn.hard_tanh(%s)" % X, np.clip(x, -1, 1)),
    ("nn.elu(%s)" % X, elu(x)),
    ("nn.elu(%s, alpha=0.5)" % X, elu(x, 0.5)),
    ("nn.celu(%s, alpha=2.0)" % X, np.maximum(x, 0) + 2.0 * np.expm1(np.minimum(x, 0) / 2.0)),
    ("nn.selu(%s)" % X, 1.0507009873554804934193349852946 * elu(x, 1.6732632423543772848170429916717)),
    ("nn.leaky_relu(%s)" % X, np.where(x >= 0, x, 0.01 * x)),
    ("nn.leaky_relu(%s, negative_slope=0.2)" % X, np.where(x >= 0, x, 0.2 * x)),
    ("nn.glu(%s, axis=0)" % A, a[:1] * sig(a[1:])),
    ("nn.log1mexp(jnp.array([0.1, 0.5, 2.0, 30.0]))", np.log(-np.expm1(-np.array([0.1, 0.5, 2.0, 30.0])))),
    ("nn.tanh(%s)" % X, np.tanh(x)),
    ("nn.identity(%s)" % X, x),
    ("nn.mish(%s)" % X, x * np.tanh(softplus(x))),
    ("nn.squareplus(%s)" % X, (x + np.sqrt(x * x + 4)) / 2),
    ("nn.sparse_plus(%s)" % X, np.where(x <= -1, 0, np.where(x >= 1, x, (x + 1) ** 2 / 4))),
    ("nn.sparse_sigmoid(%s)" % X, np.where(x <= -1, 0, np.where(x >= 1, 1, (x + 1) / 2))),
    ("nn.logmeanexp(%s)" % X, np.log(np.mean(np.exp(x)))),
    ("nn.logmeanexp(jnp.array([[1000.0, 1001.0], [-5.0, 2.0]]), axis=1, keepdims=True)", [[np.logaddexp(1000.0, 1001.0) - np.log(2.0)], [np.logaddexp(-5.0, 2.0) - np.log(2.0)]]),
    ("nn.logmeanexp(%s, axis=1, where=%s > 0)" % (A, A), [np.log(np.mean(np.exp(r[r > 0]))) for r in a]),
    ("nn.standardize(%s)" % A, (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5)),
    ("nn.standardize(%s, axis=0, epsilon=0.0)" % A, (a - a.mean(0)) / a.std(0)),
]

def attention(q, k, v, causal):
    logits = np.einsum("BTNH,BSNH->BNTS", q, k) / np.sqrt(q.shape[-1])
    if causal:
        t = logits.shape[-1]
        logits = np.where(np.tril(np.ones((t, t), bool)), logits, -1e30)
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    return np.einsum("BNTS,BSNH->BTNH", p, v)

q = np.arange(2 * 3 * 2 * 4, dtype=float).reshape(2, 3, 2, 4) / 20.0
k = np.cos(q)
v = np.sin(q)
Q = "(jnp.arange(48.0).reshape(2, 3, 2, 4) / 20.0)"
cases.append(("nn.dot_product_attention(%s, jnp.cos(%s), jnp.sin(%s))" % (Q, Q, Q), attention(q, k, v, False)))
cases.append(("nn.dot_product_attention(%s, jnp.cos(%s), jnp.sin(%s), is_causal=True)" % (Q, Q, Q), attention(q, k, v, True)))
cases.append(("nn.dot_product_attention(%s[0], jnp.cos(%s)[0], jnp.sin(%s)[0])" % (Q, Q, Q), attention(q[:1], k[:1], v[:1], False)[0]))

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
with open("composed_cases.json", "w") as f:
    json.dump(out, f, indent=0)
    f.write("\n")
print(len(out), "cases")
