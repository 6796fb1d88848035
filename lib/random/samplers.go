package random

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The continuous and integer samplers: uniform, normal, randint and
// bernoulli, each the primitive sequence of its JAX counterpart
// (jax/_src/random/core.py: _uniform, _normal_real, _randint, _bernoulli).

func init() {
	jstarlark.Register(Module, "uniform", randomUniform)
	jstarlark.Register(Module, "normal", randomNormal)
	jstarlark.Register(Module, "randint", randomRandint)
	jstarlark.Register(Module, "bernoulli", randomBernoulli)
}

// samplerArgs unpacks the key, shape and dtype shared by the samplers and
// checks the key. dtype None leaves dt invalid for the caller's default.
func samplerArgs(fn string, keyV, shapeV, dtypeV starlark.Value) (key *jstarlark.Array, shape trace.Shape, dt trace.DType, err error) {
	if key, err = keyArg(fn, keyV, false); err != nil {
		return
	}
	if shape, err = jstarlark.ShapeArg(fn, shapeV); err != nil {
		return
	}
	dt, _, err = jstarlark.DTypeArg(fn, dtypeV)
	return
}

// checkSampleShape is _check_shape: parameter shapes must broadcast to the
// requested shape exactly.
func checkSampleShape(fn, short string, shape trace.Shape, paramShapes ...trace.Shape) error {
	if len(paramShapes) == 0 {
		return nil
	}
	got, err := trace.BroadcastShapes(append([]trace.Shape{shape}, paramShapes...)...)
	if err != nil {
		return fmt.Errorf("%s: %v", fn, err)
	}
	if !got.Equal(shape) {
		return fmt.Errorf("%s: %s parameter shapes must be broadcast-compatible with shape argument, and the result of broadcasting the shapes must equal the shape argument, but got result %s for shape argument %s.", fn, short, got, shape)
	}
	return nil
}

// toRank is lax.broadcast_to_rank: leading unit axes up to rank (arrays of
// higher rank are left alone).
func (r *rng) toRank(x *jstarlark.Array, rank int) *jstarlark.Array {
	if !r.OK(x) || x.NDim() >= rank {
		return x
	}
	shape := make(trace.Shape, rank-x.NDim(), rank)
	for i := range shape {
		shape[i] = 1
	}
	return r.Reshape(x, append(shape, x.Shape()...))
}

// row is x[i] for the leading axis: `a, b = x` in JAX's code.
func (r *rng) row(x *jstarlark.Array, i int) *jstarlark.Array {
	if !r.OK(x) {
		return nil
	}
	return r.Reshape(r.slice1(x, i, i+1), x.Shape()[1:])
}

// floatOne is the bit pattern of 1.0 in a float dtype of at most 32 bits
// (np.array(1.0, dtype).view(uint)).
func floatOne(dt trace.DType) uint32 {
	switch dt {
	case trace.Float16:
		return 0x3C00
	case trace.BFloat16:
		return 0x3F80
	}
	return math.Float32bits(1)
}

// uniform is _uniform(key, minval, maxval, shape, dtype): random mantissa
// bits under the exponent of 1.0 give a float in [1, 2); minus 1, scaled
// and shifted into [minval, maxval), and never below minval.
func (p prng) uniform(r *rng, key *jstarlark.Array, shape trace.Shape, dt trace.DType, minval, maxval *jstarlark.Array) *jstarlark.Array {
	minval = r.toRank(r.Convert(minval, dt, false), len(shape))
	maxval = r.toRank(r.Convert(maxval, dt, false), len(shape))
	if !r.OK(key, minval, maxval) {
		return nil
	}
	info := numpy.FinfoOf(dt)
	nbits, nmant := info.Bits, info.Nmant
	var floats *jstarlark.Array
	if nbits == 64 {
		floats = p.unitFloat64(r, key, shape)
	} else {
		rngBits := nbits
		if nmant < 8 {
			rngBits = 8
		}
		udt := unsignedOf(nbits)
		bits := r.Convert(p.bits(r, key, rngBits, shape), udt, false)
		floatBits := r.Binary("shift_right_logical", bits, r.konst(udt, starlark.MakeInt(rngBits-nmant)))
		floatBits = r.Binary("or", floatBits, r.konst(udt, starlark.MakeUint64(uint64(floatOne(dt)))))
		floats = r.Prim("bitcast_convert_type", trace.Params{"new_dtype": dt}, floatBits)
	}
	floats = r.ufunc("subtract", floats, r.konst(dt, starlark.Float(1)))
	scaled := r.ufunc("add", r.ufunc("multiply", floats, r.ufunc("subtract", maxval, minval)), minval)
	return r.Binary("max", minval, r.Reshape(scaled, shape))
}

