package jit

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// A Program is a jaxpr cut into kernels: the unit a backend compiles. Each
// kernel reads its inputs from memory, computes its equations, and writes
// its outputs to memory; values inside a kernel never touch memory.
//
// What a backend must honour (fusion.go says what each kernel kind holds):
//   - Kernels run in the order listed; a kernel's In are written by earlier
//     kernels, or are Args or Embedded constants.
//   - Execute's arguments are Args, in order. Embedded constants are
//     materialised once, when the backend compiles the program.
//   - When the plan is assigned (Slices is not nil), every value that
//     crosses a kernel boundary lives where Slices says: in an argument's
//     buffer, an embedded constant, a result buffer, or at an offset of one
//     temporary arena of TempSize bytes per execution. Two values may share
//     memory only when their lifetimes do not overlap, or when a LoopKernel
//     writes an output over an input it reads element for element (see
//     Slice); a backend that honours the plan allocates exactly what
//     MemoryAnalysis reports.
type Program struct {
	// Jaxpr is the optimised jaxpr the kernels were cut from; every one of
	// its equations is in at least one kernel. Its InVars are the compiled
	// jaxpr's; its ConstVars are the compiled jaxpr's, then the vars of
	// Embedded. Its OutVars are the program's results.
	Jaxpr *trace.Jaxpr
	// Kernels, in execution order.
	Kernels []*Kernel
	// Args are the values the caller passes to Execute, in order: the
	// compiled jaxpr's ConstVars, then its InVars.
	Args []*trace.Var
	// Donated marks the Args whose buffers the caller gives up (jit's
	// donate_argnums); an output may be written into such a buffer.
	Donated []bool
	// Embedded are the array constants folding computed; literal scalars
	// stay in the equations.
	Embedded []Embedded

	// The buffer plan (nil Slices: not assigned yet).

	// Slices says where each value read or written through memory lives.
	Slices map[*trace.Var]Slice
	// TempSize is the size in bytes of the temporary arena one execution
	// needs.
	TempSize int
	// OutAliases gives, per output, the index in Args of the argument whose
	// buffer holds it (a donated argument, or an argument passed through
	// unchanged), or -1.
	OutAliases []int

	// orderEdges are ordering constraints between kernels beyond data
	// dependencies (optimization_barrier, effect order): the first runs
	// before the second.
	orderEdges [][2]*Kernel
}

// A Kernel is a group of equations a backend runs as one unit (see
// KernelKind for what each kind may hold).
type Kernel struct {
	Kind KernelKind
	// Shape is the loop shape of a LoopKernel, and the shape of the
	// reductions' operands in a ReductionKernel.
	Shape trace.Shape
	// Eqns are in dependency order. An equation may belong to several
	// kernels: each computes it (see fusion.go); its results are local to
	// each, unless listed in one kernel's Out.
	Eqns []*trace.Eqn
	// In lists the values the kernel reads from memory: program inputs,
	// constants, or outputs of earlier kernels, each once. Literals are not
	// listed.
	In []*trace.Var
	// Out lists the values the kernel writes to memory.
	Out []*trace.Var
	// Control holds a ControlKernel's compiled bodies and scratch memory.
	Control *Control
}

// An Embedded constant binds Var to a value the compiler computed.
type Embedded struct {
	Var   *trace.Var
	Value *Constant
}

// A SliceKind says which allocation holds a value.
type SliceKind uint8

const (
	// ArgSlice: the buffer of Args[Index], supplied by the caller. A kernel
	// writes into it only when the argument is donated.
	ArgSlice SliceKind = iota + 1
	// ConstSlice: the buffer of Embedded[Index], made at compile time.
	ConstSlice
	// OutputSlice: the result buffer of output Index (its first position in
	// Jaxpr.OutVars), allocated for each execution and returned. Values
	// computed in place before the output may live there first.
	OutputSlice
	// TempSlice: Size bytes at Offset in the execution's temporary arena.
	TempSlice
)

func (k SliceKind) String() string {
	switch k {
	case ArgSlice:
		return "arg"
	case ConstSlice:
		return "const"
	case OutputSlice:
		return "output"
	case TempSlice:
		return "temp"
	}
	return "?"
}

// A Slice is where one value lives during an execution. Values with the
// same Kind and Index (or overlapping arena bytes) share memory: their
// lifetimes never overlap, except that a LoopKernel may write an output over
// an input it reads only element for element (output element i depends on
// input element i alone); the kernel must read each block of that input
// before it writes the same block of the output.
type Slice struct {
	Kind   SliceKind
	Index  int // Args index, Embedded index, or output index
	Offset int // TempSlice: byte offset in the arena
	Size   int // bytes
}

// Compile verifies a jaxpr and compiles it with DefaultOptions: the jaxpr
// passes, one OpaqueKernel per equation (no fusion), a memory-saving
// schedule and a buffer plan. Backends that run fused kernels are compiled
// for with CompileWith(j, OptionsFor(dev)).
func Compile(j *trace.Jaxpr) (*Program, error) {
	return CompileWith(j, DefaultOptions())
}

// CompileWith verifies a jaxpr and runs the compiler pipeline on it.
func CompileWith(j *trace.Jaxpr, opts Options) (*Program, error) {
	if err := j.Verify(); err != nil {
		return nil, fmt.Errorf("jit: invalid jaxpr: %w", err)
	}
	return runPipeline(j, &opts)
}

// KernelCount is the number of kernels an execution runs.
func (p *Program) KernelCount() int { return len(p.Kernels) }
