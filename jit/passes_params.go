package jit

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// paramsEqual reports whether two equations' params are the same: same
// names, and values equal as their kinds define. Nested jaxprs compare by
// identity (two separately traced bodies are different scopes, and CSE
// never looks into them); callbacks compare as Go values (the same
// function value), never by name; floats compare by bits, so 0.0 and -0.0
// differ and a NaN equals itself.
func paramsEqual(a, b trace.Params) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		y, ok := b[name]
		if !ok || !paramValueEqual(x, y) {
			return false
		}
	}
	return true
}

func paramValueEqual(x, y any) bool {
	switch x := x.(type) {
	case nil:
		return y == nil
	case float64:
		y, ok := y.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []int:
		y, ok := y.([]int)
		return ok && slices.Equal(x, y)
	case []trace.AVal:
		y, ok := y.([]trace.AVal)
		return ok && slices.EqualFunc(x, y, trace.AVal.Equal)
	case *trace.Jaxpr:
		y, ok := y.(*trace.Jaxpr)
		return ok && x == y
	case []*trace.Jaxpr:
		y, ok := y.([]*trace.Jaxpr)
		return ok && slices.Equal(x, y)
	case trace.PaddingConfig:
		y, ok := y.(trace.PaddingConfig)
		return ok && slices.Equal(x, y)
	case trace.DotDimensionNumbers, trace.GatherDimensionNumbers, trace.ScatterDimensionNumbers:
		// Structs of int slices: DeepEqual is exact for them, apart from
		// nil against empty, which mean the same ().
		return reflect.TypeOf(x) == reflect.TypeOf(y) && intStructsEqual(reflect.ValueOf(x), reflect.ValueOf(y))
	case trace.Callback:
		if reflect.TypeOf(x) != reflect.TypeOf(y) || !reflect.TypeOf(x).Comparable() {
			return false
		}
		return x == y
	}
	// bool, int, string, Ident, DType, GatherScatterMode, PrecisionConfig,
	// RoundingMethod: comparable values.
	if reflect.TypeOf(x) != reflect.TypeOf(y) || !reflect.TypeOf(x).Comparable() {
		return false
	}
	return x == y
}

// intStructsEqual compares structs whose fields are all []int.
func intStructsEqual(x, y reflect.Value) bool {
	for i := 0; i < x.NumField(); i++ {
		a, ok1 := x.Field(i).Interface().([]int)
		b, ok2 := y.Field(i).Interface().([]int)
		if !ok1 || !ok2 || !slices.Equal(a, b) {
			return false
		}
	}
	return true
}

// atomKey identifies an operand for hashing: a variable by its id, a
// literal by its type and the bits of its value.
func atomKey(b *strings.Builder, a trace.Atom) {
	switch x := a.(type) {
	case *trace.Var:
		b.WriteByte('v')
		b.WriteString(strconv.FormatInt(x.ID(), 36))
	case *trace.Literal:
		b.WriteByte('l')
		b.WriteString(x.Aval().DType.ShortName())
		if x.Aval().Weak {
			b.WriteByte('~')
		}
		b.WriteByte('=')
		switch v := x.Value().(type) {
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 36))
		case float64:
			b.WriteString(strconv.FormatUint(math.Float64bits(v), 36))
		case complex128:
			b.WriteString(strconv.FormatUint(math.Float64bits(real(v)), 36))
			b.WriteByte(',')
			b.WriteString(strconv.FormatUint(math.Float64bits(imag(v)), 36))
		}
	}
	b.WriteByte(' ')
}

// atomsEqual compares operands as atomKey identifies them.
func atomsEqual(a, b trace.Atom) bool {
	if a == b {
		return true
	}
	la, ok1 := a.(*trace.Literal)
	lb, ok2 := b.(*trace.Literal)
	if !ok1 || !ok2 {
		return false
	}
	var x, y strings.Builder
	atomKey(&x, la)
	atomKey(&y, lb)
	return x.String() == y.String()
}
