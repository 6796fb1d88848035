package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestLogicalAndBitwise(t *testing.T) {
	T, F := true, false
	runEwCases(t, []ewCase{
		{"not", nil, dts(boolean), [][]any{{T, F}}, []any{F, T}},
		{"not", nil, dts(i8), [][]any{{0, -1, 5}}, []any{-1, 0, -6}},
		{"not", nil, dts(u8), [][]any{{0, 255}}, []any{255, 0}},
		{"and", nil, dts(boolean), [][]any{{T, T, F, F}, {T, F, T, F}}, []any{T, F, F, F}},
		{"or", nil, dts(boolean), [][]any{{T, T, F, F}, {T, F, T, F}}, []any{T, T, T, F}},
		{"xor", nil, dts(boolean), [][]any{{T, T, F, F}, {T, F, T, F}}, []any{F, T, T, F}},
		{"xor", nil, dts(boolean), [][]any{{T}, {T, F}}, []any{F, T}},
		{"and", nil, dts(i32), [][]any{{12, -1}, {10, minI32}}, []any{8, minI32}},
		{"or", nil, dts(u16), [][]any{{0xf000}, {0x000f, 0}}, []any{0xf00f, 0xf000}},
		{"xor", nil, dts(i64), [][]any{{-1}, {5}}, []any{-6}},
		{"population_count", nil, dts(i8), [][]any{{-1, 0, -128, 7}}, []any{8, 0, 1, 3}},
		{"population_count", nil, dts(u16), [][]any{{0xffff, 0x8001}}, []any{16, 2}},
		{"population_count", nil, dts(i64), [][]any{{-1}}, []any{64}},
	})
}

// Shift amounts are read as unsigned: an amount of the bit width or more,
// or a negative one, gives 0 (left, logical) or the sign fill (arithmetic).
func TestShiftsPastTheWidth(t *testing.T) {
	runEwCases(t, []ewCase{
		{"shift_left", nil, dts(i8), [][]any{{1, 1, 1, 1, -1, 3}, {7, 8, -1, 0, 1, 100}}, []any{-128, 0, 0, 1, -2, 0}},
		{"shift_left", nil, dts(u32), [][]any{{1}, {31, 32, 33}}, []any{2147483648, 0, 0}},
		{"shift_left", nil, dts(i64), [][]any{{1, 1}, {63, 64}}, []any{-9223372036854775808, 0}},
		{"shift_right_logical", nil, dts(i8), [][]any{{-128, -1, 16, -1, -1}, {1, 7, 2, 8, -1}}, []any{64, 1, 4, 0, 0}},
		{"shift_right_logical", nil, dts(u16), [][]any{{0x8000}, {15, 16}}, []any{1, 0}},
		{"shift_right_logical", nil, dts(i32), [][]any{{-1}, {1}}, []any{0x7fffffff}},
		{"shift_right_arithmetic", nil, dts(i8), [][]any{{-128, -128, 64, -1, 5, 5}, {1, 9, 8, -3, 1, -1}}, []any{-64, -1, 0, -1, 2, 0}},
		{"shift_right_arithmetic", nil, dts(i32), [][]any{{minI32, 7}, {31, 32}}, []any{-1, 0}},
		// On unsigned types the top bit is copied in, as XLA's ashr does.
		{"shift_right_arithmetic", nil, dts(u8), [][]any{{0x80, 0x40, 0x80}, {1, 9, 200}}, []any{0xc0, 0, 0xff}},
		{"shift_right_arithmetic", nil, dts(u32), [][]any{{0x80000000}, {4}}, []any{0xf8000000}},
	})
}

