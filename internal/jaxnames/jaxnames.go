// Package jaxnames lists the public names of JAX's modules that programs
// commonly use, so that a name jaxsh does not have yet is reported as
// exactly that ("jax.scipy.signal is not in jaxsh yet") rather than as a
// typo. It is a list of facts about JAX, not an implementation.
package jaxnames

import (
	_ "embed"
	"strconv"
	"strings"
)

// Has reports whether JAX's module (a dotted path: "jax", "jax.numpy",
// "jax.numpy.linalg") has the member name.
func Has(module, name string) bool {
	return members[module][name]
}

// IsModule reports whether path names a module of JAX.
func IsModule(path string) bool {
	_, ok := members[path]
	return ok
}

var members = map[string]map[string]bool{}

// A Name is one public name of a JAX module with how many of the surveyed
// JAX-based repositories and files reference it (-1 where not counted).
type Name struct {
	Name         string
	Repos, Files int
}

// publicNames is the complete list of the public names of jax.numpy,
// jax.numpy.linalg, jax.numpy.fft, jax.nn, jax.lax and jax.random.
//
//go:embed public_names.txt
var publicNames string

var public = map[string][]Name{}

// Public lists every public name of JAX's module (one of those in
// public_names.txt), sorted by name; nil for another module.
func Public(module string) []Name {
	return public[module]
}

// PublicModules lists the modules Public knows completely.
func PublicModules() []string {
	var mods []string
	for m := range public {
		mods = append(mods, m)
	}
	return mods
}

