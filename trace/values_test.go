package trace

import (
	"math"
	"strings"
	"testing"
)

func TestDTypeNames(t *testing.T) {
	tests := []struct {
		d           DType
		name, short string
		bits        int
	}{
		{Bool, "bool", "bool", 8},
		{Int8, "int8", "i8", 8},
		{Int16, "int16", "i16", 16},
		{Int32, "int32", "i32", 32},
		{Int64, "int64", "i64", 64},
		{Uint8, "uint8", "u8", 8},
		{Uint16, "uint16", "u16", 16},
		{Uint32, "uint32", "u32", 32},
		{Float16, "float16", "f16", 16},
		{BFloat16, "bfloat16", "bf16", 16},
		{Float32, "float32", "f32", 32},
		{Float64, "float64", "f64", 64},
		{Complex64, "complex64", "c64", 64},
		{Complex128, "complex128", "c128", 128},
		{Token, "token", "tok", 0},
	}
	for _, tt := range tests {
		if tt.d.Name() != tt.name || tt.d.ShortName() != tt.short || tt.d.Bits() != tt.bits || tt.d.Size() != tt.bits/8 {
			t.Errorf("%d: got %s %s %d bits", tt.d, tt.d.Name(), tt.d.ShortName(), tt.d.Bits())
		}
		for _, name := range []string{tt.name, tt.short} {
			if got, err := ParseDType(name); err != nil || got != tt.d {
				t.Errorf("ParseDType(%q) = %v, %v", name, got, err)
			}
		}
	}
	if got, err := ParseDType("bool_"); err != nil || got != Bool {
		t.Errorf("ParseDType(bool_) = %v, %v", got, err)
	}
	if _, err := ParseDType("float8"); err == nil || !strings.Contains(err.Error(), "float32") {
		t.Errorf("ParseDType(float8) error = %v, want one listing the known dtypes", err)
	}
	if len(DTypes()) != 14 {
		t.Errorf("DTypes() has %d entries, want 14", len(DTypes()))
	}
}

func TestDTypeKinds(t *testing.T) {
	type kinds struct{ boolean, integer, signed, unsigned, float, complex, numeric, array bool }
	tests := []struct {
		d    DType
		want kinds
	}{
		{Bool, kinds{boolean: true, array: true}},
		{Int16, kinds{integer: true, signed: true, numeric: true, array: true}},
		{Uint32, kinds{integer: true, unsigned: true, numeric: true, array: true}},
		{BFloat16, kinds{float: true, numeric: true, array: true}},
		{Complex64, kinds{complex: true, numeric: true, array: true}},
		{Token, kinds{}},
		{InvalidDType, kinds{}},
	}
	for _, tt := range tests {
		d := tt.d
		got := kinds{d.IsBool(), d.IsInteger(), d.IsSigned(), d.IsUnsigned(), d.IsFloat(), d.IsComplex(), d.IsNumeric(), d.IsArray()}
		if got != tt.want {
			t.Errorf("%s: kinds %+v, want %+v", d, got, tt.want)
		}
	}
	if Complex128.ComplexPart() != Float64 || Int8.ComplexPart() != Int8 {
		t.Error("ComplexPart")
	}
	if !Float16.IsInexact() || Int8.IsInexact() {
		t.Error("IsInexact")
	}
}

