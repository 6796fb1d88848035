package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/internal/chunks"
	"go.starlark.net/syntax"
)

// compareFile parses src with upstream's parser and with ParsePlain (mode
// as given) and returns a description of any difference the dialect does
// not allow, or "". extended is ParsePlain's report. The rules:
// upstream's accepted input must be accepted; without extensions the trees
// must be identical; when both reject input without extensions, the errors
// (position and message) must be; and the dialect may accept what upstream
// rejects only by using an extension.
func compareFile(filename, src string, mode syntax.Mode) (extended bool, problem string) {
	want, wantErr := (&syntax.FileOptions{}).Parse(filename, src, mode)
	got, extended, gotErr := ParsePlain(&syntax.FileOptions{}, filename, src, mode)
	withComments := mode&syntax.RetainComments != 0
	return extended, compareOutcomes(extended, dumpOrNil(want, withComments), wantErr, dumpOrNil(got, withComments), gotErr)
}

// compareExpr is compareFile for ParseExpr.
func compareExpr(filename, src string) (extended bool, problem string) {
	want, wantErr := (&syntax.FileOptions{}).ParseExpr(filename, src, 0)
	got, extended, gotErr := parseExpr(&syntax.FileOptions{}, filename, src, 0)
	return extended, compareOutcomes(extended, dumpOrNil(want, false), wantErr, dumpOrNil(got, false), gotErr)
}

// compareCompound feeds src line by line to successive ParseCompoundStmt
// calls, as a REPL does, with both parsers, until the input runs out, and
// compares each call's outcome.
func compareCompound(filename, src string) (extended bool, problem string) {
	if !strings.HasSuffix(src, "\n") {
		// A REPL line always ends in a newline; upstream mishandles a
		// token split across two reads.
		src += "\n"
	}
	upstreamLines, dialectLines := lineReader(src), lineReader(src)
	for call := 1; ; call++ {
		want, wantErr := (&syntax.FileOptions{}).ParseCompoundStmt(filename, upstreamLines)
		got, ext, gotErr := parseCompoundStmt(&syntax.FileOptions{}, filename, dialectLines)
		extended = extended || ext
		if problem := compareOutcomes(ext, dumpOrNil(want, false), wantErr, dumpOrNil(got, false), gotErr); problem != "" {
			return extended, fmt.Sprintf("compound statement %d: %s", call, problem)
		}
		if wantErr != nil || gotErr != nil || ext {
			// After an error, or a different tree, the two readers may
			// stand at different lines.
			return extended, ""
		}
	}
}

func lineReader(src string) func() ([]byte, error) {
	lines := strings.SplitAfter(src, "\n")
	return func() ([]byte, error) {
		for len(lines) > 0 {
			line := lines[0]
			lines = lines[1:]
			if line != "" {
				return []byte(line), nil
			}
		}
		return nil, io.EOF
	}
}

// dumpOrNil dumps a parse result, or returns "" for a nil one.
func dumpOrNil(tree any, withComments bool) string {
	if v := reflect.ValueOf(tree); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return ""
	}
	return dumpTree(tree, withComments)
}

func compareOutcomes(extended bool, want string, wantErr error, got string, gotErr error) string {
	if gotErr != nil {
		var se syntax.Error
		if !errors.As(gotErr, &se) {
			return fmt.Sprintf("dialect error %v is a %T, not a syntax.Error", gotErr, gotErr)
		}
		if strings.Contains(se.Msg, "internal error") {
			return fmt.Sprintf("dialect parser failed: %v", gotErr)
		}
	}
	switch {
	case wantErr == nil && gotErr != nil:
		return fmt.Sprintf("upstream accepts, dialect rejects: %v", gotErr)
	case wantErr == nil && !extended && want != got:
		return "trees differ at " + firstDifference(want, got)
	case wantErr != nil && gotErr == nil && !extended:
		return fmt.Sprintf("upstream rejects (%v), dialect accepts without extensions", wantErr)
	case wantErr != nil && gotErr != nil && !extended && wantErr.Error() != gotErr.Error():
		return fmt.Sprintf("errors differ:\nupstream: %v\ndialect:  %v", wantErr, gotErr)
	}
	return ""
}

