package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// A Shape lists an array's dimension sizes, outermost first; () is a scalar.
//
// Dimensions are plain ints today. Symbolic dimensions (for export) will
// arrive later, so code outside this file compares, multiplies and prints
// dimensions through the helpers here rather than with raw int arithmetic.
type Shape []int

// Rank is the number of dimensions.
func (s Shape) Rank() int { return len(s) }

// Size is the number of elements: the product of the dimensions (1 for a
// scalar). It does not check for overflow: it is exact for the shapes that
// CheckSize accepts (size.go), which every primitive's results are.
func (s Shape) Size() int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Equal reports whether s and t have the same dimensions.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if !dimEqual(s[i], t[i]) {
			return false
		}
	}
	return true
}

// Clone returns a copy that does not share s's backing array.
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return append(Shape{}, s...)
}

// String prints the shape as a Python tuple: (), (3,), (2, 3).
func (s Shape) String() string { return pyIntTuple(s) }

// dims prints the shape the way avals do: "2,3".
func (s Shape) dims() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ",")
}

func dimEqual(a, b int) bool { return a == b }
func dimIsOne(d int) bool    { return d == 1 }
func dimValid(d int) bool    { return d >= 0 }

// deleteDims returns s without the dimensions listed in axes.
func (s Shape) deleteDims(axes []int) Shape {
	out := Shape{}
	for i, d := range s {
		if !containsInt(axes, i) {
			out = append(out, d)
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// BroadcastShapes applies NumPy's broadcasting rule: shapes are aligned at
// their last dimension, and along each dimension all sizes must agree or be 1.
func BroadcastShapes(shapes ...Shape) (Shape, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		offset := rank - len(s)
		for i, d := range s {
			switch o := out[offset+i]; {
			case dimEqual(o, d) || dimIsOne(d):
			case dimIsOne(o):
				out[offset+i] = d
			default:
				return nil, fmt.Errorf("incompatible shapes for broadcasting: %s", shapeList(shapes))
			}
		}
	}
	return out, nil
}

// shapeList prints shapes as "(3,) and (4,)", or "(1,), (3,) and (4,)".
func shapeList(shapes []Shape) string {
	parts := make([]string, len(shapes))
	for i, s := range shapes {
		parts[i] = s.String()
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// NormalizeAxis turns a possibly negative axis into an index in [0, rank),
// with NumPy's error for one out of range.
func NormalizeAxis(axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// NormalizeAxes normalizes each axis of a tuple (see NormalizeAxis) and
// rejects repeats, keeping the given order.
func NormalizeAxes(axes []int, rank int) ([]int, error) {
	out := make([]int, len(axes))
	for i, a := range axes {
		n, err := NormalizeAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if containsInt(out[:i], n) {
			return nil, fmt.Errorf("repeated axis %d in axes %s", a, pyIntTuple(axes))
		}
		out[i] = n
	}
	return out, nil
}

// AllAxes is (0, 1, ..., rank-1): the axes a reduction with axis=None uses.
func AllAxes(rank int) []int {
	out := make([]int, rank)
	for i := range out {
		out[i] = i
	}
	return out
}
