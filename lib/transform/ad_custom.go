package transform

import (
	"fmt"
	"slices"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// custom_jvp and custom_vjp: functions with derivative rules of the user's.
// A call traces the function and its rules into one custom_jvp_call or
// custom_vjp_call equation (trace/prims_ad.go); the rules' own closures
// become operands. As in JAX, nondiff_argnums arguments are passed to the
// rules first; here they are fixed when the function is traced (closed
// over), and closed-over values get no derivatives through the rules.

// splitNondiff separates the arguments at nondiff positions.
func splitNondiff(name string, args starlark.Tuple, nondiff []int) (diff, fixed starlark.Tuple, err error) {
	for _, n := range nondiff {
		if n < 0 || n >= len(args) {
			return nil, nil, fmt.Errorf("nondiff_argnums %d is out of range for %d argument(s)", n, len(args))
		}
	}
	for i, a := range args {
		if slices.Contains(nondiff, i) {
			fixed = append(fixed, a)
		} else {
			diff = append(diff, a)
		}
	}
	return diff, fixed, nil
}

// mergeNondiff rebuilds the full argument tuple.
func mergeNondiff(diff, fixed starlark.Tuple, nondiff []int) starlark.Tuple {
	out := make(starlark.Tuple, 0, len(diff)+len(fixed))
	d, f := 0, 0
	for i := 0; i < len(diff)+len(fixed); i++ {
		if slices.Contains(nondiff, i) {
			out = append(out, fixed[f])
			f++
		} else {
			out = append(out, diff[d])
			d++
		}
	}
	return out
}

// withInputs returns j with inputs: unused fresh variables of avals
// before, j's own inputs split at split with unused ones of mid between,
// and unused ones of after.
func withInputs(j *trace.Jaxpr, before []trace.AVal, split int, mid []trace.AVal, after []trace.AVal) *trace.Jaxpr {
	fresh := func(avals []trace.AVal) []*trace.Var {
		out := make([]*trace.Var, len(avals))
		for i, a := range avals {
			out[i] = trace.NewVar(a)
		}
		return out
	}
	r := *j
	r.InVars = nil
	r.InVars = append(r.InVars, fresh(before)...)
	r.InVars = append(r.InVars, j.InVars[:split]...)
	r.InVars = append(r.InVars, fresh(mid)...)
	r.InVars = append(r.InVars, j.InVars[split:]...)
	r.InVars = append(r.InVars, fresh(after)...)
	return &r
}

func constAvals(arrays []*jstarlark.Array) []trace.AVal { return jstarlark.AValsOf(arrays) }

// checkSameOutputs requires a rule's primal output to have the function's
// structure and types.
func checkSameOutputs(what string, tree *jstarlark.TreeDef, avals []trace.AVal, wantTree *jstarlark.TreeDef, want []trace.AVal) error {
	if !tree.Equal(wantTree) {
		return fmt.Errorf("%s must produce a primal output with the structure of the function's output %s, got %s", what, wantTree, tree)
	}
	for i, a := range avals {
		if !a.SameType(want[i]) {
			return fmt.Errorf("%s produced a primal output of shape/dtype %s where the function's output has %s", what, a.LongString(), want[i].LongString())
		}
	}
	return nil
}

// inRules reports whether thread is tracing key's rules, and marks it so
// while the returned function is not called. A custom function called from
// its own rules (a JVP rule computing f(x) for its primal output, a fwd
// returning f(x)) is a plain call of the function there: JAX traces rules
// lazily and never differentiates that inner call through them either.
func inRules(thread *starlark.Thread, key any) (bool, func()) {
	busy, _ := thread.Local(customRulesKey).(map[any]bool)
	if busy[key] {
		return true, func() {}
	}
	if busy == nil {
		busy = map[any]bool{}
		thread.SetLocal(customRulesKey, busy)
	}
	busy[key] = true
	return false, func() { delete(busy, key) }
}

const customRulesKey = "jaxsh.custom_rules"

// A customCall is what custom_jvp and custom_vjp know once a call's
// arguments are split and the function itself is traced, before their
// rules are.
type customCall struct {
	fixed  starlark.Tuple // the nondiff_argnums arguments
	tree   *jstarlark.TreeDef
	arrays []*jstarlark.Array // the differentiable arguments' leaves
	avals  []trace.AVal
	call   *jstarlark.BodyTrace // the function on those leaves
}

// callCustom checks and splits a call of a custom_jvp or custom_vjp
// function f, traces the function on the differentiable arguments and hands
// the result to rules. From inside f's own rules the call is a plain call.
func callCustom(thread *starlark.Thread, kind string, f any, fun starlark.Callable, nondiff []int, args starlark.Tuple, kwargs []starlark.Tuple,
	rules func(*jstarlark.Trace, *customCall) (starlark.Value, error)) (starlark.Value, error) {
	name := funName(fun)
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("a %s function takes positional arguments only, got keyword %s", kind, kwargs[0][0])
	}
	diffArgs, fixed, err := splitNondiff(name, args, nondiff)
	if err != nil {
		return nil, err
	}
	busy, done := inRules(thread, f)
	defer done()
	if busy {
		return starlark.Call(thread, fun, args, nil)
	}
	return jstarlark.ControlFlow(thread, name, devicesOf(thread, diffArgs), func(ts *jstarlark.Trace) (starlark.Value, error) {
		leaves, tree, err := jstarlark.FlattenTree(name, diffArgs)
		if err != nil {
			return nil, err
		}
		arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
		if err != nil {
			return nil, err
		}
		c := &customCall{fixed: fixed, tree: tree, arrays: arrays, avals: jstarlark.AValsOf(arrays)}
		c.call, err = jstarlark.TraceBody(ts, name, c.avals, func(a []*jstarlark.Array) (starlark.Value, error) {
			argv, err := tree.Unflatten(jstarlark.ValuesOf(a))
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, fun, mergeNondiff(argv.(starlark.Tuple), fixed, nondiff), nil)
		})
		if err != nil {
			return nil, err
		}
		return rules(ts, c)
	})
}

