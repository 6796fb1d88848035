package jaxsh

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

var update = flag.Bool("update", false, "rewrite docs/builtins.md from the library packages' doc comments")

// libraryDirs maps each namespace to the package whose doc comment lists
// its members.
var libraryDirs = map[string]string{
	"jnp":       "lib/numpy",
	"lax":       "lib/lax",
	"nn":        "lib/nn",
	"random":    "lib/random",
	"tree_util": "lib/tree",
	"scipy":     "lib/scipy",
	"image":     "lib/image",
	"plot":      "lib/plot",
}

// memberTable returns the member table of a library package's doc comment:
// its lines that start with a tab and "|" (a preformatted block in go doc,
// a Markdown table in docs/builtins.md).
func memberTable(dir string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "doc.go"), nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	if f.Doc == nil {
		return nil, fmt.Errorf("%s/doc.go has no package doc comment", dir)
	}
	var table []string
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if strings.HasPrefix(line, "\t|") {
			table = append(table, line[1:])
		}
	}
	if len(table) < 3 {
		return nil, fmt.Errorf("%s/doc.go: no member table in the package doc comment", dir)
	}
	return table, nil
}

var (
	codeSpan = regexp.MustCompile("`([^`]*)`")
	callee   = regexp.MustCompile(`([A-Za-z_][\w.]*)\(`)
)

// listedNames are the member names a table lists: the code spans of its
// names column (the second when the table is by group, else the first);
// a call lists its function's name, other spans their words.
func listedNames(table []string) []string {
	col := 1
	if strings.Contains(table[0], "| group |") {
		col = 2
	}
	var names []string
	for _, row := range table[2:] {
		cells := strings.Split(row, "|")
		if len(cells) <= col {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[col], -1) {
			if strings.Contains(m[1], "(") {
				for _, c := range callee.FindAllStringSubmatch(m[1], -1) {
					if !strings.Contains(m[1][:strings.Index(m[1], c[0])], "(") {
						names = append(names, c[1])
					}
				}
				continue
			}
			names = append(names, strings.Fields(m[1])...)
		}
	}
	return names
}

// TestBuiltinsDoc checks that each library package's doc comment lists
// exactly its module's members, and that docs/builtins.md holds those
// tables (with -update it rewrites them).
func TestBuiltinsDoc(t *testing.T) {
	ns, err := Namespaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	const docPath = "docs/builtins.md"
	raw, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, name := range NamespaceNames() {
		dir := libraryDirs[name]
		table, err := memberTable(dir)
		if err != nil {
			t.Error(err)
			continue
		}
		module := ns[name].(starlark.HasAttrs)
		members := map[string]bool{}
		for _, m := range module.AttrNames() {
			members[m] = true
		}
		listed := map[string]bool{}
		for _, n := range listedNames(table) {
			path := strings.Split(strings.TrimPrefix(n, name+"."), ".")
			var v starlark.Value = module
			for _, p := range path {
				attrs, ok := v.(starlark.HasAttrs)
				if !ok {
					v = nil
					break
				}
				if v, _ = attrs.Attr(p); v == nil {
					break
				}
			}
			if v == nil {
				t.Errorf("%s/doc.go lists %s, which %s does not have", dir, n, name)
			}
			listed[path[0]] = true
		}
		var missing []string
		for m := range members {
			if !listed[m] {
				missing = append(missing, m)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s/doc.go does not list %s members: %s", dir, name, strings.Join(missing, " "))
		}

		begin := fmt.Sprintf("<!-- generated from the doc comment of %s: edit that, then go test . -run TestBuiltinsDoc -update -->\n", dir)
		const end = "<!-- end of generated table -->\n"
		i := strings.Index(doc, begin)
		j := strings.Index(doc[max(i, 0):], end)
		if i < 0 || j < 0 {
			t.Errorf("%s has no generated table for %s (%q ... %q)", docPath, name, begin, end)
			continue
		}
		j += i
		want := begin + strings.Join(table, "\n") + "\n" + end
		if doc[i:j+len(end)] != want {
			if !*update {
				t.Errorf("%s: the %s table differs from %s/doc.go; run go test . -run TestBuiltinsDoc -update", docPath, name, dir)
			}
			doc = doc[:i] + want + doc[j+len(end):]
		}
		heading := regexp.MustCompile("(?m)^## `" + regexp.QuoteMeta(name) + "` \\((\\d+) names\\)$")
		if m := heading.FindStringSubmatchIndex(doc); m != nil {
			count := fmt.Sprint(len(members))
			if doc[m[2]:m[3]] != count {
				if !*update {
					t.Errorf("%s: the %s heading says %s names, the module has %s", docPath, name, doc[m[2]:m[3]], count)
				}
				doc = doc[:m[2]] + count + doc[m[3]:]
			}
		}
	}
	if *update && doc != string(raw) {
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