func TestBroadcastShapes(t *testing.T) {
	tests := []struct {
		in      []Shape
		want    Shape
		wantErr string
	}{
		{[]Shape{{3}, {4}}, nil, "incompatible shapes for broadcasting: (3,) and (4,)"},
		{[]Shape{{2, 1}, {1, 3}, {4}}, nil, "incompatible shapes for broadcasting: (2, 1), (1, 3) and (4,)"},
		{[]Shape{{2, 1}, {3}}, Shape{2, 3}, ""},
		{[]Shape{{}, {5, 1, 4}}, Shape{5, 1, 4}, ""},
		{[]Shape{{5, 1, 4}, {7, 1}}, Shape{5, 7, 4}, ""},
		{[]Shape{{0}, {1}}, Shape{0}, ""},
		{[]Shape{}, Shape{}, ""},
	}
	for _, tt := range tests {
		got, err := BroadcastShapes(tt.in...)
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("BroadcastShapes(%v) error = %v, want %q", tt.in, err, tt.wantErr)
			}
		case err != nil || !got.Equal(tt.want):
			t.Errorf("BroadcastShapes(%v) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeAxes(t *testing.T) {
	tests := []struct {
		axes    []int
		rank    int
		want    []int
		wantErr string
	}{
		{[]int{-1}, 3, []int{2}, ""},
		{[]int{0, -3, 1}, 4, []int{0, 1, 1}, "repeated axis 1 in axes (0, -3, 1)"},
		{[]int{2, 0}, 3, []int{2, 0}, ""},
		{[]int{3}, 3, nil, "axis 3 is out of bounds for array of dimension 3"},
		{[]int{-4}, 3, nil, "axis -4 is out of bounds for array of dimension 3"},
		{[]int{0}, 0, nil, "axis 0 is out of bounds for array of dimension 0"},
		{[]int{}, 0, []int{}, ""},
	}
	for _, tt := range tests {
		got, err := NormalizeAxes(tt.axes, tt.rank)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("NormalizeAxes(%v, %d) error = %v, want %q", tt.axes, tt.rank, err, tt.wantErr)
			}
			continue
		}
		if err != nil || pyIntTuple(got) != pyIntTuple(tt.want) {
			t.Errorf("NormalizeAxes(%v, %d) = %v, %v; want %v", tt.axes, tt.rank, got, err, tt.want)
		}
	}
	if got := AllAxes(3); pyIntTuple(got) != "(0, 1, 2)" {
		t.Errorf("AllAxes(3) = %v", got)
	}
}

func TestShapeBasics(t *testing.T) {
	s := Shape{2, 3, 4}
	if s.Size() != 24 || s.Rank() != 3 || (Shape{}).Size() != 1 || (Shape{0, 5}).Size() != 0 {
		t.Error("Size/Rank")
	}
	if s.String() != "(2, 3, 4)" || (Shape{7}).String() != "(7,)" || (Shape{}).String() != "()" {
		t.Errorf("String: %s %s %s", s, Shape{7}, Shape{})
	}
	c := s.Clone()
	c[0] = 9
	if s[0] != 2 || !s.Equal(Shape{2, 3, 4}) || s.Equal(Shape{2, 3}) {
		t.Error("Clone/Equal")
	}
}

func TestAValString(t *testing.T) {
	tests := []struct {
		a          AVal
		short, big string
	}{
		{NewAVal(Float32, 3), "f32[3]", "float32[3]"},
		{NewAVal(Float32), "f32[]", "float32[]"},
		{NewAVal(Int32, 2, 3), "i32[2,3]", "int32[2,3]"},
		{AVal{Shape: Shape{}, DType: Float32, Weak: true}, "f32[]", "float32[]"},
		{NewAVal(BFloat16, 0), "bf16[0]", "bfloat16[0]"},
		{NewAVal(Bool, 1), "bool[1]", "bool[1]"},
		{TokenAVal, "tok", "token"},
	}
	for _, tt := range tests {
		if tt.a.String() != tt.short || tt.a.LongString() != tt.big {
			t.Errorf("%#v prints %s / %s, want %s / %s", tt.a, tt.a, tt.a.LongString(), tt.short, tt.big)
		}
	}
	weak := AVal{Shape: Shape{3}, DType: Float32, Weak: true}
	if weak.Equal(NewAVal(Float32, 3)) || !weak.SameType(NewAVal(Float32, 3)) {
		t.Error("Equal must see the weak flag, SameType must not")
	}
}

