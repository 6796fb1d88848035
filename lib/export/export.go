package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/lib/hostcallback"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Builtins returns export's names as scripts call them.
func Builtins() starlark.StringDict {
	b := jstarlark.NewBuiltin
	checks := starlark.StringDict{
		"platform":         b("DisabledSafetyCheck.platform", disabledCheck(export.PlatformCheck)),
		"shape_assertions": b("DisabledSafetyCheck.shape_assertions", disabledCheck(export.ShapeAssertionsCheck)),
		"custom_call":      b("DisabledSafetyCheck.custom_call", builtinCustomCallCheck),
	}
	return starlark.StringDict{
		"export":                  b("export", builtinExport),
		"deserialize":             b("deserialize", builtinDeserialize),
		"symbolic_shape":          b("symbolic_shape", builtinSymbolicShape),
		"default_export_platform": b("default_export_platform", builtinDefaultExportPlatform),
		"DisabledSafetyCheck":     &namespace{name: "DisabledSafetyCheck", members: checks},
	}
}

// A namespace is a frozen struct of builtins (DisabledSafetyCheck).
type namespace struct {
	name    string
	members starlark.StringDict
}

func (n *namespace) String() string        { return "<namespace " + n.name + ">" }
func (n *namespace) Type() string          { return "namespace" }
func (n *namespace) Freeze()               {}
func (n *namespace) Truth() starlark.Bool  { return starlark.True }
func (n *namespace) Hash() (uint32, error) { return starlark.String(n.name).Hash() }
func (n *namespace) Attr(name string) (starlark.Value, error) {
	return n.members[name], nil
}
func (n *namespace) AttrNames() []string { return n.members.Keys() }

// A checkValue is one DisabledSafetyCheck.
type checkValue struct{ c export.DisabledCheck }

func (c checkValue) String() string        { return c.c.String() }
func (c checkValue) Type() string          { return "DisabledSafetyCheck" }
func (c checkValue) Freeze()               {}
func (c checkValue) Truth() starlark.Bool  { return starlark.True }
func (c checkValue) Hash() (uint32, error) { return starlark.String(string(c.c)).Hash() }

func disabledCheck(c export.DisabledCheck) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
			return nil, err
		}
		return checkValue{c}, nil
	}
}

func builtinCustomCallCheck(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var target string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "target_name", &target); err != nil {
		return nil, err
	}
	return checkValue{export.CustomCallCheck(target)}, nil
}

func builtinDefaultExportPlatform(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
		return nil, err
	}
	dev, err := jstarlark.DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	return starlark.String(dev.Platform()), nil
}

// export(fun_jit, platforms=None, disabled_checks=())
func builtinExport(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Value
	var platforms, checks starlark.Value = starlark.None, starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun_jit", &fun, "platforms?", &platforms, "disabled_checks?", &checks); err != nil {
		return nil, err
	}
	j, ok := fun.(*jstarlark.Jitted)
	if !ok {
		return nil, fmt.Errorf("export: the function to export must be jitted, as in export(jit(f)); got %s", fun.Type())
	}
	var opts export.Options
	if platforms != starlark.None {
		names, err := jstarlark.StringsArg("platforms", platforms)
		if err != nil {
			return nil, fmt.Errorf("export: %v", err)
		}
		opts.Platforms = names
	}
	iter, ok := checks.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("export: disabled_checks must be a sequence of DisabledSafetyCheck, got %s", checks.Type())
	}
	for x := range starlark.Elements(iter) {
		c, ok := x.(checkValue)
		if !ok {
			return nil, fmt.Errorf("export: disabled_checks must hold DisabledSafetyCheck values, got %s", x.Type())
		}
		opts.DisabledChecks = append(opts.DisabledChecks, c.c)
	}
	return starlark.NewBuiltin("export("+j.Fun().Name()+")", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		e, err := exportJitted(thread, j, opts, args, kwargs)
		if err != nil {
			return nil, err
		}
		return &Exported{e: e}, nil
	}), nil
}

