package vmath

import (
	"fmt"
	"math"
	"testing"
)

// ulpError is |got − want| in units of the float32 ulp at want, where want
// is the exact result (a float64 reference). Results whose reference
// rounds to ±Inf or NaN must match exactly; a mismatch is +Inf.
func ulpError(got float32, want float64) float64 {
	if math.IsNaN(want) {
		if got != got {
			return 0
		}
		return math.Inf(1)
	}
	if w32 := float32(want); math.IsInf(float64(w32), 0) || math.IsInf(float64(got), 0) {
		if got == w32 {
			return 0
		}
		return math.Inf(1)
	}
	ulp := 0x1p-149 // float32 subnormal spacing
	if a := math.Abs(want); a >= 0x1p-126 {
		_, e := math.Frexp(a) // a = f·2^e, f ∈ [0.5, 1)
		ulp = math.Ldexp(1, e-24)
	}
	return math.Abs(float64(got)-want) / ulp
}

// sweepStride spaces the bit patterns of the sweeps: about 4M of the 2^32
// float32 patterns normally, 256K under the race detector, whose
// instrumentation makes every element several times slower.
func sweepStride() uint64 {
	if raceEnabled || testing.Short() {
		return 1 << 14
	}
	return 1 << 10
}

// sweepInputs returns float32s spread over every bit pattern (both signs,
// every exponent, subnormals, ±Inf, NaNs) plus the given extra values. An
// odd offset keeps the sweep off round mantissas.
func sweepInputs(extra []float32) []float32 {
	stride := sweepStride()
	xs := make([]float32, 0, (1<<32)/stride+uint64(len(extra)))
	for b := uint64(stride / 3); b < 1<<32; b += stride {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	return append(xs, extra...)
}

// nearby returns x and its n float32 neighbours on each side.
func nearby(x float64, n int) []float32 {
	c := float32(x)
	out := []float32{c}
	up, down := c, c
	for i := 0; i < n; i++ {
		up = math.Nextafter32(up, float32(math.Inf(1)))
		down = math.Nextafter32(down, float32(math.Inf(-1)))
		out = append(out, up, down)
	}
	return out
}

// denseRange returns count float32s evenly spaced in [lo, hi].
func denseRange(lo, hi float64, count int) []float32 {
	out := make([]float32, count)
	for i := range out {
		out[i] = float32(lo + (hi-lo)*float64(i)/float64(count-1))
	}
	return out
}

type unaryCase struct {
	name   string
	slice  func(dst, x []float32)
	scalar func(float32) float32
	ref    func(float64) float64
	maxUlp float64   // asserted bound
	extra  []float32 // values near reduction boundaries and the like
	inputs []float32 // if set, replaces the sweep and extra
}

// checkUnary sweeps c over the whole float32 range through both the slice
// and the scalar forms, and reports the worst error.
func checkUnary(t *testing.T, c unaryCase) {
	xs := c.inputs
	if xs == nil {
		xs = sweepInputs(c.extra)
	}
	dst := make([]float32, len(xs))
	c.slice(dst, xs)
	worst, worstX := 0.0, float32(0)
	for i, x := range xs {
		want := c.ref(float64(x))
		e := ulpError(dst[i], want)
		if s := c.scalar(x); math.Float32bits(s) != math.Float32bits(dst[i]) && !(s != s && dst[i] != dst[i]) {
			t.Errorf("%s(%g): slice form gives %g, scalar form %g", c.name, x, dst[i], s)
		}
		if e > worst || math.IsNaN(e) {
			worst, worstX = e, x
		}
	}
	t.Logf("%-6s max error %.3f ulp at x = %g (%d inputs)", c.name, worst, worstX, len(xs))
	if !(worst <= c.maxUlp) {
		t.Errorf("%s: max error %.3f ulp at x = %g (%#08x): got %g, want %g; bound %.2f",
			c.name, worst, worstX, math.Float32bits(worstX), c.scalar(worstX), c.ref(float64(worstX)), c.maxUlp)
	}
}

type binaryCase struct {
	name   string
	slice  func(dst, x, y []float32)
	scalar func(x, y float32) float32
	ref    func(x, y float64) float64
	maxUlp float64
}

// checkBinary sweeps the cross product of two coarser sweeps plus the given
// pairs.
func checkBinary(t *testing.T, c binaryCase, xs, ys []float32) {
	var px, py []float32
	for _, x := range xs {
		for _, y := range ys {
			px, py = append(px, x), append(py, y)
		}
	}
	dst := make([]float32, len(px))
	c.slice(dst, px, py)
	worst, wx, wy := 0.0, float32(0), float32(0)
	for i := range px {
		e := ulpError(dst[i], c.ref(float64(px[i]), float64(py[i])))
		if s := c.scalar(px[i], py[i]); math.Float32bits(s) != math.Float32bits(dst[i]) && !(s != s && dst[i] != dst[i]) {
			t.Errorf("%s(%g, %g): slice form gives %g, scalar form %g", c.name, px[i], py[i], dst[i], s)
		}
		if e > worst || math.IsNaN(e) {
			worst, wx, wy = e, px[i], py[i]
		}
	}
	t.Logf("%-6s max error %.3f ulp at (%g, %g) (%d inputs)", c.name, worst, wx, wy, len(px))
	if !(worst <= c.maxUlp) {
		t.Errorf("%s: max error %.3f ulp at (%g, %g): got %g, want %g; bound %.2f",
			c.name, worst, wx, wy, c.scalar(wx, wy), c.ref(float64(wx), float64(wy)), c.maxUlp)
	}
}

// specialCase is one exact expectation: results must match bit for bit
// (so signed zeros count) except that any NaN matches NaN.
type specialCase struct {
	x, want float32
}

func checkSpecials(t *testing.T, name string, slice func(dst, x []float32), scalar func(float32) float32, cases []specialCase) {
	t.Helper()
	xs := make([]float32, len(cases))
	for i, c := range cases {
		xs[i] = c.x
	}
	// Run the slice form over a chunk-sized batch too, so the chunked path
	// (not only the tail loop) sees every special value.
	padded := append(make([]float32, 0, chunk+len(xs)), xs...)
	for len(padded)%chunk != 0 {
		padded = append(padded, 0.5)
	}
	dst := make([]float32, len(padded))
	slice(dst, padded)
	for i, c := range cases {
		for _, got := range []float32{scalar(c.x), dst[i]} {
			if !sameFloat(got, c.want) {
				t.Errorf("%s(%s) = %s, want %s", name, show(c.x), show(got), show(c.want))
			}
		}
	}
}

func sameFloat(a, b float32) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float32bits(a) == math.Float32bits(b)
}

func show(f float32) string {
	if f == 0 && math.Signbit(float64(f)) {
		return "-0"
	}
	return fmt.Sprint(f)
}

var (
	inf  = float32(math.Inf(1))
	nan  = float32(math.NaN())
	maxF = float32(math.MaxFloat32)
	// smallest positive subnormal and normal float32
	tiny   = math.Float32frombits(1)
	minNrm = float32(0x1p-126)
	negZ   = float32(math.Copysign(0, -1))
)
