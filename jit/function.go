package jit

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// A jitted function's path (jax.jit): a caller (the language's jit
// builtin, a transformation, an exported function, a Go program) reduces a
// call to a Signature, Function.Compile traces and compiles once per
// signature and caches the result, and Compiled.Call donates and
// dispatches it through the caller's runtime tokens. Tracing is the
// caller's: it knows what a function is; this package knows jaxprs.

// A Signature is what a compiled function depends on.
type Signature struct {
	Args   []trace.AVal // the array arguments (weak types count)
	Static []string     // per static argument: its part of the cache key
	Shown  []string     // per static argument: how a compile log names it
	Tree   string       // the arguments' structure
	Device Device
}

// ArgTypes are the array arguments as a compile log shows them: their
// types, with ~ for weak ones.
func (s *Signature) ArgTypes() []string {
	out := make([]string, len(s.Args))
	for i, a := range s.Args {
		out[i] = a.LongString()
		if a.Weak {
			out[i] += "~"
		}
	}
	return out
}

// Key is the signature's cache key.
func (s *Signature) Key() string {
	return strings.Join(s.ArgTypes(), ",") + "|" + strings.Join(s.Static, ",") + "|" + s.Tree + "|" + s.Device.String()
}

// ExplainMiss says why now was not in the cache, compared with last, the
// signature compiled before it (nil for the first).
func ExplainMiss(last, now *Signature) string {
	if last == nil {
		return "first call"
	}
	var why []string
	if last.Tree != now.Tree {
		why = append(why, fmt.Sprintf("argument structure changed from %s to %s", last.Tree, now.Tree))
	} else {
		lastArgs, nowArgs := last.ArgTypes(), now.ArgTypes()
		for i := range nowArgs {
			if i < len(lastArgs) && lastArgs[i] != nowArgs[i] {
				why = append(why, fmt.Sprintf("array argument %d changed from %s to %s", i, lastArgs[i], nowArgs[i]))
			}
		}
	}
	for i := range now.Static {
		if i < len(last.Static) && last.Static[i] != now.Static[i] {
			why = append(why, fmt.Sprintf("static %s (was %s)", now.Shown[i], last.Shown[i]))
		}
	}
	if last.Device.String() != now.Device.String() {
		why = append(why, fmt.Sprintf("device changed from %s to %s", last.Device, now.Device))
	}
	if len(why) == 0 {
		return "a signature seen before this one's predecessor"
	}
	return strings.Join(why, "; ")
}

// A Function is one jitted function's compile cache: a Compiled per
// signature, each traced and compiled once. Its methods are safe for
// concurrent use.
type Function struct {
	// Name names the function in logs and errors.
	Name string

	mu    sync.Mutex
	cache map[string]*Compiled
	last  *Signature // the signature compiled last, to explain the next miss
	fast  map[string]*Compiled
}

// A Traced is what a caller's trace function returns: the jaxpr of the
// function for a signature (its InVars the array arguments in order, its
// Consts the buffers it captured) and anything the caller keeps with the
// compiled entry (the language keeps the result's pytree structure).
type Traced struct {
	Jaxpr *trace.Jaxpr
	Extra any
}

// CompileOptions are a compilation's settings that come from the caller.
type CompileOptions struct {
	// Donate marks the array arguments whose buffers a call gives up
	// (donate_argnums); nil when none is donated.
	Donate []bool
	// Log, when set, receives one line per compilation saying why the
	// cache missed, and the folds refused for size (--log-compiles).
	Log io.Writer
	// DumpJaxpr, DumpPasses and DumpKernels receive the traced jaxpr, the
	// IR after every pass and the final kernels (JAXSH_DUMP).
	DumpJaxpr, DumpPasses, DumpKernels io.Writer
}

// Compiled is one cache entry of a Function: a traced, compiled program
// with its captured constants on its device.
type Compiled struct {
	Jaxpr   *trace.Jaxpr
	Program *Program
	Exe     Executable
	Consts  []Buffer
	Device  Device
	// Donate marks the array arguments whose buffers the program may
	// write; nil when none is donated.
	Donate []bool
	// Extra is the trace function's Traced.Extra.
	Extra any
	// Need is what one run allocates (results and temporaries), Largest
	// its largest result: a caller with a memory budget checks them at
	// each call, so a call that cannot fit fails at its position.
	Need    int64
	Largest trace.AVal
	// quick marks a program that may run on the calling goroutine (see
	// quickProgram).
	quick bool
	// queue is the device's queue token kind (queueKind), which a quick
	// program must find idle to run at once.
	queue string
	name  string
}

