package numpy

import (
	"fmt"
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/lib/lax"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// jnp.fft, as jax/_src/numpy/fft.py builds it on the fft primitive: the
// transformed axes move last (lax.fft transforms trailing axes), the
// operand is cropped or zero-padded to the lengths s (or n) asked for, and
// norm scales the result: "backward" (the default) leaves the forward
// transform unscaled and the inverse divided by n, "ortho" scales both by
// 1/sqrt(n), "forward" the forward by 1/n. FFT and IFFT make their operand
// complex (complex64 unless it is float64 or complex128); RFFT takes a real
// one (integers become float32, float16 and bfloat16 compute in float32).
// At most three axes are transformed at once, as lax.fft allows.

var fftModule = &starlarkstruct.Module{Name: "jnp.fft", Members: starlark.StringDict{}}

func init() {
	jstarlark.RegisterValue(Module, "fft", fftModule)
	oneD := []struct {
		name string
		kind trace.Ident
	}{{"fft", trace.FFTForward}, {"ifft", trace.FFTInverse}, {"rfft", trace.FFTRealForward}, {"irfft", trace.FFTRealInverse}}
	for _, f := range oneD {
		jstarlark.Register(fftModule, f.name, fft1DBuiltin(f.name, f.kind))
		jstarlark.Register(fftModule, f.name+"2", fftNDBuiltin(f.name+"2", f.kind, []int{-2, -1}))
		jstarlark.Register(fftModule, f.name+"n", fftNDBuiltin(f.name+"n", f.kind, nil))
	}
	jstarlark.Register(fftModule, "hfft", hfftBuiltin)
	jstarlark.Register(fftModule, "ihfft", ihfftBuiltin)
	jstarlark.Register(fftModule, "fftfreq", fftfreqBuiltin(false))
	jstarlark.Register(fftModule, "rfftfreq", fftfreqBuiltin(true))
	jstarlark.Register(fftModule, "fftshift", fftshiftBuiltin(false))
	jstarlark.Register(fftModule, "ifftshift", fftshiftBuiltin(true))
}

func fft1DBuiltin(name string, kind trace.Ident) jstarlark.BuiltinFunc {
	fn := "jnp.fft." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a, n, norm starlark.Value = nil, starlark.None, starlark.None
		axis := -1
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "n?", &n, "axis?", &axis, "norm?", &norm); err != nil {
			return nil, err
		}
		var s starlark.Value = starlark.None
		if n != starlark.None {
			s = starlark.Tuple{n}
		}
		return fftCore(fn, name, kind, a, s, starlark.Tuple{starlark.MakeInt(axis)}, norm)
	}
}

func fftNDBuiltin(name string, kind trace.Ident, defaultAxes []int) jstarlark.BuiltinFunc {
	fn := "jnp.fft." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a, s, axes, norm starlark.Value = nil, starlark.None, starlark.None, starlark.None
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "s?", &s, "axes?", &axes, "norm?", &norm); err != nil {
			return nil, err
		}
		if axes == starlark.None && defaultAxes != nil {
			axes = starlark.Tuple{starlark.MakeInt(defaultAxes[0]), starlark.MakeInt(defaultAxes[1])}
		}
		return fftCore(fn, name, kind, a, s, axes, norm)
	}
}

