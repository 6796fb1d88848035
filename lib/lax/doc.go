// Package lax is jaxsh's lax module: XLA-level operations as jax.lax offers
// them (SPEC §3) — structured control flow traced into sub-jaxprs through
// package starlark's tracing API, structural operations, dot_general and
// the elementwise primitives without NumPy's promotion.
//
// Members (docs/builtins.md is generated from this table):
//
//	| name | what |
//	|---|---|
//	| `fori_loop(lower, upper, body_fun, init_val, unroll=1)` | `body_fun(i, val)` for i in [lower, upper); traced bounds make a while loop |
//	| `while_loop(cond_fun, body_fun, init_val)` | loop while `cond_fun(val)` |
//	| `cond(pred, true_fun, false_fun, *operands)` | run one of two functions |
//	| `switch(index, branches, *operands)` | run `branches[index]`, index clamped into range |
//	| `scan(f, init, xs, length=None, reverse=False, unroll=1)` | `f(carry, x) -> (carry, y)` over the leading axis; returns `(carry, ys)` |
//	| `map(f, xs)` | `f` over the leading axis, one at a time |
//	| `optimization_barrier(x)` | stops fusion and CSE across it; returns `x` (a pytree) |
//	| `stop_gradient(x)` | identity whose derivatives are zero |
//	| `select(pred, on_true, on_false)` | elementwise choice, same shapes |
//	| `dynamic_slice(x, start_indices, slice_sizes)` | slice with traced starts, clamped |
//	| `dynamic_update_slice(x, update, start_indices)` | write a block at traced starts, clamped |
//	| `slice(x, start_indices, limit_indices, strides=None)` | static slice |
//	| `pad(x, padding_value, padding_config)` | `(low, high, interior)` per axis |
//	| `concatenate(operands, dimension)` | join along an axis |
//	| `reshape(x, new_sizes)`, `transpose(x, permutation)`, `squeeze(x, dimensions)`, `expand_dims(x, dimensions)`, `rev(x, dimensions)` | shape operations |
//	| `broadcast_in_dim(x, shape, broadcast_dimensions)` | place `x`'s axes among `shape`'s |
//	| `iota(dtype, size)` | `0 ... size-1` |
//	| `convert_element_type(x, new_dtype)` | cast |
//	| `reduce_precision(x, exponent_bits, mantissa_bits)` | round to a narrower float format |
//	| `dot_general(lhs, rhs, dimension_numbers)` | `(((lhs_contract), (rhs_contract)), ((lhs_batch), (rhs_batch)))` |
//	| `add sub mul div rem pow max min neg` | binary and unary arithmetic (`div`, `rem`: C semantics, truncating) |
//	| `abs sign floor ceil round exp log sin cos tanh sqrt rsqrt erf` | elementwise functions; `round(x, rounding_method)` |
//	| `complex(x, y)`, `real(x)`, `imag(x)`, `conj(x)` | complex numbers from float32/float64 parts, and their parts |
//	| `RoundingMethod` | `AWAY_FROM_ZERO` (0), `TO_NEAREST_EVEN` (1) |
//	| `tan asin acos atan sinh cosh asinh acosh atanh exp2 expm1 log1p logistic cbrt erfc erf_inv is_finite square population_count bitwise_not` | more elementwise functions, one primitive each |
//	| `lgamma digamma` | `(x)`: log abs(Gamma(x)) and its derivative (special.star: float64 inside, rounded once) |
//	| `igamma igammac igamma_grad_a random_gamma_grad` | `(a, x)`: regularized incomplete gamma P and Q = 1 - P, dP/da, and the derivative of a Gamma(a) sample in a; igamma/igammac differentiable in a and x |
//	| `betainc(a, b, x)` | regularized incomplete beta; differentiable in x, and in a and b (where JAX raises) through its continued fraction |
//	| `zeta(x, q)`, `polygamma(m, x)` | Hurwitz zeta; the m-th derivative of digamma |
//	| `bessel_i0e bessel_i1e` | `(x)`: exponentially scaled modified Bessel functions of orders 0 and 1 |
//	| `atan2 nextafter bitwise_and bitwise_or bitwise_xor shift_left shift_right_arithmetic shift_right_logical` | more binary operations, one primitive each |
//	| `slice_in_dim index_in_dim dynamic_slice_in_dim dynamic_index_in_dim dynamic_update_slice_in_dim dynamic_update_index_in_dim` | the slicing operations along one axis (composed.star) |
//	| `broadcasted_iota(dtype, shape, dimension)` | an iota along one dimension of shape |
//	| `sort(operand, dimension=-1, is_stable=True, num_keys=1)` | sort one array, or a tuple of arrays by its first `num_keys` (lexicographically) |
//	| `sort_key_val(keys, values, dimension=-1, is_stable=True)` | sort values by keys |
//	| `top_k(operand, k)` | the `k` largest along the last axis, largest first, and their indices; equal values lowest index first |
//	| `cumsum cumprod cummax cummin` | `(operand, axis=0, reverse=False)`: running reductions, one primitive each |
//	| `cumlogsumexp(operand, axis=0, reverse=False)` | running `log(sum(exp(x)))` (composed.star) |
//	| `associative_scan(fn, elems, reverse=False, axis=0)` | all prefix combinations under an associative `fn`, by the parallel prefix scan: O(log n) levels (composed.star) |
//	| `clamp(min, x, max)` | `x` limited to `[min, max]`; `min`, `max` scalars or of `x`'s shape |
//	| `bitcast_convert_type(operand, new_dtype)` | the same bits as another dtype (a narrower one adds a trailing axis) |
//	| `reduce_window(operand, init_value, computation, window_dimensions, window_strides, padding, base_dilation=None, window_dilation=None)` | `computation` (`lax.add`, `lax.max`, `lax.min`, any elementwise function of two arrays) folded over each window from `init_value`, one strided slice per window offset (composed.star) |
//	| `padtype_to_pads(in_shape, window_shape, window_strides, padding)` | the `(low, high)` pads of `'SAME'`, `'SAME_LOWER'`, `'VALID'` |
//	| `conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None, dimension_numbers=None, feature_group_count=1, batch_group_count=1, precision=None, preferred_element_type=None)` | N-d convolution (cross-correlation); dimension_numbers as spec strings such as `('NHWC', 'HWIO', 'NHWC')` or permutations; one dot_general per kernel offset (composed.star); batch_group_count > 1 is not supported yet |
//	| `conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None)` | conv_general_dilated in NC.../OI... layouts |
//	| `conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None, transpose_kernel=False, precision=None)` | the transposed convolution: the input dilated by `strides`, padded by JAX's rule for `'SAME'`/`'VALID'` (or explicit pairs), then convolved; TensorFlow's layouts by default (NWC/WIO, NHWC/HWIO, ...) (composed.star) |
//	| `conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, precision=None)` | conv_general_dilated in NC.../OI... layouts |
//	| `reduce_sum reduce_prod reduce_max reduce_min reduce_and reduce_or` | `(operand, axes)`: one reduction primitive each |
//	| `reduce_xor(operand, axes)` | bitwise xor over axes, through `reduce` (more.star) |
//	| `reduce(operands, init_values, computation, dimensions)` | fold over dimensions with any associative jaxsh function of two arrays (or two tuples, for several operands), by halving each axis: O(log n) calls; `init_values` enters once (more.star) |
//	| `argmax argmin` | `(operand, axis, index_dtype)` |
//	| `eq ne lt le gt ge` | comparisons of operands of one dtype |
//	| `integer_pow(x, y)` | `x` to a static integer power |
//	| `select_n(which, *cases)` | `cases[which]` elementwise; `which` boolean (two cases) or int32 |
//	| `full(shape, fill_value, dtype=None)`, `full_like(x, fill_value, dtype=None, shape=None)` | filled arrays (more.star) |
//	| `broadcast(operand, sizes)`, `broadcast_to_rank(x, rank)`, `collapse(operand, start_dimension, stop_dimension=None)`, `split(operand, sizes, axis=0)` | new leading axes, merged axes, pieces (more.star) |
//	| `reciprocal(x)`, `clz(x)` | `1 / x`; leading zero bits of integers (more.star) |
//	| `dot(lhs, rhs, precision=None, preferred_element_type=None)`, `batch_matmul(lhs, rhs, precision=None)` | products of 1-D/2-D operands; matrix products batched over leading axes (more.star) |
//	| `rng_bit_generator(key, shape, dtype=uint32, algorithm=RandomAlgorithm.RNG_DEFAULT)` | `(new_key, bits)`: XLA's RngBitGenerator for a uint32[4] key with Philox4x32-10, what XLA's CPU and GPU run for RNG_DEFAULT; uint8/uint16/uint32 (more.star) |
//	| `RandomAlgorithm` | `RNG_DEFAULT` (0), `RNG_THREE_FRY` (1, not supported yet), `RNG_PHILOX` (2) |
//	| `conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)`, `ConvDimensionNumbers(lhs_spec, rhs_spec, out_spec)` | dimension numbers as the three permutations conv_general_dilated also takes (a tuple; composed.star) |
//	| `broadcast_shapes(*shapes)`, `empty(shape, dtype)` | the broadcast shape; an array whose values do not matter (zeros) (more.star) |
//	| `stack(operands, axis=0)`, `unstack(x, axis=0)`, `tile(operand, reps)`, `index_take(src, idxs, axes)`, `dtype(x)` | joining along a new axis, slices, repeats, gathering at wrapped indices along axes; the dtype of a value (more.star) |
//	| `approx_max_k approx_min_k` | `(operand, k, reduction_dimension=-1, recall_target=0.95, ...)`: the k largest or smallest and their indices; exact, as XLA computes them on CPU (more.star) |
//	| `Precision` | `DEFAULT`, `HIGH`, `HIGHEST`: for `precision=` of `dot_general` and jnp's `dot`, `matmul`, `einsum` |
package lax
