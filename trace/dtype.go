package trace

import (
	"fmt"
	"strings"
)

// A DType is the element type of an array, or Token for the abstract value
// that sequences effects.
type DType uint8

// The dtypes. The zero DType is invalid so that a forgotten field is caught
// by every rule instead of silently meaning bool.
const (
	InvalidDType DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Float16
	BFloat16
	Float32
	Float64
	Complex64
	Complex128
	Token
	// Float0 is JAX's dtype of the tangents of integer and boolean values:
	// elements of no bytes, carrying nothing but a shape. Arrays of it are
	// made by the transformations alone and no primitive accepts them.
	Float0
	numDTypes
)

type dtypeKind uint8

const (
	kindInvalid dtypeKind = iota
	kindBool
	kindSigned
	kindUnsigned
	kindFloat
	kindComplex
	kindToken
	kindFloat0
)

// dtypeInfo is one row of the dtype table. maxExp and mantBits are numpy's
// finfo(dt).maxexp and finfo(dt).nmant, which dot_general's result dtype
// rule compares (complex types use their component type's).
type dtypeInfo struct {
	name, short string
	kind        dtypeKind
	bits        int
	maxExp      int
	mantBits    int
}

var dtypeTable = [numDTypes]dtypeInfo{
	InvalidDType: {"invalid", "invalid", kindInvalid, 0, 0, 0},
	Bool:         {"bool", "bool", kindBool, 8, -1, -1},
	Int8:         {"int8", "i8", kindSigned, 8, -1, -1},
	Int16:        {"int16", "i16", kindSigned, 16, -1, -1},
	Int32:        {"int32", "i32", kindSigned, 32, -1, -1},
	Int64:        {"int64", "i64", kindSigned, 64, -1, -1},
	Uint8:        {"uint8", "u8", kindUnsigned, 8, -1, -1},
	Uint16:       {"uint16", "u16", kindUnsigned, 16, -1, -1},
	Uint32:       {"uint32", "u32", kindUnsigned, 32, -1, -1},
	Float16:      {"float16", "f16", kindFloat, 16, 16, 10},
	BFloat16:     {"bfloat16", "bf16", kindFloat, 16, 128, 7},
	Float32:      {"float32", "f32", kindFloat, 32, 128, 23},
	Float64:      {"float64", "f64", kindFloat, 64, 1024, 52},
	Complex64:    {"complex64", "c64", kindComplex, 64, 128, 23},
	Complex128:   {"complex128", "c128", kindComplex, 128, 1024, 52},
	Token:        {"token", "tok", kindToken, 0, 0, 0},
	Float0:       {"float0", "float0", kindFloat0, 0, 0, 0},
}

func (d DType) info() dtypeInfo {
	if d >= numDTypes {
		return dtypeTable[InvalidDType]
	}
	return dtypeTable[d]
}

// Name is the dtype's NumPy name, as `x.dtype` prints it: "float32".
func (d DType) Name() string { return d.info().name }

// String is the same as Name.
func (d DType) String() string { return d.Name() }

// ShortName is the name jaxprs use: "f32", "i32", "u8", "bf16", "bool", "tok".
func (d DType) ShortName() string { return d.info().short }

// Bits is the storage width of one element in bits (bool is stored in a
// byte, as in NumPy; a token has no storage).
func (d DType) Bits() int { return d.info().bits }

// Size is the storage width of one element in bytes.
func (d DType) Size() int { return d.info().bits / 8 }

// Valid reports whether d is one of the dtypes above (Token included).
func (d DType) Valid() bool { return d.info().kind != kindInvalid }

// IsToken reports whether d is the effect token type.
func (d DType) IsToken() bool { return d == Token }

// IsBool reports whether d is bool.
func (d DType) IsBool() bool { return d == Bool }

// IsInteger reports whether d is a signed or unsigned integer type (not bool).
func (d DType) IsInteger() bool { k := d.info().kind; return k == kindSigned || k == kindUnsigned }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d.info().kind == kindSigned }

// IsUnsigned reports whether d is an unsigned integer type.
func (d DType) IsUnsigned() bool { return d.info().kind == kindUnsigned }

// IsFloat reports whether d is a real floating-point type (bfloat16 included).
func (d DType) IsFloat() bool { return d.info().kind == kindFloat }

// IsComplex reports whether d is a complex type.
func (d DType) IsComplex() bool { return d.info().kind == kindComplex }

// IsInexact reports whether d is floating or complex.
func (d DType) IsInexact() bool { return d.IsFloat() || d.IsComplex() }

// IsNumeric reports whether d is an integer, floating or complex type (not
// bool, not token): NumPy's np.number.
func (d DType) IsNumeric() bool { return d.IsInteger() || d.IsInexact() }

// IsArray reports whether d can be the element type of an array (anything
// but Token and invalid values).
func (d DType) IsArray() bool { return d.Valid() && d != Token }

// ComplexPart is the real type of a complex type's components (float32 for
// complex64), and d itself for every other type.
func (d DType) ComplexPart() DType {
	switch d {
	case Complex64:
		return Float32
	case Complex128:
		return Float64
	}
	return d
}

// DTypes lists every array dtype (Token excluded), in declaration order.
func DTypes() []DType {
	out := make([]DType, 0, numDTypes)
	for d := Bool; d < Token; d++ {
		out = append(out, d)
	}
	return out
}

// ParseDType reads a dtype name: the NumPy name ("float32", "bool", and
// NumPy's "bool_"), or the short jaxpr name ("f32", "tok").
func ParseDType(name string) (DType, error) {
	if name == "bool_" {
		return Bool, nil
	}
	for d := Bool; d < numDTypes; d++ {
		info := dtypeTable[d]
		if name == info.name || name == info.short {
			return d, nil
		}
	}
	return InvalidDType, fmt.Errorf("unknown dtype %q (known: %s)", name, knownDTypeNames())
}

func knownDTypeNames() string {
	var names []string
	for _, d := range DTypes() {
		names = append(names, d.Name())
	}
	return strings.Join(names, ", ")
}

// dtypeSet is a set of dtypes, used by shape rules to state what they accept.
type dtypeSet uint32

func setOf(ds ...DType) dtypeSet {
	var s dtypeSet
	for _, d := range ds {
		s |= 1 << d
	}
	return s
}

var (
	setBool     = setOf(Bool)
	setSigned   = setOf(Int8, Int16, Int32, Int64)
	setUnsigned = setOf(Uint8, Uint16, Uint32)
	setInt      = setSigned | setUnsigned
	setFloat    = setOf(Float16, BFloat16, Float32, Float64)
	setComplex  = setOf(Complex64, Complex128)
	setInexact  = setFloat | setComplex
	setNum      = setInt | setInexact
	setAny      = setNum | setBool
	setOrdered  = setInt | setFloat | setBool
	setBoolInt  = setBool | setInt
)

func (s dtypeSet) has(d DType) bool { return d < numDTypes && s&(1<<d) != 0 }

// String names the set the way error messages describe accepted dtypes.
func (s dtypeSet) String() string {
	groups := []struct {
		set  dtypeSet
		name string
	}{
		{setBool, "bool"}, {setSigned, "signed integer"}, {setUnsigned, "unsigned integer"},
		{setFloat, "floating"}, {setComplex, "complex"},
	}
	var parts []string
	for _, g := range groups {
		if s&g.set == g.set {
			parts = append(parts, g.name)
			s &^= g.set
		}
	}
	for d := Bool; d < numDTypes; d++ {
		if s.has(d) {
			parts = append(parts, d.Name())
		}
	}
	return strings.Join(parts, ", ")
}
