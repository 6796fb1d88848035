package lax_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// TestMoreErrors: bad calls of the reductions, reduce, the constructors,
// dot and conv_transpose fail with a message naming the function, at the
// caller's line.
func TestMoreErrors(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"lax.reduce_sum(jnp.ones((2, 3)), (2,))", "lax.reduce_sum: axis 2 is out of bounds for an operand of rank 2"},
		{"lax.reduce_max(jnp.ones((2, 3)), (0, 0))", "lax.reduce_max: duplicate axis 0 in axes"},
		{"lax.reduce_and(jnp.ones(3), (0,))", "lax.reduce_and: operand must be boolean or integer, got float32"},
		{"lax.argmax(jnp.ones(3), 0, jnp.float32)", "lax.argmax: index_dtype must be an integer dtype"},
		{"lax.integer_pow(jnp.arange(3), -1)", "lax.integer_pow: integers to negative powers are not allowed"},
		{"lax.select_n(jnp.array([0, 1], dtype=jnp.int16), jnp.ones(2), jnp.zeros(2))", "lax.select_n: which must be bool or int32"},
		{"lax.select_n(True, jnp.ones(2), jnp.zeros(3))", "lax.select_n: cases must have the same shape"},
		{"lax.eq(jnp.ones(2), jnp.ones(2, dtype=jnp.int32))", "lax.eq"},
		{"lax.reduce(jnp.ones((2, 3)), 0.0, lax.add, (0, 0))", "reduce: dimensions (0, 0) are not distinct axes"},
		{"lax.reduce((jnp.ones(2), jnp.ones(3)), (0.0, 0.0), lambda a, b: a, (0,))", "reduce: operands must have the same shape"},
		{"lax.reduce_xor(jnp.ones(3), (0,))", "reduce_xor: operand must be boolean or integer, got float32"},
		{"lax.clz(jnp.ones(3))", "clz: x must be an integer array, got float32"},
		{"lax.full((2,), jnp.ones(2))", "full: fill_value must be a scalar"},
		{"lax.split(jnp.ones(5), (2, 2))", "split: sizes (2, 2) must add up to the size of axis 0, 5"},
		{"lax.dot(jnp.ones((2, 3)), jnp.ones(2))", "dot: incompatible shapes for dot: got (2, 3) and (2,)"},
		{"lax.batch_matmul(jnp.ones((2, 3, 4)), jnp.ones((3, 4, 5)))", "batch_matmul: batch dimensions must match"},
		{"lax.conv_transpose(jnp.ones((1, 5, 2)), jnp.ones((3, 2, 2)), (1,), 'FULL')", "conv_transpose: padding must be 'SAME', 'VALID' or a sequence"},
		{"lax.conv_transpose(jnp.ones((1, 5, 2)), jnp.ones((3, 2, 2)), (1, 1), 'SAME')", "conv_transpose: strides must have one entry per spatial dimension (1)"},
		{"lax.rng_bit_generator(jnp.zeros(4, dtype=jnp.uint32), (2,), algorithm=lax.RandomAlgorithm.RNG_THREE_FRY)", "rng_bit_generator: only RandomAlgorithm.RNG_DEFAULT and RNG_PHILOX are supported"},
		{"lax.rng_bit_generator(jnp.zeros(4, dtype=jnp.uint32), (2,), jnp.int32)", "rng_bit_generator: unsupported dtype int32"},
		{"lax.rng_bit_generator(jnp.zeros(2, dtype=jnp.uint32), (2,))", "rng_bit_generator: key must be a uint32[4] array, got uint32[2]"},
		{"lax.broadcast_shapes((2, 3), (4,))", "broadcast_shapes: incompatible shapes for broadcasting: (2, 3), (4,)"},
		{"lax.conv_dimension_numbers((1, 2, 3), (1, 2), None)", "conv_dimension_numbers: convolution requires lhs and rhs ndim to be equal, got 3 and 2"},
		{"lax.stack([jnp.ones(2), jnp.ones(3)])", "stack: arrays must have the same shape"},
		{"lax.tile(jnp.ones((2, 2)), (2,))", "tile: reps must have one entry per dimension of the operand (2)"},
		{"lax.index_take(jnp.ones((2, 2)), (jnp.array([0]),), (0, 1))", "index_take: need one index array per axis, got 1 and 2"},
		{"lax.approx_max_k(jnp.arange(4), 2)", "approx_max_k: operand must be a floating-point array, got int32"},
		{"lax.approx_min_k(jnp.ones(4), 2, aggregate_to_topk=False)", "approx_min_k: aggregate_to_topk=False is not supported"},
	} {
		interp := jaxsh.New(jaxsh.Options{})
		_, err := interp.RunString(context.Background(), "bad.star", "x = 1\ny = "+c.code+"\n", nil)
		if err == nil {
			t.Errorf("%s: no error", c.code)
			continue
		}
		msg := jaxsh.FormatError(err)
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "bad.star:2:") || strings.Contains(msg, "panic") {
			t.Errorf("%s:\n got %s\nwant %s at bad.star:2", c.code, msg, c.want)
		}
	}
}
