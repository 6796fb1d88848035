package trace

import (
	"fmt"
	"strings"
)

// Host operations (print, taps, callbacks), which carry effects, and
// primitives that apply nested jaxprs.

func hostAndCallPrims() []*Primitive {
	return []*Primitive{
		{
			// print inside a trace. fmt holds the text with one {} per array
			// operand ({{ and }} for literal braces). An optional leading
			// token operand and the token result let the compiler chain
			// ordered effects.
			Name: "debug_print", Props: HostOp, MinIn: 0, MaxIn: -1,
			// per_element (debug.print's prints) makes vmap print once per
			// batch element, as JAX's debug.print does; without it a
			// print runs once with the whole batched value (SPEC §5).
			Params: []ParamSpec{{Name: "fmt", Kind: ParamString}, {Name: "ordered", Kind: ParamBool},
				{Name: "per_element", Kind: ParamBool, Omissible: true}},
			Rule: debugPrintRule,
			Effects: func(_ []AVal, p Params) Effects {
				if p.Bool("ordered") {
					return Effects{OrderedPrint}
				}
				return Effects{UnorderedPrint}
			},
		},
		{
			// id_tap: hands the operands to a host function and returns them.
			Name: "id_tap", Props: HostOp, MinIn: 1, MaxIn: -1,
			Params: []ParamSpec{{Name: "callback", Kind: ParamCallback}, {Name: "tap_with_device", Kind: ParamBool},
				{Name: "transforms", Kind: ParamTransforms, Omissible: true}},
			Rule: func(in []AVal, _ Params) ([]AVal, error) {
				if err := checkArray(in); err != nil {
					return nil, err
				}
				return append([]AVal(nil), in...), nil
			},
			Effects: func([]AVal, Params) Effects { return Effects{TapEffect} },
		},
		{
			// call: a host function whose results, of result_avals, feed back
			// into the computation.
			Name: "call", Props: HostOp, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "callback", Kind: ParamCallback},
				{Name: "result_avals", Kind: ParamAVals},
				{Name: "call_with_device", Kind: ParamBool},
				{Name: "ordered", Kind: ParamBool},
				// How the call batches under vmap (see the call batching
				// rule); absent or None: it does not.
				{Name: "vmap_method", Kind: ParamString, Optional: true, Omissible: true},
			},
			Rule: callRule,
			Effects: func(_ []AVal, p Params) Effects {
				if p.Bool("ordered") {
					return Effects{OrderedCall}
				}
				return Effects{UnorderedCall}
			},
		},
		{
			// A nested jit: applies jaxpr to the operands (which match its
			// inputs) and has its effects.
			Name: "jit", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params:     []ParamSpec{{Name: "name", Kind: ParamIdent}, {Name: "jaxpr", Kind: ParamJaxpr}},
			ParamOrder: []string{"name"},
			NamesLike:  "jaxpr",
			CallParam:  "jaxpr",
			Rule:       jitRule,
			Effects:    func(_ []AVal, p Params) Effects { return p.Jaxpr("jaxpr").Effects },
		},
		{
			// Starts a chain of compiler tokens (jit's tokens pass) where
			// the first ordered effect cannot.
			Name: "create_token", MinIn: 0, MaxIn: 0,
			Rule: func([]AVal, Params) ([]AVal, error) { return one(TokenAVal), nil },
		},
		{
			// Returns its operands; the compiler may not move computations
			// across it.
			Name: "optimization_barrier", MinIn: 0, MaxIn: -1,
			Rule: func(in []AVal, _ Params) ([]AVal, error) { return append([]AVal(nil), in...), nil },
		},
	}
}

func debugPrintRule(in []AVal, p Params) ([]AVal, error) {
	arrays := in
	if len(in) > 0 && in[0].IsToken() {
		arrays = in[1:]
	}
	if err := checkArray(arrays); err != nil {
		return nil, err
	}
	fields, err := countFormatFields(p.Str("fmt"))
	if err != nil {
		return nil, err
	}
	if fields != len(arrays) {
		return nil, fmt.Errorf("fmt %s has %d {} fields for %d arrays", pyString(p.Str("fmt")), fields, len(arrays))
	}
	return one(TokenAVal), nil
}

// countFormatFields counts the fields of a format string: automatic
// positional fields of str.format, each with an optional conversion and a
// spec without braces ({}, {!r}, {:.4f}, {!s:>8}), in which {{ and }} stand
// for braces.
func countFormatFields(format string) (int, error) {
	n := 0
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case strings.HasPrefix(format[i:], "{{") || strings.HasPrefix(format[i:], "}}"):
			i++
		case c == '{':
			end := strings.IndexByte(format[i:], '}')
			if end < 0 || !isAutomaticField(format[i+1:i+end]) {
				return 0, fmt.Errorf("fmt %s: only automatic fields such as {}, {!r} and {:.3f} are supported (write {{ and }} for braces)", pyString(format))
			}
			n++
			i += end
		case c == '}':
			return 0, fmt.Errorf("fmt %s: a single } (write }} for a brace)", pyString(format))
		}
	}
	return n, nil
}

// isAutomaticField reports whether a field's text (between its braces)
// is [!r|!s|!a][:spec] with a spec free of braces.
func isAutomaticField(f string) bool {
	if strings.HasPrefix(f, "!") {
		if len(f) < 2 || !strings.ContainsRune("rsa", rune(f[1])) {
			return false
		}
		f = f[2:]
	}
	return f == "" || f[0] == ':' && !strings.ContainsAny(f, "{")
}

func callRule(in []AVal, p Params) ([]AVal, error) {
	var token []AVal
	if len(in) > 0 && in[0].IsToken() { // threaded by the compiler
		token, in = one(TokenAVal), in[1:]
	}
	if err := checkArray(in); err != nil {
		return nil, err
	}
	switch m := p["vmap_method"]; m {
	case nil, "sequential", "expand_dims", "broadcast_all":
	default:
		return nil, fmt.Errorf("vmap_method must be None, 'sequential', 'expand_dims' or 'broadcast_all', got %s", paramRepr(m))
	}
	results, _ := ParamAs[[]AVal](p, "result_avals")
	for _, a := range results {
		if !a.valid() || a.IsToken() {
			return nil, fmt.Errorf("result_avals must be array avals, got %s", paramRepr(results))
		}
	}
	return append(token, results...), nil
}

func jitRule(in []AVal, p Params) ([]AVal, error) {
	j := p.Jaxpr("jaxpr")
	if len(in) != len(j.InVars) {
		return nil, fmt.Errorf("jaxpr takes %d inputs, got %d", len(j.InVars), len(in))
	}
	for i, v := range j.InVars {
		if !in[i].SameType(v.aval) {
			return nil, fmt.Errorf("operand %d is %s but the jaxpr's input is %s", i, in[i], v.aval)
		}
	}
	return j.OutAvals(), nil
}
