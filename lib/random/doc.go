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
package random
