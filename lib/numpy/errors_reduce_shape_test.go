package numpy_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// zeroArray builds a zero-filled array directly, so that these tests do not
// depend on jnp's creation functions.
func zeroArray(t *testing.T, dt trace.DType, shape ...int) *jstarlark.Array {
	t.Helper()
	dev, err := jstarlark.DefaultDevice()
	if err != nil {
		t.Fatal(err)
	}
	aval := trace.NewAVal(dt, shape...)
	buf, err := jit.FromHost(dev, aval, make([]byte, aval.Size()*dt.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return jstarlark.NewArray(buf)
}

// TestReduceShapeErrors runs bad calls of the reduction, shape and sort
// functions and checks that each fails with a message naming the function
// (the traceback's "Error in NAME") and the offending operands or values,
// and that none is a recovered panic.
func TestReduceShapeErrors(t *testing.T) {
	operands := starlark.StringDict{
		"f23":  zeroArray(t, trace.Float32, 2, 3),
		"f34":  zeroArray(t, trace.Float32, 3, 4),
		"f234": zeroArray(t, trace.Float32, 2, 3, 4),
		"f3":   zeroArray(t, trace.Float32, 3),
		"e03":  zeroArray(t, trace.Float32, 0, 3),
		"s0":   zeroArray(t, trace.Float32),
		"i23":  zeroArray(t, trace.Int32, 2, 3),
		"i2":   zeroArray(t, trace.Int32, 2),
		"b23":  zeroArray(t, trace.Bool, 2, 3),
		"h2":   zeroArray(t, trace.Float16, 2),
		"b2":   zeroArray(t, trace.Bool, 2),
	}
	cases := []struct {
		call string
		want []string // fragments the message must contain
	}{
		{"jnp.sum(f23, axis=2)", []string{"Error in sum", "axis 2 is out of bounds for array of dimension 2", "float32[2,3]"}},
		{"jnp.mean(f23, axis=(0, -2))", []string{"Error in mean", "duplicate value in 'axis': (0, -2)", "float32[2,3]"}},
		{"f23.sum(axis=-3)", []string{"Error in sum", "axis -3 is out of bounds", "float32[2,3]"}},
		{"jnp.max(e03, axis=0)", []string{"Error in max", "zero-size array to reduction operation max which has no identity", "float32[0,3]"}},
		{"jnp.amin(e03)", []string{"Error in amin", "zero-size array to reduction operation min", "float32[0,3]"}},
		{"jnp.argmax(e03, axis=0)", []string{"Error in argmax", "attempt to get argmax of an empty sequence", "float32[0,3]"}},
		{"jnp.argmin(f23, axis=(0,))", []string{"Error in argmin", "axis must be an int, got tuple"}},
		{"jnp.min(f23, where=b23)", []string{"Error in min", "does not have an identity, so to use a where mask one has to specify 'initial'"}},
		{"jnp.sum(f23, where=i23)", []string{"Error in sum", "where must be None or a boolean array", "int32[2,3]"}},
		{"jnp.sum(f23, where=b2)", []string{"Error in sum", "where of shape (2,) does not broadcast to the operand's shape (2, 3)"}},
		{"jnp.sum(f23, initial=i2)", []string{"Error in sum", "initial value must be a scalar", "int32[2]"}},
		{"jnp.var(f23, ddof=1, correction=1)", []string{"Error in var", "ddof and correction can't be provided simultaneously"}},
		{"jnp.std(f23, dtype=jnp.int32)", []string{"Error in std", "dtype must be inexact, got int32"}},
		{"jnp.cumsum(f23, axis=(0, 1))", []string{"Error in cumsum", "axis must be an int, got tuple"}},
		{"jnp.cumprod(f23, axis=2)", []string{"Error in cumprod", "axis 2 is out of bounds", "float32[2,3]"}},
		{"jnp.sum([1, 2])", []string{"Error in sum", "sum requires ndarray or scalar arguments, got list at position 0"}},
		{"jnp.sum(f23, out=f23)", []string{"Error in sum", "'out' argument is not supported"}},
		{"jnp.reshape(f23, (4, 2))", []string{"Error in reshape", "cannot reshape array of shape (2, 3) (size 6) into shape (4, 2) (size 8)"}},
		{"f23.reshape(-1, -1)", []string{"Error in reshape", "can only specify one unknown axis size", "(-1, -1)"}},
		{"jnp.reshape(f23, (4, -1))", []string{"Error in reshape", "product of specified axis sizes (4) does not evenly divide 6"}},
		{"jnp.reshape(f23, 6, order='A')", []string{"Error in reshape", `order="A" is not implemented`}},
		{"jnp.transpose(f23, (0, 0))", []string{"Error in transpose", "duplicate value", "float32[2,3]"}},
		{"jnp.transpose(f23, (1,))", []string{"Error in transpose", "axes (1,) don't match array float32[2,3]"}},
		{"jnp.squeeze(f23, axis=0)", []string{"Error in squeeze", "cannot select an axis to squeeze out which has size not equal to one, got shape=(2, 3) and dimensions=(0,)"}},
		{"jnp.expand_dims(f23, 3)", []string{"Error in expand_dims", "axis 3 is out of bounds for array of dimension 3", "float32[2,3]"}},
		{"jnp.moveaxis(f23, (0, 1), 0)", []string{"Error in moveaxis", "must have the same number of elements, got (0, 1) and (0,)"}},
		{"jnp.swapaxes(f23, 0, 5)", []string{"Error in swapaxes", "axis 5 is out of bounds", "float32[2,3]"}},
		{"jnp.broadcast_to(f23, (3, 3))", []string{"Error in broadcast_to", "incompatible shapes for broadcasting: float32[2,3] and requested shape (3, 3)"}},
		{"jnp.broadcast_to(f23, (3,))", []string{"Error in broadcast_to", "cannot broadcast float32[2,3] to shape with fewer dimensions (3,)"}},
		{"jnp.broadcast_arrays(f23, f34)", []string{"Error in broadcast_arrays", "float32[2,3], float32[3,4]"}},
		{"jnp.concatenate([f23, f34])", []string{"Error in concatenate", "except for the concatenation axis 0 must match exactly, got float32[2,3], float32[3,4]"}},
		{"jnp.concatenate([f23, i2], axis=1)", []string{"Error in concatenate", "same number of dimensions, got float32[2,3], int32[2]"}},
		{"jnp.concatenate([s0, s0])", []string{"Error in concatenate", "zero-dimensional arrays cannot be concatenated", "float32[]"}},
		{"jnp.concatenate([])", []string{"Error in concatenate", "need at least one array"}},
		{"jnp.concatenate(f23, axis=1)", []string{"Error in concatenate", "axis 1 is out of bounds for array of dimension 1", "float32[3]"}},
		{"jnp.stack([f23, f34])", []string{"Error in stack", "all input arrays must have the same shape, got float32[2,3], float32[3,4]"}},
		{"jnp.stack([f23], axis=3)", []string{"Error in stack", "axis 3 is out of bounds for array of dimension 3"}},
		{"jnp.vstack([f23, f34])", []string{"Error in vstack", "float32[2,3], float32[3,4]"}},
		{"jnp.split(f23, 4, axis=1)", []string{"Error in split", "array split does not result in an equal division", "float32[2,3]"}},
		{"jnp.split(f23, [2, 1], axis=1)", []string{"Error in split", "split indices (2, 1) must be non-decreasing and lie in [0, 3]", "float32[2,3]"}},
		{"jnp.split(f23, 0)", []string{"Error in split", "number of sections must be larger than 0"}},
		{"jnp.tile(f23, (2, -1))", []string{"Error in tile", "negative reps are not allowed, got (2, -1)"}},
		{"jnp.repeat(f23, i2, axis=1)", []string{"Error in repeat", "repeats of length 2 do not match axis 1 of size 3", "float32[2,3]"}},
		{"jnp.repeat(f23, [1, 2])", []string{"Error in repeat", "repeat requires ndarray or scalar arguments, got list"}},
		{"jnp.repeat(f23, -1)", []string{"Error in repeat", "repeats may not contain negative values"}},
		{"jnp.flip(f23, (0, 0))", []string{"Error in flip", "duplicate value in 'axis'", "float32[2,3]"}},
		{"jnp.roll(f23, (1, 2, 3), axis=(0, 1))", []string{"Error in roll", "shift (1, 2, 3) and axis (0, 1) must have the same length"}},
		{"jnp.roll(f23, 1.5)", []string{"Error in roll", "shift must be an int or a tuple of ints, got float"}},
		{"jnp.roll(f23, h2)", []string{"Error in roll", "shift must be integers, got float16[2]"}},
		{"jnp.pad(f23, -1)", []string{"Error in pad", "index can't contain negative values"}},
		{"jnp.pad(f23, ((1, 2), (3, 4), (5, 6)))", []string{"Error in pad", "pad_width with nd=2 has unsupported shape (3, 2)"}},
		{"jnp.pad(f23, ((1, 2), (3,)))", []string{"Error in pad", "entries must be the same shape"}},
		{"jnp.pad(f23, 1.5)", []string{"Error in pad", "`pad_width` must be of integral type, got float"}},
		{"jnp.pad(f23, 1, mode='maximum')", []string{"Error in pad", "unimplemented padding mode 'maximum'"}},
		{"jnp.pad(f23, 1, mode='edge', constant_values=0)", []string{"Error in pad", "unsupported keyword arguments for mode 'edge': constant_values"}},
		{"jnp.pad(e03, 1, mode='wrap')", []string{"Error in pad", "cannot apply 'wrap' padding to empty axis 0 of float32[0,3]"}},
		{"jnp.pad(f23, 1, constant_values=f3)", []string{"Error in pad", "constant_values with nd=2 has unsupported shape (3,)"}},
		{"jnp.take(f23, h2)", []string{"Error in take", "indices must be of integer type, got float16[2]"}},
		{"jnp.take(f23, i2, axis=2)", []string{"Error in take", "axis 2 is out of bounds for array of dimension 2", "float32[2,3]"}},
		{"jnp.take(f23, i2, mode='raise')", []string{"Error in take", "'raise' mode is not supported"}},
		{"jnp.take(e03, i2, axis=0)", []string{"Error in take", "cannot do a non-empty take from an empty axis", "float32[0,3], int32[2]"}},
		{"jnp.take_along_axis(f23, i2, axis=0)", []string{"Error in take_along_axis", "same number of dimensions; 1 vs. 2", "float32[2,3], int32[2]"}},
		{"jnp.take_along_axis(f23, i23, axis=None)", []string{"Error in take_along_axis", "indices must be 1D if axis=None, got int32[2,3]"}},
		{"jnp.take_along_axis(f23, f23, axis=0)", []string{"Error in take_along_axis", "indices must be of integer type, got float32[2,3]"}},
		{"jnp.diag(f234)", []string{"Error in diag", "input must be 1d or 2d, got float32[2,3,4]"}},
		{"jnp.diagonal(f3)", []string{"Error in diagonal", "at least two dimensions, got float32[3]"}},
		{"jnp.diagonal(f23, axis1=1, axis2=-1)", []string{"Error in diagonal", "axis1 and axis2 cannot be the same", "float32[2,3]"}},
		{"jnp.triu(f3)", []string{"Error in triu", "at least 2D, got float32[3]"}},
		{"jnp.tril(s0, 1)", []string{"Error in tril", "at least 2D, got float32[]"}},
		{"jnp.sort(s0)", []string{"Error in sort", "cannot sort a 0-d array float32[]"}},
		{"jnp.sort(f23, axis=2)", []string{"Error in sort", "axis 2 is out of bounds", "float32[2,3]"}},
		{"jnp.argsort(f23, kind='quicksort')", []string{"Error in argsort", "'kind' argument is not supported"}},
		{"jnp.argsort(f23, dtype=jnp.float32)", []string{"Error in argsort", "dtype must be an integer dtype, got float32"}},
	}
	for _, c := range cases {
		session := newSession(&bytes.Buffer{}, operands)
		_, err := session.ExecFile(session.NewThread("errors"), "errors.star", c.call+"\n")
		if err == nil {
			t.Errorf("%s: no error", c.call)
			continue
		}
		msg := jstarlark.FormatError(err)
		if strings.Contains(msg, "internal error") {
			t.Errorf("%s: internal error:\n%s", c.call, msg)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message lacks %q:\n%s", c.call, w, msg)
			}
		}
	}
}