// Lookup returns the program compiled for sig, if any.
func (f *Function) Lookup(sig *Signature) (*Compiled, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.cache[sig.Key()]
	return c, ok
}

// Compile returns the program compiled for sig, tracing (with traceFn) and
// compiling it on a miss. Concurrent misses of one signature may each
// trace; the last to finish stays cached.
func (f *Function) Compile(sig *Signature, opts CompileOptions, traceFn func(*Signature) (*Traced, error)) (*Compiled, error) {
	key := sig.Key()
	f.mu.Lock()
	c, ok := f.cache[key]
	last := f.last
	f.mu.Unlock()
	if ok {
		return c, nil
	}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "jaxsh: compiling %s for (%s) on %s: %s\n", f.Name,
			strings.Join(sig.ArgTypes(), ", "), sig.Device, ExplainMiss(last, sig))
	}
	t, err := traceFn(sig)
	if err != nil {
		return nil, err
	}
	if c, err = f.compile(sig, opts, t); err != nil {
		return nil, err
	}
	f.mu.Lock()
	if f.cache == nil {
		f.cache = map[string]*Compiled{}
	}
	f.cache[key] = c
	f.last = sig
	f.mu.Unlock()
	return c, nil
}

// LookupFast and StoreFast are a second cache, keyed by whatever cheap key
// the caller builds for its commonest calls (the language's: positional
// concrete arrays, keyed without flattening pytrees).
func (f *Function) LookupFast(key []byte) *Compiled {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fast[string(key)]
}

// StoreFast caches c under the fast key.
func (f *Function) StoreFast(key []byte, c *Compiled) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fast == nil {
		f.fast = map[string]*Compiled{}
	}
	f.fast[string(key)] = c
}

// compile compiles a traced function for sig's device.
func (f *Function) compile(sig *Signature, opts CompileOptions, t *Traced) (*Compiled, error) {
	jaxpr, dev := t.Jaxpr, sig.Device
	o := OptionsFor(dev)
	o.Donate = opts.Donate
	o.ShuffleSeed = ShuffleSeed()
	if opts.DumpJaxpr != nil {
		fmt.Fprintf(opts.DumpJaxpr, "=== jaxpr of %s for (%s)\n%s\n", f.Name, strings.Join(sig.ArgTypes(), ", "), jaxpr)
	}
	o.DumpPasses, o.DumpKernels = opts.DumpPasses, opts.DumpKernels
	if w := opts.Log; w != nil {
		o.OnRefusedFold = func(r RefusedFold) {
			fmt.Fprintf(w, "jaxsh: %s: %s\n", f.Name, r)
		}
	}
	program, exe, err := CompileOnWith(dev, jaxpr, o)
	if err != nil {
		return nil, fmt.Errorf("jit(%s): %v", f.Name, err)
	}
	consts := make([]Buffer, len(jaxpr.Consts))
	for i, c := range jaxpr.Consts {
		// A captured array may live elsewhere when jit was placed with device=.
		if consts[i], err = MoveBuffer(c.(Buffer), dev); err != nil {
			return nil, fmt.Errorf("jit(%s): %v", f.Name, err)
		}
	}
	need, largest := programNeed(program)
	return &Compiled{Jaxpr: jaxpr, Program: program, Exe: exe, Consts: consts, Device: dev, Donate: opts.Donate,
		Extra: t.Extra, Need: need, Largest: largest, quick: quickProgram(jaxpr, program), queue: queueKind(dev), name: f.Name}, nil
}

// programNeed is what one run of p allocates and its largest result.
func programNeed(p *Program) (int64, trace.AVal) {
	m := p.MemoryAnalysis()
	var largest trace.AVal
	for _, v := range p.Jaxpr.OutVars {
		if a := v.Aval(); a.Bytes() >= largest.Bytes() {
			largest = a
		}
	}
	return int64(m.OutputSizeInBytes - m.AliasSizeInBytes + m.TempSizeInBytes), largest
}

