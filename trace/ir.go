package trace

import (
	"fmt"
	"strconv"
	"sync/atomic"
)

// An Atom is an equation operand: a Var or a Literal.
type Atom interface {
	Aval() AVal
	atom()
}

var (
	_ Atom = (*Var)(nil)
	_ Atom = (*Literal)(nil)
)

// A Var is a value in a jaxpr, bound once: as a constant or input of the
// jaxpr, or as an output of an equation. Vars are compared by identity; the
// names in jaxpr text (a, b, ...) are given by the printer.
type Var struct {
	id   int64
	aval AVal
}

var lastVarID atomic.Int64

// NewVar makes a fresh variable. Its id only serves debugging and stable
// ordering; identity is the pointer.
func NewVar(aval AVal) *Var { return &Var{id: lastVarID.Add(1), aval: aval} }

// Aval is the variable's abstract value.
func (v *Var) Aval() AVal { return v.aval }

// ID is a number unique to this variable in the process.
func (v *Var) ID() int64 { return v.id }

func (v *Var) atom() {}

// String names the variable by its id, for debugging; jaxpr text names
// variables by order of appearance instead.
func (v *Var) String() string { return "%" + strconv.FormatInt(v.id, 10) + ":" + v.aval.String() }

// A Literal is a scalar constant written into the program text: Python-style
// scalars and small constants. Large or non-scalar constants are never
// literals: they become constvars (see Builder.Const).
type Literal struct {
	value any // bool, int64, float64 or complex128, as the dtype's kind says
	aval  AVal
}

// NewLiteral makes a scalar literal of dtype dt from a Go bool, int, int64,
// float64 or complex128. Integer values must be representable in dt;
// floating values are kept as given (a weak Python float keeps its float64
// value, as JAX's do), so round them first for a strongly typed narrow float.
func NewLiteral(value any, dt DType, weak bool) (*Literal, error) {
	aval := AVal{Shape: Shape{}, DType: dt, Weak: weak && dt != Bool}
	if !dt.IsArray() {
		return nil, fmt.Errorf("literal of dtype %s", dt)
	}
	var v any
	switch x := value.(type) {
	case bool:
		switch {
		case dt == Bool:
			v = x
		case dt.IsInteger():
			v = boolToInt(x)
		default:
			return nil, fmt.Errorf("bool literal %v cannot have dtype %s", x, dt)
		}
	case int:
		return NewLiteral(int64(x), dt, weak)
	case int64:
		switch {
		case dt.IsInteger():
			if !intFits(x, dt) {
				return nil, fmt.Errorf("literal %d does not fit in %s", x, dt)
			}
			v = x
		case dt.IsFloat():
			v = float64(x)
		case dt.IsComplex():
			v = complex(float64(x), 0)
		default:
			return nil, fmt.Errorf("integer literal %d cannot have dtype %s", x, dt)
		}
	case float64:
		switch {
		case dt.IsFloat():
			v = x
		case dt.IsComplex():
			v = complex(x, 0)
		default:
			return nil, fmt.Errorf("float literal %s cannot have dtype %s", pyFloat(x), dt)
		}
	case complex128:
		if !dt.IsComplex() {
			return nil, fmt.Errorf("complex literal %s cannot have dtype %s", pyComplex(x), dt)
		}
		v = x
	default:
		return nil, fmt.Errorf("literal of Go type %T", value)
	}
	return &Literal{value: v, aval: aval}, nil
}

func boolToInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func intFits(x int64, dt DType) bool {
	bits := dt.Bits()
	if dt.IsUnsigned() {
		return x >= 0 && (bits >= 64 || x < 1<<bits)
	}
	if bits >= 64 {
		return true
	}
	return x >= -(1<<(bits-1)) && x < 1<<(bits-1)
}

// Aval is the literal's abstract value (always a scalar).
func (l *Literal) Aval() AVal { return l.aval }

// Value is the literal's value: a bool for bool, an int64 for integer
// dtypes, a float64 for floating dtypes, a complex128 for complex ones.
func (l *Literal) Value() any { return l.value }

func (l *Literal) atom() {}

// String prints the literal as jaxprs do: 2.0:f32[], 1:i32[], True:bool[].
func (l *Literal) String() string { return l.valueString() + ":" + l.aval.String() }

func (l *Literal) valueString() string {
	switch x := l.value.(type) {
	case bool:
		return pyBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return pyFloat(x)
	case complex128:
		return pyComplex(x)
	}
	return "?"
}

// valid reports whether the value agrees with the aval (literals made by
// NewLiteral always do).
func (l *Literal) valid() bool {
	if len(l.aval.Shape) != 0 {
		return false
	}
	switch x := l.value.(type) {
	case bool:
		return l.aval.DType == Bool
	case int64:
		return l.aval.DType.IsInteger() && intFits(x, l.aval.DType)
	case float64:
		return l.aval.DType.IsFloat()
	case complex128:
		return l.aval.DType.IsComplex()
	}
	return false
}

// Pos is a source position: the Starlark file, line and column that caused an
// equation. The zero Pos means unknown.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p == (Pos{}) {
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// An Eqn is one equation of a jaxpr: Out = Prim[Params](In).
type Eqn struct {
	Prim    *Primitive
	In      []Atom
	Out     []*Var
	Params  Params
	Pos     Pos
	Effects Effects
}

// A Jaxpr is a traced function: constants it closes over, inputs, equations
// in order, outputs, and the union of its equations' effects.
//
// Consts holds the values of ConstVars, one each: opaque payloads (device
// arrays) that the compiler passes as buffers and never folds into the
// program. JAX merged its ClosedJaxpr into Jaxpr the same way; a jaxpr
// without captured values simply has no ConstVars.
type Jaxpr struct {
	ConstVars []*Var
	Consts    []any
	InVars    []*Var
	OutVars   []Atom
	Eqns      []*Eqn
	Effects   Effects
}

// InAvals lists the avals of the inputs (constants excluded).
func (j *Jaxpr) InAvals() []AVal { return varAvals(j.InVars) }

// OutAvals lists the avals of the outputs.
func (j *Jaxpr) OutAvals() []AVal {
	out := make([]AVal, len(j.OutVars))
	for i, a := range j.OutVars {
		out[i] = a.Aval()
	}
	return out
}

func varAvals(vs []*Var) []AVal {
	out := make([]AVal, len(vs))
	for i, v := range vs {
		out[i] = v.aval
	}
	return out
}

func atomAvals(as []Atom) []AVal {
	out := make([]AVal, len(as))
	for i, a := range as {
		out[i] = a.Aval()
	}
	return out
}
