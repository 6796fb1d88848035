package trace

import (
	"fmt"
	"slices"
	"strings"
)

// Props are static properties of a primitive that passes and backends
// query instead of matching on names.
type Props uint16

const (
	// Elementwise: each output element depends only on the operands'
	// elements at the same index (scalar operands and size-1 dimensions
	// broadcast, as the shape rule allows).
	Elementwise Props = 1 << iota
	// Comparison: elementwise with a bool result.
	Comparison
	// Commutative: a binary operation whose operands may be swapped.
	Commutative
	// Transcendental: counted as a transcendental by cost analysis (XLA's
	// list: exp, log, sqrt, tanh, sin, pow, erf, ...).
	Transcendental
	// Reduction: reduces its operand over the axes param.
	Reduction
	// Cumulative: a running reduction along the axis param.
	Cumulative
	// Structural: moves, selects or reinterprets data without arithmetic
	// (reshape, transpose, slice, gather, ...).
	Structural
	// HostOp: runs on the host (prints, taps, callbacks).
	HostOp
	// CallsJaxpr: applies a jaxpr held in its params.
	CallsJaxpr
	// Identity: returns its operands unchanged; it only means something to
	// a transformation (stop_gradient), so the compiler removes it.
	Identity
)

// A Primitive is one row of the primitive table: a name as JAX spells it,
// its properties, the operands and params it takes, its shape rule and its
// effects.
type Primitive struct {
	Name  string
	Props Props
	// MinIn and MaxIn bound the number of operands; MaxIn < 0 means no bound.
	MinIn, MaxIn int
	Params       []ParamSpec
	// ParamOrder lists params that jaxpr text shows first, before the others
	// in name order (JAX shows a jit's name first).
	ParamOrder []string
	// Rule computes the output avals from the operands' avals and checks
	// them. Its errors describe the problem only; Infer adds the primitive
	// and the operands.
	Rule func(in []AVal, p Params) ([]AVal, error)
	// Effects, when set, gives the effects of an equation. Primitives
	// without it are pure.
	Effects func(in []AVal, p Params) Effects
	// Batch batches an application whose operands carry a batch axis
	// (vmap); see BatchRule. Register fills it from the rules registered
	// beside each primitive family.
	Batch BatchRule
	// NamesLike names a jaxpr param whose inputs and outputs stand for the
	// equation's own: the printer gives them the equation's variable names,
	// as JAX does for jit.
	NamesLike string
	// CallParam names the jaxpr param that the primitive applies to its
	// operands unchanged (jit, checkpoint, custom_jvp_call, ...): evaluating
	// the equation is evaluating that jaxpr, so the compiler may inline it.
	CallParam string

	// The autodiff columns (see JVPRule and TransposeRule; trace/ad is the
	// interpreter that applies them). A primitive with neither JVP nor
	// NonDifferentiable cannot be differentiated.

	// JVP is the forward-mode rule.
	JVP JVPRule
	// Transpose is the reverse-mode rule of a primitive that is linear in
	// some of its operands; only primitives that tangent computations emit
	// need one.
	Transpose TransposeRule
	// NonDifferentiable declares outputs without derivatives (comparisons,
	// integer and bit operations, argmax, random bits, tokens): their
	// tangents are zero whatever the operands' are.
	NonDifferentiable bool
}

// Has reports whether the primitive has all the given properties.
func (p *Primitive) Has(props Props) bool { return p.Props&props == props }

func (p *Primitive) String() string { return p.Name }

// Infer checks operands and params and returns the output avals and the
// effects of applying p. Its errors are *TypeError.
func (p *Primitive) Infer(in []AVal, params Params) ([]AVal, Effects, error) {
	fail := func(err error) ([]AVal, Effects, error) {
		return nil, nil, &TypeError{Prim: p.Name, In: in, Err: err}
	}
	if len(in) < p.MinIn || (p.MaxIn >= 0 && len(in) > p.MaxIn) {
		return fail(fmt.Errorf("takes %s, got %d", p.arity(), len(in)))
	}
	for i, a := range in {
		if !a.valid() {
			return fail(fmt.Errorf("operand %d has an invalid aval %#v", i, a))
		}
	}
	if err := checkParams(p.Params, params); err != nil {
		return fail(err)
	}
	out, err := p.Rule(in, params)
	if err != nil {
		return fail(err)
	}
	for _, a := range out {
		if err := CheckSize(a); err != nil {
			return fail(err)
		}
	}
	var effects Effects
	if p.Effects != nil {
		effects = NewEffects(p.Effects(in, params)...)
	}
	return out, effects, nil
}

