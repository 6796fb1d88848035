package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Benchmarks of the structural kernels, each beside a baseline that prints
// in the same table: a plain parallel memory copy of the same bytes (the
// best a data-moving kernel can hope for) and, for the transpose, the
// untiled strided walk the tiles replace. Kernels are called directly on
// preallocated buffers, so the numbers exclude dispatch and allocation.
//
//	go test -run XXX -bench 'Transpose4096|BroadcastInDim16M|Gather1M|Scatter' ./cpu/

func benchKernel(b *testing.B, prim string, params trace.Params, in []*Buffer, outAval trace.AVal) {
	b.Helper()
	fn := kernels[prim]
	e := &trace.Eqn{Prim: trace.Lookup(prim), Params: params}
	out := []*Buffer{newBuffer(testDevice().(*Device), outAval)}
	b.SetBytes(int64(len(out[0].data)))
	if err := fn(e, in, out, nil); err != nil { // fault the output's pages in
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := fn(e, in, out, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCopyBaseline(b *testing.B, aval trace.AVal) {
	dev := testDevice().(*Device)
	src, dst := filledBuffer(dev, aval), filledBuffer(dev, aval)
	b.SetBytes(int64(len(dst.data)))
	for b.Loop() {
		copyBuffer(dst, src)
	}
}

// filledBuffer is a buffer whose pages have been written, so reading it
// measures memory rather than the kernel's zero page.
func filledBuffer(dev *Device, aval trace.AVal) *Buffer {
	b := newBuffer(dev, aval)
	for i := range b.data {
		b.data[i] = byte(i)
	}
	return b
}

func BenchmarkTranspose4096(b *testing.B) {
	const n = 4096
	aval := trace.NewAVal(trace.Float32, n, n)
	x := filledBuffer(testDevice().(*Device), aval)
	b.Run("copy-baseline", func(b *testing.B) { benchCopyBaseline(b, aval) })
	b.Run("untiled", func(b *testing.B) {
		y := filledBuffer(testDevice().(*Device), aval)
		dst, src := view[uint32](y), view[uint32](x)
		w := strideWalk{shape: []int{n, n}, strides: [walkVectors][]int{{n, 1}, {1, n}}}
		b.SetBytes(int64(len(y.data)))
		for b.Loop() {
			w.parallel(func(o walkOffsets, k, rows int) {
				for r := range rows {
					d, s := o[0]+r*n, o[1]+r
					for range k {
						dst[d] = src[s]
						d++
						s += n
					}
				}
			})
		}
	})
	b.Run("tiled", func(b *testing.B) {
		benchKernel(b, "transpose", trace.Params{"permutation": []int{1, 0}}, []*Buffer{x}, aval)
	})
}

func BenchmarkBroadcastInDim16M(b *testing.B) {
	const n = 4096 // n*n = 16M elements
	out := trace.NewAVal(trace.Float32, n, n)
	dev := testDevice().(*Device)
	b.Run("copy-baseline", func(b *testing.B) { benchCopyBaseline(b, out) })
	b.Run("scalar", func(b *testing.B) {
		benchKernel(b, "broadcast_in_dim", trace.Params{"shape": []int{n, n}, "broadcast_dimensions": []int{}},
			[]*Buffer{newBuffer(dev, trace.NewAVal(trace.Float32))}, out)
	})
	b.Run("row", func(b *testing.B) {
		benchKernel(b, "broadcast_in_dim", trace.Params{"shape": []int{n, n}, "broadcast_dimensions": []int{1}},
			[]*Buffer{newBuffer(dev, trace.NewAVal(trace.Float32, n))}, out)
	})
	b.Run("column", func(b *testing.B) {
		benchKernel(b, "broadcast_in_dim", trace.Params{"shape": []int{n, n}, "broadcast_dimensions": []int{0, 1}},
			[]*Buffer{newBuffer(dev, trace.NewAVal(trace.Float32, n, 1))}, out)
	})
}

// randomIndices are n int32 row indices into [0, rows).
func randomIndices(n, rows int) *Buffer {
	idx := newBuffer(testDevice().(*Device), trace.NewAVal(trace.Int32, n, 1))
	rng := rand.New(rand.NewPCG(9, 10))
	for i, v := 0, view[int32](idx); i < n; i++ {
		v[i] = int32(rng.IntN(rows))
	}
	return idx
}

// BenchmarkGather1MRows is x[idx] with a million random indices into a
// table of a million rows: rows of 16 float32 (a cache line each) and
// single elements.
func BenchmarkGather1MRows(b *testing.B) {
	const rows, n = 1 << 20, 1 << 20
	dev := testDevice().(*Device)
	idx := randomIndices(n, rows)
	params := func(width int) trace.Params {
		return gatherParams(takeRows, []int{1, width}, trace.GatherPromiseInBounds, nil)
	}
	b.Run("copy-baseline-16", func(b *testing.B) { benchCopyBaseline(b, trace.NewAVal(trace.Float32, n, 16)) })
	b.Run("rows-of-16", func(b *testing.B) {
		x := filledBuffer(dev, trace.NewAVal(trace.Float32, rows, 16))
		benchKernel(b, "gather", params(16), []*Buffer{x, idx}, trace.NewAVal(trace.Float32, n, 16))
	})
	b.Run("rows-of-1", func(b *testing.B) {
		x := filledBuffer(dev, trace.NewAVal(trace.Float32, rows, 1))
		benchKernel(b, "gather", params(1), []*Buffer{x, idx}, trace.NewAVal(trace.Float32, n, 1))
	})
	b.Run("rows-of-16-fill-mode", func(b *testing.B) {
		x := filledBuffer(dev, trace.NewAVal(trace.Float32, rows, 16))
		benchKernel(b, "gather", gatherParams(takeRows, []int{1, 16}, trace.GatherFillOrDrop, nil),
			[]*Buffer{x, idx}, trace.NewAVal(trace.Float32, n, 16))
	})
}

// BenchmarkScatterAdd1M is x.at[idx].add(v) with a million random scalar
// updates into a million elements: windows apply one after another, so
// this is the serial cost per update.
func BenchmarkScatterAdd1M(b *testing.B) {
	const n = 1 << 20
	dev := testDevice().(*Device)
	aval := trace.NewAVal(trace.Float32, n)
	x, u := filledBuffer(dev, aval), filledBuffer(dev, aval)
	benchKernel(b, "scatter-add", scatterParams(atScalars, trace.GatherFillOrDrop), []*Buffer{x, randomIndices(n, n), u}, aval)
}
