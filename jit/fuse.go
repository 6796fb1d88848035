package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// Fusion cuts the jaxpr into kernels (fusion.go says what each kind may
// hold). The study's lesson drives it: kernels are cheap inside and
// expensive at their boundaries, so the aim is few kernels and few bytes
// through memory.
//
//  1. Every value is either materialised (written to memory by the kernel
//     that computes it) or fused (computed inside each kernel that needs
//     it, never stored). Materialised are: the program's results, operands
//     of opaque equations and of barriers, results of opaque equations and
//     of large reductions (extent over SmallReduction) — and values the
//     cost model below finds too dear to recompute.
//  2. Each materialised value roots a kernel: an opaque equation its
//     OpaqueKernel, a large reduction a ReductionKernel over its operand,
//     any other value a LoopKernel over its shape. A kernel holds its root
//     and, transitively, every fused producer of its operands: elementwise
//     chains, index maps (broadcasts, iota, slices, reshapes, transposes),
//     and small reductions, which is how x*2 + sum(x, axis=1,
//     keepdims=True) over a short axis 1 is a single loop (the study's
//     f_sum_jax: XLA 2 kernels and a temporary, here 1 and none). A fused
//     value needed by several kernels is recomputed in each.
//  3. Kernels of the same kind and shape then merge (multi-output fusion)
//     when they read the same inputs, share recomputed equations, or one
//     reads the other's output element for element, provided no other
//     kernel sits between them (the merged kernel must not depend on
//     itself) and no barrier separates them.
//
// The cost model (recompute or store). Work is counted per element in
// units of one arithmetic operation: an elementwise operation costs 1, a
// transcendental costTranscendental, a gathering index map (transpose,
// rev, pad, concatenate) 1, other index maps nothing; reading an element
// of a kernel input costs costMemory. ic(v), the cost of computing one
// element of v inside a kernel, sums v's own work and its fused operands'
// ic, times the reduced extent for a small reduction. Each kernel that
// needs v evaluates it amp times per element of v: the largest product,
// along the paths from v to the kernel's outputs, of how many times each
// consumer reads each element of its operand (a broadcast to m times the
// size reads it m times). With d the sum of amp over the kernels needing v,
// recomputing costs (d-1)·ic(v) per element of v beyond computing it once;
// storing costs costMemory for the write and for each of the d reads
// (stored, v is read as often as it would have been computed), plus
// costTemp for holding it in a temporary. v is stored when recomputing
// costs more. costTemp is high on purpose: the study finds temporaries the
// costliest thing a fusion decision can add (peak memory, and an extra pass
// over memory), and prefers recomputing anything but "sufficiently complex"
// values; a temporary element is priced like some 30 transcendentals. So
// index maps of inputs (x[0] broadcast over a loop), iota grids, converts,
// the study's kmesh-like grids of a few transcendentals and row sums
// broadcast back over their rows are recomputed, while a long chain needed
// by two kernels, or an exp broadcast a thousand times, is stored once. Rank-0
// values are evaluated once per chunk by fused kernels, so they never count
// as amplified.
const (
	costTranscendental = 8
	costMemory         = 4
	costTemp           = 256
	costSaturate       = 1e15
)

type eqnClass uint8

const (
	classOpaque eqnClass = iota
	classElementwise
	classIndexMap
	classSmallReduce
	classLargeReduce
)

func (c eqnClass) fusible() bool { return c != classOpaque && c != classLargeReduce }

func classify(e *trace.Eqn) eqnClass {
	if isEffectful(e) || len(e.Out) != 1 {
		return classOpaque
	}
	switch FusionClassOf(e.Prim) {
	case FuseElementwise:
		return classElementwise
	case FuseIndexMap:
		return classIndexMap
	case FuseReduce:
		if reducedExtent(e) <= SmallReduction {
			return classSmallReduce
		}
		return classLargeReduce
	}
	return classOpaque
}

// reducedExtent is the number of operand elements a reduction folds into
// each result element.
func reducedExtent(e *trace.Eqn) int {
	shape := e.In[0].Aval().Shape
	n := 1
	for _, a := range e.Params.Ints("axes") {
		n *= shape[a]
	}
	return n
}

// A fusionGraph holds the analysis of one jaxpr.
type fusionGraph struct {
	eqns     []*trace.Eqn
	class    []eqnClass
	producer map[*trace.Var]int
	readers  map[*trace.Var][]int
	// must are values that have to be in memory whatever the cost model
	// says.
	must map[*trace.Var]bool
	// root marks the equations whose results are materialised; dead marks
	// fused equations nothing needs.
	root, dead []bool
	// ic is the per-element cost of computing an equation's result in a
	// kernel (see the cost model).
	ic []float64
	// users maps each equation to the roots of the kernels that compute
	// it, each with how many times the kernel evaluates each of its
	// elements.
	users []map[int]float64
}

