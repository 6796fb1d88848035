package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// elementwiseReads returns the values a LoopKernel (given by its equations,
// in dependency order, its outputs and its loop size) reads from memory
// element for element: element i of the loop reads element i of the
// value (in row-major order) and no other. Such an input may share memory
// with an output of the same size and element size (in place), and a
// producer kernel may be merged in front of the reader without
// recomputation.
//
// An equation is evaluated only at the loop's own positions when its
// result has the loop's size and every reader in the kernel is itself so
// evaluated and reads it positionally: an elementwise equation whose
// operand has its result's shape, or a reshape, copy, squeeze or
// broadcast_in_dim that keeps the number of elements (these keep row-major
// order).
func elementwiseReads(eqns []*trace.Eqn, outs []*trace.Var, size int) map[*trace.Var]bool {
	readers := map[*trace.Var][]*trace.Eqn{}
	for _, e := range eqns {
		for _, a := range e.In {
			if v, ok := a.(*trace.Var); ok {
				readers[v] = append(readers[v], e)
			}
		}
	}
	positional := make(map[*trace.Eqn]bool, len(eqns))
	for i := len(eqns) - 1; i >= 0; i-- {
		e := eqns[i]
		ok := len(e.Out) == 1 && e.Out[0].Aval().Size() == size
		if ok {
			for _, r := range readers[e.Out[0]] {
				ok = ok && positional[r] && readsPositionally(r, e.Out[0])
			}
		}
		positional[e] = ok
	}
	produced := map[*trace.Var]bool{}
	for _, e := range eqns {
		for _, v := range e.Out {
			produced[v] = true
		}
	}
	res := map[*trace.Var]bool{}
	for v, rs := range readers {
		if produced[v] || v.Aval().Size() != size {
			continue
		}
		ok := true
		for _, r := range rs {
			ok = ok && positional[r] && readsPositionally(r, v)
		}
		if ok {
			res[v] = true
		}
	}
	return res
}

// readsPositionally reports whether e reads operand v at e's own row-major
// positions (and only there).
func readsPositionally(e *trace.Eqn, v *trace.Var) bool {
	out := e.Out[0].Aval()
	switch FusionClassOf(e.Prim) {
	case FuseElementwise:
		return v.Aval().Shape.Equal(out.Shape)
	case FuseIndexMap:
		switch e.Prim.Name {
		case "reshape", "copy", "squeeze", "broadcast_in_dim":
			return v.Aval().Size() == out.Size()
		}
	}
	return false
}
