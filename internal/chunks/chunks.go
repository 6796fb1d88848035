// Package chunks reads test files made of several chunks of source separated by
// lines that hold only "---", the layout go.starlark.net's own testdata uses.
//
// A chunk keeps the line numbers it has in the whole file: its source is
// prefixed with blank lines, so positions reported while running a chunk can
// be compared with the file as a person reads it. A line containing `###`
// followed by a Go string literal states that running the chunk must fail
// with an error, on that line, whose message matches the literal as a regular
// expression.
package chunks

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// A Chunk is one test program cut from a chunked file.
type Chunk struct {
	Source    string // the chunk's text, preceded by StartLine-1 blank lines
	StartLine int    // line of the file on which the chunk's first line stands
	// Wants maps a line number to the pattern an error on that line must match.
	Wants map[int]*regexp.Regexp
}

// Read splits the file at path into chunks.
func Read(path string) ([]Chunk, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Split(path, string(data))
}

// Split splits text (named path in error messages) into chunks.
func Split(path, text string) ([]Chunk, error) {
	var out []Chunk
	lines := strings.SplitAfter(text, "\n")
	start := 0 // index of the current chunk's first line
	flush := func(end int) error {
		c := Chunk{StartLine: start + 1, Wants: map[int]*regexp.Regexp{}}
		var b strings.Builder
		b.WriteString(strings.Repeat("\n", start))
		for i := start; i < end; i++ {
			line := lines[i]
			b.WriteString(line)
			k := strings.Index(line, "###")
			if k < 0 {
				continue
			}
			lit := strings.TrimSpace(line[k+3:])
			if lit == "" || (lit[0] != '"' && lit[0] != '`') {
				continue // a comment that merely contains ###, e.g. a #### rule
			}
			pattern, err := strconv.Unquote(lit)
			if err != nil {
				return fmt.Errorf("%s:%d: bad ### expectation %s: %v", path, i+1, lit, err)
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				return fmt.Errorf("%s:%d: bad ### pattern: %v", path, i+1, err)
			}
			c.Wants[i+1] = re
		}
		c.Source = b.String()
		out = append(out, c)
		return nil
	}
	for i, line := range lines {
		if strings.TrimRight(line, "\r\n") == "---" {
			if err := flush(i); err != nil {
				return nil, err
			}
			start = i + 1
		}
	}
	if err := flush(len(lines)); err != nil {
		return nil, err
	}
	return out, nil
}
