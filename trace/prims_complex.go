package trace

import "fmt"

// The complex-number primitives of lax: real, imag, conj and complex.
// JAX's rules (jax/_src/lax/lax.py): real and imag take complex operands
// and return their component type; conj takes float32, float64 or a complex
// type and returns the complex type of that precision (its input_dtype
// param records the operand's dtype, as JAX's does, for the transpose
// rule); complex joins two float32 or float64 operands of one dtype.

// setComplexElem are the component types complex numbers are made of.
var setComplexElem = setOf(Float32, Float64)

// ComplexOf is the complex type with components of dtype d (complex64 for
// float32, complex128 for float64), and d itself when d is complex.
func ComplexOf(d DType) DType {
	switch d {
	case Float32, Complex64:
		return Complex64
	case Float64, Complex128:
		return Complex128
	}
	return InvalidDType
}

func complexPrims() []*Primitive {
	return []*Primitive{
		{Name: "real", Props: Elementwise, MinIn: 1, MaxIn: 1, Rule: complexPartRule},
		{Name: "imag", Props: Elementwise, MinIn: 1, MaxIn: 1, Rule: complexPartRule},
		{Name: "conj", Props: Elementwise, MinIn: 1, MaxIn: 1,
			Params: []ParamSpec{{Name: "input_dtype", Kind: ParamDType}}, Rule: conjRule},
		{Name: "complex", Props: Elementwise, MinIn: 2, MaxIn: 2, Rule: complexRule},
	}
}

func complexPartRule(in []AVal, _ Params) ([]AVal, error) {
	if err := checkDTypes(in, setComplex); err != nil {
		return nil, err
	}
	x := in[0]
	return one(AVal{Shape: x.Shape, DType: x.DType.ComplexPart(), Weak: x.Weak}), nil
}

func conjRule(in []AVal, p Params) ([]AVal, error) {
	if err := checkDTypes(in, setComplex|setComplexElem); err != nil {
		return nil, err
	}
	x := in[0]
	if p.DType("input_dtype") != x.DType {
		return nil, fmt.Errorf("input_dtype %s does not match the operand's dtype %s", p.DType("input_dtype"), x.DType)
	}
	return one(AVal{Shape: x.Shape, DType: ComplexOf(x.DType), Weak: x.Weak}), nil
}

func complexRule(in []AVal, _ Params) ([]AVal, error) {
	if err := checkDTypes(in, setComplexElem); err != nil {
		return nil, err
	}
	if err := checkSameDTypes(in); err != nil {
		return nil, err
	}
	shape, err := elementwiseShape(in)
	if err != nil {
		return nil, err
	}
	return one(AVal{Shape: shape, DType: ComplexOf(in[0].DType), Weak: allWeak(in)}), nil
}
