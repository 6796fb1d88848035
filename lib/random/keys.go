package random

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The builtins that make and derive keys (key, PRNGKey, split, fold_in,
// key_data, wrap_key_data) and bits, with JAX's argument checks
// (jax/_src/random/core.py). See random.go for the key representation.

// randomKeyBuiltin is key(seed, *, impl=None) or PRNGKey(seed, *, impl=None).
func randomKeyBuiltin(name string) jstarlark.BuiltinFunc {
	fn := "random." + name
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var seed, impl starlark.Value = nil, starlark.None
		if err := starlark.UnpackArgs(fn, args, kwargs, "seed", &seed, "impl?", &impl); err != nil {
			return nil, err
		}
		if err := implArg(fn, impl); err != nil {
			return nil, err
		}
		s, err := seedArg(fn, seed)
		if err != nil {
			return nil, err
		}
		r := newRNG(fn, s.Device())
		return r.Done(r.seed(s))
	}
}

// implArg accepts the one PRNG implementation jaxsh has.
func implArg(fn string, impl starlark.Value) error {
	switch impl {
	case starlark.None, starlark.String("threefry2x32"):
		return nil
	}
	return fmt.Errorf(`%s: unrecognized PRNG implementation %s. jaxsh has only "threefry2x32"`, fn, impl)
}

// seedArg reads a seed as JAX's random_seed does in its default 32-bit
// mode: a Python int goes through np.int64 (so it must fit) and is then
// canonicalized to int32, wrapping; an array seed keeps its integer dtype.
func seedArg(fn string, v starlark.Value) (*jstarlark.Array, error) {
	dev, err := jstarlark.OperandDevice(v)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case starlark.Bool:
		return jstarlark.ScalarArray(fn, starlark.MakeInt(int(jstarlark.BoolByte(bool(x)))), trace.Int32, false, dev)
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("%s: seed %s does not fit in int64 (JAX: Python int too large to convert to C long)", fn, x)
		}
		return jstarlark.ScalarArray(fn, starlark.MakeInt64(int64(int32(n))), trace.Int32, false, dev)
	case *jstarlark.Array:
		if x.NDim() != 0 {
			return nil, fmt.Errorf("%s accepts a scalar seed, but was given an array of shape %s != (). Use jax.vmap for batching", fn, x.Shape())
		}
		if !x.DType().IsInteger() {
			return nil, fmt.Errorf("%s: PRNG key seed must be an integer; got %s", fn, jstarlark.Describe(x))
		}
		return x, nil
	case *starlark.List, starlark.Tuple:
		return nil, fmt.Errorf("%s accepts a scalar seed, but was given a %s. Use jax.vmap for batching", fn, v.Type())
	}
	return nil, fmt.Errorf("%s: PRNG key seed must be an integer; got %s", fn, jstarlark.Describe(v))
}

// randomSplit is split(key, num=2): num keys, or keys of shape num when num
// is a tuple.
func randomSplit(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.split"
	var keyV starlark.Value
	var num starlark.Value = starlark.MakeInt(2)
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "num?", &num); err != nil {
		return nil, err
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	shape, err := jstarlark.ShapeArg(fn, num)
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	return r.Done(defaultPRNG.split(r, key, shape))
}

// randomFoldIn is fold_in(key, data): a key derived from key and a 32-bit
// integer (jnp.asarray(data, dtype='uint32')).
func randomFoldIn(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.fold_in"
	var keyV, dataV starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "data", &dataV); err != nil {
		return nil, err
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	var data *jstarlark.Array
	switch x := dataV.(type) {
	case *jstarlark.Array:
		if x.NDim() != 0 {
			return nil, fmt.Errorf("%s accepts a scalar, but was given an array of shape %s != (). Use jax.vmap for batching.", fn, x.Shape())
		}
		data, err = jstarlark.Astype(x, trace.Uint32)
	case starlark.Int, starlark.Float, starlark.Bool:
		data, err = jstarlark.ScalarArray(fn, x, trace.Uint32, false, key.Device())
	case *starlark.List, starlark.Tuple:
		return nil, fmt.Errorf("%s accepts a scalar, but was given a %s. Use jax.vmap for batching.", fn, x.Type())
	default:
		return nil, fmt.Errorf("%s: data must be an integer, got %s", fn, jstarlark.Describe(x))
	}
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	return r.Done(r.foldIn(key, data))
}

// randomKeyData is key_data(keys): the uint32 words under keys, which for
// jaxsh's raw keys are the keys themselves.
func randomKeyData(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var keys starlark.Value
	if err := starlark.UnpackArgs("random.key_data", args, kwargs, "keys", &keys); err != nil {
		return nil, err
	}
	return keyArg("random.key_data", keys, true)
}

// randomWrapKeyData is wrap_key_data(key_bits_array, *, impl=None): keys
// from their uint32 words, which jaxsh's raw keys are already.
func randomWrapKeyData(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.wrap_key_data"
	var bitsV starlark.Value
	var impl starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "key_bits_array", &bitsV, "impl?", &impl); err != nil {
		return nil, err
	}
	if err := implArg(fn, impl); err != nil {
		return nil, err
	}
	return keyArg(fn, bitsV, true)
}

// randomBitsBuiltin is bits(key, shape=(), dtype=None): uniform random
// unsigned integers (uint32 by default; jaxsh has no uint64).
func randomBitsBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.bits"
	var keyV starlark.Value
	var shapeV starlark.Value = starlark.Tuple{}
	var dtypeV starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "shape?", &shapeV, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	dt, given, err := jstarlark.DTypeArg(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	if !given {
		dt = trace.Uint32
	}
	if !dt.IsUnsigned() {
		return nil, fmt.Errorf("%s: dtype argument to `bits` must be an unsigned int dtype, got %s", fn, dt)
	}
	shape, err := jstarlark.ShapeArg(fn, shapeV)
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	return r.Done(defaultPRNG.bits(r, key, dt.Bits(), shape))
}
