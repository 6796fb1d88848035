package export

import (
	"fmt"
	"slices"

	pb "github.com/jaxsh/jaxsh/export/exportpb"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

func encodeArtifact(e *Exported, vjpOrder int) (*pb.Artifact, error) {
	j, err := encodeJaxpr(e.Jaxpr, 0)
	if err != nil {
		return nil, err
	}
	a := &pb.Artifact{
		FunName:                  e.FunName,
		InAvals:                  encodeAVals(e.InAvals),
		OutAvals:                 encodeAVals(e.OutAvals),
		InTree:                   encodeTree(e.InTree),
		OutTree:                  encodeTree(e.OutTree),
		Platforms:                slices.Clone(e.Platforms),
		OrderedEffects:           encodeEffects(e.OrderedEffects),
		UnorderedEffects:         encodeEffects(e.UnorderedEffects),
		CallingConventionVersion: uint32(e.CallingConventionVersion),
		NrDevices:                uint32(e.NrDevices),
		Jaxpr:                    j,
	}
	for _, c := range e.DisabledChecks {
		a.DisabledChecks = append(a.DisabledChecks, string(c))
	}
	for i, c := range e.Jaxpr.Consts {
		aval := e.Jaxpr.ConstVars[i].Aval()
		var data []byte
		switch c := c.(type) {
		case *Constant:
			data = c.Data
		case jit.Buffer:
			if data, err = jit.ToHost(c); err != nil {
				return nil, fmt.Errorf("constant %d: %w", i, err)
			}
		default:
			return nil, fmt.Errorf("constant %d is a %T, not an array", i, c)
		}
		a.Consts = append(a.Consts, &pb.Constant{Aval: encodeAVal(aval), Data: data})
	}
	if vjpOrder > 0 {
		vjp, err := e.VJP()
		if err != nil {
			return nil, err
		}
		if a.Vjp, err = encodeArtifact(vjp, vjpOrder-1); err != nil {
			return nil, fmt.Errorf("vjp: %w", err)
		}
	}
	return a, nil
}

func encodeAVal(a trace.AVal) *pb.AVal {
	out := &pb.AVal{Dtype: a.DType.Name(), Weak: a.Weak}
	for _, d := range a.Shape {
		out.Shape = append(out.Shape, int64(d))
	}
	return out
}

func encodeAVals(avals []trace.AVal) []*pb.AVal {
	out := make([]*pb.AVal, len(avals))
	for i, a := range avals {
		out[i] = encodeAVal(a)
	}
	return out
}

func encodeEffects(effs trace.Effects) []*pb.Effect {
	out := make([]*pb.Effect, len(effs))
	for i, e := range effs {
		out[i] = &pb.Effect{Kind: e.Kind, Ordered: e.Ordered}
	}
	return out
}

func encodeTree(t *TreeDef) *pb.TreeDef {
	if t == nil {
		return nil
	}
	out := &pb.TreeDef{Kind: pb.TreeDef_Kind(t.Kind), Keys: slices.Clone(t.Keys)}
	for _, c := range t.Children {
		out.Children = append(out.Children, encodeTree(c))
	}
	return out
}

func encodeInts(xs []int) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// jaxprEncoder numbers one jaxpr's variables in the order they are bound.
type jaxprEncoder struct {
	num map[*trace.Var]uint32
}

func (x *jaxprEncoder) bind(v *trace.Var) { x.num[v] = uint32(len(x.num)) }

func encodeJaxpr(j *trace.Jaxpr, depth int) (*pb.Jaxpr, error) {
	if depth > 0 && len(j.ConstVars) > 0 {
		return nil, fmt.Errorf("a nested jaxpr captures %d constants; only the outermost may", len(j.ConstVars))
	}
	x := &jaxprEncoder{num: map[*trace.Var]uint32{}}
	out := &pb.Jaxpr{Effects: encodeEffects(j.Effects)}
	for _, v := range j.ConstVars {
		x.bind(v)
		out.ConstAvals = append(out.ConstAvals, encodeAVal(v.Aval()))
	}
	for _, v := range j.InVars {
		x.bind(v)
		out.InAvals = append(out.InAvals, encodeAVal(v.Aval()))
	}
	for i, e := range j.Eqns {
		pe, err := x.eqn(e, depth)
		if err != nil {
			return nil, fmt.Errorf("equation %d (%s): %w", i, e.Prim.Name, err)
		}
		out.Eqns = append(out.Eqns, pe)
		for _, v := range e.Out {
			x.bind(v)
		}
	}
	for i, a := range j.OutVars {
		pa, err := x.atom(a)
		if err != nil {
			return nil, fmt.Errorf("output %d: %w", i, err)
		}
		out.Outs = append(out.Outs, pa)
	}
	return out, nil
}

func (x *jaxprEncoder) eqn(e *trace.Eqn, depth int) (*pb.Eqn, error) {
	out := &pb.Eqn{Primitive: e.Prim.Name, Effects: encodeEffects(e.Effects)}
	if e.Pos != (trace.Pos{}) {
		out.Pos = &pb.Pos{File: e.Pos.File, Line: int32(e.Pos.Line), Col: int32(e.Pos.Col)}
	}
	for i, a := range e.In {
		pa, err := x.atom(a)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %w", i, err)
		}
		out.In = append(out.In, pa)
	}
	for _, v := range e.Out {
		out.Out = append(out.Out, encodeAVal(v.Aval()))
	}
	names := make([]string, 0, len(e.Params))
	for name := range e.Params {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		i := slices.IndexFunc(e.Prim.Params, func(s trace.ParamSpec) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("param %s is not declared by the primitive", name)
		}
		p, err := encodeParam(e.Prim.Params[i], e.Params[name], depth)
		if err != nil {
			return nil, fmt.Errorf("param %s: %w", name, err)
		}
		out.Params = append(out.Params, p)
	}
	return out, nil
}

