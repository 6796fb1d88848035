package lax

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// lax control flow with JAX's semantics: while_loop, fori_loop, scan, map,
// cond and switch. Bodies are traced once (starlark/subtrace.go) into the
// cond, while and scan primitives (trace/prims_control.go); carries are
// pytrees whose structure, shapes and dtypes a body must keep, except that
// a weakly typed initial value (a Python number) takes the type the body
// gives it, as in JAX. Everything works inside and outside jit, and prints,
// taps and calls inside bodies run when and as often as the body does.

func init() {
	jstarlark.Register(Module, "while_loop", laxWhileLoop)
	jstarlark.Register(Module, "fori_loop", laxForiLoop)
	jstarlark.Register(Module, "scan", laxScan)
	jstarlark.Register(Module, "map", laxMap)
	jstarlark.Register(Module, "cond", laxCond)
	jstarlark.Register(Module, "switch", laxSwitch)
}

// deviceOf returns a function finding the device of the arrays among the
// pytrees' leaves (the default device when there are none).
func deviceOf(thread *starlark.Thread, trees ...starlark.Value) func() (jit.Device, error) {
	return func() (jit.Device, error) {
		for _, t := range trees {
			leaves, _, err := jstarlark.FlattenTree("lax", t)
			if err != nil {
				return nil, err
			}
			for _, l := range leaves {
				if a, ok := l.(*jstarlark.Array); ok {
					return a.Device(), nil
				}
			}
		}
		return jstarlark.DefaultDeviceOf(thread)
	}
}

func call(thread *starlark.Thread, fn starlark.Callable, args ...starlark.Value) (starlark.Value, error) {
	return starlark.Call(thread, fn, starlark.Tuple(args), nil)
}

// loopCarry traces a loop body on the carry, retracing once with weakly
// typed initial leaves promoted to the types the body returns. body gets
// the traced carry and returns the new carry pytree.
func loopCarry(ts *jstarlark.Trace, what, root string, init []*jstarlark.Array, tree *jstarlark.TreeDef, extra []trace.AVal,
	body func(carry starlark.Value, extra []*jstarlark.Array) (starlark.Value, error),
	split func(out starlark.Value) (carry starlark.Value, rest starlark.Value, err error)) (*jstarlark.BodyTrace, []*jstarlark.Array, error) {
	nc := len(init)
	for attempt := 0; ; attempt++ {
		avals := append(jstarlark.AValsOf(init), extra...)
		var restTree *jstarlark.TreeDef
		bt, err := jstarlark.TraceBody(ts, what, avals, func(args []*jstarlark.Array) (starlark.Value, error) {
			carry, err := tree.Unflatten(jstarlark.ValuesOf(args[:nc]))
			if err != nil {
				return nil, err
			}
			out, err := body(carry, args[nc:])
			if err != nil {
				return nil, err
			}
			if split == nil {
				return out, nil
			}
			c, rest, err := split(out)
			if err != nil {
				return nil, err
			}
			_, restTree, err = jstarlark.FlattenTree(what, rest)
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{c, rest}, nil
		})
		if err != nil {
			return nil, nil, err
		}
		outTree, outAvals := bt.OutTree, bt.OutAvals
		if split != nil {
			outTree = outTree.Children[0]
			outAvals = outAvals[:outTree.NumLeaves()]
		}
		if !tree.Equal(outTree) {
			return nil, nil, fmt.Errorf("%s must return a carry with the structure of its input: got %s, want %s", what, outTree, tree)
		}
		_ = restTree
		promote, err := carryMismatch(what, root, tree, jstarlark.AValsOf(init), outTree, outAvals)
		if err != nil {
			return nil, nil, err
		}
		if len(promote) == 0 {
			return bt, init, nil
		}
		if attempt > 0 {
			return nil, nil, fmt.Errorf("internal error: %s: the carry types did not settle", what)
		}
		init = append([]*jstarlark.Array(nil), init...)
		if err := promoteLeaves(init, promote, outAvals); err != nil {
			return nil, nil, err
		}
	}
}

