package random

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// gumbel, categorical and permutation, as JAX composes them
// (jax/_src/random/core.py: _gumbel, _categorical, permutation, _shuffle).

func init() {
	jstarlark.Register(Module, "gumbel", randomGumbel)
	jstarlark.Register(Module, "categorical", randomCategorical)
	jstarlark.Register(Module, "permutation", randomPermutation)
}

// gumbel is _gumbel in modes 'low' (-log(-log(u)) for u uniform in
// [tiny, 1)) and 'high' (u refined by a second draw below its resolution,
// through log1p).
func (p prng) gumbel(r *rng, key *jstarlark.Array, shape trace.Shape, dt trace.DType, high bool) *jstarlark.Array {
	info := numpy.FinfoOf(dt)
	f := func(v float64) *jstarlark.Array { return r.konst(dt, starlark.Float(v)) }
	if !high {
		u := p.uniform(r, key, shape, dt, f(info.Tiny), f(1))
		return r.Unary("neg", r.Unary("log", r.Unary("neg", r.Unary("log", u))))
	}
	u := p.uniform(r, key, append(trace.Shape{2}, shape...), dt, f(0), f(1))
	hi, lo := r.row(u, 0), r.row(u, 1)
	refined := r.ufunc("add", hi, r.ufunc("multiply", f(math.Ldexp(1, -info.Nmant)), lo))
	refined = r.ufunc("add", refined, f(max(math.Ldexp(1, -(2*info.Nmant+1)), info.Tiny)))
	x := r.Select(r.ufunc("greater_equal", hi, f(0.5)), hi, refined)
	return r.Unary("neg", r.Unary("log", r.Unary("neg", r.Unary("log1p", r.Unary("neg", x)))))
}

// gumbelDType checks a sampler's float dtype as gumbel does.
func gumbelDType(fn string, dt trace.DType) error {
	if !dt.IsFloat() {
		return fmt.Errorf("%s: dtype argument to `gumbel` must be a float dtype, got %s", fn, dt)
	}
	return nil
}

// gumbelMode reads gumbel's mode: None is 'low' (JAX's default,
// use_high_dynamic_range_gumbel=False).
func gumbelMode(fn string, v starlark.Value) (high bool, err error) {
	switch v {
	case starlark.None, starlark.String("low"):
		return false, nil
	case starlark.String("high"):
		return true, nil
	case starlark.String("highest"):
		return false, fmt.Errorf("%s: mode='highest' is not supported (it needs lax.clz, which jaxsh lacks); use 'low' or 'high'", fn)
	}
	return false, fmt.Errorf("%s: Must provide valid mode for gumbel got: %s", fn, v)
}

// randomGumbel is gumbel(key, shape=(), dtype=float32, mode=None).
func randomGumbel(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.gumbel"
	var keyV, shapeV, dtypeV, modeV starlark.Value = nil, starlark.Tuple{}, starlark.None, starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "shape?", &shapeV, "dtype?", &dtypeV, "mode?", &modeV); err != nil {
		return nil, err
	}
	key, shape, dt, err := samplerArgs(fn, keyV, shapeV, dtypeV)
	if err != nil {
		return nil, err
	}
	if dt == trace.InvalidDType {
		dt = trace.Float32
	}
	if err := gumbelDType(fn, dt); err != nil {
		return nil, err
	}
	high, err := gumbelMode(fn, modeV)
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	return r.Done(defaultPRNG.gumbel(r, key, shape, dt, high))
}

// categorical is _categorical with replacement: the argmax over axis of
// logits plus Gumbel noise, drawn with shape's leading (sample) axes in
// front of the logits' axes.
func (p prng) categorical(r *rng, key, logits *jstarlark.Array, axis int, shape, batch trace.Shape, high bool) *jstarlark.Array {
	prefix := shape[:len(shape)-len(batch)]
	noiseShape := append(prefix.Clone(), shape[len(prefix):]...)
	noiseShape = append(noiseShape[:len(prefix)+axis], append(trace.Shape{logits.Shape()[axis]}, noiseShape[len(prefix)+axis:]...)...)
	noise := p.gumbel(r, key, noiseShape, logits.DType(), high)
	lead := make([]int, len(prefix))
	for i := range lead {
		lead[i] = i
	}
	expanded := r.step(jstarlark.InsertUnitAxes(logits, lead))
	return r.Prim("argmax", trace.Params{"axes": []int{len(prefix) + axis}, "index_dtype": trace.Int32},
		r.ufunc("add", noise, expanded))
}

// categoricalWithoutReplacement is _categorical without replacement, the
// Gumbel top-k trick: the indices of the k largest perturbed logits along
// axis, k the number of samples shape's leading axes ask for, moved in
// front of the batch axes. lax.top_k is a stable ascending sort of the
// negated values carrying their indices, so that ties go to the lower
// index as in XLA's TopK.
func (p prng) categoricalWithoutReplacement(r *rng, key, logits *jstarlark.Array, axis int, shape, batch trace.Shape, high bool) *jstarlark.Array {
	noisy := r.ufunc("add", logits, p.gumbel(r, key, logits.Shape(), logits.DType(), high))
	if !r.OK(noisy) {
		return nil
	}
	last := noisy.NDim() - 1
	moved := r.step(numpy.MoveAxesTo(r.Fn, noisy, []int{axis}, []int{last}))
	if !r.OK(moved) {
		return nil
	}
	order := r.iota(trace.Int32, moved.Shape(), last)
	negated := r.Unary("neg", moved)
	if !r.OK(order, negated) {
		return nil
	}
	sorted, err := jstarlark.Bind("sort", numpy.SortParams(last, true, 1), negated, order)
	if err != nil {
		return r.Fail(err)
	}
	k := shape[:len(shape)-len(batch)].Size()
	top := r.step(jstarlark.SliceInDim(sorted[1], last, 0, k))
	// lax.reshape(indices, shape, dimensions=(last, 0, ..., last-1)).
	perm := append([]int{last}, trace.AllAxes(last)...)
	return r.Reshape(r.Prim("transpose", trace.Params{"permutation": perm}, top), shape)
}

