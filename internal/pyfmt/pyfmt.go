// Package pyfmt implements Python's text formatting: printf-style
// `format % args` (Percent), str.format templates (Format), and format(value,
// spec) with the format-spec mini-language (FormatValue). It is the one
// formatter of jaxsh: the Starlark dialect's %, str.format, f-strings and
// debug.print all go through it.
//
// The package does not know the host language's values. It formats through
// the Value interface and a few optional ones: Integer and Floating for
// numbers, Text for strings, Scalar for values that format as a number when
// a spec asks for one (a 0-d array, like a NumPy scalar), Tuple, Mapping,
// Indexable and HasAttrs for operands and field lookups, and
// PlainConverter for a host whose own % conversions must keep their meaning.
// str() and repr() are the host's (Value.Str and Value.Repr), so a host's
// text for its own types is kept; the numeric conversions are Python's.
//
// Widths and precisions above MaxWidth are refused, so that a format string
// cannot ask for gigabytes of padding.
package pyfmt

import (
	"fmt"
	"math/big"
)

// MaxWidth is the largest width or precision a format may ask for.
const MaxWidth = 1 << 20

// A Value is one thing to format.
type Value interface {
	// Type names the value's type in error messages ("int", "list").
	Type() string
	// Str is str(v) in the host language.
	Str() string
	// Repr is repr(v) in the host language.
	Repr() string
}

// An Integer is an int, or a bool (which formats as 0 or 1 under a
// numeric spec, and as Str under an empty one).
type Integer interface {
	Value
	BigInt() *big.Int
	IsBool() bool
}

// A Floating is a float.
type Floating interface {
	Value
	Float64() float64
}

// A Text is a string: it formats with str's rules, and %c accepts one of
// length 1.
type Text interface {
	Value
	Text() string
}

// A Scalar formats as a number when a spec asks for one and as itself
// otherwise: a 0-d array gives an Integer or Floating; an array of higher
// rank gives nil (and the spec is refused as for any object); a value
// that cannot give its number (a traced one) gives the error to report.
type Scalar interface {
	Value
	Scalar() (number Value, err error)
}

// A Tuple spreads over the conversions of `format % tuple`.
type Tuple interface {
	Value
	Elems() []Value
}

// A Mapping answers %(key)s; Python treats every subscriptable operand that
// is neither a tuple nor a string as one (so `"" % {}` is not an error).
type Mapping interface {
	Value
	Lookup(key string) (Value, error)
}

// An Indexable answers the [key] of a str.format field: key is an int when
// the brackets hold only digits, else a string.
type Indexable interface {
	Value
	Item(key any) (Value, error)
}

// A HasAttrs answers the .name of a str.format field.
type HasAttrs interface {
	Value
	Field(name string) (Value, error)
}

// A PlainConverter is asked first for each bare printf conversion (%s or
// %(key)s: no flags, width, precision or length modifier): a host whose own
// % already gave these a meaning keeps it by answering ok true.
type PlainConverter interface {
	Value
	PlainConversion(conv byte) (text string, ok bool)
}

// An Error is a formatting failure. Kind is the Python exception it stands
// for (ValueError, TypeError, KeyError, IndexError, OverflowError).
type Error struct {
	Kind string
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func valueError(format string, args ...any) error {
	return &Error{"ValueError", fmt.Sprintf(format, args...)}
}

func typeError(format string, args ...any) error {
	return &Error{"TypeError", fmt.Sprintf(format, args...)}
}

func overflowError(format string, args ...any) error {
	return &Error{"OverflowError", fmt.Sprintf(format, args...)}
}

// str is a plain Python string, the result of a !r, !s or !a conversion.
type str string

func (s str) Type() string { return "str" }
func (s str) Str() string  { return string(s) }
func (s str) Repr() string { return QuoteString(string(s)) }
func (s str) Text() string { return string(s) }

// number returns v as an Integer or Floating when it is one or stands for
// one (a Scalar), else nil.
func number(v Value) (Value, error) {
	if s, ok := v.(Scalar); ok {
		n, err := s.Scalar()
		if err != nil || n == nil {
			return nil, err
		}
		v = n
	}
	switch v.(type) {
	case Integer, Floating:
		return v, nil
	}
	return nil, nil
}