// lax.while_loop(cond_fun, body_fun, init_val)
func laxWhileLoop(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var condFun, bodyFun starlark.Callable
	var init starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "cond_fun", &condFun, "body_fun", &bodyFun, "init_val", &init); err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, "while_loop", deviceOf(thread, init), func(ts *jstarlark.Trace) (starlark.Value, error) {
		return whileLoop(ts, "while_loop", init, func(carry starlark.Value) (starlark.Value, error) {
			return call(thread, condFun, carry)
		}, func(carry starlark.Value) (starlark.Value, error) {
			return call(thread, bodyFun, carry)
		})
	})
}

// whileLoop records a while equation: cond and body take the carry pytree.
func whileLoop(ts *jstarlark.Trace, name string, init starlark.Value, cond, body func(carry starlark.Value) (starlark.Value, error)) (starlark.Value, error) {
	leaves, tree, err := jstarlark.FlattenTree(name, init)
	if err != nil {
		return nil, err
	}
	arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
	if err != nil {
		return nil, err
	}
	bt, arrays, err := loopCarry(ts, name+": body_fun", "init_val", arrays, tree, nil,
		func(carry starlark.Value, _ []*jstarlark.Array) (starlark.Value, error) { return body(carry) }, nil)
	if err != nil {
		return nil, err
	}
	ct, err := jstarlark.TraceBody(ts, name+": cond_fun", jstarlark.AValsOf(arrays), func(args []*jstarlark.Array) (starlark.Value, error) {
		carry, err := tree.Unflatten(jstarlark.ValuesOf(args))
		if err != nil {
			return nil, err
		}
		return cond(carry)
	})
	if err != nil {
		return nil, err
	}
	if len(ct.OutAvals) != 1 || ct.OutTree.Kind != jstarlark.TreeLeaf || ct.OutAvals[0].DType != trace.Bool || ct.OutAvals[0].Rank() != 0 {
		got := make([]string, len(ct.OutAvals))
		for i, a := range ct.OutAvals {
			got[i] = avalText(a)
		}
		return nil, fmt.Errorf("%s: cond_fun must return a boolean scalar, but got %s %v", name, ct.OutTree, got)
	}
	operands := append(append(append([]*jstarlark.Array(nil), ct.Consts...), bt.Consts...), arrays...)
	outs, err := jstarlark.BindTraced(ts, "while", trace.Params{
		"cond_jaxpr": ct.Jaxpr, "cond_nconsts": len(ct.Consts),
		"body_jaxpr": bt.Jaxpr, "body_nconsts": len(bt.Consts),
	}, operands...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return tree.Unflatten(jstarlark.ValuesOf(outs))
}

// staticInt returns a Python int bound, or a concrete integer 0-d array's
// value, and whether it is one.
func staticInt(v starlark.Value) (int, bool) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		return int(n), ok
	case *jstarlark.Array:
		if x.Traced() || x.NDim() != 0 || !x.DType().IsInteger() {
			return 0, false
		}
		s, err := x.ScalarValue(0)
		if err != nil {
			return 0, false
		}
		if n, ok := s.(starlark.Int); ok {
			m, ok := n.Int64()
			return int(m), ok
		}
	}
	return 0, false
}

// unrollArg reads unroll: a positive int, or a bool (True: the whole
// length, False: 1).
func unrollArg(name string, v starlark.Value, length int) (int, error) {
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			return max(length, 1), nil
		}
		return 1, nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n < 1 {
			return 0, fmt.Errorf("%s: unroll must be a positive int or a bool, got %s", name, x)
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("%s: unroll must be a positive int or a bool, got a %s", name, v.Type())
}

