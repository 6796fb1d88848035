package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Ranges and grids: arange, linspace, eye, identity, tri, meshgrid and
// indices, built from iota as jax.numpy builds them. Sizes are computed on
// the host from concrete arguments, as in JAX; values never are.

func init() {
	jstarlark.Register(Module, "arange", jnpArangeBuiltin)
	jstarlark.Register(Module, "linspace", jnpLinspaceBuiltin)
	jstarlark.Register(Module, "eye", jnpEyeBuiltin)
	jstarlark.Register(Module, "identity", jnpIdentityBuiltin)
	jstarlark.Register(Module, "tri", jnpTriBuiltin)
	jstarlark.Register(Module, "meshgrid", jnpMeshgridBuiltin)
	jstarlark.Register(Module, "indices", jnpIndicesBuiltin)
}

// jnpArangeBuiltin is arange(start, stop=None, step=None, dtype=None):
// evenly spaced values in [start, stop). The dtype is the promotion of the
// arguments (int32 for Python ints, float32 for Python floats).
func jnpArangeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "arange"
	var start starlark.Value
	stop, step, dtypeV := starlark.Value(starlark.None), starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "start", &start, "stop?", &stop, "step?", &step, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	dt, explicit, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	startName := "start"
	if stop == starlark.None && step == starlark.None {
		startName = "stop"
	}
	var given []starlark.Value
	for _, p := range []struct {
		name string
		v    starlark.Value
	}{{startName, start}, {"stop", stop}, {"step", step}} {
		if p.v == starlark.None {
			continue
		}
		if err := jstarlark.CheckArraylike(fn, p.v); err != nil {
			return nil, fmt.Errorf("%s: %s must be a number or a 0-d array, got %s", fn, p.name, p.v.Type())
		}
		if a, ok := p.v.(*jstarlark.Array); ok && a.NDim() != 0 {
			return nil, fmt.Errorf("%s: arguments must be scalars; got %s=%s", fn, p.name, jstarlark.Describe(a))
		}
		given = append(given, p.v)
	}
	if !explicit {
		t, err := jstarlark.ResultType(fn, given...)
		if err != nil {
			return nil, err
		}
		dt = t.DType
	}
	if stop == starlark.None {
		start, stop = starlark.MakeInt(0), start
	}
	lo, err := numberValue(fn, "start", start)
	if err != nil {
		return nil, err
	}
	hi, err := numberValue(fn, "stop", stop)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	if step != starlark.None {
		by, err := numberValue(fn, "step", step)
		if err != nil {
			return nil, err
		}
		if by == 0 {
			return nil, fmt.Errorf("%s: step must not be zero", fn)
		}
		n, err := sizeFromFloat(fn, (hi-lo)/by)
		if err != nil {
			return nil, err
		}
		// 16-bit floats count in float32, as JAX does, so that the values
		// are rounded once.
		working := dt
		if dt.IsFloat() && dt.Bits() < 32 {
			working = trace.Float32
		}
		first := c.Take(castTo(fn, start, working))
		stride := c.Take(castTo(fn, step, working))
		values := c.Binary("add", first, c.Binary("mul", stride, c.Iota(working, trace.Shape{n}, 0)))
		return c.Done(c.Convert(values, dt, false))
	}
	if lo == 0 {
		n, err := sizeFromFloat(fn, hi)
		if err != nil {
			return nil, err
		}
		return c.Done(c.Iota(dt, trace.Shape{n}, 0))
	}
	n, err := sizeFromFloat(fn, hi-lo)
	if err != nil {
		return nil, err
	}
	return c.Done(c.Binary("add", c.Take(castTo(fn, start, dt)), c.Iota(dt, trace.Shape{n}, 0)))
}

