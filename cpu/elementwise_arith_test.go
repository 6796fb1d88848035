package cpu

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

var (
	i8, i16, i32, i64 = trace.Int8, trace.Int16, trace.Int32, trace.Int64
	u8, u16, u32      = trace.Uint8, trace.Uint16, trace.Uint32
	f16, bf16         = trace.Float16, trace.BFloat16
	f32, f64          = trace.Float32, trace.Float64
	c64, c128         = trace.Complex64, trace.Complex128
	boolean           = trace.Bool
)

// f32v is x rounded to float32, as checkElements reads float32 results.
func f32v(x float64) float64 { return float64(float32(x)) }

func TestIntegerArithmeticWraps(t *testing.T) {
	runEwCases(t, []ewCase{
		{"add", nil, dts(i8), [][]any{{127, -128, 5}, {1, -1, -3}}, []any{-128, 127, 2}},
		{"add", nil, dts(u8), [][]any{{255, 1}, {1, 2}}, []any{0, 3}},
		{"add", nil, dts(i32), [][]any{{1, 2, 3}, {10}}, []any{11, 12, 13}}, // rank-0 operand
		{"add", nil, dts(i64), [][]any{{math.MaxInt64}, {1}}, []any{math.MinInt64}},
		{"sub", nil, dts(u8), [][]any{{0, 7}, {1, 2}}, []any{255, 5}},
		{"sub", nil, dts(i32), [][]any{{100}, {1, 2, 3}}, []any{99, 98, 97}}, // rank-0 first operand
		{"mul", nil, dts(i16), [][]any{{300, -2}, {300, 16384}}, []any{24464, -32768}},
		{"mul", nil, dts(u32), [][]any{{65536}, {65536}}, []any{0}},
		{"neg", nil, dts(i32), [][]any{{minI32, 5, 0}}, []any{minI32, -5, 0}},
		{"neg", nil, dts(u32), [][]any{{1, 0}}, []any{4294967295, 0}},
		{"square", nil, dts(i8), [][]any{{16, -11}}, []any{0, 121}},
		{"abs", nil, dts(i8), [][]any{{-128, -5, 7}}, []any{-128, 5, 7}},
		{"sign", nil, dts(i8), [][]any{{-5, 0, 7, -128}}, []any{-1, 0, 1, -1}},
		{"sign", nil, dts(u8), [][]any{{0, 9, 255}}, []any{0, 1, 1}},
		{"integer_pow", trace.Params{"y": 3}, dts(i32), [][]any{{2, -3, 0}}, []any{8, -27, 0}},
		{"integer_pow", trace.Params{"y": 7}, dts(i8), [][]any{{2, -2, 3}}, []any{-128, -128, -117}},
		{"integer_pow", trace.Params{"y": 0}, dts(u16), [][]any{{0, 9}}, []any{1, 1}},
		{"max", nil, dts(i8), [][]any{{-128, 5}, {127, -5}}, []any{127, 5}},
		{"max", nil, dts(u32), [][]any{{4294967295, 0}, {1, 0}}, []any{4294967295, 0}},
		{"min", nil, dts(i64), [][]any{{math.MinInt64, 3}, {0}}, []any{math.MinInt64, 0}},
		{"clamp", nil, dts(i32), [][]any{{0}, {-5, 3, 12}, {10}}, []any{0, 3, 10}},
		{"clamp", nil, dts(i32), [][]any{{5, 5}, {3, 9}, {1, 1}}, []any{1, 1}}, // lo > hi gives hi
		{"clamp", nil, dts(u8), [][]any{{2}, {0, 255}, {200}}, []any{2, 200}},
	})
}

// Integer division follows XLA: x/0 = -1 (all bits set), x%0 = x,
// INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0; quotients truncate toward zero.
func TestIntegerDivision(t *testing.T) {
	runEwCases(t, []ewCase{
		{"div", nil, dts(i32), [][]any{{7, -7, 7, -7, 5, minI32, 0}, {2, 2, -2, -2, 0, -1, 0}},
			[]any{3, -3, -3, 3, -1, minI32, -1}},
		{"rem", nil, dts(i32), [][]any{{7, -7, 7, -7, 5, minI32, 0}, {2, 2, -2, -2, 0, -1, 0}},
			[]any{1, -1, 1, -1, 5, 0, 0}},
		{"div", nil, dts(i8), [][]any{{-128, -128, 100}, {-1, 0, 7}}, []any{-128, -1, 14}},
		{"rem", nil, dts(i8), [][]any{{-128, -128, 100}, {-1, 0, 7}}, []any{0, -128, 2}},
		{"div", nil, dts(u8), [][]any{{7, 200}, {0, 3}}, []any{255, 66}},
		{"div", nil, dts(u32), [][]any{{7}, {0}}, []any{4294967295}},
		{"rem", nil, dts(u16), [][]any{{5, 65535}, {0, 10}}, []any{5, 5}},
		{"div", nil, dts(i64), [][]any{{math.MinInt64, 9}, {-1, 0}}, []any{math.MinInt64, -1}},
		{"rem", nil, dts(i64), [][]any{{math.MinInt64, 9}, {-1, 0}}, []any{0, 9}},
		{"div", nil, dts(i16), [][]any{{100}, {0, 3, -7}}, []any{-1, 33, -14}}, // rank-0 dividend
	})
}