func (p *Primitive) arity() string {
	plural := func(n int) string {
		if n == 1 {
			return "1 operand"
		}
		return fmt.Sprintf("%d operands", n)
	}
	switch {
	case p.MaxIn < 0:
		return "at least " + plural(p.MinIn)
	case p.MinIn == p.MaxIn:
		return plural(p.MinIn)
	}
	return fmt.Sprintf("%d to %d operands", p.MinIn, p.MaxIn)
}

// A TypeError is a shape or dtype error of a primitive application: it names
// the primitive and the operands' avals, then the problem.
type TypeError struct {
	Prim string
	In   []AVal
	Err  error
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("%s(%s): %v", e.Prim, avalList(e.In), e.Err)
}

func (e *TypeError) Unwrap() error { return e.Err }

func avalList(avals []AVal) string {
	parts := make([]string, len(avals))
	for i, a := range avals {
		parts[i] = a.String()
	}
	return strings.Join(parts, ", ")
}

// registry is the one table of primitives, by name.
var registry = map[string]*Primitive{}

// Register adds a primitive to the table. Names are unique.
func Register(p *Primitive) error {
	switch {
	case p.Name == "":
		return fmt.Errorf("register: primitive without a name")
	case p.Rule == nil:
		return fmt.Errorf("register %s: no shape rule", p.Name)
	case registry[p.Name] != nil:
		return fmt.Errorf("register %s: already registered", p.Name)
	}
	if p.Batch == nil {
		p.Batch = batchRules[p.Name]
	}
	if p.Batch == nil && p.Has(Elementwise) {
		// The batch axis is one more elementwise axis.
		p.Batch = elementwiseBatch(p.Name)
	}
	registry[p.Name] = p
	return nil
}

// Lookup finds a primitive by name; nil if there is none.
func Lookup(name string) *Primitive { return registry[name] }

// Primitives lists the table, by name.
func Primitives() []*Primitive {
	out := make([]*Primitive, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *Primitive) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func init() {
	families := [][]*Primitive{
		elementwisePrims(),
		complexPrims(),
		fftPrims(),
		linalgPrims(),
		shapePrims(),
		indexingPrims(),
		reductionPrims(),
		hostAndCallPrims(),
	}
	for _, family := range families {
		for _, p := range family {
			if err := Register(p); err != nil {
				panic(err) // a programming error in this package's tables
			}
		}
	}
	for _, rules := range []map[string]adRules{
		elementwiseAD(), shapeAD(), indexingAD(), reductionAD(), hostAD(),
	} {
		installAD(rules)
	}
}

// one wraps a single output aval.
func one(a AVal) []AVal { return []AVal{a} }

// allWeak is JAX's standard weak-type rule: an output is weak when every
// operand is.
func allWeak(in []AVal) bool {
	for _, a := range in {
		if !a.Weak {
			return false
		}
	}
	return len(in) > 0
}

// checkDTypes requires each operand's dtype to be in accepted.
func checkDTypes(in []AVal, accepted dtypeSet) error {
	for i, a := range in {
		if !accepted.has(a.DType) {
			if len(in) == 1 {
				return fmt.Errorf("does not accept dtype %s; accepted: %s", a.DType, accepted)
			}
			return fmt.Errorf("does not accept dtype %s at position %d; accepted: %s", a.DType, i, accepted)
		}
	}
	return nil
}

// checkSameDTypes requires the operands to share one dtype.
func checkSameDTypes(in []AVal) error {
	for _, a := range in[1:] {
		if a.DType != in[0].DType {
			names := make([]string, len(in))
			for i, b := range in {
				names[i] = b.DType.Name()
			}
			return fmt.Errorf("requires arguments to have the same dtypes, got %s", strings.Join(names, ", "))
		}
	}
	return nil
}

// checkAxes requires distinct axes in [0, rank) (shape rules take canonical
// axes; NormalizeAxes makes them).
func checkAxes(what string, axes []int, rank int) error {
	for i, a := range axes {
		if a < 0 || a >= rank {
			return fmt.Errorf("%s %s out of range for rank %d", what, pyIntTuple(axes), rank)
		}
		if containsInt(axes[:i], a) {
			return fmt.Errorf("%s %s repeat %d", what, pyIntTuple(axes), a)
		}
	}
	return nil
}
