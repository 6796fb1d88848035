// Package arrayfmt prints arrays exactly as NumPy and JAX do.
//
// Str gives NumPy's str(x) (what print(x) shows), Repr gives the repr of a
// jax.Array ("Array([1., 2.], dtype=float32)"). Both follow NumPy's
// array2string (numpy/core/arrayprint.py, legacy=False): shortest
// round-tripping digits cut at Options.Precision, one padded column format
// for all printed elements, scientific notation when the magnitudes call for
// it, wrapping at Options.LineWidth and summarisation with "..." beyond
// Options.Threshold elements.
//
// A 0-d array's Str is the NumPy scalar's str ("3.0", "7", "True", "nan",
// "1e-05"), while its Repr goes through array2string as JAX's does
// ("Array(3., dtype=float32)").
//
// float16 uses float16's own shortest digits (NumPy's Dragon4 on half).
// bfloat16 prints as JAX prints it with ml_dtypes: ml_dtypes' scalar type is
// not an np.floating, so NumPy formats each element with the scalar's repr,
// which is C++ `ostream << float` (printf %g, 6 significant digits), without
// column padding: "[1 0.5 -2]", "Array(0.100098, dtype=bfloat16)".
//
// complex64/complex128 follow NumPy's ComplexFloatingFormat: the real parts
// share one float column format, the imaginary parts another with sign='+',
// and "j" goes before the imaginary part's padding: "[ 1. +2.j   -3.5-0.25j]".
// The parts use float32 digits for complex64 and float64 digits for
// complex128. A 0-d complex array's Str is the NumPy complex scalar's str:
// "(1+2j)", "(1.5-0.25j)", "2j" when the real part is +0, "(nan+infj)".
//
// The package only formats; it knows nothing of devices or Starlark.
package arrayfmt

import (
	"fmt"
	"strings"
)

// Array is the data to print: a dtype name, a shape and the elements as a
// flat row-major Go slice whose type matches the dtype:
//
//	bool                 []bool
//	int8 int16 int32 int64  []int8 []int16 []int32 []int64
//	uint8 uint16 uint32  []uint8 []uint16 []uint32
//	float32 float64      []float32 []float64
//	float16 bfloat16     []uint16 holding the raw bits
//	complex64 complex128 []complex64 []complex128
type Array struct {
	DType string
	Shape []int
	Data  any
}

// Options are NumPy's print options that jaxsh exposes. The sign is always
// '-' and floatmode always 'maxprec', NumPy's defaults.
type Options struct {
	// Precision is the most digits printed after the decimal point (after
	// the first digit in scientific notation); fewer are printed when fewer
	// identify the value. Must be >= 0.
	Precision int
	// Threshold: arrays with more elements than this are summarised.
	Threshold int
	// EdgeItems is how many items are kept at each end of a summarised
	// axis. Must be >= 0.
	EdgeItems int
	// LineWidth is the number of characters per line before wrapping.
	LineWidth int
	// SuppressSmall prints tiny values as zeros rather than switching the
	// whole array to scientific notation (NumPy's suppress_small).
	SuppressSmall bool
}

// DefaultOptions returns NumPy's default print options.
func DefaultOptions() Options {
	return Options{Precision: 8, Threshold: 1000, EdgeItems: 3, LineWidth: 75}
}

// Validate reports an option NumPy would reject.
func (o Options) Validate() error {
	if o.Precision < 0 {
		return fmt.Errorf("precision must be >= 0, got %d", o.Precision)
	}
	if o.EdgeItems < 0 {
		return fmt.Errorf("edgeitems must be >= 0, got %d", o.EdgeItems)
	}
	return nil
}

// Str is NumPy's str(x): "[1. 2. 3.]", elements separated by spaces. A 0-d
// array prints like a NumPy scalar: "3.0", "7", "True", "nan".
//
// Like fmt's "%!d(string=x)", an invalid array or option set does not panic:
// the result is a text starting with "<arrayfmt: " that names the problem.
func Str(a Array, o Options) string {
	el, err := check(a, o)
	if err != nil {
		return invalidText(err)
	}
	if len(a.Shape) == 0 {
		return scalarStr(el)
	}
	return array2string(a.Shape, el, o, " ", "", "")
}

