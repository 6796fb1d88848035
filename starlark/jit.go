package starlark

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Jitted is the value of jit(fun, ...): calling it traces fun once per
// signature — the abstract values of the array arguments (shape, dtype,
// weak type), their pytree structure, the static arguments' values and the
// device — compiles the trace, and runs the compiled program; later calls
// with the same signature run the cached program. Starlark side effects of
// fun (appending to a list) therefore happen at trace time only, as in JAX.
// Called while another function is being traced, a Jitted is traced
// through: its operations join the outer trace.
type Jitted struct {
	fun         starlark.Callable
	staticNums  []int
	staticNames []string
	donateNums  []int
	device      jit.Device
	inline      bool

	// fn is the compile cache (jit.Function). Its fast cache holds calls
	// whose arguments are all concrete arrays passed positionally, by a
	// key built without flattening (fastKey): the common call skips the
	// pytree and signature work.
	fn *jit.Function
}

var (
	_ starlark.Callable = (*Jitted)(nil)
	_ starlark.HasAttrs = (*Jitted)(nil)
)

func (j *Jitted) Name() string          { return "jit(" + j.fun.Name() + ")" }
func (j *Jitted) String() string        { return "<jitted function " + j.fun.Name() + ">" }
func (j *Jitted) Type() string          { return "Jitted" }
func (j *Jitted) Freeze()               { j.fun.Freeze() }
func (j *Jitted) Truth() starlark.Bool  { return starlark.True }
func (j *Jitted) Hash() (uint32, error) { return starlark.String(j.Name()).Hash() }

func (j *Jitted) AttrNames() []string { return []string{"lower"} }

func (j *Jitted) Attr(name string) (starlark.Value, error) {
	switch name {
	case "lower":
		return starlark.NewBuiltin("lower", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			c, _, err := j.prepare(thread, args, kwargs)
			if err != nil {
				return nil, err
			}
			return &Lowered{fun: j.fun.Name(), c: c}, nil
		}), nil
	}
	return nil, nil
}

// jitCall is one call's arguments split into what the signature needs.
type jitCall struct {
	sig    *jit.Signature
	leaves []*Array // the dynamic array leaves, on the call's device
	// orig are the leaves as passed (a leaf moved to the device is a
	// copy; a number has none): the arrays a donation deletes.
	orig    []*Array
	donate  []bool // per leaf: donated (nil: none is)
	rebuild func(leaves []starlark.Value) (starlark.Tuple, []starlark.Tuple, error)
	dev     jit.Device
}