// exportJitted traces j for the arguments (arrays, numbers, or
// ShapeDtypeStructs standing for arrays) and makes the Exported. With
// symbolic shapes, it traces for a sample binding and again for each
// binding a call brings.
func exportJitted(thread *starlark.Thread, j *jstarlark.Jitted, opts export.Options, args starlark.Tuple, kwargs []starlark.Tuple) (*export.Exported, error) {
	leaves, tree, err := jstarlark.FlattenTree("export", starlark.Tuple{args, kwargsDict(kwargs)})
	if err != nil {
		return nil, err
	}
	var specs []export.SymbolicShape
	var constraints []export.Constraint
	symbolic := false
	for _, l := range leaves {
		var sym jstarlark.SymbolicShape
		if s, ok := l.(*jstarlark.ShapeDtypeStruct); ok {
			sym = s.Symbolic()
		}
		if sym != nil {
			symbolic = true
			constraints = append(constraints, sym.Constraints()...)
			specs = append(specs, sym.Dims())
		} else {
			specs = append(specs, nil)
		}
	}
	traceFor := func(shapes [][]int) (*export.Exported, error) {
		concrete := make([]starlark.Value, len(leaves))
		for i, l := range leaves {
			concrete[i] = l
			if s, ok := l.(*jstarlark.ShapeDtypeStruct); ok {
				shape := s.Shape()
				if shapes != nil && specs[i] != nil {
					shape = trace.Shape(shapes[i])
				}
				dev, err := jstarlark.DefaultDeviceOf(thread)
				if err != nil {
					return nil, err
				}
				a, err := jstarlark.NewArrayFromHost(dev, s.DType(), shape, make([]byte, shape.Size()*s.DType().Size()))
				if err != nil {
					return nil, err
				}
				concrete[i] = a
			}
		}
		rebuilt, err := tree.Unflatten(concrete)
		if err != nil {
			return nil, err
		}
		pair := rebuilt.(starlark.Tuple)
		traced, err := j.TraceCall(thread, pair[0].(starlark.Tuple), dictKwargs(pair[1].(*starlark.Dict)))
		if err != nil {
			return nil, err
		}
		var inTree *export.TreeDef
		if !traced.Static {
			inTree = jstarlark.ExportTree(tree)
		}
		e, err := export.New(j.Fun().Name(), traced.Jaxpr, inTree, jstarlark.ExportTree(traced.OutTree), traced.Device.Platform(), opts)
		if err != nil {
			return nil, err
		}
		if err := hostcallback.CheckCallbackNames(e); err != nil {
			return nil, err
		}
		return e, nil
	}
	if !symbolic {
		return traceFor(nil)
	}
	samples, envs, err := sampleBindings(specs, constraints)
	if err != nil {
		return nil, fmt.Errorf("export(%s): %v", j.Fun().Name(), err)
	}
	first, err := traceFor(samples[0])
	if err != nil {
		return nil, err
	}
	second, err := traceFor(samples[1])
	if err != nil {
		return nil, err
	}
	poly := &export.Polymorphism{Specs: specs, Constraints: constraints, Trace: traceFor,
		OutSpecs: export.InferOutSpecs(specs, envs, [2][]trace.AVal{first.OutAvals, second.OutAvals})}
	return export.NewPolymorphic(first, poly)
}

// sampleBindings finds two small sets of values of the dimension variables
// that meet the constraints: the function is traced at both at export
// time, to find how its output shapes follow the variables.
func sampleBindings(specs []export.SymbolicShape, constraints []export.Constraint) ([2][][]int, [2]map[string]int, error) {
	var shapesOut [2][][]int
	var envs [2]map[string]int
	found := 0
	var all []export.DimExpr
	for _, s := range specs {
		all = append(all, s...)
	}
	vars := export.Vars(all...)
	for base := 2; base <= 64; base++ {
		env := map[string]int{}
		for i, v := range vars {
			env[v] = base + i
		}
		shapes := make([][]int, len(specs))
		ok := true
		for i, s := range specs {
			if s == nil {
				continue
			}
			for _, d := range s {
				n, known := d.Eval(env)
				ok = ok && known && n >= 0
				shapes[i] = append(shapes[i], n)
			}
		}
		if !ok {
			continue
		}
		if env, err := export.BindDims(specs, shapes, constraints); err == nil {
			shapesOut[found], envs[found] = shapes, env
			if found++; found == 2 {
				return shapesOut, envs, nil
			}
		}
	}
	return shapesOut, envs, fmt.Errorf("no small values of the dimension variables %s meet the specifications and constraints", strings.Join(vars, ", "))
}

