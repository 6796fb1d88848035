package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// simdLengths are every short length (all tails of every vector width)
// and a few long ones.
func simdLengths() []int {
	ls := make([]int, 0, 80)
	for n := 0; n <= 70; n++ {
		ls = append(ls, n)
	}
	return append(ls, 255, 512, 1000, 1023, 1024, 4099)
}

// simdF64Values draws float64s with a generous share of specials:
// NaNs (with payloads and both signs), ±inf, ±0, subnormals, extremes,
// and values that tie each other.
func simdF64Values(r *rand.Rand, n int) []float64 {
	specials := []float64{
		math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000123), math.Float64frombits(0xfff8000000000456),
		math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072e-308,
		math.MaxFloat64, -math.MaxFloat64, 1, -1, 0.5, 3,
	}
	v := make([]float64, n)
	for i := range v {
		switch r.IntN(4) {
		case 0:
			v[i] = specials[r.IntN(len(specials))]
		case 1:
			v[i] = math.Float64frombits(r.Uint64())
		default:
			v[i] = (r.Float64() - 0.5) * math.Exp2(float64(r.IntN(40)-20))
		}
	}
	return v
}

func simdF32Values(r *rand.Rand, n int) []float32 {
	specials := []float32{
		float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800001),
		float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
		math.Float32frombits(1), math.Float32frombits(0x807fffff), math.Float32frombits(0x00800000),
		math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.5, 3,
	}
	v := make([]float32, n)
	for i := range v {
		switch r.IntN(4) {
		case 0:
			v[i] = specials[r.IntN(len(specials))]
		case 1:
			v[i] = math.Float32frombits(r.Uint32())
		default:
			v[i] = float32((r.Float64() - 0.5) * math.Exp2(float64(r.IntN(40)-20)))
		}
	}
	return v
}

// simdSameBits compares results bit for bit.
func simdSameBits[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	g, w := bytesOf(got), bytesOf(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d bytes, want %d", what, len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			sz := len(g) / len(got)
			t.Fatalf("%s: element %d is %v (bits %x), want %v (bits %x)", what, i/sz, got[i/sz], g[i/sz*sz:i/sz*sz+sz], want[i/sz], w[i/sz*sz:i/sz*sz+sz])
		}
	}
}

// checkSimdBinary runs the wrapped op against the Go loop on every length,
// at unaligned offsets, with ties mixed in, and in place on either operand.
func checkSimdBinary[T any](t *testing.T, name string, kind simdKind, f func(dst, x, y []T), gen func(*rand.Rand, int) []T) {
	t.Helper()
	if asm, _ := binaryAsm[T](kind); asm == nil {
		t.Skipf("%s: no kernel on this machine", name)
	}
	g := simdBinary(kind, f)
	r := rand.New(rand.NewPCG(1, uint64(kind)))
	for _, n := range simdLengths() {
		for off := 0; off < 3; off++ {
			x, y := gen(r, n+off)[off:], gen(r, n+off)[off:]
			for i := range y {
				if r.IntN(5) == 0 {
					y[i] = x[i] // ties, and ±0 against ±0 below
				}
			}
			want := make([]T, n)
			f(want, x, y)
			got := make([]T, n+off)[off:]
			g(got, x, y)
			simdSameBits(t, name, got, want)
			xc := append([]T(nil), x...)
			g(xc, xc, y)
			simdSameBits(t, name+" in place on x", xc, want)
			yc := append([]T(nil), y...)
			g(yc, x, yc)
			simdSameBits(t, name+" in place on y", yc, want)
		}
	}
}

func checkSimdUnary[T, R any](t *testing.T, name string, kind simdKind, f func(dst []R, x []T), gen func(*rand.Rand, int) []T) {
	t.Helper()
	if asm, _ := unaryAsm[T, R](kind); asm == nil {
		t.Skipf("%s: no kernel on this machine", name)
	}
	g := simdUnary(kind, f)
	r := rand.New(rand.NewPCG(2, uint64(kind)))
	for _, n := range simdLengths() {
		for off := 0; off < 3; off++ {
			x := gen(r, n+off)[off:]
			want := make([]R, n)
			f(want, x)
			got := make([]R, n+off)[off:]
			g(got, x)
			simdSameBits(t, name, got, want)
		}
	}
}

