package npy

import (
	"fmt"
	"strconv"
	"strings"
)

// header is what a .npy header says about its array.
type header struct {
	descr   string
	fortran bool
	shape   []int
}

// parseHeader reads the header's Python dict literal. It accepts the
// literals NumPy writes (strings in either quote, True/False, tuples of
// ints, trailing commas, any key order, surrounding spaces) and nothing
// more: a structured dtype's list descr is refused as unsupported.
func parseHeader(text string) (header, error) {
	p := &litParser{s: strings.TrimRight(text, " \n\x00")}
	var h header
	seen := map[string]bool{}
	p.space()
	if !p.eat('{') {
		return h, fmt.Errorf("want '{' at the start, got %q", p.rest())
	}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		p.space()
		if !p.eat(':') {
			return h, fmt.Errorf("want ':' after key %q", key)
		}
		p.space()
		switch key {
		case "descr":
			if p.peek() == '[' {
				return h, fmt.Errorf("structured dtypes are not supported")
			}
			h.descr, err = p.str()
		case "fortran_order":
			h.fortran, err = p.boolean()
		case "shape":
			h.shape, err = p.tuple()
		default:
			return h, fmt.Errorf("unknown key %q", key)
		}
		if err != nil {
			return h, fmt.Errorf("%s: %w", key, err)
		}
		seen[key] = true
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat('}') {
			return h, fmt.Errorf("want ',' or '}', got %q", p.rest())
		}
		break
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, fmt.Errorf("missing key %q", k)
		}
	}
	if p.space(); p.i != len(p.s) {
		return h, fmt.Errorf("unexpected text after the dict: %q", p.rest())
	}
	return h, nil
}

type litParser struct {
	s string
	i int
}

func (p *litParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

func (p *litParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *litParser) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

func (p *litParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *litParser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", fmt.Errorf("want a string, got %q", p.rest())
	}
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *litParser) boolean() (bool, error) {
	switch {
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return false, nil
	}
	return false, fmt.Errorf("want True or False, got %q", p.rest())
}

func (p *litParser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, fmt.Errorf("want a tuple, got %q", p.rest())
	}
	shape := []int{}
	for {
		p.space()
		if p.eat(')') {
			return shape, nil
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i < len(p.s) && p.s[p.i] == 'L' { // Python 2 longs
			p.i++
		}
		d, err := strconv.Atoi(strings.TrimSuffix(p.s[start:p.i], "L"))
		if err != nil {
			return nil, fmt.Errorf("bad dimension %q", p.s[start:p.i])
		}
		shape = append(shape, d)
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat(')') {
			return nil, fmt.Errorf("want ',' or ')' in the shape, got %q", p.rest())
		}
		return shape, nil
	}
}
