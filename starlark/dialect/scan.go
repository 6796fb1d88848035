package dialect

import (
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/syntax"
)

// The dialect's tokens beyond Starlark's. They take values past the last
// syntax.Token, so syntax.Token.String must never see them: messages name
// tokens through describe.
const (
	tokAt         = syntax.YIELD + 1 + iota // @ (decorator, or matrix product)
	tokAtEq                                 // @=
	tokStarStarEq                           // **=
	tokEllipsis                             // ...
	tokFString                              // f"...", with its prefix and quotes in raw
)

// describe names a token the way upstream error messages do (%#v of a
// syntax.Token: punctuation quoted, words bare).
func describe(t syntax.Token) string {
	switch t {
	case tokAt:
		return "'@'"
	case tokAtEq:
		return "'@='"
	case tokStarStarEq:
		return "'**='"
	case tokEllipsis:
		return "'...'"
	case tokFString:
		return "f-string"
	}
	return t.GoString()
}

var keywords = map[string]syntax.Token{}

func init() {
	// "assert" is deliberately absent: upstream keeps it an identifier.
	for _, t := range []syntax.Token{
		syntax.AND, syntax.BREAK, syntax.CONTINUE, syntax.DEF, syntax.ELIF,
		syntax.ELSE, syntax.FOR, syntax.IF, syntax.IN, syntax.LAMBDA,
		syntax.LOAD, syntax.NOT, syntax.OR, syntax.PASS, syntax.RETURN,
		syntax.WHILE, syntax.AS, syntax.ASYNC, syntax.AWAIT, syntax.CLASS,
		syntax.DEL, syntax.EXCEPT, syntax.FINALLY, syntax.FROM, syntax.GLOBAL,
		syntax.IMPORT, syntax.IS, syntax.NONLOCAL, syntax.RAISE, syntax.TRY,
		syntax.WITH, syntax.YIELD,
	} {
		keywords[t.String()] = t
	}
}

// tokenValue is what the scanner knows about the token it just read.
type tokenValue struct {
	pos    syntax.Position // where the token starts
	raw    string          // source text; set only for identifiers and literals
	int    int64           // INT that fits in int64
	bigInt *big.Int        // INT that does not (else nil)
	float  float64         // FLOAT
	string string          // decoded STRING or BYTES
}

// scanner turns source text into tokens, including the INDENT, OUTDENT and
// NEWLINE tokens that carry Starlark's block structure. Its behaviour,
// positions and error messages follow go.starlark.net's scanner exactly for
// Starlark input, because plain Starlark must parse to the upstream tree.
type scanner struct {
	buf      []byte          // input; in REPL mode only the current line
	off      int             // next unread byte of buf
	pos      syntax.Position // position of buf[off]
	readline func() ([]byte, error)

	depth     int   // nesting of ( [ {; newlines inside brackets are ignored
	indents   []int // columns of the open blocks, 0 at the bottom
	dents     int   // INDENT (>0) or OUTDENT (<0) tokens still to return
	lineStart bool  // the next token opens a line: measure its indentation

	keepComments   bool
	lineComments   []syntax.Comment // comments alone on their line
	suffixComments []syntax.Comment // comments after code on their line

	extended bool // a token only the dialect has was read

	// A token's text is buf[tokStart:off], except when a REPL line was
	// replaced while scanning it (a multi-line string): the earlier lines'
	// part is kept in carry.
	tokStart int
	inToken  bool
	carry    []byte
}

func newScanner(filename string, src any, keepComments bool) (*scanner, error) {
	line, col := int32(1), int32(1)
	if portion, ok := src.(syntax.FilePortion); ok {
		line, col = portion.FirstLine, portion.FirstCol
	}
	sc := &scanner{
		pos:          syntax.MakePosition(&filename, line, col),
		indents:      make([]int, 1, 16),
		lineStart:    true,
		keepComments: keepComments,
	}
	if readline, ok := src.(func() ([]byte, error)); ok {
		sc.readline = readline
		return sc, nil
	}
	data, err := readSource(filename, src)
	if err != nil {
		return nil, err
	}
	sc.buf = data
	return sc, nil
}