func kwargsDict(kwargs []starlark.Tuple) *starlark.Dict {
	d := starlark.NewDict(len(kwargs))
	for _, kv := range kwargs {
		_ = d.SetKey(kv[0], kv[1])
	}
	return d
}

func dictKwargs(d *starlark.Dict) []starlark.Tuple {
	var out []starlark.Tuple
	for _, item := range d.Items() {
		out = append(out, starlark.Tuple{item[0], item[1]})
	}
	return out
}

// An Exported is the Starlark value of an export.Exported.
type Exported struct {
	e *export.Exported

	mu     sync.Mutex
	closed *trace.Jaxpr                      // the program with its constants as leading inputs
	consts map[jit.Device][]*jstarlark.Array // the constants, per device
}

var _ starlark.HasAttrs = (*Exported)(nil)

func (x *Exported) String() string        { return "Exported(" + x.e.FunName + ")" }
func (x *Exported) Type() string          { return "Exported" }
func (x *Exported) Freeze()               {}
func (x *Exported) Truth() starlark.Bool  { return starlark.True }
func (x *Exported) Hash() (uint32, error) { return 0, errors.New("unhashable type: Exported") }

// Export wraps an export.Exported for scripts (the embedding API's).
func Export(e *export.Exported) *Exported { return &Exported{e: e} }

// Artifact is the wrapped export.Exported.
func (x *Exported) Artifact() *export.Exported { return x.e }

func (x *Exported) AttrNames() []string {
	return []string{"as_text", "call", "calling_convention_version", "disabled_checks", "fun_name", "in_avals", "in_tree",
		"mlir_module", "nr_devices", "ordered_effects", "out_avals", "out_tree", "platforms", "serialize", "unordered_effects", "vjp"}
}

// A reprValue prints as given: ShapedArray(float32[3]), Ordered(print).
type reprValue string

func (r reprValue) String() string        { return string(r) }
func (r reprValue) Type() string          { return "repr" }
func (r reprValue) Freeze()               {}
func (r reprValue) Truth() starlark.Bool  { return starlark.True }
func (r reprValue) Hash() (uint32, error) { return starlark.String(r).Hash() }

func reprTuple(items []string) starlark.Tuple {
	t := make(starlark.Tuple, len(items))
	for i, s := range items {
		t[i] = reprValue(s)
	}
	return t
}