// Repr is the repr of a jax.Array, as jax/_src/array.py ArrayImpl.__repr__
// builds it: "Array(" + NumPy's array2string with separator ", " (wrapped
// with the prefix's width and the trailing "," counted) + "," + a space or,
// when "dtype=...)" would not fit on the last line, six spaces + "dtype=<name>)".
// The six spaces stay on the same line: JAX writes ' ' * len(prefix), not a
// newline. Size-0 arrays print "[], shape=(0, 3)" in place of the data.
// weak_type is never shown. Invalid input gives an "<arrayfmt: ...>" text
// as in Str.
func Repr(a Array, o Options) string {
	el, err := check(a, o)
	if err != nil {
		return invalidText(err)
	}
	const prefix = "Array("
	dtypeText := "dtype=" + a.DType + ")"
	var body string
	if size(a.Shape) == 0 {
		body = "[], shape=" + pythonTuple(a.Shape)
	} else {
		body = array2string(a.Shape, el, o, ", ", prefix, ",")
	}
	// JAX's arithmetic, kept as is: len(s) - s.rfind('\n') + 1, where rfind
	// gives -1 when there is no newline.
	lastLineLen := len(body) - strings.LastIndexByte(body, '\n') + 1
	gap := " "
	if lastLineLen+len(dtypeText)+1 > o.LineWidth {
		gap = strings.Repeat(" ", len(prefix))
	}
	return prefix + body + "," + gap + dtypeText
}

// array2string is NumPy's array2string for an array of any rank with the
// given separator, prefix (only its width matters: continuation lines are
// indented past it) and suffix (its width is taken off the line width).
func array2string(shape []int, el elements, o Options, separator, prefix, suffix string) string {
	n := size(shape)
	if n == 0 {
		return "[]"
	}
	strides := rowMajorStrides(shape)
	summarise := n > o.Threshold
	shown := displayedOffsets(shape, strides, o.EdgeItems, summarise)
	l := &layout{
		shape:     shape,
		strides:   strides,
		format:    columnFormat(el, shown, len(shape) == 0, o),
		separator: separator,
		edgeItems: o.EdgeItems,
		summarise: summarise,
	}
	nextLinePrefix := " " + strings.Repeat(" ", len(prefix))
	return l.render(o.LineWidth-len(suffix), nextLinePrefix)
}

// columnFormat picks the element formatter for the dtype from the printed
// elements, as NumPy's _get_format_function does.
func columnFormat(el elements, shown []int, zeroDim bool, o Options) func(int) string {
	switch el.kind {
	case elemBool:
		// " True" lines up with "False", except in a 0-d array.
		trueText := " True"
		if zeroDim {
			trueText = "True"
		}
		return func(i int) string {
			if el.boolAt(i) {
				return trueText
			}
			return "False"
		}
	case elemInt:
		lo, hi := el.intAt(shown[0]), el.intAt(shown[0])
		for _, i := range shown {
			lo, hi = min(lo, el.intAt(i)), max(hi, el.intAt(i))
		}
		width := max(len(fmt.Sprint(lo)), len(fmt.Sprint(hi)))
		return func(i int) string { return fmt.Sprintf("%*d", width, el.intAt(i)) }
	case elemBFloat16:
		return func(i int) string { return bfloat16Text(el.floatAt(i)) }
	case elemComplex:
		// NumPy's ComplexFloatingFormat: two independent float columns.
		re := make([]float64, len(shown))
		im := make([]float64, len(shown))
		for k, i := range shown {
			re[k], im[k] = el.floatAt(i), el.imagAt(i)
		}
		reFormat := newFloatFormat(re, el.float, false, o)
		imFormat := newFloatFormat(im, el.float, true, o)
		return func(i int) string {
			imText := imFormat.format(el.imagAt(i))
			// "j" goes before the imaginary part's trailing padding.
			end := len(strings.TrimRight(imText, " "))
			return reFormat.format(el.floatAt(i)) + imText[:end] + "j" + imText[end:]
		}
	default:
		values := make([]float64, len(shown))
		for k, i := range shown {
			values[k] = el.floatAt(i)
		}
		f := newFloatFormat(values, el.float, false, o)
		return func(i int) string { return f.format(el.floatAt(i)) }
	}
}

// scalarStr is str() of the NumPy scalar held by a 0-d array.
func scalarStr(el elements) string {
	switch el.kind {
	case elemBool:
		if el.boolAt(0) {
			return "True"
		}
		return "False"
	case elemInt:
		return fmt.Sprint(el.intAt(0))
	case elemBFloat16:
		return bfloat16Text(el.floatAt(0))
	case elemComplex:
		return scalarComplexStr(el.floatAt(0), el.imagAt(0), el.float)
	default:
		return scalarFloatStr(el.floatAt(0), el.float)
	}
}

func invalidText(err error) string {
	return "<arrayfmt: " + err.Error() + ">"
}

// check validates a and o and gives access to a's elements.
func check(a Array, o Options) (elements, error) {
	if err := o.Validate(); err != nil {
		return elements{}, err
	}
	for _, d := range a.Shape {
		if d < 0 {
			return elements{}, fmt.Errorf("negative dimension in shape %s", pythonTuple(a.Shape))
		}
	}
	el, n, err := elementsOf(a.DType, a.Data)
	if err != nil {
		return elements{}, err
	}
	if want := size(a.Shape); n != want {
		return elements{}, fmt.Errorf("%s data has %d elements, shape %s needs %d",
			a.DType, n, pythonTuple(a.Shape), want)
	}
	return el, nil
}