// fftCore is JAX's _fft_core.
func fftCore(fn, name string, kind trace.Ident, av, sv, axesv, normv starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray(fn, av)
	if err != nil {
		return nil, err
	}
	norm := "backward"
	if normv != starlark.None {
		str, ok := normv.(starlark.String)
		if !ok || (str != "backward" && str != "ortho" && str != "forward") {
			return nil, fmt.Errorf(`%s: invalid norm value %s; should be "backward", "ortho" or "forward"`, fn, normv)
		}
		norm = string(str)
	}
	var s []int
	if sv != starlark.None {
		if s, err = lax.IntsArg(fn, "s", sv); err != nil {
			return nil, err
		}
		for _, x := range s {
			if x < 1 {
				return nil, fmt.Errorf("%s: invalid number of data points %d specified", fn, x)
			}
		}
	}
	var axes []int
	explicit := axesv != starlark.None
	if explicit {
		raw, err := lax.IntsArg(fn, "axes", axesv)
		if err != nil {
			return nil, err
		}
		if axes, err = trace.NormalizeAxes(raw, a.NDim()); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		if s != nil && len(s) != len(axes) {
			return nil, fmt.Errorf("%s: shape and axes have different lengths", fn)
		}
	} else if s == nil {
		axes = trace.AllAxes(a.NDim())
	} else {
		if len(s) > a.NDim() {
			return nil, fmt.Errorf("%s: s has %d entries for an array of rank %d", fn, len(s), a.NDim())
		}
		axes = trace.AllAxes(a.NDim())[a.NDim()-len(s):]
	}
	if len(axes) == 0 {
		return nil, fmt.Errorf("%s: no axes to transform", fn)
	}
	if len(axes) > trace.MaxFFTRank {
		return nil, fmt.Errorf("%s only supports 1D, 2D, and 3D FFTs; got axes %s with input rank %d", fn, trace.Shape(axes), a.NDim())
	}
	// The operand's dtype, as lax.fft converts it.
	switch {
	case kind == trace.FFTRealForward && a.DType().IsComplex():
		return nil, fmt.Errorf("%s: only real valued inputs supported for rfft", fn)
	case kind == trace.FFTRealForward && a.DType() != trace.Float64:
		a, err = jstarlark.Astype(a, trace.Float32)
	case kind != trace.FFTRealForward && !a.DType().IsComplex():
		to := trace.Complex64
		if a.DType() == trace.Float64 {
			to = trace.Complex128
		}
		a, err = jstarlark.Astype(a, to)
	}
	if err != nil {
		return nil, err
	}
	last := trace.AllAxes(a.NDim())[a.NDim()-len(axes):]
	if explicit {
		if a, err = moveAxes(a, axes, last); err != nil {
			return nil, err
		}
	}
	if s != nil {
		target := slices.Clone([]int(a.Shape()))
		for i, ax := range last {
			target[ax] = s[i]
		}
		if kind == trace.FFTRealInverse {
			target[len(target)-1] = s[len(s)-1]/2 + 1
		}
		if a, err = cropOrPad(a, target); err != nil {
			return nil, err
		}
	} else {
		for _, ax := range last {
			s = append(s, a.Shape()[ax])
		}
		if kind == trace.FFTRealInverse {
			s[len(s)-1] = max(0, 2*(s[len(s)-1]-1))
		}
	}
	for _, n := range s {
		if n < 1 {
			return nil, fmt.Errorf("%s: invalid number of data points %d specified", fn, n)
		}
	}
	out, err := jstarlark.Bind1("fft", trace.Params{"fft_type": kind, "fft_lengths": s}, a)
	if err != nil {
		return nil, err
	}
	if scale := fftNormScale(s, name, norm); scale != 1 {
		c, err := jstarlark.Const(out.Device(), out.DType(), starlark.Float(scale))
		if err != nil {
			return nil, err
		}
		if out, err = jstarlark.Bind1("mul", nil, out, c); err != nil {
			return nil, err
		}
	}
	if explicit {
		return moveAxes(out, last, axes)
	}
	return out, nil
}

// fftNormScale is JAX's _fft_norm: what the transform is multiplied by.
func fftNormScale(s []int, name, norm string) float64 {
	n := 1.0
	for _, x := range s {
		n *= float64(x)
	}
	inverse := name[0] == 'i'
	switch norm {
	case "ortho":
		if inverse {
			return math.Sqrt(n)
		}
		return 1 / math.Sqrt(n)
	case "forward":
		if inverse {
			return n
		}
		return 1 / n
	}
	return 1
}

// moveAxes moves the axes from to the positions to (jnp.moveaxis).
func moveAxes(a *jstarlark.Array, from, to []int) (*jstarlark.Array, error) {
	if slices.Equal(from, to) {
		return a, nil
	}
	r := a.NDim()
	perm := make([]int, r)
	for i := range perm {
		perm[i] = -1
	}
	moved := make([]bool, r)
	for i, t := range to {
		perm[t] = from[i]
		moved[from[i]] = true
	}
	rest := 0
	for i := range perm {
		if perm[i] >= 0 {
			continue
		}
		for moved[rest] {
			rest++
		}
		perm[i] = rest
		rest++
	}
	return jstarlark.Bind1("transpose", trace.Params{"permutation": perm}, a)
}

// cropOrPad slices a to at most target along each axis, then pads it with
// zeros up to target.
func cropOrPad(a *jstarlark.Array, target []int) (*jstarlark.Array, error) {
	shape := a.Shape()
	limit := make([]int, len(shape))
	crop, pad := false, false
	for i, d := range shape {
		limit[i] = min(d, target[i])
		crop = crop || target[i] < d
		pad = pad || target[i] > d
	}
	var err error
	if crop {
		if a, err = jstarlark.StaticSlice(a, make([]int, len(shape)), limit, nil); err != nil {
			return nil, err
		}
	}
	if !pad {
		return a, nil
	}
	config := make(trace.PaddingConfig, len(shape))
	for i := range config {
		config[i] = trace.PadDim{Hi: target[i] - limit[i]}
	}
	zero, err := jstarlark.Const(a.Device(), a.DType(), starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	return jstarlark.Bind1("pad", trace.Params{"padding_config": config}, a, zero)
}

// hfftBuiltin is JAX's hfft: the IRFFT of the conjugate, times n.
func hfftBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.fft.hfft"
	var a, n, norm starlark.Value = nil, starlark.None, starlark.None
	axis := -1
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "n?", &n, "axis?", &axis, "norm?", &norm); err != nil {
		return nil, err
	}
	x, err := jstarlark.EnsureArray(fn, a)
	if err != nil {
		return nil, err
	}
	ax, err := trace.NormalizeAxes([]int{axis}, x.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	if x, err = complexPart(fn, "conj", x); err != nil {
		return nil, err
	}
	nn := 2 * (x.Shape()[ax[0]] - 1)
	var s starlark.Value = starlark.None
	if n != starlark.None {
		if err := starlark.AsInt(n, &nn); err != nil {
			return nil, fmt.Errorf("%s: n: %v", fn, err)
		}
		s = starlark.Tuple{n}
	}
	out, err := fftCore(fn, "hfft", trace.FFTRealInverse, x, s, starlark.Tuple{starlark.MakeInt(axis)}, norm)
	if err != nil {
		return nil, err
	}
	c, err := jstarlark.Const(out.Device(), out.DType(), starlark.MakeInt(nn))
	if err != nil {
		return nil, err
	}
	return jstarlark.Bind1("mul", nil, out, c)
}