// unitFloat64 is the float64 branch of _uniform up to the bitcast: the
// uint64 bits (b >> 12) | bits(1.0), built from the two uint32 halves of b
// (jaxsh has no uint64) and bitcast as [low word, high word], the order of
// the float64's bytes.
func (p prng) unitFloat64(r *rng, key *jstarlark.Array, shape trace.Shape) *jstarlark.Array {
	hi, lo := p.bits64(r, key, shape)
	newHi := r.Binary("or", r.Binary("shift_right_logical", hi, r.u32(12)), r.u32(0x3FF00000))
	newLo := r.Binary("or", r.Binary("shift_right_logical", lo, r.u32(12)), r.Binary("shift_left", hi, r.u32(20)))
	pairShape := append(shape.Clone(), 1)
	pair := r.concat(len(shape), r.Reshape(newLo, pairShape), r.Reshape(newHi, pairShape))
	return r.Prim("bitcast_convert_type", trace.Params{"new_dtype": trace.Float64}, pair)
}

// boundArg reads minval/maxval-like arguments: arrays, or Python numbers as
// weakly typed scalars.
func boundArg(fn string, v starlark.Value, pos int, key *jstarlark.Array) (*jstarlark.Array, error) {
	return jstarlark.ArraylikeArg(fn, v, pos, key.Device())
}

// randomUniform is uniform(key, shape=(), dtype=float32, minval=0.,
// maxval=1.).
func randomUniform(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.uniform"
	var keyV, shapeV, dtypeV starlark.Value = nil, starlark.Tuple{}, starlark.None
	var minV, maxV starlark.Value = starlark.Float(0), starlark.Float(1)
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "shape?", &shapeV, "dtype?", &dtypeV, "minval?", &minV, "maxval?", &maxV); err != nil {
		return nil, err
	}
	key, shape, dt, err := samplerArgs(fn, keyV, shapeV, dtypeV)
	if err != nil {
		return nil, err
	}
	if dt == trace.InvalidDType {
		dt = trace.Float32
	}
	if !dt.IsFloat() {
		return nil, fmt.Errorf("%s: dtype argument to `uniform` must be a float dtype, got %s", fn, dt)
	}
	minval, err := boundArg(fn, minV, 3, key)
	if err != nil {
		return nil, err
	}
	maxval, err := boundArg(fn, maxV, 4, key)
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	return r.Done(defaultPRNG.uniform(r, key, shape, dt, minval, maxval))
}

// normal is _normal_real: sqrt(2) * erf_inv(u) for u uniform in the open
// interval (-1, 1). u is JAX's to the bit; the result is as close to JAX's
// as the erf_inv kernel is to XLA's (see random.go).
func (p prng) normal(r *rng, key *jstarlark.Array, shape trace.Shape, dt trace.DType) *jstarlark.Array {
	// np.nextafter(-1, 0) in dt: -(1 - 2^-(nmant+1)), exact in every float dtype.
	lo := -(1 - math.Ldexp(1, -(numpy.FinfoOf(dt).Nmant+1)))
	u := p.uniform(r, key, shape, dt, r.konst(dt, starlark.Float(lo)), r.konst(dt, starlark.Float(1)))
	return r.Binary("mul", r.konst(dt, starlark.Float(math.Sqrt2)), r.Unary("erf_inv", u))
}

