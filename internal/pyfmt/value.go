package pyfmt

import (
	"strings"
)

// FormatValue is Python's format(v, spec): an empty spec gives str(v); a
// number, string or Scalar formats under the mini-language
// [[fill]align][sign][z][#][0][width][grouping][.precision][type]; any
// other value with a non-empty spec is an error, as object.__format__ is.
func FormatValue(v Value, spec string) (string, error) {
	var b strings.Builder
	if err := formatValue(&b, v, spec); err != nil {
		return "", err
	}
	return b.String(), nil
}

func formatValue(b *strings.Builder, v Value, specText string) error {
	if specText == "" {
		b.WriteString(v.Str())
		return nil
	}
	if s, ok := v.(Scalar); ok {
		n, err := s.Scalar()
		if err != nil {
			return err
		}
		if n == nil {
			return unsupportedSpec(v)
		}
		v = n
	}
	switch v := v.(type) {
	case Integer:
		sp, err := parseSpec(specText, '>', 'd', v.Type())
		if err != nil {
			return err
		}
		return formatInt(b, v.BigInt(), sp, v.Type())
	case Floating:
		sp, err := parseSpec(specText, '>', 0, v.Type())
		if err != nil {
			return err
		}
		return formatFloat(b, v.Float64(), sp)
	case Text:
		sp, err := parseSpec(specText, '<', 's', v.Type())
		if err != nil {
			return err
		}
		return formatText(b, v.Text(), sp, v.Type())
	}
	return unsupportedSpec(v)
}

func unsupportedSpec(v Value) error {
	return typeError("unsupported format string passed to %s.__format__", v.Type())
}

// formatText writes a string under a parsed spec (str.__format__).
func formatText(b *strings.Builder, s string, sp spec, typeName string) error {
	if sp.typ != 's' {
		return unknownCode(sp.typ, typeName)
	}
	switch {
	case sp.sign == ' ':
		return valueError("Space not allowed in string format specifier")
	case sp.sign != 0:
		return valueError("Sign not allowed in string format specifier")
	case sp.noNegZero:
		return valueError("Negative zero coercion (z) not allowed in string format specifier")
	case sp.alt:
		return valueError("Alternate form (#) not allowed in string format specifier")
	case sp.align == '=':
		return valueError("'=' alignment not allowed in string format specifier")
	}
	if sp.precision >= 0 {
		s = truncateRunes(s, sp.precision)
	}
	align := sp.align
	if align == 0 {
		align = '<'
	}
	pad(b, s, sp, align)
	return nil
}

func truncateRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
