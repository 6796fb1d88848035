// Package jaxsh embeds the jaxsh interpreter in Go programs: it runs jaxsh
// scripts (Starlark with the array dialect of SPEC §2) and returns their
// globals.
//
// An Interpreter keeps one session for its lifetime, so a Go program can
// run a script, take a function it defined (a jitted one, say) from the
// returned globals and call it with Interpreter.Call, from several
// goroutines at once. NewArray makes arrays from Go slices (the dtype
// follows the element type: Elem, with Float16 and BFloat16 for the 16-bit
// floats) and ToSlice reads arrays back as slices with their shapes.
// Cancelling a run's or call's context stops it, compiled work included.
//
// Func makes a Go function a callback for id_tap and call: it runs with the
// runtime values each time the compiled program reaches it. Thread gives a
// goroutine its own ordered-effect token streams. Options holds the limits
// for scripts a host does not trust (steps, array memory, wall time,
// callback depth) and the file policy that load() and the file functions go
// through; Options.Namespaces chooses which library modules scripts see.
package jaxsh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jaxsh/jaxsh/cpu" // the cpu backend registers itself; Configure sets its device count
	_ "github.com/jaxsh/jaxsh/cuda"
	"github.com/jaxsh/jaxsh/internal/files"
	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Options configure an Interpreter. Zero values mean os.Stdout, os.Stderr and
// no extra predeclared names.
type Options struct {
	Stdout io.Writer
	Stderr io.Writer
	// Globals are predeclared in every module the interpreter runs, next to
	// jaxsh's own builtins; they win on a clash.
	Globals starlark.StringDict
	// Namespaces names the library namespaces scripts see (NamespaceNames:
	// "jnp", "lax", "nn", "random"). nil means all of them; an empty slice,
	// none: the language, arrays and jit without jnp and friends.
	Namespaces []string
	// LogCompiles writes one line to Stderr per compilation of a jitted
	// function, saying why the compile cache missed.
	LogCompiles bool
	// CPUDevices is the number of logical CPU devices, cpu:0 … cpu:N-1,
	// which share the machine's cores. It is the process's number, fixed
	// when the devices are first used: the first interpreter to run
	// decides it, and a later one asking for another number fails. 0 asks
	// for the default: the environment variable JAXSH_CPU_DEVICES when set,
	// else 1 (or the number already in use).
	CPUDevices int
	// Device is the default device, where arrays made from host values are
	// created: "cpu", "cpu:N", "cuda" or "cuda:N" (a bare platform is its
	// device 0). "" means cuda:0 where a CUDA device is found, else cpu:0.
	Device string

	// Limits, for scripts the host does not trust (SPEC §8–9). Each, when
	// hit, is a Starlark error for the run or call, never a crash.

	// MaxSteps caps the Starlark execution steps of each run or call
	// (callbacks included). 0, the default: no limit.
	MaxSteps uint64
	// MaxArrayBytes caps the bytes of array memory the interpreter's
	// arrays hold at once. 0, the default: the machine's memory (physical,
	// or its control group's limit), which is always checked.
	MaxArrayBytes int64
	// Timeout caps the wall time of each run or call, on top of its
	// context. 0, the default: none.
	Timeout time.Duration
	// MaxCallbackDepth caps how deeply host callbacks nest (a callback
	// calling a jitted function whose callback calls one again ...). 0, the
	// default: 64.
	MaxCallbackDepth int
	// Files is what load() and the file functions may use: NoFiles(),
	// FilesBelow(dir) or FilesFrom(fsys). nil, the default: the files below
	// the directory of the script RunFile runs, or below the current
	// directory for RunString, Call and the REPL (as the jaxsh command does).
	Files *FilePolicy
}

// A FilePolicy says which files scripts may read and write: absolute paths,
// ".." and symbolic links that leave its root, and anything but regular
// files are refused; load() takes .star files only.
type FilePolicy = files.Policy

// NoFiles is a policy that allows no file at all.
func NoFiles() *FilePolicy { return files.None() }

// FilesBelow allows the files below dir (read and write).
func FilesBelow(dir string) (*FilePolicy, error) { return files.Below(dir) }

