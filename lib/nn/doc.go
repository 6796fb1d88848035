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
//	| `logmeanexp(x, axis=None, where=None, keepdims=False)` | stable log of a mean of exponentials (activations.star) |
//	| `one_hot(x, num_classes, dtype=float32)` | one-hot encoding along a new last axis |
//	| `softplus soft_sign log_sigmoid swish relu6 hard_sigmoid hard_silu hard_swish hard_tanh elu celu selu leaky_relu glu log1mexp tanh identity mish squareplus sparse_plus sparse_sigmoid` | activations composed in the dialect (activations.star), as jax.nn defines them |
//	| `standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None)` | zero mean, unit variance along axis |
//	| `dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False)` | scaled dot-product attention over (B, T, N, H) arrays |
//	| `initializers.zeros initializers.ones`, `initializers.constant(value, dtype=float32)`, `initializers.normal(stddev=0.01)`, `initializers.uniform(scale=0.01)`, `initializers.truncated_normal(stddev=0.01, lower=-2.0, upper=2.0)` | `nn.initializers`: functions of `(key, shape, dtype=float32)` on jax.random (initializers.star) |
//	| `initializers.variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(), dtype=float32)` | variance `scale/n`, n the fan_in, fan_out, fan_avg or fan_geo_avg of the shape |
//	| `initializers.glorot_normal initializers.glorot_uniform initializers.xavier_normal initializers.xavier_uniform initializers.he_normal initializers.he_uniform initializers.kaiming_normal initializers.kaiming_uniform initializers.lecun_normal initializers.lecun_uniform` | `(in_axis=-2, out_axis=-1, batch_axis=(), dtype=float32)`: variance_scaling's named settings |
//	| `initializers.orthogonal(scale=1.0, column_axis=-1)`, `initializers.delta_orthogonal(scale=1.0, column_axis=-1)` | (semi-)orthogonal weights by QR of a normal draw; delta_orthogonal puts one at a convolution kernel's centre |
package nn
