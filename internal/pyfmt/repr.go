package pyfmt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteString is Python's repr of a str: single quotes unless the text
// holds a single quote and no double quote; \\, \n, \r, \t and the quote
// escaped; other unprintable characters as \xhh, \uhhhh or \Uhhhhhhhh.
func QuoteString(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			writeEscape(&b, r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// ASCII is Python's ascii() of a repr: every non-ASCII character escaped.
func ASCII(repr string) string {
	var b strings.Builder
	for _, r := range repr {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
		} else {
			writeEscape(&b, r)
		}
	}
	return b.String()
}

func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r < 0x100:
		fmt.Fprintf(b, `\x%02x`, r)
	case r < 0x10000:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		fmt.Fprintf(b, `\U%08x`, r)
	}
}
