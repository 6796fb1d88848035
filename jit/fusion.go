package jit

import "github.com/jaxsh/jaxsh/trace"

// This file is the contract between the compiler's fusion pass (which
// groups equations into kernels) and the backends (which must run every
// grouping the pass can produce): how each primitive may fuse, and what
// the kinds of kernel are.

// A FusionClass says how a primitive may take part in a fused kernel.
type FusionClass uint8

const (
	// FuseNever: the equation runs alone in an OpaqueKernel (dot_general,
	// sort, gather, scatter, cumulative ops, dynamic slices, host ops...).
	FuseNever FusionClass = iota
	// FuseElementwise: element i of each result depends only on element i
	// of each operand (rank-0 operands broadcast, and size-1 dimensions as
	// lax's shape rule allows).
	FuseElementwise
	// FuseIndexMap: each result element is one operand element at an index
	// that is a static function of the result index (broadcast_in_dim,
	// reshape, squeeze, transpose, rev, slice, pad, concatenate, copy), or
	// a function of the index alone (iota). A fused kernel evaluates the
	// operand at the mapped indices instead of materialising anything.
	FuseIndexMap
	// FuseReduce: a reduction. It is the root of a ReductionKernel that
	// computes its operand on the fly; inside a LoopKernel it may also be
	// evaluated per result element when the reduced extent is small
	// (SmallReduction), which lets x*2 + sum(x, axis=1, keepdims=True) run
	// as one kernel when axis 1 is short.
	FuseReduce
)

// SmallReduction is the largest number of elements reduced into one result
// element for a reduction to be recomputed inside a loop kernel's
// consumers rather than run as a kernel of its own.
const SmallReduction = 16

var fusionClasses = map[string]FusionClass{
	"broadcast_in_dim": FuseIndexMap, "reshape": FuseIndexMap, "squeeze": FuseIndexMap,
	"transpose": FuseIndexMap, "rev": FuseIndexMap, "slice": FuseIndexMap, "pad": FuseIndexMap,
	"concatenate": FuseIndexMap, "copy": FuseIndexMap, "iota": FuseIndexMap,
	"reduce_sum": FuseReduce, "reduce_prod": FuseReduce, "reduce_max": FuseReduce,
	"reduce_min": FuseReduce, "reduce_and": FuseReduce, "reduce_or": FuseReduce,
}

// FusionClassOf returns how an equation's primitive may fuse. Elementwise
// primitives are those with the trace.Elementwise property, except the
// effectful and the random-bit generator (threefry2x32 fuses fine, but its
// four outputs make it a poor loop citizen; it runs alone).
func FusionClassOf(p *trace.Primitive) FusionClass {
	if c, ok := fusionClasses[p.Name]; ok {
		return c
	}
	if p.Has(trace.Elementwise) && !p.Has(trace.HostOp) && p.Name != "threefry2x32" {
		return FuseElementwise
	}
	return FuseNever
}

// A KernelKind says how a backend runs a kernel.
type KernelKind uint8

const (
	// OpaqueKernel: exactly one equation, run by the backend's own kernel
	// for its primitive.
	OpaqueKernel KernelKind = iota
	// LoopKernel: one loop over Kernel.Shape; every equation is
	// FuseElementwise or FuseIndexMap, or FuseReduce with a reduced extent
	// of at most SmallReduction; every output has Kernel.Shape. Values are
	// computed per block of result indices; an equation whose result feeds
	// several consumers inside the kernel is computed for each (cheap
	// producers are recomputed rather than stored).
	LoopKernel
	// ReductionKernel: its last equations are reductions (one or more, all
	// over operands of the same shape, Kernel.Shape, and the same axes);
	// the equations before them compute their operands as in a LoopKernel,
	// without materialising them. Its outputs are the reductions' results.
	ReductionKernel
	// ControlKernel: one control-flow equation (cond, while, scan), whose
	// bodies are Programs of their own (Kernel.Control, control.go).
	ControlKernel
)

// What the compiler adds to the kinds above (none changes their meaning):
//
//   - A ReductionKernel's roots are exactly its last len(Out) equations,
//     writing Out in order; a small reduction may sit in its prologue (as
//     in a LoopKernel), even right before the roots.
//   - The same equation may belong to several kernels: each computes it
//     (recomputation across kernels, as inside one). Its results are local
//     to every kernel that does not list them in Out, and at most one
//     kernel writes any value.
//   - A kernel's Out are exactly the values needed outside it; a LoopKernel
//     may have several (multi-output fusion), all of Kernel.Shape.
//   - optimization_barrier never reaches a kernel: the compiler keeps its
//     meaning as ordering between kernels and removes the equation.
//   - Once buffers are assigned, a LoopKernel output may share memory with
//     one of its inputs (Program.Slices): the compiler guarantees that
//     output element i depends on that input's element i alone, and the
//     kernel must read each block of the input before writing that block
//     of the output.

func (k KernelKind) String() string {
	switch k {
	case LoopKernel:
		return "loop"
	case ReductionKernel:
		return "reduction"
	case ControlKernel:
		return "control"
	}
	return "opaque"
}
