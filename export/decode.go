package export

import (
	"fmt"
	"slices"

	pb "github.com/jaxsh/jaxsh/export/exportpb"
	"github.com/jaxsh/jaxsh/trace"
)

// A decoder rebuilds an Exported from its payload. Every equation goes
// through the primitive's own checks (trace.Builder.Bind), so a loaded
// jaxpr is as well-formed as a traced one, and the avals and effects the
// artifact recorded must be those the rules give now.
type decoder struct {
	callbacks map[string]BindFunc
}

// maxJaxprDepth bounds the nesting of jaxprs in params (and of VJP
// artifacts), far beyond what programs need.
const maxJaxprDepth = 64

// maxElements bounds an array's element count, so that a crafted shape
// cannot overflow the size arithmetic of later passes.
const maxElements = 1 << 48

func (d *decoder) artifact(a *pb.Artifact, depth int) (*Exported, error) {
	if depth > maxJaxprDepth {
		return nil, formatErrorf("VJP artifacts nested deeper than %d", maxJaxprDepth)
	}
	e := &Exported{
		FunName:                  a.GetFunName(),
		Platforms:                slices.Clone(a.GetPlatforms()),
		CallingConventionVersion: int(a.GetCallingConventionVersion()),
		NrDevices:                int(a.GetNrDevices()),
		loaded:                   true,
	}
	if err := checkPlatforms(e.Platforms); err != nil {
		return nil, formatErrorf("%v", err)
	}
	if e.NrDevices != 1 {
		return nil, formatErrorf("the artifact was exported for %d devices; jaxsh runs artifacts for 1", e.NrDevices)
	}
	for _, c := range a.GetDisabledChecks() {
		if !DisabledCheck(c).valid() {
			return nil, formatErrorf("unknown disabled check %q", c)
		}
		e.DisabledChecks = append(e.DisabledChecks, DisabledCheck(c))
	}
	var err error
	if e.InAvals, err = decodeAVals(a.GetInAvals()); err != nil {
		return nil, formatErrorf("in_avals: %v", err)
	}
	if e.OutAvals, err = decodeAVals(a.GetOutAvals()); err != nil {
		return nil, formatErrorf("out_avals: %v", err)
	}
	if e.OrderedEffects, err = decodeEffects(a.GetOrderedEffects()); err != nil {
		return nil, formatErrorf("ordered_effects: %v", err)
	}
	if e.UnorderedEffects, err = decodeEffects(a.GetUnorderedEffects()); err != nil {
		return nil, formatErrorf("unordered_effects: %v", err)
	}
	if a.InTree != nil {
		if e.InTree, err = decodeTree(a.InTree, 0); err != nil {
			return nil, formatErrorf("in_tree: %v", err)
		}
	}
	if a.OutTree != nil {
		if e.OutTree, err = decodeTree(a.OutTree, 0); err != nil {
			return nil, formatErrorf("out_tree: %v", err)
		}
	}
	if a.Jaxpr == nil {
		return nil, formatErrorf("the artifact has no program")
	}
	consts := make([]any, len(a.GetConsts()))
	for i, c := range a.GetConsts() {
		aval, err := decodeAVal(c.GetAval())
		if err != nil {
			return nil, formatErrorf("constant %d: %v", i, err)
		}
		if aval.IsToken() {
			return nil, formatErrorf("constant %d is a token", i)
		}
		if want := aval.Size() * aval.DType.Size(); len(c.GetData()) != want {
			return nil, formatErrorf("constant %d (%s) has %d bytes, want %d", i, aval, len(c.GetData()), want)
		}
		consts[i] = &Constant{AVal: aval, Data: c.GetData()}
	}
	if e.Jaxpr, err = d.jaxpr(a.Jaxpr, consts, 0); err != nil {
		return nil, formatErrorf("%v", err)
	}
	if err := e.checkMetadata(); err != nil {
		return nil, formatErrorf("%v", err)
	}
	if a.Vjp != nil {
		vjp, err := d.artifact(a.Vjp, depth+1)
		if err != nil {
			return nil, err
		}
		e.storedVJP = vjp
		e.vjp = func() (*Exported, error) { return vjp, nil }
	}
	return e, nil
}

