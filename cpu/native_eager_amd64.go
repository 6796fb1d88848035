package cpu

import (
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// eagerNativeMin is the smallest result for which a lone transcendental
// runs as generated code rather than vmath's or math's slice kernel: below
// it the block op is as fast, and compiling costs more than it saves.
const eagerNativeMin = 1 << 16

// eagerNative compiles a program step that is one elementwise call of a
// compiled transcendental (an eager jnp.tanh(x) on a large array, say), or
// of float arithmetic whose result is large enough to be streamed (an
// eager jnp.add(x, y) on 16M float32s), as a one-equation loop kernel in
// native code, which computes the same bits as the block op; nil when the
// equation is anything else.
func eagerNative(e *trace.Eqn) (fusedRunner, *jit.Kernel) {
	if !nativeEnabled() || len(e.Out) != 1 || len(e.In) == 0 {
		return nil, nil
	}
	res := e.Out[0].Aval()
	if res.Size() < eagerNativeMin {
		return nil, nil
	}
	if !isNativeMath(e.Prim.Name, len(e.In), res.DType) && !isStreamedArithmetic(e.Prim.Name, len(e.In), res) {
		return nil, nil
	}
	var in []*trace.Var
	for _, a := range e.In {
		v, ok := a.(*trace.Var)
		if !ok || !v.Aval().Shape.Equal(res.Shape) || v.Aval().DType != res.DType {
			return nil, nil
		}
		seen := false
		for _, w := range in {
			seen = seen || w == v
		}
		if !seen {
			in = append(in, v)
		}
	}
	k := &jit.Kernel{Kind: jit.LoopKernel, Shape: res.Shape, Eqns: []*trace.Eqn{e}, In: in, Out: e.Out}
	r, err := compileFused(k)
	if _, native := r.(*nativeKernel); err != nil || !native {
		return nil, nil
	}
	return r, k
}

// isStreamedArithmetic reports whether an eager call of name on operands
// shaped as res is one IEEE operation (float add, sub, mul, div: a single
// vector instruction in either kernel) with a result the native kernel
// writes with non-temporal stores. The block op stores through the
// caches, reading every output line before writing it and zeroing it
// first, so an output beyond the caches moves over the memory bus twice;
// smaller results keep the block op, whose call costs less.
func isStreamedArithmetic(name string, arity int, res trace.AVal) bool {
	float := res.DType == trace.Float32 || res.DType == trace.Float64
	return float && arity == 2 && binaryOpcodes[name] != 0 && res.Size()*res.DType.Size() >= nativeStreamingMin
}
