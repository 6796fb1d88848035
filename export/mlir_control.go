package export

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// Control flow and host operations. Ordered effects inside a region
// thread their kinds' tokens through it: a case returns them after its
// outputs, a while loop carries them.

// effectKinds lists the ordered effect kinds of jaxprs, sorted.
func effectKinds(js ...*trace.Jaxpr) []string {
	var kinds []string
	for _, j := range js {
		for _, e := range j.Effects.Ordered() {
			kinds = append(kinds, e.Kind)
		}
	}
	slices.Sort(kinds)
	return slices.Compact(kinds)
}

func (w *mlirWriter) cond(e *trace.Eqn, in []value, tokens map[string]value) ([]value, error) {
	branches, _ := trace.ParamAs[[]*trace.Jaxpr](e.Params, "branches")
	kinds := effectKinds(branches...)
	var types []string
	for _, k := range kinds {
		if _, ok := tokens[k]; !ok {
			return nil, fmt.Errorf("an ordered %s effect without a token", k)
		}
		types = append(types, tokenType)
	}
	for _, o := range e.Out {
		types = append(types, tensorType(o.Aval()))
	}
	regions := make([]func() error, len(branches))
	for i, b := range branches {
		regions[i] = func() error {
			inner := maps(tokens)
			outs, err := w.jaxpr(b, in[1:], inner)
			if err != nil {
				return err
			}
			var rets []value
			for _, k := range kinds {
				rets = append(rets, inner[k])
			}
			_, err = w.op("stablehlo.return", append(rets, outs...), "", nil)
			return err
		}
	}
	res, err := w.op("stablehlo.case", in[:1], "", types, regions...)
	if err != nil {
		return nil, err
	}
	for i, k := range kinds {
		tokens[k] = res[i]
	}
	return res[len(kinds):], nil
}