func TestPyFloat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{2, "2.0"}, {0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {2.5, "2.5"}, {0.1, "0.1"},
		{-1.5, "-1.5"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {123456789012345680, "1.2345678901234568e+17"},
		{0.0001, "0.0001"}, {0.00001, "1e-05"}, {1.5e-7, "1.5e-07"}, {1e100, "1e+100"},
		{float64(float32(0.1)), "0.10000000149011612"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
		{math.NaN(), "nan"}, {3.14159, "3.14159"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		if got := pyFloat(tt.v); got != tt.want {
			t.Errorf("pyFloat(%v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestPyString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x: {}", `'x: {}'`},
		{"it's", `"it's"`},
		{`it's "q"`, `'it\'s "q"'`},
		{"a\nb\tc\\", `'a\nb\tc\\'`},
		{"é→\x01", `'é→\x01'`},
		{"\xff", `'\xff'`},
	}
	for _, tt := range tests {
		if got := pyString(tt.in); got != tt.want {
			t.Errorf("pyString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		v    any
		dt   DType
		weak bool
		want string
	}{
		{2.0, Float32, true, "2.0:f32[]"},
		{2, Float32, true, "2.0:f32[]"},
		{1, Int32, false, "1:i32[]"},
		{int64(-128), Int8, false, "-128:i8[]"},
		{true, Bool, false, "True:bool[]"},
		{true, Int32, false, "1:i32[]"},
		{1e-5, Float64, false, "1e-05:f64[]"},
		{complex(1, -2), Complex64, true, "(1-2j):c64[]"},
		{2.0, Complex64, false, "(2+0j):c64[]"},
		{complex(0, 2), Complex128, false, "2j:c128[]"},
		{math.Inf(-1), Float16, false, "-inf:f16[]"},
	}
	for _, tt := range tests {
		l, err := NewLiteral(tt.v, tt.dt, tt.weak)
		if err != nil {
			t.Errorf("NewLiteral(%v, %s): %v", tt.v, tt.dt, err)
			continue
		}
		if l.String() != tt.want || !l.valid() || l.Aval().Rank() != 0 {
			t.Errorf("NewLiteral(%v, %s) prints %s, want %s", tt.v, tt.dt, l, tt.want)
		}
	}
	bad := []struct {
		v  any
		dt DType
	}{
		{256, Uint8}, {-1, Uint32}, {1 << 31, Int32}, {2.5, Int32}, {2.5, Bool}, {1, Token},
		{complex(1, 1), Float32}, {"x", Float32}, {1, InvalidDType},
	}
	for _, tt := range bad {
		if _, err := NewLiteral(tt.v, tt.dt, false); err == nil {
			t.Errorf("NewLiteral(%v, %s) succeeded", tt.v, tt.dt)
		}
	}
	if l, _ := NewLiteral(true, Bool, true); l.Aval().Weak {
		t.Error("a bool literal must not be weak")
	}
}

func TestEffects(t *testing.T) {
	s := NewEffects(TapEffect, OrderedPrint, UnorderedCall, OrderedPrint)
	if got := s.String(); got != "{ Ordered(print), Unordered(call), Unordered(tap) }" {
		t.Errorf("String() = %s", got)
	}
	if !s.Has(TapEffect) || s.Has(OrderedCall) {
		t.Error("Has")
	}
	if got := s.Ordered(); !got.Equal(Effects{OrderedPrint}) {
		t.Errorf("Ordered() = %v", got)
	}
	u := Effects{OrderedCall}.Union(s)
	if len(u) != 4 || u[0] != OrderedCall || !u.Equal(NewEffects(OrderedCall, OrderedPrint, UnorderedCall, TapEffect)) {
		t.Errorf("Union = %v", u)
	}
	if got := s.Union(nil); !got.Equal(s) {
		t.Errorf("Union(nil) = %v", got)
	}
}
