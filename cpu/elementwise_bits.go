package cpu

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// Bitwise, logical, comparison and selection block ops: not and or xor
// shift_left shift_right_logical shift_right_arithmetic population_count
// eq ne lt le gt ge select_n copy threefry2x32.
//
//   - On bool, not/and/or/xor are logical (bool computes as uint8 0 or 1,
//     so the bitwise ops on those values are the logical ones; not is x^1).
//     On integers they are bitwise.
//   - Shifts follow XLA: the amount is read as unsigned, and an amount of
//     the bit width or more (a negative amount included) gives 0 for
//     shift_left and shift_right_logical and the sign fill (0 or -1) for
//     shift_right_arithmetic. shift_right_arithmetic on an unsigned type
//     shifts in copies of the top bit, as XLA's ashr does.
//   - Comparisons are IEEE: any comparison with nan is false except ne,
//     and -0 == +0. bool orders False < True.
//   - select_n(which, *cases) picks cases[which]; a bool which picks case 0
//     when false and case 1 when true. An integer which out of range is
//     clamped to the first or last case: JAX lowers select_n to a tree of
//     compare-and-selects that does exactly that (lax leaves it undefined).
//     Selection copies element bits, so it runs on every dtype's own
//     layout, 16-bit floats included.

func init() {
	defineIntBits[int8](trace.Int8)
	defineIntBits[int16](trace.Int16)
	defineIntBits[int32](trace.Int32)
	defineIntBits[int64](trace.Int64)
	defineIntBits[uint8](trace.Uint8)
	defineIntBits[uint16](trace.Uint16)
	defineIntBits[uint32](trace.Uint32)
	defineComparisons[float32](trace.Float32)
	defineComparisons[float64](trace.Float64)
	defineEquality[complex64](trace.Complex64)
	defineEquality[complex128](trace.Complex128)

	defUnary("not", trace.Bool, trace.Bool, notBoolBlock)
	defBinary("and", trace.Bool, trace.Bool, andBlock[uint8])
	defBinary("or", trace.Bool, trace.Bool, orBlock[uint8])
	defBinary("xor", trace.Bool, trace.Bool, xorBlock[uint8])
	defineComparisons[uint8](trace.Bool)

	for _, dt := range trace.DTypes() {
		if !dt.IsArray() {
			continue
		}
		defineBlock(blockKey{prim: "copy", dt: dt}, blockEntry{compute: dt, result: dt, build: fixed(copyOp)})
		for _, which := range append([]trace.DType{trace.Bool}, integerDTypes...) {
			defineSelect(dt, which)
		}
	}

	defineBlock(blockKey{prim: "threefry2x32", dt: trace.Uint32},
		blockEntry{compute: trace.Uint32, result: trace.Uint32, results: 2, build: fixed(threefryOp)})
}

func defineIntBits[T intElem](dt trace.DType) {
	defUnary("not", dt, dt, notIntBlock[T])
	defUnary("population_count", dt, dt, popcountBlock[T])
	defBinary("and", dt, dt, andBlock[T])
	defBinary("or", dt, dt, orBlock[T])
	defBinary("xor", dt, dt, xorBlock[T])
	defBinary("shift_left", dt, dt, shiftLeftBlock[T])
	defBinary("shift_right_logical", dt, dt, shiftRightLogicalBlock[T])
	defBinary("shift_right_arithmetic", dt, dt, shiftRightArithmeticBlock[T])
	defineComparisons[T](dt)
}

func defineComparisons[T realElem](dt trace.DType) {
	defineEquality[T](dt)
	defBinary("lt", dt, trace.Bool, ltBlock[T])
	defBinary("le", dt, trace.Bool, leBlock[T])
	defBinary("gt", dt, trace.Bool, gtBlock[T])
	defBinary("ge", dt, trace.Bool, geBlock[T])
}

func defineEquality[T comparable](dt trace.DType) {
	defBinary("eq", dt, trace.Bool, eqBlock[T])
	defBinary("ne", dt, trace.Bool, neBlock[T])
}

func notBoolBlock(dst, x []uint8) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] ^ 1
	}
}

func notIntBlock[T intElem](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = ^x[i]
	}
}

func andBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] & y[i]
	}
}

func orBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] | y[i]
	}
}

func xorBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] ^ y[i]
	}
}

// bitWidth is T's width in bits; a constant in each instantiation.
func bitWidth[T intElem]() uint64 {
	var zero T
	return uint64(unsafe.Sizeof(zero)) * 8
}

func shiftLeftBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	w := bitWidth[T]()
	for i := range dst {
		if s := unsignedAmount(y[i], w); s < w {
			dst[i] = x[i] << s
		} else {
			dst[i] = 0
		}
	}
}

// shiftRightLogicalBlock shifts the bits as unsigned: the value is
// zero-extended from its own width before shifting.
func shiftRightLogicalBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	w := bitWidth[T]()
	for i := range dst {
		if s := unsignedAmount(y[i], w); s < w {
			dst[i] = T(uint64(x[i]) << (64 - w) >> (64 - w) >> s)
		} else {
			dst[i] = 0
		}
	}
}

// shiftRightArithmeticBlock shifts the bits as signed: the value is
// sign-extended from its own width, so amounts past the width leave only
// copies of the sign bit.
func shiftRightArithmeticBlock[T intElem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	w := bitWidth[T]()
	for i := range dst {
		s := min(unsignedAmount(y[i], w), w-1)
		dst[i] = T(int64(uint64(x[i])<<(64-w)) >> (64 - w) >> s)
	}
}

