package export

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// A Polymorphism makes an Exported shape-polymorphic: some inputs have
// symbolic shapes, and each call binds the dimension variables from the
// arguments and runs the function traced for that binding. Tracing needs
// the function, so a polymorphic Exported lives in the process that
// exported it; serializing one is an error that says so.
type Polymorphism struct {
	// Specs holds one symbolic shape per input (nil for a static input).
	Specs       []SymbolicShape
	Constraints []Constraint
	// OutSpecs are the outputs' shapes in terms of the dimension
	// variables, as InferOutSpecs found them (nil: not known).
	OutSpecs []SymbolicShape
	// Trace exports the function for concrete input shapes.
	Trace func(shapes [][]int) (*Exported, error)

	mu    sync.Mutex
	cache map[string]*Exported
}

// Specialize returns the artifact traced for the given actual input
// shapes: the dimension variables are bound (BindDims's errors), and each
// distinct binding is traced and compiled once.
func (p *Polymorphism) Specialize(shapes [][]int) (*Exported, map[string]int, error) {
	if len(shapes) != len(p.Specs) {
		return nil, nil, fmt.Errorf("the function was exported for %d array arguments and is called with %d", len(p.Specs), len(shapes))
	}
	env, err := BindDims(p.Specs, shapes, p.Constraints)
	if err != nil {
		return nil, nil, err
	}
	key := fmt.Sprint(shapes)
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.cache[key]; e != nil {
		return e, env, nil
	}
	e, err := p.Trace(shapes)
	if err != nil {
		return nil, nil, err
	}
	if p.cache == nil {
		p.cache = map[string]*Exported{}
	}
	p.cache[key] = e
	return e, env, nil
}

// Traced reports how many bindings have been traced.
func (p *Polymorphism) Traced() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.cache)
}

// NewPolymorphic makes a polymorphic Exported: its metadata comes from an
// artifact traced for a sample binding (sample), its input avals print
// their symbolic shapes.
func NewPolymorphic(sample *Exported, poly *Polymorphism) (*Exported, error) {
	if len(poly.Specs) != len(sample.InAvals) {
		return nil, fmt.Errorf("export: %d symbolic shapes for %d inputs", len(poly.Specs), len(sample.InAvals))
	}
	e := &Exported{
		FunName: sample.FunName, InAvals: sample.InAvals, OutAvals: sample.OutAvals,
		InTree: sample.InTree, OutTree: sample.OutTree, Platforms: sample.Platforms,
		OrderedEffects: sample.OrderedEffects, UnorderedEffects: sample.UnorderedEffects,
		CallingConventionVersion: sample.CallingConventionVersion, NrDevices: sample.NrDevices,
		DisabledChecks: sample.DisabledChecks, Jaxpr: sample.Jaxpr, Poly: poly,
	}
	return e, nil
}

// ErrPolymorphicSerialize is Serialize's error for a polymorphic Exported.
var ErrPolymorphicSerialize = errors.New("a shape-polymorphic export cannot be serialized yet: " +
	"jaxsh traces it once per binding of its dimension variables; export it with concrete shapes to serialize it")

// InAvalReprs prints each input aval as JAX does, symbolic dimensions
// included: ShapedArray(float32[b,2*h]).
func (e *Exported) InAvalReprs() []string {
	items := make([]string, len(e.InAvals))
	for i, a := range e.InAvals {
		if e.Poly != nil && e.Poly.Specs[i] != nil {
			dims := make([]string, len(e.Poly.Specs[i]))
			for k, d := range e.Poly.Specs[i] {
				dims[k] = strings.ReplaceAll(d.String(), " ", "")
			}
			items[i] = "ShapedArray(" + a.DType.Name() + "[" + strings.Join(dims, ",") + "])"
			continue
		}
		items[i] = ShapedArrayRepr(a)
	}
	return items
}

// InAvalsText prints the input avals as JAX does, symbolic dimensions
// included: (ShapedArray(float32[b,2*h]),).
func (e *Exported) InAvalsText() string {
	return pyTuple(e.InAvalReprs())
}

// InferOutSpecs expresses the output dimensions of two traces (at two
// bindings of the variables) by the variables: each dimension is the first
// of the variables and the inputs' dimension expressions that gives its
// size under both bindings, or a constant when both sizes agree; nil
// when some dimension fits none.
func InferOutSpecs(specs []SymbolicShape, envs [2]map[string]int, outs [2][]trace.AVal) []SymbolicShape {
	var cands []DimExpr
	var all []DimExpr
	for _, s := range specs {
		all = append(all, s...)
	}
	for _, v := range Vars(all...) {
		cands = append(cands, dimVar(v))
	}
	cands = append(cands, all...)
	result := make([]SymbolicShape, len(outs[0]))
	for i, a := range outs[0] {
		b := outs[1][i]
		if len(a.Shape) != len(b.Shape) {
			return nil
		}
		for k, d := range a.Shape {
			var found DimExpr
			for _, c := range cands {
				x, ok1 := c.Eval(envs[0])
				y, ok2 := c.Eval(envs[1])
				if ok1 && ok2 && x == d && y == b.Shape[k] {
					found = c
					break
				}
			}
			if found == nil && d == b.Shape[k] {
				found = dimConst(d)
			}
			if found == nil {
				return nil
			}
			result[i] = append(result[i], found)
		}
	}
	return result
}

// OutAvalReprs prints the output avals, symbolic where known.
func (e *Exported) OutAvalReprs() []string {
	items := make([]string, len(e.OutAvals))
	for i, a := range e.OutAvals {
		if e.Poly != nil && e.Poly.OutSpecs != nil {
			dims := make([]string, len(e.Poly.OutSpecs[i]))
			for k, d := range e.Poly.OutSpecs[i] {
				dims[k] = strings.ReplaceAll(d.String(), " ", "")
			}
			items[i] = "ShapedArray(" + a.DType.Name() + "[" + strings.Join(dims, ",") + "])"
			continue
		}
		items[i] = ShapedArrayRepr(a)
	}
	return items
}
