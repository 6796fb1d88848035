package jit

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// A Program is a jaxpr cut into kernels: the unit a backend compiles. Each
// kernel reads its inputs from memory, computes its equations, and writes
// its outputs to memory; values inside a kernel never touch memory.
type Program struct {
	Jaxpr   *trace.Jaxpr
	Kernels []*Kernel
}

// A Kernel is a group of equations a backend runs as one unit (see
// KernelKind for what each kind may hold).
type Kernel struct {
	Kind KernelKind
	// Shape is the loop shape of a LoopKernel, and the shape of the
	// reductions' operands in a ReductionKernel.
	Shape trace.Shape
	// Eqns are in dependency order.
	Eqns []*trace.Eqn
	// In lists the values the kernel reads from memory: program inputs,
	// constants, or outputs of earlier kernels. Literals are not listed.
	In []*trace.Var
	// Out lists the values the kernel writes to memory.
	Out []*trace.Var
}

// Compile verifies a jaxpr and cuts it into kernels, one per equation.
// (Fusion, which groups equations, arrives with the compiler pipeline.)
func Compile(j *trace.Jaxpr) (*Program, error) {
	if err := j.Verify(); err != nil {
		return nil, fmt.Errorf("jit: invalid jaxpr: %w", err)
	}
	p := &Program{Jaxpr: j}
	for _, e := range j.Eqns {
		k := &Kernel{Eqns: []*trace.Eqn{e}, Out: e.Out}
		for _, a := range e.In {
			if v, ok := a.(*trace.Var); ok {
				k.In = append(k.In, v)
			}
		}
		p.Kernels = append(p.Kernels, k)
	}
	return p, nil
}

// String lists the kernels, one line each.
func (p *Program) String() string {
	var b strings.Builder
	for i, k := range p.Kernels {
		names := make([]string, len(k.Eqns))
		for j, e := range k.Eqns {
			names[j] = e.Prim.Name
		}
		fmt.Fprintf(&b, "kernel %d: %s\n", i, strings.Join(names, " "))
	}
	return b.String()
}