// jnpLinspaceBuiltin is linspace(start, stop, num=50, endpoint=True,
// retstep=False, dtype=None, axis=0): num evenly spaced values, computed as
// start*(1-t) + stop*t so that both ends are exact.
func jnpLinspaceBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "linspace"
	var start, stop starlark.Value
	num, endpoint, retstep, axis := 50, true, false, 0
	dtypeV := starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "start", &start, "stop", &stop, "num?", &num,
		"endpoint?", &endpoint, "retstep?", &retstep, "dtype?", &dtypeV, "axis?", &axis); err != nil {
		return nil, err
	}
	if num < 0 {
		return nil, fmt.Errorf("%s: number of samples, %d, must be non-negative", fn, num)
	}
	if err := jstarlark.CheckArraylike(fn, start, stop); err != nil {
		return nil, err
	}
	dt, explicit, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	if !explicit {
		t, err := jstarlark.ResultType(fn, start, stop)
		if err != nil {
			return nil, err
		}
		dt = jstarlark.PromoteInexact.Apply(trace.Type{DType: t.DType}).DType
	}
	comp := jstarlark.PromoteInexact.Apply(trace.Type{DType: dt}).DType
	c := &jstarlark.Composer{Fn: fn}
	lo, hi := c.Take(castTo(fn, start, comp)), c.Take(castTo(fn, stop, comp))
	if !c.OK(lo, hi) {
		return nil, c.Err
	}
	bounds, err := trace.BroadcastShapes(lo.Shape(), hi.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: start and stop: %v", fn, err)
	}
	if axis < 0 {
		axis += len(bounds) + 1
	}
	if axis < 0 || axis > len(bounds) {
		return nil, fmt.Errorf("%s: axis %d is out of bounds for a result of dimension %d", fn, axis, len(bounds)+1)
	}
	bLo, bHi := c.Take(jstarlark.BroadcastTo(lo, bounds)), c.Take(jstarlark.BroadcastTo(hi, bounds))
	withAxis := func(size int) trace.Shape {
		s := append(bounds[:axis:axis], size)
		return append(s, bounds[axis:]...)
	}
	div := num
	if endpoint {
		div = num - 1
	}
	var out, delta *jstarlark.Array
	switch {
	case num > 1:
		divisor := c.Scalar(lo, comp, float64(div), false)
		delta = c.Ufunc2(TrueDivide, c.Ufunc2(Subtract, hi, lo), divisor)
		iotaShape := make(trace.Shape, len(bounds)+1)
		for i := range iotaShape {
			iotaShape[i] = 1
		}
		iotaShape[axis] = div
		t := c.Ufunc2(TrueDivide, c.Reshape(c.Iota(comp, trace.Shape{div}, 0), iotaShape), divisor)
		out = c.Ufunc2(Add,
			c.Ufunc2(Multiply, c.Reshape(bLo, withAxis(1)), c.Ufunc2(Subtract, starlark.MakeInt(1), t)),
			c.Ufunc2(Multiply, c.Reshape(bHi, withAxis(1)), t))
		if endpoint && c.OK(out) {
			out = c.Prim("concatenate", trace.Params{"dimension": axis}, out, c.ExpandDims(bHi, axis))
		}
	case num == 1:
		if endpoint {
			delta = c.Scalar(lo, comp, math.NaN(), false)
		} else {
			delta = c.Ufunc2(Subtract, hi, lo)
		}
		out = c.Reshape(bLo, withAxis(1))
	default:
		delta = c.Scalar(lo, comp, math.NaN(), false)
		out = c.Take(filledArray(fn, withAxis(0), starlark.MakeInt(0), dt))
	}
	if dt.IsInteger() && c.OK(out) && !out.DType().IsInteger() {
		out = c.Unary("floor", out)
	}
	result, err := c.Done(c.Convert(out, dt, false))
	if err != nil || !retstep {
		return result, err
	}
	if _, err := c.Done(delta); err != nil {
		return nil, err
	}
	return starlark.Tuple{result, delta}, nil
}

