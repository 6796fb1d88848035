package starlark

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
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

	mu    sync.Mutex
	cache map[string]*compiledFun
	last  *signature // the signature compiled last, to explain the next miss
	// fast caches calls whose arguments are all concrete arrays passed
	// positionally, by a key built without flattening (fastKey): the
	// common call skips the pytree and signature work.
	fast map[string]*compiledFun
}

var (
	_ starlark.Callable = (*Jitted)(nil)
	_ starlark.HasAttrs = (*Jitted)(nil)
)

// compiledFun is one cache entry: a traced, compiled function.
type compiledFun struct {
	jaxpr   *trace.Jaxpr
	program *jit.Program
	exe     jit.Executable
	consts  []jit.Buffer
	outTree *TreeDef
	dev     jit.Device
	// donate marks the array leaves whose buffers the program may write
	// (donate_argnums); nil when none is donated.
	donate []bool
	// quick marks a program that may run on the calling goroutine (see
	// quickProgram).
	quick bool
	// need is what one run allocates (results and temporaries), largest
	// its largest result, checked against the budgets at each call.
	need    int64
	largest trace.AVal
}

// signature is what a compiled program depends on.
type signature struct {
	dynamic []string // per array leaf: dtype[shape], with ~ for weak types
	static  []string // per static argument: its type and repr, the cache key part
	shown   []string // per static argument: how --log-compiles names it
	tree    string
	device  string
}