// size is the number of elements of shape (1 for 0-d).
func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func rowMajorStrides(shape []int) []int {
	strides := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = step
		step *= shape[i]
	}
	return strides
}

// pythonTuple prints a shape as Python prints a tuple: "()", "(3,)", "(2, 3)".
func pythonTuple(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return fmt.Sprintf("(%d,)", shape[0])
	}
	s := "("
	for i, d := range shape {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(d)
	}
	return s + ")"
}

// elementKind selects the NumPy formatter family of a dtype.
type elementKind int

const (
	elemBool elementKind = iota
	elemInt
	elemFloat    // float16/32/64: FloatingFormat
	elemBFloat16 // no NumPy formatter: each element's own repr
	elemComplex  // complex64/128: ComplexFloatingFormat; floatAt is the real part
)

// elements reads the elements of a flat slice by index, widened to one Go
// type per family so the formatters need not be generic.
type elements struct {
	kind    elementKind
	float   floatKind
	boolAt  func(int) bool
	intAt   func(int) int64
	floatAt func(int) float64 // the real part for complex
	imagAt  func(int) float64 // complex only
}

func intReader[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](xs []T) (elements, int) {
	return elements{kind: elemInt, intAt: func(i int) int64 { return int64(xs[i]) }}, len(xs)
}

// elementsOf checks that data has the Go type dtype requires.
func elementsOf(dtype string, data any) (elements, int, error) {
	var el elements
	var n int
	ok := true
	switch dtype {
	case "bool":
		var xs []bool
		if xs, ok = data.([]bool); ok {
			el, n = elements{kind: elemBool, boolAt: func(i int) bool { return xs[i] }}, len(xs)
		}
	case "int8":
		var xs []int8
		if xs, ok = data.([]int8); ok {
			el, n = intReader(xs)
		}
	case "int16":
		var xs []int16
		if xs, ok = data.([]int16); ok {
			el, n = intReader(xs)
		}
	case "int32":
		var xs []int32
		if xs, ok = data.([]int32); ok {
			el, n = intReader(xs)
		}
	case "int64":
		var xs []int64
		if xs, ok = data.([]int64); ok {
			el, n = intReader(xs)
		}
	case "uint8":
		var xs []uint8
		if xs, ok = data.([]uint8); ok {
			el, n = intReader(xs)
		}
	case "uint16":
		var xs []uint16
		if xs, ok = data.([]uint16); ok {
			el, n = intReader(xs)
		}
	case "uint32":
		var xs []uint32
		if xs, ok = data.([]uint32); ok {
			el, n = intReader(xs)
		}
	case "float16", "bfloat16":
		var xs []uint16
		if xs, ok = data.([]uint16); ok {
			if dtype == "float16" {
				el = elements{kind: elemFloat, float: kindFloat16,
					floatAt: func(i int) float64 { return float16ToFloat64(xs[i]) }}
			} else {
				el = elements{kind: elemBFloat16,
					floatAt: func(i int) float64 { return bfloat16ToFloat64(xs[i]) }}
			}
			n = len(xs)
		}
	case "float32":
		var xs []float32
		if xs, ok = data.([]float32); ok {
			el, n = elements{kind: elemFloat, float: kindFloat32,
				floatAt: func(i int) float64 { return float64(xs[i]) }}, len(xs)
		}
	case "float64":
		var xs []float64
		if xs, ok = data.([]float64); ok {
			el, n = elements{kind: elemFloat, float: kindFloat64,
				floatAt: func(i int) float64 { return xs[i] }}, len(xs)
		}
	case "complex64":
		var xs []complex64
		if xs, ok = data.([]complex64); ok {
			el, n = elements{kind: elemComplex, float: kindFloat32,
				floatAt: func(i int) float64 { return float64(real(xs[i])) },
				imagAt:  func(i int) float64 { return float64(imag(xs[i])) }}, len(xs)
		}
	case "complex128":
		var xs []complex128
		if xs, ok = data.([]complex128); ok {
			el, n = elements{kind: elemComplex, float: kindFloat64,
				floatAt: func(i int) float64 { return real(xs[i]) },
				imagAt:  func(i int) float64 { return imag(xs[i]) }}, len(xs)
		}
	default:
		return elements{}, 0, fmt.Errorf("unsupported dtype %q", dtype)
	}
	if !ok {
		return elements{}, 0, fmt.Errorf("dtype %s does not take data of type %T", dtype, data)
	}
	return el, n, nil
}
