package numpy_test

import (
	"bytes"
	"strings"
	"testing"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
)

// TestIndexLinalgErrors: bad indexing, .at[], product, einsum and lax calls
// fail with messages that say what is wrong (the parts checked here), at the
// user's line, and never as an internal error.
func TestIndexLinalgErrors(t *testing.T) {
	const setup = `
x = jnp.float32([[0, 1, 2], [3, 4, 5]])
v = jnp.int32([0, 1, 2, 3])
m = jnp.float32([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
`
	for _, tc := range []struct {
		name, expr string
		want       []string
	}{
		{"too many indices", "x[0, 1, 2]", []string{"too many indices", "2-dimensional", "3 were indexed"}},
		{"static index out of range", "x[2]", []string{"index 2 is out of bounds for axis 0 with size 2"}},
		{"negative static index out of range", "x[:, -4]", []string{"index -4 is out of bounds for axis 1 with size 3"}},
		{"get out of range", "v.at[4].get()", []string{"index 4 is out of bounds for axis 0 with size 4"}},
		{"float index", "x[0.5]", []string{"indexer must have integer or boolean type", "float"}},
		{"float array index", "v[jnp.float32([1])]", []string{"integer or boolean type", "float32"}},
		{"string index", `v["a"]`, []string{"string indices are not supported"}},
		{"bare list index", "v[[0, 1]]", []string{"non-tuple sequence", "arr[array(seq)]"}},
		{"two ellipses", "x[..., ...]", []string{"single ellipsis"}},
		{"mask shape", "v[jnp.bool_([True, False])]", []string{"boolean index did not match", "got (2,), expected (4,)"}},
		{"index arrays do not broadcast", "x[jnp.int32([0, 1]), jnp.int32([0, 1, 2])]", []string{"could not be broadcast together with shapes (2,) (3,)"}},
		{"at on a non-array", "[1, 2].at[0].set(1)", []string{"list has no .at field or method"}},
		{"at set unbroadcastable", "v.at[1:3].set(jnp.int32([1, 2, 3]))", []string{"at[].set", "values of shape (3,)", "indexed shape (2,)"}},
		{"at unknown method", "v.at[0].put(1)", []string{"has no .put field or method"}},
		{"at bad mode", "v.at[0].add(1, mode='wrap')", []string{"at[].add", `unknown gather mode "wrap"`}},
		{"at float index", "v.at[1.5].set(0)", []string{"integer or boolean type"}},
		{"matmul shapes", "x @ m", []string{"matmul", "(2, 3)", "(4, 4)"}},
		{"matmul batch shapes", "jnp.matmul(jnp.float32([[[1, 2]], [[3, 4]]]), jnp.float32([[[1], [2]]] * 3))", []string{"(2, 1, 2)", "(3, 2, 1)"}},
		{"matmul scalar operand", "jnp.matmul(v, 2)", []string{"matmul input operand 1 must have ndim at least 1"}},
		{"matmul with a list", "x @ [1, 2, 3]", []string{"unknown binary op: Array @ list"}},
		{"dot not aligned", "jnp.dot(x, x)", []string{"shapes (2, 3) and (2, 3) not aligned"}},
		{"dot list operand", "jnp.dot(v, [1, 2, 3, 4])", []string{"dot requires ndarray or scalar arguments, got list at position 1"}},
		{"einsum operand count", "jnp.einsum('ij,jk->ik', x)", []string{"2 input terms but 1 operands"}},
		{"einsum bad character", "jnp.einsum('i$->i', x)", []string{`invalid subscript "$"`}},
		{"einsum two arrows", "jnp.einsum('ij->j->i', x)", []string{"at most one '->'"}},
		{"einsum rank", "jnp.einsum('i->i', x)", []string{"operand 0 has 2 dimensions", `"i" name 1`}},
		{"einsum unknown output", "jnp.einsum('ij->z', x)", []string{"output subscript 'z' does not appear"}},
		{"einsum sizes", "jnp.einsum('ij,jk', x, m)", []string{"size of label 'j' for operand 1 (4) does not match previous terms (3)"}},
		{"tensordot sizes", "jnp.tensordot(x, m, axes=1)", []string{"shape mismatch for sum", "(2, 3)", "(4, 4)"}},
		{"trace same axes", "jnp.trace(m, axis1=0, axis2=-2)", []string{"axis1 and axis2 can not be same"}},
		{"inv not square", "jnp.linalg.inv(x)", []string{"jnp.linalg.inv", "square matrices", "(2, 3)"}},
		{"linalg complex derivative", "grad(lambda a: jnp.real(jnp.linalg.det(lax.complex(a, a))))(m)", []string{"differentiating lu with complex operands (complex64) is not supported yet"}},
		{"norm three axes", "jnp.linalg.norm(jnp.float32([[[1]]]), 1)", []string{"improper number of axes"}},
		{"lax pad dtype", "lax.pad(v, 0.5, [(1, 1, 0)])", []string{"lax.pad", "same dtype", "int32 and float32"}},
		{"lax concatenate dtype", "lax.concatenate([v, x[0]], 0)", []string{"lax.concatenate", "int32 and float32"}},
		{"lax dynamic_update_slice dtype", "lax.dynamic_update_slice(x, v, (0, 0))", []string{"lax.dynamic_update_slice", "float32 and int32"}},
		{"lax dynamic_slice indices", "lax.dynamic_slice(x, (0,), (1, 1))", []string{"lax.dynamic_slice", "start indices must match the operand's rank"}},
		{"lax dot_general dims", "lax.dot_general(v, v, (0, 0))", []string{"lax.dot_general", "dimension_numbers must be"}},
		{"lax transpose permutation", "lax.transpose(x, (0, 0))", []string{"lax.transpose", "not a permutation"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			session := newSession(&bytes.Buffer{}, nil)
			src := setup + "y = " + tc.expr + "\n"
			_, err := session.ExecFile(session.NewThread("t"), "bad.star", src)
			if err == nil {
				t.Fatalf("%s: no error", tc.expr)
			}
			msg := jstarlark.FormatError(err)
			if strings.Contains(msg, "internal error") {
				t.Errorf("%s: internal error:\n%s", tc.expr, msg)
			}
			if !strings.Contains(msg, "bad.star:5:") {
				t.Errorf("%s: error not at the user's line 5:\n%s", tc.expr, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%s: error does not contain %q:\n%s", tc.expr, w, msg)
				}
			}
		})
	}
}
