package jaxsh

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/jaxsh/jaxsh"

// goFiles parses the non-test Go files under dir (recursively when deep).
func goFiles(t *testing.T, dir string, deep bool) map[string]*ast.File {
	t.Helper()
	files := map[string]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (!deep || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[path] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Nothing below lib/ imports it: the language and the engine know nothing
// of the namespaces built on them (DESIGN's package table).
func TestNothingBelowLibImportsIt(t *testing.T) {
	for _, dir := range []string{"starlark", "trace", "jit", "effects", "cpu", "cuda", "export", "internal"} {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for path, f := range goFiles(t, dir, true) {
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(p, modulePath+"/lib/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
	}
}

// Every name of package starlark that a library uses is listed in the
// package's doc comment (starlark/doc.go), so the API for library code is
// written down in one place and grows on purpose.
func TestLibraryAPIIsDocumented(t *testing.T) {
	doc, err := parser.ParseFile(token.NewFileSet(), "starlark/doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, w := range regexp.MustCompile(`\w+`).FindAllString(doc.Doc.Text(), -1) {
		listed[w] = true
	}
	used := map[string][]string{}
	for path, f := range goFiles(t, "lib", true) {
		alias := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == modulePath+"/starlark" {
				alias = "starlark"
				if imp.Name != nil {
					alias = imp.Name.Name
				}
			}
		}
		if alias == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == alias {
					used[sel.Sel.Name] = append(used[sel.Sel.Name], path)
				}
			}
			return true
		})
	}
	var missing []string
	for name, paths := range used {
		if !listed[name] {
			missing = append(missing, name+" (used in "+paths[0]+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("starlark/doc.go does not list %s", m)
	}
}
