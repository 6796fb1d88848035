// Package casetest checks library functions against value tables that
// NumPy and SciPy produced once (the gen_*.py scripts beside each table):
// each expression is run by jaxsh, eagerly and under jit, and its result
// compared with the table's value.
package casetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/starlark"
)

// encodeScript turns the value of r into JSON the way gen_composed.py
// writes NumPy's: arrays as nested lists, tuples as lists, nan and the
// infinities as strings.
const encodeScript = `
def _enc(v):
    t = type(v)
    if t == "Array":
        return _enc(v.tolist())
    if t == "tuple" or t == "list":
        return [_enc(e) for e in v]
    if t == "float":
        if v != v or jnp.isnan(v).item():
            return "nan"
        if v == float("inf"):
            return "inf"
        if v == float("-inf"):
            return "-inf"
    return v
`

// Run checks every case of the JSON file at path: [expression, value,
// flags...] as the generators in testdata write them. Each expression runs
// eagerly and, unless flagged "eager" (its output shape depends on
// values), under jit; "f64" compares at float64 precision, else within
// float32's.
func Run(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]any
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &out})
	for _, c := range cases {
		expr, want := c[0].(string), c[1]
		var flags []string
		for _, f := range c[2:] {
			flags = append(flags, f.(string))
		}
		rtol := 2e-5
		if slices.Contains(flags, "f64") {
			rtol = 1e-12
		}
		modes := []string{"eager", "jit"}
		if slices.Contains(flags, "eager") {
			modes = modes[:1]
		}
		for _, mode := range modes {
			call := "f()"
			if mode == "jit" {
				call = "jit(f)()"
			}
			code := encodeScript + "def f():\n    return " + expr + "\nr = json.encode(_enc(" + call + "))\n"
			g, err := interp.RunString(context.Background(), "case.star", code, nil)
			if err != nil {
				t.Errorf("%s (%s): %s", expr, mode, jaxsh.FormatError(err))
				continue
			}
			var got any
			if err := json.Unmarshal([]byte(g["r"].(starlark.String)), &got); err != nil {
				t.Fatal(err)
			}
			if msg := compareJSON(got, want, rtol); msg != "" {
				t.Errorf("%s (%s): %s\ngot  %v\nwant %v", expr, mode, msg, got, want)
			}
		}
	}
}

// compareJSON compares decoded JSON values: numbers within rtol (and 1e-6
// absolutely), everything else exactly.
func compareJSON(got, want any, rtol float64) string {
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("want %d elements, got %v", len(w), got)
		}
		for i := range w {
			if msg := compareJSON(g[i], w[i], rtol); msg != "" {
				return fmt.Sprintf("[%d]: %s", i, msg)
			}
		}
		return ""
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("want %v, got %v", w, got)
		}
		if math.Abs(g-w) > 1e-6+rtol*math.Abs(w) {
			return fmt.Sprintf("%v differs from %v", g, w)
		}
		return ""
	}
	if got != want {
		return fmt.Sprintf("want %v, got %v", want, got)
	}
	return ""
}

// RunWithFiles runs code in a fresh interpreter that may use the files
// below dir, and returns what it printed: the tests of the file functions
// (jnp.save, image.save, plot.*) write and read there.
func RunWithFiles(t *testing.T, dir, code string) (string, error) {
	t.Helper()
	policy, err := jaxsh.FilesBelow(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &out, Files: policy})
	_, err = interp.RunString(context.Background(), "files_test.star", code, nil)
	return out.String(), err
}
