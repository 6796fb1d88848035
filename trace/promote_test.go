package trace

import (
	"strings"
	"testing"
)

// jaxPromotionTable is the binary promotion table of JAX's documentation,
// "Type promotion semantics" (docs/type_promotion.rst in jax-ml/jax,
// https://docs.jax.dev/en/latest/type_promotion.html), computed there with
// dtypes.lattice_result_type under x64. The uint64 row and column are left
// out (jaxsh has no uint64). The codes are the document's: b1 bool, uN/iN/fN/cN
// unsigned/signed/float/complex of N bytes, bf bfloat16, and i*/f*/c* the
// weak (Python scalar) int/float/complex, whose dtypes here are int32,
// float32 and complex64 (SPEC §3).
var jaxPromotionTable = []struct {
	row   string
	cells string
}{
	//         b1  u1  u2  u4  i1  i2  i4  i8  bf  f2  f4  f8  c8 c16  i*  f*  c*
	{"b1", " b1  u1  u2  u4  i1  i2  i4  i8  bf  f2  f4  f8  c8 c16  i*  f*  c*"},
	{"u1", " u1  u1  u2  u4  i2  i2  i4  i8  bf  f2  f4  f8  c8 c16  u1  f*  c*"},
	{"u2", " u2  u2  u2  u4  i4  i4  i4  i8  bf  f2  f4  f8  c8 c16  u2  f*  c*"},
	{"u4", " u4  u4  u4  u4  i8  i8  i8  i8  bf  f2  f4  f8  c8 c16  u4  f*  c*"},
	{"i1", " i1  i2  i4  i8  i1  i2  i4  i8  bf  f2  f4  f8  c8 c16  i1  f*  c*"},
	{"i2", " i2  i2  i4  i8  i2  i2  i4  i8  bf  f2  f4  f8  c8 c16  i2  f*  c*"},
	{"i4", " i4  i4  i4  i8  i4  i4  i4  i8  bf  f2  f4  f8  c8 c16  i4  f*  c*"},
	{"i8", " i8  i8  i8  i8  i8  i8  i8  i8  bf  f2  f4  f8  c8 c16  i8  f*  c*"},
	{"bf", " bf  bf  bf  bf  bf  bf  bf  bf  bf  f4  f4  f8  c8 c16  bf  bf  c8"},
	{"f2", " f2  f2  f2  f2  f2  f2  f2  f2  f4  f2  f4  f8  c8 c16  f2  f2  c8"},
	{"f4", " f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f4  f8  c8 c16  f4  f4  c8"},
	{"f8", " f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8 c16 c16  f8  f8 c16"},
	{"c8", " c8  c8  c8  c8  c8  c8  c8  c8  c8  c8  c8 c16  c8 c16  c8  c8  c8"},
	{"c16", "c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16"},
	{"i*", " i*  u1  u2  u4  i1  i2  i4  i8  bf  f2  f4  f8  c8 c16  i*  f*  c*"},
	{"f*", " f*  f*  f*  f*  f*  f*  f*  f*  bf  f2  f4  f8  c8 c16  f*  f*  c*"},
	{"c*", " c*  c*  c*  c*  c*  c*  c*  c*  c8  c8  c8 c16  c8 c16  c*  c*  c*"},
}

var jaxPromotionColumns = strings.Fields("b1 u1 u2 u4 i1 i2 i4 i8 bf f2 f4 f8 c8 c16 i* f* c*")

var docTypeCodes = map[string]Type{
	"b1": {DType: Bool}, "u1": {DType: Uint8}, "u2": {DType: Uint16}, "u4": {DType: Uint32},
	"i1": {DType: Int8}, "i2": {DType: Int16}, "i4": {DType: Int32}, "i8": {DType: Int64},
	"bf": {DType: BFloat16}, "f2": {DType: Float16}, "f4": {DType: Float32}, "f8": {DType: Float64},
	"c8": {DType: Complex64}, "c16": {DType: Complex128},
	"i*": WeakInt, "f*": WeakFloat, "c*": WeakComplex,
}