// exportRoundTrip, when set (by a test), runs every top-level jitted call
// through export, serialize and deserialize instead.
var exportRoundTrip func(thread *starlark.Thread, j *Jitted, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// Fun is the function j compiles.
func (j *Jitted) Fun() starlark.Callable { return j.fun }

// A TracedCall is a jitted function traced for one call's arguments, as
// jit would compile it: what export stages.
type TracedCall struct {
	Jaxpr   *trace.Jaxpr
	OutTree *TreeDef
	Device  jit.Device // the call's device
	Leaves  []*Array   // the dynamic array leaves, on Device
	// Static: the function has static arguments, so the jaxpr's inputs
	// are not the arguments' leaves.
	Static bool
}

// TraceCall traces j for a call with args and kwargs without compiling or
// running it.
func (j *Jitted) TraceCall(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (*TracedCall, error) {
	call, err := j.split(args, kwargs)
	if err != nil {
		return nil, err
	}
	jaxpr, outTree, err := traceFunction(thread, j.fun, call, nil)
	if err != nil {
		return nil, err
	}
	return &TracedCall{Jaxpr: jaxpr, OutTree: outTree, Device: call.dev, Leaves: call.leaves,
		Static: len(j.staticNums) > 0 || len(j.staticNames) > 0}, nil
}

// CallInternal runs the compiled function, compiling it first on a cache
// miss.
func (j *Jitted) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	keyBuf := fastKeys.Get().(*[]byte)
	defer fastKeys.Put(keyBuf)
	// fastKey accepts only concrete arrays, so a call it accepts holds no
	// tracer and needs no pytree walk to find one.
	key, ok := j.fastKey((*keyBuf)[:0], args, kwargs)
	*keyBuf = key
	if ts := currentTrace(); ts != nil || (!ok && anyTraced(args, kwargs)) {
		if j.inline || ts == nil {
			return starlark.Call(thread, j.fun, args, kwargs) // traced through
		}
		return j.callNested(thread, ts, args, kwargs)
	}
	if exportRoundTrip != nil {
		return exportRoundTrip(thread, j, args, kwargs)
	}
	var c *jit.Compiled
	var leaves []*Array
	if ok {
		c = j.fn.LookupFast(key)
	}
	orig := leaves
	if c != nil {
		leaves = j.dynamicArrays(args)
		orig = leaves
		for i, a := range leaves {
			if err := a.live(); err != nil {
				return nil, fmt.Errorf("jit(%s): argument leaf %d: %v", j.fun.Name(), i, err)
			}
		}
	} else {
		cc, call, err := j.prepare(thread, args, kwargs)
		if err != nil {
			return nil, err
		}
		c, leaves, orig = cc, call.leaves, call.orig
		if ok {
			j.fn.StoreFast(key, c)
		}
	}
	// Which donated leaves another array may also hold: the program
	// writes into a copy of those, so the other stays intact.
	var shared []bool
	for i, d := range c.Donate {
		if d && (leaves[i].shared || (orig[i] != nil && orig[i].shared)) {
			if shared == nil {
				shared = make([]bool, len(leaves))
			}
			shared[i] = true
		}
	}
	if err := checkFits(thread, c.Device, c.Need, c.Largest); err != nil {
		return nil, fmt.Errorf("%s: %w", j.fun.Name(), err)
	}
	p, err := j.dispatchCall(thread, c, leaves, shared)
	if err != nil {
		return nil, err
	}
	// Donated arguments are deleted at dispatch, as in JAX, whether or not
	// the plan could write a result into them.
	var name *string
	for i, d := range c.Donate {
		if d && orig[i] != nil {
			if name == nil {
				n := j.Name()
				name = &n
			}
			orig[i].donatedTo = name
			leaves[i].donatedTo = name
		}
	}
	outVars := c.Program.Jaxpr.OutVars
	results := make([]starlark.Value, len(outVars))
	// A program that ran at once and succeeded (jit's quick path) returns
	// computed arrays: what reads or computes with them next need not go
	// through its future. A failure stays pending, raised when read.
	done := p.fut.Ready() && p.fut.Event().Err() == nil
	for i, ov := range outVars {
		var r *Array
		if done {
			buf, _ := p.fut.Output(i)
			r = &Array{aval: ov.Aval(), buf: buf}
		} else {
			r = newPendingArray(p, i, ov.Aval())
		}
		if k := c.OutAlias(i); k != -1 {
			// An argument or captured constant returned as it is: both
			// arrays hold the buffer. A donated one is deleted now, and
			// the result is the buffer's only holder.
			if k < 0 || c.Donate == nil || !c.Donate[k] {
				r.shared = true
				if k >= 0 {
					leaves[k].shared = true
					if orig[k] != nil {
						orig[k].shared = true
					}
				}
			}
		}
		for k, prev := range outVars[:i] {
			if prev == ov { // a result listed twice
				results[k].(*Array).shared, r.shared = true, true
			}
		}
		results[i] = r
	}
	return c.Extra.(*TreeDef).Unflatten(results)
}

// dispatchCall runs c on the call's array leaves through jit's API, for
// thread: donation checks, copies of shared donated buffers, dispatch
// ordered by the thread's runtime tokens.
func (j *Jitted) dispatchCall(thread *starlark.Thread, c *jit.Compiled, leaves []*Array, shared []bool) (*pending, error) {
	caller := callerOf(thread)
	f, err := c.Call(caller, operandsOf(leaves), shared)
	if err != nil {
		return nil, err
	}
	return caller.pendingOf(f, len(c.Jaxpr.Effects) > 0), nil
}

var fastKeys = sync.Pool{New: func() any { b := make([]byte, 0, 128); return &b }}

// fastKey appends the key of a call whose non-static arguments are all
// concrete arrays given positionally, and reports whether the call is of
// that kind. The key holds each dynamic array's dtype, shape, weak type and
// device, and each static argument's type and repr.
func (j *Jitted) fastKey(b []byte, args starlark.Tuple, kwargs []starlark.Tuple) ([]byte, bool) {
	if len(kwargs) > 0 {
		return b, false
	}
	arrays := 0
	for i, v := range args {
		if j.isStaticPos(i, len(args)) {
			b = append(b, v.Type()...)
			b = append(b, ':')
			b = append(b, v.String()...)
			b = append(b, ';')
			continue
		}
		a, ok := v.(*Array)
		if !ok || a.tr != nil || (j.device != nil && a.Device() != j.device) {
			return b, false
		}
		arrays++
		b = append(b, a.DType().ShortName()...)
		for _, d := range a.Shape() {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(d), 10)
		}
		if a.aval.Weak {
			b = append(b, '~')
		}
		b = append(b, '@')
		b = append(b, a.Device().String()...)
		b = append(b, ';')
	}
	// Without an array argument the device is the session's default, which
	// the key cannot see: such calls take the full path.
	return b, arrays > 0
}

