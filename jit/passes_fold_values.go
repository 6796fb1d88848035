package jit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// A Constant is a concrete array the compiler holds: an embedded constant
// of a Program, or an operand or result of an Evaluator.
type Constant struct {
	AVal trace.AVal
	// Data holds the elements in row-major order, each in its dtype's
	// little-endian layout (Backend.FromHost's layout).
	Data []byte
}

// An Evaluator computes one pure equation on concrete operands, for constant
// folding. The compiler stays free of backends: the caller supplies it
// (OptionsFor uses DeviceEvaluator).
type Evaluator interface {
	// Evaluate returns one Constant per e.Out, given one per e.In (literal
	// operands arrive as rank-0 Constants).
	Evaluate(e *trace.Eqn, in []*Constant) ([]*Constant, error)
}

// DeviceEvaluator evaluates equations eagerly on dev (ApplyPrimitive),
// copying operands and results through host memory.
func DeviceEvaluator(dev Device) Evaluator { return deviceEvaluator{dev} }

type deviceEvaluator struct{ dev Device }

func (d deviceEvaluator) Evaluate(e *trace.Eqn, in []*Constant) ([]*Constant, error) {
	args := make([]Buffer, len(in))
	for i, c := range in {
		b, err := FromHost(d.dev, c.AVal, c.Data)
		if err != nil {
			return nil, err
		}
		args[i] = b
	}
	res, err := ApplyPrimitive(d.dev, e.Prim, e.Params, args)
	if err != nil {
		return nil, err
	}
	out := make([]*Constant, len(res))
	for i, b := range res {
		data, err := ToHost(b)
		if err != nil {
			return nil, err
		}
		out[i] = &Constant{AVal: b.AVal(), Data: data}
	}
	return out, nil
}

// String prints the constant's type and size, not its elements.
func (c *Constant) String() string { return fmt.Sprintf("%s (%d bytes)", c.AVal, len(c.Data)) }

// constantOf returns a literal's value as a rank-0 Constant.
func constantOf(l *trace.Literal) *Constant {
	a := l.Aval()
	data := make([]byte, a.DType.Size())
	putElement(data, a.DType, l.Value())
	return &Constant{AVal: a, Data: data}
}

// uniform reports whether every element has the same bytes.
func (c *Constant) uniform() bool {
	n := c.AVal.DType.Size()
	for i := n; i+n <= len(c.Data); i += n {
		if !bytes.Equal(c.Data[i:i+n], c.Data[:n]) {
			return false
		}
	}
	return true
}

// literal returns the first element as a literal of c's type.
func (c *Constant) literal() (*trace.Literal, error) {
	if len(c.Data) < c.AVal.DType.Size() {
		return nil, fmt.Errorf("empty constant %s", c.AVal)
	}
	return trace.NewLiteral(element(c.Data, c.AVal.DType), c.AVal.DType, c.AVal.Weak)
}

// putElement stores v (a bool, int64, float64 or complex128, as literals
// hold values) in dst as one element of dtype dt.
func putElement(dst []byte, dt trace.DType, v any) {
	le := binary.LittleEndian
	switch x := v.(type) {
	case bool:
		if x {
			dst[0] = 1
		} else {
			dst[0] = 0
		}
	case int64:
		switch dt.Size() {
		case 1:
			dst[0] = byte(x)
		case 2:
			le.PutUint16(dst, uint16(x))
		case 4:
			le.PutUint32(dst, uint32(x))
		default:
			le.PutUint64(dst, uint64(x))
		}
	case float64:
		switch dt {
		case trace.Float16:
			le.PutUint16(dst, half.Float16FromFloat64(x))
		case trace.BFloat16:
			le.PutUint16(dst, half.BFloat16FromFloat64(x))
		case trace.Float32:
			le.PutUint32(dst, math.Float32bits(float32(x)))
		default:
			le.PutUint64(dst, math.Float64bits(x))
		}
	case complex128:
		if dt == trace.Complex64 {
			le.PutUint32(dst, math.Float32bits(float32(real(x))))
			le.PutUint32(dst[4:], math.Float32bits(float32(imag(x))))
		} else {
			le.PutUint64(dst, math.Float64bits(real(x)))
			le.PutUint64(dst[8:], math.Float64bits(imag(x)))
		}
	}
}

// element reads the element at the start of src, as a literal holds it.
func element(src []byte, dt trace.DType) any {
	le := binary.LittleEndian
	switch {
	case dt == trace.Bool:
		return src[0] != 0
	case dt.IsSigned():
		switch dt.Size() {
		case 1:
			return int64(int8(src[0]))
		case 2:
			return int64(int16(le.Uint16(src)))
		case 4:
			return int64(int32(le.Uint32(src)))
		}
		return int64(le.Uint64(src))
	case dt.IsUnsigned():
		switch dt.Size() {
		case 1:
			return int64(src[0])
		case 2:
			return int64(le.Uint16(src))
		}
		return int64(le.Uint32(src))
	case dt == trace.Float16:
		return float64(half.Float16ToFloat32(le.Uint16(src)))
	case dt == trace.BFloat16:
		return float64(half.BFloat16ToFloat32(le.Uint16(src)))
	case dt == trace.Float32:
		return float64(math.Float32frombits(le.Uint32(src)))
	case dt == trace.Float64:
		return math.Float64frombits(le.Uint64(src))
	case dt == trace.Complex64:
		return complex(float64(math.Float32frombits(le.Uint32(src))), float64(math.Float32frombits(le.Uint32(src[4:]))))
	}
	return complex(math.Float64frombits(le.Uint64(src)), math.Float64frombits(le.Uint64(src[8:])))
}
