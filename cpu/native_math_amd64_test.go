package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// nativeMathNames lists the compiled transcendentals in a fixed order.
func nativeMathNames() []string {
	var names []string
	for name := range nativeMath {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// nativeMath64Names lists the compiled float64 functions in a fixed order.
func nativeMath64Names() []string {
	var names []string
	for name := range nativeMath64 {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// specialFloat32s are the inputs where the transcendentals' paths meet or
// end: signed zeros, subnormals, ±Inf, NaNs (quiet, negative, signalling,
// with payloads), the largest floats, and each kernel's range limits and
// the floats either side of them.
func specialFloat32s() []float32 {
	bits := func(b uint32) float32 { return math.Float32frombits(b) }
	inf := float32(math.Inf(1))
	var xs []float32
	edges := []float32{0, 1, 0.5, 2, 0x1p24, 75, 150, 88.72284, 88.72283, 103.97208, 87.33655,
		128, 149, 0x1p52, 0x1p-29, 505.79642, 3.1415927, 1.5707964, 1e30, 0.6992188, 1.3984375,
		math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126, 1e-20}
	for _, f := range edges {
		for _, g := range []float32{f, math.Nextafter32(f, 0), math.Nextafter32(f, inf)} {
			xs = append(xs, g, -g)
		}
	}
	xs = append(xs, inf, -inf, float32(math.NaN()), bits(0xFFC00000), bits(0x7F800001), bits(0x7FC12345),
		bits(0xFFA00000), bits(0x007FFFFF), bits(0x807FFFFF), bits(0x00000003), -1, math.Nextafter32(-1, 0),
		math.Nextafter32(-1, -2))
	return xs
}

// Every compiled transcendental against the block machine: special values
// at every position of a vector (and in tails), ordinary random values,
// and random bit patterns (every class of float32), also when the result
// overwrites its input.
func TestNativeTranscendentals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := specialFloat32s()
	for _, n := range []int{5, 64, 1000, 3*grainElements + 1} {
		xs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
		v := view[float32](xs)
		for i := range v {
			switch i % 3 {
			case 0:
				v[i] = math.Float32frombits(rng.Uint32())
			default:
				v[i] = float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(30)-6)))
			}
		}
		for i, f := range special {
			if n > 200 || i < n {
				v[(i*7919)%n] = f
			}
		}
		for _, fn := range nativeMathNames() {
			jb := newJaxprBuilder(t)
			x := jb.input(trace.Float32, n)
			y := jb.bind(fn, nil, x)
			j := jb.build(jb.bind("add", nil, jb.bind("mul", nil, y, jb.lit(2.0, trace.Float32)), x), y)
			runBothWays(t, fmt.Sprintf("%s[%d]", fn, n), j, trace.Shape{n}, true, xs)
			// x dies at the call: the result may take its register.
			jb = newJaxprBuilder(t)
			x = jb.input(trace.Float32, n)
			j = jb.build(jb.bind(fn, nil, x))
			runBothWays(t, fmt.Sprintf("%s alone [%d]", fn, n), j, trace.Shape{n}, true, xs)
		}
	}
}

// Each special value alone in every lane position of a vector, the rest
// ordinary: a special lane must not disturb its neighbours.
func TestNativeTranscendentalsSpecialLanes(t *testing.T) {
	special := specialFloat32s()
	n := 8 * len(special)
	xs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
	v := view[float32](xs)
	for i := range v {
		v[i] = 0.75 + float32(i%8)/16
	}
	for i, f := range special {
		v[8*i+i%8] = f
	}
	for _, fn := range nativeMathNames() {
		jb := newJaxprBuilder(t)
		x := jb.input(trace.Float32, n)
		runBothWays(t, fn+" special lanes", jb.build(jb.bind(fn, nil, x)), trace.Shape{n}, true, xs)
	}
}