func count(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

func init() {
	for _, line := range strings.Split(publicNames, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || strings.HasPrefix(f[0], "#") {
			continue
		}
		public[f[0]] = append(public[f[0]], Name{f[1], count(f[2]), count(f[3])})
	}
	for module, names := range lists {
		set := map[string]bool{}
		for _, n := range strings.Fields(names) {
			set[n] = true
		}
		members[module] = set
		// Every listed module is a member of its parent.
		if i := strings.LastIndexByte(module, '.'); i >= 0 {
			if members[module[:i]] == nil {
				members[module[:i]] = map[string]bool{}
			}
		}
	}
	for module, names := range public {
		if members[module] == nil {
			members[module] = map[string]bool{}
		}
		for _, n := range names {
			members[module][n.Name] = true
		}
	}
	for module := range lists {
		if i := strings.LastIndexByte(module, '.'); i >= 0 {
			members[module[:i]][module[i+1:]] = true
		}
	}
}

var lists = map[string]string{
	"jax": `jit grad value_and_grad vmap pmap jvp vjp linearize linear_transpose jacfwd jacrev
		jacobian hessian checkpoint remat custom_jvp custom_vjp custom_gradient closure_convert
		eval_shape make_jaxpr device_put device_put_replicated device_put_sharded device_get
		devices local_devices device_count local_device_count process_index process_count
		default_backend block_until_ready effects_barrier ShapeDtypeStruct Array Device
		named_call named_scope ensure_compile_time_eval disable_jit config pure_callback
		clear_caches live_arrays make_mesh print_environment_info float0 typeof
		tree_map tree_leaves tree_structure tree_flatten tree_unflatten
		dtypes typing sharding experimental profiler stages export ffi image ops errors
		monitoring distributed`,
	"jax.numpy": `abs absolute add all allclose amax amin angle any append apply_along_axis
		apply_over_axes arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin
		argpartition argsort argwhere around array array_equal array_equiv array_split asarray
		atleast_1d atleast_2d atleast_3d average bartlett bincount bitwise_and bitwise_count
		bitwise_not bitwise_or bitwise_xor blackman block bool bool_ broadcast_arrays
		broadcast_shapes broadcast_to can_cast cbrt ceil choose clip column_stack complex64
		complex128 compress concatenate conj conjugate convolve copy copysign corrcoef correlate
		cos cosh count_nonzero cov cross cumprod cumsum cumulative_sum deg2rad degrees delete
		diag diag_indices diag_indices_from diagflat diagonal diff digitize divide divmod dot
		dsplit dstack dtype e ediff1d einsum einsum_path empty empty_like equal exp exp2
		expand_dims expm1 extract eye fabs fft fill_diagonal finfo fix flatnonzero flip fliplr
		flipud float16 float32 float64 float_power floor floor_divide fmax fmin fmod frexp
		frombuffer fromfunction fromstring full full_like gcd geomspace gradient greater
		greater_equal hamming hanning heaviside histogram histogram2d histogram_bin_edges
		histogramdd hsplit hstack hypot i0 identity iinfo imag indices inf inner insert int8
		int16 int32 int64 interp intersect1d invert isclose iscomplex iscomplexobj isfinite isin
		isinf isnan isneginf isposinf isreal isrealobj isscalar issubdtype ix_ kaiser kron lcm
		ldexp left_shift less less_equal lexsort linalg linspace load log log10 log1p log2
		logaddexp logaddexp2 logical_and logical_not logical_or logical_xor logspace mask_indices
		matmul matrix_transpose max maximum mean median meshgrid mgrid min minimum mod modf
		moveaxis multiply nan nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax
		nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar ndarray
		ndim negative newaxis nextafter nonzero not_equal ogrid ones ones_like outer packbits
		pad partition percentile permute_dims pi piecewise place poly polyadd polyder polydiv
		polyfit polyint polymul polysub polyval positive pow power prod promote_types ptp put
		put_along_axis quantile rad2deg radians ravel ravel_multi_index real reciprocal remainder
		repeat reshape resize result_type right_shift rint roll rollaxis roots rot90 round
		round_ row_stack save savez searchsorted select setdiff1d setxor1d shape sign signbit
		sin sinc sinh size sort sort_complex split sqrt square squeeze stack std subtract sum
		swapaxes take take_along_axis tan tanh tensordot tile trace transpose trapezoid tri
		tril tril_indices tril_indices_from trim_zeros triu triu_indices triu_indices_from
		true_divide trunc uint8 uint16 uint32 uint64 union1d unique unique_all unique_counts
		unique_inverse unique_values unpackbits unravel_index unwrap vander var vdot vecdot
		vectorize vsplit vstack where zeros zeros_like`,
	"jax.numpy.linalg": `cholesky cond cross det diagonal eig eigh eigvals eigvalsh inv lstsq
		matmul matrix_norm matrix_power matrix_rank matrix_transpose multi_dot norm outer pinv
		qr slogdet solve svd svdvals tensordot tensorinv tensorsolve trace vecdot vector_norm`,
	"jax.numpy.fft": `fft fft2 fftfreq fftn fftshift hfft ifft ifft2 ifftn ifftshift ihfft irfft
		irfft2 irfftn rfft rfft2 rfftfreq rfftn`,
	"jax.lax": `abs acos acosh add after_all all_gather all_to_all approx_max_k approx_min_k
		argmax argmin asin asinh associative_scan atan atan2 atanh axis_index batch_matmul
		bessel_i0e bessel_i1e betainc bitcast_convert_type bitwise_and bitwise_not bitwise_or
		bitwise_xor broadcast broadcast_in_dim broadcast_shapes broadcasted_iota cbrt ceil
		clamp clz collapse complex concatenate cond conj conv conv_general_dilated
		conv_transpose conv_with_general_padding convert_element_type cos cosh cumlogsumexp
		cummax cummin cumprod cumsum custom_linear_solve custom_root digamma div dot dot_general
		dynamic_index_in_dim dynamic_slice dynamic_slice_in_dim dynamic_update_index_in_dim
		dynamic_update_slice dynamic_update_slice_in_dim eq erf erf_inv erfc exp exp2 expand_dims
		expm1 floor fori_loop full full_like gather ge gt igamma igammac imag index_in_dim
		integer_pow iota is_finite le lgamma linalg log log1p logistic lt map max min mul ne neg
		nextafter optimization_barrier pad pmax pmean pmin population_count pow ppermute psum
		real reduce reduce_and reduce_max reduce_min reduce_or reduce_precision reduce_prod
		reduce_sum reduce_window reduce_xor rem reshape rev round rsqrt scan scatter scatter_add
		scatter_max scatter_min scatter_mul select select_n shift_left shift_right_arithmetic
		shift_right_logical sign sin sinh slice slice_in_dim sort sort_key_val sqrt square
		squeeze stop_gradient sub switch tan tanh top_k transpose while_loop zeros_like_array
		Precision`,
	"jax.lax.linalg": `cholesky eig eigh hessenberg lu lu_pivots_to_permutation qr svd
		triangular_solve tridiagonal tridiagonal_solve`,
	"jax.nn": `celu dot_product_attention elu gelu glu hard_sigmoid hard_silu hard_swish
		hard_tanh initializers leaky_relu log_sigmoid log_softmax logsumexp mish one_hot relu
		relu6 selu sigmoid silu soft_sign softmax softplus sparse_plus sparse_sigmoid
		squareplus standardize swish tanh`,
	"jax.nn.initializers": `constant delta_orthogonal glorot_normal glorot_uniform he_normal
		he_uniform lecun_normal lecun_uniform normal ones orthogonal truncated_normal uniform
		variance_scaling xavier_normal xavier_uniform zeros`,
	"jax.random": `PRNGKey ball bernoulli beta binomial bits categorical cauchy chisquare choice
		clone dirichlet double_sided_maxwell exponential f fold_in gamma generalized_normal
		geometric gumbel key key_data key_impl laplace loggamma logistic lognormal maxwell
		multinomial multivariate_normal normal orthogonal pareto permutation poisson rademacher
		randint rayleigh shuffle split t triangular truncated_normal uniform wald weibull_min
		wrap_key_data`,
	"jax.scipy": `cluster fft integrate interpolate linalg ndimage optimize signal sparse
		spatial special stats`,
	"jax.scipy.special": `bernoulli beta betainc betaln digamma entr erf erfc erfinv exp1
		expi expit expn factorial gamma gammainc gammaincc gammaln gammasgn hyp1f1 i0 i0e i1 i1e
		kl_div log_ndtr logit logsumexp lpmn multigammaln ndtr ndtri poch polygamma rel_entr
		softmax log_softmax spence sph_harm xlog1py xlogy zeta`,
	"jax.scipy.stats": `bernoulli beta binom cauchy chi2 dirichlet expon gamma gaussian_kde
		geom gennorm laplace logistic multinomial multivariate_normal nbinom norm pareto poisson
		rankdata sem t truncnorm uniform vonmises wrapcauchy mode`,
	"jax.scipy.linalg": `block_diag cho_factor cho_solve cholesky det eigh eigh_tridiagonal
		expm expm_frechet funm hessenberg hilbert inv lu lu_factor lu_solve polar qr rsf2csf
		schur solve solve_triangular sqrtm svd toeplitz`,
	"jax.scipy.signal":   `convolve convolve2d correlate correlate2d csd detrend istft stft welch`,
	"jax.scipy.optimize": `minimize OptimizeResults`,
	"jax.tree_util": `Partial PyTreeDef all_leaves build_tree keystr register_dataclass
		register_pytree_node register_pytree_node_class register_pytree_with_keys
		register_pytree_with_keys_class register_static tree_all tree_broadcast tree_flatten
		tree_flatten_with_path tree_leaves tree_leaves_with_path tree_map tree_map_with_path
		tree_reduce tree_structure tree_transpose tree_unflatten treedef_children
		treedef_is_leaf treedef_tuple DictKey FlattenedIndexKey GetAttrKey SequenceKey`,
	"jax.tree": `all broadcast flatten flatten_with_path leaves leaves_with_path map
		map_with_path reduce structure transpose unflatten`,
	"jax.debug": `breakpoint callback inspect_array_sharding print visualize_array_sharding`,
	"jax.image": `resize scale_and_translate ResizeMethod`,
	"jax.dtypes": `bfloat16 canonicalize_dtype float0 issubdtype prng_key result_type
		scalar_type_of`,
}