// Call runs the compiled function on args for caller and returns its
// Future: it refuses a call that donates a buffer another argument also
// passes, writes into copies of donated buffers that another array may
// also hold (shared, per argument; nil when none is), and dispatches the
// program ordered by the caller's runtime tokens — or runs it at once when
// it is small, without effects, and its operands and device queue are
// ready.
func (c *Compiled) Call(caller Caller, args []Operand, shared []bool) (*Future, error) {
	if err := c.checkDonation(args); err != nil {
		return nil, err
	}
	var copyArg []bool
	for i, d := range c.Donate {
		if d && shared != nil && shared[i] {
			if copyArg == nil {
				copyArg = make([]bool, len(args))
			}
			copyArg[i] = true
		}
	}
	if c.runsNow(caller, args) {
		return c.callNow(args, copyArg), nil
	}
	return Dispatch(caller, c.Device, c.Jaxpr.Effects, args, c.name, func(bufs []Buffer, host Host) ([]Buffer, error) {
		all, err := c.arguments(bufs, copyArg)
		if err != nil {
			return nil, err
		}
		return c.Exe.Execute(all, host)
	}), nil
}

// arguments is the executable's argument list for the operands' buffers:
// the captured constants, then the buffers (copyDonated).
func (c *Compiled) arguments(bufs []Buffer, copyArg []bool) ([]Buffer, error) {
	all := make([]Buffer, 0, len(c.Consts)+len(bufs))
	all = append(append(all, c.Consts...), bufs...)
	return all, copyDonated(all[len(c.Consts):], copyArg)
}

// copyDonated replaces each buffer of a donated argument that another
// array may also hold (copyArg) by a copy, which the program may write.
func copyDonated(bufs []Buffer, copyArg []bool) error {
	for i := range copyArg {
		if copyArg[i] {
			b, err := CopyBuffer(bufs[i])
			if err != nil {
				return err
			}
			bufs[i] = b
		}
	}
	return nil
}

// checkDonation refuses a call that donates a buffer another argument also
// passes: the program would write over an input it still reads.
func (c *Compiled) checkDonation(args []Operand) error {
	for i, d := range c.Donate {
		if !d {
			continue
		}
		for k, a := range args {
			if k != i && a.SameStorage(args[i]) {
				return fmt.Errorf("jit(%s): argument leaf %d is donated and also passed as leaf %d", c.name, i, k)
			}
		}
	}
	return nil
}

// OutAlias is the argument result i returns as it is (its buffer), or -1:
// a result that is an argument, or a captured constant (-2), shares its
// buffer with it.
func (c *Compiled) OutAlias(i int) int {
	if i >= len(c.Program.OutAliases) || c.Program.OutAliases[i] < 0 {
		return -1
	}
	if k := c.Program.OutAliases[i] - len(c.Consts); k >= 0 {
		return k
	}
	return -2
}

// quickBytes bounds the memory a program may touch (arguments, results,
// temporaries) to run on the calling goroutine.
const quickBytes = 64 << 10

// quickProgram reports a program small enough that running it on the
// calling goroutine costs less than handing it to a worker and waking the
// caller for its result: no host ops (a callback would wait for the thread
// that runs it), no loops (their trip counts are unknown), and at most
// quickBytes of memory, which a few microseconds cover.
func quickProgram(j *trace.Jaxpr, p *Program) bool {
	if len(j.Effects) > 0 {
		return false
	}
	for _, k := range p.Kernels {
		if k.Control != nil {
			return false
		}
	}
	m := p.MemoryAnalysis()
	return m.ArgumentSizeInBytes+m.OutputSizeInBytes+m.TempSizeInBytes <= quickBytes
}

// ShuffleSeed reads JAXSH_SHUFFLE_KERNELS: a non-zero integer makes the
// scheduler run independent kernels in a random order drawn from that seed.
// It is a testing aid: ordered effects must keep their order under it, since
// their order comes from tokens, not from where kernels happen to land.
func ShuffleSeed() int64 {
	v := os.Getenv("JAXSH_SHUFFLE_KERNELS")
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// MoveBuffer copies buf to dev through host memory, the one path every
// backend offers; a buffer already on dev is returned as it is.
func MoveBuffer(buf Buffer, dev Device) (Buffer, error) {
	if buf.Device() == dev {
		return buf, nil
	}
	data, err := ToHost(buf)
	if err != nil {
		return nil, err
	}
	out, err := FromHost(dev, buf.AVal(), data)
	if err != nil {
		return nil, fmt.Errorf("copying %s from %s to %s: %v", buf.AVal(), buf.Device(), dev, err)
	}
	return out, nil
}

// CopyBuffer returns a new buffer holding buf's elements, on its device.
func CopyBuffer(buf Buffer) (Buffer, error) {
	data, err := ToHost(buf)
	if err != nil {
		return nil, err
	}
	return FromHost(buf.Device(), buf.AVal(), data)
}