// Comparisons with nan are false except ne; -0 == +0; bool orders
// False < True; unsigned values compare unsigned.
func TestComparisons(t *testing.T) {
	T, F := true, false
	for _, dt := range []trace.DType{f16, bf16, f32, f64} {
		x := []any{nan, 1, 0.0, nan, 1, -inf}
		y := []any{nan, nan, negZ, 1, 1, -1}
		runEwCases(t, []ewCase{
			{"eq", nil, dts(dt), [][]any{x, y}, []any{F, F, T, F, T, F}},
			{"ne", nil, dts(dt), [][]any{x, y}, []any{T, T, F, T, F, T}},
			{"lt", nil, dts(dt), [][]any{x, y}, []any{F, F, F, F, F, T}},
			{"le", nil, dts(dt), [][]any{x, y}, []any{F, F, T, F, T, T}},
			{"gt", nil, dts(dt), [][]any{x, y}, []any{F, F, F, F, F, F}},
			{"ge", nil, dts(dt), [][]any{x, y}, []any{F, F, T, F, T, F}},
		})
	}
	runEwCases(t, []ewCase{
		{"lt", nil, dts(boolean), [][]any{{F, T, F}, {T, F, F}}, []any{T, F, F}},
		{"ge", nil, dts(boolean), [][]any{{F, T, T}, {T, F, T}}, []any{F, T, T}},
		{"gt", nil, dts(u32), [][]any{{4294967295, 1}, {1}}, []any{T, F}},
		{"lt", nil, dts(i8), [][]any{{-128, 127}, {0}}, []any{T, F}},
		{"eq", nil, dts(c64), [][]any{{complex(1, 2), complex(1, 2)}, {complex(1, 2), complex(1, -2)}}, []any{T, F}},
		{"ne", nil, dts(c128), [][]any{{complex(nan, 0)}, {complex(nan, 0)}}, []any{T}},
	})
}

func TestSelectN(t *testing.T) {
	T, F := true, false
	runEwCases(t, []ewCase{
		{"select_n", nil, dts(boolean, f32, f32), [][]any{{T, F, T}, {1, 2, 3}, {10, 20, 30}}, []any{10.0, 2.0, 30.0}},
		{"select_n", nil, dts(boolean, i8, i8), [][]any{{T}, {1, 2}, {10, 20}}, []any{10, 20}}, // rank-0 which
		{"select_n", nil, dts(boolean, f16, f16), [][]any{{F, T}, {nan, 2}, {10, negZ}}, []any{nan, negZ}},
		// An integer which out of range picks the first or last case.
		{"select_n", nil, dts(i32, f64, f64, f64), [][]any{{-1, 0, 1, 2, 5, minI32}, {1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2}, {3, 3, 3, 3, 3, 3}},
			[]any{1.0, 1.0, 2.0, 3.0, 3.0, 1.0}},
		{"select_n", nil, dts(u8, i64, i64), [][]any{{0, 1, 255}, {-1, -1, -1}, {7, 7, 7}}, []any{-1, 7, 7}},
		{"select_n", nil, dts(i32, c128, c128), [][]any{{1, 0}, {complex(1, 1), complex(2, 2)}, {complex(3, 3), complex(4, 4)}},
			[]any{complex(3, 3), complex(2, 2)}},
		{"select_n", nil, dts(boolean, u16), [][]any{{T, F}, {5, 6}}, []any{5, 6}}, // one case
		{"copy", nil, dts(bf16), [][]any{{1.5, nan, negZ}}, []any{1.5, nan, negZ}},
	})
}

// TestThreefry checks JAX's threefry2x32 against the Random123 known-answer
// vectors that JAX's own tests use.
func TestThreefry(t *testing.T) {
	key0 := bufferOf(t, u32, []int{3}, 0, 0xffffffff, 0x13198a2e)
	key1 := bufferOf(t, u32, []int{3}, 0, 0xffffffff, 0x03707344)
	x0 := bufferOf(t, u32, []int{3}, 0, 0xffffffff, 0x243f6a88)
	x1 := bufferOf(t, u32, []int{3}, 0, 0xffffffff, 0x85a308d3)
	out := apply(t, "threefry2x32", nil, key0, key1, x0, x1)
	checkElements(t, "threefry2x32 y0", out[0], 0x6b200159, 0x1cb996fc, 0xc4923a9c)
	checkElements(t, "threefry2x32 y1", out[1], 0x99ba4efe, 0xbb002be7, 0x483df7a0)
	// Rank-0 keys broadcast against arrays of counts.
	out = apply(t, "threefry2x32", nil, bufferOf(t, u32, []int{}, 0x13198a2e), bufferOf(t, u32, []int{}, 0x03707344),
		bufferOf(t, u32, []int{2}, 0x243f6a88, 0), bufferOf(t, u32, []int{2}, 0x85a308d3, 0))
	y0, y1 := threefry2x32(0x13198a2e, 0x03707344, 0, 0)
	checkElements(t, "threefry2x32 broadcast y0", out[0], 0xc4923a9c, int64(y0))
	checkElements(t, "threefry2x32 broadcast y1", out[1], 0x483df7a0, int64(y1))
}