// checkMetadata requires the recorded metadata to describe the program.
func (e *Exported) checkMetadata() error {
	j := e.Jaxpr
	if !avalsEqual(e.InAvals, j.InAvals()) {
		return fmt.Errorf("in_avals %s do not match the program's inputs %s", avalTuple(e.InAvals), avalTuple(j.InAvals()))
	}
	if !avalsEqual(e.OutAvals, j.OutAvals()) {
		return fmt.Errorf("out_avals %s do not match the program's outputs %s", avalTuple(e.OutAvals), avalTuple(j.OutAvals()))
	}
	ordered, unordered := splitEffects(j.Effects)
	if !ordered.Equal(e.OrderedEffects) || !unordered.Equal(e.UnorderedEffects) {
		return fmt.Errorf("the recorded effects %s %s are not the program's %s",
			effectTuple(e.OrderedEffects), effectTuple(e.UnorderedEffects), j.Effects)
	}
	if e.InTree != nil && e.InTree.NumLeaves() != len(e.InAvals) {
		return fmt.Errorf("in_tree %s has %d leaves for %d inputs", e.InTree, e.InTree.NumLeaves(), len(e.InAvals))
	}
	if e.OutTree != nil && e.OutTree.NumLeaves() != len(e.OutAvals) {
		return fmt.Errorf("out_tree %s has %d leaves for %d outputs", e.OutTree, e.OutTree.NumLeaves(), len(e.OutAvals))
	}
	return nil
}

func avalsEqual(a, b []trace.AVal) bool {
	return slices.EqualFunc(a, b, trace.AVal.Equal)
}

func decodeAVal(p *pb.AVal) (trace.AVal, error) {
	if p == nil {
		return trace.AVal{}, fmt.Errorf("missing aval")
	}
	dt, err := trace.ParseDType(p.GetDtype())
	if err != nil {
		return trace.AVal{}, err
	}
	shape := make(trace.Shape, len(p.GetShape()))
	size := int64(1)
	for i, d := range p.GetShape() {
		if d < 0 || d > maxElements {
			return trace.AVal{}, fmt.Errorf("dimension %d out of range in a shape", d)
		}
		if d > 0 && size > maxElements/d {
			return trace.AVal{}, fmt.Errorf("shape %v has more than %d elements", p.GetShape(), int64(maxElements))
		}
		size *= d
		shape[i] = int(d)
	}
	a := trace.AVal{Shape: shape, DType: dt, Weak: p.GetWeak()}
	if dt == trace.Token && (len(shape) != 0 || a.Weak) {
		return trace.AVal{}, fmt.Errorf("a token with a shape or weak type")
	}
	if a.Weak && dt == trace.Bool {
		return trace.AVal{}, fmt.Errorf("a weakly typed bool")
	}
	return a, nil
}

