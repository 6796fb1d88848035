package repl

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"go.starlark.net/syntax"
)

// A lineSource yields input one line at a time. A line ends in "\n"; a
// terminal may return several lines at once (a recalled multi-line history
// entry, see decodeEntry).
type lineSource interface {
	// readLine returns the next line. continued tells whether a chunk is
	// open, for the prompt ("... " rather than ">>> "). At the end of input
	// it returns io.EOF; when Ctrl-C is typed at a prompt, errPromptInterrupt.
	// indent is the indentation a continuation line most likely starts
	// with (a terminal offers it, pre-filled, for the user to keep or
	// erase).
	readLine(continued bool, indent string) (string, error)
}

// A pasteSource is a lineSource that can tell a paste from typing.
type pasteSource interface {
	lineSource
	// inputArriving reports whether more input is already there, or
	// arrives within a moment (pasteGrace): the rest of a paste, rather
	// than keys a person has yet to type.
	inputArriving() bool
}

// errPromptInterrupt is Ctrl-C typed at a prompt: the partial chunk is
// dropped and a new prompt shown.
var errPromptInterrupt = errors.New("interrupted at the prompt")

// pipedSource reads lines from a reader that is not a terminal: no prompts,
// no editing, no history.
type pipedSource struct{ r *bufio.Reader }

func (p pipedSource) readLine(bool, string) (string, error) {
	line, err := p.r.ReadString('\n')
	if line != "" {
		if !strings.HasSuffix(line, "\n") {
			line += "\n" // the last line of input may lack its newline
		}
		return line, nil
	}
	if err == nil {
		err = io.EOF
	}
	return "", err
}

// A chunkReader is the readline callback of the dialect's REPL parser, with
// three corrections to what the parser would see line by line:
//
//   - A line that only holds a comment, inside an open chunk, is not given to
//     the parser: go.starlark.net's REPL scanner (which the dialect follows)
//     takes it for a blank line and ends the block, where Python's REPL
//     reads on. Lines inside a triple-quoted string are left alone.
//   - A block ended by a dedented line rather than a blank one (piped input,
//     or a user who goes on typing) makes the parser read that line, then
//     drop it with the parser. end gives it back, to start the next chunk.
//   - Several lines from one read (a recalled multi-line entry) are queued
//     and handed over one at a time.
//
// It also records the chunk's lines for the history.
type chunkReader struct {
	src lineSource

	pending []string // lines read from src, not yet given to the parser
	fed     []string // lines of this chunk given to the parser (line i+1 of the chunk is fed[i])
	typed   []string // lines of this chunk as typed, comments included, for the history
	quote   string   // the string literal open at the end of fed, or ""

	eof         bool // src reached its end
	interrupted bool // Ctrl-C at a prompt abandoned this chunk
	// skipBody drops the indented lines that follow a chunk with a syntax
	// error, up to the next blank or unindented line: in piped input they
	// are the rest of its block.
	skipBody bool
}

// begin starts a new chunk.
func (c *chunkReader) begin() {
	c.fed, c.typed, c.quote, c.interrupted = nil, nil, "", false
}

// readline gives the parser its next line. At the end of input it returns an
// empty line, which the parser reads as the end of the file (closing any
// open block); it keeps doing so if asked again.
func (c *chunkReader) readline() ([]byte, error) {
	for {
		if len(c.pending) == 0 {
			if c.eof {
				return []byte{}, nil
			}
			if err := c.fill(); err != nil {
				return nil, err
			}
			continue
		}
		line := c.pending[0]
		c.pending = c.pending[1:]
		if c.skipBody {
			if line[0] == ' ' || line[0] == '\t' {
				if strings.TrimSpace(line) != "" {
					continue
				}
			}
			c.skipBody = false
		}
		if len(c.fed) > 0 && c.quote == "" && strings.TrimSpace(line) == "" {
			goesOn, err := c.bodyGoesOn()
			if err != nil {
				return nil, err
			}
			if goesOn {
				c.typed = append(c.typed, line)
				continue
			}
		}
		c.typed = append(c.typed, line)
		if len(c.fed) > 0 && c.quote == "" && isCommentLine(line) {
			continue
		}
		c.fed = append(c.fed, line)
		c.quote = quoteAfter(c.quote, line)
		return []byte(line), nil
	}
}