// readSource accepts the same kinds of src as syntax.Parse.
func readSource(filename string, src any) ([]byte, error) {
	switch src := src.(type) {
	case nil:
		return os.ReadFile(filename)
	case string:
		return []byte(src), nil
	case []byte:
		return src, nil
	case syntax.FilePortion:
		return src.Content, nil
	case io.Reader:
		data, err := io.ReadAll(src)
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: filename, Err: err}
		}
		return data, nil
	}
	return nil, fmt.Errorf("invalid source: %T", src)
}

// fail reports a syntax error; the parser's entry points recover it.
func (sc *scanner) fail(pos syntax.Position, format string, args ...any) {
	panic(syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// moreInput makes sure buf has an unread byte, asking readline for a new
// line in REPL mode. Reading past the last line is an error there (the
// REPL's EOF or interrupt), as upstream.
func (sc *scanner) moreInput() bool {
	if sc.off < len(sc.buf) {
		return true
	}
	if sc.readline == nil {
		return false
	}
	if sc.inToken {
		sc.carry = append(sc.carry, sc.buf[sc.tokStart:]...)
		sc.tokStart = 0
	}
	line, err := sc.readline()
	if err != nil {
		sc.fail(sc.pos, "%v", err)
	}
	sc.buf, sc.off = line, 0
	return len(line) > 0
}

// peek returns the next rune without consuming it: 0 at end of input, and
// '\n' for any of the newline forms \n, \r\n, \r. (A NUL byte also reads as
// 0, so it ends the input where a token could start, as upstream.)
func (sc *scanner) peek() rune {
	if !sc.moreInput() {
		return 0
	}
	b := sc.buf[sc.off]
	if b < utf8.RuneSelf {
		if b == '\r' {
			return '\n'
		}
		return rune(b)
	}
	r, _ := utf8.DecodeRune(sc.buf[sc.off:])
	return r
}

// read consumes the next rune and advances the position: columns count
// runes, and every newline form counts as one line.
func (sc *scanner) read() rune {
	if !sc.moreInput() {
		sc.fail(sc.pos, "internal scanner error: readRune at EOF")
	}
	b := sc.buf[sc.off]
	if b >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(sc.buf[sc.off:])
		sc.off += size
		sc.pos.Col++
		return r
	}
	sc.off++
	if b == '\r' {
		if sc.off < len(sc.buf) && sc.buf[sc.off] == '\n' {
			sc.off++
		}
		b = '\n'
	}
	if b == '\n' {
		sc.pos.Line++
		sc.pos.Col = 1
	} else {
		sc.pos.Col++
	}
	return rune(b)
}

func (sc *scanner) startToken(val *tokenValue) {
	val.pos = sc.pos
	val.raw = ""
	sc.tokStart = sc.off
	sc.inToken = true
	sc.carry = sc.carry[:0]
}

// tokenText returns the source text of the token being scanned.
func (sc *scanner) tokenText() string {
	if len(sc.carry) == 0 {
		return string(sc.buf[sc.tokStart:sc.off])
	}
	return string(append(sc.carry, sc.buf[sc.tokStart:sc.off]...))
}

// next scans the next token into val.
func (sc *scanner) next(val *tokenValue) syntax.Token {
	sc.inToken = false
	for {
		wasLineStart := sc.lineStart
		blank := false // the line holds nothing but spaces and maybe a comment
		if sc.lineStart {
			sc.lineStart = false
			col, c := sc.measureIndent()
			blank = c == '#' || c == '\n' || c == 0
			if !blank && sc.depth == 0 {
				sc.indentTo(col)
			}
		}

		if sc.dents != 0 {
			val.pos, val.raw = sc.pos, ""
			if sc.dents < 0 {
				sc.dents++
				return syntax.OUTDENT
			}
			sc.dents--
			return syntax.INDENT
		}

		c := sc.peek()
		for c == ' ' || c == '\t' {
			sc.read()
			c = sc.peek()
		}
		if c == '#' {
			sc.skipComment(blank)
			c = sc.peek()
		}

		switch c {
		case '\n':
			sc.lineStart = true
			if sc.depth > 0 {
				sc.read()
				continue
			}
			if blank {
				// A file skips blank lines; the REPL treats one as the
				// end of any open block.
				if sc.readline == nil {
					sc.read()
					continue
				}
				if len(sc.indents) > 1 {
					sc.closeAllBlocks()
					continue
				}
			}
			val.pos, val.raw = sc.pos, "\n"
			sc.read()
			return syntax.NEWLINE

		case 0:
			if len(sc.indents) > 1 {
				// Close the open blocks, after a NEWLINE unless one was
				// just returned.
				if wasLineStart {
					sc.closeAllBlocks()
					continue
				}
				sc.lineStart = true
				val.pos, val.raw = sc.pos, "\n"
				return syntax.NEWLINE
			}
			val.pos, val.raw = sc.pos, ""
			return syntax.EOF

		case '\\':
			sc.read()
			if sc.peek() != '\n' {
				sc.fail(sc.pos, "stray backslash in program")
			}
			sc.read()
			continue
		}
		return sc.scanToken(val, c)
	}
}

// measureIndent consumes a line's leading blanks and returns their width
// (tabs advance to the next multiple of 8) and the rune after them.
func (sc *scanner) measureIndent() (col int, c rune) {
	for {
		switch c = sc.peek(); c {
		case ' ':
			col++
		case '\t':
			col += 8 - int(sc.pos.Col-1)%8
		default:
			return col, c
		}
		sc.read()
	}
}

func (sc *scanner) indentTo(col int) {
	top := sc.indents[len(sc.indents)-1]
	switch {
	case col > top:
		sc.dents++
		sc.indents = append(sc.indents, col)
	case col < top:
		for col < sc.indents[len(sc.indents)-1] {
			sc.dents--
			sc.indents = sc.indents[:len(sc.indents)-1]
		}
		if col != sc.indents[len(sc.indents)-1] {
			sc.fail(sc.pos, "unindent does not match any outer indentation level")
		}
	}
}

func (sc *scanner) closeAllBlocks() {
	sc.dents = 1 - len(sc.indents)
	sc.indents = sc.indents[:1]
}

// skipComment consumes a comment up to (not including) the end of its line.
func (sc *scanner) skipComment(wholeLine bool) {
	start, startOff := sc.pos, sc.off
	for c := sc.peek(); c != 0 && c != '\n'; c = sc.peek() {
		sc.read()
	}
	if !sc.keepComments {
		return
	}
	comment := syntax.Comment{Start: start, Text: string(sc.buf[startOff:sc.off])}
	if wholeLine {
		sc.lineComments = append(sc.lineComments, comment)
	} else {
		sc.suffixComments = append(sc.suffixComments, comment)
	}
}

// scanToken scans a token other than the layout tokens; c is its first rune.
func (sc *scanner) scanToken(val *tokenValue, c rune) syntax.Token {
	sc.startToken(val)
	switch {
	case c == ',':
		sc.read()
		return syntax.COMMA
	case c == '"' || c == '\'':
		return sc.scanString(val, c)
	case isIdentStart(c):
		return sc.scanWord(val, c)
	case isDigit(c):
		return sc.scanNumber(val, c)
	case c == '.':
		if sc.off+2 < len(sc.buf) && sc.buf[sc.off+1] == '.' && sc.buf[sc.off+2] == '.' {
			sc.read()
			sc.read()
			sc.read()
			sc.extended = true
			return tokEllipsis
		}
		return sc.scanNumber(val, c)
	}

	switch c {
	case '(', '[', '{':
		sc.depth++
		if sc.depth > 1000 {
			sc.fail(sc.pos, "excessive nesting")
		}
		sc.read()
		return openers[c]
	case ')', ']', '}':
		if sc.depth == 0 {
			sc.fail(sc.pos, "unexpected %q", c)
		}
		sc.depth--
		sc.read()
		return closers[c]
	case ':':
		sc.read()
		return syntax.COLON
	case ';':
		sc.read()
		return syntax.SEMI
	case '~':
		sc.read()
		return syntax.TILDE
	case '!':
		start := sc.pos
		sc.read()
		if sc.peek() != '=' {
			sc.fail(start, "unexpected input character '!'")
		}
		sc.read()
		return syntax.NEQ
	case '*':
		sc.read()
		if sc.accept('*') {
			if sc.accept('=') {
				sc.extended = true
				return tokStarStarEq
			}
			return syntax.STARSTAR
		}
		if sc.accept('=') {
			return syntax.STAR_EQ
		}
		return syntax.STAR
	case '@':
		sc.read()
		sc.extended = true
		if sc.accept('=') {
			return tokAtEq
		}
		return tokAt
	case '/':
		sc.read()
		if sc.accept('/') {
			return withAssign(sc, syntax.SLASHSLASH, syntax.SLASHSLASH_EQ)
		}
		return withAssign(sc, syntax.SLASH, syntax.SLASH_EQ)
	case '<':
		sc.read()
		if sc.accept('=') {
			return syntax.LE
		}
		if sc.accept('<') {
			return withAssign(sc, syntax.LTLT, syntax.LTLT_EQ)
		}
		return syntax.LT
	case '>':
		sc.read()
		if sc.accept('=') {
			return syntax.GE
		}
		if sc.accept('>') {
			return withAssign(sc, syntax.GTGT, syntax.GTGT_EQ)
		}
		return syntax.GT
	case '=':
		sc.read()
		return withAssign(sc, syntax.EQ, syntax.EQL)
	}
	if ops, ok := simpleOperators[c]; ok {
		sc.read()
		return withAssign(sc, ops[0], ops[1])
	}
	sc.fail(sc.pos, "unexpected input character %#q", c)
	panic("unreachable")
}

var (
	openers = map[rune]syntax.Token{'(': syntax.LPAREN, '[': syntax.LBRACK, '{': syntax.LBRACE}
	closers = map[rune]syntax.Token{')': syntax.RPAREN, ']': syntax.RBRACK, '}': syntax.RBRACE}
	// One-character operators, and their augmented-assignment forms.
	simpleOperators = map[rune][2]syntax.Token{
		'+': {syntax.PLUS, syntax.PLUS_EQ},
		'-': {syntax.MINUS, syntax.MINUS_EQ},
		'%': {syntax.PERCENT, syntax.PERCENT_EQ},
		'&': {syntax.AMP, syntax.AMP_EQ},
		'|': {syntax.PIPE, syntax.PIPE_EQ},
		'^': {syntax.CIRCUMFLEX, syntax.CIRCUMFLEX_EQ},
	}
)

// accept consumes the next rune if it is c.
func (sc *scanner) accept(c rune) bool {
	if sc.peek() != c {
		return false
	}
	sc.read()
	return true
}

// withAssign returns withEq if an '=' follows (consuming it), else plain.
func withAssign(sc *scanner, plain, withEq syntax.Token) syntax.Token {
	if sc.accept('=') {
		return withEq
	}
	return plain
}

// scanWord scans an identifier, a keyword, or a string with an r, b or rb
// prefix.
func (sc *scanner) scanWord(val *tokenValue, c rune) syntax.Token {
	isQuote := func(i int) bool {
		return sc.off+i < len(sc.buf) && (sc.buf[sc.off+i] == '"' || sc.buf[sc.off+i] == '\'')
	}
	switch {
	case (c == 'r' || c == 'b') && isQuote(1):
		sc.read()
		return sc.scanString(val, sc.peek())
	case c == 'r' && sc.off+1 < len(sc.buf) && sc.buf[sc.off+1] == 'b' && isQuote(2):
		sc.read()
		sc.read()
		return sc.scanString(val, sc.peek())
	}
	if n := fStringPrefix(sc.buf[sc.off:]); n > 0 {
		for range n {
			sc.read()
		}
		sc.scanQuoted(val, sc.peek())
		val.raw = normalizeNewlines(sc.tokenText())
		sc.extended = true
		return tokFString
	}
	for isIdentStart(c) || isDigit(c) {
		sc.read()
		c = sc.peek()
	}
	val.raw = sc.tokenText()
	if k, ok := keywords[val.raw]; ok {
		return k
	}
	return syntax.IDENT
}

// scanString scans a string or bytes literal whose prefix, if any, has been
// read; quote is its opening quote character.
func (sc *scanner) scanString(val *tokenValue, quote rune) syntax.Token {
	quotePos := sc.pos
	sc.scanQuoted(val, quote)
	val.raw = normalizeNewlines(sc.tokenText())
	s, isBytes, err := unquote(val.raw)
	if err != nil {
		sc.fail(quotePos, "%s", err)
	}
	val.string = s
	if isBytes {
		return syntax.BYTES
	}
	return syntax.STRING
}

// fStringPrefix returns the length of the f-string prefix (f, or f and r in
// either order, in either case) that src starts with when a quote follows
// it, else 0.
func fStringPrefix(src []byte) int {
	isF := func(b byte) bool { return b == 'f' || b == 'F' }
	isR := func(b byte) bool { return b == 'r' || b == 'R' }
	isQuote := func(i int) bool { return i < len(src) && (src[i] == '"' || src[i] == '\'') }
	switch {
	case len(src) >= 1 && isF(src[0]) && isQuote(1):
		return 1
	case len(src) >= 2 && (isF(src[0]) && isR(src[1]) || isR(src[0]) && isF(src[1])) && isQuote(2):
		return 2
	}
	return 0
}

// scanQuoted consumes a quoted literal from its opening quote to its
// closing one.
func (sc *scanner) scanQuoted(val *tokenValue, quote rune) {
	q := byte(quote)
	triple := sc.off+3 <= len(sc.buf) && sc.buf[sc.off+1] == q && sc.buf[sc.off+2] == q
	sc.read()
	unterminated := func() {
		if !sc.moreInput() {
			sc.fail(val.pos, "unexpected EOF in string")
		}
	}
	if triple {
		sc.read()
		sc.read()
		for quotes := 0; quotes < 3; {
			unterminated()
			c := sc.read()
			if c != quote {
				quotes = 0
			} else {
				quotes++
				continue
			}
			if c == '\\' {
				unterminated()
				sc.read()
			}
		}
	} else {
		for {
			unterminated()
			c := sc.read()
			if c == quote {
				break
			}
			if c == '\n' {
				sc.fail(val.pos, "unexpected newline in string")
			}
			if c == '\\' {
				unterminated()
				sc.read()
			}
		}
	}
}

// normalizeNewlines returns a string literal's text as the scanner read it
// rune by rune: \r\n and \r become \n, and each byte that is not valid
// UTF-8 becomes U+FFFD. Upstream's Literal.Raw has this form.
func normalizeNewlines(text string) string {
	clean := utf8.ValidString(text)
	for i := 0; clean && i < len(text); i++ {
		clean = text[i] != '\r'
	}
	if clean {
		return text
	}
	out := make([]byte, 0, len(text)+8)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r':
			out = append(out, '\n')
			if i+1 < len(text) && text[i+1] == '\n' {
				size = 2
			}
		case r == utf8.RuneError && size == 1:
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = append(out, text[i:i+size]...)
		}
		i += size
	}
	return string(out)
}