// lax.fori_loop(lower, upper, body_fun, init_val, unroll=1): with static
// bounds a scan of upper-lower trips carrying (i, x), as JAX lowers it;
// with traced bounds a while loop carrying (i, upper, x).
func laxForiLoop(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lower, upper, init starlark.Value
	var bodyFun starlark.Callable
	var unroll starlark.Value = starlark.MakeInt(1)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "lower", &lower, "upper", &upper, "body_fun", &bodyFun, "init_val", &init, "unroll?", &unroll); err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, "fori_loop", deviceOf(thread, init, lower, upper), func(ts *jstarlark.Trace) (starlark.Value, error) {
		t, err := jstarlark.ResultType("fori_loop: lower and upper", lower, upper)
		if err != nil {
			return nil, err
		}
		if !t.DType.IsInteger() {
			return nil, fmt.Errorf("fori_loop: lower and upper must be integers, got %s and %s", jstarlark.Describe(lower), jstarlark.Describe(upper))
		}
		lo, loStatic := staticInt(lower)
		hi, hiStatic := staticInt(upper)
		bounds := func(v starlark.Value) (*jstarlark.Array, error) {
			a, err := jstarlark.AsArray("fori_loop", v, ts.Device)
			if err != nil {
				return nil, err
			}
			return jstarlark.ConvertType(a, t)
		}
		loA, err := bounds(lower)
		if err != nil {
			return nil, err
		}
		step := func(i *jstarlark.Array, x starlark.Value) (*jstarlark.Array, starlark.Value, error) {
			r, err := call(thread, bodyFun, i, x)
			if err != nil {
				return nil, nil, err
			}
			one, err := jstarlark.ArrayFromValue("fori_loop", starlark.MakeInt(1), trace.Type{DType: t.DType, Weak: true}, ts.Device)
			if err != nil {
				return nil, nil, err
			}
			next, err := jstarlark.Bind1("add", nil, i, one)
			if err != nil {
				return nil, nil, err
			}
			if next, err = jstarlark.ConvertType(next, t); err != nil {
				return nil, nil, err
			}
			return next, r, nil
		}
		if loStatic && hiStatic {
			length := max(hi-lo, 0)
			k, err := unrollArg("fori_loop", unroll, length)
			if err != nil {
				return nil, err
			}
			out, err := scanLoop(ts, "fori_loop", starlark.Tuple{loA, init}, starlark.None, length, false, k,
				func(carry, _ starlark.Value) (starlark.Value, error) {
					c := carry.(starlark.Tuple)
					next, r, err := step(c[0].(*jstarlark.Array), c[1])
					if err != nil {
						return nil, err
					}
					return starlark.Tuple{starlark.Tuple{next, r}, starlark.None}, nil
				})
			if err != nil {
				return nil, foriCarryError(err, "init[1]")
			}
			return out.(starlark.Tuple)[0].(starlark.Tuple)[1], nil
		}
		if k, err := unrollArg("fori_loop", unroll, 1); err != nil || k != 1 {
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("fori_loop: unroll needs static bounds (Python ints); lower and upper are %s and %s", jstarlark.Describe(lower), jstarlark.Describe(upper))
		}
		hiA, err := bounds(upper)
		if err != nil {
			return nil, err
		}
		out, err := whileLoop(ts, "fori_loop", starlark.Tuple{loA, hiA, init}, func(carry starlark.Value) (starlark.Value, error) {
			c := carry.(starlark.Tuple)
			return jstarlark.Bind1("lt", nil, c[0].(*jstarlark.Array), c[1].(*jstarlark.Array))
		}, func(carry starlark.Value) (starlark.Value, error) {
			c := carry.(starlark.Tuple)
			next, r, err := step(c[0].(*jstarlark.Array), c[2])
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{next, c[1], r}, nil
		})
		if err != nil {
			return nil, foriCarryError(err, "init_val[2]")
		}
		return out.(starlark.Tuple)[2], nil
	})
}

// foriCarryError names fori_loop's carry leaves from init_val: the loop
// carries (i, init_val) or (i, upper, init_val), whose leaf paths the
// error gives from prefix.
func foriCarryError(err error, prefix string) error {
	msg := err.Error()
	if !strings.Contains(msg, "carry") {
		return err
	}
	msg = strings.ReplaceAll(msg, "the carry leaf "+prefix, "the carry leaf init_val")
	if strings.HasPrefix(msg, "fori_loop must") {
		msg = "fori_loop: body_fun must" + strings.TrimPrefix(msg, "fori_loop must")
	}
	return errors.New(msg)
}

