package starlark

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// jit(fun, static_argnums=(), static_argnames=(), donate_argnums=(),
// device=None, inline=False) returns a Jitted (SPEC §4). As in JAX,
// static_argnums and static_argnames each default to the parameters the
// other one names when fun is a Starlark function.
func builtinJit(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var staticNums, staticNames, donate, device starlark.Value = starlark.Tuple{}, starlark.Tuple{}, starlark.Tuple{}, starlark.None
	var inline bool
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "static_argnums?", &staticNums,
		"static_argnames?", &staticNames, "donate_argnums?", &donate, "device?", &device, "inline?", &inline); err != nil {
		return nil, err
	}
	j := &Jitted{fun: fun, inline: inline, fn: &jit.Function{Name: fun.Name()}}
	var err error
	if j.staticNums, err = IntsArg("jit: static_argnums", staticNums); err != nil {
		return nil, err
	}
	if j.staticNames, err = StringsArg("jit: static_argnames", staticNames); err != nil {
		return nil, err
	}
	if j.donateNums, err = IntsArg("jit: donate_argnums", donate); err != nil {
		return nil, err
	}
	for _, d := range j.donateNums {
		for _, s := range j.staticNums {
			if d == s {
				return nil, fmt.Errorf("jit: argument %d is both static and donated", d)
			}
		}
	}
	switch d := device.(type) {
	case starlark.NoneType:
	case Device:
		j.device = d.D
	case starlark.String:
		if j.device, err = jit.LookupDevice(string(d)); err != nil {
			return nil, fmt.Errorf("jit: %v", err)
		}
	default:
		return nil, fmt.Errorf("jit: device must be a Device or a name such as \"cpu:0\", got %s", device.Type())
	}
	if f, ok := fun.(*starlark.Function); ok {
		if err := checkStaticNums(f, j.staticNums); err != nil {
			return nil, fmt.Errorf("jit: %v", err)
		}
		if err := checkStaticNums(f, j.donateNums); err != nil {
			return nil, fmt.Errorf("jit: donate_argnums%v", strings.TrimPrefix(err.Error(), "static_argnums"))
		}
		j.staticNums, j.staticNames = matchStaticParams(f, j.staticNums, j.staticNames)
	}
	return j, nil
}

// checkStaticNums rejects static_argnums that name no parameter of f.
func checkStaticNums(f *starlark.Function, nums []int) error {
	if f.HasVarargs() {
		return nil
	}
	n := f.NumParams() - f.NumKwonlyParams()
	for _, i := range nums {
		if i >= n || i < -n {
			return fmt.Errorf("static_argnums %d is out of range: %s has %d positional parameter(s)", i, f.Name(), n)
		}
	}
	return nil
}

// matchStaticParams completes static_argnums from static_argnames and the
// other way round, by the function's parameter names.
func matchStaticParams(f *starlark.Function, nums []int, names []string) ([]int, []string) {
	n := f.NumParams()
	hasNum := map[int]bool{}
	for _, i := range nums {
		hasNum[i] = true
	}
	hasName := map[string]bool{}
	for _, s := range names {
		hasName[s] = true
	}
	for i := 0; i < n; i++ {
		name, _ := f.Param(i)
		if hasNum[i] && !hasName[name] {
			names = append(names, name)
		}
		if hasName[name] && !hasNum[i] && i < n-f.NumKwonlyParams() {
			nums = append(nums, i)
		}
	}
	return nums, names
}

// IntsArg reads an int or an iterable of ints (static_argnums,
// argnums, nondiff_argnums); what names the argument in errors.
func IntsArg(what string, v starlark.Value) ([]int, error) {
	if i, ok := v.(starlark.Int); ok {
		n, _ := i.Int64()
		return []int{int(n)}, nil
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s must be an int or a tuple of ints, got %s", what, v.Type())
	}
	var out []int
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		var n int
		if err := starlark.AsInt(x, &n); err != nil {
			return nil, fmt.Errorf("%s must hold ints, got %s", what, x.Type())
		}
		out = append(out, n)
	}
	return out, nil
}

// StringsArg reads a string or an iterable of strings (static_argnames,
// export's platforms); what names the argument in errors.
func StringsArg(what string, v starlark.Value) ([]string, error) {
	if s, ok := v.(starlark.String); ok {
		return []string{string(s)}, nil
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s must be a string or a tuple of strings, got %s", what, v.Type())
	}
	var out []string
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		s, ok := x.(starlark.String)
		if !ok {
			return nil, fmt.Errorf("%s must hold strings, got %s", what, x.Type())
		}
		out = append(out, string(s))
	}
	return out, nil
}

// make_jaxpr(fun, static_argnums=())(*args) traces fun and returns its jaxpr,
// whose text is SPEC §4's format.
func builtinMakeJaxpr(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var staticNums starlark.Value = starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "static_argnums?", &staticNums); err != nil {
		return nil, err
	}
	nums, err := IntsArg("make_jaxpr: static_argnums", staticNums)
	if err != nil {
		return nil, err
	}
	j := &Jitted{fun: fun, staticNums: nums, fn: &jit.Function{Name: fun.Name()}}
	if f, ok := fun.(*starlark.Function); ok {
		if err := checkStaticNums(f, nums); err != nil {
			return nil, fmt.Errorf("make_jaxpr: %v", err)
		}
		j.staticNums, j.staticNames = matchStaticParams(f, j.staticNums, nil)
	}
	return starlark.NewBuiltin("make_jaxpr("+fun.Name()+")", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		call, err := j.split(args, kwargs)
		if err != nil {
			return nil, err
		}
		jaxpr, _, err := traceFunction(thread, fun, call, nil)
		if err != nil {
			return nil, err
		}
		return &JaxprValue{J: jaxpr}, nil
	}), nil
}

