package cuda

import (
	"encoding/binary"
	"math"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// toInt is a literal's value (bool, int64 or float64) as an integer; false
// for anything else.
func toInt(x any) (int64, bool) {
	switch x := x.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int64:
		return x, true
	case float64:
		return int64(x), true
	}
	return 0, false
}

// literalBytes is a literal scalar in FromHost's layout.
func literalBytes(l *trace.Literal) ([]byte, error) {
	dt := l.Aval().DType
	out := make([]byte, dt.Size())
	x := l.Value()
	f, _ := toFloat(x)
	i, _ := toInt(x)
	switch dt {
	case trace.Bool, trace.Int8, trace.Uint8:
		out[0] = byte(i)
	case trace.Int16, trace.Uint16:
		binary.LittleEndian.PutUint16(out, uint16(i))
	case trace.Int32, trace.Uint32:
		binary.LittleEndian.PutUint32(out, uint32(i))
	case trace.Int64:
		binary.LittleEndian.PutUint64(out, uint64(i))
	case trace.Float16:
		binary.LittleEndian.PutUint16(out, half.Float16FromFloat64(f))
	case trace.BFloat16:
		binary.LittleEndian.PutUint16(out, half.BFloat16FromFloat64(f))
	case trace.Float32:
		binary.LittleEndian.PutUint32(out, math.Float32bits(float32(f)))
	case trace.Float64:
		binary.LittleEndian.PutUint64(out, math.Float64bits(f))
	default:
		return nil, unsupported("a %s literal", dt)
	}
	return out, nil
}