func TestFloatArithmetic(t *testing.T) {
	runEwCases(t, []ewCase{
		{"add", nil, dts(f32), [][]any{{1, inf, inf, negZ, negZ}, {2, -inf, 1, 0.0, negZ}}, []any{3.0, nan, inf, 0.0, negZ}},
		{"sub", nil, dts(f64), [][]any{{0.0, 1}, {0.0, 1}}, []any{0.0, 0.0}},
		{"mul", nil, dts(f64), [][]any{{-1, 0, inf}, {0.0, inf, -2}}, []any{negZ, nan, -inf}},
		{"div", nil, dts(f32), [][]any{{1, -1, 0, 1, 1}, {0.0, 0.0, 0.0, negZ, 3}}, []any{inf, -inf, nan, -inf, f32v(1.0 / 3)}},
		{"div", nil, dts(f64), [][]any{{1}, {3, inf}}, []any{1.0 / 3, 0.0}},
		// rem is fmod: the sign of the dividend.
		{"rem", nil, dts(f32), [][]any{{5.5, -5.5, 5.5, 1, inf, negZ, 3, -4}, {2, 2, -2, 0, 1, 1, inf, 2}},
			[]any{1.5, -1.5, 1.5, nan, nan, negZ, 3.0, negZ}},
		{"rem", nil, dts(f64), [][]any{{1e300}, {3}}, []any{math.Mod(1e300, 3)}},
		{"neg", nil, dts(f32), [][]any{{0.0, negZ, inf, nan}}, []any{negZ, 0.0, -inf, nan}},
		{"abs", nil, dts(f64), [][]any{{negZ, -inf, nan, -2.5}}, []any{0.0, inf, nan, 2.5}},
		{"sign", nil, dts(f32), [][]any{{-2, 3, 0.0, negZ, nan, -inf, 1e-45}}, []any{-1.0, 1.0, 0.0, negZ, nan, -1.0, 1.0}},
		{"square", nil, dts(f32), [][]any{{3, -0.5, 1e20}}, []any{9.0, 0.25, inf}},
		{"integer_pow", trace.Params{"y": -2}, dts(f32), [][]any{{2, 0.0, -4}}, []any{0.25, inf, 0.0625}},
		{"integer_pow", trace.Params{"y": 0}, dts(f64), [][]any{{nan, 0.0, inf}}, []any{1.0, 1.0, 1.0}},
		{"integer_pow", trace.Params{"y": 5}, dts(f64), [][]any{{-2, 0.5}}, []any{-32.0, 0.03125}},
	})
}

// max and min propagate nan from either side and, on ties such as +0
// against -0, return the first operand (XLA's CPU emitter).
func TestMaxMinNaNAndSignedZero(t *testing.T) {
	for _, dt := range []trace.DType{f16, bf16, f32, f64} {
		runEwCases(t, []ewCase{
			{"max", nil, dts(dt), [][]any{{nan, 1, 0.0, negZ, 1, -inf}, {1, nan, negZ, 0.0, 2, -1}},
				[]any{nan, nan, 0.0, negZ, 2.0, -1.0}},
			{"min", nil, dts(dt), [][]any{{nan, 1, 0.0, negZ, 1, inf}, {1, nan, negZ, 0.0, 2, 1}},
				[]any{nan, nan, 0.0, negZ, 1.0, 1.0}},
			{"clamp", nil, dts(dt), [][]any{{0.0}, {-1, 0.5, 2, nan, negZ}, {1}}, []any{0.0, 0.5, 1.0, nan, 0.0}},
			{"clamp", nil, dts(dt), [][]any{{nan}, {0.5}, {1}}, []any{nan}},
		})
	}
	runEwCases(t, []ewCase{
		{"max", nil, dts(boolean), [][]any{{true, false, false}, {false, false, true}}, []any{true, false, true}},
		{"min", nil, dts(boolean), [][]any{{true, true, false}, {false, true, true}}, []any{false, true, false}},
		{"clamp", nil, dts(boolean), [][]any{{true}, {false, true}, {true}}, []any{true, true}},
	})
}