func TestSimdBinaryBitIdentical(t *testing.T) {
	f32, f64 := simdF32Values, simdF64Values
	t.Run("add32", func(t *testing.T) { checkSimdBinary(t, "add", simdAdd, addBlock[float32], f32) })
	t.Run("sub32", func(t *testing.T) { checkSimdBinary(t, "sub", simdSub, subBlock[float32], f32) })
	t.Run("mul32", func(t *testing.T) { checkSimdBinary(t, "mul", simdMul, mulBlock[float32], f32) })
	t.Run("div32", func(t *testing.T) { checkSimdBinary(t, "div", simdDiv, divBlock[float32], f32) })
	t.Run("max32", func(t *testing.T) { checkSimdBinary(t, "max", simdMax, maxFloatBlock[float32], f32) })
	t.Run("min32", func(t *testing.T) { checkSimdBinary(t, "min", simdMin, minFloatBlock[float32], f32) })
	t.Run("add64", func(t *testing.T) { checkSimdBinary(t, "add", simdAdd, addBlock[float64], f64) })
	t.Run("sub64", func(t *testing.T) { checkSimdBinary(t, "sub", simdSub, subBlock[float64], f64) })
	t.Run("mul64", func(t *testing.T) { checkSimdBinary(t, "mul", simdMul, mulBlock[float64], f64) })
	t.Run("div64", func(t *testing.T) { checkSimdBinary(t, "div", simdDiv, divBlock[float64], f64) })
	t.Run("max64", func(t *testing.T) { checkSimdBinary(t, "max", simdMax, maxFloatBlock[float64], f64) })
	t.Run("min64", func(t *testing.T) { checkSimdBinary(t, "min", simdMin, minFloatBlock[float64], f64) })
	i32 := func(r *rand.Rand, n int) []int32 {
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(r.Uint32()) >> r.IntN(32) // small and huge: products wrap
		}
		return v
	}
	i64 := func(r *rand.Rand, n int) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(r.Uint64()) >> r.IntN(64)
		}
		return v
	}
	t.Run("add_i32", func(t *testing.T) { checkSimdBinary(t, "add", simdAdd, addBlock[int32], i32) })
	t.Run("sub_i32", func(t *testing.T) { checkSimdBinary(t, "sub", simdSub, subBlock[int32], i32) })
	t.Run("mul_i32", func(t *testing.T) { checkSimdBinary(t, "mul", simdMul, mulBlock[int32], i32) })
	t.Run("add_i64", func(t *testing.T) { checkSimdBinary(t, "add", simdAdd, addBlock[int64], i64) })
	t.Run("sub_i64", func(t *testing.T) { checkSimdBinary(t, "sub", simdSub, subBlock[int64], i64) })
}

func TestSimdUnaryBitIdentical(t *testing.T) {
	f32, f64 := simdF32Values, simdF64Values
	t.Run("neg32", func(t *testing.T) { checkSimdUnary(t, "neg", simdNeg, negBlock[float32], f32) })
	t.Run("square32", func(t *testing.T) { checkSimdUnary(t, "square", simdSquare, squareBlock[float32], f32) })
	t.Run("neg64", func(t *testing.T) { checkSimdUnary(t, "neg", simdNeg, negBlock[float64], f64) })
	t.Run("abs32", func(t *testing.T) { checkSimdUnary(t, "abs", simdAbs, absFloatBlock[float32], f32) })
	t.Run("abs64", func(t *testing.T) { checkSimdUnary(t, "abs", simdAbs, absFloatBlock[float64], f64) })
	t.Run("square64", func(t *testing.T) { checkSimdUnary(t, "square", simdSquare, squareBlock[float64], f64) })
	t.Run("pow2_32", func(t *testing.T) {
		checkSimdUnary(t, "integer_pow 2", simdSquare, integerPowOp[float32](2), f32)
	})
	t.Run("convert", func(t *testing.T) {
		i32 := func(r *rand.Rand, n int) []int32 {
			v := make([]int32, n)
			for i := range v {
				v[i] = int32(r.Uint32()) >> r.IntN(32) // every magnitude, rounding included
				if r.IntN(8) == 0 {
					v[i] = []int32{math.MinInt32, math.MaxInt32, 0, -1, 1 << 24, 1<<24 + 1}[r.IntN(6)]
				}
			}
			return v
		}
		checkSimdUnary(t, "convert int32 to float32", simdConvert, realToFloatBlock[int32, float32], i32)
	})
}

