package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The effects builtins of SPEC §5 that belong to asynchronous reads:
// effects_barrier (barrier_wait) and block_until_ready; and
// ShapeDtypeStruct, an array type without values, which eval_shape returns
// and call's result_shape and export's arguments take. The host callbacks
// (id_tap, id_print, call, pure_callback, io_callback, debug.callback) are
// lib/hostcallback's.

func effectBuiltins() starlark.StringDict {
	b := func(name string, fn BuiltinFunc) *starlark.Builtin { return starlark.NewBuiltin(name, guard(name, fn)) }
	return starlark.StringDict{
		"effects_barrier":   b("effects_barrier", builtinBarrier),
		"barrier_wait":      b("barrier_wait", builtinBarrier),
		"block_until_ready": b("block_until_ready", builtinBlockUntilReady),
		"ShapeDtypeStruct":  b("ShapeDtypeStruct", builtinShapeDtypeStruct),
	}
}

// effects_barrier() / barrier_wait(logging_name=None)
func builtinBarrier(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name starlark.Value
	if b.Name() == "barrier_wait" {
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "logging_name?", &name); err != nil {
			return nil, err
		}
	} else if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	if err := barrier(thread); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// block_until_ready(x) waits for every array of the pytree x and returns x.
func builtinBlockUntilReady(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	vals, _, err := FlattenTree(b.Name(), x)
	if err != nil {
		return nil, err
	}
	for _, v := range vals {
		if a, ok := v.(*Array); ok && !a.Traced() {
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

// A ShapeDtypeStruct declares an array type without values (call's
// result_shape).
type ShapeDtypeStruct struct {
	shape trace.Shape
	dtype trace.DType
	// sym is the symbolic shape of an export spec (symbolic_shape); nil
	// for a concrete shape.
	sym SymbolicShape
}

// A SymbolicShape is a shape of dimension expressions with constraints on
// their variables: the value of export's symbolic_shape (lib/export), which
// a ShapeDtypeStruct takes for its shape. It prints as a tuple and indexes
// as one, each dimension printed as its expression.
type SymbolicShape interface {
	starlark.Indexable
	Dims() export.SymbolicShape
	Constraints() []export.Constraint
}

// Shape is the struct's shape (nil when it is symbolic).
func (s *ShapeDtypeStruct) Shape() trace.Shape { return s.shape }

// DType is the struct's dtype.
func (s *ShapeDtypeStruct) DType() trace.DType { return s.dtype }

// Symbolic is the struct's symbolic shape, or nil.
func (s *ShapeDtypeStruct) Symbolic() SymbolicShape { return s.sym }

var _ starlark.HasAttrs = (*ShapeDtypeStruct)(nil)

func (s *ShapeDtypeStruct) String() string {
	if s.sym != nil {
		return fmt.Sprintf("ShapeDtypeStruct(shape=%s, dtype=%s)", s.sym.String(), s.dtype.Name())
	}
	return fmt.Sprintf("ShapeDtypeStruct(shape=%s, dtype=%s)", shapeText(s.shape), s.dtype.Name())
}
func (s *ShapeDtypeStruct) Type() string         { return "ShapeDtypeStruct" }
func (s *ShapeDtypeStruct) Freeze()              {}
func (s *ShapeDtypeStruct) Truth() starlark.Bool { return starlark.True }
func (s *ShapeDtypeStruct) Hash() (uint32, error) {
	return starlark.String(s.String()).Hash()
}
func (s *ShapeDtypeStruct) AttrNames() []string { return []string{"dtype", "shape"} }
func (s *ShapeDtypeStruct) Attr(name string) (starlark.Value, error) {
	switch name {
	case "shape":
		if s.sym != nil {
			t := make(starlark.Tuple, s.sym.Len())
			for i := range t {
				t[i] = s.sym.Index(i)
			}
			return t, nil
		}
		t := make(starlark.Tuple, len(s.shape))
		for i, d := range s.shape {
			t[i] = starlark.MakeInt(d)
		}
		return t, nil
	case "dtype":
		return DType{s.dtype}, nil
	}
	return nil, nil
}

// ShapeDtypeStruct(shape, dtype)
func builtinShapeDtypeStruct(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var shape, dtype starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape", &shape, "dtype", &dtype); err != nil {
		return nil, err
	}
	dt, err := DTypeOf(b.Name(), dtype)
	if err != nil {
		return nil, err
	}
	if sym, ok := shape.(SymbolicShape); ok {
		return &ShapeDtypeStruct{dtype: dt, sym: sym}, nil
	}
	s, err := ShapeArg(b.Name(), shape)
	if err != nil {
		return nil, err
	}
	return &ShapeDtypeStruct{shape: s, dtype: dt}, nil
}
