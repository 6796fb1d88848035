package export

import (
	"errors"
	"fmt"
	"strings"
	"sync"
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

// InAvalsText prints the input avals as JAX does, symbolic dimensions
// included: (ShapedArray(float32[b,2*h]),).
func (e *Exported) InAvalsText() string {
	if e.Poly == nil {
		return avalTuple(e.InAvals)
	}
	items := make([]string, len(e.InAvals))
	for i, a := range e.InAvals {
		if spec := e.Poly.Specs[i]; spec != nil {
			dims := make([]string, len(spec))
			for k, d := range spec {
				dims[k] = strings.ReplaceAll(d.String(), " ", "")
			}
			items[i] = "ShapedArray(" + a.DType.Name() + "[" + strings.Join(dims, ",") + "])"
			continue
		}
		items[i] = ShapedArrayRepr(a)
	}
	return pyTuple(items)
}