func (x *Exported) Attr(name string) (starlark.Value, error) {
	e := x.e
	method := func(fn jstarlark.BuiltinFunc) starlark.Value {
		return starlark.NewBuiltin(name, jstarlark.Guard("Exported."+name, fn))
	}
	switch name {
	case "fun_name":
		return starlark.String(e.FunName), nil
	case "in_avals":
		return reprTuple(e.InAvalReprs()), nil
	case "out_avals":
		return reprTuple(e.OutAvalReprs()), nil
	case "in_tree", "out_tree":
		t := e.InTree
		if name == "out_tree" {
			t = e.OutTree
		}
		if t == nil {
			return starlark.None, nil
		}
		return reprValue(t.String()), nil
	case "platforms":
		t := make(starlark.Tuple, len(e.Platforms))
		for i, p := range e.Platforms {
			t[i] = starlark.String(p)
		}
		return t, nil
	case "ordered_effects", "unordered_effects":
		effs := e.OrderedEffects
		if name == "unordered_effects" {
			effs = e.UnorderedEffects
		}
		items := make([]string, len(effs))
		for i, eff := range effs {
			items[i] = eff.String()
		}
		return reprTuple(items), nil
	case "calling_convention_version":
		return starlark.MakeInt(e.CallingConventionVersion), nil
	case "nr_devices":
		return starlark.MakeInt(e.NrDevices), nil
	case "disabled_checks":
		t := make(starlark.Tuple, len(e.DisabledChecks))
		for i, c := range e.DisabledChecks {
			t[i] = checkValue{c}
		}
		return t, nil
	case "call":
		return starlark.NewBuiltin("call", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return x.call(thread, args, kwargs)
		}), nil
	case "as_text":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			return starlark.String(e.Jaxpr.String()), nil
		}), nil
	case "mlir_module":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			text, err := e.MLIRModule()
			if err != nil {
				return nil, err
			}
			return starlark.String(text), nil
		}), nil
	case "serialize":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			order := 0
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "vjp_order?", &order); err != nil {
				return nil, err
			}
			data, err := e.Serialize(order)
			if err != nil {
				return nil, err
			}
			return starlark.Bytes(data), nil
		}), nil
	case "vjp":
		return method(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			v, err := e.VJP()
			if err != nil {
				return nil, err
			}
			return &Exported{e: v}, nil
		}), nil
	}
	return nil, nil
}

// call runs the artifact on arguments of its in_avals' types: inside a
// trace as one nested-jit equation holding the artifact's jaxpr, outside
// one as a program dispatched with the thread's runtime tokens.
func (x *Exported) call(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	e := x.e
	leaves, tree, err := jstarlark.FlattenTree(e.FunName, starlark.Tuple{args, kwargsDict(kwargs)})
	if err != nil {
		return nil, err
	}
	if e.InTree != nil {
		if got := jstarlark.ExportTree(tree); got.String() != e.InTree.String() {
			return nil, fmt.Errorf("Function '%s' was exported for arguments of structure %s and is called with %s",
				e.FunName, e.InTree, got)
		}
	}
	return x.CallLeaves(thread, leaves)
}

// CallLeaves runs the artifact on its flattened arguments (arrays or
// numbers), as call does once it has checked their structure.
func (x *Exported) CallLeaves(thread *starlark.Thread, leaves []starlark.Value) (starlark.Value, error) {
	e := x.e
	if len(leaves) != len(e.InAvals) {
		return nil, fmt.Errorf("Function '%s' was exported for %d array arguments and is called with %d", e.FunName, len(e.InAvals), len(leaves))
	}
	dev, err := jstarlark.DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	for _, l := range leaves {
		if a, ok := l.(*jstarlark.Array); ok && !a.Traced() {
			dev = a.Device()
			break
		}
	}
	if ts := jstarlark.CurrentTraceOf(thread); ts != nil {
		dev = ts.Device
	}
	if e.Poly != nil {
		shapes := make([][]int, len(leaves))
		for i, l := range leaves {
			if a, ok := l.(*jstarlark.Array); ok {
				shapes[i] = a.AVal().Shape
			}
		}
		spec, _, err := e.Poly.Specialize(shapes)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.FunName, err)
		}
		e = spec
	}
	arrays := make([]*jstarlark.Array, len(leaves))
	for i, l := range leaves {
		want := e.InAvals[i]
		switch v := l.(type) {
		case *jstarlark.Array:
			arrays[i] = v
		default:
			if _, ok := jstarlark.ScalarType(l); !ok {
				return nil, fmt.Errorf("Function '%s': argument leaf %d is a %s, not an array or a number", e.FunName, i, l.Type())
			}
			a, err := jstarlark.ArrayFromValue(e.FunName, l, trace.Type{DType: want.DType, Weak: true}, dev)
			if err != nil {
				return nil, err
			}
			arrays[i] = a
		}
	}
	avals := make([]trace.AVal, len(arrays))
	for i, a := range arrays {
		avals[i] = a.AVal()
	}
	if err := e.CheckArgs(avals); err != nil {
		return nil, err
	}
	if err := e.CheckPlatform(dev.Platform()); err != nil {
		return nil, err
	}
	closed, consts, err := x.program(e, dev)
	if err != nil {
		return nil, err
	}
	outTree := jstarlark.TreeFromExport(e.OutTree)
	return jstarlark.ControlFlow(thread, e.FunName, func() (jit.Device, error) { return dev, nil }, func(ts *jstarlark.Trace) (starlark.Value, error) {
		outs, err := jstarlark.BindTraced(ts, "jit", trace.Params{"name": trace.Ident(e.FunName), "jaxpr": closed}, append(slices.Clone(consts), arrays...)...)
		if err != nil {
			return nil, err
		}
		vals := make([]starlark.Value, len(outs))
		for i, o := range outs {
			vals[i] = o
		}
		if outTree == nil {
			return starlark.Tuple(vals), nil
		}
		return outTree.Unflatten(vals)
	})
}