// A million lanes each, spread over every binade where the function's
// result is not yet saturated (below 2^24 for sin and cos, so no chunk is
// flagged and every lane is the vector code's), both signs.
func TestNativeTranscendentalsMillion(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const many = 1 << 20
	top := map[string]int{"sin": 24, "cos": 24, "exp": 8, "exp2": 8, "expm1": 8, "sinh": 8, "cosh": 8,
		"tanh": 7, "log": 128, "log1p": 128, "tan": 24, "atan": 128, "erf": 3,
		"asin": 0, "acos": 0, "asinh": 128, "acosh": 128, "atanh": 0, "rsqrt": 128}
	for _, fn := range nativeMathNames() {
		hi, ok := top[fn]
		if !ok {
			t.Fatalf("no range for %s", fn)
		}
		xs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{many}, DType: trace.Float32})
		for i, v := 0, view[float32](xs); i < many; i++ {
			v[i] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(hi+149)-149) * float64(1-2*rng.IntN(2)))
		}
		jb := newJaxprBuilder(t)
		x := jb.input(trace.Float32, many)
		runBothWays(t, fn+" of a million values", jb.build(jb.bind(fn, nil, x)), trace.Shape{many}, true, xs)
	}
}

// atan2 and pow against the block machine: every pair of special values
// (zeros, infinities, NaNs, subnormals, range limits), random pairs over
// every binade, and moderate pairs where pow neither overflows nor
// underflows (negative bases with integer, odd and even, and other
// exponents), in both operand orders.
func TestNativeBinaryMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	special := specialFloat32s()
	newPair := func(n int) (*Buffer, *Buffer, []float32, []float32) {
		as := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
		bs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
		return as, bs, view[float32](as), view[float32](bs)
	}
	// Special pairs: pow flags these chunks, which the block machine
	// computes again.
	sa, sb, sav, sbv := newPair(len(special) * len(special))
	for i, a := range special {
		for j, b := range special {
			sav[i*len(special)+j], sbv[i*len(special)+j] = a, b
		}
	}
	// Finite nonzero pairs: every lane is the vector code's.
	const many = 1 << 20
	ra, rb, rav, rbv := newPair(many)
	sign := func() float64 { return float64(1 - 2*rng.IntN(2)) }
	for i := range many {
		switch i % 5 {
		case 4: // pow near float32's range limits and its clamp: |y·log x| in [80, 210]
			rav[i] = float32((1.5 + 2*rng.Float64()) * sign())
			rbv[i] = float32((80 + 130*rng.Float64()) / math.Log(math.Abs(float64(rav[i]))) * sign())
		case 0, 1:
			rav[i] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(276)-149) * sign())
			rbv[i] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(276)-149) * sign())
		case 2:
			rav[i] = float32((0.5 + 1.5*rng.Float64()) * sign())
			rbv[i] = float32(rng.IntN(200) - 100)
		case 3:
			rav[i] = float32((0.25 + 4*rng.Float64()) * sign())
			rbv[i] = float32(rng.NormFloat64() * 30)
		}
	}
	for _, fn := range []string{"atan2", "pow"} {
		for _, in := range [][2]*Buffer{{sa, sb}, {ra, rb}} {
			n := in[0].Len()
			jb := newJaxprBuilder(t)
			a, b := jb.input(trace.Float32, n), jb.input(trace.Float32, n)
			runBothWays(t, fmt.Sprintf("%s[%d]", fn, n), jb.build(jb.bind(fn, nil, a, b)), trace.Shape{n}, true, in[0], in[1])
			jb = newJaxprBuilder(t)
			a, b = jb.input(trace.Float32, n), jb.input(trace.Float32, n)
			runBothWays(t, fmt.Sprintf("%s swapped [%d]", fn, n), jb.build(jb.bind(fn, nil, b, a)), trace.Shape{n}, true, in[0], in[1])
			// The first operand dies at the call, the second lives on: the
			// result may take the first's register.
			jb = newJaxprBuilder(t)
			a, b = jb.input(trace.Float32, n), jb.input(trace.Float32, n)
			j := jb.build(jb.bind("add", nil, jb.bind(fn, nil, a, b), b))
			runBothWays(t, fmt.Sprintf("%s + b [%d]", fn, n), j, trace.Shape{n}, true, in[0], in[1])
		}
	}
}

