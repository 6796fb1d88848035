package trace

import (
	"fmt"
	"math"
	"slices"
)

// Autodiff rules are columns of the primitive table (DESIGN decision 9, as
// in JAX's ad.py): each primitive's JVP rule says how tangents flow forward
// through it, and a primitive that tangent computations use has a transpose
// rule that sends cotangents back. The interpreters that apply them (JVP of
// a jaxpr, partial evaluation, transposition) live in trace/ad. Rules of
// primitives that hold jaxprs (jit, cond, scan, while, checkpoint, the
// custom rules) need those interpreters recursively, so trace/ad fills
// their columns itself when it is loaded (SetAD): trace cannot import it.
//
// A rule emits equations through an Emitter. A nil tangent or cotangent is
// a symbolic zero: nothing is computed for it.

// A JVPRule applies its primitive to the primal operands in and returns the
// outputs and their tangents (nil for a zero tangent). tangents has one
// entry per operand, nil where the tangent is zero; at least one is not
// nil. Tangents have their primal's dtype and shape; integer and bool
// values have zero tangents (JAX's float0).
type JVPRule func(e *Emitter, in, tangents []Atom, p Params) (out, outTangents []Atom)

// A TransposeRule computes cotangents of the linear operands of an
// equation from the cotangents of its outputs (cts, nil for a zero). in
// holds the operands: where linear[i] is false, in[i] is a value the rule
// may use; where it is true, in[i] stands for the unknown linear input and
// only its aval may be read. The result has one entry per operand: a
// cotangent for each linear operand (nil for zero), nil for the others.
type TransposeRule func(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom

type adRules struct {
	jvp       JVPRule
	transpose TransposeRule
	nonDiff   bool
}

func installAD(rules map[string]adRules) {
	for name, r := range rules {
		p := Lookup(name)
		if p == nil {
			panic("autodiff rules for unknown primitive " + name)
		}
		p.JVP, p.Transpose, p.NonDifferentiable = r.jvp, r.transpose, r.nonDiff
	}
}

// SetAD fills the autodiff columns of the named primitive, for rules that
// live outside this package (trace/ad's rules for primitives holding
// jaxprs). A nil rule leaves its column as it is.
func SetAD(name string, jvp JVPRule, transpose TransposeRule) {
	p := Lookup(name)
	if p == nil {
		panic("autodiff rules for unknown primitive " + name)
	}
	if jvp != nil {
		p.JVP = jvp
	}
	if transpose != nil {
		p.Transpose = transpose
	}
}

// HasTangent reports whether values of aval can carry a nonzero tangent:
// floating and complex arrays.
func HasTangent(a AVal) bool { return a.DType.IsInexact() }

// An Emitter appends equations to a Builder for a rule, at the source
// position of the equation being transformed. Its methods stop the rule
// with a panic that Catch turns back into an error, so rules read as
// straight-line math.
type Emitter struct {
	B   *Builder
	Pos Pos
}

type ruleFailure struct{ err error }

// Fail stops the rule with err.
func (e *Emitter) Fail(err error) { panic(ruleFailure{err}) }

// Failf stops the rule with a formatted error.
func (e *Emitter) Failf(format string, args ...any) { e.Fail(fmt.Errorf(format, args...)) }

// Catch runs f and returns the error an Emitter method stopped it with.
// Other panics go on.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			failure, ok := r.(ruleFailure)
			if !ok {
				panic(r)
			}
			err = failure.err
		}
	}()
	f()
	return nil
}

// Bind applies a primitive and returns its outputs.
func (e *Emitter) Bind(prim string, in []Atom, p Params) []Atom {
	outs, err := e.B.Bind(prim, in, p, e.Pos)
	if err != nil {
		e.Fail(err)
	}
	return varsToAtoms(outs)
}

// Bind1 applies a primitive with one output.
func (e *Emitter) Bind1(prim string, p Params, in ...Atom) Atom { return e.Bind(prim, in, p)[0] }

