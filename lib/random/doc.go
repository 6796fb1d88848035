// Package random is jaxsh's random module: jax.random's counter-based
// Keys and samplers on JAX's threefry2x32, bit for bit.
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
//	| `choice(key, a, shape=(), replace=True, p=None, axis=0, mode=None)` | draws from `arange(a)` or along an axis of `a`; with `p`, by the inverse CDF (with replacement) or the Gumbel top-k trick (without) |
package random
