package cpu

import (
	"math/rand"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Benchmarks of the eager elementwise kernels. "kernel" runs the kernel
// into a preallocated output (NumPy's np.add(a, b, out=c)); "eager" is
// the whole eager path, allocating the result (np.add(a, b)). Bytes per
// op count every operand read and the result written.

func benchElementwise(b *testing.B, prim string, dt trace.DType, n, operands int) {
	rng := rand.New(rand.NewSource(1))
	dev := testDevice().(*Device)
	in := make([]*Buffer, operands)
	for k := range in {
		buf := newBuffer(dev, trace.AVal{Shape: trace.Shape{n}, DType: dt})
		switch dt {
		case trace.Float32:
			v := view[float32](buf)
			for i := range v {
				v[i] = rng.Float32()*200 - 100
			}
		case trace.Int32:
			v := view[int32](buf)
			for i := range v {
				v[i] = int32(rng.Uint32())
			}
		default:
			b.Fatalf("no benchmark data for %s", dt)
		}
		in[k] = buf
	}
	p := trace.Lookup(prim)
	avals := make([]trace.AVal, operands)
	for k := range avals {
		avals[k] = in[k].AVal()
	}
	outAvals, _, err := p.Infer(avals, trace.Params{})
	if err != nil {
		b.Fatal(err)
	}
	bytes := int64(n * dt.Size() * (operands + 1))
	b.Run("kernel", func(b *testing.B) {
		out := []*Buffer{newBuffer(dev, outAvals[0])}
		e := &trace.Eqn{Prim: p, Params: trace.Params{}}
		b.SetBytes(bytes)
		b.ResetTimer()
		for b.Loop() {
			if err := elementwiseKernel(e, in, out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("eager", func(b *testing.B) {
		b.SetBytes(bytes)
		for b.Loop() {
			apply(b, prim, nil, in...)
		}
	})
}

func BenchmarkAddFloat32_16M(b *testing.B) { benchElementwise(b, "add", trace.Float32, 16<<20, 2) }

func BenchmarkSinFloat32_16M(b *testing.B) { benchElementwise(b, "sin", trace.Float32, 16<<20, 1) }

func BenchmarkMulInt32_1M(b *testing.B) { benchElementwise(b, "mul", trace.Int32, 1<<20, 2) }