func varsToAtoms(vs []*Var) []Atom {
	out := make([]Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// Lit is a scalar literal of dtype dt (strongly typed).
func (e *Emitter) Lit(v float64, dt DType) Atom {
	var value any = v
	switch {
	case dt == Bool:
		value = v != 0
	case dt.IsInteger():
		value = int64(v)
	case dt.IsComplex():
		value = complex(v, 0)
	}
	l, err := NewLiteral(value, dt, false)
	if err != nil {
		e.Fail(err)
	}
	return l
}

// Full is an array of aval's shape and dtype filled with v.
func (e *Emitter) Full(v float64, aval AVal) Atom {
	lit := e.Lit(v, aval.DType)
	if aval.Rank() == 0 {
		return lit
	}
	return e.Bind1("broadcast_in_dim", Params{"shape": []int(aval.Shape.Clone()), "broadcast_dimensions": []int{}}, lit)
}

// Zeros is an array of zeros shaped like aval.
func (e *Emitter) Zeros(aval AVal) Atom { return e.Full(0, aval) }

// Instantiate turns a symbolic zero into zeros of aval.
func (e *Emitter) Instantiate(t Atom, aval AVal) Atom {
	if t == nil {
		return e.Zeros(aval)
	}
	return t
}

// The arithmetic the rules use. Operands broadcast as the elementwise
// primitives do (scalars against anything).

func (e *Emitter) Add(x, y Atom) Atom { return e.Bind1("add", nil, x, y) }
func (e *Emitter) Sub(x, y Atom) Atom { return e.Bind1("sub", nil, x, y) }
func (e *Emitter) Mul(x, y Atom) Atom { return e.Bind1("mul", nil, x, y) }
func (e *Emitter) Div(x, y Atom) Atom { return e.Bind1("div", nil, x, y) }
func (e *Emitter) Neg(x Atom) Atom    { return e.Bind1("neg", nil, x) }

// Unary applies a parameterless unary primitive.
func (e *Emitter) Unary(prim string, x Atom) Atom { return e.Bind1(prim, nil, x) }

// Scale multiplies x by the constant c.
func (e *Emitter) Scale(x Atom, c float64) Atom { return e.Mul(x, e.Lit(c, x.Aval().DType)) }

// Select is select_n(pred, onFalse, onTrue).
func (e *Emitter) Select(pred, onFalse, onTrue Atom) Atom {
	return e.Bind1("select_n", nil, pred, onFalse, onTrue)
}

// Compare applies a comparison primitive (eq, lt, ...).
func (e *Emitter) Compare(prim string, x, y Atom) Atom { return e.Bind1(prim, nil, x, y) }

// Convert converts x to dt (a no-op when it has that dtype).
func (e *Emitter) Convert(x Atom, dt DType) Atom {
	if x.Aval().DType == dt {
		return x
	}
	return e.Bind1("convert_element_type", Params{"new_dtype": dt, "weak_type": false}, x)
}

// AsFloat converts a bool mask to dtype dt: 1 where true.
func (e *Emitter) AsFloat(mask Atom, dt DType) Atom { return e.Convert(mask, dt) }

// BroadcastInDim is broadcast_in_dim.
func (e *Emitter) BroadcastInDim(x Atom, shape Shape, dims []int) Atom {
	if x.Aval().Shape.Equal(shape) && slices.Equal(dims, AllAxes(len(shape))) {
		return x
	}
	return e.Bind1("broadcast_in_dim", Params{"shape": []int(shape.Clone()), "broadcast_dimensions": slices.Clone(dims)}, x)
}

// BroadcastTo broadcasts x (a scalar, or of rank len(shape) with size-1
// dimensions) to shape, as the elementwise primitives broadcast operands.
func (e *Emitter) BroadcastTo(x Atom, shape Shape) Atom {
	a := x.Aval()
	if a.Shape.Equal(shape) {
		return x
	}
	if a.Rank() == 0 {
		return e.BroadcastInDim(x, shape, []int{})
	}
	var keep []int
	var kept Shape
	for i, d := range a.Shape {
		if d == shape[i] {
			keep = append(keep, i)
			kept = append(kept, d)
		}
	}
	if len(keep) != a.Rank() {
		x = e.Reshape(x, kept)
	}
	return e.BroadcastInDim(x, shape, keep)
}

// Unbroadcast sums ct down to aval's shape: the transpose of BroadcastTo.
func (e *Emitter) Unbroadcast(ct Atom, aval AVal) Atom {
	s := ct.Aval().Shape
	if s.Equal(aval.Shape) {
		return ct
	}
	if aval.Rank() == 0 {
		return e.ReduceSum(ct, AllAxes(s.Rank()))
	}
	var axes []int
	for i, d := range aval.Shape {
		if d != s[i] {
			axes = append(axes, i)
		}
	}
	return e.Reshape(e.ReduceSum(ct, axes), aval.Shape)
}

// ReduceSum sums over axes (x itself when there are none).
func (e *Emitter) ReduceSum(x Atom, axes []int) Atom {
	if len(axes) == 0 {
		return x
	}
	return e.Bind1("reduce_sum", Params{"axes": slices.Clone(axes)}, x)
}

// Reshape reshapes x (x itself when the shape is unchanged).
func (e *Emitter) Reshape(x Atom, shape Shape) Atom {
	if x.Aval().Shape.Equal(shape) {
		return x
	}
	return e.Bind1("reshape", Params{"new_sizes": []int(shape.Clone())}, x)
}

// Transpose permutes x's axes (x itself for the identity).
func (e *Emitter) Transpose(x Atom, perm []int) Atom {
	if slices.Equal(perm, AllAxes(len(perm))) {
		return x
	}
	return e.Bind1("transpose", Params{"permutation": slices.Clone(perm)}, x)
}

// Iota is an int32 array of shape counting along dimension.
func (e *Emitter) Iota(shape Shape, dimension int) Atom {
	return e.Bind1("iota", Params{"dtype": Int32, "shape": []int(shape.Clone()), "dimension": dimension})
}

// TakeAlongAxis picks x's elements along axis at idx (an int32 array of
// x's shape): out[..., i, ...] = x[..., idx[..., i, ...], ...]. It is a
// gather with a full index tuple per element, linear in x.
func (e *Emitter) TakeAlongAxis(x, idx Atom, axis int) Atom {
	shape := x.Aval().Shape
	rank := shape.Rank()
	withVector := append(shape.Clone(), 1)
	parts := make([]Atom, rank)
	for d := range rank {
		part := idx
		if d != axis {
			part = e.Iota(shape, d)
		}
		parts[d] = e.Reshape(e.Convert(part, Int32), withVector)
	}
	indices := parts[0]
	if rank > 1 {
		indices = e.Bind1("concatenate", Params{"dimension": rank}, parts...)
	}
	ones := make([]int, rank)
	for i := range ones {
		ones[i] = 1
	}
	return e.Bind1("gather", Params{
		"dimension_numbers": GatherDimensionNumbers{CollapsedSliceDims: AllAxes(rank), StartIndexMap: AllAxes(rank)},
		"slice_sizes":       ones, "indices_are_sorted": false, "unique_indices": false,
		"mode": GatherPromiseInBounds, "fill_value": nil,
	}, x, indices)
}

// constOf is a float64 constant for a rule, spelled once.
var (
	ln2       = math.Ln2
	twoOverPi = 2 / math.Sqrt(math.Pi)
)
