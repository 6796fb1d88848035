package dialect

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unquote decodes the text of a string or bytes literal (prefix and quotes
// included) into its value. The escapes accepted and the error messages are
// Starlark's: a backslash must escape something, \x and octal escapes above
// 127 need a bytes literal, and surrogate code points are refused.
func unquote(literal string) (value string, isBytes bool, err error) {
	text := literal
	raw := strings.HasPrefix(text, "r")
	if raw {
		text = text[1:]
	}
	isBytes = strings.HasPrefix(text, "b")
	if isBytes {
		text = text[1:]
	}
	if len(text) < 2 {
		return "", isBytes, fmt.Errorf("string literal too short")
	}
	quote := text[0]
	if quote != '"' && quote != '\'' || text[len(text)-1] != quote {
		return "", isBytes, fmt.Errorf("string literal has invalid quotes")
	}
	delim := 1
	if len(text) >= 6 && text[1] == quote && text[2] == quote && text[:3] == text[len(text)-3:] {
		delim = 3
	}
	value, err = decodeBody(text[delim:len(text)-delim], raw, isBytes)
	return value, isBytes, err
}

// decodeBody decodes the text between a literal's quotes: escapes (unless
// raw) and line breaks (\r\n and \r read as \n).
func decodeBody(body string, raw, isBytes bool) (string, error) {
	special := "\\\r"
	if raw {
		special = "\r"
	}
	if !strings.ContainsAny(body, special) {
		return body, nil
	}

	var out strings.Builder
	for {
		i := strings.IndexAny(body, special)
		if i < 0 {
			out.WriteString(body)
			return out.String(), nil
		}
		out.WriteString(body[:i])
		body = body[i:]
		if body[0] == '\r' {
			out.WriteByte('\n')
			body = strings.TrimPrefix(body[1:], "\n")
			continue
		}
		rest, err := decodeEscape(&out, body, isBytes)
		if err != nil {
			return "", err
		}
		body = rest
	}
}

var singleCharEscapes = map[byte]byte{
	'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
	'\\': '\\', '\'': '\'', '"': '"',
}

// decodeEscape writes the value of the escape sequence that starts s (at its
// backslash) and returns what follows it.
func decodeEscape(out *strings.Builder, s string, isBytes bool) (string, error) {
	if len(s) == 1 {
		return "", fmt.Errorf(`truncated escape sequence \`)
	}
	kind := s[1]
	if c, ok := singleCharEscapes[kind]; ok {
		out.WriteByte(c)
		return s[2:], nil
	}
	switch {
	case kind == '\n': // an escaped line break disappears
		return s[2:], nil

	case '0' <= kind && kind <= '7':
		n, digits := 0, 0
		for rest := s[1:]; digits < 3 && len(rest) > 0 && '0' <= rest[0] && rest[0] <= '7'; rest = rest[1:] {
			n = n*8 + int(rest[0]-'0')
			digits++
		}
		if !isBytes && n > 127 {
			return "", fmt.Errorf(`non-ASCII octal escape \%o (use \u%04X for the UTF-8 encoding of U+%04X)`, n, n, n)
		}
		if n > 255 {
			return "", fmt.Errorf(`invalid escape sequence \%03o`, n)
		}
		out.WriteByte(byte(n))
		return s[1+digits:], nil

	case kind == 'x':
		if len(s) < 4 {
			return "", fmt.Errorf(`truncated escape sequence %s`, s)
		}
		n, err := strconv.ParseUint(s[2:4], 16, 8)
		if err != nil {
			return "", fmt.Errorf(`invalid escape sequence %s`, s[:4])
		}
		if !isBytes && n > 127 {
			return "", fmt.Errorf(`non-ASCII hex escape %s (use \u%04X for the UTF-8 encoding of U+%04X)`, s[:4], n, n)
		}
		out.WriteByte(byte(n))
		return s[4:], nil

	case kind == 'u' || kind == 'U':
		size := 6
		if kind == 'U' {
			size = 10
		}
		if len(s) < size {
			return "", fmt.Errorf(`truncated escape sequence %s`, s)
		}
		n, err := strconv.ParseUint(s[2:size], 16, 64)
		if err != nil {
			return "", fmt.Errorf(`invalid escape sequence %s`, s[:size])
		}
		if n > unicode.MaxRune {
			return "", fmt.Errorf(`code point out of range: %s (max \U%08x)`, s[:size], n)
		}
		if 0xD800 <= n && n < 0xE000 {
			return "", fmt.Errorf(`invalid Unicode code point U+%04X`, n)
		}
		var buf [utf8.UTFMax]byte
		out.Write(buf[:utf8.EncodeRune(buf[:], rune(n))])
		return s[size:], nil
	}
	return "", fmt.Errorf("invalid escape sequence \\%c", kind)
}
