package trace

import (
	"fmt"
	"slices"
)

// Batching rules (JAX's batching.py): the Batch column of the primitive
// table. trace/batching interprets a jaxpr over values that carry a batch
// axis and calls a primitive's rule whenever one of its operands has one.
// A rule emits equations that compute the whole batch at once, never one
// application per element, and says where each result's batch axis lies.
//
// Rules that apply nested jaxprs (cond, while, scan, jit) need the
// interpreter itself for their bodies; they reach it through Batcher, which
// trace/batching implements, so every rule sits beside its primitive here
// while the interpreter stays outside the table's package.

// NotBatched marks an operand or result that has no batch axis: the same
// value for every element of the batch.
const NotBatched = -1

// A BatchRule batches one application of a primitive. dims[i] is the axis
// of in[i] that indexes the batch, or NotBatched; at least one operand is
// batched. It returns the results and their batch axes.
type BatchRule func(bt Batcher, in []Atom, dims []int, p Params) ([]Atom, []int, error)

// A Batcher is what a batching rule emits into.
type Batcher interface {
	// Size is the number of elements in the batch.
	Size() int
	// Builder records the batched jaxpr.
	Builder() *Builder
	// Pos is the source position of the equation being batched; equations
	// a rule emits take it.
	Pos() Pos
	// BatchJaxpr batches a closed jaxpr (a control-flow body or a nested
	// jit) whose inputs have their batch axis first where inBatched says.
	// Results that are batched come back with the axis first; instantiate
	// forces a batch axis on a result even when it does not depend on the
	// batch (loop carries must keep one type).
	BatchJaxpr(j *Jaxpr, inBatched, instantiate []bool) (*Jaxpr, []bool, error)
}

// batchRules collects the rules of each primitive family; Register attaches
// them to the table's rows. They are gathered in package variables, which Go
// initialises before any init function registers a primitive.
var batchRules = map[string]BatchRule{}

func addBatchRules(rules map[string]BatchRule) bool {
	for name, r := range rules {
		if batchRules[name] != nil {
			panic("trace: two batching rules for " + name)
		}
		batchRules[name] = r
	}
	return true
}

// batchBind applies a primitive at the position of the equation being
// batched and returns its single result.
func batchBind(bt Batcher, prim string, p Params, in ...Atom) (Atom, error) {
	outs, err := bt.Builder().Bind(prim, in, p, bt.Pos())
	if err != nil {
		return nil, err
	}
	if len(outs) != 1 {
		return nil, fmt.Errorf("batching: %s returned %d results, want 1", prim, len(outs))
	}
	return outs[0], nil
}

// MoveAxis returns x with its axis from moved to position to (a transpose;
// x itself when nothing moves).
func MoveAxis(bt Batcher, x Atom, from, to int) (Atom, error) {
	if from == to {
		return x, nil
	}
	rank := x.Aval().Rank()
	perm := make([]int, 0, rank)
	for i := range rank {
		if i != from {
			perm = append(perm, i)
		}
	}
	perm = slices.Insert(perm, to, from)
	return batchBind(bt, "transpose", Params{"permutation": perm}, x)
}

// BatchAtFront returns x with its batch axis first; an unbatched x is
// broadcast along a new leading axis of the batch size.
func BatchAtFront(bt Batcher, x Atom, dim int) (Atom, error) {
	if dim != NotBatched {
		return MoveAxis(bt, x, dim, 0)
	}
	shape := x.Aval().Shape
	dims := make([]int, len(shape))
	for i := range dims {
		dims[i] = i + 1
	}
	return batchBind(bt, "broadcast_in_dim", Params{
		"shape": append([]int{bt.Size()}, shape...), "broadcast_dimensions": dims,
	}, x)
}

// allAtFront moves every operand's batch axis first, broadcasting the
// unbatched ones.
func allAtFront(bt Batcher, in []Atom, dims []int) ([]Atom, error) {
	out := make([]Atom, len(in))
	for i, x := range in {
		var err error
		if out[i], err = BatchAtFront(bt, x, dims[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batchedOnlyAtFront moves the batched operands' axes first and leaves the
// others alone.
func batchedOnlyAtFront(bt Batcher, in []Atom, dims []int) ([]Atom, error) {
	out := slices.Clone(in)
	for i, x := range in {
		if dims[i] != NotBatched {
			var err error
			if out[i], err = MoveAxis(bt, x, dims[i], 0); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// shiftAxes maps axes of an unbatched operand to the batched one whose
// batch axis is at bdim.
func shiftAxes(axes []int, bdim int) []int {
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = shiftAxis(a, bdim)
	}
	return out
}

func shiftAxis(a, bdim int) int {
	if a >= bdim {
		return a + 1
	}
	return a
}

// plusOne adds one to each axis (the batch axis went first).
func plusOne(axes []int) []int { return shiftAxes(axes, 0) }

// withBatch prepends the batch size to a shape.
func withBatch(bt Batcher, s Shape) []int { return append([]int{bt.Size()}, s...) }

// unbatchedAval removes the batch axis from a batched operand's aval.
func unbatchedAval(a AVal, dim int) AVal {
	if dim == NotBatched {
		return a
	}
	s := slices.Clone(a.Shape)
	return a.WithShape(slices.Delete(s, dim, dim+1))
}

// asBools says which dims are batched.
func asBools(dims []int) []bool {
	out := make([]bool, len(dims))
	for i, d := range dims {
		out[i] = d != NotBatched
	}
	return out
}

// fromBools gives batched values the leading axis.
func fromBools(batched []bool) []int {
	out := make([]int, len(batched))
	for i, b := range batched {
		if b {
			out[i] = 0
		} else {
			out[i] = NotBatched
		}
	}
	return out
}

// InlineJaxpr applies a closed jaxpr without constvars to in by binding its
// equations with b, each at its own position.
func InlineJaxpr(b *Builder, j *Jaxpr, in []Atom) ([]Atom, error) {
	if len(j.ConstVars) != 0 {
		return nil, fmt.Errorf("inline: jaxpr has %d constvars", len(j.ConstVars))
	}
	if len(in) != len(j.InVars) {
		return nil, fmt.Errorf("inline: jaxpr takes %d inputs, got %d", len(j.InVars), len(in))
	}
	return b.Apply(j, in)
}
