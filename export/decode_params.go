package export

import (
	"fmt"
	"slices"

	pb "github.com/jaxsh/jaxsh/export/exportpb"
	"github.com/jaxsh/jaxsh/trace"
)

// params rebuilds an equation's params by the kinds the primitive
// declares. Whether the values make sense together is the primitive's
// rule's business (Bind runs it).
func (d *decoder) params(prim *trace.Primitive, ps []*pb.Param, depth int) (trace.Params, error) {
	out := trace.Params{}
	for _, p := range ps {
		name := p.GetName()
		i := slices.IndexFunc(prim.Params, func(s trace.ParamSpec) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown param %q", name)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("param %s given twice", name)
		}
		v, err := d.param(prim.Params[i], p, depth)
		if err != nil {
			return nil, fmt.Errorf("param %s: %v", name, err)
		}
		out[name] = v
	}
	return out, nil
}

func (d *decoder) param(spec trace.ParamSpec, p *pb.Param, depth int) (any, error) {
	if _, none := p.GetValue().(*pb.Param_None); none {
		return nil, nil // Bind rejects None where the spec does not allow it
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("a %s param stored as %T", spec.Kind, p.GetValue())
	}
	switch spec.Kind {
	case trace.ParamBool:
		if v, ok := p.GetValue().(*pb.Param_BoolValue); ok {
			return v.BoolValue, nil
		}
	case trace.ParamInt:
		if v, ok := p.GetValue().(*pb.Param_IntValue); ok {
			return intParam(v.IntValue)
		}
	case trace.ParamNumber:
		switch v := p.GetValue().(type) {
		case *pb.Param_BoolValue:
			return v.BoolValue, nil
		case *pb.Param_IntValue:
			return intParam(v.IntValue)
		case *pb.Param_FloatValue:
			return v.FloatValue, nil
		}
	case trace.ParamString:
		if v, ok := p.GetValue().(*pb.Param_StringValue); ok {
			return v.StringValue, nil
		}
	case trace.ParamIdent:
		if v, ok := p.GetValue().(*pb.Param_Ident); ok {
			return trace.Ident(v.Ident), nil
		}
	case trace.ParamDType:
		if v, ok := p.GetValue().(*pb.Param_Dtype); ok {
			return trace.ParseDType(v.Dtype)
		}
	case trace.ParamInts:
		if v, ok := p.GetValue().(*pb.Param_Ints); ok {
			return decodeInts(v.Ints.GetValues())
		}
	case trace.ParamAVals:
		if v, ok := p.GetValue().(*pb.Param_Avals); ok {
			return decodeAVals(v.Avals.GetValues())
		}
	case trace.ParamJaxpr:
		if v, ok := p.GetValue().(*pb.Param_Jaxpr); ok {
			return d.jaxpr(v.Jaxpr, nil, depth+1)
		}
	case trace.ParamJaxprs:
		if v, ok := p.GetValue().(*pb.Param_Jaxprs); ok {
			js := make([]*trace.Jaxpr, len(v.Jaxprs.GetValues()))
			for i, pj := range v.Jaxprs.GetValues() {
				j, err := d.jaxpr(pj, nil, depth+1)
				if err != nil {
					return nil, fmt.Errorf("jaxpr %d: %v", i, err)
				}
				js[i] = j
			}
			return js, nil
		}
	case trace.ParamDotDims:
		if v, ok := p.GetValue().(*pb.Param_DotDims); ok {
			return decodeDotDims(v.DotDims)
		}
	case trace.ParamGatherDims:
		if v, ok := p.GetValue().(*pb.Param_GatherDims); ok {
			return decodeGatherDims(v.GatherDims)
		}
	case trace.ParamScatterDims:
		if v, ok := p.GetValue().(*pb.Param_ScatterDims); ok {
			return decodeScatterDims(v.ScatterDims)
		}
	case trace.ParamGatherMode:
		if v, ok := p.GetValue().(*pb.Param_GatherMode); ok {
			for m, name := range gatherModeNames {
				if name == v.GatherMode {
					return m, nil
				}
			}
			return nil, fmt.Errorf("unknown gather mode %q", v.GatherMode)
		}
	case trace.ParamPadding:
		if v, ok := p.GetValue().(*pb.Param_Padding); ok {
			var c trace.PaddingConfig
			for _, pd := range v.Padding.GetDims() {
				xs, err := decodeInts([]int64{pd.GetLo(), pd.GetHi(), pd.GetInterior()})
				if err != nil {
					return nil, err
				}
				c = append(c, trace.PadDim{Lo: xs[0], Hi: xs[1], Interior: xs[2]})
			}
			return c, nil
		}
	case trace.ParamPrecision:
		if v, ok := p.GetValue().(*pb.Param_Precision); ok {
			lhs, rhs := slices.Index(precisionNames, v.Precision.GetLhs()), slices.Index(precisionNames, v.Precision.GetRhs())
			if lhs < 0 || rhs < 0 {
				return nil, fmt.Errorf("unknown precision (%q, %q)", v.Precision.GetLhs(), v.Precision.GetRhs())
			}
			return trace.PrecisionConfig{trace.Precision(lhs), trace.Precision(rhs)}, nil
		}
	case trace.ParamRounding:
		if v, ok := p.GetValue().(*pb.Param_Rounding); ok {
			return trace.RoundingMethod(v.Rounding), nil
		}
	case trace.ParamCallback:
		if v, ok := p.GetValue().(*pb.Param_Callback); ok {
			c := v.Callback
			bind := d.callbacks[c.GetName()]
			if bind == nil { // checkBindings ran first; this is a safeguard
				return nil, fmt.Errorf("host callback %s is not bound", c.GetName())
			}
			cb, err := bind(c.GetKind(), c.GetSpec())
			if err != nil {
				return nil, fmt.Errorf("binding host callback %s: %v", c.GetName(), err)
			}
			if cb == nil || exportName(cb) != c.GetName() {
				return nil, fmt.Errorf("binding host callback %s gave a callback of another name", c.GetName())
			}
			return cb, nil
		}
	case trace.ParamTransforms:
		if v, ok := p.GetValue().(*pb.Param_Transforms); ok {
			ts := trace.Transforms{}
			for _, pt := range v.Transforms.GetValues() {
				dims, err := decodeInts(pt.GetBatchDims())
				if err != nil {
					return nil, err
				}
				ts = append(ts, trace.Transform{Name: pt.GetName(), BatchDims: dims})
			}
			return ts, nil
		}
	default:
		return nil, fmt.Errorf("params of kind %s are not in format version %d", spec.Kind, FormatVersion)
	}
	return bad()
}