// FilesFrom allows reading the files of fsys (and writing none); name
// describes it in error messages.
func FilesFrom(fsys fs.FS, name string) *FilePolicy { return files.FromFS(fsys, name) }

// SetUpDevices makes the devices opts ask for: it fixes the number of CPU
// devices (see CPUDevices) and checks that Device names one. Interpreters
// and NewSession call it themselves; call it first to report a bad
// configuration before anything runs (the jaxsh command makes that a usage
// error).
func (opts Options) SetUpDevices() error {
	if err := cpu.Configure(opts.CPUDevices); err != nil {
		return err
	}
	if opts.Device != "" {
		if _, err := jit.LookupDevice(opts.Device); err != nil {
			return fmt.Errorf("default device: %v", err)
		}
	}
	return nil
}

// NewSession returns the Starlark session that runs programs as opts say:
// devices set up, output to Stdout (nil: os.Stdout), compilations logged to
// Stderr when LogCompiles is set, and globals predeclared next to jaxsh's
// builtins and the library namespaces opts.Namespaces names (winning on a
// clash). Interpreters and the REPL run on one.
func (opts Options) NewSession(globals starlark.StringDict) (*jstarlark.Session, error) {
	if err := opts.SetUpDevices(); err != nil {
		return nil, err
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	predeclared, err := Namespaces(opts.Namespaces)
	if err != nil {
		return nil, err
	}
	all := jstarlark.Predeclared()
	libs := make(starlark.StringDict, len(predeclared))
	for k, v := range predeclared {
		all[k] = v
		libs[k] = v
	}
	for k, v := range Builtins() {
		all[k] = v
		predeclared[k] = v
	}
	addJax(predeclared, all)
	predeclared["help"] = helpBuiltin(libs)
	for k, v := range globals {
		predeclared[k] = v
	}
	session := jstarlark.NewSession(opts.Stdout, predeclared)
	if opts.LogCompiles {
		session.LogCompiles(opts.Stderr)
	}
	limits := jstarlark.Limits{MaxSteps: opts.MaxSteps, MaxCallbackDepth: opts.MaxCallbackDepth, Files: opts.Files}
	if opts.MaxArrayBytes > 0 {
		limits.Budget = jit.NewBudget(opts.MaxArrayBytes, "the interpreter's array memory limit")
	}
	if limits.Files == nil {
		policy, err := files.Below(".")
		if err != nil {
			return nil, fmt.Errorf("files: %v", err)
		}
		limits.Files = policy
	}
	session.SetLimits(limits)
	if err := session.SetDefaultDevice(opts.Device); err != nil {
		return nil, fmt.Errorf("default device: %v", err)
	}
	return session, nil
}

// An Interpreter runs jaxsh programs on one Starlark session, made when it
// is first used (SetUpDevices then reports a bad configuration as the
// first run's or call's error): modules loaded with load() run once and are
// cached for the interpreter's lifetime, and functions a script defines can
// be called from Go with Call after the script returns. Its methods are safe
// for concurrent use; each run or call gets its own thread.
type Interpreter struct {
	opts Options

	mu      sync.Mutex
	session *jstarlark.Session // nil until first used
}

// New returns an interpreter configured by opts.
func New(opts Options) *Interpreter {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Interpreter{opts: opts}
}

// RunFile runs the script at path with argv = [path] + args and returns its
// globals. Cancelling ctx stops the script at its next step with an error.
func (in *Interpreter) RunFile(ctx context.Context, path string, args []string) (starlark.StringDict, error) {
	return in.run(ctx, path, nil, args)
}

// ArrayBytesInUse is how many bytes of Options.MaxArrayBytes the
// interpreter's arrays and running computations hold now (0 without that
// limit). Arrays no longer referenced count until the garbage collector
// frees them.
func (in *Interpreter) ArrayBytesInUse() int64 {
	session, err := in.getSession(nil)
	if err != nil {
		return 0
	}
	if b := session.Budget(); b != nil {
		return b.Used()
	}
	return 0
}

// RunString runs code as a script named name (used in error positions), with
// argv = [name] + args.
func (in *Interpreter) RunString(ctx context.Context, name, code string, args []string) (starlark.StringDict, error) {
	return in.run(ctx, name, code, args)
}

// argvDict predeclares argv = [name] + args, unless Options.Globals
// predeclares argv itself.
func (in *Interpreter) argvDict(name string, args []string) starlark.StringDict {
	if _, ok := in.opts.Globals["argv"]; ok {
		return nil
	}
	argv := make([]starlark.Value, 0, len(args)+1)
	argv = append(argv, starlark.String(name))
	for _, a := range args {
		argv = append(argv, starlark.String(a))
	}
	return starlark.StringDict{"argv": starlark.NewList(argv)}
}

// getSession returns the interpreter's session, making it on first use.
// Modules loaded with load() see the session's predeclared names: Globals,
// and argv as the run that made the session (the first) set it; each run's
// own script sees its own argv.
func (in *Interpreter) getSession(argv starlark.StringDict) (*jstarlark.Session, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.session != nil {
		return in.session, nil
	}
	globals := starlark.StringDict{}
	for k, v := range argv {
		globals[k] = v
	}
	if argv == nil && in.opts.Globals["argv"] == nil {
		globals["argv"] = starlark.NewList(nil)
	}
	for k, v := range in.opts.Globals {
		globals[k] = v
	}
	session, err := in.opts.NewSession(globals)
	if err != nil {
		return nil, err
	}
	in.session = session
	return session, nil
}

func (in *Interpreter) run(ctx context.Context, name string, src any, args []string) (starlark.StringDict, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	argv := in.argvDict(name, args)
	session, err := in.getSession(argv)
	if err != nil {
		return nil, err
	}
	thread := session.NewThread("main")
	if in.opts.Files == nil && src == nil {
		// The default policy: the script's own directory.
		policy, err := files.Below(filepath.Dir(name))
		if err != nil {
			return nil, fmt.Errorf("files: %v", err)
		}
		jstarlark.SetThreadFiles(thread, policy)
	}
	ctx, cancel := in.withTimeout(ctx)
	defer cancel()
	defer jstarlark.UseContext(thread, ctx)()
	defer watch(ctx, thread)()
	g, err := session.ExecFileWith(thread, name, src, argv)
	// The implicit barrier at the end of a script: its output and callbacks
	// are complete when RunFile returns, even without effects_barrier.
	if cerr := session.CloseThread(thread); err == nil {
		err = cerr
	}
	return g, cancelledError(ctx, err)
}

// withTimeout adds Options.Timeout to ctx.
func (in *Interpreter) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if in.opts.Timeout > 0 {
		return context.WithTimeoutCause(ctx, in.opts.Timeout,
			fmt.Errorf("time limit of %v exceeded (Options.Timeout)", in.opts.Timeout))
	}
	return context.WithCancel(ctx)
}

