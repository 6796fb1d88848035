package jit

import (
	"github.com/jaxsh/jaxsh/trace"
)

// MemoryAnalysis is compile().memory_analysis(), with JAX's field names and
// meanings (SPEC §4), true of a backend that honours the buffer plan:
//
//   - ArgumentSizeInBytes: every argument buffer (captured constants and
//     inputs), donated or not.
//   - OutputSizeInBytes: every distinct result (a value listed twice is one
//     buffer), whether it needs a new buffer or lives in an argument's.
//   - AliasSizeInBytes: the part of the results held in argument buffers:
//     results written into donated arguments, and arguments returned as
//     they are.
//   - TempSizeInBytes: the temporary arena one execution allocates.
//   - GeneratedCodeSizeInBytes: the program text (Program.String, what a
//     backend compiles from) plus the embedded constants' bytes: what the
//     compiled program itself occupies. The study's f_numpy shows why
//     constants count: XLA folded 128 MB into its code.
//   - PeakMemoryInBytes: what one execution holds at its peak: arguments,
//     results not held in arguments, the arena, and the embedded constants
//     (all live at the end of an execution).
type MemoryAnalysis struct {
	GeneratedCodeSizeInBytes int
	ArgumentSizeInBytes      int
	OutputSizeInBytes        int
	AliasSizeInBytes         int
	TempSizeInBytes          int
	PeakMemoryInBytes        int
	// EmbeddedConstantSizeInBytes is the constants' part of the code size.
	EmbeddedConstantSizeInBytes int
}

// MemoryAnalysis computes the memory figures of the program's buffer plan.
func (p *Program) MemoryAnalysis() MemoryAnalysis {
	m := p.memoryFigures()
	m.GeneratedCodeSizeInBytes = len(p.String()) + m.EmbeddedConstantSizeInBytes
	return m
}

// memoryFigures is MemoryAnalysis without the code size (which needs the
// program text, whose header shows these figures).
func (p *Program) memoryFigures() MemoryAnalysis {
	var m MemoryAnalysis
	for _, v := range p.Args {
		m.ArgumentSizeInBytes += bytesOf(v.Aval())
	}
	for _, e := range p.Embedded {
		m.EmbeddedConstantSizeInBytes += len(e.Value.Data)
	}
	seen := map[*trace.Var]bool{}
	for i, a := range p.Jaxpr.OutVars {
		v, isVar := a.(*trace.Var)
		if isVar && seen[v] {
			continue
		}
		if isVar {
			seen[v] = true
		}
		n := bytesOf(a.Aval())
		m.OutputSizeInBytes += n
		if p.OutAliases != nil && p.OutAliases[i] >= 0 {
			m.AliasSizeInBytes += n
		}
	}
	m.TempSizeInBytes = p.TempSize
	m.PeakMemoryInBytes = m.ArgumentSizeInBytes + m.OutputSizeInBytes - m.AliasSizeInBytes +
		m.TempSizeInBytes + m.EmbeddedConstantSizeInBytes
	return m
}

// CostAnalysis is compile().cost_analysis(): the work of one execution.
type CostAnalysis struct {
	// Flops counts arithmetic operations: one per result element of an
	// elementwise equation (two for a multiply-add in dot_general: 2·M·N·K),
	// the operand's elements for a reduction (cumulative ones too).
	// Conversions, copies and index maps count none. An equation computed
	// in several kernels counts in each: recomputation is real work.
	Flops float64
	// Transcendentals counts elements of transcendental equations (exp,
	// sin, pow, ...), which Flops leaves out, as XLA does.
	Transcendentals float64
	// BytesAccessed counts, per kernel, the bytes it reads from memory (its
	// inputs) and writes (its outputs).
	BytesAccessed float64
}

// CostAnalysis estimates the program's work and memory traffic.
func (p *Program) CostAnalysis() CostAnalysis {
	var c CostAnalysis
	for _, k := range p.Kernels {
		for _, v := range k.In {
			c.BytesAccessed += float64(bytesOf(v.Aval()))
		}
		for _, v := range k.Out {
			c.BytesAccessed += float64(bytesOf(v.Aval()))
		}
		if k.Control != nil {
			bc := k.Control.cost()
			c.Flops += bc.Flops
			c.Transcendentals += bc.Transcendentals
			c.BytesAccessed += bc.BytesAccessed
			continue
		}
		for _, e := range k.Eqns {
			flops, trans := eqnCost(e)
			c.Flops += flops
			c.Transcendentals += trans
		}
	}
	return c
}

// eqnCost returns the flops and transcendentals of one equation.
func eqnCost(e *trace.Eqn) (flops, transcendentals float64) {
	if len(e.Out) == 0 {
		return 0, 0
	}
	out := float64(e.Out[0].Aval().Size())
	switch {
	case e.Prim.Name == "dot_general":
		dims, _ := trace.ParamAs[trace.DotDimensionNumbers](e.Params, "dimension_numbers")
		k := 1.0
		for _, d := range dims.LhsContracting {
			k *= float64(e.In[0].Aval().Shape[d])
		}
		return 2 * out * k, 0
	case e.Prim.Has(trace.Reduction), e.Prim.Has(trace.Cumulative):
		return float64(e.In[0].Aval().Size()), 0
	case e.Prim.Has(trace.Transcendental):
		return 0, out
	case e.Prim.Name == "convert_element_type", e.Prim.Name == "copy":
		return 0, 0
	case e.Prim.Has(trace.Elementwise):
		return out, 0
	}
	return 0, 0
}
