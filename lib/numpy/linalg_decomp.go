package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The decompositions of jnp.linalg, with JAX's conventions
// (jax/_src/numpy/linalg.py): cholesky and eigh symmetrize their input
// first ((a + aᴴ)/2) unless symmetrize_input=False; eigh reads the lower
// triangle (UPLO='L', the default) or the upper one; svd returns
// (u, s, vh) with full_matrices=True by default; qr's modes are
// "reduced", "complete" and "r"; eig and eigvals return complex values.
// Everything is batched over leading axes, for real and complex
// operands (complex ones Hermitian where real ones are symmetric).

func init() {
	jstarlark.Register(linalgModule, "cholesky", choleskyBuiltin)
	jstarlark.Register(linalgModule, "qr", qrBuiltin)
	jstarlark.Register(linalgModule, "svd", svdBuiltin)
	jstarlark.Register(linalgModule, "svdvals", svdvalsBuiltin)
	jstarlark.Register(linalgModule, "eigh", eighBuiltin(false))
	jstarlark.Register(linalgModule, "eigvalsh", eighBuiltin(true))
	jstarlark.Register(linalgModule, "eig", eigBuiltin(false))
	jstarlark.Register(linalgModule, "eigvals", eigBuiltin(true))
}

func (c *la) symmetrize(a *jstarlark.Array) *jstarlark.Array {
	sum := c.Binary("add", a, c.mH(a))
	return c.Binary("div", sum, c.Scalar(sum, sum.DType(), 2, false))
}

func choleskyBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.cholesky"
	var x starlark.Value
	upper, symmetrize := false, true
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "upper?", &upper, "symmetrize_input?", &symmetrize); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, true)
	if err != nil {
		return nil, err
	}
	c := newLA(fn)
	if symmetrize {
		a = c.symmetrize(a)
	}
	l := c.Prim("cholesky", nil, a)
	if upper {
		l = c.mH(l)
	}
	return c.Done(l)
}

func qrBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.qr"
	var x starlark.Value
	mode := "reduced"
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "mode?", &mode); err != nil {
		return nil, err
	}
	full := false
	switch mode {
	case "reduced", "r":
	case "complete":
		full = true
	case "raw":
		return nil, fmt.Errorf("%s: mode='raw' is not supported", fn)
	default:
		return nil, fmt.Errorf("%s: unsupported QR decomposition mode '%s'", fn, mode)
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	c := newLA(fn)
	qr := c.multi("qr", trace.Params{"full_matrices": full, "pivoting": false}, a)
	if c.Err != nil {
		return nil, c.Err
	}
	if mode == "r" {
		return qr[1], nil
	}
	return tupleOf(qr...), nil
}

func svdBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.svd"
	var x starlark.Value
	full, computeUV, hermitian := true, true, false
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "full_matrices?", &full, "compute_uv?", &computeUV, "hermitian?", &hermitian); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	// hermitian=True only promises symmetry; the general SVD gives the same
	// values, and vectors up to signs.
	c := newLA(fn)
	out := c.multi("svd", trace.Params{"full_matrices": full, "compute_uv": computeUV, "subset_by_index": nil}, a)
	if c.Err != nil {
		return nil, c.Err
	}
	if !computeUV {
		return out[0], nil
	}
	return tupleOf(out[1], out[0], out[2]), nil
}

// singularValues is svd(a, compute_uv=False).
func singularValues(fn string, a *jstarlark.Array) (*jstarlark.Array, error) {
	c := newLA(fn)
	out := c.multi("svd", trace.Params{"full_matrices": false, "compute_uv": false, "subset_by_index": nil}, a)
	if c.Err != nil {
		return nil, c.Err
	}
	return out[0], nil
}

func svdvalsBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.svdvals"
	var x starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	return singularValues(fn, a)
}

func eighBuiltin(valuesOnly bool) jstarlark.BuiltinFunc {
	fn := "jnp.linalg.eigh"
	if valuesOnly {
		fn = "jnp.linalg.eigvalsh"
	}
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		var uplo starlark.Value = starlark.None
		symmetrize := true
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "UPLO?", &uplo, "symmetrize_input?", &symmetrize); err != nil {
			return nil, err
		}
		lower := true
		switch uplo {
		case starlark.None, starlark.String("L"):
		case starlark.String("U"):
			lower = false
		default:
			return nil, fmt.Errorf("%s: UPLO must be 'L' or 'U', got %s", fn, uplo)
		}
		a, err := matrixArg(fn, x, true)
		if err != nil {
			return nil, err
		}
		c := newLA(fn)
		if symmetrize {
			a = c.symmetrize(a)
		}
		out := c.multi("eigh", trace.Params{"lower": lower, "sort_eigenvalues": true, "subset_by_index": nil}, a)
		if c.Err != nil {
			return nil, c.Err
		}
		if valuesOnly {
			return out[1], nil
		}
		return tupleOf(out[1], out[0]), nil
	}
}

func eigBuiltin(valuesOnly bool) jstarlark.BuiltinFunc {
	fn := "jnp.linalg.eig"
	if valuesOnly {
		fn = "jnp.linalg.eigvals"
	}
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x); err != nil {
			return nil, err
		}
		a, err := matrixArg(fn, x, true)
		if err != nil {
			return nil, err
		}
		c := newLA(fn)
		out := c.multi("eig", trace.Params{"compute_left_eigenvectors": false, "compute_right_eigenvectors": !valuesOnly}, a)
		if c.Err != nil {
			return nil, c.Err
		}
		if valuesOnly {
			return out[0], nil
		}
		return tupleOf(out...), nil
	}
}