// TestSimdTableMatchesFallback runs the block ops from the table with the
// kernels on and forced off (simdOn false), operands broadcast included.
func TestSimdTableMatchesFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	cases := []struct {
		prim   string
		params trace.Params
		dt     trace.DType
		nIn    int
	}{
		{"add", nil, trace.Float32, 2}, {"sub", nil, trace.Float32, 2}, {"mul", nil, trace.Float32, 2},
		{"div", nil, trace.Float32, 2}, {"max", nil, trace.Float32, 2}, {"min", nil, trace.Float32, 2},
		{"neg", nil, trace.Float32, 1}, {"square", nil, trace.Float32, 1}, {"abs", nil, trace.Float32, 1}, {"abs", nil, trace.Float64, 1},
		{"integer_pow", trace.Params{"y": 2}, trace.Float32, 1}, {"integer_pow", trace.Params{"y": 3}, trace.Float32, 1},
		{"add", nil, trace.Float64, 2}, {"max", nil, trace.Float64, 2}, {"min", nil, trace.Float64, 2},
		{"integer_pow", trace.Params{"y": 2}, trace.Float64, 1},
		{"add", nil, trace.BFloat16, 2},
		{"convert_element_type", trace.Params{"new_dtype": trace.Float32}, trace.Int32, 1},
		{"add", nil, trace.Int32, 2}, {"sub", nil, trace.Int32, 2}, {"mul", nil, trace.Int32, 2},
		{"add", nil, trace.Int64, 2}, {"sub", nil, trace.Int64, 2}, {"mul", nil, trace.Int64, 2},
	}
	defer func(on bool) { simdOn = on }(simdOn)
	for _, c := range cases {
		in := make([]trace.DType, c.nIn)
		for i := range in {
			in[i] = c.dt
		}
		k, err := elementwiseBlock(c.prim, c.params, in)
		if err != nil {
			t.Fatalf("%s %s: %v", c.prim, c.dt, err)
		}
		for _, n := range []int{0, 1, 7, 9, 33, 70, 1024, 1031} {
			for scalar := -1; scalar < c.nIn; scalar++ { // which operand is a rank-0 broadcast
				runs := make([][]byte, c.nIn)
				for i := range runs {
					m := n
					if i == scalar {
						m = 1
					}
					if k.in[i].Size() == 8 { // float64 or int64 bits
						runs[i] = bytesOf(simdF64Values(r, m))
					} else {
						runs[i] = bytesOf(simdF32Values(r, m)) // int32 sees the bits
					}
				}
				var res [2][]byte
				for j, on := range []bool{true, false} {
					simdOn = on
					res[j] = make([]byte, n*k.out[0].Size())
					k.op([][]byte{res[j]}, runs)
				}
				simdSameBits(t, c.prim+" "+c.dt.Name(), res[0], res[1])
			}
		}
	}
}

func BenchmarkSimdBlockOps(b *testing.B) {
	const n = 1024
	r := rand.New(rand.NewPCG(4, 4))
	// Normal values: subnormal products would measure microcode assists.
	x, y, dst := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(r.Float64()+0.5), float32(r.Float64()+0.5)
	}
	xi := make([]int32, n)
	for i := range xi {
		xi[i] = int32(r.Uint32())
	}
	ops := []struct {
		name string
		kind simdKind
		f    func(dst, x, y []float32)
	}{{"add", simdAdd, addBlock[float32]}, {"mul", simdMul, mulBlock[float32]}, {"div", simdDiv, divBlock[float32]}, {"max", simdMax, maxFloatBlock[float32]}}
	for _, on := range []bool{false, true} {
		mode := "go"
		if on {
			mode = "simd"
		}
		for _, o := range ops {
			g := simdBinary(o.kind, o.f)
			b.Run(o.name+"32/"+mode, func(b *testing.B) {
				defer func(s bool) { simdOn = s }(simdOn)
				simdOn = on
				b.SetBytes(3 * 4 * n)
				for b.Loop() {
					g(dst, x, y)
				}
			})
		}
		sq := simdUnary(simdSquare, integerPowOp[float32](2))
		cv := simdUnary(simdConvert, realToFloatBlock[int32, float32])
		b.Run("pow2_32/"+mode, func(b *testing.B) {
			defer func(s bool) { simdOn = s }(simdOn)
			simdOn = on
			b.SetBytes(2 * 4 * n)
			for b.Loop() {
				sq(dst, x)
			}
		})
		b.Run("cvt_i32_f32/"+mode, func(b *testing.B) {
			defer func(s bool) { simdOn = s }(simdOn)
			simdOn = on
			b.SetBytes(2 * 4 * n)
			for b.Loop() {
				cv(dst, xi)
			}
		})
	}
}