func (x *jaxprEncoder) atom(a trace.Atom) (*pb.Atom, error) {
	switch a := a.(type) {
	case *trace.Var:
		n, ok := x.num[a]
		if !ok {
			return nil, fmt.Errorf("variable %v is not bound in this jaxpr", a)
		}
		return &pb.Atom{Atom: &pb.Atom_Var{Var: n}}, nil
	case *trace.Literal:
		lit := &pb.Literal{Aval: encodeAVal(a.Aval())}
		switch v := a.Value().(type) {
		case bool:
			lit.Value = &pb.Literal_BoolValue{BoolValue: v}
		case int64:
			lit.Value = &pb.Literal_IntValue{IntValue: v}
		case float64:
			lit.Value = &pb.Literal_FloatValue{FloatValue: v}
		case complex128:
			lit.Value = &pb.Literal_ComplexValue{ComplexValue: &pb.Complex{Re: real(v), Im: imag(v)}}
		default:
			return nil, fmt.Errorf("literal of Go type %T", v)
		}
		return &pb.Atom{Atom: &pb.Atom_Literal{Literal: lit}}, nil
	}
	return nil, fmt.Errorf("operand of type %T", a)
}

// encodeParam stores one param value by its declared kind. A kind this
// format version does not know is an error, never a silent loss.
func encodeParam(spec trace.ParamSpec, v any, depth int) (*pb.Param, error) {
	p := &pb.Param{Name: spec.Name}
	if v == nil {
		p.Value = &pb.Param_None{None: &pb.None{}}
		return p, nil
	}
	bad := func() (*pb.Param, error) {
		return nil, fmt.Errorf("value of Go type %T for a %s param", v, spec.Kind)
	}
	switch spec.Kind {
	case trace.ParamBool:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_BoolValue{BoolValue: b}
	case trace.ParamInt:
		n, ok := v.(int)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_IntValue{IntValue: int64(n)}
	case trace.ParamNumber:
		switch n := v.(type) {
		case bool:
			p.Value = &pb.Param_BoolValue{BoolValue: n}
		case int:
			p.Value = &pb.Param_IntValue{IntValue: int64(n)}
		case float64:
			p.Value = &pb.Param_FloatValue{FloatValue: n}
		default:
			return bad()
		}
	case trace.ParamString:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_StringValue{StringValue: s}
	case trace.ParamIdent:
		s, ok := v.(trace.Ident)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_Ident{Ident: string(s)}
	case trace.ParamDType:
		d, ok := v.(trace.DType)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_Dtype{Dtype: d.Name()}
	case trace.ParamInts:
		xs, ok := v.([]int)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_Ints{Ints: &pb.Ints{Values: encodeInts(xs)}}
	case trace.ParamAVals:
		avals, ok := v.([]trace.AVal)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_Avals{Avals: &pb.AVals{Values: encodeAVals(avals)}}
	case trace.ParamJaxpr:
		j, ok := v.(*trace.Jaxpr)
		if !ok {
			return bad()
		}
		pj, err := encodeJaxpr(j, depth+1)
		if err != nil {
			return nil, err
		}
		p.Value = &pb.Param_Jaxpr{Jaxpr: pj}
	case trace.ParamJaxprs:
		js, ok := v.([]*trace.Jaxpr)
		if !ok {
			return bad()
		}
		list := &pb.Jaxprs{}
		for i, j := range js {
			pj, err := encodeJaxpr(j, depth+1)
			if err != nil {
				return nil, fmt.Errorf("jaxpr %d: %w", i, err)
			}
			list.Values = append(list.Values, pj)
		}
		p.Value = &pb.Param_Jaxprs{Jaxprs: list}
	case trace.ParamDotDims:
		d, ok := v.(trace.DotDimensionNumbers)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_DotDims{DotDims: &pb.DotDims{
			LhsContracting: encodeInts(d.LhsContracting), RhsContracting: encodeInts(d.RhsContracting),
			LhsBatch: encodeInts(d.LhsBatch), RhsBatch: encodeInts(d.RhsBatch),
		}}
	case trace.ParamGatherDims:
		g, ok := v.(trace.GatherDimensionNumbers)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_GatherDims{GatherDims: &pb.GatherDims{
			OffsetDims: encodeInts(g.OffsetDims), CollapsedSliceDims: encodeInts(g.CollapsedSliceDims),
			StartIndexMap: encodeInts(g.StartIndexMap), OperandBatchingDims: encodeInts(g.OperandBatchingDims),
			StartIndicesBatchingDims: encodeInts(g.StartIndicesBatchingDims),
		}}
	case trace.ParamScatterDims:
		s, ok := v.(trace.ScatterDimensionNumbers)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_ScatterDims{ScatterDims: &pb.ScatterDims{
			UpdateWindowDims: encodeInts(s.UpdateWindowDims), InsertedWindowDims: encodeInts(s.InsertedWindowDims),
			ScatterDimsToOperandDims: encodeInts(s.ScatterDimsToOperandDims), OperandBatchingDims: encodeInts(s.OperandBatchingDims),
			ScatterIndicesBatchingDims: encodeInts(s.ScatterIndicesBatchingDims),
		}}
	case trace.ParamGatherMode:
		m, ok := v.(trace.GatherScatterMode)
		name, known := gatherModeNames[m]
		if !ok || !known {
			return bad()
		}
		p.Value = &pb.Param_GatherMode{GatherMode: name}
	case trace.ParamPadding:
		c, ok := v.(trace.PaddingConfig)
		if !ok {
			return bad()
		}
		pad := &pb.Padding{}
		for _, d := range c {
			pad.Dims = append(pad.Dims, &pb.PadDim{Lo: int64(d.Lo), Hi: int64(d.Hi), Interior: int64(d.Interior)})
		}
		p.Value = &pb.Param_Padding{Padding: pad}
	case trace.ParamPrecision:
		c, ok := v.(trace.PrecisionConfig)
		if !ok || int(c[0]) >= len(precisionNames) || int(c[1]) >= len(precisionNames) {
			return bad()
		}
		p.Value = &pb.Param_Precision{Precision: &pb.Precision{Lhs: precisionNames[c[0]], Rhs: precisionNames[c[1]]}}
	case trace.ParamRounding:
		r, ok := v.(trace.RoundingMethod)
		if !ok {
			return bad()
		}
		p.Value = &pb.Param_Rounding{Rounding: int32(r)}
	case trace.ParamCallback:
		c, ok := v.(ExportableCallback)
		if !ok {
			name := "?"
			if cb, isCb := v.(trace.Callback); isCb {
				name = cb.CallbackName()
			}
			return nil, fmt.Errorf("host callback %s cannot be exported: it has no stored form", name)
		}
		spec, err := c.ExportSpec()
		if err != nil {
			return nil, fmt.Errorf("host callback %s: %w", c.CallbackName(), err)
		}
		p.Value = &pb.Param_Callback{Callback: &pb.Callback{Name: exportName(c), Kind: c.CallbackKind(), Spec: spec}}
	case trace.ParamTransforms:
		ts, ok := v.(trace.Transforms)
		if !ok {
			return bad()
		}
		list := &pb.Transforms{}
		for _, tr := range ts {
			list.Values = append(list.Values, &pb.Transform{Name: tr.Name, BatchDims: encodeInts(tr.BatchDims)})
		}
		p.Value = &pb.Param_Transforms{Transforms: list}
	default:
		return nil, fmt.Errorf("params of kind %s cannot be stored in format version %d", spec.Kind, FormatVersion)
	}
	return p, nil
}

// StorableParamKind reports whether this format version stores params of
// kind k.
func StorableParamKind(k trace.ParamKind) bool {
	switch k {
	case trace.ParamBool, trace.ParamInt, trace.ParamNumber, trace.ParamString, trace.ParamIdent,
		trace.ParamDType, trace.ParamInts, trace.ParamAVals, trace.ParamJaxpr, trace.ParamJaxprs,
		trace.ParamDotDims, trace.ParamGatherDims, trace.ParamScatterDims, trace.ParamGatherMode,
		trace.ParamPadding, trace.ParamPrecision, trace.ParamRounding, trace.ParamCallback, trace.ParamTransforms:
		return true
	}
	return false
}

var gatherModeNames = map[trace.GatherScatterMode]string{
	trace.GatherClip:            "CLIP",
	trace.GatherFillOrDrop:      "FILL_OR_DROP",
	trace.GatherPromiseInBounds: "PROMISE_IN_BOUNDS",
}

var precisionNames = []string{
	trace.PrecisionDefault: "DEFAULT",
	trace.PrecisionHigh:    "HIGH",
	trace.PrecisionHighest: "HIGHEST",
}
