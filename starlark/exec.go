package starlark

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/starlark/dialect"
	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/lib/time"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// FileOptions are the language options of every jaxsh file (SPEC §2): while
// loops, recursion, set, top-level control flow and global reassignment.
var FileOptions = &syntax.FileOptions{
	Set:             true,
	While:           true,
	TopLevelControl: true,
	GlobalReassign:  true,
	Recursion:       true,
}

// Predeclared returns a new dictionary of the names every jaxsh module sees,
// the hidden operator builtins of the dialect included.
func Predeclared() starlark.StringDict {
	d := starlark.StringDict{
		"math":         math.Module,
		"json":         json.Module,
		"time":         time.Module,
		"partial":      starlark.NewBuiltin("partial", builtinPartial),
		"print":        starlark.NewBuiltin("print", builtinPrint),
		"Ellipsis":     Ellipsis,
		"jit":          starlark.NewBuiltin("jit", builtinJit),
		"make_jaxpr":   starlark.NewBuiltin("make_jaxpr", builtinMakeJaxpr),
		"devices":      starlark.NewBuiltin("devices", guard("devices", builtinDevices)),
		"device_put":   starlark.NewBuiltin("device_put", guard("device_put", builtinDevicePut)),
		"__ellipsis__": Ellipsis,
	}
	for k, v := range operatorBuiltins() {
		d[k] = v
	}
	for k, v := range effectBuiltins() {
		d[k] = v
	}
	for k, v := range scalarConversions() {
		d[k] = v
	}
	for k, v := range pythonBuiltins() {
		d[k] = v
	}
	for k, v := range deviceQueries() {
		d[k] = v
	}
	d["debug"] = DebugModule
	d["eval_shape"] = starlark.NewBuiltin("eval_shape", guard("eval_shape", builtinEvalShape))
	return d
}

// A Session runs jaxsh programs that share predeclared names, an output
// writer and a cache of loaded modules. Its methods are safe for concurrent
// use by several threads.
type Session struct {
	stdout      io.Writer
	predeclared starlark.StringDict
	logCompiles io.Writer // where jit explains each compilation, or nil
	progress    Progress  // hears about long steps, or nil
	// defaultDevice is where the session's threads create arrays; nil: the
	// platform's default (devices.go).
	defaultDevice jit.Device

	limits Limits // see SetLimits

	mu      sync.Mutex
	modules map[string]*module
	// waiting maps a thread waiting for a module another thread loads to
	// that module, to refuse waits that close a cycle (loadWait).
	waiting map[*starlark.Thread]*module
}

// A module is an entry of the load cache; done is closed once globals and err
// are final, so a second thread loading the same file waits for the first.
type module struct {
	loader  *starlark.Thread
	done    chan struct{}
	globals starlark.StringDict
	err     error
}

// NewSession returns a session that prints to stdout and predeclares
// Predeclared() plus extra (extra wins on a clash).
func NewSession(stdout io.Writer, extra starlark.StringDict) *Session {
	pre := Predeclared()
	for k, v := range extra {
		pre[k] = v
	}
	return &Session{stdout: &lockedWriter{w: stdout}, predeclared: pre, modules: map[string]*module{}, waiting: map[*starlark.Thread]*module{}}
}

// A lockedWriter serialises writes: programs print from their own
// goroutines (unordered prints may meet the script's own), and each print
// is one Write that must not interleave with another.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

const stdoutKey = "jaxsh.stdout"

// LogCompiles makes every compilation of a jitted function on the
// session's threads write one line to w saying why the cache missed
// (jaxsh --log-compiles). Call it before NewThread.
func (s *Session) LogCompiles(w io.Writer) { s.logCompiles = w }

// NewThreadWriting is NewThread for a thread whose prints (and those of
// the programs it dispatches) go to w instead of the session's stdout.
func (s *Session) NewThreadWriting(name string, w io.Writer) *starlark.Thread {
	th := s.NewThread(name)
	th.SetLocal(stdoutKey, &lockedWriter{w: w})
	return th
}

