package starlark

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
)

// Partial is the result of partial(fn, *args, **kwargs), as functools.partial:
// calling it calls fn with the stored arguments followed by the new ones; a
// keyword given at the call replaces a stored keyword of the same name. It is
// what makes `@partial(jit, static_argnums=(1,))` work as a decorator.
type Partial struct {
	Fn     starlark.Callable
	Args   starlark.Tuple
	Kwargs []starlark.Tuple
}

var _ starlark.Callable = (*Partial)(nil)

func (p *Partial) Name() string { return "partial(" + p.Fn.Name() + ")" }
func (p *Partial) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partial(%s", p.Fn)
	for _, a := range p.Args {
		fmt.Fprintf(&b, ", %s", a)
	}
	for _, kv := range p.Kwargs {
		fmt.Fprintf(&b, ", %s=%s", kv[0].(starlark.String).GoString(), kv[1])
	}
	b.WriteString(")")
	return b.String()
}
func (p *Partial) Type() string         { return "partial" }
func (p *Partial) Truth() starlark.Bool { return starlark.True }
func (p *Partial) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: partial")
}
func (p *Partial) Freeze() {
	p.Fn.Freeze()
	p.Args.Freeze()
	for _, kv := range p.Kwargs {
		kv.Freeze()
	}
}

func (p *Partial) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	all := make(starlark.Tuple, 0, len(p.Args)+len(args))
	all = append(append(all, p.Args...), args...)
	kw := make([]starlark.Tuple, 0, len(p.Kwargs)+len(kwargs))
	for _, stored := range p.Kwargs {
		if !hasKeyword(kwargs, stored[0]) {
			kw = append(kw, stored)
		}
	}
	kw = append(kw, kwargs...)
	return starlark.Call(thread, p.Fn, all, kw)
}

func hasKeyword(kwargs []starlark.Tuple, name starlark.Value) bool {
	for _, kv := range kwargs {
		if kv[0] == name {
			return true
		}
	}
	return false
}

func builtinPartial(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: missing the function argument", b.Name())
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("%s: first argument must be callable, not %s", b.Name(), args[0].Type())
	}
	return &Partial{Fn: fn, Args: append(starlark.Tuple(nil), args[1:]...), Kwargs: kwargs}, nil
}
