// Package numpy is jaxsh's jnp module: NumPy's array functions on jaxsh
// arrays as jax.numpy offers them (SPEC §3), with jnp.linalg. Every
// function is a composition of primitives bound through package starlark
// (one code path eagerly and under jit); the ufuncs registered here are also
// what the array operators call, and the array methods that mirror a jnp
// function (x.sum, x.reshape, ...) call this module's members.
//
// Members (docs/builtins.md is generated from this table):
//
//	| group | names |
//	|---|---|
//	| dtypes | `bool bool_ int8 int16 int32 int64 uint8 uint16 uint32 float16 bfloat16 float32 float64 complex64 complex128` |
//	| NumPy's other dtype names (the 64-bit ones, as with 64-bit types on) | `single double float_ csingle cdouble complex_ int_` |
//	| constants | `pi e euler_gamma inf nan newaxis` |
//	| dtype helpers | `promote_types result_type finfo iinfo can_cast iterable` |
//	| printing (NumPy's options, for the whole process as NumPy's are) | `set_printoptions get_printoptions array_str array_repr` |
//	| creation | `array asarray zeros ones full empty zeros_like ones_like full_like empty_like arange linspace eye identity meshgrid indices tri` |
//	| arithmetic | `add subtract multiply divide true_divide floor_divide mod remainder power negative positive abs absolute sign reciprocal square sqrt cbrt` |
//	| rounding | `floor ceil round rint trunc clip` |
//	| exponents and logs | `exp exp2 expm1 log log2 log10 log1p` |
//	| trigonometric, hyperbolic | `sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh hypot deg2rad rad2deg` |
//	| comparisons, min/max | `equal not_equal less less_equal greater greater_equal maximum minimum fmax fmin` |
//	| logical, bitwise | `logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor invert left_shift right_shift` |
//	| floating point | `isnan isinf isfinite copysign nan_to_num isclose allclose array_equal where` |
//	| reductions (`axis` int or tuple, `keepdims`) | `sum prod mean var std max amax min amin argmax argmin all any cumsum cumprod count_nonzero` |
//	| shape | `reshape ravel transpose moveaxis swapaxes expand_dims squeeze broadcast_to broadcast_arrays concatenate stack hstack vstack split tile repeat flip roll pad` |
//	| indexing, sorting | `take take_along_axis diag diagonal triu tril sort argsort` |
//	| complex numbers (also the array attributes x.real, x.imag and method x.conj()) | `real imag conj conjugate angle iscomplexobj` |
//	| Fourier transforms (n, axis or axes, s, norm) | `jnp.fft.fft jnp.fft.ifft jnp.fft.fft2 jnp.fft.ifft2 jnp.fft.fftn jnp.fft.ifftn jnp.fft.rfft jnp.fft.irfft jnp.fft.rfft2 jnp.fft.irfft2 jnp.fft.rfftn jnp.fft.irfftn jnp.fft.hfft jnp.fft.ihfft jnp.fft.fftfreq jnp.fft.rfftfreq jnp.fft.fftshift jnp.fft.ifftshift` |
//	| dtype classes and queries | `generic number integer signedinteger unsignedinteger inexact floating complexfloating flexible character dtype issubdtype isdtype shape size ndim isscalar` |
//	| composed in the dialect (composed.star): arithmetic | `logaddexp logaddexp2 radians degrees isneginf isposinf signbit fmod divmod heaviside float_power sinc ldexp modf gcd lcm` |
//	| composed: shapes and stacking | `atleast_1d atleast_2d atleast_3d append concat column_stack dstack unstack array_split fliplr flipud rot90 broadcast_shapes copy astype` |
//	| composed: differences and statistics | `diff ediff1d average ptp trapezoid cumulative_sum nansum nanprod nanmax nanmin nanmean nanvar nanstd median quantile percentile nanmedian nanquantile nanpercentile cov corrcoef` |
//	| composed: products, polynomials, ranges | `kron cross polyval vander logspace geomspace` |
//	| composed: indices and searching (`size=`, `fill_value=` under jit) | `tril_indices triu_indices tril_indices_from triu_indices_from diag_indices diag_indices_from unravel_index ravel_multi_index nonzero flatnonzero argwhere searchsorted digitize interp bincount isin in1d unique select` |
//	| the array API's names (aliases.star) | `acos acosh asin asinh atan atanh atan2 bitwise_invert bitwise_not bitwise_left_shift bitwise_right_shift pow permute_dims matrix_transpose around fabs` |
//	| aliases.star: complex parts, shapes, products | `iscomplex isreal isrealobj array_equiv vsplit hsplit dsplit rollaxis diagflat ix_ mask_indices vecdot matvec vecmat` |
//	| aliases.star: cumulative, NaN-skipping, floating point | `cumulative_prod nancumsum nancumprod nanargmax nanargmin nextafter spacing frexp unwrap gradient` |
//	| aliases.star: applying functions | `apply_along_axis apply_over_axes fromfunction` |
//	| set operations (setops.star; `size=`, `fill_value=` under jit) | `union1d setdiff1d setxor1d intersect1d unique_values unique_counts unique_inverse unique_all` |
//	| setops.star: selections and updates (`inplace=False` where NumPy writes in place) | `extract compress delete insert place put put_along_axis fill_diagonal trim_zeros resize choose piecewise` |
//	| setops.star: orderings and bits | `lexsort partition argpartition sort_complex top_k bitwise_count packbits unpackbits` |
//	| polynomials and convolution (polyhist.star) | `convolve correlate polyadd polysub polymul polyder polyint polydiv poly polyfit roots` |
//	| index tricks (subscripted: `jnp.mgrid[0:3, 0:4]`; integer bounds) | `mgrid ogrid r_ c_ s_ index_exp` |
//	| polyhist.star: windows, histograms, block | `bartlett hanning hamming blackman kaiser i0 histogram_bin_edges histogram histogram2d histogramdd block` |
//	| linear algebra | `dot matmul vdot inner outer tensordot einsum trace` |
//	| jnp.linalg (batched over leading axes; float32, float64, complex64 and complex128) | `jnp.linalg.inv jnp.linalg.solve jnp.linalg.det jnp.linalg.slogdet jnp.linalg.cholesky jnp.linalg.qr jnp.linalg.svd jnp.linalg.svdvals jnp.linalg.eigh jnp.linalg.eigvalsh jnp.linalg.eig jnp.linalg.eigvals jnp.linalg.lstsq jnp.linalg.pinv jnp.linalg.matrix_power jnp.linalg.matrix_rank jnp.linalg.norm jnp.linalg.matrix_norm jnp.linalg.vector_norm jnp.linalg.cond jnp.linalg.multi_dot jnp.linalg.cross jnp.linalg.outer jnp.linalg.tensorinv jnp.linalg.tensorsolve jnp.linalg.trace jnp.linalg.diagonal jnp.linalg.matmul jnp.linalg.matrix_transpose jnp.linalg.vecdot` |
//	| function transformations | `vectorize` |
//	| files (through the file policy) | `save load savez savez_compressed loadtxt savetxt` |
//	| from bytes and text (dtype float64 by default, NumPy's float) | `frombuffer fromstring` |
//	| linear algebra | `dot matmul vdot inner outer tensordot einsum trace`; `jnp.linalg.norm` |
package numpy