// upstreamTestFiles returns every .star file in the go.starlark.net module
// this repository builds with.
func upstreamTestFiles(t testing.TB) []string {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.starlark.net")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m go.starlark.net: %v\n%s", err, stderr.String())
	}
	dir := strings.TrimSpace(string(out))
	var files []string
	err = filepath.WalkDir(dir, func(path string, entry fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !entry.IsDir() && strings.HasSuffix(path, ".star") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .star files under %s", dir)
	}
	return files
}

// readChunks splits an upstream .star file into its chunks. The chunks
// package refuses a file with a ### that is not an error expectation, as
// in syntax/testdata/scan.star ("####...", a comment); such a file that has
// no --- separator is the one chunk the package would have made of it.
func readChunks(t testing.TB, path string) []chunks.Chunk {
	cs, err := chunks.Read(path)
	if err == nil {
		return cs
	}
	data, readErr := os.ReadFile(path)
	if readErr != nil {
		t.Fatal(readErr)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimRight(line, "\r") == "---" {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return []chunks.Chunk{{Source: string(data), StartLine: 1}}
}

// upstreamChunks returns the chunks of every upstream .star file.
func upstreamChunks(t testing.TB) (files []string, all []chunks.Chunk) {
	files = upstreamTestFiles(t)
	for _, path := range files {
		all = append(all, readChunks(t, path)...)
	}
	return files, all
}

// intendedDifferences lists the upstream chunks that are plain Starlark
// but use dialect syntax, and so may parse differently, by file (relative
// to the module) and first line.
var intendedDifferences = map[string]string{
	"syntax/testdata/errors.star:192": "x[1, 2:] is a 2-D subscript, not the slice (1, 2):",
	"syntax/testdata/errors.star:195": "x[1, 2,:] is a 3-D subscript, which upstream rejects",
}

// TestUpstreamEquivalence parses every chunk of go.starlark.net's own .star
// files, as a file, with and without comments, as a series of REPL
// statements, and (when it is one) as an expression, with both parsers.
func TestUpstreamEquivalence(t *testing.T) {
	files := upstreamTestFiles(t)
	compared, rejected, different := 0, 0, 0
	for _, path := range files {
		for _, c := range readChunks(t, path) {
			name := fmt.Sprintf("%s:%d", path, c.StartLine)
			_, intended := intendedDifferences[moduleRelative(path)+fmt.Sprintf(":%d", c.StartLine)]
			if intended {
				different++
			}
			for _, mode := range []syntax.Mode{0, syntax.RetainComments} {
				extended, problem := compareFile(path, c.Source, mode)
				if extended != intended {
					t.Errorf("%s: extension use reported %v, want %v", name, extended, intended)
				}
				if problem != "" {
					t.Errorf("%s (mode %d): %s", name, mode, problem)
				}
			}
			if _, problem := compareCompound(path, c.Source); problem != "" {
				t.Errorf("%s as REPL input: %s", name, problem)
			}
			if _, problem := compareExpr(path, c.Source); problem != "" {
				t.Errorf("%s as an expression: %s", name, problem)
			}
			if _, err := (&syntax.FileOptions{}).Parse(path, c.Source, 0); err != nil {
				rejected++
			}
			compared++
		}
	}
	if different != len(intendedDifferences) {
		t.Errorf("met %d of the %d intended differences", different, len(intendedDifferences))
	}
	t.Logf("compared %d chunks from %d files: %d rejected by upstream with the same errors, %d using dialect syntax",
		compared, len(files), rejected, different)
}

// moduleRelative returns path relative to the go.starlark.net module
// directory, whatever its version.
func moduleRelative(path string) string {
	slashed := filepath.ToSlash(path)
	if i := strings.Index(slashed, "go.starlark.net@"); i >= 0 {
		if j := strings.Index(slashed[i:], "/"); j >= 0 {
			return slashed[i+j+1:]
		}
	}
	return slashed
}
