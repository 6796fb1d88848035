package jit

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// VerifyProgram checks the invariants every pass after fusion keeps:
//   - each kernel obeys its kind's rules (fusion.go);
//   - a kernel's equations read only its In and values computed earlier in
//     it; its In are read, and its Out written, by its equations;
//   - every value read from memory is an argument, an embedded constant, or
//     written by exactly one earlier kernel; every result is one of those
//     or a literal;
//   - effectful equations run in the jaxpr's order, and ordering
//     constraints (barriers) hold;
//   - once buffers are assigned, every value crossing a kernel boundary
//     has a slice of its size, only donated arguments are written, and
//     values sharing memory are never live at once, except a LoopKernel
//     overwriting an input it reads element for element.
func VerifyProgram(p *Program) error {
	if err := verifyProgram(p); err != nil {
		return fmt.Errorf("invalid program: %w", err)
	}
	return nil
}

func verifyProgram(p *Program) error {
	defined := map[*trace.Var]bool{}
	for _, v := range p.Args {
		defined[v] = true
	}
	for _, e := range p.Embedded {
		defined[e.Var] = true
	}
	pos := make(map[*Kernel]int, len(p.Kernels))
	effectful := map[*trace.Eqn]int{}
	for t, k := range p.Kernels {
		pos[k] = t
		if err := verifyKernel(k); err != nil {
			return fmt.Errorf("kernel %d (%s): %w", t, k.Kind, err)
		}
		for _, v := range k.In {
			if !defined[v] {
				return fmt.Errorf("kernel %d reads %s before any kernel writes it", t, v)
			}
		}
		for _, v := range k.Out {
			if defined[v] {
				return fmt.Errorf("kernel %d writes %s, which is already in memory", t, v)
			}
			defined[v] = true
		}
		for _, e := range k.Eqns {
			if isEffectful(e) {
				effectful[e] = t
			}
		}
	}
	for i, a := range p.Jaxpr.OutVars {
		if v, ok := a.(*trace.Var); ok && !defined[v] {
			return fmt.Errorf("result %d (%s) is never written", i, v)
		}
	}
	last := -1
	for _, e := range p.Jaxpr.Eqns {
		if t, ok := effectful[e]; ok {
			if t < last {
				return fmt.Errorf("effectful %s runs in kernel %d, before an earlier effect's kernel %d", e.Prim, t, last)
			}
			last = t
		} else if isEffectful(e) {
			return fmt.Errorf("effectful %s is in no kernel", e.Prim)
		}
	}
	for _, e := range p.orderEdges {
		_, ok0 := pos[e[0]]
		_, ok1 := pos[e[1]]
		if !ok0 || !ok1 {
			return errors.New("an ordering constraint names a kernel that is not in the program")
		}
		if pos[e[0]] >= pos[e[1]] {
			return fmt.Errorf("kernel %d must run before kernel %d", pos[e[0]], pos[e[1]])
		}
	}
	if p.Slices != nil {
		return verifyPlan(p)
	}
	return nil
}

func verifyKernel(k *Kernel) error {
	if len(k.Eqns) == 0 {
		return errors.New("no equations")
	}
	local := map[*trace.Var]bool{}
	isIn := map[*trace.Var]bool{}
	for _, v := range k.In {
		if isIn[v] {
			return fmt.Errorf("input %s listed twice", v)
		}
		isIn[v] = true
	}
	read := map[*trace.Var]bool{}
	for _, e := range k.Eqns {
		for _, a := range e.In {
			if v, ok := a.(*trace.Var); ok {
				if !local[v] && !isIn[v] {
					return fmt.Errorf("%s reads %s, neither an input nor computed before it", e.Prim, v)
				}
				read[v] = true
			}
		}
		for _, v := range e.Out {
			local[v] = true
		}
	}
	for _, v := range k.In {
		if local[v] || !read[v] {
			return fmt.Errorf("input %s is not read from memory", v)
		}
	}
	for _, v := range k.Out {
		if !local[v] {
			return fmt.Errorf("output %s is not computed by the kernel", v)
		}
	}
	switch k.Kind {
	case OpaqueKernel:
		if len(k.Eqns) != 1 || !slices.Equal(k.Out, k.Eqns[0].Out) {
			return errors.New("an opaque kernel runs exactly one equation and writes all its results")
		}
		return nil
	case LoopKernel:
		for _, v := range k.Out {
			if !v.Aval().Shape.Equal(k.Shape) {
				return fmt.Errorf("output %s does not have the loop shape %s", v, k.Shape)
			}
		}
		return checkFusedEqns(k.Eqns)
	case ReductionKernel:
		return verifyReduction(k)
	case ControlKernel:
		return verifyControl(k)
	}
	return fmt.Errorf("unknown kind %d", k.Kind)
}

// checkFusedEqns checks that equations may run inside a loop.
func checkFusedEqns(eqns []*trace.Eqn) error {
	for _, e := range eqns {
		switch FusionClassOf(e.Prim) {
		case FuseElementwise, FuseIndexMap:
		case FuseReduce:
			if n := reducedExtent(e); n > SmallReduction {
				return fmt.Errorf("%s reduces %d elements into each result, over SmallReduction", e.Prim, n)
			}
		default:
			return fmt.Errorf("%s cannot be fused", e.Prim)
		}
		if isEffectful(e) || len(e.Out) != 1 {
			return fmt.Errorf("%s cannot be fused", e.Prim)
		}
	}
	return nil
}

