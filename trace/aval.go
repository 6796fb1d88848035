package trace

// An AVal is an abstract value: what tracing knows of an array (its shape,
// dtype and weak-type flag) without its contents. A token is the AVal with
// DType Token and no shape.
type AVal struct {
	Shape Shape
	DType DType
	Weak  bool
}

// NewAVal is a strongly typed array aval.
func NewAVal(dt DType, shape ...int) AVal { return AVal{Shape: Shape(shape).Clone(), DType: dt} }

// TokenAVal is the aval of an effect token.
var TokenAVal = AVal{Shape: Shape{}, DType: Token}

// Type is the aval's dtype and weak flag, for type promotion.
func (a AVal) Type() Type { return Type{DType: a.DType, Weak: a.Weak} }

// Rank is the number of dimensions.
func (a AVal) Rank() int { return len(a.Shape) }

// Size is the number of elements.
func (a AVal) Size() int { return a.Shape.Size() }

// IsToken reports whether a is an effect token.
func (a AVal) IsToken() bool { return a.DType == Token }

// Equal compares shape, dtype and weak flag.
func (a AVal) Equal(b AVal) bool {
	return a.DType == b.DType && a.Weak == b.Weak && a.Shape.Equal(b.Shape)
}

// SameType compares shape and dtype, ignoring the weak flag (what a call
// boundary requires of its arguments, as in JAX's typematch).
func (a AVal) SameType(b AVal) bool { return a.DType == b.DType && a.Shape.Equal(b.Shape) }

// WithShape returns a with another shape.
func (a AVal) WithShape(s Shape) AVal { a.Shape = s; return a }

// String prints the aval as jaxprs do: f32[3], i32[2,3], f32[], tok. Weak
// types are never shown (SPEC §3).
func (a AVal) String() string {
	if a.IsToken() {
		return "tok"
	}
	return a.DType.ShortName() + "[" + a.Shape.dims() + "]"
}

// LongString prints the aval with the full dtype name: float32[3], as in
// Traced<float32[3]>.
func (a AVal) LongString() string {
	if a.IsToken() {
		return "token"
	}
	return a.DType.Name() + "[" + a.Shape.dims() + "]"
}

// pyRepr is how an aval prints inside params, as JAX prints a ShapedArray.
func (a AVal) pyRepr() string {
	if a.IsToken() {
		return "AbstractToken()"
	}
	if a.Weak {
		return "ShapedArray(" + a.LongString() + ", weak_type=True)"
	}
	return "ShapedArray(" + a.LongString() + ")"
}

// valid reports whether a could be the aval of a value: a known dtype,
// nonnegative dimensions, and no shape or weak flag on a token.
func (a AVal) valid() bool {
	if !a.DType.Valid() {
		return false
	}
	if a.IsToken() {
		return len(a.Shape) == 0 && !a.Weak
	}
	for _, d := range a.Shape {
		if !dimValid(d) {
			return false
		}
	}
	return !(a.Weak && a.DType == Bool)
}