func (s *signature) key() string {
	return strings.Join(s.dynamic, ",") + "|" + strings.Join(s.static, ",") + "|" + s.tree + "|" + s.device
}

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
	sig    *signature
	leaves []*Array // the dynamic array leaves, on the call's device
	// orig are the leaves as passed (a leaf moved to the device is a
	// copy; a number has none): the arrays a donation deletes.
	orig    []*Array
	donate  []bool // per leaf: donated (nil: none is)
	rebuild func(leaves []starlark.Value) (starlark.Tuple, []starlark.Tuple, error)
	dev     jit.Device
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
	var c *compiledFun
	var leaves []*Array
	if ok {
		j.mu.Lock()
		c = j.fast[string(key)]
		j.mu.Unlock()
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
			j.mu.Lock()
			if j.fast == nil {
				j.fast = map[string]*compiledFun{}
			}
			j.fast[string(key)] = c
			j.mu.Unlock()
		}
	}
	if c.donate != nil {
		if err := j.checkDonation(c, leaves); err != nil {
			return nil, err
		}
	}
	// Which donated leaves another array may also hold: the program
	// writes into a copy of those, so the other stays intact.
	var copyLeaf []bool
	for i, d := range c.donate {
		if d && (leaves[i].shared || (orig[i] != nil && orig[i].shared)) {
			if copyLeaf == nil {
				copyLeaf = make([]bool, len(leaves))
			}
			copyLeaf[i] = true
		}
	}
	if err := checkFits(thread, c.dev, c.need, c.largest); err != nil {
		return nil, fmt.Errorf("%s: %w", j.fun.Name(), err)
	}
	name := j.fun.Name()
	exe, consts := c.exe, c.consts
	inputs := append([]*Array(nil), leaves...)
	p := dispatchMaybeNow(thread, c.dev, c.jaxpr.Effects, c.quick, inputs, name, func(host jit.Host) ([]jit.Buffer, error) {
		bufs := make([]jit.Buffer, 0, len(consts)+len(inputs))
		bufs = append(bufs, consts...)
		for i, a := range inputs {
			b, err := a.readyBuffer()
			if err != nil {
				return nil, err
			}
			if copyLeaf != nil && copyLeaf[i] {
				if b, err = copyBuffer(b); err != nil {
					return nil, err
				}
			}
			bufs = append(bufs, b)
		}
		return exe.Execute(bufs, host)
	})
	// Donated arguments are deleted at dispatch, as in JAX, whether or not
	// the plan could write a result into them.
	for i, d := range c.donate {
		if d && orig[i] != nil {
			orig[i].donatedTo = j.Name()
			leaves[i].donatedTo = j.Name()
		}
	}
	outVars := c.program.Jaxpr.OutVars
	results := make([]starlark.Value, len(outVars))
	for i, ov := range outVars {
		r := newPendingArray(p, i, ov.Aval())
		if i < len(c.program.OutAliases) {
			if k := c.program.OutAliases[i] - len(consts); c.program.OutAliases[i] >= 0 {
				// An argument or captured constant returned as it is: both
				// arrays hold the buffer. A donated one is deleted now, and
				// the result is the buffer's only holder.
				if k < 0 || c.donate == nil || !c.donate[k] {
					r.shared = true
					if k >= 0 {
						leaves[k].shared = true
						if orig[k] != nil {
							orig[k].shared = true
						}
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
	return c.outTree.Unflatten(results)
}

// checkDonation refuses a call that donates a buffer another leaf also
// passes: the program would write over an input it still reads.
func (j *Jitted) checkDonation(c *compiledFun, leaves []*Array) error {
	for i, d := range c.donate {
		if !d {
			continue
		}
		for k, a := range leaves {
			if k != i && sameStorage(a, leaves[i]) {
				return fmt.Errorf("jit(%s): argument leaf %d is donated and also passed as leaf %d", j.fun.Name(), i, k)
			}
		}
	}
	return nil
}

// sameStorage reports two arrays that hold the same buffer (or will: the
// same result of one pending program).
func sameStorage(a, b *Array) bool {
	if a.fut != nil || b.fut != nil {
		return a.fut == b.fut && a.futIndex == b.futIndex
	}
	return a.buf == b.buf
}

// copyBuffer returns a new buffer holding buf's elements, on its device.
func copyBuffer(buf jit.Buffer) (jit.Buffer, error) {
	data, err := jit.ToHost(buf)
	if err != nil {
		return nil, err
	}
	return jit.FromHost(buf.Device(), buf.AVal(), data)
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
func (j *Jitted) prepare(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (*compiledFun, *jitCall, error) {
	call, err := j.split(args, kwargs)
	if err != nil {
		return nil, nil, err
	}
	key := call.sig.key()
	j.mu.Lock()
	c, ok := j.cache[key]
	last := j.last
	j.mu.Unlock()
	if ok {
		return c, call, nil
	}
	if w := logCompilesOf(thread); w != nil {
		fmt.Fprintf(w, "jaxsh: compiling %s for (%s) on %s: %s\n", j.fun.Name(),
			strings.Join(call.sig.dynamic, ", "), call.sig.device, explainMiss(last, call.sig))
	}
	c, err = j.traceAndCompile(thread, call)
	if err != nil {
		return nil, nil, err
	}
	j.mu.Lock()
	if j.cache == nil {
		j.cache = map[string]*compiledFun{}
	}
	j.cache[key] = c
	j.last = call.sig
	j.mu.Unlock()
	return c, call, nil
}

// explainMiss says why a signature was not in the cache, compared with the
// one compiled before it.
func explainMiss(last, now *signature) string {
	if last == nil {
		return "first call"
	}
	var why []string
	if last.tree != now.tree {
		why = append(why, fmt.Sprintf("argument structure changed from %s to %s", last.tree, now.tree))
	} else {
		for i := range now.dynamic {
			if i < len(last.dynamic) && last.dynamic[i] != now.dynamic[i] {
				why = append(why, fmt.Sprintf("array argument %d changed from %s to %s", i, last.dynamic[i], now.dynamic[i]))
			}
		}
	}
	for i := range now.static {
		if i < len(last.static) && last.static[i] != now.static[i] {
			why = append(why, fmt.Sprintf("static %s (was %s)", now.shown[i], last.shown[i]))
		}
	}
	if last.device != now.device {
		why = append(why, fmt.Sprintf("device changed from %s to %s", last.device, now.device))
	}
	if len(why) == 0 {
		return "a signature seen before this one's predecessor"
	}
	return strings.Join(why, "; ")
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
	sig := &signature{}
	var dynArgs []starlark.Value
	var dynPos []int
	for i, a := range args {
		if isStaticPos[i] {
			if _, err := a.Hash(); err != nil {
				return nil, fmt.Errorf("jit(%s): static argument %d must be hashable, got %s", fn, i, a.Type())
			}
			sig.static = append(sig.static, a.Type()+":"+a.String())
			sig.shown = append(sig.shown, fmt.Sprintf("argument %d = %s", i, a))
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
			sig.static = append(sig.static, name+"="+v.Type()+":"+v.String())
			sig.shown = append(sig.shown, fmt.Sprintf("%s = %s", name, v))
			staticKw = append(staticKw, starlark.Tuple{starlark.String(name), v})
			continue
		}
		_ = dynKw.SetKey(starlark.String(name), v)
	}
	leaves, tree, err := FlattenTree("jit("+fn+")", starlark.Tuple{starlark.Tuple(dynArgs), dynKw})
	if err != nil {
		return nil, err
	}
	sig.tree = tree.String()

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
	sig.device = dev.String()
	arrays := make([]*Array, len(leaves))
	orig := make([]*Array, len(leaves))
	for i, l := range leaves {
		a, err := jitLeaf(fn, i, l, dev, j.device != nil)
		if err != nil {
			return nil, err
		}
		arrays[i] = a
		orig[i], _ = l.(*Array)
		t := a.aval.LongString()
		if a.aval.Weak {
			t += "~"
		}
		sig.dynamic = append(sig.dynamic, t)
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

// traceAndCompile traces the function on abstract copies of the call's
// leaves and compiles the result for the call's device.
// shuffleSeed reads JAXSH_SHUFFLE_KERNELS: a non-zero integer makes the
// scheduler run independent kernels in a random order drawn from that seed.
// It is a testing aid: ordered effects must keep their order under it, since
// their order comes from tokens, not from where kernels happen to land.
func shuffleSeed() int64 {
	v := os.Getenv("JAXSH_SHUFFLE_KERNELS")
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (j *Jitted) traceAndCompile(thread *starlark.Thread, call *jitCall) (*compiledFun, error) {
	jaxpr, outTree, err := traceFunction(thread, j.fun, call, nil)
	if err != nil {
		return nil, err
	}
	opts := jit.OptionsFor(call.dev)
	opts.Donate = call.donate
	opts.ShuffleSeed = shuffleSeed()
	if dumpEnabled("ir") {
		fmt.Fprintf(os.Stderr, "=== jaxpr of %s for (%s)\n%s\n", j.fun.Name(), strings.Join(call.sig.dynamic, ", "), jaxpr)
	}
	if dumpEnabled("passes") {
		opts.DumpPasses = os.Stderr
	}
	if dumpEnabled("kernels") {
		opts.DumpKernels = os.Stderr
	}
	if w := logCompilesOf(thread); w != nil {
		opts.OnRefusedFold = func(r jit.RefusedFold) {
			fmt.Fprintf(w, "jaxsh: %s: %s\n", j.fun.Name(), r)
		}
	}
	program, exe, err := jit.CompileOnWith(call.dev, jaxpr, opts)
	if err != nil {
		return nil, fmt.Errorf("jit(%s): %v", j.fun.Name(), err)
	}
	consts := make([]jit.Buffer, len(jaxpr.Consts))
	for i, c := range jaxpr.Consts {
		// A captured array may live elsewhere when jit was placed with device=.
		if consts[i], err = moveBuffer(c.(jit.Buffer), call.dev); err != nil {
			return nil, fmt.Errorf("jit(%s): %v", j.fun.Name(), err)
		}
	}
	need, largest := programNeed(program)
	return &compiledFun{jaxpr: jaxpr, program: program, exe: exe, consts: consts, outTree: outTree, dev: call.dev, donate: call.donate,
		quick: quickProgram(jaxpr, program), need: need, largest: largest}, nil
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
		inputs[i] = newTracedArray(ts, ts.b.Input(a.aval))
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
		if outs[i], err = ts.atomOf(a); err != nil {
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