func TestPromoteTypesMatchesJAXTable(t *testing.T) {
	if len(jaxPromotionTable) != len(jaxPromotionColumns) {
		t.Fatalf("table has %d rows for %d columns", len(jaxPromotionTable), len(jaxPromotionColumns))
	}
	checked := 0
	for _, row := range jaxPromotionTable {
		cells := strings.Fields(row.cells)
		if len(cells) != len(jaxPromotionColumns) {
			t.Fatalf("row %s has %d cells", row.row, len(cells))
		}
		a := docTypeCodes[row.row]
		for j, cell := range cells {
			b := docTypeCodes[jaxPromotionColumns[j]]
			want, ok := docTypeCodes[cell]
			if !ok {
				t.Fatalf("unknown code %q", cell)
			}
			got, err := PromoteTypes(a, b)
			if err != nil {
				t.Errorf("PromoteTypes(%v, %v): %v", a, b, err)
				continue
			}
			if got != want {
				t.Errorf("PromoteTypes(%s, %s) = %v, JAX documents %s (%v)", row.row, jaxPromotionColumns[j], got, cell, want)
			}
			checked++
		}
	}
	if checked != 17*17 {
		t.Errorf("checked %d pairs, want %d", checked, 17*17)
	}
}

func TestResultType(t *testing.T) {
	strong := func(d DType) Type { return Type{DType: d} }
	weak := func(d DType) Type { return Type{DType: d, Weak: true} }
	tests := []struct {
		name string
		in   []Type
		want Type
	}{
		{"uint32+int32 is int64 (x64 lattice)", []Type{strong(Uint32), strong(Int32)}, strong(Int64)},
		{"int32 array times weak float", []Type{strong(Int32), WeakFloat}, WeakFloat},
		{"float32 array times weak float stays strong", []Type{strong(Float32), WeakFloat}, strong(Float32)},
		{"bool plus weak int", []Type{strong(Bool), WeakInt}, WeakInt},
		{"float16+bfloat16", []Type{strong(Float16), strong(BFloat16)}, strong(Float32)},
		{"int8+uint8", []Type{strong(Int8), strong(Uint8)}, strong(Int16)},
		{"int16 array keeps width against weak int", []Type{strong(Int16), WeakInt}, strong(Int16)},
		{"weak float64 counts as f*", []Type{weak(Float64), strong(Float16)}, strong(Float16)},
		{"all weak: int and float", []Type{WeakInt, WeakFloat}, WeakFloat},
		{"all weak materialise 32-bit", []Type{weak(Int16), weak(Int16)}, WeakInt},
		{"all weak float64 materialises float32", []Type{weak(Float64), weak(Float64)}, WeakFloat},
		{"single weak int16 canonicalised", []Type{weak(Int16)}, WeakInt},
		{"single strong", []Type{strong(Uint16)}, strong(Uint16)},
		{"weak and strong of the same dtype", []Type{weak(Float32), strong(Float32)}, strong(Float32)},
		{"weak bool is plain bool", []Type{weak(Bool)}, strong(Bool)},
		{"three operands", []Type{strong(Uint8), strong(Int8), WeakFloat}, WeakFloat},
		{"three operands strong float", []Type{strong(Uint8), strong(Int8), strong(BFloat16)}, strong(BFloat16)},
		{"complex from weak complex and float64", []Type{strong(Float64), WeakComplex}, strong(Complex128)},
		{"bfloat16 with weak complex", []Type{strong(BFloat16), WeakComplex}, strong(Complex64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResultType(tt.in...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ResultType(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestResultTypeErrors(t *testing.T) {
	if _, err := ResultType(); err == nil {
		t.Error("ResultType() succeeded")
	}
	if _, err := PromoteTypes(Type{DType: Token}, WeakInt); err == nil {
		t.Error("promoting a token succeeded")
	}
	if _, err := PromoteTypes(Type{}, WeakInt); err == nil {
		t.Error("promoting an invalid dtype succeeded")
	}
}

// The lattice must make every pair of nodes have a unique join, and joining
// must be commutative and associative; the documented table covers pairs, this
// covers triples.
func TestJoinIsAssociative(t *testing.T) {
	var all []Type
	for _, d := range DTypes() {
		all = append(all, Type{DType: d})
	}
	all = append(all, WeakInt, WeakFloat, WeakComplex)
	for _, a := range all {
		for _, b := range all {
			for _, c := range all {
				ab, err1 := PromoteTypes(a, b)
				bc, err2 := PromoteTypes(b, c)
				if err1 != nil || err2 != nil {
					t.Fatalf("%v %v", err1, err2)
				}
				left, _ := PromoteTypes(ab, c)
				right, _ := PromoteTypes(a, bc)
				if left.DType != right.DType {
					t.Errorf("(%v+%v)+%v = %v but %v+(%v+%v) = %v", a, b, c, left, a, b, c, right)
				}
			}
		}
	}
}
