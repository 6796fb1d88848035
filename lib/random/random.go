package random

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The random module: jax.random with JAX's default PRNG, threefry2x32,
// composed from the same primitives in the same order as JAX's Python code
// (jax/_src/random/threefry2x32.py for the key operations and random bits,
// jax/_src/random/core.py for the samplers), so that a key gives the bits
// JAX gives for it.
//
// Keys. random.key(seed) and random.PRNGKey(seed) both return JAX's legacy
// raw key: a uint32[2] array. JAX's key() returns a typed scalar key
// (Array((), dtype=key<fry>)) over the same two words; jaxsh has no key
// dtype, so the two constructors agree and every function takes the raw
// form, as jax.random does for legacy keys. key_data and wrap_key_data are
// the identity on valid raw keys.
//
// Seeds follow JAX with its default 32-bit mode: a Python int seed is
// converted to int64 (larger ones are an error, as JAX's OverflowError) and
// then to the default int32, wrapping, so PRNGKey(-1) is [0, 4294967295];
// an int64 array seed keeps its high word: jnp.int64(-1) gives
// [4294967295, 4294967295], as in JAX with jax_enable_x64.
//
// Bits. JAX has two ways of deriving bits and split keys from a key,
// selected by the jax_threefry_partitionable flag, which defaults to True
// since JAX 0.5.0: hashing a 64-bit counter per output element
// (partitionable), or hashing one iota over the whole output (the original
// scheme). Both are implemented (prng.partitionable); the module uses the
// default.
//
// Floating-point kernels. Keys, bits, integers, booleans and permutations
// come from integer operations, and uniform floats in [0, 1) from exact
// float steps, so they are JAX's bits. Other bounds add one multiply and
// add, which round as XLA's do unless XLA fuses them into an FMA (JAX's
// full-precision known answers all use [0, 1) or a scale by 10). normal
// also goes through the erf_inv kernel, and gumbel and categorical through
// log: the float32 erf_inv kernel evaluates XLA's own approximation (Giles'
// polynomial, xla/hlo/builder/lib/math.cc ErfInv32) in XLA's order, so a
// normal can differ from JAX's only where XLA's log1p or a multiply-add XLA
// fuses into an FMA rounds differently in the last bit. JAX's printed known
// answers (six digits) for normal, truncated_normal, maxwell, gamma, beta,
// dirichlet, poisson and multivariate_normal all agree
// (known_values_test.go). categorical's argmax hides such differences
// except at near-ties.
//
// Dtypes jaxsh lacks bound what can be sampled: there is no uint64, so 64-bit
// random bits exist only as two uint32 halves (enough for float64 uniform
// and normal) and randint rejects int64; complex normal and the samplers'
// less common modes are refused with an error that says so.

// A prng is JAX's threefry2x32 implementation under one setting of the
// jax_threefry_partitionable flag.
type prng struct{ partitionable bool }

// defaultPRNG is JAX's default: jax_threefry_partitionable=True.
var defaultPRNG = prng{partitionable: true}

func init() {
	jstarlark.Register(Module, "key", randomKeyBuiltin("key"))
	jstarlark.Register(Module, "PRNGKey", randomKeyBuiltin("PRNGKey"))
	jstarlark.Register(Module, "split", randomSplit)
	jstarlark.Register(Module, "fold_in", randomFoldIn)
	jstarlark.Register(Module, "key_data", randomKeyData)
	jstarlark.Register(Module, "wrap_key_data", randomWrapKeyData)
	jstarlark.Register(Module, "bits", randomBitsBuiltin)
}

// rng composes the primitives of one random function on one device; its
// first failure sticks and names the function (see jstarlark.Composer).
type rng struct {
	jstarlark.Composer
	dev jit.Device
}

func newRNG(fn string, dev jit.Device) *rng {
	return &rng{Composer: jstarlark.Composer{Fn: fn}, dev: dev}
}

// step records the outcome of a Go helper, naming the function in its error.
func (r *rng) step(a *jstarlark.Array, err error) *jstarlark.Array {
	if r.Err != nil {
		return nil
	}
	if err != nil {
		return r.Fail(err)
	}
	return a
}

// konst is a strongly typed 0-d constant: lax._const and the NumPy scalars
// of JAX's code (np.uint32(0xFFFFFFFF)).
func (r *rng) konst(dt trace.DType, v starlark.Value) *jstarlark.Array {
	if r.Err != nil {
		return nil
	}
	return r.step(jstarlark.ScalarArray(r.Fn, v, dt, false, r.dev))
}

func (r *rng) u32(v uint32) *jstarlark.Array {
	return r.konst(trace.Uint32, starlark.MakeUint64(uint64(v)))
}

func (r *rng) iota(dt trace.DType, shape []int, dim int) *jstarlark.Array {
	if r.Err != nil {
		return nil
	}
	return r.step(jstarlark.IotaOf(r.dev, dt, shape, dim))
}

func (r *rng) slice1(x *jstarlark.Array, start, limit int) *jstarlark.Array {
	if !r.OK(x) {
		return nil
	}
	return r.step(jstarlark.SliceInDim(x, 0, start, limit))
}