// lax.scan(f, init, xs=None, length=None, reverse=False, unroll=1)
func laxScan(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Callable
	var init, xs, length starlark.Value = nil, starlark.None, starlark.None
	var reverse bool
	var unroll starlark.Value = starlark.MakeInt(1)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &f, "init", &init, "xs?", &xs, "length?", &length,
		"reverse?", &reverse, "unroll?", &unroll); err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, "scan", deviceOf(thread, init, xs), func(ts *jstarlark.Trace) (starlark.Value, error) {
		n, err := scanLength("scan", xs, length)
		if err != nil {
			return nil, err
		}
		k, err := unrollArg("scan", unroll, n)
		if err != nil {
			return nil, err
		}
		return scanLoop(ts, "scan", init, xs, n, reverse, k, func(carry, x starlark.Value) (starlark.Value, error) {
			return call(thread, f, carry, x)
		})
	})
}

// scanLength is the number of trips: the leading extent of every xs leaf,
// or length.
func scanLength(name string, xs, length starlark.Value) (int, error) {
	leaves, tree, err := jstarlark.FlattenTree(name, xs)
	if err != nil {
		return 0, err
	}
	n := -1
	if length != starlark.None {
		l, ok := length.(starlark.Int)
		m, ok2 := l.Int64()
		if !ok || !ok2 || m < 0 {
			return 0, fmt.Errorf("%s: length must be a non-negative int, got %s", name, length)
		}
		n = int(m)
	}
	paths := leafPaths("xs", tree)
	for i, l := range leaves {
		shape, err := leafShape(name, l)
		if err != nil {
			return 0, err
		}
		if len(shape) == 0 {
			return 0, fmt.Errorf("%s: the xs leaf %s is a scalar; every xs must have a leading axis to scan over", name, paths[i])
		}
		if n >= 0 && shape[0] != n {
			return 0, fmt.Errorf("%s: the xs leaf %s has leading axis %d, but the scan has length %d", name, paths[i], shape[0], n)
		}
		n = shape[0]
	}
	if n < 0 {
		return 0, fmt.Errorf("%s: got no xs to scan over and length not provided", name)
	}
	return n, nil
}

func leafShape(name string, l starlark.Value) (trace.Shape, error) {
	if a, ok := l.(*jstarlark.Array); ok {
		return a.Shape(), nil
	}
	shape, _, err := jstarlark.NestedShape(name, l)
	return shape, err
}

