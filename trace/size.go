package trace

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Sizes are counted here, once, with overflow checks (DESIGN decision 11):
// every primitive's result avals pass CheckSize in Infer, so a shape that
// leaves Infer has an element count and a byte count that fit in an int,
// and Shape.Size and AVal.Bytes are exact for it. Code that builds an aval
// without a primitive (an array from host data, a constant) checks it with
// CheckSize too.

// maxBytes is the largest byte count an aval may have. Offsets into such
// an array, and sums of a few of them, still fit in an int.
const maxBytes = math.MaxInt64 >> 1

// A SizeError is an aval whose element or byte count overflows.
type SizeError struct {
	Shape Shape
	DType DType
}

func (e *SizeError) Error() string {
	n := big.NewInt(1)
	for _, d := range e.Shape {
		n.Mul(n, big.NewInt(int64(d)))
	}
	b := new(big.Int).Mul(n, big.NewInt(int64(max(e.DType.Size(), 1))))
	return fmt.Sprintf("an array of shape %s and dtype %s would have %s elements (%s bytes): more than any array can hold",
		e.Shape, e.DType.Name(), n, b)
}

// CheckedSize returns the number of elements, or false when the product
// of the dimensions overflows an int (or a dimension is negative).
func (s Shape) CheckedSize() (int, bool) {
	n := uint64(1)
	for _, d := range s {
		if d < 0 {
			return 0, false
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		n = lo
	}
	return int(n), true
}

// CheckSize reports a *SizeError if the aval's element count or byte count
// does not fit the limit every array obeys.
func CheckSize(a AVal) error {
	n, ok := a.Shape.CheckedSize()
	if ok {
		if item := a.DType.Size(); item == 0 || n <= maxBytes/item {
			return nil
		}
	}
	return &SizeError{Shape: a.Shape, DType: a.DType}
}

// Bytes is the aval's size in bytes: elements times the dtype's size. It is
// exact for every aval CheckSize accepts.
func (a AVal) Bytes() int { return a.Size() * a.DType.Size() }
