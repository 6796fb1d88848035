package numpy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// TestMoreErrors runs bad calls of the functions of aliases.star,
// setops.star and polyhist.star: each fails with a message naming the
// function and what to do, at the caller's line.
func TestMoreErrors(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"jnp.place(jnp.arange(4), jnp.arange(4) > 1, 0)", "place: jaxsh arrays, like JAX's, cannot be modified in place; pass inplace=False"},
		{"jnp.put(jnp.arange(4), 1, 0)", "put: jaxsh arrays, like JAX's, cannot be modified in place"},
		{"jnp.fill_diagonal(jnp.zeros((2, 2)), 1.0)", "fill_diagonal: jaxsh arrays, like JAX's, cannot be modified in place"},
		{"jnp.fill_diagonal(jnp.zeros((2, 3, 2)), 1.0, inplace=False)", "fill_diagonal: all dimensions of input must be of equal length"},
		{"jit(lambda v: jnp.extract(v > 1, v))(jnp.arange(4))", "extract: the shape of the result depends on the values of its operands, which are not known while tracing; pass size="},
		{"jit(lambda v: jnp.union1d(v, v))(jnp.arange(4))", "union1d: the shape of the result depends on the values"},
		{"jit(lambda v: jnp.nonzero(v))(jnp.arange(4))", "nonzero: the shape of the result depends on the values"},
		{"jit(lambda v: jnp.roots(v))(jnp.arange(4.0))", "roots: the shape of the result depends on the values of its operands, which are not known while tracing; pass strip_zeros=False"},
		{"jit(lambda v: jnp.choose(v, [v, v]))(jnp.arange(2))", "choose: the shape of the result depends on the values of its operands, which are not known while tracing; mode='raise' checks the values"},
		{"jnp.choose(jnp.array([0, 2]), [jnp.arange(2), jnp.arange(2)])", "choose: invalid entry in choice array"},
		{"jnp.delete(jnp.arange(4), 4)", "delete: index 4 is out of bounds for axis with size 4"},
		{"jnp.insert(jnp.arange(4), 6, 1)", "insert: index 6 is out of bounds for axis 0 with size 4"},
		{"jnp.compress(jnp.array([True, False]), jnp.arange(6).reshape(2, 3), axis=1, size=1) + jnp.compress(jnp.ones(4), jnp.arange(3))", "compress: condition has 4 elements, more than the 3 along axis 0"},
		{"jnp.matrix_transpose(jnp.arange(3))", "matrix_transpose: x must be at least two-dimensional"},
		{"jnp.vsplit(jnp.arange(4), 2)", "vsplit only works on arrays of 2 or more dimensions"},
		{"jnp.gradient(jnp.arange(4.0), 1.0, 2.0)", "gradient: invalid number of spacing arguments: 2 for 1 axes"},
		{"jnp.piecewise(jnp.arange(3.0), [jnp.arange(3.0) > 1], [1.0, 2.0, 3.0])", "piecewise: with 1 condition(s), either 1 or 2 functions are expected, got 3"},
		{"jnp.convolve(jnp.ones((2, 2)), jnp.ones(2))", "convolve: expected a one-dimensional array, got shape (2, 2)"},
		{"jnp.convolve(jnp.ones(3), jnp.ones(2), mode='middle')", "convolve: mode must be one of 'full', 'same' or 'valid'"},
		{"jnp.polyfit(jnp.arange(3.0), jnp.arange(3.0), 1, full=True)", "polyfit: full=True and cov=True are not supported"},
		{"jnp.histogramdd(jnp.ones((3, 2)), bins=[2, 2, 2])", "histogramdd: the dimension of bins must be equal to the dimension of the sample, got 3 and 2"},
		{"jnp.block([jnp.ones(2), [jnp.ones(2)]])", "block: list depths are mismatched"},
		{"jnp.block((jnp.ones(2), jnp.ones(2)))", "block: tuples are not allowed"},
		{"jnp.packbits(jnp.ones(3))", "packbits: expected an input array of integer or boolean data type, got float32"},
		{"jnp.unpackbits(jnp.ones(3, dtype=jnp.int32))", "unpackbits: expected an input array of unsigned byte data type, got int32"},
		{"jnp.bitwise_count(jnp.ones(3))", "bitwise_count: x must be an integer or bool array, got float32"},
		{"jnp.lexsort([])", "lexsort: need sequence of keys with len > 0"},
		{"jnp.ix_(jnp.ones((2, 2)))", "ix_: arguments must be one-dimensional, got shape (2, 2)"},
		{"jnp.frombuffer(b\"\\x01\\x02\\x03\", dtype=jnp.int16)", "frombuffer: buffer size (3 bytes after the offset) must be a multiple of element size (2)"},
		{"jnp.frombuffer(b\"\\x01\\x02\", dtype=jnp.uint8, count=5)", "frombuffer: buffer is smaller than requested size"},
		{"jnp.fromstring('1 2 3')", "fromstring: sep must be a non-empty string"},
		{"jnp.fromstring('1 x 3', sep=' ')", "fromstring: could not convert \"x\" to float64"},
		{"jnp.mgrid[-3:3]", "mgrid: a lone slice whose start and stop have different signs cannot be read"},
		{"jnp.s_[4:-2:-1]", "s_: a lone slice whose start and stop have different signs cannot be read"},
		{"jnp.mgrid[0:3, 2]", "mgrid: subscripts must be slices such as 0:5, got int"},
		{"jnp.mgrid[0:, 0:2]", "mgrid: every slice needs a stop"},
		{"jnp.r_['0,2', jnp.ones(2)]", "r_: string directives such as \"0,2\" are not supported"},
	} {
		interp := jaxsh.New(jaxsh.Options{})
		_, err := interp.RunString(context.Background(), "bad.star", "x = 1\ny = "+c.code+"\n", nil)
		if err == nil {
			t.Errorf("%s: no error", c.code)
			continue
		}
		msg := jaxsh.FormatError(err)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.code, msg, c.want)
		}
		if !strings.Contains(msg, "bad.star:2:") {
			t.Errorf("%s: the traceback lacks the caller's line:\n%s", c.code, msg)
		}
		if strings.Contains(msg, "panic") {
			t.Errorf("%s: a panic: %s", c.code, msg)
		}
	}
}