// scanLoop records a scan: f(carry, x) returns (carry, y).
func scanLoop(ts *jstarlark.Trace, name string, init, xs starlark.Value, length int, reverse bool, unroll int,
	f func(carry, x starlark.Value) (starlark.Value, error)) (starlark.Value, error) {
	cleaves, ctree, err := jstarlark.FlattenTree(name, init)
	if err != nil {
		return nil, err
	}
	carry, err := jstarlark.LeafArrays(name, cleaves, ts.Device)
	if err != nil {
		return nil, err
	}
	xleaves, xtree, err := jstarlark.FlattenTree(name, xs)
	if err != nil {
		return nil, err
	}
	xarrays := make([]*jstarlark.Array, len(xleaves))
	var xavals []trace.AVal
	for i, l := range xleaves {
		a, ok := l.(*jstarlark.Array)
		if !ok {
			t, err := jstarlark.TypeOf(name, l)
			if err != nil {
				return nil, err
			}
			if a, err = jstarlark.ArrayFromValue(name, l, t, ts.Device); err != nil {
				return nil, err
			}
		}
		xarrays[i] = a
		xavals = append(xavals, a.AVal().WithShape(a.Shape()[1:].Clone()))
	}
	var ytree *jstarlark.TreeDef
	bt, carry, err := loopCarry(ts, name, "init", carry, ctree, xavals,
		func(c starlark.Value, xs []*jstarlark.Array) (starlark.Value, error) {
			x, err := xtree.Unflatten(jstarlark.ValuesOf(xs))
			if err != nil {
				return nil, err
			}
			return f(c, x)
		},
		func(out starlark.Value) (starlark.Value, starlark.Value, error) {
			pair, ok := out.(starlark.Tuple)
			if !ok || len(pair) != 2 {
				return nil, nil, fmt.Errorf("%s: the scanned function must return a pair (carry, y), got %s", name, jstarlark.ShortRepr(out))
			}
			return pair[0], pair[1], nil
		})
	if err != nil {
		return nil, err
	}
	ytree = bt.OutTree.Children[1]
	operands := append(append(append([]*jstarlark.Array(nil), bt.Consts...), carry...), xarrays...)
	outs, err := jstarlark.BindTraced(ts, "scan", trace.Params{
		"jaxpr": bt.Jaxpr, "length": length, "reverse": reverse, "num_consts": len(bt.Consts),
		"num_carry": len(carry), "unroll": unroll,
	}, operands...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	c, err := ctree.Unflatten(jstarlark.ValuesOf(outs[:len(carry)]))
	if err != nil {
		return nil, err
	}
	y, err := ytree.Unflatten(jstarlark.ValuesOf(outs[len(carry):]))
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{c, y}, nil
}

// lax.map(f, xs): f applied to each slice of xs along the leading axis,
// the results stacked.
func laxMap(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Callable
	var xs starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &f, "xs", &xs); err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, "map", deviceOf(thread, xs), func(ts *jstarlark.Trace) (starlark.Value, error) {
		n, err := scanLength("map", xs, starlark.None)
		if err != nil {
			return nil, err
		}
		out, err := scanLoop(ts, "map", starlark.Tuple{}, xs, n, false, 1, func(_, x starlark.Value) (starlark.Value, error) {
			y, err := call(thread, f, x)
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{starlark.Tuple{}, y}, nil
		})
		if err != nil {
			return nil, err
		}
		return out.(starlark.Tuple)[1], nil
	})
}

// lax.cond(pred, true_fun, false_fun, *operands)
func laxCond(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("cond: unexpected keyword argument %s", kwargs[0][0])
	}
	if len(args) < 3 {
		return nil, fmt.Errorf("cond: takes pred, true_fun, false_fun and the operands, got %d arguments", len(args))
	}
	var branches []starlark.Callable
	for i, name := range []string{"true_fun", "false_fun"} {
		fn, ok := args[1+i].(starlark.Callable)
		if !ok {
			return nil, fmt.Errorf("cond: %s must be callable, got a %s", name, args[1+i].Type())
		}
		branches = append(branches, fn)
	}
	pred, ops := args[0], args[3:]
	return jstarlark.ControlFlow(thread, "cond", deviceOf(thread, pred, ops), func(ts *jstarlark.Trace) (starlark.Value, error) {
		p, err := jstarlark.AsArray("cond", pred, ts.Device)
		if err != nil {
			return nil, err
		}
		if p.NDim() != 0 {
			return nil, fmt.Errorf("cond: pred must be a scalar, got %s", p.AVal().LongString())
		}
		if p.DType() != trace.Bool {
			if !p.DType().IsInteger() && !p.DType().IsFloat() {
				return nil, fmt.Errorf("cond: pred must be a boolean or a number, got %s", p.AVal().LongString())
			}
			zero, err := jstarlark.ArrayFromValue("cond", starlark.MakeInt(0), trace.Type{DType: p.DType(), Weak: true}, ts.Device)
			if err != nil {
				return nil, err
			}
			if p, err = jstarlark.Bind1("ne", nil, p, zero); err != nil {
				return nil, err
			}
		}
		idx, err := jstarlark.Astype(p, trace.Int32)
		if err != nil {
			return nil, err
		}
		// branch 0 is false_fun, as an index 0 selects.
		return condBranches(ts, "cond", idx, []starlark.Callable{branches[1], branches[0]}, []string{"false_fun", "true_fun"}, ops)
	})
}