// eye is (i + k == j) over a grid of iotas, in k's integer dtype.
func eye(fn string, nV, mV, kV starlark.Value, dt trace.DType) (*jstarlark.Array, error) {
	n, err := jstarlark.IntArg(fn, "N", nV)
	if err != nil {
		return nil, err
	}
	m := n
	if mV != starlark.None {
		if m, err = jstarlark.IntArg(fn, "M", mV); err != nil {
			return nil, err
		}
	}
	if n < 0 || m < 0 {
		return nil, fmt.Errorf("%s: negative dimensions are not allowed, got %d and %d", fn, n, m)
	}
	if k, ok := kV.(starlark.Int); ok {
		// JAX clips a Python int offset to int32's range.
		if k64, ok := k.Int64(); !ok || k64 > math.MaxInt32 {
			kV = starlark.MakeInt(math.MaxInt32)
		} else if k64 < math.MinInt32 {
			kV = starlark.MakeInt(math.MinInt32)
		}
	}
	offset, err := jstarlark.EnsureArray(fn, kV)
	if err != nil {
		return nil, err
	}
	if offset.NDim() != 0 || !offset.DType().IsInteger() {
		return nil, fmt.Errorf("%s: k must be a scalar integer, got %s", fn, jstarlark.Describe(kV))
	}
	c := &jstarlark.Composer{Fn: fn}
	shape := trace.Shape{n, m}
	i, j := c.Iota(offset.DType(), shape, 0), c.Iota(offset.DType(), shape, 1)
	onDiagonal := c.Ufunc2(Equal, c.Ufunc2(Add, i, offset), j)
	return c.Done(c.Convert(onDiagonal, dt, false))
}

// jnpEyeBuiltin is eye(N, M=None, k=0, dtype=None): float32 ones on the
// k-th diagonal.
func jnpEyeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n starlark.Value
	m, dtypeV := starlark.Value(starlark.None), starlark.Value(starlark.None)
	k := starlark.Value(starlark.MakeInt(0))
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "N", &n, "M?", &m, "k?", &k, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOrDefault("eye", dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	return eye("eye", n, m, k, dt)
}

func jnpIdentityBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n starlark.Value
	dtypeV := starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "n", &n, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOrDefault("identity", dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	return eye("identity", n, starlark.None, starlark.MakeInt(0), dt)
}

// jnpTriBuiltin is tri(N, M=None, k=0, dtype=None): ones at and below the
// k-th diagonal (i + k >= j), float32 by default.
func jnpTriBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "tri"
	var nV starlark.Value
	mV, dtypeV := starlark.Value(starlark.None), starlark.Value(starlark.None)
	kV := starlark.Value(starlark.MakeInt(0))
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "N", &nV, "M?", &mV, "k?", &kV, "dtype?", &dtypeV); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOrDefault(fn, dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	n, err := jstarlark.IntArg(fn, "N", nV)
	if err != nil {
		return nil, err
	}
	m := n
	if mV != starlark.None {
		if m, err = jstarlark.IntArg(fn, "M", mV); err != nil {
			return nil, err
		}
	}
	if n < 0 || m < 0 {
		return nil, fmt.Errorf("%s: negative dimensions are not allowed, got %d and %d", fn, n, m)
	}
	offset, err := jstarlark.EnsureArray(fn, kV)
	if err != nil {
		return nil, err
	}
	if offset.NDim() != 0 || !offset.DType().IsInteger() {
		return nil, fmt.Errorf("%s: k must be an integer, got %s", fn, jstarlark.Describe(kV))
	}
	// The index dtype is int32 unless the offset needs int64.
	indexType := trace.Int32
	if offset.DType() == trace.Int64 || offset.DType() == trace.Uint32 {
		indexType = trace.Int64
	}
	c := &jstarlark.Composer{Fn: fn}
	shape := trace.Shape{n, m}
	k := c.Convert(offset, indexType, false)
	below := c.Binary("ge", c.Binary("add", c.Iota(indexType, shape, 0), k), c.Iota(indexType, shape, 1))
	return c.Done(c.Convert(below, dt, false))
}

