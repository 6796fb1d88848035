package numpy_test

import (
	"bytes"
	"strings"
	"testing"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
)

// TestElementwiseErrors checks that bad calls of the elementwise, creation,
// nn and lax functions fail with a message that names the function and what
// was wrong with the operands (shapes, dtypes, arguments), and never with an
// internal error (a recovered Go panic).
func TestElementwiseErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // substrings of the formatted error, in order
	}{
		// Shapes that do not broadcast.
		{"jnp.add(jnp.zeros(3), jnp.zeros(2))", []string{"add", "incompatible shapes for broadcasting: (3,) and (2,)", "float32[3], float32[2]"}},
		{"jnp.floor_divide(jnp.ones((2, 3)), jnp.ones((4, 1, 2)))", []string{"floor_divide", "(2, 3) and (4, 1, 2)"}},
		{"jnp.ones(3) * jnp.ones((2, 2))", []string{"multiply", "incompatible shapes", "float32[3], float32[2,2]"}},
		{"jnp.isclose(jnp.ones(2), jnp.ones(3))", []string{"isclose", "(2,) and (3,)"}},
		{"jnp.where(jnp.ones(2) > 0, jnp.ones(3), 0)", []string{"where", "incompatible shapes", "(2,), (3,)"}},
		{"jnp.full((2,), jnp.ones(3))", []string{"full", "cannot broadcast the fill value float32[3] to shape (2,)"}},
		{"lax.select(jnp.array([True, False]), jnp.ones(2), jnp.ones(3))", []string{"lax.select", "same shapes", "(3,) and (2,)"}},
		{"lax.add(jnp.ones(2), jnp.ones((1, 2)))", []string{"lax.add", "same number of dimensions"}},
		// Dtypes a function does not accept.
		{"jnp.bitwise_and(jnp.zeros(2), 1)", []string{"bitwise_and", "f32[2]", "does not accept dtype float32"}},
		{"jnp.invert(jnp.ones(2))", []string{"invert", "does not accept dtype float32"}},
		{"jnp.left_shift(jnp.ones(2), 1)", []string{"left_shift", "float32"}},
		{"jnp.array([True]) - jnp.array([False])", []string{"subtract", "boolean subtract", "bool[1], bool[1]"}},
		{"-jnp.array([True])", []string{"negative", "bool[1]", "does not accept dtype bool"}},
		{"jnp.round(jnp.array([True]))", []string{"round", "bool input is not supported", "bool[1]"}},
		{"jnp.arange(3) ** -1", []string{"power", "i32[3]", "integers cannot be raised to negative powers"}},
		{"lax.add(jnp.ones(2), jnp.ones(2, dtype=jnp.int32))", []string{"lax.add requires arguments to have the same dtypes, got float32, int32", "jnp.add"}},
		{"lax.add(jnp.arange(2), 1.5)", []string{"lax.add requires arguments to have the same dtypes, got int32, float32"}},
		{"lax.exp(jnp.arange(3))", []string{"lax.exp", "i32[3]", "does not accept dtype int32"}},
		{"nn.sigmoid(jnp.arange(3))", []string{"sigmoid", "i32[3]", "int32"}},
		{"jnp.finfo(jnp.int32)", []string{"finfo", "int32 is not a floating type"}},
		{"jnp.iinfo('float32')", []string{"iinfo", "float32 is not an integer type"}},
		{"lax.iota(jnp.bool_, 3)", []string{"lax.iota", "does not accept dtype bool"}},
		// Values that do not fit, bad dtype names.
		{"jnp.array([1, 2], dtype=jnp.int8) + 1000", []string{"add", "Python int 1000 too large to convert to int8"}},
		{"jnp.zeros(2, dtype='float8')", []string{"zeros", `unknown dtype "float8"`}},
		{"lax.convert_element_type(jnp.ones(2), 'int128')", []string{"lax.convert_element_type", `unknown dtype "int128"`}},
		{"jnp.zeros(3, 4)", []string{"zeros", "cannot interpret 4 as a data type", "zeros((3, 4))"}},
		{"jnp.promote_types(jnp.int32, None)", []string{"promote_types", "a dtype is required"}},
		// Operands that are not arrays or numbers.
		{"jnp.sqrt([1, 2])", []string{"sqrt requires ndarray or scalar arguments, got list at position 0"}},
		{"jnp.power(jnp.ones(2), 'x')", []string{"power requires ndarray or scalar arguments, got string at position 1"}},
		{"jnp.exp(None)", []string{"exp requires ndarray or scalar arguments, got NoneType"}},
		{"jnp.clip([1, 2], 0, 1)", []string{"clip requires ndarray or scalar arguments, got list"}},
		{"jnp.meshgrid([1, 2])", []string{"meshgrid requires ndarray or scalar arguments, got list"}},
		{"jnp.array([1, None])", []string{"array: None is not a valid value"}},
		{"jnp.array([[1], [2, 3]])", []string{"array", "ragged nested sequence"}},
		{"lax.stop_gradient(['a'])", []string{"lax.stop_gradient", "string is not a valid pytree leaf"}},
		// Bad arguments.
		{"jnp.arange(1, 5, 0)", []string{"arange", "step must not be zero"}},
		{"jnp.arange(jnp.ones(2))", []string{"arange", "arguments must be scalars", "float32[2]"}},
		{"jnp.linspace(0, 1, -2)", []string{"linspace", "number of samples, -2, must be non-negative"}},
		{"jnp.linspace(0, 1, 3, axis=2)", []string{"linspace", "axis 2 is out of bounds"}},
		{"jnp.eye(2, k=1.5)", []string{"eye", "k must be a scalar integer"}},
		{"jnp.zeros((2, -3))", []string{"zeros", "negative dimensions are not allowed"}},
		{"jnp.where(jnp.ones(2))", []string{"where", "one-argument form"}},
		{"jnp.where(jnp.ones(2), None, 1)", []string{"where", "both or neither"}},
		{"jnp.round(jnp.array([15]), -1)", []string{"round", "decimals < 0", "int32[1]"}},
		{"jnp.meshgrid(jnp.ones((2, 2)))", []string{"meshgrid", "1-D", "float32[2,2]"}},
		{"jnp.meshgrid(jnp.ones(2), indexing='ji')", []string{"meshgrid", "'xy' and 'ij'"}},
		{"nn.softmax(jnp.ones((2, 3)), axis=5)", []string{"softmax", "axis 5 is out of bounds for array of dimension 2"}},
		{"nn.logsumexp(jnp.ones(2), axis=(0, 0))", []string{"logsumexp", "repeated axis"}},
		{"nn.one_hot(jnp.arange(3), -1)", []string{"one_hot", "num_classes must be non-negative"}},
		{"lax.round(jnp.ones(2), 2)", []string{"lax.round", "rounding_method must be 0"}},
		{"lax.reduce_precision(jnp.ones(2), 0, 3)", []string{"lax.reduce_precision", "exponent_bits must be positive"}},
		{"lax.broadcast_in_dim(jnp.ones(3), (3,), (1,))", []string{"lax.broadcast_in_dim", "f32[3]", "broadcast_dimensions (1,)"}},
	} {
		session := newSession(&bytes.Buffer{}, nil)
		thread := session.NewThread("errors")
		_, err := session.ExecFile(thread, "errors.star", "x = "+tc.src+"\n")
		if err == nil {
			t.Errorf("%s: no error", tc.src)
			continue
		}
		msg := jstarlark.FormatError(err)
		if strings.Contains(msg, "internal error") {
			t.Errorf("%s: internal error:\n%s", tc.src, msg)
			continue
		}
		rest := msg
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: error %q lacks %q (in order)", tc.src, msg, w)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}