func maps(m map[string]value) map[string]value {
	out := make(map[string]value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// while carries the cond and body constants unchanged, the tokens of the
// body's ordered effects, and the carry.
func (w *mlirWriter) while(e *trace.Eqn, in []value, tokens map[string]value) ([]value, error) {
	p := e.Params
	condJ, bodyJ := p.Jaxpr("cond_jaxpr"), p.Jaxpr("body_jaxpr")
	if len(condJ.Effects.Ordered()) > 0 {
		return nil, fmt.Errorf("ordered effects in a while loop's condition have no StableHLO lowering")
	}
	cn, bn := p.Int("cond_nconsts"), p.Int("body_nconsts")
	kinds := effectKinds(bodyJ)
	var operands []value
	for _, k := range kinds {
		operands = append(operands, tokens[k])
	}
	nt := len(kinds)
	operands = append(operands, in...)
	types := make([]string, len(operands))
	for i, o := range operands {
		types[i] = o.typ
	}
	condRegion := func() error {
		args := w.block(types)
		vals := args[nt:]
		outs, err := w.jaxpr(condJ, append(slices.Clone(vals[:cn]), vals[cn+bn:]...), map[string]value{})
		if err != nil {
			return err
		}
		_, err = w.op("stablehlo.return", outs, "", nil)
		return err
	}
	bodyRegion := func() error {
		args := w.block(types)
		inner := map[string]value{}
		for i, k := range kinds {
			inner[k] = args[i]
		}
		vals := args[nt:]
		outs, err := w.jaxpr(bodyJ, slices.Clone(vals[cn:]), inner)
		if err != nil {
			return err
		}
		var rets []value
		for _, k := range kinds {
			rets = append(rets, inner[k])
		}
		rets = append(append(rets, vals[:cn+bn]...), outs...)
		_, err = w.op("stablehlo.return", rets, "", nil)
		return err
	}
	res, err := w.op("stablehlo.while", operands, "", types, condRegion, bodyRegion)
	if err != nil {
		return nil, err
	}
	for i, k := range kinds {
		tokens[k] = res[i]
	}
	return res[nt+cn+bn:], nil
}

// scan becomes a while loop over a counter, as JAX lowers it: each
// iteration slices its xs at the counter, runs the body and writes its ys
// into buffers the loop carries.
func (w *mlirWriter) scan(e *trace.Eqn, in []value, tokens map[string]value) ([]value, error) {
	p := e.Params
	body := p.Jaxpr("jaxpr")
	nc, ncar, length, reverse := p.Int("num_consts"), p.Int("num_carry"), p.Int("length"), p.Bool("reverse")
	kinds := effectKinds(body)
	nt := len(kinds)
	i32 := "tensor<i32>"
	ys := e.Out[ncar:]
	var operands []value
	operands = append(operands, w.scalar(trace.Int32, int64(0)))
	for _, k := range kinds {
		operands = append(operands, tokens[k])
	}
	operands = append(operands, in...)
	for _, y := range ys {
		zero := w.scalar(y.Aval().DType, int64(0))
		if y.Aval().DType == trace.Bool {
			zero = w.scalar(trace.Bool, false)
		}
		operands = append(operands, w.broadcastTo(zero, trace.AVal{Shape: trace.Shape{}, DType: y.Aval().DType}, y.Aval().Shape))
	}
	types := make([]string, len(operands))
	for i, o := range operands {
		types[i] = o.typ
	}
	nx := len(in) - nc - ncar
	condRegion := func() error {
		args := w.block(types)
		n := w.scalar(trace.Int32, int64(length))
		lt := w.op1("stablehlo.compare", []value{args[0], n}, compareAttrs("LT", trace.Int32), "tensor<i1>")
		_, err := w.op("stablehlo.return", []value{lt}, "", nil)
		return err
	}
	bodyRegion := func() error {
		args := w.block(types)
		i := args[0]
		inner := map[string]value{}
		for k, kind := range kinds {
			inner[kind] = args[1+k]
		}
		vals := args[1+nt:]
		consts, carry, xs, bufs := vals[:nc], vals[nc:nc+ncar], vals[nc+ncar:nc+ncar+nx], vals[nc+ncar+nx:]
		idx := i
		if reverse {
			idx = w.op1("stablehlo.subtract", []value{w.scalar(trace.Int32, int64(length-1)), i}, "", i32)
		}
		zero := w.scalar(trace.Int32, int64(0))
		bodyIn := append(slices.Clone(consts), carry...)
		for k, x := range xs {
			a := e.In[nc+ncar+k].Aval()
			starts := []value{idx}
			sizes := []int{1}
			for range a.Shape[1:] {
				starts = append(starts, zero)
			}
			sizes = append(sizes, a.Shape[1:]...)
			row := w.op1("stablehlo.dynamic_slice", append([]value{x}, starts...), "slice_sizes = "+i64Array(sizes),
				tensorType(a.WithShape(append(trace.Shape{1}, a.Shape[1:]...))))
			bodyIn = append(bodyIn, w.op1("stablehlo.reshape", []value{row}, "", tensorType(a.WithShape(a.Shape[1:].Clone()))))
		}
		outs, err := w.jaxpr(body, bodyIn, inner)
		if err != nil {
			return err
		}
		var rets []value
		rets = append(rets, w.op1("stablehlo.add", []value{i, w.scalar(trace.Int32, int64(1))}, "", i32))
		for _, k := range kinds {
			rets = append(rets, inner[k])
		}
		rets = append(append(append(rets, consts...), outs[:ncar]...), xs...)
		for k, y := range outs[ncar:] {
			a := ys[k].Aval()
			row := w.op1("stablehlo.reshape", []value{y}, "", tensorType(a.WithShape(append(trace.Shape{1}, a.Shape[1:]...))))
			starts := []value{idx}
			for range a.Shape[1:] {
				starts = append(starts, zero)
			}
			rets = append(rets, w.op1("stablehlo.dynamic_update_slice", append([]value{bufs[k], row}, starts...), "", tensorType(a)))
		}
		_, err = w.op("stablehlo.return", rets, "", nil)
		return err
	}
	res, err := w.op("stablehlo.while", operands, "", types, condRegion, bodyRegion)
	if err != nil {
		return nil, err
	}
	for k, kind := range kinds {
		tokens[kind] = res[1+k]
	}
	carryStart := 1 + nt + nc
	out := slices.Clone(res[carryStart : carryStart+ncar])
	return append(out, res[carryStart+ncar+nx:]...), nil
}

// hostOp writes a host operation as a custom call named after it, with
// the callback's name (or print's format) as backend_config.
func (w *mlirWriter) hostOp(e *trace.Eqn, in []value, tokens map[string]value) ([]value, error) {
	config := ""
	switch cb := e.Params["callback"].(type) {
	case trace.Callback:
		config = cb.CallbackName()
	default:
		config = e.Params.Str("fmt")
	}
	var ordered *trace.Effect
	for _, eff := range e.Effects {
		if eff.Ordered {
			ordered = &eff
		}
	}
	var operands []value
	var results []string
	if ordered != nil {
		tok, ok := tokens[ordered.Kind]
		if !ok {
			return nil, fmt.Errorf("an ordered %s effect without a token", ordered.Kind)
		}
		operands = append(operands, tok)
		results = append(results, tokenType)
	}
	for i, v := range in {
		if !e.In[i].Aval().IsToken() {
			operands = append(operands, v)
		}
	}
	var arrays []trace.AVal
	if e.Prim.Name == "call" {
		arrays, _ = trace.ParamAs[[]trace.AVal](e.Params, "result_avals")
	}
	for _, a := range arrays {
		results = append(results, tensorType(a))
	}
	attrs := fmt.Sprintf("api_version = 1 : i32, backend_config = %s, call_target_name = %s, has_side_effect = true",
		mlirString(config), mlirString("jaxsh."+e.Prim.Name))
	res, err := w.op("stablehlo.custom_call", operands, attrs, results)
	if err != nil {
		return nil, err
	}
	if ordered != nil {
		tokens[ordered.Kind], res = res[0], res[1:]
	}
	switch e.Prim.Name {
	case "debug_print":
		if ordered != nil {
			return []value{tokens[ordered.Kind]}, nil
		}
		return []value{w.op1("stablehlo.after_all", nil, "", tokenType)}, nil
	case "id_tap":
		return in, nil
	}
	if len(e.Out) > len(res) { // a call given a token operand returns it first
		return append([]value{tokens[ordered.Kind]}, res...), nil
	}
	return res, nil
}