// JaxprValue is the result of make_jaxpr: it prints as the jaxpr.
type JaxprValue struct{ J *trace.Jaxpr }

var _ starlark.HasAttrs = (*JaxprValue)(nil)

func (v *JaxprValue) String() string        { return v.J.String() }
func (v *JaxprValue) Type() string          { return "ClosedJaxpr" }
func (v *JaxprValue) Freeze()               {}
func (v *JaxprValue) Truth() starlark.Bool  { return starlark.True }
func (v *JaxprValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: ClosedJaxpr") }
func (v *JaxprValue) AttrNames() []string   { return []string{"eqns", "in_avals", "out_avals"} }

func (v *JaxprValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "eqns":
		return starlark.MakeInt(len(v.J.Eqns)), nil
	case "in_avals":
		return avalTuple(v.J.InAvals()), nil
	case "out_avals":
		return avalTuple(v.J.OutAvals()), nil
	}
	return nil, nil
}

func avalTuple(avals []trace.AVal) starlark.Tuple {
	t := make(starlark.Tuple, len(avals))
	for i, a := range avals {
		t[i] = starlark.String(a.String())
	}
	return t
}

// Lowered is Jitted.lower(*args): the traced function for one signature.
type Lowered struct {
	fun string
	c   *jit.Compiled
}

var _ starlark.HasAttrs = (*Lowered)(nil)

func (l *Lowered) String() string        { return "<Lowered " + l.fun + ">" }
func (l *Lowered) Type() string          { return "Lowered" }
func (l *Lowered) Freeze()               {}
func (l *Lowered) Truth() starlark.Bool  { return starlark.True }
func (l *Lowered) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: Lowered") }
func (l *Lowered) AttrNames() []string   { return []string{"as_text", "compile"} }

func (l *Lowered) Attr(name string) (starlark.Value, error) {
	switch name {
	case "as_text":
		return noArgs("as_text", func() starlark.Value { return starlark.String(l.c.Jaxpr.String()) }), nil
	case "compile":
		return noArgs("compile", func() starlark.Value { return &Compiled{fun: l.fun, c: l.c} }), nil
	}
	return nil, nil
}

// Compiled is Lowered.compile(): the kernel program for one signature.
type Compiled struct {
	fun string
	c   *jit.Compiled
}

var _ starlark.HasAttrs = (*Compiled)(nil)

func (c *Compiled) String() string        { return "<Compiled " + c.fun + ">" }
func (c *Compiled) Type() string          { return "Compiled" }
func (c *Compiled) Freeze()               {}
func (c *Compiled) Truth() starlark.Bool  { return starlark.True }
func (c *Compiled) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: Compiled") }
func (c *Compiled) AttrNames() []string {
	return []string{"as_dot", "as_text", "cost_analysis", "kernel_count", "memory_analysis"}
}

func (c *Compiled) Attr(name string) (starlark.Value, error) {
	p := c.c.Program
	switch name {
	case "as_text":
		return noArgs("as_text", func() starlark.Value { return starlark.String(p.String()) }), nil
	case "as_dot":
		return noArgs("as_dot", func() starlark.Value { return starlark.String(p.AsDot()) }), nil
	case "kernel_count":
		return starlark.MakeInt(p.KernelCount()), nil
	case "memory_analysis":
		return noArgs("memory_analysis", func() starlark.Value {
			m := p.MemoryAnalysis()
			return starlarkstruct.FromStringDict(starlark.String("CompiledMemoryStats"), starlark.StringDict{
				"generated_code_size_in_bytes": starlark.MakeInt(m.GeneratedCodeSizeInBytes),
				"argument_size_in_bytes":       starlark.MakeInt(m.ArgumentSizeInBytes),
				"output_size_in_bytes":         starlark.MakeInt(m.OutputSizeInBytes),
				"alias_size_in_bytes":          starlark.MakeInt(m.AliasSizeInBytes),
				"temp_size_in_bytes":           starlark.MakeInt(m.TempSizeInBytes),
				"peak_memory_in_bytes":         starlark.MakeInt(m.PeakMemoryInBytes),
			})
		}), nil
	case "cost_analysis":
		return noArgs("cost_analysis", func() starlark.Value {
			ca := p.CostAnalysis()
			d := starlark.NewDict(3)
			_ = d.SetKey(starlark.String("flops"), starlark.Float(ca.Flops))
			_ = d.SetKey(starlark.String("transcendentals"), starlark.Float(ca.Transcendentals))
			_ = d.SetKey(starlark.String("bytes accessed"), starlark.Float(ca.BytesAccessed))
			return d
		}), nil
	}
	return nil, nil
}

func noArgs(name string, f func() starlark.Value) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		return f(), nil
	})
}