// jnpMeshgridBuiltin is meshgrid(*xi, copy=True, sparse=False,
// indexing='xy'): coordinate arrays of 1-D vectors; 'xy' swaps the first two
// axes (Cartesian), 'ij' does not (matrix indexing).
func jnpMeshgridBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "meshgrid"
	copyArg, sparse, indexing := true, false, "xy"
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "copy?", &copyArg, "sparse?", &sparse, "indexing?", &indexing); err != nil {
		return nil, err
	}
	if !copyArg {
		return nil, fmt.Errorf("%s: only copy=True is supported", fn)
	}
	if indexing != "xy" && indexing != "ij" {
		return nil, fmt.Errorf("%s: valid values for indexing are 'xy' and 'ij', got %q", fn, indexing)
	}
	xs := make([]*jstarlark.Array, len(args))
	for i, v := range args {
		a, err := jstarlark.EnsureArray(fn, v)
		if err != nil {
			return nil, err
		}
		xs[i] = a
	}
	for _, a := range xs {
		if a.NDim() != 1 {
			return nil, fmt.Errorf("%s: arguments must be 1-D, got %s", fn, jstarlark.DescribeArrays(xs))
		}
	}
	swap := indexing == "xy" && len(xs) >= 2
	if swap {
		xs[0], xs[1] = xs[1], xs[0]
	}
	shape := make([]int, len(xs))
	for i, a := range xs {
		shape[i] = a.Shape()[0]
		if sparse {
			shape[i] = 1
		}
	}
	c := &jstarlark.Composer{Fn: fn}
	out := make(starlark.Tuple, len(xs))
	for i, a := range xs {
		s := append([]int(nil), shape...)
		s[i] = a.Shape()[0]
		g := c.Prim("broadcast_in_dim", trace.Params{"shape": s, "broadcast_dimensions": []int{i}}, a)
		if _, err := c.Done(g); err != nil {
			return nil, err
		}
		out[i] = g
	}
	if swap {
		out[0], out[1] = out[1], out[0]
	}
	return out, nil
}

// jnpIndicesBuiltin is indices(dimensions, dtype=None, sparse=False): for
// each axis, an int32 grid counting along it, stacked on a new first axis
// (or, sparse, a tuple of arrays that broadcast together).
func jnpIndicesBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "indices"
	var dimsV starlark.Value
	dtypeV := starlark.Value(starlark.None)
	sparse := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dimensions", &dimsV, "dtype?", &dtypeV, "sparse?", &sparse); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOrDefault(fn, dtypeV, trace.Int32)
	if err != nil {
		return nil, err
	}
	if _, ok := dimsV.(starlark.Int); ok {
		return nil, fmt.Errorf("%s: dimensions must be a sequence of ints, got %s", fn, dimsV)
	}
	dims, err := jstarlark.ShapeArg(fn, dimsV)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	grids := make([]*jstarlark.Array, len(dims))
	for i, d := range dims {
		s := dims.Clone()
		if sparse {
			for j := range s {
				s[j] = 1
			}
			s[i] = d
		}
		grids[i] = c.Prim("broadcast_in_dim", trace.Params{"shape": []int(s), "broadcast_dimensions": []int{i}}, c.Iota(dt, trace.Shape{d}, 0))
	}
	if sparse {
		out := make(starlark.Tuple, len(grids))
		for i, g := range grids {
			if _, err := c.Done(g); err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	}
	if len(dims) == 0 {
		return filledArray(fn, trace.Shape{0}, starlark.MakeInt(0), dt)
	}
	for i, g := range grids {
		grids[i] = c.ExpandDims(g, 0)
	}
	return c.Done(c.Prim("concatenate", trace.Params{"dimension": 0}, grids...))
}