// lax.switch(index, branches, *operands): the index is clamped to the
// branches' range.
func laxSwitch(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("switch: unexpected keyword argument %s", kwargs[0][0])
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("switch: takes index, branches and the operands, got %d arguments", len(args))
	}
	var fns []starlark.Callable
	var names []string
	iter := starlark.Iterate(args[1])
	if iter == nil {
		return nil, fmt.Errorf("switch: branches must be a sequence of functions, got a %s", args[1].Type())
	}
	var v starlark.Value
	for iter.Next(&v) {
		fn, ok := v.(starlark.Callable)
		if !ok {
			iter.Done()
			return nil, fmt.Errorf("switch: branch %d must be callable, got a %s", len(fns), v.Type())
		}
		fns = append(fns, fn)
		names = append(names, fmt.Sprintf("branch %d (%s)", len(names), fn.Name()))
	}
	iter.Done()
	if len(fns) == 0 {
		return nil, fmt.Errorf("switch: needs at least one branch")
	}
	index, ops := args[0], args[2:]
	return jstarlark.ControlFlow(thread, "switch", deviceOf(thread, index, ops), func(ts *jstarlark.Trace) (starlark.Value, error) {
		i, err := jstarlark.AsArray("switch", index, ts.Device)
		if err != nil {
			return nil, err
		}
		if i.NDim() != 0 || !i.DType().IsInteger() {
			return nil, fmt.Errorf("switch: index must be an integer scalar, got %s", i.AVal().LongString())
		}
		if i, err = jstarlark.Astype(i, trace.Int32); err != nil {
			return nil, err
		}
		lo, err := jstarlark.ScalarArray("switch", starlark.MakeInt(0), trace.Int32, false, ts.Device)
		if err != nil {
			return nil, err
		}
		hi, err := jstarlark.ScalarArray("switch", starlark.MakeInt(len(fns)-1), trace.Int32, false, ts.Device)
		if err != nil {
			return nil, err
		}
		if i, err = jstarlark.Bind1("clamp", nil, lo, i, hi); err != nil {
			return nil, err
		}
		return condBranches(ts, "switch", i, fns, names, ops)
	})
}