// randomNormal is normal(key, shape=(), dtype=float32).
func randomNormal(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.normal"
	var keyV, shapeV, dtypeV starlark.Value = nil, starlark.Tuple{}, starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "shape?", &shapeV, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	key, shape, dt, err := samplerArgs(fn, keyV, shapeV, dtypeV)
	if err != nil {
		return nil, err
	}
	switch {
	case dt == trace.InvalidDType:
		dt = trace.Float32
	case dt.IsComplex():
		return nil, fmt.Errorf("%s: complex dtypes (%s) are not supported yet", fn, dt)
	case !dt.IsFloat():
		return nil, fmt.Errorf("%s: dtype argument to `normal` must be a float or complex dtype, got %s", fn, dt)
	}
	r := newRNG(fn, key.Device())
	return r.Done(defaultPRNG.normal(r, key, shape, dt))
}

// intLimits is iinfo(dt).min and .max.
func intLimits(dt trace.DType) (lo, hi int64) {
	bits := uint(dt.Bits())
	if dt.IsUnsigned() {
		return 0, int64(uint64(1)<<bits - 1)
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// convertAndClip is _convert_and_clip_integer: val converted to the integer
// dtype dt, clipped to dt's range instead of wrapping.
func (r *rng) convertAndClip(val *jstarlark.Array, dt trace.DType) *jstarlark.Array {
	if !r.OK(val) {
		return nil
	}
	dlo, dhi := intLimits(dt)
	vlo, vhi := intLimits(val.DType())
	lo := r.konst(val.DType(), starlark.MakeInt64(max(dlo, vlo)))
	hi := r.konst(val.DType(), starlark.MakeInt64(min(dhi, vhi)))
	clipped := r.ufunc("minimum", hi, r.ufunc("maximum", lo, val))
	return r.Convert(clipped, dt, false)
}

// randint is _randint: two draws of nbits random bits reduced modulo the
// span, combined as (higher % span) * (2^nbits % span) + lower % span, all
// in the unsigned dtype of the width, so that the bias of the modulus is
// that of 2*nbits bits.
func (p prng) randint(r *rng, key *jstarlark.Array, shape trace.Shape, minval, maxval *jstarlark.Array, dt trace.DType) *jstarlark.Array {
	if !r.OK(minval, maxval) {
		return nil
	}
	if !minval.DType().IsInteger() {
		minval = r.Convert(minval, trace.Int32, false)
	}
	if !maxval.DType().IsInteger() {
		maxval = r.Convert(maxval, trace.Int32, false)
	}
	if !r.OK(minval, maxval) {
		return nil
	}
	// Where maxval is above dt's range (randint(key, s, 0, 256, 'uint8')),
	// the span is one larger than maxval - minval once clipped.
	_, dhi := intLimits(dt)
	outOfRange := r.Binary("gt", maxval, r.convertAndClip(r.konst(dt, starlark.MakeInt64(dhi)), maxval.DType()))
	minval = r.toRank(r.convertAndClip(minval, dt), len(shape))
	maxval = r.toRank(r.convertAndClip(maxval, dt), len(shape))
	nbits := dt.Bits()
	keys := p.split(r, key, trace.Shape{2})
	higher := p.bits(r, r.row(keys, 0), nbits, shape)
	lower := p.bits(r, r.row(keys, 1), nbits, shape)
	udt := unsignedOf(nbits)
	span := r.Convert(r.ufunc("subtract", maxval, minval), udt, false)
	// span = 1 where maxval <= minval, so minval is returned (jax#222).
	span = r.Select(r.ufunc("less_equal", maxval, minval), r.FullLike(span, 1, udt), span)
	span = r.Select(r.ufunc("bitwise_and", outOfRange, r.ufunc("greater", maxval, minval)),
		r.Binary("add", span, r.konst(udt, starlark.MakeInt(1))), span)
	multiplier := r.Binary("rem", r.konst(udt, starlark.MakeInt(1<<(nbits/2))), span)
	multiplier = r.Binary("rem", r.Binary("mul", multiplier, multiplier), span)
	offset := r.Binary("add", r.Binary("mul", r.Binary("rem", higher, span), multiplier), r.Binary("rem", lower, span))
	offset = r.Binary("rem", offset, span)
	return r.Binary("add", minval, r.Convert(offset, dt, false))
}

// randomRandint is randint(key, shape, minval, maxval, dtype=int32).
// Integers narrower than 32 bits are sampled as int32 and converted, as JAX
// does to keep the modulus bias small.
func randomRandint(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.randint"
	var keyV, shapeV, minV, maxV starlark.Value
	var dtypeV starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "shape", &shapeV, "minval", &minV, "maxval", &maxV, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	key, shape, dt, err := samplerArgs(fn, keyV, shapeV, dtypeV)
	if err != nil {
		return nil, err
	}
	switch {
	case dt == trace.InvalidDType:
		dt = trace.Int32
	case !dt.IsInteger():
		return nil, fmt.Errorf("%s: randint only accepts integer dtypes, got %s", fn, dt)
	case dt.Bits() == 64:
		return nil, fmt.Errorf("%s: dtype %s is not supported: JAX samples it with uint64 arithmetic, and jaxsh has no uint64", fn, dt)
	}
	minval, err := boundArg(fn, minV, 2, key)
	if err != nil {
		return nil, err
	}
	maxval, err := boundArg(fn, maxV, 3, key)
	if err != nil {
		return nil, err
	}
	if err := checkSampleShape(fn, "randint", shape, minval.Shape(), maxval.Shape()); err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	sampleDT := dt
	if dt.Bits() < 32 {
		sampleDT = trace.Int32
		lo, hi := intLimits(dt)
		clip := func(x *jstarlark.Array, hi int64) *jstarlark.Array {
			x = r.Convert(x, trace.Int32, false)
			x = r.ufunc("maximum", r.konst(trace.Int32, starlark.MakeInt64(lo)), x)
			return r.ufunc("minimum", r.konst(trace.Int32, starlark.MakeInt64(hi)), x)
		}
		minval, maxval = clip(minval, hi), clip(maxval, hi+1)
	}
	out := defaultPRNG.randint(r, key, shape, minval, maxval, sampleDT)
	return r.Done(r.Convert(out, dt, false))
}

// bernoulli is _bernoulli: uniform < p, or in mode 'high' a second uniform
// draw refining the first below its resolution.
func (p prng) bernoulli(r *rng, key *jstarlark.Array, prob *jstarlark.Array, shape trace.Shape, high bool) *jstarlark.Array {
	if !r.OK(prob) {
		return nil
	}
	dt := prob.DType()
	if !high {
		return r.ufunc("less", p.uniform(r, key, shape, dt, r.konst(dt, starlark.Float(0)), r.konst(dt, starlark.Float(1))), prob)
	}
	u := p.uniform(r, key, append(trace.Shape{2}, shape...), dt, r.konst(dt, starlark.Float(0)), r.konst(dt, starlark.Float(1)))
	u1, u2 := r.row(u, 0), r.row(u, 1)
	u2 = r.ufunc("multiply", u2, r.konst(dt, starlark.Float(math.Ldexp(1, -numpy.FinfoOf(dt).Nmant))))
	return r.ufunc("less", u2, r.ufunc("subtract", prob, u1))
}

// randomBernoulli is bernoulli(key, p=0.5, shape=None, mode='low').
func randomBernoulli(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.bernoulli"
	var keyV, shapeV starlark.Value = nil, starlark.None
	var pV starlark.Value = starlark.Float(0.5)
	mode := "low"
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "p?", &pV, "shape?", &shapeV, "mode?", &mode); err != nil {
		return nil, err
	}
	if mode != "high" && mode != "low" {
		return nil, fmt.Errorf("%s: got mode=%q, expected 'high' or 'low'", fn, mode)
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	prob, err := boundArg(fn, pV, 1, key)
	if err != nil {
		return nil, err
	}
	if !prob.DType().IsFloat() {
		return nil, fmt.Errorf("%s: bernoulli probability `p` must have a floating dtype, got %s.", fn, prob.DType())
	}
	shape := prob.Shape()
	if shapeV != starlark.None {
		if shape, err = jstarlark.ShapeArg(fn, shapeV); err != nil {
			return nil, err
		}
		if err := checkSampleShape(fn, "bernoulli", shape, prob.Shape()); err != nil {
			return nil, err
		}
	}
	r := newRNG(fn, key.Device())
	// lax.convert_element_type(p, dtype): a strongly typed p.
	prob = r.Convert(prob, prob.DType(), false)
	return r.Done(defaultPRNG.bernoulli(r, key, prob, shape, mode == "high"))
}