func decodeAVals(ps []*pb.AVal) ([]trace.AVal, error) {
	out := make([]trace.AVal, len(ps))
	for i, p := range ps {
		a, err := decodeAVal(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func decodeEffects(ps []*pb.Effect) (trace.Effects, error) {
	var out []trace.Effect
	for _, p := range ps {
		if p.GetKind() == "" {
			return nil, fmt.Errorf("an effect without a kind")
		}
		out = append(out, trace.Effect{Kind: p.GetKind(), Ordered: p.GetOrdered()})
	}
	return trace.NewEffects(out...), nil
}

func decodeTree(p *pb.TreeDef, depth int) (*TreeDef, error) {
	if depth > maxTreeDepth {
		return nil, fmt.Errorf("pytree structure nested deeper than %d", maxTreeDepth)
	}
	t := &TreeDef{Kind: TreeKind(p.GetKind()), Keys: slices.Clone(p.GetKeys())}
	for _, c := range p.GetChildren() {
		child, err := decodeTree(c, depth+1)
		if err != nil {
			return nil, err
		}
		t.Children = append(t.Children, child)
	}
	if depth == 0 {
		if err := t.check(0); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func decodeInts(xs []int64) ([]int, error) {
	out := make([]int, len(xs))
	for i, x := range xs {
		if x < -maxElements || x > maxElements {
			return nil, fmt.Errorf("integer %d out of range", x)
		}
		out[i] = int(x)
	}
	return out, nil
}

// jaxpr rebuilds one jaxpr. consts are the constant payloads of the
// outermost jaxpr; nested ones have none.
func (d *decoder) jaxpr(p *pb.Jaxpr, consts []any, depth int) (*trace.Jaxpr, error) {
	if depth > maxJaxprDepth {
		return nil, fmt.Errorf("jaxprs nested deeper than %d", maxJaxprDepth)
	}
	if len(p.GetConstAvals()) != len(consts) {
		return nil, fmt.Errorf("the program has %d constants, the artifact stores %d values", len(p.GetConstAvals()), len(consts))
	}
	b := trace.NewBuilder()
	var vars []*trace.Var
	for i, pa := range p.GetConstAvals() {
		aval, err := decodeAVal(pa)
		if err != nil {
			return nil, fmt.Errorf("constant %d: %v", i, err)
		}
		if c := consts[i].(*Constant); !c.AVal.Equal(aval) {
			return nil, fmt.Errorf("constant %d is %s, its value %s", i, aval, c.AVal)
		}
		vars = append(vars, b.Const(consts[i], aval))
	}
	for i, pa := range p.GetInAvals() {
		aval, err := decodeAVal(pa)
		if err != nil {
			return nil, fmt.Errorf("input %d: %v", i, err)
		}
		vars = append(vars, b.Input(aval))
	}
	atom := func(pa *pb.Atom) (trace.Atom, error) {
		switch a := pa.GetAtom().(type) {
		case *pb.Atom_Var:
			if int64(a.Var) >= int64(len(vars)) {
				return nil, fmt.Errorf("variable %d used before it is bound", a.Var)
			}
			return vars[a.Var], nil
		case *pb.Atom_Literal:
			return decodeLiteral(a.Literal)
		}
		return nil, fmt.Errorf("an operand that is neither a variable nor a literal")
	}
	var eqnEffects []trace.Effects // as recorded, checked once the jaxpr is built
	for i, pe := range p.GetEqns() {
		prim := trace.Lookup(pe.GetPrimitive())
		if prim == nil {
			return nil, fmt.Errorf("equation %d: unknown primitive %q (written by a newer jaxsh?)", i, pe.GetPrimitive())
		}
		fail := func(err error) (*trace.Jaxpr, error) {
			return nil, fmt.Errorf("equation %d (%s): %v", i, prim.Name, err)
		}
		in := make([]trace.Atom, len(pe.GetIn()))
		for k, pa := range pe.GetIn() {
			a, err := atom(pa)
			if err != nil {
				return fail(fmt.Errorf("operand %d: %v", k, err))
			}
			in[k] = a
		}
		params, err := d.params(prim, pe.GetParams(), depth)
		if err != nil {
			return fail(err)
		}
		var pos trace.Pos
		if pp := pe.GetPos(); pp != nil {
			pos = trace.Pos{File: pp.GetFile(), Line: int(pp.GetLine()), Col: int(pp.GetCol())}
		}
		outs, err := b.Bind(prim.Name, in, params, pos)
		if err != nil {
			return fail(err)
		}
		recorded, err := decodeAVals(pe.GetOut())
		if err != nil {
			return fail(err)
		}
		got := make([]trace.AVal, len(outs))
		for k, v := range outs {
			got[k] = v.Aval()
		}
		if !avalsEqual(recorded, got) {
			return fail(fmt.Errorf("the artifact records results %s, the primitive's rule gives %s", avalTuple(recorded), avalTuple(got)))
		}
		effects, err := decodeEffects(pe.GetEffects())
		if err != nil {
			return fail(err)
		}
		eqnEffects = append(eqnEffects, effects)
		vars = append(vars, outs...)
	}
	outs := make([]trace.Atom, len(p.GetOuts()))
	for i, pa := range p.GetOuts() {
		a, err := atom(pa)
		if err != nil {
			return nil, fmt.Errorf("output %d: %v", i, err)
		}
		outs[i] = a
	}
	j, err := b.Build(outs)
	if err != nil {
		return nil, err
	}
	for i, e := range j.Eqns {
		if !eqnEffects[i].Equal(e.Effects) {
			return nil, fmt.Errorf("equation %d (%s): the artifact records effects %s, the primitive's rule gives %s",
				i, e.Prim.Name, eqnEffects[i], e.Effects)
		}
	}
	effects, err := decodeEffects(p.GetEffects())
	if err != nil {
		return nil, err
	}
	if !effects.Equal(j.Effects) {
		return nil, fmt.Errorf("the artifact records effects %s, the equations have %s", effects, j.Effects)
	}
	return j, nil
}

func decodeLiteral(p *pb.Literal) (*trace.Literal, error) {
	aval, err := decodeAVal(p.GetAval())
	if err != nil {
		return nil, err
	}
	if len(aval.Shape) != 0 {
		return nil, fmt.Errorf("a literal of shape %v", aval.Shape)
	}
	var v any
	switch x := p.GetValue().(type) {
	case *pb.Literal_BoolValue:
		v = x.BoolValue
	case *pb.Literal_IntValue:
		v = x.IntValue
	case *pb.Literal_FloatValue:
		v = x.FloatValue
	case *pb.Literal_ComplexValue:
		v = complex(x.ComplexValue.GetRe(), x.ComplexValue.GetIm())
	default:
		return nil, fmt.Errorf("a literal without a value")
	}
	lit, err := trace.NewLiteral(v, aval.DType, aval.Weak)
	if err != nil {
		return nil, err
	}
	if !lit.Aval().Equal(aval) {
		return nil, fmt.Errorf("literal %v recorded as %s", lit, aval)
	}
	// NewLiteral widens an integer into a float dtype; the artifact must
	// have stored the value in the dtype's own kind.
	if fmt.Sprintf("%T", lit.Value()) != fmt.Sprintf("%T", v) {
		return nil, fmt.Errorf("literal of dtype %s stored as %T", aval.DType, v)
	}
	return lit, nil
}
