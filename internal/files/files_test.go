package files

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

// tree makes root/{ok.star, sub/lib.star, secret.env, dir.star/} and a
// file outside the root, and returns the root.
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "proj")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "ok.star"), "x = 1\n")
	write(filepath.Join(root, "sub", "lib.star"), "y = 2\n")
	write(filepath.Join(root, "secret.env"), "admin=hunter2\n")
	if err := os.Mkdir(filepath.Join(root, "dir.star"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside = filepath.Join(base, "outside.star")
	write(outside, "stolen = 1\n")
	return root, outside
}

func TestBelowReadsModulesInsideTheTree(t *testing.T) {
	root, _ := tree(t)
	p, err := Below(root)
	if err != nil {
		t.Fatal(err)
	}
	name, err := p.Resolve("load", "sub/main.star", "lib.star")
	if err != nil || name != "sub/lib.star" {
		t.Fatalf("Resolve = %q, %v", name, err)
	}
	data, err := p.ReadModule(name, "lib.star")
	if err != nil || string(data) != "y = 2\n" {
		t.Fatalf("ReadModule = %q, %v", data, err)
	}
	// ".." that stays inside the tree, and a symlink that does, are fine.
	name, err = p.Resolve("load", "sub/main.star", "../ok.star")
	if err != nil || name != "ok.star" {
		t.Fatalf("Resolve(../ok.star) = %q, %v", name, err)
	}
	if err := os.Symlink("ok.star", filepath.Join(root, "alias.star")); err != nil {
		t.Fatal(err)
	}
	if data, err := p.ReadModule("alias.star", "alias.star"); err != nil || string(data) != "x = 1\n" {
		t.Fatalf("a symlink inside the tree: %q, %v", data, err)
	}
}

// Every way out of the tree, and every file that is not a regular .star
// file, is an error that names the file and never shows its content.
func TestEveryEscapeIsRefused(t *testing.T) {
	root, outside := tree(t)
	p, err := Below(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out.star")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.star", filepath.Join(root, "rel-out.star")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "zero.star")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.star"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, want string }{
		{outside, `cannot load "` + outside + `": absolute paths are not allowed; files must lie below ` + root},
		{"/dev/zero", `cannot load "/dev/zero": absolute paths are not allowed`},
		{"../outside.star", `cannot load "../outside.star": the path leaves the directory the script may use`},
		{"sub/../../outside.star", `the path leaves the directory the script may use`},
		{"out.star", `cannot load "out.star": the path leaves the directory the script may use`},
		{"rel-out.star", `cannot load "rel-out.star": the path leaves the directory the script may use`},
		{"zero.star", `cannot load "zero.star": the path leaves the directory the script may use`},
		{"fifo.star", `cannot load "fifo.star": not a regular file (a FIFO)`},
		{"dir.star", `cannot load "dir.star": not a regular file (a directory)`},
		{"secret.env", `cannot load "secret.env": load() takes .star files only`},
		{"missing.star", `cannot load "missing.star": no such file`},
	} {
		name, err := p.Resolve("load", "main.star", c.name)
		if err == nil {
			_, err = p.ReadModule(name, c.name)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load(%q): got %v, want %q", c.name, err, c.want)
			continue
		}
		for _, secret := range []string{"hunter2", "admin", "stolen"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("load(%q): the error shows file content: %v", c.name, err)
			}
		}
	}
	// Reading data files has the same rules, less the suffix.
	if _, err := p.Open("zero.star", "zero.star"); err == nil {
		t.Error("Open of a symlink to /dev/zero succeeded")
	}
	if f, err := p.Open("secret.env", "secret.env"); err != nil {
		t.Errorf("Open of a regular data file: %v", err)
	} else {
		f.Close()
	}
}

func TestNoneAndFSPolicies(t *testing.T) {
	if _, err := None().Resolve("load", "", "ok.star"); err == nil || !strings.Contains(err.Error(), "may not use files") {
		t.Errorf("None: %v", err)
	}
	var nilPolicy *Policy
	if _, err := nilPolicy.Open("ok.star", "ok.star"); err == nil {
		t.Error("a nil policy opened a file")
	}
	p := FromFS(fstest.MapFS{
		"lib/a.star": {Data: []byte("a = 1\n")},
		"notes.txt":  {Data: []byte("private\n")},
	}, "the embedded scripts")
	name, err := p.Resolve("load", "lib/main.star", "a.star")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := p.ReadModule(name, "a.star"); err != nil || string(data) != "a = 1\n" {
		t.Fatalf("ReadModule = %q, %v", data, err)
	}
	if _, err := p.ReadModule("notes.txt", "notes.txt"); err == nil || strings.Contains(err.Error(), "private") {
		t.Errorf("a .txt through load: %v", err)
	}
	if _, err := p.Create("out.npy", "out.npy"); err == nil || !strings.Contains(err.Error(), "may not write") {
		t.Errorf("Create on an fs.FS policy: %v", err)
	}
	if _, err := p.Resolve("load", "", "../x.star"); err == nil || !strings.Contains(err.Error(), "in the embedded scripts") {
		t.Errorf("escape from an fs.FS: %v", err)
	}
}

func TestBelowWritesInsideOnly(t *testing.T) {
	root, _ := tree(t)
	p, err := Below(root)
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.Create("sub/out.npy", "out.npy")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("data"))
	w.Close()
	if b, _ := os.ReadFile(filepath.Join(root, "sub", "out.npy")); string(b) != "data" {
		t.Fatalf("wrote %q", b)
	}
	if err := os.Symlink("../outside.star", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Create("link", "link"); err == nil {
		t.Error("Create through a symlink out of the tree succeeded")
	}
}

func TestNamesAndDisplay(t *testing.T) {
	root, outside := tree(t)
	p, err := Below(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, name string }{
		{filepath.Join(root, "sub", "lib.star"), "sub/lib.star"},
		{filepath.Join(root, "ok.star"), "ok.star"},
		{"<stdin>", "<stdin>"},
		{outside, "outside.star"},
	} {
		if got := p.NameOf(c.file); got != c.name {
			t.Errorf("NameOf(%q) = %q, want %q", c.file, got, c.name)
		}
	}
	if got := p.Display("sub/lib.star"); got != filepath.Join(root, "sub", "lib.star") {
		t.Errorf("Display = %q", got)
	}
	fsp := FromFS(fstest.MapFS{}, "x")
	if fsp.NameOf("lib/a.star") != "lib/a.star" || fsp.Display("lib/a.star") != "lib/a.star" || fsp.NameOf("<stdin>") != "<stdin>" {
		t.Error("an fs.FS policy's names are its own")
	}
}
