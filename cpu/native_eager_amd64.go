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
// compiled transcendental (an eager jnp.tanh(x) on a large array, say) as
// a one-equation loop kernel in native code, which computes the same bits
// as the block op; nil when the equation is anything else.
func eagerNative(e *trace.Eqn) (fusedRunner, *jit.Kernel) {
	if !nativeEnabled() || len(e.Out) != 1 || len(e.In) == 0 {
		return nil, nil
	}
	res := e.Out[0].Aval()
	if res.Size() < eagerNativeMin || !isNativeMath(e.Prim.Name, len(e.In), res.DType) {
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