func intParam(x int64) (any, error) {
	xs, err := decodeInts([]int64{x})
	if err != nil {
		return nil, err
	}
	return xs[0], nil
}

func decodeIntLists(lists ...[]int64) ([][]int, error) {
	out := make([][]int, len(lists))
	for i, l := range lists {
		xs, err := decodeInts(l)
		if err != nil {
			return nil, err
		}
		out[i] = xs
	}
	return out, nil
}

func decodeDotDims(p *pb.DotDims) (any, error) {
	l, err := decodeIntLists(p.GetLhsContracting(), p.GetRhsContracting(), p.GetLhsBatch(), p.GetRhsBatch())
	if err != nil {
		return nil, err
	}
	return trace.DotDimensionNumbers{LhsContracting: l[0], RhsContracting: l[1], LhsBatch: l[2], RhsBatch: l[3]}, nil
}

func decodeGatherDims(p *pb.GatherDims) (any, error) {
	l, err := decodeIntLists(p.GetOffsetDims(), p.GetCollapsedSliceDims(), p.GetStartIndexMap(),
		p.GetOperandBatchingDims(), p.GetStartIndicesBatchingDims())
	if err != nil {
		return nil, err
	}
	return trace.GatherDimensionNumbers{OffsetDims: l[0], CollapsedSliceDims: l[1], StartIndexMap: l[2],
		OperandBatchingDims: l[3], StartIndicesBatchingDims: l[4]}, nil
}

func decodeScatterDims(p *pb.ScatterDims) (any, error) {
	l, err := decodeIntLists(p.GetUpdateWindowDims(), p.GetInsertedWindowDims(), p.GetScatterDimsToOperandDims(),
		p.GetOperandBatchingDims(), p.GetScatterIndicesBatchingDims())
	if err != nil {
		return nil, err
	}
	return trace.ScatterDimensionNumbers{UpdateWindowDims: l[0], InsertedWindowDims: l[1], ScatterDimsToOperandDims: l[2],
		OperandBatchingDims: l[3], ScatterIndicesBatchingDims: l[4]}, nil
}