// verifyReduction: the equations writing Out are the last ones, all
// reductions over operands of the kernel's shape along the same axes.
func verifyReduction(k *Kernel) error {
	n := len(k.Out)
	if n == 0 || n > len(k.Eqns) {
		return errors.New("a reduction kernel writes one result per root reduction")
	}
	roots := k.Eqns[len(k.Eqns)-n:]
	var axes []int
	for i, e := range roots {
		if FusionClassOf(e.Prim) != FuseReduce || len(e.Out) != 1 || e.Out[0] != k.Out[i] {
			return fmt.Errorf("its last %d equations must be the reductions it writes, in Out's order", n)
		}
		if !e.In[0].Aval().Shape.Equal(k.Shape) {
			return fmt.Errorf("%s reduces a %s operand, not the kernel's shape %s", e.Prim, e.In[0].Aval().Shape, k.Shape)
		}
		if i == 0 {
			axes = e.Params.Ints("axes")
		} else if !slices.Equal(axes, e.Params.Ints("axes")) {
			return errors.New("its reductions reduce different axes")
		}
	}
	return checkFusedEqns(k.Eqns[:len(k.Eqns)-n])
}

// verifyPlan checks the buffer plan (see VerifyProgram).
func verifyPlan(p *Program) error {
	def, lastUse := map[*trace.Var]int{}, map[*trace.Var]int{}
	var values []*trace.Var
	note := func(v *trace.Var) {
		if _, ok := def[v]; !ok {
			def[v], lastUse[v] = -1, -1
			values = append(values, v)
		}
	}
	for _, v := range p.Args {
		note(v)
	}
	for _, e := range p.Embedded {
		note(e.Var)
	}
	for t, k := range p.Kernels {
		for _, v := range k.In {
			note(v)
			lastUse[v] = max(lastUse[v], t)
		}
		for _, v := range k.Out {
			note(v)
			def[v] = t
			lastUse[v] = max(lastUse[v], t)
		}
	}
	for _, a := range p.Jaxpr.OutVars {
		if v, ok := a.(*trace.Var); ok {
			note(v)
			lastUse[v] = len(p.Kernels)
		}
	}
	for _, v := range values {
		s, ok := p.Slices[v]
		switch {
		case !ok:
			return fmt.Errorf("%s crosses a kernel boundary but has no slice", v)
		case s.Size != bytesOf(v.Aval()):
			return fmt.Errorf("%s takes %d bytes but its slice has %d", v, bytesOf(v.Aval()), s.Size)
		case s.Kind == ArgSlice && (s.Index < 0 || s.Index >= len(p.Args)):
			return fmt.Errorf("%s is in argument %d of %d", v, s.Index, len(p.Args))
		case s.Kind == ArgSlice && def[v] >= 0 && !p.Donated[s.Index]:
			return fmt.Errorf("kernel %d writes %s into argument %d, which is not donated", def[v], v, s.Index)
		case s.Kind == TempSlice && (s.Offset%arenaAlignment != 0 || s.Offset+s.Size > p.TempSize):
			return fmt.Errorf("%s at arena offset %d (%d bytes) is misaligned or outside the %d-byte arena", v, s.Offset, s.Size, p.TempSize)
		}
	}
	for i, v := range p.Args {
		if s := p.Slices[v]; s.Kind != ArgSlice || s.Index != i {
			return fmt.Errorf("argument %d (%s) is not in its own buffer", i, v)
		}
	}
	for i, a := range p.Jaxpr.OutVars {
		want := -1
		if v, ok := a.(*trace.Var); ok && p.Slices[v].Kind == ArgSlice {
			want = p.Slices[v].Index
		}
		if p.OutAliases[i] != want {
			return fmt.Errorf("result %d aliases argument %d, but its slice says %d", i, p.OutAliases[i], want)
		}
	}
	// Values sharing memory must not be live at once.
	for i, u := range values {
		for _, v := range values[i+1:] {
			if !overlaps(p.Slices[u], p.Slices[v]) {
				continue
			}
			a, b := u, v
			if def[b] < def[a] {
				a, b = b, a
			}
			if lastUse[a] < def[b] || (lastUse[a] == def[b] && inPlace(p.Kernels[def[b]], a, b)) {
				continue
			}
			return fmt.Errorf("%s (kernels %d..%d) and %s (kernels %d..%d) share memory while both live",
				a, def[a], lastUse[a], b, def[b], lastUse[b])
		}
	}
	return nil
}

func overlaps(s, t Slice) bool {
	if s.Size == 0 || t.Size == 0 || s.Kind != t.Kind {
		return false
	}
	if s.Kind == TempSlice {
		return s.Offset < t.Offset+t.Size && t.Offset < s.Offset+s.Size
	}
	return s.Index == t.Index
}

// inPlace reports whether loop kernel k may write b over a: k reads a
// element for element and writes b of the same size.
func inPlace(k *Kernel, a, b *trace.Var) bool {
	if k.Kind == ControlKernel {
		return controlCarryInit(k, b) == a
	}
	return k.Kind == LoopKernel && slices.Contains(k.Out, b) && slices.Contains(k.In, a) &&
		bytesOf(a.Aval()) == bytesOf(b.Aval()) && a.Aval().DType.Size() == b.Aval().DType.Size() &&
		elementwiseReads(k.Eqns, k.Out, k.Shape.Size())[a]
}