// randomCategorical is categorical(key, logits, axis=-1, shape=None,
// replace=True, mode=None).
func randomCategorical(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.categorical"
	var keyV, logitsV starlark.Value
	var shapeV, modeV starlark.Value = starlark.None, starlark.None
	axis, replace := -1, true
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "logits", &logitsV, "axis?", &axis, "shape?", &shapeV, "replace?", &replace, "mode?", &modeV); err != nil {
		return nil, err
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	logits, err := jstarlark.ArraylikeArg(fn, logitsV, 1, key.Device())
	if err != nil {
		return nil, err
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, axis, logits.NDim(), logits)
	if err != nil {
		return nil, err
	}
	batch := append(logits.Shape()[:ax:ax], logits.Shape()[ax+1:]...)
	shape := batch
	if shapeV != starlark.None {
		if shape, err = jstarlark.ShapeArg(fn, shapeV); err != nil {
			return nil, err
		}
		if err := checkSampleShape(fn, "categorical", shape, batch); err != nil {
			return nil, err
		}
	}
	if k := shape[:len(shape)-len(batch)].Size(); !replace && k > logits.Shape()[ax] {
		return nil, fmt.Errorf("%s: Number of samples without replacement (%d) cannot exceed number of categories (%d).", fn, k, logits.Shape()[ax])
	}
	if err := gumbelDType(fn, logits.DType()); err != nil {
		return nil, err
	}
	high, err := gumbelMode(fn, modeV)
	if err != nil {
		return nil, err
	}
	if logits.Shape()[ax] == 0 {
		return nil, fmt.Errorf("%s: attempt to get argmax of an empty sequence (logits %s, axis %d)", fn, jstarlark.Describe(logits), axis)
	}
	r := newRNG(fn, key.Device())
	if !replace {
		return r.Done(defaultPRNG.categoricalWithoutReplacement(r, key, logits, ax, shape, batch, high))
	}
	return r.Done(defaultPRNG.categorical(r, key, logits, ax, shape, batch, high))
}

// shuffleRounds is _shuffle's static round count: enough sorts by fresh
// 32-bit keys that all elements have distinct key strings with high
// probability, ceil(3 * ln(size) / ln(2^32 - 1)).
func shuffleRounds(size int) int {
	return int(math.Ceil(3 * math.Log(float64(max(1, size))) / math.Log(math.MaxUint32)))
}

// shuffle is _shuffle: rounds of a stable sort of x along axis by random
// uint32 keys, each round with a key split off the last.
func (p prng) shuffle(r *rng, key, x *jstarlark.Array, axis int) *jstarlark.Array {
	for range shuffleRounds(x.Size()) {
		keys := p.split(r, key, trace.Shape{2})
		key = r.row(keys, 0)
		sortKeys := p.bits(r, r.row(keys, 1), 32, x.Shape())
		if !r.OK(sortKeys, x) {
			return nil
		}
		out, err := jstarlark.Bind("sort", numpy.SortParams(axis, true, 1), sortKeys, x)
		if err != nil {
			return r.Fail(err)
		}
		x = out[1]
	}
	return x
}

// randomPermutation is permutation(key, x, axis=0, independent=False): a
// shuffled arange(x) for an integer x, else x shuffled along axis, whole
// slices together unless independent.
func randomPermutation(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "random.permutation"
	var keyV, xV starlark.Value
	axis, independent := 0, false
	if err := starlark.UnpackArgs(fn, args, kwargs, "key", &keyV, "x", &xV, "axis?", &axis, "independent?", &independent); err != nil {
		return nil, err
	}
	key, err := keyArg(fn, keyV, false)
	if err != nil {
		return nil, err
	}
	x, err := jstarlark.ArraylikeArg(fn, xV, 1, key.Device())
	if err != nil {
		return nil, err
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, axis, max(x.NDim(), 1), x)
	if err != nil {
		return nil, err
	}
	r := newRNG(fn, key.Device())
	if x.NDim() == 0 {
		if !x.DType().IsInteger() {
			return nil, fmt.Errorf("%s: x must be an integer or at least 1-dimensional, got %s", fn, jstarlark.Describe(xV))
		}
		n, err := jstarlark.IntArg(fn, "x", xV)
		if err != nil {
			return nil, err
		}
		return r.Done(defaultPRNG.shuffle(r, key, r.iota(trace.Int32, []int{max(n, 0)}, 0), 0))
	}
	if independent || x.NDim() == 1 {
		return r.Done(defaultPRNG.shuffle(r, key, x, ax))
	}
	n := x.Shape()[ax]
	order := defaultPRNG.shuffle(r, key, r.iota(trace.Int32, []int{n}, 0), 0)
	if n == 0 || !r.OK(order) {
		return r.Done(x)
	}
	return r.Done(r.step(numpy.GatherAlongAxis(x, order, ax, trace.GatherPromiseInBounds, nil)))
}