func newFusionGraph(j *trace.Jaxpr, barriers []*barrier) *fusionGraph {
	n := len(j.Eqns)
	g := &fusionGraph{
		eqns: j.Eqns, class: make([]eqnClass, n),
		producer: make(map[*trace.Var]int, n), readers: make(map[*trace.Var][]int, n),
		must: map[*trace.Var]bool{}, root: make([]bool, n), dead: make([]bool, n),
		ic: make([]float64, n), users: make([]map[int]float64, n),
	}
	for i, e := range j.Eqns {
		g.class[i] = classify(e)
		for _, v := range e.Out {
			g.producer[v] = i
		}
		for k, a := range e.In {
			v, ok := a.(*trace.Var)
			if !ok || operandRepeats(e, k) {
				continue
			}
			g.readers[v] = append(g.readers[v], i)
			if !g.class[i].fusible() && g.class[i] != classLargeReduce {
				g.must[v] = true
			}
		}
	}
	for _, a := range j.OutVars {
		if v, ok := a.(*trace.Var); ok {
			g.must[v] = true
		}
	}
	for _, b := range barriers {
		for _, v := range b.ins {
			g.must[v] = true
		}
	}
	return g
}

// operandRepeats reports whether operand k of e is a variable that an
// earlier operand already names.
func operandRepeats(e *trace.Eqn, k int) bool {
	for _, a := range e.In[:k] {
		if a == e.In[k] {
			return true
		}
	}
	return false
}

// fusedProducer returns the index of the fused equation computing a, or -1
// when a is read from memory (an input, a constant, a literal, or a
// materialised value).
func (g *fusionGraph) fusedProducer(a trace.Atom) int {
	v, ok := a.(*trace.Var)
	if !ok {
		return -1
	}
	p, ok := g.producer[v]
	if !ok || !g.class[p].fusible() || g.root[p] {
		return -1
	}
	return p
}

// weight is the work of one element of e's result, before its operands.
func weight(e *trace.Eqn, c eqnClass) float64 {
	switch c {
	case classElementwise:
		if e.Prim.Has(trace.Transcendental) {
			return costTranscendental
		}
		return 1
	case classIndexMap:
		switch e.Prim.Name {
		case "transpose", "rev", "pad", "concatenate":
			return 1
		}
		return 0
	case classSmallReduce:
		return float64(reducedExtent(e))
	}
	return 0
}

// decide chooses the materialised values: first the per-element costs
// (forward, assuming every fusible producer is fused), then, from the
// results back, which kernels need each value and whether to store it.
func (g *fusionGraph) decide() {
	for i, e := range g.eqns {
		c := g.class[i]
		if !c.fusible() {
			g.root[i] = true
			continue
		}
		g.root[i] = g.must[e.Out[0]]
		reuse := 1.0
		if c == classSmallReduce {
			reuse = float64(reducedExtent(e))
		}
		cost := weight(e, c)
		for _, a := range e.In {
			if a.Aval().Rank() == 0 {
				continue // hoisted: evaluated once per chunk
			}
			if p := g.fusedProducer(a); p >= 0 {
				cost += g.ic[p] * reuse
			} else if _, isVar := a.(*trace.Var); isVar {
				cost += costMemory * reuse
			}
		}
		g.ic[i] = min(cost, costSaturate)
	}
	for i := len(g.eqns) - 1; i >= 0; i-- {
		if g.root[i] {
			g.users[i] = map[int]float64{i: 1}
			continue
		}
		v := g.eqns[i].Out[0]
		needs := map[int]float64{}
		for _, r := range g.readers[v] {
			edge := readAmplification(g.eqns[r], v)
			for k, amp := range g.users[r] {
				needs[k] = max(needs[k], amp*edge)
			}
		}
		if len(needs) == 0 {
			g.dead[i] = true
			continue
		}
		d := 0.0
		for k := range needs {
			if v.Aval().Rank() == 0 {
				needs[k] = 1
			}
			d += needs[k]
		}
		if d > 1 && (d-1)*g.ic[i] > costMemory*(1+d)+costTemp {
			g.root[i] = true
			g.users[i] = map[int]float64{i: 1}
			continue
		}
		g.users[i] = needs
	}
}

// readAmplification is how many times e, evaluated once at each of its
// result's elements, reads each element of its operand v.
func readAmplification(e *trace.Eqn, v *trace.Var) float64 {
	n := float64(max(v.Aval().Size(), 1))
	out := float64(e.Out[0].Aval().Size())
	switch e.Prim.Name {
	case "concatenate", "pad":
		return 1
	}
	if FusionClassOf(e.Prim) == FuseReduce {
		out *= float64(reducedExtent(e))
	}
	return out / n
}
