package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Slice is the value of one `lo:hi:step` element of a multi-dimensional
// subscript such as x[1:3, None]; the dialect parser turns that element into
// a call of the hidden builtin __slice__. Missing parts are None.
type Slice struct {
	Lo, Hi, Step starlark.Value
}

var _ starlark.Value = Slice{}

func (s Slice) String() string {
	return fmt.Sprintf("slice(%s, %s, %s)", s.Lo, s.Hi, s.Step)
}
func (Slice) Type() string          { return "slice" }
func (Slice) Freeze()               {}
func (Slice) Truth() starlark.Bool  { return starlark.True }
func (Slice) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: slice") }

func builtinSlice(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s: internal error: want lo, hi and step", b.Name())
	}
	for _, v := range args {
		switch v.(type) {
		case starlark.NoneType, starlark.Int:
		default:
			return nil, fmt.Errorf("slice indices must be integers or None, not %s", v.Type())
		}
	}
	return Slice{Lo: args[0], Hi: args[1], Step: args[2]}, nil
}

// EllipsisType is the type of the single value `...` (also named Ellipsis).
type EllipsisType struct{}

// Ellipsis is the value of `...` in a subscript: "all remaining axes".
var Ellipsis starlark.Value = EllipsisType{}

func (EllipsisType) String() string        { return "Ellipsis" }
func (EllipsisType) Type() string          { return "ellipsis" }
func (EllipsisType) Freeze()               {}
func (EllipsisType) Truth() starlark.Bool  { return starlark.True }
func (EllipsisType) Hash() (uint32, error) { return 0x2e2e2e, nil }