func (r *rng) concat(axis int, xs ...*jstarlark.Array) *jstarlark.Array {
	if !r.OK(xs...) {
		return nil
	}
	return r.step(jstarlark.JoinAlong(xs, axis))
}

// ufunc applies a jnp binary function: JAX's code uses Python operators
// (a * b, a < b, a & b) there, with their promotion and broadcasting.
func (r *rng) ufunc(name string, x, y *jstarlark.Array) *jstarlark.Array {
	if !r.OK(x, y) {
		return nil
	}
	return r.step(jstarlark.BinaryUfunc(name)(x, y))
}

// keyArg is _check_prng_key for raw keys: a uint32 array ending in (2,),
// and a single key unless batched keys are allowed.
func keyArg(fn string, v starlark.Value, allowBatched bool) (*jstarlark.Array, error) {
	a, ok := v.(*jstarlark.Array)
	if !ok {
		if _, num := jstarlark.ScalarType(v); !num {
			return nil, fmt.Errorf("%s: unexpected PRNG key type %s", fn, v.Type())
		}
		return nil, fmt.Errorf("%s: JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim=0", fn)
	}
	switch {
	case a.NDim() < 1:
		return nil, fmt.Errorf("%s: JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim=0", fn)
	case a.Shape()[a.NDim()-1] != 2:
		return nil, fmt.Errorf("%s: JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); got shape=%s for impl=threefry2x32", fn, a.Shape())
	case a.DType() != trace.Uint32:
		return nil, fmt.Errorf("%s: JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; got dtype=%s", fn, a.DType())
	case !allowBatched && a.NDim() != 1:
		return nil, fmt.Errorf("%s accepts a single key, but was given a key array of shape %s != (). Use jax.vmap for batching.", fn, a.Shape()[:a.NDim()-1])
	}
	return a, nil
}

// keyWords is `k1, k2 = key`: the two words of a key as 0-d arrays.
func (r *rng) keyWords(key *jstarlark.Array) (*jstarlark.Array, *jstarlark.Array) {
	k1 := r.Reshape(r.slice1(key, 0, 1), trace.Shape{})
	k2 := r.Reshape(r.slice1(key, 1, 2), trace.Shape{})
	return k1, k2
}

// hash is threefry_2x32(keypair, count): the counts, flattened and padded
// with a zero to an even length, are hashed as (first half, second half)
// pairs; the two output halves, concatenated, give one word per count.
func (r *rng) hash(key, count *jstarlark.Array) *jstarlark.Array {
	if !r.OK(key, count) {
		return nil
	}
	k1, k2 := r.keyWords(key)
	n := count.Size()
	flat := r.Reshape(count, trace.Shape{n})
	odd := n % 2
	if odd == 1 {
		flat = r.concat(0, flat, r.Reshape(r.u32(0), trace.Shape{1}))
	}
	half := (n + odd) / 2
	y0, y1 := r.threefry(k1, k2, r.slice1(flat, 0, half), r.slice1(flat, half, 2*half))
	joined := r.concat(0, y0, y1)
	if odd == 1 {
		joined = r.slice1(joined, 0, n)
	}
	return r.Reshape(joined, count.Shape())
}

// maxCounterElements bounds the outputs jaxsh derives bits for: JAX counts
// up to 2^64 with two uint32 words, but jaxsh builds the counter with a
// uint32 iota, which stops at 2^32 (an array that large would not fit in
// memory anyway).
const maxCounterElements = 1 << 32

// counters is iota_2x32_shape(shape): the high and low words of a 64-bit
// row-major iota over shape. The high words are all zero below 2^32
// elements, so they are one 0-d zero that threefry2x32 broadcasts.
func (r *rng) counters(shape trace.Shape) (hi, lo *jstarlark.Array) {
	n := shape.Size()
	if n >= maxCounterElements {
		r.Fail(fmt.Errorf("random bits for %d elements: jaxsh supports fewer than 2^32 per call", n))
		return nil, nil
	}
	return r.u32(0), r.Reshape(r.iota(trace.Uint32, []int{n}, 0), shape)
}

// pairBits is threefry2x32_p.bind(k1, k2, *iota_2x32_shape(shape)): the
// two words hashed for every element of shape, which the partitionable
// scheme stacks into split keys (_threefry_split_foldlike) and combines
// into bits (_threefry_random_bits_partitionable).
func (r *rng) pairBits(key *jstarlark.Array, shape trace.Shape) (*jstarlark.Array, *jstarlark.Array) {
	k1, k2 := r.keyWords(key)
	hi, lo := r.counters(shape)
	return r.threefry(k1, k2, hi, lo)
}

// threefry binds the threefry2x32 primitive: two key words and two count
// words in, two hashed words out.
func (r *rng) threefry(k1, k2, x0, x1 *jstarlark.Array) (*jstarlark.Array, *jstarlark.Array) {
	if !r.OK(k1, k2, x0, x1) {
		return nil, nil
	}
	out, err := jstarlark.Bind("threefry2x32", nil, k1, k2, x0, x1)
	if err != nil {
		r.Fail(err)
		return nil, nil
	}
	return out[0], out[1]
}

