package export

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/export"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// symbolic_shape(shape_spec, *, constraints=()) -> a shape of dimension
// expressions for ShapeDtypeStruct, as jax.export.symbolic_shape.

type symbolicShape struct {
	dims        export.SymbolicShape
	constraints []export.Constraint
}

func (s *symbolicShape) String() string       { return symbolicText(s.dims) }
func (s *symbolicShape) Type() string         { return "symbolic_shape" }
func (s *symbolicShape) Freeze()              {}
func (s *symbolicShape) Truth() starlark.Bool { return len(s.dims) > 0 }
func (s *symbolicShape) Hash() (uint32, error) {
	return 0, errors.New("unhashable type: symbolic_shape")
}
func (s *symbolicShape) Len() int { return len(s.dims) }

func (s *symbolicShape) Dims() export.SymbolicShape       { return s.dims }
func (s *symbolicShape) Constraints() []export.Constraint { return s.constraints }
func (s *symbolicShape) Index(i int) starlark.Value {
	return reprValue(s.dims[i].String())
}

func symbolicText(dims export.SymbolicShape) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = d.String()
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func builtinSymbolicShape(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var spec string
	var constraints starlark.Value = starlark.Tuple{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "shape_spec", &spec, "constraints?", &constraints); err != nil {
		return nil, err
	}
	dims, err := export.ParseSymbolicShape(spec)
	if err != nil {
		return nil, err
	}
	texts, err := jstarlark.StringsArg("symbolic_shape: constraints", constraints)
	if err != nil {
		return nil, err
	}
	s := &symbolicShape{dims: dims}
	for _, t := range texts {
		c, err := export.ParseConstraint(t)
		if err != nil {
			return nil, fmt.Errorf("symbolic_shape: %v", err)
		}
		s.constraints = append(s.constraints, c)
	}
	return s, nil
}