// condBranches records a cond equation applying fns[index] to ops. Each
// branch's closed-over values are operands of the equation, which every
// branch takes (ignoring the others'), as JAX does.
func condBranches(ts *jstarlark.Trace, name string, index *jstarlark.Array, fns []starlark.Callable, names []string, ops starlark.Tuple) (starlark.Value, error) {
	leaves, tree, err := jstarlark.FlattenTree(name, ops)
	if err != nil {
		return nil, err
	}
	arrays, err := jstarlark.LeafArrays(name, leaves, ts.Device)
	if err != nil {
		return nil, err
	}
	avals := jstarlark.AValsOf(arrays)
	traces := make([]*jstarlark.BodyTrace, len(fns))
	for i, fn := range fns {
		bt, err := jstarlark.TraceBody(ts, name+": "+names[i], avals, func(args []*jstarlark.Array) (starlark.Value, error) {
			v, err := tree.Unflatten(jstarlark.ValuesOf(args))
			if err != nil {
				return nil, err
			}
			return starlark.Call(ts.Thread, fn, v.(starlark.Tuple), nil)
		})
		if err != nil {
			return nil, err
		}
		traces[i] = bt
		if i == 0 {
			continue
		}
		first := traces[0]
		if !first.OutTree.Equal(bt.OutTree) {
			n0, n1, t0, t1 := names[0], names[i], first.OutTree, bt.OutTree
			if name == "cond" {
				n0, n1, t0, t1 = n1, n0, t1, t0
			}
			return nil, fmt.Errorf("%s: %s and %s must return the same structure, got %s and %s", name, n0, n1, t0, t1)
		}
		paths := leafPaths("output", first.OutTree)
		for k, a := range first.OutAvals {
			if !a.SameType(bt.OutAvals[k]) {
				n0, n1, t0, t1 := names[0], names[i], avalText(a), avalText(bt.OutAvals[k])
				if name == "cond" { // name them as the call does: true_fun first
					n0, n1, t0, t1 = n1, n0, t1, t0
				}
				return nil, fmt.Errorf("%s: %s and %s must return the same types, but %s is %s and %s", name, n0, n1, paths[k], t0, t1)
			}
		}
	}
	// Every branch takes all branches' consts, then the operands.
	var consts []*jstarlark.Array
	var constAvals []trace.AVal
	for _, bt := range traces {
		consts = append(consts, bt.Consts...)
		constAvals = append(constAvals, jstarlark.AValsOf(bt.Consts)...)
	}
	jaxprs := make([]*trace.Jaxpr, len(traces))
	at := 0
	for i, bt := range traces {
		nc := len(bt.Consts)
		j := *bt.Jaxpr
		j.InVars = nil
		for k, a := range constAvals {
			if k >= at && k < at+nc {
				j.InVars = append(j.InVars, bt.Jaxpr.InVars[k-at])
			} else {
				j.InVars = append(j.InVars, trace.NewVar(a))
			}
		}
		j.InVars = append(j.InVars, bt.Jaxpr.InVars[nc:]...)
		jaxprs[i] = &j
		at += nc
	}
	// Outputs differing only in weak type: the strong one wins.
	operands := append(append([]*jstarlark.Array{index}, consts...), arrays...)
	outs, err := jstarlark.BindTraced(ts, "cond", trace.Params{"branches": jaxprs}, operands...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return traces[0].OutTree.Unflatten(jstarlark.ValuesOf(outs))
}

// leafPaths names each leaf of a tree as Python indexes it from root:
// carry[0]['x'].
func leafPaths(root string, d *jstarlark.TreeDef) []string {
	var out []string
	var walk func(path string, d *jstarlark.TreeDef)
	walk = func(path string, d *jstarlark.TreeDef) {
		switch d.Kind {
		case jstarlark.TreeLeaf:
			out = append(out, path)
		case jstarlark.TreeDict:
			for i, k := range d.Keys {
				walk(path+"["+strconv.Quote(k)+"]", d.Children[i])
			}
		case jstarlark.TreeTuple, jstarlark.TreeList:
			for i, c := range d.Children {
				walk(path+"["+strconv.Itoa(i)+"]", c)
			}
		}
	}
	walk(root, d)
	return out
}

// avalText is how messages show a leaf's type: float32[3], with "weak"
// where that is the difference.
func avalText(a trace.AVal) string { return a.LongString() }

// carryMismatch compares a loop body's output carry with its input: the
// structure must be the same and every leaf of the same shape and dtype.
// Where only a weakly typed input leaf differs from the output, promote
// lists the leaves whose input may take the output's type (JAX retraces
// with them); any other difference is an error naming the leaf.
func carryMismatch(what, root string, in *jstarlark.TreeDef, inAvals []trace.AVal, out *jstarlark.TreeDef, outAvals []trace.AVal) (promote []int, err error) {
	if !in.Equal(out) {
		return nil, fmt.Errorf("%s must return a carry with the structure of its input: got %s, want %s", what, out, in)
	}
	paths := leafPaths(root, in)
	var errs []string
	for i, a := range inAvals {
		b := outAvals[i]
		if a.SameType(b) {
			continue
		}
		if a.Weak && a.Shape.Equal(b.Shape) {
			promote = append(promote, i)
			continue
		}
		errs = append(errs, fmt.Sprintf("the carry leaf %s is %s on input but %s on output", paths[i], avalText(a), avalText(b)))
	}
	if errs != nil {
		return nil, fmt.Errorf("%s must return a carry of the same types as its input: %s", what, strings.Join(errs, "; "))
	}
	return promote, nil
}

// promoteLeaves converts the given weak leaves to the body's output types.
func promoteLeaves(arrays []*jstarlark.Array, promote []int, outAvals []trace.AVal) error {
	for _, i := range promote {
		c, err := jstarlark.ConvertType(arrays[i], outAvals[i].Type())
		if err != nil {
			return err
		}
		arrays[i] = c
	}
	return nil
}