// fill reads the next line (or lines) from src into pending. Its error is
// errPromptInterrupt, after which the chunk is abandoned; at the end of
// input it sets eof instead.
func (c *chunkReader) fill() error {
	text, err := c.src.readLine(len(c.fed) > 0, nextIndent(c.fed))
	switch {
	case err == errPromptInterrupt:
		c.interrupted = true
		c.pending = nil
		return err
	case err != nil:
		c.eof = true
		return nil
	}
	c.pending = append(c.pending, strings.SplitAfter(text, "\n")...)
	if c.pending[len(c.pending)-1] == "" {
		c.pending = c.pending[:len(c.pending)-1]
	}
	return nil
}

// bodyGoesOn decides about a blank line just taken from an open block:
// whether the block's body goes on after it, as in a pasted definition
// with blank lines between its statements. It does when the next line that
// is not blank, among the lines already read (a recalled history entry) or
// in input that is already arriving (a paste, see pasteSource), is
// indented. Otherwise, as when the blank line was typed by hand, or for
// piped input, the blank line ends the block.
func (c *chunkReader) bodyGoesOn() (bool, error) {
	for i := 0; ; {
		for ; i < len(c.pending); i++ {
			if line := c.pending[i]; strings.TrimSpace(line) != "" {
				return line[0] == ' ' || line[0] == '\t', nil
			}
		}
		paste, ok := c.src.(pasteSource)
		if !ok || c.eof || !paste.inputArriving() {
			return false, nil
		}
		if err := c.fill(); err != nil {
			return false, err
		}
	}
}

// nextIndent is the indentation of the line after lines, as Python's REPL
// auto-indents it: the last line's, one level (four spaces) deeper after a
// line that opens a block with ':'. Inside an open string literal it is
// empty.
func nextIndent(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	last := strings.TrimRight(lines[len(lines)-1], "\r\n")
	if strings.TrimSpace(last) == "" {
		return ""
	}
	indent := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
	code := last
	if i := strings.Index(code, "#"); i >= 0 && !strings.ContainsAny(code[:i], "\"'") {
		code = code[:i]
	}
	if strings.HasSuffix(strings.TrimSpace(code), ":") {
		indent += "    "
	}
	return indent
}

// empty reports whether the chunk has no text: nothing but blank lines
// were read for it.
func (c *chunkReader) empty() bool {
	for _, line := range c.typed {
		if strings.TrimSpace(line) != "" {
			return false
		}
	}
	return true
}

// end closes the chunk the parser returned as f (nil after a syntax error)
// and returns its history entry: its lines, without the blank line that
// ended a block, or "" for an empty chunk. A line the parser read past the
// end of f goes back to be read again.
func (c *chunkReader) end(f *syntax.File) string {
	if f != nil && len(c.fed) > 0 {
		last := 0
		for _, stmt := range f.Stmts {
			if _, end := stmt.Span(); int(end.Line) > last {
				last = int(end.Line)
			}
		}
		if n := len(c.fed); last > 0 && n > last && strings.TrimSpace(c.fed[n-1]) != "" {
			c.pending = append([]string{c.fed[n-1]}, c.pending...)
			c.typed = c.typed[:len(c.typed)-1] // the returned line was the last one read
		}
	}
	// Leftovers of a recalled entry that are all blank were its terminator.
	blank := true
	for _, line := range c.pending {
		blank = blank && strings.TrimSpace(line) == ""
	}
	if blank {
		c.pending = nil
	}
	lines := c.typed
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return encodeEntry(lines)
}

// isCommentLine reports whether line holds only a comment.
func isCommentLine(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), "#")
}

// quoteAfter returns the string literal still open after line, given the one
// open before it: "", a triple quote, or a single quote character whose
// string a backslash-newline continued. It knows just enough Starlark lexing
// for that: comments and escapes; a string prefix such as r or b is an
// ordinary letter before the quote, and a backslash still escapes a quote
// in it.
func quoteAfter(quote, line string) string {
	for i := 0; i < len(line); {
		if quote == "" {
			switch line[i] {
			case '#':
				return ""
			case '\'', '"':
				quote = line[i : i+1]
				if strings.HasPrefix(line[i:], strings.Repeat(quote, 3)) {
					quote = strings.Repeat(quote, 3)
				}
				i += len(quote)
			default:
				i++
			}
			continue
		}
		switch {
		case line[i] == '\\':
			if i+1 < len(line) && line[i+1] == '\n' && len(quote) == 1 {
				return quote // a one-line string continued on the next line
			}
			i += 2
		case strings.HasPrefix(line[i:], quote):
			i += len(quote)
			quote = ""
		default:
			i++
		}
	}
	if len(quote) == 1 {
		return "" // an unterminated one-line string: the parser reports it
	}
	return quote
}