// NewThread returns a thread whose print and load go through the session.
func (s *Session) NewThread(name string) *starlark.Thread {
	th := &starlark.Thread{Name: name, Load: s.load}
	th.SetLocal(stdoutKey, s.stdout)
	if s.logCompiles != nil {
		th.SetLocal(logCompilesKey, s.logCompiles)
	}
	if s.progress != nil {
		th.SetLocal(progressKey, s.progress)
		stateOf(th).progress = s.progress
	}
	s.setThreadDevice(th)
	s.applyLimits(th)
	th.Print = func(th *starlark.Thread, msg string) { fmt.Fprintln(stdoutOf(th), msg) }
	return th
}

// StdoutOf is where th's prints go (library code that prints, such as help,
// writes there too).
func StdoutOf(th *starlark.Thread) io.Writer { return stdoutOf(th) }

func stdoutOf(th *starlark.Thread) io.Writer {
	if w, ok := th.Local(stdoutKey).(io.Writer); ok {
		return w
	}
	return io.Discard
}

// ExecFile parses src (a string, []byte, io.Reader, or nil to read filename)
// as the jaxsh dialect and runs it as a module on thread.
func (s *Session) ExecFile(thread *starlark.Thread, filename string, src any) (starlark.StringDict, error) {
	f, err := dialect.Parse(FileOptions, filename, src)
	if err != nil {
		return nil, err
	}
	if dumpEnabled("syntax") {
		fmt.Fprintf(os.Stderr, "=== syntax of %s (after the dialect's rewrites)\n%s\n", filename, dialect.Format(f))
	}
	prog, err := starlark.FileProgram(f, s.predeclared.Has)
	if err != nil {
		return nil, err
	}
	g, err := runThread(thread, func() (starlark.StringDict, error) { return prog.Init(thread, s.predeclared) })
	return finishModule(thread, filename, g, err)
}

// finishModule ends a module's run with the implicit barrier, then freezes
// its globals: taps still on their way may append to the module's lists,
// which freezing first would turn into errors. A failure the barrier finds
// (a tap's CallbackError, a failed computation nobody read) is the
// module's error unless the module already failed.
func finishModule(thread *starlark.Thread, filename string, g starlark.StringDict, err error) (starlark.StringDict, error) {
	_, berr := runThread(thread, func() (struct{}, error) { return struct{}{}, barrier(thread) })
	if berr != nil && err == nil {
		err = fmt.Errorf("%s: at the end of the script (implicit effects_barrier): %w", filename, berr)
	}
	g.Freeze()
	return g, err
}

// load resolves a module name relative to the file that loads it, reads
// it through the thread's file policy (a regular .star file below the
// policy's root) and runs each file at most once per session.
func (s *Session) load(thread *starlark.Thread, name string) (starlark.StringDict, error) {
	policy := FilesOf(thread)
	from := policy.NameOf(thread.CallFrame(0).Pos.Filename())
	full, err := policy.Resolve("load", from, name)
	if err != nil {
		return nil, err
	}
	key := policy.String() + "\x00" + full

	s.mu.Lock()
	m, ok := s.modules[key]
	if !ok {
		m = &module{loader: thread, done: make(chan struct{})}
		s.modules[key] = m
		s.mu.Unlock()
		var src []byte
		if src, m.err = policy.ReadModule(full, name); m.err == nil {
			m.globals, m.err = s.ExecFile(thread, policy.Display(full), src)
			m.err = withBacktrace(m.err)
		}
		close(m.done)
		return m.globals, m.err
	}
	s.mu.Unlock()
	select {
	case <-m.done:
	default:
		if m.loader == thread {
			return nil, fmt.Errorf("cycle in load graph: %s loads itself", name)
		}
		if err := s.loadWait(thread, m, name); err != nil {
			return nil, err
		}
	}
	return m.globals, m.err
}
