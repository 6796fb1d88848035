package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Fused against unfused execution of the study's shapes (x of 8M×2
// float32), each beside a memory copy of the same bytes measured in the
// same run: a fused loop should come close to the copy, an unfused one
// moves every intermediate through memory. Each sub-benchmark reports
// GB/s of the kernel's own inputs and outputs; the parent logs the table.
//
//	go test ./cpu -run '^$' -bench 'Fused(WellFused|Chain|Reduction)' -benchtime 5x

const benchRows = 8 << 20

// benchFusedAgainstUnfused runs j (its inputs in) fused as one kernel of
// kind and unfused, and a parallel copy of moved bytes.
func benchFusedAgainstUnfused(b *testing.B, j *trace.Jaxpr, kind jit.KernelKind, shape trace.Shape, moved int, in ...*Buffer) {
	rates := map[string]float64{}
	measure := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(moved))
			f() // warm: compile caches, page in outputs
			b.ResetTimer()
			for range b.N {
				f()
			}
			rates[name] = float64(moved) * float64(b.N) / b.Elapsed().Seconds() / 1e9
			b.ReportMetric(rates[name], "GB/s")
		})
	}
	// The copy's source must be written memory: untouched pages all map
	// to the kernel's one zero page, which reads from cache.
	src := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{moved / 2}, DType: trace.Uint8})
	for i := range src.data {
		src.data[i] = byte(i*7 + i>>12)
	}
	dst := newBuffer(testDevice().(*Device), src.AVal())
	measure("memcpy", func() { copyBuffer(dst, src) })
	run := func(p *jit.Program) func() {
		exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
		if err != nil {
			b.Fatal(err)
		}
		args := make([]jit.Buffer, len(in))
		for i, x := range in {
			args[i] = x
		}
		return func() {
			if _, err := exe.Execute(args, jit.NoHost); err != nil {
				b.Fatal(err)
			}
		}
	}
	unfused, err := jit.Compile(j)
	if err != nil {
		b.Fatal(err)
	}
	measure("fused", run(fusedProgramOf(j, kind, shape)))
	measure("unfused", run(unfused))
	if rates["memcpy"] > 0 {
		b.Logf("GB/s (kernel inputs+outputs): memcpy %.2f, fused %.2f (%.0f%% of memcpy), unfused %.2f (%.0f%%); fused is %.1fx unfused",
			rates["memcpy"], rates["fused"], 100*rates["fused"]/rates["memcpy"],
			rates["unfused"], 100*rates["unfused"]/rates["memcpy"], rates["fused"]/rates["unfused"])
	}
}

// BenchmarkFusedWellFused: the study's f_well_fused on x of 8M×2 float32
// (sin, integer_pow, iota, a broadcast row of x: one LoopKernel).
func BenchmarkFusedWellFused(b *testing.B) {
	jb := newJaxprBuilder(b)
	j := jb.build(wellFused(jb, f32, benchRows))
	x := randomBuffer(b, rand.New(rand.NewPCG(1, 1)), f32, true, benchRows, 2)
	benchFusedAgainstUnfused(b, j, jit.LoopKernel, trace.Shape{benchRows, 2}, 2*len(x.data), x)
}

// BenchmarkFusedChain: six cheap elementwise ops on x of 8M×2 float32,
// where memory bandwidth, not arithmetic, sets the pace.
func BenchmarkFusedChain(b *testing.B) {
	jb := newJaxprBuilder(b)
	x := jb.input(f32, benchRows, 2)
	a := jb.bind("mul", nil, x, jb.lit(2.0, f32))
	c := jb.bind("add", nil, a, jb.lit(1.0, f32))
	d := jb.bind("mul", nil, c, x)
	e := jb.bind("sub", nil, d, jb.lit(0.5, f32))
	f := jb.bind("abs", nil, e)
	g := jb.bind("max", nil, f, a)
	in := randomBuffer(b, rand.New(rand.NewPCG(2, 2)), f32, true, benchRows, 2)
	benchFusedAgainstUnfused(b, jb.build(g), jit.LoopKernel, trace.Shape{benchRows, 2}, 2*len(in.data), in)
}

// BenchmarkFusedReduction: sum(x*2, axis=1) on x of 8M×2 float32 as one
// ReductionKernel (reads 64 MB, writes 32 MB).
func BenchmarkFusedReduction(b *testing.B) {
	jb := newJaxprBuilder(b)
	x := jb.input(f32, benchRows, 2)
	s := jb.reduce("reduce_sum", jb.bind("mul", nil, x, jb.lit(2.0, f32)), 1)
	in := randomBuffer(b, rand.New(rand.NewPCG(3, 3)), f32, true, benchRows, 2)
	benchFusedAgainstUnfused(b, jb.build(s), jit.ReductionKernel, trace.Shape{benchRows, 2}, len(in.data)*3/2, in)
}
