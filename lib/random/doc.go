// Package random is jaxsh's random module: jax.random's counter-based
// Keys and samplers on JAX's threefry2x32, bit for bit.
//
// Not here: key_dtype and random_gamma_p (jaxsh has no typed key arrays,
// and primitives are not user-visible), and the samplers' method=
// 'approximate' (a loop-free gamma/poisson JAX added alongside the exact
// ones).
//
// Members (docs/builtins.md is generated from this table):
//
//	| name | what |
//	|---|---|
//	| `key(seed)`, `PRNGKey(seed)` | a key: both give the raw `uint32[2]` form (no typed key arrays) |
//	| `key_data(key)`, `wrap_key_data(data)` | between keys and their `uint32` data |
//	| `split(key, num=2)`, `fold_in(key, data)` | derive new keys |
//	| `bits(key, shape=(), dtype=uint32)` | raw random bits |
//	| `uniform(key, shape=(), dtype=float32, minval=0.0, maxval=1.0)` | uniform floats |
//	| `normal(key, shape=(), dtype=float32)` | standard normal |
//	| `gumbel(key, shape=(), dtype=float32)` | standard Gumbel |
//	| `randint(key, shape, minval, maxval, dtype=int32)` | integers in [minval, maxval) |
//	| `bernoulli(key, p=0.5, shape=None)` | booleans |
//	| `permutation(key, x)` | a shuffled `arange(x)` or a shuffled copy of `x` |
//	| `categorical(key, logits, axis=-1, shape=None)` | samples from unnormalised log-probabilities |
//	| `exponential laplace logistic cauchy maxwell` | `(key, shape=(), dtype=float32)`: standard samples, JAX's closed-form transforms of uniform and normal draws (distributions.star) |
//	| `rademacher(key, shape=(), dtype=int32)` | -1 or 1 with equal probability |
//	| `truncated_normal(key, lower, upper, shape=None, dtype=float32)` | normal samples within `(lower, upper)` |
//	| `pareto(key, b, shape=None, dtype=float32)`, `weibull_min(key, scale, concentration, shape=(), dtype=float32)` | by the inverse CDF |
//	| `double_sided_maxwell(key, loc, scale, shape=(), dtype=float32)` | Maxwell samples with random signs, scaled and shifted |
//	| `gamma(key, a, shape=None, dtype=float32)`, `loggamma(...)` | Gamma samples by Marsaglia and Tsang's rejection, one key per element; loggamma in log space; differentiable in `a` (implicit reparameterisation, `lax.random_gamma_grad`) (parametric.star) |
//	| `beta(key, a, b, shape=None, dtype=float32)`, `dirichlet(key, alpha, shape=None, dtype=float32)` | from log-space Gamma samples |
//	| `chisquare(key, df, ...)`, `f(key, dfnum, dfden, ...)`, `t(key, df, ...)` | `(..., shape=None, dtype=float32)`: from Gamma and normal samples |
//	| `generalized_normal(key, p, shape=(), dtype=float32)`, `ball(key, d, p=2, shape=(), dtype=float32)` | density exp(-abs(x)^p); uniform points in the unit p-ball |
//	| `poisson(key, lam, shape=None, dtype=int32)` | Knuth's method below rate 10, transformed rejection above |
//	| `binomial(key, n, p, shape=None, dtype=float32)`, `multinomial(key, n, p, shape=None, dtype=float32, unroll=1)` | inversion below n p = 10, BTRS above; multinomial by successive binomials |
//	| `rayleigh(key, scale, ...)`, `wald(key, mean, ...)`, `lognormal(key, sigma=1.0, ...)`, `triangular(key, left, mode, right, ...)` | `(..., shape=None, dtype=float32)`: closed-form transforms |
//	| `geometric(key, p, shape=None, dtype=int32)` | trials up to the first success |
//	| `orthogonal(key, n, shape=(), dtype=float32, m=None)` | Haar-random orthogonal matrices, by QR |
//	| `multivariate_normal(key, mean, cov, shape=None, dtype=None, method='cholesky')` | normal vectors; the covariance factored by `cholesky`, `svd` or `eigh` |
//	| `clone(key)`, `key_impl(key)` | the key itself; `'threefry2x32'` |
//	| `choice(key, a, shape=(), replace=True, p=None, axis=0, mode=None)` | draws from `arange(a)` or along an axis of `a`; with `p`, by the inverse CDF (with replacement) or the Gumbel top-k trick (without) |
package random