func (j *Jitted) isStaticPos(i, n int) bool {
	for _, s := range j.staticNums {
		if s == i || s+n == i {
			return true
		}
	}
	return false
}

// dynamicArrays returns the non-static positional arguments of a call that
// fastKey accepted, in order: the compiled function's array leaves.
func (j *Jitted) dynamicArrays(args starlark.Tuple) []*Array {
	out := make([]*Array, 0, len(args))
	for i, v := range args {
		if !j.isStaticPos(i, len(args)) {
			out = append(out, v.(*Array))
		}
	}
	return out
}

func anyTraced(args starlark.Tuple, kwargs []starlark.Tuple) bool {
	vals := append([]starlark.Value(nil), args...)
	for _, kv := range kwargs {
		vals = append(vals, kv[1])
	}
	leaves, _, err := FlattenTree("jit", starlark.Tuple(vals))
	if err != nil {
		return false
	}
	for _, l := range leaves {
		if a, ok := l.(*Array); ok && a.Traced() {
			return true
		}
	}
	return false
}

// prepare finds or builds the compiled function for a call.
func (j *Jitted) prepare(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (*jit.Compiled, *jitCall, error) {
	call, err := j.split(args, kwargs)
	if err != nil {
		return nil, nil, err
	}
	opts := jit.CompileOptions{Donate: call.donate, Log: logCompilesOf(thread)}
	if dumpEnabled("ir") {
		opts.DumpJaxpr = os.Stderr
	}
	if dumpEnabled("passes") {
		opts.DumpPasses = os.Stderr
	}
	if dumpEnabled("kernels") {
		opts.DumpKernels = os.Stderr
	}
	// A cache miss traces, then compiles: one step for the progress line.
	endStep := func() {}
	c, err := j.fn.Compile(call.sig, opts, func(*jit.Signature) (*jit.Traced, error) {
		endStep = beginStep(thread, "compiling "+j.fun.Name())
		jaxpr, outTree, err := traceFunction(thread, j.fun, call, nil)
		if err != nil {
			return nil, err
		}
		return &jit.Traced{Jaxpr: jaxpr, Extra: outTree}, nil
	})
	endStep()
	if err != nil {
		return nil, nil, err
	}
	return c, call, nil
}

// split separates static from dynamic arguments, converts the dynamic
// leaves to arrays and computes the signature.
func (j *Jitted) split(args starlark.Tuple, kwargs []starlark.Tuple) (*jitCall, error) {
	fn := j.fun.Name()
	isStaticPos := map[int]bool{}
	for _, n := range j.staticNums {
		if n < 0 {
			n += len(args)
		}
		// A static parameter not passed positionally comes by keyword (its
		// name is in staticNames) or keeps its default.
		isStaticPos[n] = true
	}
	isStaticName := map[string]bool{}
	for _, n := range j.staticNames {
		isStaticName[n] = true
	}
	sig := &jit.Signature{}
	var dynArgs []starlark.Value
	var dynPos []int
	for i, a := range args {
		if isStaticPos[i] {
			if _, err := a.Hash(); err != nil {
				return nil, fmt.Errorf("jit(%s): static argument %d must be hashable, got %s", fn, i, a.Type())
			}
			sig.Static = append(sig.Static, a.Type()+":"+a.String())
			sig.Shown = append(sig.Shown, fmt.Sprintf("argument %d = %s", i, a))
			continue
		}
		dynArgs = append(dynArgs, a)
		dynPos = append(dynPos, i)
	}
	dynKw := starlark.NewDict(len(kwargs))
	var staticKw []starlark.Tuple
	names := make([]string, 0, len(kwargs))
	for _, kv := range kwargs {
		names = append(names, string(kv[0].(starlark.String)))
	}
	sort.Strings(names)
	kwByName := map[string]starlark.Value{}
	for _, kv := range kwargs {
		kwByName[string(kv[0].(starlark.String))] = kv[1]
	}
	for _, name := range names {
		v := kwByName[name]
		if isStaticName[name] {
			if _, err := v.Hash(); err != nil {
				return nil, fmt.Errorf("jit(%s): static argument %s must be hashable, got %s", fn, name, v.Type())
			}
			sig.Static = append(sig.Static, name+"="+v.Type()+":"+v.String())
			sig.Shown = append(sig.Shown, fmt.Sprintf("%s = %s", name, v))
			staticKw = append(staticKw, starlark.Tuple{starlark.String(name), v})
			continue
		}
		_ = dynKw.SetKey(starlark.String(name), v)
	}
	leaves, tree, err := FlattenTree("jit("+fn+")", starlark.Tuple{starlark.Tuple(dynArgs), dynKw})
	if err != nil {
		return nil, err
	}
	sig.Tree = tree.String()

	dev := j.device
	for _, l := range leaves {
		if a, ok := l.(*Array); ok && dev == nil {
			dev = a.Device()
		}
	}
	if dev == nil {
		if dev, err = DefaultDevice(); err != nil {
			return nil, err
		}
	}
	sig.Device = dev
	arrays := make([]*Array, len(leaves))
	orig := make([]*Array, len(leaves))
	for i, l := range leaves {
		a, err := jitLeaf(fn, i, l, dev, j.device != nil)
		if err != nil {
			return nil, err
		}
		arrays[i] = a
		orig[i], _ = l.(*Array)
		sig.Args = append(sig.Args, a.aval)
	}
	rebuild := func(newLeaves []starlark.Value) (starlark.Tuple, []starlark.Tuple, error) {
		v, err := tree.Unflatten(newLeaves)
		if err != nil {
			return nil, nil, err
		}
		parts := v.(starlark.Tuple)
		dyn, kw := parts[0].(starlark.Tuple), parts[1].(*starlark.Dict)
		out := make(starlark.Tuple, len(args))
		for i, a := range args {
			out[i] = a
		}
		for k, pos := range dynPos {
			out[pos] = dyn[k]
		}
		kwargs := append([]starlark.Tuple(nil), staticKw...)
		for _, item := range kw.Items() {
			kwargs = append(kwargs, item)
		}
		return out, kwargs, nil
	}
	donate, err := j.donatedLeaves(dynArgs, dynPos, len(args), len(leaves))
	if err != nil {
		return nil, err
	}
	return &jitCall{sig: sig, leaves: arrays, orig: orig, donate: donate, rebuild: rebuild, dev: dev}, nil
}

// donatedLeaves marks the array leaves of the positional arguments named by
// donate_argnums (negative positions count from the end); nil when none.
// The dynamic positional arguments' leaves come first, in order.
func (j *Jitted) donatedLeaves(dynArgs []starlark.Value, dynPos []int, nargs, nleaves int) ([]bool, error) {
	if len(j.donateNums) == 0 {
		return nil, nil
	}
	donated := map[int]bool{}
	for _, n := range j.donateNums {
		if n < 0 {
			n += nargs
		}
		donated[n] = true
	}
	var flags []bool
	at := 0
	for k, a := range dynArgs {
		sub, _, err := FlattenTree("jit("+j.fun.Name()+")", a)
		if err != nil {
			return nil, err
		}
		if donated[dynPos[k]] && len(sub) > 0 {
			if flags == nil {
				flags = make([]bool, nleaves)
			}
			for i := range sub {
				flags[at+i] = true
			}
		}
		at += len(sub)
	}
	return flags, nil
}

// jitLeaf converts a dynamic argument leaf to an array on dev: arrays as
// they are, Python scalars as weakly typed arrays (as jax.jit does). When
// jit was given the device (placed), concrete arrays elsewhere are copied
// there (devices.go says why); otherwise they are an error.
func jitLeaf(fn string, i int, v starlark.Value, dev jit.Device, placed bool) (*Array, error) {
	switch x := v.(type) {
	case *Array:
		if err := x.live(); err != nil {
			return nil, fmt.Errorf("jit(%s): argument leaf %d: %v", fn, i, err)
		}
		if x.Device() != dev {
			if placed && !x.Traced() {
				return moveArray(x, dev)
			}
			return nil, fmt.Errorf("jit(%s): argument leaf %d is on %s but the computation runs on %s; move it with device_put", fn, i, x.Device(), dev)
		}
		return x, nil
	case starlark.Int, starlark.Float, starlark.Bool:
		t, _ := ScalarType(x)
		return ArrayFromValue("jit("+fn+")", x, t, dev)
	}
	return nil, fmt.Errorf("jit(%s): argument leaf %d of type %s is not an array or a number; "+
		"pass it with static_argnums or static_argnames to make it part of the compiled function", fn, i, v.Type())
}

// callNested traces a jitted function called inside another trace into a
// jaxpr of its own and records it in the outer trace as one `jit`
// equation (JAX's nested jit, kept as a call; inline=True traces through
// instead). Values the nested function closes over — outer tracers and
// concrete arrays — become leading operands of the call.
func (j *Jitted) callNested(thread *starlark.Thread, outer *Trace, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	call, err := j.split(args, kwargs)
	if err != nil {
		return nil, err
	}
	inner, outTree, err := traceFunction(thread, j.fun, call, outer)
	if err != nil {
		return nil, err
	}
	operands := make([]*Array, 0, len(inner.Consts)+len(call.leaves))
	for _, c := range inner.Consts {
		switch c := c.(type) {
		case *Array:
			operands = append(operands, c)
		case jit.Buffer:
			operands = append(operands, NewArray(c))
		default:
			return nil, fmt.Errorf("internal error: constant of type %T in a nested jaxpr", c)
		}
	}
	operands = append(operands, call.leaves...)
	closed := &trace.Jaxpr{
		InVars:  append(append([]*trace.Var(nil), inner.ConstVars...), inner.InVars...),
		OutVars: inner.OutVars,
		Eqns:    inner.Eqns,
		Effects: inner.Effects,
	}
	outs, err := BindTraced(outer, "jit", trace.Params{"name": trace.Ident(j.fun.Name()), "jaxpr": closed}, operands...)
	if err != nil {
		return nil, err
	}
	leaves := make([]starlark.Value, len(outs))
	for i, o := range outs {
		leaves[i] = o
	}
	return outTree.Unflatten(leaves)
}

// traceFunction calls fun with traced stand-ins for the call's array
// leaves and returns the jaxpr of its result and the result's structure.
// parent is the enclosing trace of a nested jit, or nil.
func traceFunction(thread *starlark.Thread, fun starlark.Callable, call *jitCall, parent *Trace) (*trace.Jaxpr, *TreeDef, error) {
	ts := &Trace{b: trace.NewBuilder(), Thread: thread, name: fun.Name(), Device: call.dev, parent: parent}
	defer func() { ts.done = true }()
	inputs := make([]starlark.Value, len(call.leaves))
	for i, a := range call.leaves {
		inputs[i] = NewTracedArray(ts, ts.b.Input(a.aval))
	}
	args, kwargs, err := call.rebuild(inputs)
	if err != nil {
		return nil, nil, err
	}
	result, err := withTrace(ts, func() (starlark.Value, error) { return starlark.Call(thread, fun, args, kwargs) })
	if err != nil {
		return nil, nil, err
	}
	leaves, tree, err := FlattenTree(fun.Name(), result)
	if err != nil {
		return nil, nil, err
	}
	outs := make([]trace.Atom, len(leaves))
	for i, l := range leaves {
		a, ok := l.(*Array)
		if !ok {
			if t, isNum := ScalarType(l); isNum {
				if a, err = ArrayFromValue(fun.Name(), l, t, call.dev); err != nil {
					return nil, nil, err
				}
			} else {
				return nil, nil, fmt.Errorf("%s returned a %s inside its result; a traced function must return arrays, numbers, or tuples, lists and dicts of them", fun.Name(), l.Type())
			}
		}
		if outs[i], err = ts.AtomOf(a); err != nil {
			return nil, nil, err
		}
	}
	jaxpr, err := ts.b.Build(outs)
	if err != nil {
		return nil, nil, err
	}
	return jaxpr, tree, nil
}

const logCompilesKey = "jaxsh.logCompiles"

func logCompilesOf(thread *starlark.Thread) io.Writer {
	w, _ := thread.Local(logCompilesKey).(io.Writer)
	return w
}
