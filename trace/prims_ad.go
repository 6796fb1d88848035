package trace

import "fmt"

// Primitives that autodiff introduces: rematerialisation (checkpoint) and
// functions with user-defined derivatives (custom_jvp_call,
// custom_vjp_call, and custom_lin, the linear part of a custom_vjp call
// that reverse mode transposes into the user's bwd). Their autodiff rules
// are in trace/ad. Like control-flow bodies, their jaxprs have no
// constvars: captured values are operands.

func init() {
	for _, p := range adPrims() {
		if err := Register(p); err != nil {
			panic(err) // a programming error in this package's tables
		}
	}
}

// CheckpointPolicies are the names checkpoint's policy param takes (JAX's
// jax.checkpoint_policies of the same names); nil means nothing_saveable.
var CheckpointPolicies = []string{"nothing_saveable", "everything_saveable", "dots_saveable"}

func adPrims() []*Primitive {
	callEffects := func(param string) func([]AVal, Params) Effects {
		return func(_ []AVal, p Params) Effects { return p.Jaxpr(param).Effects }
	}
	return []*Primitive{
		{
			// Returns its operands; their derivatives are zero.
			Name: "stop_gradient", Props: Identity, MinIn: 1, MaxIn: -1, NonDifferentiable: true,
			Rule: func(in []AVal, _ Params) ([]AVal, error) {
				if err := checkArray(in); err != nil {
					return nil, err
				}
				return append([]AVal(nil), in...), nil
			},
		},
		{
			// Applies jaxpr; under reverse mode its primal computation is
			// done again in the backward pass instead of saving what the
			// policy does not allow to save.
			Name: "checkpoint", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "jaxpr", Kind: ParamJaxpr}, {Name: "prevent_cse", Kind: ParamBool},
				{Name: "differentiated", Kind: ParamBool}, {Name: "policy", Kind: ParamIdent, Optional: true},
			},
			CallParam: "jaxpr",
			Rule: func(in []AVal, p Params) ([]AVal, error) {
				if pol, ok := p["policy"].(Ident); ok && !containsString(CheckpointPolicies, string(pol)) {
					return nil, fmt.Errorf("unknown policy %s; known: %v", pol, CheckpointPolicies)
				}
				return applyRule("jaxpr", in, p)
			},
			Effects: callEffects("jaxpr"),
		},
		{
			// Applies call_jaxpr; its tangents are jvp_jaxpr's, which maps
			// (primals..., tangents...) to (outputs..., output tangents...).
			Name: "custom_jvp_call", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "call_jaxpr", Kind: ParamJaxpr}, {Name: "jvp_jaxpr", Kind: ParamJaxpr},
				{Name: "num_consts", Kind: ParamInt}, {Name: "symbolic_zeros", Kind: ParamBool},
			},
			CallParam: "call_jaxpr",
			Rule: func(in []AVal, p Params) ([]AVal, error) {
				outs, err := applyRule("call_jaxpr", in, p)
				if err != nil {
					return nil, err
				}
				j := p.Jaxpr("jvp_jaxpr")
				if len(j.InVars) != 2*len(in) || len(j.OutVars) != 2*len(outs) {
					return nil, fmt.Errorf("jvp_jaxpr must map %d primals and tangents to %d outputs and tangents, got %d inputs and %d outputs",
						len(in), len(outs), len(j.InVars), len(j.OutVars))
				}
				return outs, nil
			},
			Effects: callEffects("call_jaxpr"),
		},
		{
			// Applies call_jaxpr; reverse mode runs fwd_jaxpr (operands ->
			// outputs and num_res residuals) forward and bwd_jaxpr
			// (residuals, output cotangents -> operand cotangents) backward.
			Name: "custom_vjp_call", Props: CallsJaxpr, MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "call_jaxpr", Kind: ParamJaxpr}, {Name: "fwd_jaxpr", Kind: ParamJaxpr},
				{Name: "bwd_jaxpr", Kind: ParamJaxpr}, {Name: "num_res", Kind: ParamInt},
				{Name: "symbolic_zeros", Kind: ParamBool},
			},
			CallParam: "call_jaxpr",
			Rule: func(in []AVal, p Params) ([]AVal, error) {
				outs, err := applyRule("call_jaxpr", in, p)
				if err != nil {
					return nil, err
				}
				if err := checkJaxprInputs("fwd_jaxpr", p.Jaxpr("fwd_jaxpr"), in); err != nil {
					return nil, err
				}
				if n := len(p.Jaxpr("fwd_jaxpr").OutVars); n != len(outs)+p.Int("num_res") {
					return nil, fmt.Errorf("fwd_jaxpr returns %d values, want %d outputs and %d residuals", n, len(outs), p.Int("num_res"))
				}
				if n := len(p.Jaxpr("bwd_jaxpr").OutVars); n != len(in) {
					return nil, fmt.Errorf("bwd_jaxpr returns %d cotangents for %d operands", n, len(in))
				}
				return outs, nil
			},
			Effects: callEffects("call_jaxpr"),
		},
		{
			// The linear part of a custom_vjp call under reverse mode:
			// (residuals..., input tangents...) -> output tangents. It only
			// exists to be transposed into bwd_jaxpr; it cannot run.
			Name: "custom_lin", MinIn: 0, MaxIn: -1,
			Params: []ParamSpec{
				{Name: "bwd_jaxpr", Kind: ParamJaxpr}, {Name: "num_res", Kind: ParamInt},
				{Name: "out_avals", Kind: ParamAVals},
			},
			Rule: func(in []AVal, p Params) ([]AVal, error) {
				if p.Int("num_res") > len(in) {
					return nil, fmt.Errorf("num_res=%d is more than the %d operands", p.Int("num_res"), len(in))
				}
				outs, _ := ParamAs[[]AVal](p, "out_avals")
				return append([]AVal(nil), outs...), nil
			},
		},
	}
}

// applyRule is the shape rule of a primitive that applies the jaxpr param
// to its operands.
func applyRule(param string, in []AVal, p Params) ([]AVal, error) {
	j := p.Jaxpr(param)
	if err := checkJaxprInputs(param, j, in); err != nil {
		return nil, err
	}
	return j.OutAvals(), nil
}

func containsString(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
