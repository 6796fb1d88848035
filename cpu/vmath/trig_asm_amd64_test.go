//go:build amd64 && !goexperiment.simd

package vmath

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestTrigAsmMatchesPortable demands bit-identical results from the AVX
// sin and cos kernels and the portable ones: on every length to 70 (tails)
// at unaligned offsets, on random bit patterns across the fast range
// (±0 and subnormals included), and on a sweep of every 97th float32 bit
// pattern below 2^24 in magnitude, both signs (every 9973rd with -short).
func TestTrigAsmMatchesPortable(t *testing.T) {
	if !trigHasAVX {
		t.Skip("no AVX")
	}
	kernels := []struct {
		name      string
		asm, port func(dst, x []float32)
	}{{"sin", sinLanesAsm, sinLanes}, {"cos", cosLanesAsm, cosLanes}}
	check := func(t *testing.T, name string, asm, port func(dst, x []float32), x []float32) {
		t.Helper()
		got, want := make([]float32, len(x)), make([]float32, len(x))
		asm(got, x)
		port(want, x)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s(%g) (bits %#x): asm %g (%#x), portable %g (%#x)", name, x[i], math.Float32bits(x[i]),
					got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	random := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			b := r.Uint32() & 0x7fffffff
			for b >= math.Float32bits(trigFastMax)+1 {
				b = r.Uint32() & 0x7fffffff
			}
			if r.IntN(8) == 0 {
				b = []uint32{0, 1, 0x007fffff, 0x00800000, math.Float32bits(trigFastMax), math.Float32bits(math.Pi), math.Float32bits(505.79642)}[r.IntN(7)]
			}
			v[i] = math.Float32frombits(b | r.Uint32()&0x80000000)
		}
		return v
	}
	for _, k := range kernels {
		for n := 0; n <= 70; n++ {
			for off := 0; off < 4; off++ {
				check(t, k.name, k.asm, k.port, random(n + off)[off:])
			}
		}
		check(t, k.name, k.asm, k.port, random(1<<20))
		// Every 97th bit pattern below 2^24 in magnitude, both signs.
		stride := uint32(97)
		if testing.Short() {
			stride = 9973
		}
		buf := make([]float32, 0, 1<<16)
		limit := math.Float32bits(trigFastMax)
		for b := uint32(0); b <= limit; b += stride {
			buf = append(buf, math.Float32frombits(b), math.Float32frombits(b|1<<31))
			if len(buf) == cap(buf) || b+stride > limit {
				check(t, k.name, k.asm, k.port, buf)
				buf = buf[:0]
			}
		}
	}
}

// TestTrigAsmSliceForms checks Sin and Cos, which reach the kernels through
// the range-checking driver, against the scalar forms on inputs mixing the
// fast range with huge values, infinities and NaNs.
func TestTrigAsmSliceForms(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	x := make([]float32, 5000)
	for i := range x {
		x[i] = float32((r.Float64() - 0.5) * 200)
		if r.IntN(300) == 0 {
			x[i] = []float32{float32(math.Inf(1)), float32(math.NaN()), 3e30, -1e25, 0x1p24}[r.IntN(5)]
		}
	}
	for _, f := range []struct {
		name   string
		slice  func(dst, x []float32)
		scalar func(float32) float32
	}{{"Sin", Sin, Sin32}, {"Cos", Cos, Cos32}} {
		for _, n := range []int{0, 3, 64, 1000, len(x)} {
			got := make([]float32, n)
			f.slice(got, x[:n])
			for i, v := range x[:n] {
				if want := f.scalar(v); math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("%s(%g): slice %g, scalar %g", f.name, v, got[i], want)
				}
			}
		}
	}
}

// TestTrigAsmExhaustive compares the AVX kernels with the portable ones on
// every float32 below 2^24 in magnitude, both signs (about 25 s for both).
// It runs when $VMATH_EXHAUSTIVE names sin, cos or all.
func TestTrigAsmExhaustive(t *testing.T) {
	names := "," + os.Getenv("VMATH_EXHAUSTIVE") + ","
	if !trigHasAVX || !(strings.Contains(names, ",sin,") || strings.Contains(names, ",cos,") || strings.Contains(names, ",all,")) {
		t.Skip("set VMATH_EXHAUSTIVE=sin (or cos, all) on an AVX machine to run")
	}
	limit := math.Float32bits(trigFastMax)
	const m = 1 << 16
	x, got, want := make([]float32, m), make([]float32, m), make([]float32, m)
	for _, k := range []struct {
		name      string
		asm, port func(dst, x []float32)
	}{{"sin", sinLanesAsm, sinLanes}, {"cos", cosLanesAsm, cosLanes}} {
		for sign := uint32(0); sign < 2; sign++ {
			for b := uint64(0); b <= uint64(limit); b += m {
				n := int(min(m, uint64(limit)+1-b))
				for i := range n {
					x[i] = math.Float32frombits(uint32(b) + uint32(i) | sign<<31)
				}
				k.asm(got[:n], x[:n])
				k.port(want[:n], x[:n])
				for i := range n {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%s(%g): asm %g, portable %g", k.name, x[i], got[i], want[i])
					}
				}
			}
		}
	}
}
