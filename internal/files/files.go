// Package files is the one policy through which scripts reach files
// (DESIGN decision 11, SPEC §9): load() and the file functions (jnp.load,
// jnp.save, image.save, ...) ask a Policy, never the os package. A Policy
// allows nothing, the tree below one directory, or an fs.FS the embedder
// chose.
//
// Names are slash-separated paths relative to the policy's root, as io/fs
// has them. Absolute paths, ".." that leave the root, symbolic links that
// point out of it, and anything but regular files (directories, FIFOs,
// devices, sockets) are refused. Error messages name the file and the
// reason, never its content.
package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// MaxModuleBytes bounds the size of a file load() reads.
const MaxModuleBytes = 16 << 20

// A Policy says which files scripts may read and write. The zero value and
// a nil *Policy allow none. A Policy is safe for concurrent use.
type Policy struct {
	fsys  fs.FS    // what may be read; nil: nothing
	root  *os.Root // set by Below: what may be written too
	dir   string   // set by Below: the root's absolute path
	where string   // the root, for messages: "below /home/me/proj"
}

// None returns a policy that allows no file at all.
func None() *Policy { return &Policy{} }

// Below returns a policy allowing the files below dir (dir included),
// read and write, following symbolic links only while they stay below it.
func Below(dir string) (*Policy, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &Policy{fsys: root.FS(), root: root, dir: abs, where: "below " + abs}, nil
}

// NameOf returns the policy name of a file a script runs as (its position
// filename: an OS path for a policy made by Below, the policy name itself
// otherwise), so that load() resolves names relative to it. A file outside
// the root, or a pseudo-file such as "<stdin>" or "-c", is taken to lie at
// the root.
func (p *Policy) NameOf(filename string) string {
	if p != nil && p.dir != "" {
		abs, err := filepath.Abs(filename)
		if err != nil {
			return path.Base(filename)
		}
		rel, err := filepath.Rel(p.dir, abs)
		if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
			return path.Base(filepath.ToSlash(filename))
		}
		return filepath.ToSlash(rel)
	}
	if fs.ValidPath(filename) {
		return filename
	}
	return path.Base(filename)
}

// Display is the filename under which a module read by the policy runs,
// in positions and tracebacks: its OS path for a policy made by Below, its
// policy name otherwise.
func (p *Policy) Display(name string) string {
	if p != nil && p.dir != "" {
		return filepath.Join(p.dir, filepath.FromSlash(name))
	}
	return name
}

// FromFS returns a policy that reads from fsys only (writes are refused);
// name describes it in messages ("the embedded scripts").
func FromFS(fsys fs.FS, name string) *Policy {
	return &Policy{fsys: fsys, where: "in " + name}
}

// String describes what the policy allows.
func (p *Policy) String() string {
	if p == nil || p.fsys == nil {
		return "no files"
	}
	return "files " + p.where
}

// An Error is a file the policy refused or could not read.
type Error struct {
	Op   string // "load", "read", "write"
	Name string // as the script wrote it
	Why  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot %s %q: %s", e.Op, e.Name, e.Why)
}

// Resolve turns name, as written in a script whose own file is from (a
// policy name; "" for code not from a file), into a policy name: relative
// names are relative to from's directory. It refuses absolute paths and
// names that climb out of the root.
func (p *Policy) Resolve(op, from, name string) (string, error) {
	if p == nil || p.fsys == nil {
		return "", &Error{op, name, "this interpreter may not use files"}
	}
	if name == "" {
		return "", &Error{op, name, "empty file name"}
	}
	if strings.HasPrefix(name, "/") || filepath.IsAbs(name) || strings.Contains(name, `\`) {
		return "", &Error{op, name, "absolute paths are not allowed; files must lie " + p.where}
	}
	full := path.Join(path.Dir(from), name)
	if !fs.ValidPath(full) {
		return "", &Error{op, name, "the path leaves the directory the script may use (files must lie " + p.where + ")"}
	}
	return full, nil
}

// ReadModule reads the source of a module for load(): a regular file whose
// name ends in ".star", of at most MaxModuleBytes. name is a policy name
// (see Resolve); shown is the name as the script wrote it, for messages.
func (p *Policy) ReadModule(name, shown string) ([]byte, error) {
	if !strings.HasSuffix(name, ".star") {
		return nil, &Error{"load", shown, "load() takes .star files only"}
	}
	f, err := p.open("load", name, shown)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxModuleBytes+1))
	if err != nil {
		return nil, &Error{"load", shown, readReason(err)}
	}
	if len(data) > MaxModuleBytes {
		return nil, &Error{"load", shown, fmt.Sprintf("the file is larger than %d MiB", MaxModuleBytes>>20)}
	}
	return data, nil
}

// Open opens a regular file for reading (the file functions).
func (p *Policy) Open(name, shown string) (fs.File, error) {
	return p.open("read", name, shown)
}

// Create creates or truncates a regular file for writing. Only a policy
// made by Below writes.
func (p *Policy) Create(name, shown string) (io.WriteCloser, error) {
	if p == nil || p.root == nil {
		return nil, &Error{"write", shown, "this interpreter may not write files"}
	}
	if info, err := p.root.Stat(name); err == nil && !info.Mode().IsRegular() {
		return nil, &Error{"write", shown, "not a regular file (" + kind(info.Mode()) + ")"}
	}
	f, err := p.root.Create(name)
	if err != nil {
		return nil, &Error{"write", shown, readReason(err)}
	}
	return f, nil
}

// open checks that name is a regular file before opening it: opening a
// FIFO would block, and a device (/dev/zero) never ends.
func (p *Policy) open(op, name, shown string) (fs.File, error) {
	if p == nil || p.fsys == nil {
		return nil, &Error{op, shown, "this interpreter may not use files"}
	}
	info, err := fs.Stat(p.fsys, name)
	if err != nil {
		return nil, &Error{op, shown, readReason(err)}
	}
	if !info.Mode().IsRegular() {
		return nil, &Error{op, shown, "not a regular file (" + kind(info.Mode()) + ")"}
	}
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, &Error{op, shown, readReason(err)}
	}
	// Checked again on the open file: it may have been replaced meanwhile.
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, &Error{op, shown, "not a regular file"}
	}
	return f, nil
}

// readReason is why an operation failed, without the paths the os package
// puts in its errors (which may reveal the layout outside the root).
func readReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrInvalid):
		return "invalid file name"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "escapes") {
			return "the path leaves the directory the script may use"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a plain file"
}
