package half

import (
	"math"
	"math/rand"
	"testing"
)

// float16Value decodes binary16 bits arithmetically, independently of the
// bit-twiddling in Float16ToFloat32.
func float16Value(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	switch exp {
	case 0x1f:
		if mant != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	case 0:
		return sign * math.Ldexp(mant, -24)
	}
	return sign * math.Ldexp(1024+mant, exp-25)
}

// nearest returns the encoding nearest to x among all finite and infinite
// encodings produced by value (ties to the even encoding), by exhaustive
// search over the 2^15 magnitudes: the reference for the rounding functions.
func nearest(x float64, value func(uint16) float64, maxFinite, inf uint16) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
	}
	a := math.Abs(x)
	lo, hi := uint16(0), maxFinite
	if a > value(maxFinite) {
		// Past the largest finite value: IEEE rounds to infinity from the
		// midpoint to the next (virtual) power of two on.
		next := 2*value(maxFinite) - value(maxFinite-1)
		if a >= (value(maxFinite)+next)/2 {
			return sign | inf
		}
		return sign | maxFinite
	}
	for lo < hi { // first encoding with value >= a
		mid := (lo + hi) / 2
		if value(mid) < a {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 || value(lo) == a {
		return sign | lo
	}
	below, above := lo-1, lo
	d1, d2 := a-value(below), value(above)-a
	switch {
	case d1 < d2:
		return sign | below
	case d2 < d1:
		return sign | above
	case below%2 == 0:
		return sign | below
	}
	return sign | above
}

func TestFloat16ExhaustiveDecodeAndRoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := Float16ToFloat32(h)
		want := float16Value(h)
		if math.IsNaN(want) {
			if !math.IsNaN(float64(f)) {
				t.Fatalf("%#04x: got %v, want nan", h, f)
			}
			if back := Float16FromFloat32(f); back&0x7c00 != 0x7c00 || back&0x3ff == 0 || back&0x8000 != h&0x8000 {
				t.Fatalf("%#04x: nan round trip gave %#04x", h, back)
			}
			continue
		}
		if float64(f) != want || math.Signbit(float64(f)) != math.Signbit(want) {
			t.Fatalf("%#04x: got %v, want %v", h, f, want)
		}
		if back := Float16FromFloat32(f); back != h {
			t.Fatalf("%#04x: round trip gave %#04x", h, back)
		}
		if back := Float16FromFloat64(float64(f)); back != h {
			t.Fatalf("%#04x: float64 round trip gave %#04x", h, back)
		}
	}
}

func bf16Value(b uint16) float64 { return float64(BFloat16ToFloat32(b)) }

func TestRoundingMatchesExhaustiveNearest(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var inputs []float64
	// Every midpoint between neighbouring float16 values (the ties), and
	// values just off them, plus random values across the whole range.
	for h := uint16(0); h < 0x7bff; h++ {
		m := (float16Value(h) + float16Value(h+1)) / 2
		inputs = append(inputs, m, math.Nextafter(m, 0), math.Nextafter(m, 1e9), -m)
	}
	for i := 0; i < 20000; i++ {
		inputs = append(inputs, math.Ldexp(rng.Float64(), rng.Intn(80)-50)*float64(1-2*rng.Intn(2)))
	}
	inputs = append(inputs, 65504, 65519.99, 65520, 1e6, 0x1p-25, 0x1p-26, 3*0x1p-26, math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1))
	for _, x := range inputs {
		want := nearest(x, float16Value, 0x7bff, 0x7c00)
		if got := Float16FromFloat64(x); got != want {
			t.Fatalf("Float16FromFloat64(%v) = %#04x, want %#04x", x, got, want)
		}
		if x32 := float32(x); float64(x32) == x {
			if got := Float16FromFloat32(x32); got != want {
				t.Fatalf("Float16FromFloat32(%v) = %#04x, want %#04x", x32, got, want)
			}
		}
	}
	for i := 0; i < 20000; i++ {
		x := math.Ldexp(rng.Float64(), rng.Intn(200)-100) * float64(1-2*rng.Intn(2))
		want := nearest(x, bf16Value, 0x7f7f, 0x7f80)
		if got := BFloat16FromFloat64(x); got != want {
			t.Fatalf("BFloat16FromFloat64(%v) = %#04x, want %#04x", x, got, want)
		}
		if got := BFloat16FromFloat32(float32(x)); float64(float32(x)) == x && got != want {
			t.Fatalf("BFloat16FromFloat32(%v) = %#04x, want %#04x", x, got, want)
		}
	}
	// A float64 just above a bfloat16 tie that float32(x) would round onto
	// the tie: one correct rounding goes up, double rounding would go even.
	x := 1 + 0x1p-8 + 0x1p-40
	if got := BFloat16FromFloat64(x); got != 0x3f81 {
		t.Errorf("BFloat16FromFloat64(1+2^-8+2^-40) = %#04x, want 0x3f81", got)
	}
	if got := BFloat16FromFloat32(float32(math.NaN())); got&0x7f80 != 0x7f80 || got&0x7f == 0 {
		t.Errorf("bfloat16 nan = %#04x", got)
	}
}
