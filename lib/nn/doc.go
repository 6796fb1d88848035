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
package nn
