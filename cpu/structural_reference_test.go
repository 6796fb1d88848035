package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The structural kernels checked against naive references on random shapes,
// for every element size, with sizes large enough to take the parallel and
// tiled paths. References map each output multi-index to an operand
// multi-index by division, independently of strideWalk, and compare bytes.

// sizedDTypes has one dtype per element size.
var sizedDTypes = []trace.DType{trace.Uint8, trace.Float16, trace.Float32, trace.Int64, trace.Complex128}

// randomBuffer fills a buffer with random bytes (bool excluded: its bytes
// must be 0 or 1).
func randomBytesBuffer(t testing.TB, rng *rand.Rand, dt trace.DType, shape ...int) *Buffer {
	t.Helper()
	b := newBuffer(testDevice().(*Device), trace.AVal{Shape: shape, DType: dt})
	for i := range b.data {
		b.data[i] = byte(rng.Uint32())
	}
	return b
}

// unravel is the row-major multi-index of flat index i.
func unravelIndex(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = i % shape[d]
		i /= shape[d]
	}
	return idx
}

func ravelIndex(idx, shape []int) int {
	flat := 0
	for d := range shape {
		flat = flat*shape[d] + idx[d]
	}
	return flat
}

// referenceMove builds the expected output bytes: source(outIdx) gives the
// operand multi-index of each output element, or nil for the pad byte
// pattern of element padFrom.
func referenceMove(x *Buffer, outShape []int, pad *Buffer, source func(out []int) []int) []byte {
	size := x.DType().Size()
	n := trace.Shape(outShape).Size()
	want := make([]byte, n*size)
	for i := range n {
		from := source(unravelIndex(i, outShape))
		if from == nil {
			copy(want[i*size:], pad.data[:size])
			continue
		}
		j := ravelIndex(from, x.Shape())
		copy(want[i*size:], x.data[j*size:(j+1)*size])
	}
	return want
}

func checkSameBytes(t *testing.T, what string, got *Buffer, want []byte) {
	t.Helper()
	if !bytes.Equal(got.data, want) {
		size := got.DType().Size()
		for i := 0; i < len(want); i += size {
			if !bytes.Equal(got.data[i:i+size], want[i:i+size]) {
				t.Fatalf("%s: first wrong element %d of %d (shape %s): % x, want % x",
					what, i/size, len(want)/size, got.Shape(), got.data[i:i+size], want[i:i+size])
			}
		}
		t.Fatalf("%s: %d bytes, want %d", what, len(got.data), len(want))
	}
}

func randomDims(rng *rand.Rand, rank, maxDim int) []int {
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1 + rng.IntN(maxDim)
	}
	return shape
}

func TestTransposeAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		shape, perm []int
	}{
		{[]int{300, 257}, []int{1, 0}},     // tiled, ragged edge tiles, parallel
		{[]int{3, 70, 90}, []int{0, 2, 1}}, // batched 2-D transpose
		{[]int{64, 3, 64}, []int{2, 1, 0}},
		{[]int{7, 5}, []int{1, 0}}, // too small to tile
		{[]int{40, 1, 50}, []int{2, 1, 0}},
	}
	for range 12 {
		rank := 1 + rng.IntN(4)
		cases = append(cases, struct{ shape, perm []int }{randomDims(rng, rank, 24), rng.Perm(rank)})
	}
	for _, dt := range sizedDTypes {
		for _, c := range cases {
			x := randomBytesBuffer(t, rng, dt, c.shape...)
			y := applyOneResult(t, "transpose", trace.Params{"permutation": c.perm}, x)
			outShape := make([]int, len(c.perm))
			for i, d := range c.perm {
				outShape[i] = c.shape[d]
			}
			want := referenceMove(x, outShape, nil, func(out []int) []int {
				in := make([]int, len(out))
				for i, d := range c.perm {
					in[d] = out[i]
				}
				return in
			})
			checkSameBytes(t, fmt.Sprintf("%s transpose %v by %v", dt, c.shape, c.perm), y, want)
		}
	}
}

func TestBroadcastSliceRevPadAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 40 {
		dt := sizedDTypes[iter%len(sizedDTypes)]
		rank := 1 + rng.IntN(3)
		shape := randomDims(rng, rank, 40)
		if iter%5 == 0 {
			shape[0] = 1000 // large enough for several chunks
		}
		x := randomBytesBuffer(t, rng, dt, shape...)
		what := fmt.Sprintf("%s %v", dt, shape)

		// broadcast_in_dim: insert a new dimension in front, expand one
		// operand dimension of size 1.
		bShape := append([]int{3}, shape...)
		xb := x
		if shape[rank-1] != 1 {
			xb = randomBytesBuffer(t, rng, dt, append(shape[:rank-1:rank-1], 1)...)
			bShape[rank] = shape[rank-1]
		}
		bdims := make([]int, rank)
		for i := range bdims {
			bdims[i] = i + 1
		}
		y := applyOneResult(t, "broadcast_in_dim", trace.Params{"shape": bShape, "broadcast_dimensions": bdims}, xb)
		checkSameBytes(t, what+" broadcast", y, referenceMove(xb, bShape, nil, func(out []int) []int {
			in := make([]int, rank)
			for i := range in {
				if xb.Shape()[i] != 1 {
					in[i] = out[i+1]
				}
			}
			return in
		}))

		// slice with random bounds and strides.
		start, limit, strides := make([]int, rank), make([]int, rank), make([]int, rank)
		outShape := make([]int, rank)
		for d, n := range shape {
			start[d] = rng.IntN(n)
			limit[d] = start[d] + rng.IntN(n-start[d]+1)
			strides[d] = 1 + rng.IntN(3)
			outShape[d] = (limit[d] - start[d] + strides[d] - 1) / strides[d]
		}
		y = applyOneResult(t, "slice", trace.Params{"start_indices": start, "limit_indices": limit, "strides": strides}, x)
		checkSameBytes(t, what+" slice", y, referenceMove(x, outShape, nil, func(out []int) []int {
			in := make([]int, rank)
			for d := range in {
				in[d] = start[d] + out[d]*strides[d]
			}
			return in
		}))

		// rev of a random subset of dimensions.
		var dims []int
		for d := range rank {
			if rng.IntN(2) == 0 {
				dims = append(dims, d)
			}
		}
		y = applyOneResult(t, "rev", trace.Params{"dimensions": dims}, x)
		checkSameBytes(t, what+fmt.Sprintf(" rev %v", dims), y, referenceMove(x, shape, nil, func(out []int) []int {
			in := append([]int(nil), out...)
			for _, d := range dims {
				in[d] = shape[d] - 1 - out[d]
			}
			return in
		}))

		// pad with random (possibly negative) low/high and interior padding.
		value := randomBytesBuffer(t, rng, dt)
		config := make(trace.PaddingConfig, rank)
		padShape := make([]int, rank)
		for d, n := range shape {
			c := trace.PadDim{Lo: rng.IntN(7) - 3, Hi: rng.IntN(7) - 3, Interior: rng.IntN(3)}
			full := n + (n-1)*c.Interior
			if full+c.Lo+c.Hi < 0 {
				c.Hi = -full - c.Lo
			}
			config[d], padShape[d] = c, full+c.Lo+c.Hi
		}
		y = applyOneResult(t, "pad", trace.Params{"padding_config": config}, x, value)
		checkSameBytes(t, what+fmt.Sprintf(" pad %v", config), y, referenceMove(x, padShape, value, func(out []int) []int {
			in := make([]int, rank)
			for d, c := range config {
				p := out[d] - c.Lo
				if p < 0 || p%(c.Interior+1) != 0 || p/(c.Interior+1) >= shape[d] {
					return nil
				}
				in[d] = p / (c.Interior + 1)
			}
			return in
		}))
	}
}