// The float64 functions against the block machine (package math): random
// values over every binade that matters, random bit patterns, and math's
// own boundaries (overflow threshold, gradual underflow, the smallest
// subnormal result) with the floats beside them.
func TestNativeTranscendentals64(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	inf := math.Inf(1)
	var special []float64
	for _, f := range []float64{0, 1, 0.5, 2, 709.782712893384, 709.78, 708.39, 708.4, 745.13, 745.1332191019411,
		744.44, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 1e-300, 0x1p-30, 1.5e8, 3.2e9} {
		for _, g := range []float64{f, math.Nextafter(f, 0), math.Nextafter(f, inf)} {
			special = append(special, g, -g)
		}
	}
	special = append(special, inf, -inf, math.NaN(), math.Float64frombits(0xFFF8000000000000),
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0x7FF8000000012345))
	const many = 1 << 20
	xs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{many}, DType: trace.Float64})
	v := view[float64](xs)
	for i := range v {
		switch i % 4 {
		case 0:
			v[i] = math.Float64frombits(rng.Uint64())
		case 1:
			v[i] = math.Ldexp(1+rng.Float64(), rng.IntN(1100)-1075) * float64(1-2*rng.IntN(2))
		default:
			v[i] = (rng.Float64()*2 - 1) * 760
		}
	}
	for i, f := range special {
		v[i], v[len(special)+i*977] = f, f
	}
	prefix := func(n int) *Buffer {
		b := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float64})
		copy(view[float64](b), v)
		return b
	}
	// Ordinary values (|x| < 2^29 and the non-finite ones): no chunk is
	// flagged for sin and cos, so every lane is the vector code's.
	ordinary := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{many}, DType: trace.Float64})
	o := view[float64](ordinary)
	for i := range o {
		o[i] = math.Ldexp(1+rng.Float64(), rng.IntN(1050)-1050+28) * float64(1-2*rng.IntN(2))
		if i%3 == 0 {
			o[i] = (rng.Float64()*2 - 1) * 20
		}
	}
	for i, f := range []float64{0, math.Copysign(0, -1), inf, -inf, math.NaN(), math.Float64frombits(0xFFF8000000000000),
		0x1p29, math.Nextafter(0x1p29, 0), -math.Nextafter(0x1p29, 0), math.Pi / 4, math.Pi / 2, math.Pi, 1e-310} {
		o[i*4099] = f
	}
	for _, fn := range nativeMath64Names() {
		for _, n := range []int{5, 100, many} {
			jb := newJaxprBuilder(t)
			x := jb.input(trace.Float64, n)
			runBothWays(t, fmt.Sprintf("%s float64[%d]", fn, n), jb.build(jb.bind(fn, nil, x)), trace.Shape{n}, true, prefix(n))
		}
		jb := newJaxprBuilder(t)
		x := jb.input(trace.Float64, many)
		runBothWays(t, fn+" of ordinary float64s", jb.build(jb.bind(fn, nil, x)), trace.Shape{many}, true, ordinary)
	}
}

// A lone transcendental on a large array (an eager jnp call's program: one
// opaque step) runs as native code, with the block op's bits.
func TestNativeEagerTranscendentals(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n = 3*eagerNativeMin + 5
	for _, c := range []struct {
		fn string
		dt trace.DType
	}{{"tanh", trace.Float32}, {"log", trace.Float32}, {"exp", trace.Float32}, {"sin", trace.Float32},
		{"pow", trace.Float32}, {"exp", trace.Float64}, {"sin", trace.Float64}} {
		jb := newJaxprBuilder(t)
		ins := []*trace.Var{jb.input(c.dt, n)}
		bufs := []*Buffer{randomBuffer(t, rng, c.dt, false, n)}
		if c.fn == "pow" {
			ins = append(ins, jb.input(c.dt, n))
			bufs = append(bufs, randomBuffer(t, rng, c.dt, false, n))
		}
		atoms := make([]trace.Atom, len(ins))
		for i, v := range ins {
			atoms[i] = v
		}
		j := jb.build(jb.bind(c.fn, nil, atoms...))
		name := fmt.Sprintf("eager %s %s", c.fn, c.dt)
		if r, _ := eagerNative(j.Eqns[0]); r == nil {
			t.Fatalf("%s: not compiled natively", name)
		}
		p := fusedProgramOf(j, jit.OpaqueKernel, trace.Shape{n})
		got := execute(t, p, bufs)
		t.Setenv("JAXSH_CPU_CODEGEN", "0")
		want := execute(t, p, bufs)
		t.Setenv("JAXSH_CPU_CODEGEN", "1")
		if !bytes.Equal(got[0].data, want[0].data) {
			t.Errorf("%s differs from the block op: %s", name, firstBitDifference(got[0], want[0]))
		}
	}
}