// unsignedAmount reads a shift amount as an unsigned number of its own
// width, as XLA compares it with the bit width.
func unsignedAmount[T intElem](y T, w uint64) uint64 {
	return uint64(y) << (64 - w) >> (64 - w)
}

func popcountBlock[T intElem](dst, x []T) {
	x = x[:len(dst)]
	w := bitWidth[T]()
	for i := range dst {
		dst[i] = T(bits.OnesCount64(uint64(x[i]) << (64 - w)))
	}
}

func eqBlock[T comparable](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] == y[i]
	}
}

func neBlock[T comparable](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] != y[i]
	}
}

func ltBlock[T realElem](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] < y[i]
	}
}

func leBlock[T realElem](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] <= y[i]
	}
}

func gtBlock[T realElem](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] > y[i]
	}
}

func geBlock[T realElem](dst []bool, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] >= y[i]
	}
}

// copyOp copies the element bits.
func copyOp(out, in [][]byte) { copy(out[0], in[0]) }

// defineSelect defines select_n for cases of dtype dt chosen by a which of
// dtype which. Cases are moved as opaque words of dt's size.
func defineSelect(dt, which trace.DType) {
	var op func(nIn int) blockOp
	switch dt.Size() {
	case 1:
		op = selectByWhich[uint8](which)
	case 2:
		op = selectByWhich[uint16](which)
	case 4:
		op = selectByWhich[uint32](which)
	case 8:
		op = selectByWhich[uint64](which)
	case 16:
		op = selectByWhich[[2]uint64](which)
	default:
		panic("cpu: select_n on " + dt.String())
	}
	defineBlock(blockKey{prim: "select_n", dt: dt, aux: which}, blockEntry{compute: dt, result: dt,
		build: func(_ trace.Params, nIn int) (blockOp, error) {
			if nIn < 2 {
				return nil, fmt.Errorf("no cases")
			}
			return op(nIn), nil
		}})
}

func selectByWhich[T any](which trace.DType) func(nIn int) blockOp {
	switch which {
	case trace.Bool, trace.Uint8:
		return selectOp[T, uint8]
	case trace.Int8:
		return selectOp[T, int8]
	case trace.Int16:
		return selectOp[T, int16]
	case trace.Int32:
		return selectOp[T, int32]
	case trace.Int64:
		return selectOp[T, int64]
	case trace.Uint16:
		return selectOp[T, uint16]
	case trace.Uint32:
		return selectOp[T, uint32]
	}
	panic("cpu: select_n with a " + which.String() + " which")
}

func selectOp[T any, W intElem](nIn int) blockOp {
	if nIn == 2 {
		return copyCases
	}
	if nIn == 3 {
		return func(out, in [][]byte) {
			select2Block(runAs[T](out[0]), runAs[W](in[0]), runAs[T](in[1]), runAs[T](in[2]))
		}
	}
	return func(out, in [][]byte) {
		cases := make([][]T, len(in)-1)
		for i := range cases {
			cases[i] = runAs[T](in[i+1])
		}
		selectNBlock(runAs[T](out[0]), runAs[W](in[0]), cases)
	}
}

// copyCases is select_n with one case: every which picks it.
func copyCases(out, in [][]byte) { copy(out[0], in[1]) }

func select2Block[T any, W intElem](dst []T, which []W, a, b []T) {
	which, a, b = which[:len(dst)], a[:len(dst)], b[:len(dst)]
	for i := range dst {
		if which[i] >= 1 {
			dst[i] = b[i]
		} else {
			dst[i] = a[i]
		}
	}
}

func selectNBlock[T any, W intElem](dst []T, which []W, cases [][]T) {
	which = which[:len(dst)]
	last := len(cases) - 1
	for i := range dst {
		k := int(which[i]) // int is 64 bits: every which fits
		dst[i] = cases[max(0, min(k, last))][i]
	}
}

// threefryOp is JAX's threefry2x32 hash (Random123's Threefry-2x32 with 20
// rounds): (key0, key1, x0, x1) -> (y0, y1).
func threefryOp(out, in [][]byte) {
	y0, y1 := runAs[uint32](out[0]), runAs[uint32](out[1])
	k0, k1 := runAs[uint32](in[0])[:len(y0)], runAs[uint32](in[1])[:len(y0)]
	x0, x1 := runAs[uint32](in[2])[:len(y0)], runAs[uint32](in[3])[:len(y0)]
	y1 = y1[:len(y0)]
	for i := range y0 {
		y0[i], y1[i] = threefry2x32(k0[i], k1[i], x0[i], x1[i])
	}
}

var threefryRotations = [2][4]int{{13, 15, 26, 6}, {17, 29, 16, 24}}

func threefry2x32(key0, key1, x0, x1 uint32) (uint32, uint32) {
	ks := [3]uint32{key0, key1, key0 ^ key1 ^ 0x1BD11BDA}
	x0 += ks[0]
	x1 += ks[1]
	for r := 0; r < 5; r++ {
		for _, rot := range threefryRotations[r%2] {
			x0 += x1
			x1 = bits.RotateLeft32(x1, rot)
			x1 ^= x0
		}
		x0 += ks[(r+1)%3]
		x1 += ks[(r+2)%3] + uint32(r+1)
	}
	return x0, x1
}