func TestPow(t *testing.T) {
	third := 1.0 / 3
	runEwCases(t, []ewCase{
		// C99 special cases.
		{"pow", nil, dts(f32), [][]any{{2, -8, 0.0, nan, 1, -1, negZ, 0.5}, {10, third, -1, 0.0, nan, inf, -3, -inf}},
			[]any{1024.0, nan, inf, 1.0, 1.0, 1.0, -inf, inf}},
		{"pow", nil, dts(f64), [][]any{{2, -2, 9}, {0.5, 3, 0.5}}, []any{math.Sqrt2, -8.0, 3.0}},
		{"pow", nil, dts(f32, i32), [][]any{{2, -2, 0.5}, {3, 3, -2}}, []any{8.0, -8.0, 4.0}},
		{"pow", nil, dts(f64, u8), [][]any{{-1.5}, {2, 3}}, []any{2.25, -3.375}},
		// The exponent is first rounded to the base's dtype: int 2049 is
		// 2048 in float16, and 16777217 is 16777216 in float32.
		{"pow", nil, dts(f16, i32), [][]any{{-1, 1.5}, {2049, 2}}, []any{1.0, 2.25}},
		{"pow", nil, dts(f32, i32), [][]any{{-1}, {16777217}}, []any{1.0}},
		{"pow", nil, dts(bf16, i16), [][]any{{-1}, {257}}, []any{1.0}},
		{"pow", nil, dts(c128, i32), [][]any{{complex(2, 0)}, {3}}, []any{complex(8, 0)}},
		{"pow", nil, dts(c128), [][]any{{complex(0, 0)}, {complex(0, 0)}}, []any{complex(1, 0)}},
	})
}

func TestComplexArithmetic(t *testing.T) {
	runEwCases(t, []ewCase{
		{"add", nil, dts(c64), [][]any{{complex(1, 2)}, {complex(3, -1)}}, []any{complex(4, 1)}},
		{"mul", nil, dts(c128), [][]any{{complex(1, 2)}, {complex(3, -1)}}, []any{complex(5, 5)}},
		{"div", nil, dts(c128), [][]any{{complex(8, 4)}, {complex(2, 0)}}, []any{complex(4, 2)}},
		{"neg", nil, dts(c64), [][]any{{complex(1, -2)}}, []any{complex(-1, 2)}},
		{"sign", nil, dts(c128), [][]any{{complex(3, 4), complex(0, 0)}}, []any{complex(0.6, 0.8), complex(0, 0)}},
		{"square", nil, dts(c64), [][]any{{complex(0, 1)}}, []any{complex(-1, 0)}},
		{"integer_pow", trace.Params{"y": -1}, dts(c128), [][]any{{complex(0, 2)}}, []any{complex(0, -0.5)}},
		// max and min compare (real, imag) lexicographically; nan loses.
		{"max", nil, dts(c128), [][]any{{complex(1, 5), complex(2, 0), complex(1, 1), complex(nan, 0)}, {complex(2, 0), complex(2, -1), complex(1, 1), complex(0, 0)}},
			[]any{complex(2, 0), complex(2, 0), complex(1, 1), complex(0, 0)}},
		{"min", nil, dts(c64), [][]any{{complex(1, 5), complex(2, 0)}, {complex(2, 0), complex(2, -1)}}, []any{complex(1, 5), complex(2, -1)}},
	})
	// abs of a complex number is real.
	out := apply(t, "abs", nil, bufferOf(t, c64, []int{2}, complex(3, 4), complex(math.Inf(-1), 1)))
	if out[0].DType() != f32 {
		t.Fatalf("abs(complex64) has dtype %s", out[0].DType())
	}
	checkElements(t, "abs(complex64)", out[0], 5.0, inf)
}

// float16 and bfloat16 compute in float32 and round once to their own
// dtype on store.
func TestHalfPrecisionRounding(t *testing.T) {
	runEwCases(t, []ewCase{
		{"add", nil, dts(f16), [][]any{{2048, 2048, 2048}, {1, 3, 1.5}}, []any{2048.0, 2052.0, 2050.0}},
		{"add", nil, dts(bf16), [][]any{{256, 256}, {1, 3}}, []any{256.0, 260.0}},
		{"mul", nil, dts(f16), [][]any{{300, -300}, {300}}, []any{inf, -inf}},
		{"div", nil, dts(f16), [][]any{{1}, {3}}, []any{0.333251953125}},
		{"div", nil, dts(bf16), [][]any{{1}, {3}}, []any{0.333984375}},
		// 1 - 1.5·2^-11 is halfway between two float16s: ties go to even.
		{"sub", nil, dts(f16), [][]any{{1}, {3.0 / 4096}}, []any{0.9990234375}},
		{"exp", nil, dts(f16), [][]any{{1, 0.0, -inf}}, []any{2.71875, 1.0, 0.0}},
		{"sqrt", nil, dts(bf16), [][]any{{2, negZ}}, []any{1.4140625, negZ}},
		{"neg", nil, dts(f16), [][]any{{0.0, 65504}}, []any{negZ, -65504.0}},
	})
}