// A CustomJVP is a function with a custom JVP rule (@custom_jvp).
type CustomJVP struct {
	fun     starlark.Callable
	nondiff []int
	rule    starlark.Callable // rule(*nondiff, primals, tangents) -> (out, tangent_out)
	jvps    []starlark.Value  // defjvps: one per argument, None for zero
}

var (
	_ starlark.Callable = (*CustomJVP)(nil)
	_ starlark.HasAttrs = (*CustomJVP)(nil)
)

func builtinCustomJVP(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var nondiff starlark.Value = starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "nondiff_argnums?", &nondiff); err != nil {
		return nil, err
	}
	nums, err := jstarlark.IntsArg("custom_jvp: nondiff_argnums", nondiff)
	if err != nil {
		return nil, err
	}
	return &CustomJVP{fun: fun, nondiff: nums}, nil
}

func (f *CustomJVP) String() string        { return "<custom_jvp " + funName(f.fun) + ">" }
func (f *CustomJVP) Type() string          { return "custom_jvp" }
func (f *CustomJVP) Freeze()               {}
func (f *CustomJVP) Truth() starlark.Bool  { return true }
func (f *CustomJVP) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: custom_jvp") }
func (f *CustomJVP) Name() string          { return funName(f.fun) }
func (f *CustomJVP) AttrNames() []string   { return []string{"defjvp", "defjvps"} }

func (f *CustomJVP) Attr(name string) (starlark.Value, error) {
	switch name {
	case "defjvp":
		return starlark.NewBuiltin("defjvp", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var rule starlark.Callable
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &rule); err != nil {
				return nil, err
			}
			f.rule, f.jvps = rule, nil
			return rule, nil
		}), nil
	case "defjvps":
		return starlark.NewBuiltin("defjvps", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 {
				return nil, fmt.Errorf("defjvps: unexpected keyword argument %s", kwargs[0][0])
			}
			for _, a := range args {
				if _, ok := a.(starlark.Callable); !ok && a != starlark.None {
					return nil, fmt.Errorf("defjvps: each rule must be callable or None, got %s", a.Type())
				}
			}
			f.rule, f.jvps = nil, append([]starlark.Value(nil), args...)
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}