// watch stops thread when ctx is done, until the returned stop is called:
// Starlark code at its next step, its waits and computations at once.
func watch(ctx context.Context, thread *starlark.Thread) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	interrupt := jstarlark.Interrupter(thread)
	go func() {
		defer close(exited)
		select {
		case <-ctx.Done():
			interrupt(context.Cause(ctx))
		case <-done:
		}
	}()
	// Once stop returns, no interrupt is on its way.
	return func() { close(done); <-exited }
}

// A CancelledError is the error of a run or call stopped by its context:
// it wraps both the context's cause (errors.Is(err,
// context.DeadlineExceeded) holds) and the error the script stopped with,
// whose traceback FormatError shows.
type CancelledError struct {
	Cause error
	Err   error
}

// Error is the script's error, which says how it stopped.
func (e *CancelledError) Error() string { return e.Err.Error() }

func (e *CancelledError) Unwrap() []error { return []error{e.Cause, e.Err} }

// cancelledError is err, wrapped with ctx's cause when ctx ended the run.
func cancelledError(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return &CancelledError{Cause: context.Cause(ctx), Err: err}
}

var (
	errNilContext  = errors.New("jaxsh: nil context (use context.Background())")
	errNilFunction = errors.New("jaxsh: Call of a nil function")
)

// FormatError renders an error returned by RunFile, RunString or Call as the jaxsh
// command prints it: FILE:LINE:COL: message for syntax errors, a Starlark
// traceback for runtime errors.
func FormatError(err error) string { return jstarlark.FormatError(err) }