// program is the artifact's jaxpr with its constants as leading inputs,
// and the constants on dev.
func (x *Exported) program(e *export.Exported, dev jit.Device) (*trace.Jaxpr, []*jstarlark.Array, error) {
	if e != x.e { // a specialization of a polymorphic export: not cached here
		return closedProgram(e, dev)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.consts == nil {
		x.consts = map[jit.Device][]*jstarlark.Array{}
	}
	if c, ok := x.consts[dev]; ok {
		return x.closed, c, nil
	}
	closed, consts, err := closedProgram(e, dev)
	if err != nil {
		return nil, nil, err
	}
	x.closed, x.consts[dev] = closed, consts
	return closed, consts, nil
}

func closedProgram(e *export.Exported, dev jit.Device) (*trace.Jaxpr, []*jstarlark.Array, error) {
	j := e.Jaxpr
	closed := &trace.Jaxpr{
		InVars:  append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...),
		OutVars: j.OutVars,
		Eqns:    j.Eqns,
		Effects: j.Effects,
	}
	payloads := j.Consts
	if e.Loaded() {
		// A loaded artifact differentiates with the VJPs it stores, and no
		// further (JAX's "No VJP is available").
		var err error
		if closed, payloads, err = e.CallJaxpr(); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", e.FunName, err)
		}
	}
	bufs, err := export.ConstBuffers(&trace.Jaxpr{Consts: payloads}, dev)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", e.FunName, err)
	}
	consts := make([]*jstarlark.Array, len(bufs))
	for i, b := range bufs {
		consts[i] = jstarlark.NewArray(b)
	}
	return closed, consts, nil
}

// deserialize(serialized, callbacks={})
func builtinDeserialize(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	var callbacks *starlark.Dict
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "serialized", &data, "callbacks?", &callbacks); err != nil {
		return nil, err
	}
	raw, ok := data.(starlark.Bytes)
	if !ok {
		return nil, fmt.Errorf("deserialize: serialized must be bytes, got %s", data.Type())
	}
	fns := map[string]starlark.Callable{}
	if callbacks != nil {
		for _, item := range callbacks.Items() {
			name, ok := item[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("deserialize: callbacks must map names (strings) to functions, got a %s key", item[0].Type())
			}
			fn, ok := item[1].(starlark.Callable)
			if !ok {
				return nil, fmt.Errorf("deserialize: callbacks[%q] must be a function, got %s", string(name), item[1].Type())
			}
			fns[string(name)] = fn
		}
	}
	return Deserialize([]byte(raw), fns)
}

// Deserialize loads a serialized artifact for scripts and Go callers:
// callbacks binds each stored host callback by name (Starlark functions or
// Go functions, GoFunction).
func Deserialize(data []byte, callbacks map[string]starlark.Callable) (*Exported, error) {
	e, err := export.DeserializeWith(data, hostcallback.CallbackBindings(callbacks))
	if err != nil {
		return nil, err
	}
	return &Exported{e: e}, nil
}