// ihfftBuiltin is JAX's ihfft: the conjugate of the RFFT, divided by n.
func ihfftBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.fft.ihfft"
	var a, n, norm starlark.Value = nil, starlark.None, starlark.None
	axis := -1
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "n?", &n, "axis?", &axis, "norm?", &norm); err != nil {
		return nil, err
	}
	x, err := jstarlark.EnsureArray(fn, a)
	if err != nil {
		return nil, err
	}
	ax, err := trace.NormalizeAxes([]int{axis}, x.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	nn := x.Shape()[ax[0]]
	var s starlark.Value = starlark.None
	if n != starlark.None {
		if err := starlark.AsInt(n, &nn); err != nil {
			return nil, fmt.Errorf("%s: n: %v", fn, err)
		}
		s = starlark.Tuple{n}
	}
	out, err := fftCore(fn, "ihfft", trace.FFTRealForward, x, s, starlark.Tuple{starlark.MakeInt(axis)}, norm)
	if err != nil {
		return nil, err
	}
	if out, err = complexPart(fn, "conj", out); err != nil {
		return nil, err
	}
	c, err := jstarlark.Const(out.Device(), out.DType(), starlark.Float(1/float64(nn)))
	if err != nil {
		return nil, err
	}
	return jstarlark.Bind1("mul", nil, out, c)
}

// fftfreqBuiltin is fftfreq (the sample frequencies 0, 1, ..., -2, -1
// over d·n) or rfftfreq (0 ... n//2 over d·n), float32 unless dtype says.
func fftfreqBuiltin(real bool) jstarlark.BuiltinFunc {
	name := "fftfreq"
	if real {
		name = "rfftfreq"
	}
	fn := "jnp.fft." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int
		var d starlark.Value = starlark.Float(1)
		var dtype starlark.Value = starlark.None
		if err := starlark.UnpackArgs(fn, args, kwargs, "n", &n, "d?", &d, "dtype?", &dtype); err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, fmt.Errorf("%s: n must be positive, got %d", fn, n)
		}
		dt := trace.Float32
		if dtype != starlark.None {
			got, ok, err := jstarlark.DTypeArg(fn, dtype)
			if err != nil {
				return nil, err
			}
			if ok {
				dt = got
			}
		}
		spacing, ok := starlark.AsFloat(d)
		if !ok {
			return nil, fmt.Errorf("%s: d must be a number, got %s", fn, d.Type())
		}
		size := n
		if real {
			size = n/2 + 1
		}
		c := &jstarlark.Composer{Fn: fn}
		k := c.Iota(trace.Int32, trace.Shape{size}, 0)
		if !real {
			// k for k < (n+1)/2, k - n after
			wrap := c.Binary("lt", k, c.Scalar(k, trace.Int32, float64((n+1)/2), false))
			k = c.Select(wrap, k, c.Binary("sub", k, c.Scalar(k, trace.Int32, float64(n), false)))
		}
		kf := c.Convert(k, dt, false)
		return c.Done(c.Binary("div", kf, c.Scalar(kf, dt, spacing*float64(n), false)))
	}
}

// fftshiftBuiltin rolls each axis (all by default) by n//2, or back by
// -(n//2) for ifftshift.
func fftshiftBuiltin(inverse bool) jstarlark.BuiltinFunc {
	name := "fftshift"
	if inverse {
		name = "ifftshift"
	}
	fn := "jnp.fft." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, axesv starlark.Value = nil, starlark.None
		if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "axes?", &axesv); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		axes := trace.AllAxes(a.NDim())
		if axesv != starlark.None {
			var raw []int
			if i, ok := axesv.(starlark.Int); ok {
				v, _ := i.Int64()
				raw = []int{int(v)}
			} else if raw, err = lax.IntsArg(fn, "axes", axesv); err != nil {
				return nil, err
			}
			if axes, err = trace.NormalizeAxes(raw, a.NDim()); err != nil {
				return nil, fmt.Errorf("%s: %v", fn, err)
			}
		}
		shifts := make([]int, len(axes))
		for i, ax := range axes {
			shifts[i] = a.Shape()[ax] / 2
			if inverse {
				shifts[i] = -shifts[i]
			}
		}
		return rollStatic(a, shifts, axes)
	}
}