func (f *CustomJVP) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := funName(f.fun)
	if f.rule == nil && f.jvps == nil {
		return nil, fmt.Errorf("No JVP defined for custom_jvp function %s using defjvp.", name)
	}
	return callCustom(thread, "custom_jvp", f, f.fun, f.nondiff, args, kwargs, func(ts *jstarlark.Trace, c *customCall) (starlark.Value, error) {
		primal := func(th *starlark.Thread, argv starlark.Tuple) (starlark.Value, error) {
			return starlark.Call(th, f.fun, mergeNondiff(argv, c.fixed, f.nondiff), nil)
		}
		call, tree, arrays, avals, fixed := c.call, c.tree, c.arrays, c.avals, c.fixed
		n := len(arrays)
		what := "the custom_jvp rule of " + name
		rule, err := jstarlark.TraceBody(ts, what, append(append([]trace.AVal(nil), avals...), avals...), func(a []*jstarlark.Array) (starlark.Value, error) {
			primals, err := tree.Unflatten(jstarlark.ValuesOf(a[:n]))
			if err != nil {
				return nil, err
			}
			tangents, err := tree.Unflatten(jstarlark.ValuesOf(a[n:]))
			if err != nil {
				return nil, err
			}
			var out starlark.Value
			if f.rule != nil {
				out, err = starlark.Call(thread, f.rule, append(append(starlark.Tuple(nil), fixed...), primals, tangents), nil)
			} else {
				out, err = f.sumJVPs(thread, primal, primals.(starlark.Tuple), tangents.(starlark.Tuple))
			}
			if err != nil {
				return nil, err
			}
			pair, ok := out.(starlark.Tuple)
			if !ok || len(pair) != 2 {
				return nil, fmt.Errorf("%s must return a pair (primal_out, tangent_out), got %s", what, out.Type())
			}
			return pair, nil
		})
		if err != nil {
			return nil, err
		}
		outTree, tanTree := rule.OutTree.Children[0], rule.OutTree.Children[1]
		if !outTree.Equal(tanTree) {
			return nil, fmt.Errorf("Custom JVP rule must produce primal and tangent outputs with equal container (pytree) structures, but got %s and %s respectively.", outTree, tanTree)
		}
		nOut := outTree.NumLeaves()
		// A function returning None, called for its rule's effects (the
		// seed's print_tangents), may have a rule returning anything: the
		// rule's outputs are dropped.
		dropRuleOutputs := call.OutTree.NumLeaves() == 0 && !outTree.Equal(call.OutTree)
		if !dropRuleOutputs {
			if err := checkSameOutputs(what, outTree, rule.OutAvals[:nOut], call.OutTree, call.OutAvals); err != nil {
				return nil, err
			}
		}
		for i, t := range rule.OutAvals[nOut:] {
			if p := rule.OutAvals[i]; !t.SameType(p) {
				return nil, fmt.Errorf("Custom JVP rule must produce primal and tangent outputs with equal shapes and dtypes, but got %s and %s at output %d", p.LongString(), t.LongString(), i)
			}
		}
		cc, jc := call.Consts, rule.Consts
		callJ := withInputs(call.Jaxpr, nil, len(cc), constAvals(jc), nil)
		// rule.Jaxpr's inputs: jc, primals, tangents. It takes cc first, and
		// tangents of cc and jc before the arguments' tangents.
		ruleJ := withInputs(rule.Jaxpr, constAvals(cc), len(jc)+n, append(constAvals(cc), constAvals(jc)...), nil)
		if dropRuleOutputs {
			ruleJ.OutVars = nil
		}
		operands := append(append(append([]*jstarlark.Array(nil), cc...), jc...), arrays...)
		outs, err := jstarlark.BindTraced(ts, "custom_jvp_call", trace.Params{
			"call_jaxpr": callJ, "jvp_jaxpr": ruleJ, "num_consts": len(cc) + len(jc), "symbolic_zeros": false,
		}, operands...)
		if err != nil {
			return nil, err
		}
		return call.OutTree.Unflatten(jstarlark.ValuesOf(outs))
	})
}

// sumJVPs is the rule defjvps defines: the output, and the sum over the
// arguments of jvps[i](tangent_i, output, *primals).
func (f *CustomJVP) sumJVPs(thread *starlark.Thread, primal func(*starlark.Thread, starlark.Tuple) (starlark.Value, error), primals, tangents starlark.Tuple) (starlark.Value, error) {
	ans, err := primal(thread, primals)
	if err != nil {
		return nil, err
	}
	if len(f.jvps) != len(primals) {
		return nil, fmt.Errorf("defjvps of %s was given %d rules for %d differentiable arguments", funName(f.fun), len(f.jvps), len(primals))
	}
	var total starlark.Value
	for i, j := range f.jvps {
		if j == starlark.None {
			continue
		}
		c, err := starlark.Call(thread, j.(starlark.Callable), append(starlark.Tuple{tangents[i], ans}, primals...), nil)
		if err != nil {
			return nil, err
		}
		if total == nil {
			total = c
			continue
		}
		if total, err = addTrees(total, c); err != nil {
			return nil, err
		}
	}
	if total == nil {
		leaves, tree, err := jstarlark.FlattenTree("defjvps", ans)
		if err != nil {
			return nil, err
		}
		zeros := make([]starlark.Value, len(leaves))
		for i, l := range leaves {
			a := l.(*jstarlark.Array)
			z, err := zerosArray(a.Trace(), a.AVal())
			if err != nil {
				return nil, err
			}
			zeros[i] = z
		}
		if total, err = tree.Unflatten(zeros); err != nil {
			return nil, err
		}
	}
	return starlark.Tuple{ans, total}, nil
}

// addTrees adds two pytrees of arrays leaf by leaf.
func addTrees(a, b starlark.Value) (starlark.Value, error) {
	al, at, err := jstarlark.FlattenTree("defjvps", a)
	if err != nil {
		return nil, err
	}
	bl, bt, err := jstarlark.FlattenTree("defjvps", b)
	if err != nil {
		return nil, err
	}
	if !at.Equal(bt) {
		return nil, fmt.Errorf("defjvps: the rules' tangents have different structures %s and %s", at, bt)
	}
	sums := make([]starlark.Value, len(al))
	for i := range al {
		x, ok1 := al[i].(*jstarlark.Array)
		y, ok2 := bl[i].(*jstarlark.Array)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("defjvps: the rules must return arrays")
		}
		s, err := jstarlark.Bind1("add", nil, x, y)
		if err != nil {
			return nil, err
		}
		sums[i] = s
	}
	return at.Unflatten(sums)
}
