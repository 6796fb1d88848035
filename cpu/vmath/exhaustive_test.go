package vmath

import (
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestExhaustive checks every float32 input of the functions named in
// $VMATH_EXHAUSTIVE (comma-separated, e.g. "exp,log,sin"; "all" for all
// unary functions), a minute or so each. It is off by default.
func TestExhaustive(t *testing.T) {
	names := os.Getenv("VMATH_EXHAUSTIVE")
	if names == "" {
		t.Skip("set VMATH_EXHAUSTIVE=exp,log,… to run")
	}
	refs := map[string]func(float64) float64{
		"exp": math.Exp, "exp2": math.Exp2, "expm1": math.Expm1, "log": math.Log, "log2": math.Log2,
		"log10": math.Log10, "log1p": math.Log1p, "sin": hugeRef(math.Sin, 0, false), "cos": hugeRef(math.Cos, 0, true), "tan": hugeRef(math.Tan, 1, false),
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan, "sinh": math.Sinh, "cosh": math.Cosh,
		"tanh": math.Tanh, "asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh, "erf": math.Erf,
		"sqrt": math.Sqrt, "cbrt": math.Cbrt,
	}
	for _, f := range unaryFuncs {
		name := strings.ToLower(f.name)
		if names != "all" && !strings.Contains(","+names+",", ","+name+",") {
			continue
		}
		ref := refs[name]
		const block = 1 << 16
		var mu sync.Mutex
		worst, worstX := 0.0, float32(0)
		var wg sync.WaitGroup
		workers := 4
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				xs, dst := make([]float32, block), make([]float32, block)
				localWorst, localX := 0.0, float32(0)
				for start := uint64(w) * block; start < 1<<32; start += uint64(workers) * block {
					for j := range xs {
						xs[j] = math.Float32frombits(uint32(start) + uint32(j))
					}
					f.slice(dst, xs)
					for j, x := range xs {
						if e := ulpError(dst[j], ref(float64(x))); e > localWorst || e != e {
							localWorst, localX = e, x
						}
					}
				}
				mu.Lock()
				if localWorst > worst || localWorst != localWorst {
					worst, worstX = localWorst, localX
				}
				mu.Unlock()
			}(w)
		}
		wg.Wait()
		t.Logf("%-6s exhaustive max error %.3f ulp at x = %g (%#08x)", name, worst, worstX, math.Float32bits(worstX))
	}
}

// hugeRef is f's float64 reference for trig functions, with arguments of
// magnitude 2^29 and more reduced by reduceHuge rather than by package
// math, whose reduction there loses relative accuracy near zeros of the
// result. (exactSin and co. would take hours for all 2^32 inputs;
// TestReduceHugeAgainstBigFloat checks reduceHuge against exact arithmetic.)
func hugeRef(f func(float64) float64, scale uint, half bool) func(float64) float64 {
	return func(x float64) float64 {
		if !(math.Abs(x) >= 0x1p29) || math.IsInf(x, 0) {
			return f(x)
		}
		ax := float32(x)
		if half {
			ax = float32(math.Abs(x)) // cos is even; reduceHuge's half wants x > 0
		}
		n, r := reduceHuge(ax, scale, half)
		// f(x) = f(reduced) up to the sign, which n's parity decides:
		// t = x·2^scale/π − half = n + r.
		switch {
		case scale == 1: // tan(π/2·(n + r))
			if n&1 == 1 {
				return -1 / math.Tan(math.Pi/2*r)
			}
			return math.Tan(math.Pi / 2 * r)
		case half: // cos x = −(−1)^n sin(π r)
			return -math.Copysign(1, 0.5-float64(n&1)) * math.Sin(math.Pi*r)
		default: // sin x = (−1)^n sin(π r)
			return math.Copysign(1, 0.5-float64(n&1)) * math.Sin(math.Pi*r)
		}
	}
}
