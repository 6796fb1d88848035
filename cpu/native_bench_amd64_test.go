package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The six-op chain ((x*y + 1.5) - y) * x / (y + 2) on 16M float32 as one
// fused kernel, run by native code and by the block machine: the kernel
// alone, without a script around it.
func benchChain6(b *testing.B, codegen string) {
	benchFusedKernel(b, codegen, func(jb *jaxprBuilder, x, y *trace.Var) *trace.Var {
		v := jb.bind("add", nil, jb.bind("mul", nil, x, y), jb.lit(1.5, trace.Float32))
		v = jb.bind("mul", nil, jb.bind("sub", nil, v, y), x)
		return jb.bind("div", nil, v, jb.bind("add", nil, y, jb.lit(2.0, trace.Float32)))
	})
}

// sin(x)·y + cos(y) on 16M float32 (x = i/1000, y = 1 - x).
func benchSinCos(b *testing.B, codegen string) {
	benchFusedKernel(b, codegen, func(jb *jaxprBuilder, x, y *trace.Var) *trace.Var {
		return jb.bind("add", nil, jb.bind("mul", nil, jb.bind("sin", nil, x), y), jb.bind("cos", nil, y))
	})
}

func benchFusedKernel(b *testing.B, codegen string, f func(jb *jaxprBuilder, x, y *trace.Var) *trace.Var) {
	b.Setenv("JAXSH_CPU_CODEGEN", codegen)
	const n = 1 << 24
	jb := newJaxprBuilder(b)
	x, y := jb.input(trace.Float32, n), jb.input(trace.Float32, n)
	p := fusedProgramOf(jb.build(f(jb, x, y)), jit.LoopKernel, trace.Shape{n})
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		b.Fatal(err)
	}
	xs, ys := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32}), newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
	for i, f := range view[float32](xs) {
		view[float32](xs)[i], view[float32](ys)[i] = float32(i)*1e-3, 1-f
	}
	b.SetBytes(3 * 4 * n)
	b.ResetTimer()
	for range b.N {
		if _, err := exe.Execute([]jit.Buffer{xs, ys}, jit.NoHost); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFusedChain6Float32_16MNative(b *testing.B)   { benchChain6(b, "1") }
func BenchmarkFusedChain6Float32_16MPortable(b *testing.B) { benchChain6(b, "0") }

func BenchmarkFusedSinCosFloat32_16MNative(b *testing.B)   { benchSinCos(b, "1") }
func BenchmarkFusedSinCosFloat32_16MPortable(b *testing.B) { benchSinCos(b, "0") }

// One transcendental on 16M float32 as a fused kernel, native and on the
// block machine (x = i·1e-6, y = 1 − x unused by most).
func benchMath(b *testing.B, fn, codegen string) {
	benchFusedKernel(b, codegen, func(jb *jaxprBuilder, x, _ *trace.Var) *trace.Var { return jb.bind(fn, nil, x) })
}

func BenchmarkFusedMathFloat32_16M(b *testing.B) {
	for _, fn := range nativeMathNames() {
		for _, codegen := range []string{"1", "0"} {
			b.Run(fn+"/codegen="+codegen, func(b *testing.B) { benchMath(b, fn, codegen) })
		}
	}
}

// The study's f_well_fused on 8M x 2 float32 as one fused kernel.
func benchWellFused(b *testing.B, codegen string) {
	b.Setenv("JAXSH_CPU_CODEGEN", codegen)
	const n = 8 << 20
	jb := newJaxprBuilder(b)
	p := fusedProgramOf(jb.build(wellFused(jb, trace.Float32, n)), jit.LoopKernel, trace.Shape{n, 2})
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		b.Fatal(err)
	}
	xs := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n, 2}, DType: trace.Float32})
	for i := range view[float32](xs) {
		view[float32](xs)[i] = float32(i) * 1e-6
	}
	b.SetBytes(2 * 4 * 2 * n)
	b.ResetTimer()
	for range b.N {
		if _, err := exe.Execute([]jit.Buffer{xs}, jit.NoHost); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFusedWellFused8MNative(b *testing.B)   { benchWellFused(b, "1") }
func BenchmarkFusedWellFused8MPortable(b *testing.B) { benchWellFused(b, "0") }
