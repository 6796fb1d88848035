package cuda

import (
	"slices"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// outerProductKernel rewrites a dot_general that contracts nothing, with
// its batch dimensions leading both operands in order (what vmap makes of
// per-example weight gradients), as the loop kernel of its definition:
// both operands broadcast to the result's shape and multiplied. It reports
// false for any other dot_general.
func outerProductKernel(e *trace.Eqn) (*jit.Kernel, bool) {
	dn, _ := trace.ParamAs[trace.DotDimensionNumbers](e.Params, "dimension_numbers")
	lhs, lok := e.In[0].(*trace.Var)
	rhs, rok := e.In[1].(*trace.Var)
	if !lok || !rok || len(dn.LhsContracting) != 0 {
		return nil, false
	}
	l, r, out := lhs.Aval(), rhs.Aval(), e.Out[0]
	nb := len(dn.LhsBatch)
	leading := make([]int, nb)
	for i := range leading {
		leading[i] = i
	}
	if !slices.Equal(dn.LhsBatch, leading) || !slices.Equal(dn.RhsBatch, leading) ||
		l.DType != r.DType || l.DType != out.Aval().DType {
		return nil, false
	}
	shape := []int(out.Aval().Shape)
	lhsDims := make([]int, l.Rank())
	for d := range lhsDims {
		lhsDims[d] = d
	}
	rhsDims := slices.Clone(leading)
	for d := nb; d < r.Rank(); d++ {
		rhsDims = append(rhsDims, l.Rank()+d-nb)
	}
	aval := trace.AVal{Shape: out.Aval().Shape, DType: l.DType}
	broadcast := func(x *trace.Var, dims []int) *trace.Eqn {
		return &trace.Eqn{Prim: trace.Lookup("broadcast_in_dim"), In: []trace.Atom{x},
			Out: []*trace.Var{trace.NewVar(aval)}, Pos: e.Pos,
			Params: trace.Params{"shape": slices.Clone(shape), "broadcast_dimensions": dims}}
	}
	bl, br := broadcast(lhs, lhsDims), broadcast(rhs, rhsDims)
	mul := &trace.Eqn{Prim: trace.Lookup("mul"), In: []trace.Atom{bl.Out[0], br.Out[0]},
		Out: []*trace.Var{out}, Pos: e.Pos, Params: trace.Params{}}
	return &jit.Kernel{Kind: jit.LoopKernel, Shape: out.Aval().Shape, Eqns: []*trace.Eqn{bl, br, mul},
		In: varsOf(e.In), Out: []*trace.Var{out}}, true
}
