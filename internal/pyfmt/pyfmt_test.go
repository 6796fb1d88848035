package pyfmt

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// scalar stands for a 0-d array (number set) or a larger one.
type scalar struct {
	text   string
	number Value
}

func (s scalar) Type() string { return "Array" }
func (s scalar) Str() string  { return s.text }
func (s scalar) Repr() string { return "Array(" + s.text + ", dtype=float32)" }
func (s scalar) Scalar() (Value, error) {
	return s.number, nil
}

func TestScalarTakesNumericSpecs(t *testing.T) {
	x := scalar{"0.1", pyFloat(float64(float32(0.1)))}
	v := scalar{"[1. 2.]", nil}
	for _, c := range []struct {
		got  func() (string, error)
		want string
	}{
		{func() (string, error) { return FormatValue(x, "") }, "0.1"},
		{func() (string, error) { return FormatValue(x, ".3f") }, "0.100"},
		{func() (string, error) { return FormatValue(x, "+.2e") }, "+1.00e-01"},
		{func() (string, error) { return Format("{} {!r} {:.4f}", []Value{x, x, x}, nil) }, "0.1 Array(0.1, dtype=float32) 0.1000"},
		{func() (string, error) { return Percent("%s %r %.2f %d", pyTuple{x, x, x, x}) }, "0.1 Array(0.1, dtype=float32) 0.10 0"},
		{func() (string, error) { return Format("{}", []Value{v}, nil) }, "[1. 2.]"},
		{func() (string, error) { return Percent("%s", v) }, "[1. 2.]"},
		{func() (string, error) { return FormatValue(v, ".2f") }, "error: unsupported format string passed to Array.__format__"},
		{func() (string, error) { return Percent("%f", v) }, "error: must be real number, not Array"},
		{func() (string, error) { return FormatValue(scalar{"7", pyInt{big.NewInt(7)}}, "03d") }, "007"},
	} {
		got, err := c.got()
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// plainFloat answers bare conversions the way a host with its own % does.
type plainFloat struct{ pyFloat }

func (p plainFloat) PlainConversion(conv byte) (string, bool) {
	if conv == 'g' {
		return "host-g", true
	}
	return "", false
}

func TestPlainConversionsKeepTheHostsMeaning(t *testing.T) {
	got, err := Percent("%g %.3g %f %5g", pyTuple{plainFloat{0.5}, plainFloat{0.5}, plainFloat{0.5}, plainFloat{0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "host-g 0.5 0.500000   0.5"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHugeWidthsAreRefused(t *testing.T) {
	for _, c := range []struct {
		run  func() (string, error)
		want string
	}{
		{func() (string, error) { return Percent("%99999999999d", pyInt{big.NewInt(1)}) }, "width too big"},
		{func() (string, error) { return Percent("%.99999999999f", pyFloat(1)) }, "precision too big"},
		{func() (string, error) {
			return Percent("%*d", pyTuple{pyInt{big.NewInt(1 << 40)}, pyInt{big.NewInt(1)}})
		}, "width too big"},
		{func() (string, error) { return FormatValue(pyInt{big.NewInt(1)}, "99999999999") }, "Too many decimal digits in format string"},
		{func() (string, error) { return FormatValue(pyFloat(1), ".99999999999f") }, "Too many decimal digits in format string"},
	} {
		_, err := c.run()
		var fe *Error
		if !errors.As(err, &fe) || fe.Msg != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// The limit itself is allowed.
	got, err := Percent("%1048576d", pyInt{big.NewInt(1)})
	if err != nil || len(got) != MaxWidth || !strings.HasSuffix(got, " 1") {
		t.Errorf("width %d: %d characters, %v", MaxWidth, len(got), err)
	}
}

func TestReprFloatAndQuoting(t *testing.T) {
	for f, want := range map[float64]string{
		1e16: "1e+16", 1e15: "1000000000000000.0", 0.1: "0.1", 1.5e-7: "1.5e-07",
		123456789012345678: "1.2345678901234568e+17", 0.0001: "0.0001", 0.00001: "1e-05",
	} {
		if got := ReprFloat(f); got != want {
			t.Errorf("ReprFloat(%v) = %q, want %q", f, got, want)
		}
	}
	for s, want := range map[string]string{
		"it's": `"it's"`, `a"b'c`: `'a"b\'c'`, "\x00\x7f\n": `'\x00\x7f\n'`, "é\u00a0\u200b𝄞": "'é\\xa0\\u200b𝄞'",
	} {
		if got := QuoteString(s); got != want {
			t.Errorf("QuoteString(%q) = %s, want %s", s, got, want)
		}
	}
	if got, want := ASCII(QuoteString("é€𝄞")), `'\xe9\u20ac\U0001d11e'`; got != want {
		t.Errorf("ASCII = %s, want %s", got, want)
	}
}