// seed is threefry_seed: the key [seed >> 32, seed & 0xFFFFFFFF] of an
// integer scalar, the high word zero for 32-bit seeds (XLA shifts by the
// full width to 0).
func (r *rng) seed(seed *jstarlark.Array) *jstarlark.Array {
	if !r.OK(seed) {
		return nil
	}
	hi := r.Convert(r.Binary("shift_right_logical", seed, r.konst(seed.DType(), starlark.MakeInt(32))), trace.Uint32, false)
	lo := r.Convert(r.ufunc("bitwise_and", seed, r.u32(0xFFFFFFFF)), trace.Uint32, false)
	return r.concat(0, r.Reshape(hi, trace.Shape{1}), r.Reshape(lo, trace.Shape{1}))
}

// foldIn is threefry_fold_in: the hash of the seed key made from data, a
// uint32 scalar, under key.
func (r *rng) foldIn(key, data *jstarlark.Array) *jstarlark.Array { return r.hash(key, r.seed(data)) }

// split is threefry_split: keys of shape (*shape, 2).
func (p prng) split(r *rng, key *jstarlark.Array, shape trace.Shape) *jstarlark.Array {
	if !r.OK(key) {
		return nil
	}
	if p.partitionable {
		bits1, bits2 := r.pairBits(key, shape)
		outShape := append(shape.Clone(), 1)
		return r.concat(len(shape), r.Reshape(bits1, outShape), r.Reshape(bits2, outShape))
	}
	n := shape.Size()
	if 2*n >= maxCounterElements {
		return r.Fail(fmt.Errorf("splitting into %d keys: jaxsh supports fewer than 2^31", n))
	}
	counts := r.iota(trace.Uint32, []int{2 * n}, 0)
	return r.Reshape(r.hash(key, counts), append(shape.Clone(), 2))
}

// unsignedOf is UINT_DTYPES: the unsigned dtype of a bit width.
func unsignedOf(bits int) trace.DType {
	switch bits {
	case 8:
		return trace.Uint8
	case 16:
		return trace.Uint16
	}
	return trace.Uint32
}

// bits is threefry_random_bits for 8, 16 and 32 bits: an array of shape of
// the unsigned dtype of that width.
func (p prng) bits(r *rng, key *jstarlark.Array, width int, shape trace.Shape) *jstarlark.Array {
	if !r.OK(key) {
		return nil
	}
	if p.partitionable {
		bits1, bits2 := r.pairBits(key, shape)
		x := r.Binary("xor", bits1, bits2)
		if width == 32 {
			return x
		}
		return r.Convert(x, unsignedOf(width), false)
	}
	size := shape.Size()
	maxCount := (width*size + 31) / 32
	words := p.originalWords(r, key, maxCount)
	if width == 32 || r.Err != nil {
		return r.Reshape(words, shape)
	}
	// bits.view(dtype)[:size], as JAX computes it: each word shifted right by
	// 0, w, 2w, ... bits and masked, the pieces of a word laid out in a row.
	per := 32 / width
	shifts := r.Binary("mul", r.u32(uint32(width)), r.iota(trace.Uint32, []int{per, 1}, 0))
	pieces := r.Binary("shift_right_logical", r.Reshape(words, trace.Shape{1, maxCount}), shifts)
	pieces = r.Binary("and", r.u32(uint32(1)<<width-1), pieces)
	pieces = r.Prim("transpose", trace.Params{"permutation": []int{1, 0}}, pieces)
	flat := r.Convert(r.Reshape(pieces, trace.Shape{maxCount * per}), unsignedOf(width), false)
	return r.Reshape(r.slice1(flat, 0, size), shape)
}

// originalWords is the hash of iota(count) under key, the words of
// _threefry_random_bits_original. JAX splits the key into blocks past
// 2^32-1 words; jaxsh stops before that (see maxCounterElements).
func (p prng) originalWords(r *rng, key *jstarlark.Array, count int) *jstarlark.Array {
	if count >= maxCounterElements-1 {
		return r.Fail(fmt.Errorf("random bits for %d words: jaxsh supports fewer than 2^32-1 per call", count))
	}
	return r.hash(key, r.iota(trace.Uint32, []int{count}, 0))
}

// bits64 is threefry_random_bits for 64 bits, as the high and low uint32
// words of each uint64 (jaxsh has no uint64 dtype).
func (p prng) bits64(r *rng, key *jstarlark.Array, shape trace.Shape) (hi, lo *jstarlark.Array) {
	if !r.OK(key) {
		return nil, nil
	}
	if p.partitionable {
		return r.pairBits(key, shape)
	}
	// jnp.split(bits, 2): the first half holds the high words.
	size := shape.Size()
	words := p.originalWords(r, key, 2*size)
	return r.Reshape(r.slice1(words, 0, size), shape), r.Reshape(r.slice1(words, size, 2*size), shape)
}