// scanNumber scans an int or float literal, or a lone '.'.
func (sc *scanner) scanNumber(val *tokenValue, c rune) syntax.Token {
	start := sc.pos
	fraction, exponent := false, false
	leadingDot := c == '.'
	switch c {
	case '.':
		sc.read()
		if !isDigit(sc.peek()) {
			return syntax.DOT
		}
		sc.skipDigits(isDigit)
		fraction, exponent = true, sc.peekExponent()
	case '0':
		sc.read()
		switch c = sc.peek(); c {
		case 'x', 'X':
			sc.read()
			if !isHexDigit(sc.peek()) {
				sc.fail(start, "invalid hex literal")
			}
			sc.skipDigits(isHexDigit)
		case 'o', 'O':
			sc.read()
			if !isOctalDigit(sc.peek()) {
				sc.fail(sc.pos, "invalid octal literal")
			}
			sc.skipDigits(isOctalDigit)
		case 'b', 'B':
			sc.read()
			if !isBinaryDigit(sc.peek()) {
				sc.fail(sc.pos, "invalid binary literal")
			}
			sc.skipDigits(isBinaryDigit)
		default:
			// 0, 00, a float such as 0.5 or 012e3, or the old octal
			// form 0755, which is rejected.
			allZeros, octal := true, true
			for c = sc.peek(); isDigit(c); c = sc.peek() {
				allZeros = allZeros && c == '0'
				octal = octal && c <= '7'
				sc.read()
			}
			fraction, exponent = sc.peekFraction()
			if !fraction && !exponent && octal && !allZeros {
				sc.fail(sc.pos, "obsolete form of octal literal; use 0o%s", sc.tokenText()[1:])
			}
		}
	default:
		sc.skipDigits(isDigit)
		fraction, exponent = sc.peekFraction()
	}
	if fraction && !leadingDot {
		sc.read() // the '.'
		sc.skipDigits(isDigit)
		exponent = sc.peekExponent()
	}
	if exponent {
		sc.read() // the 'e'
		if c := sc.peek(); c == '+' || c == '-' {
			sc.read()
			if !isDigit(sc.peek()) {
				sc.fail(sc.pos, "invalid float literal")
			}
		}
		sc.skipDigits(isDigit)
	}

	val.raw = sc.tokenText()
	if fraction || exponent {
		f, err := strconv.ParseFloat(val.raw, 64)
		if err != nil {
			sc.fail(sc.pos, "invalid float literal")
		}
		val.float = f
		return syntax.FLOAT
	}
	val.int, val.bigInt = 0, nil
	var err error
	s := val.raw
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O'):
		val.int, err = strconv.ParseInt(s[2:], 8, 64)
	case len(s) > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'):
		val.int, err = strconv.ParseInt(s[2:], 2, 64)
	default:
		val.int, err = strconv.ParseInt(s, 0, 64)
		if err != nil {
			if n, ok := new(big.Int).SetString(s, 0); ok {
				val.bigInt, err = n, nil
			}
		}
	}
	if err != nil {
		sc.fail(start, "invalid int literal")
	}
	return syntax.INT
}

// peekFraction reports whether the digits just read go on with a '.'
// fraction or an exponent.
func (sc *scanner) peekFraction() (fraction, exponent bool) {
	switch sc.peek() {
	case '.':
		return true, false
	case 'e', 'E':
		return false, true
	}
	return false, false
}

func (sc *scanner) peekExponent() bool {
	c := sc.peek()
	return c == 'e' || c == 'E'
}

func (sc *scanner) skipDigits(isDigit func(rune) bool) {
	for isDigit(sc.peek()) {
		sc.read()
	}
}

func isIdentStart(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= utf8.RuneSelf && unicode.IsLetter(c)
}

func isDigit(c rune) bool       { return '0' <= c && c <= '9' }
func isOctalDigit(c rune) bool  { return '0' <= c && c <= '7' }
func isBinaryDigit(c rune) bool { return c == '0' || c == '1' }
func isHexDigit(c rune) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
