// Package nn is jaxsh's nn module: the activations and the softmax family
// of jax.nn, composed of jnp's ufuncs (package numpy) and lax reductions.
//
// Members (docs/builtins.md is generated from this table):
//
//	| name | what |
//	|---|---|
//	| `relu(x)`, `sigmoid(x)`, `silu(x)`, `gelu(x, approximate=True)` | activations |
//	| `softmax(x, axis=-1)`, `log_softmax(x, axis=-1)` | normalised exponentials |
//	| `logsumexp(a, axis=None, keepdims=False)` | stable log of a sum of exponentials |
//	| `one_hot(x, num_classes, dtype=float32)` | one-hot encoding along a new last axis |
//	| `softplus soft_sign log_sigmoid swish relu6 hard_sigmoid hard_silu hard_swish hard_tanh elu celu selu leaky_relu glu log1mexp tanh identity mish squareplus sparse_plus sparse_sigmoid` | activations composed in the dialect (activations.star), as jax.nn defines them |
//	| `standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None)` | zero mean, unit variance along axis |
//	| `dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False)` | scaled dot-product attention over (B, T, N, H) arrays |
package nn
