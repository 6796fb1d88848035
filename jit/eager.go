package jit

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// eagerCache holds the executables of single primitives, keyed by
// eagerKey. Entries are never evicted: a program uses a bounded set of
// (primitive, params, types) combinations, and JAX caches the same way.
// A plain map under a read lock: looking up m[string(bytes)] does not
// allocate, which keeps the eager path cheap (SPEC's eager op latency).
var eagerCache = struct {
	sync.RWMutex
	m map[string]*eagerEntry
}{m: map[string]*eagerEntry{}}

// keyBuffers recycles the byte buffers eager keys are built in.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 128); return &b }}

type eagerEntry struct {
	once     sync.Once
	compiled atomic.Bool // set once exe, out and err are
	exe      Executable
	out      []trace.AVal
	err      error
}

// appendEagerKey appends what a compiled single-primitive program depends
// on: the primitive, its params, the operands' avals (weak types included)
// and the device.
func appendEagerKey(b []byte, prim *trace.Primitive, params trace.Params, in []trace.AVal, dev Device) []byte {
	b = append(b, prim.Name...)
	b = append(b, '[')
	if len(params) > 0 {
		b = append(b, params.String()...)
	}
	b = append(b, "]("...)
	for i, a := range in {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, a.DType.ShortName()...)
		for j, d := range a.Shape {
			if j == 0 {
				b = append(b, '[')
			} else {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(d), 10)
		}
		if a.Weak {
			b = append(b, '~')
		}
	}
	b = append(b, ")@"...)
	b = append(b, dev.Platform()...)
	return strconv.AppendInt(b, int64(dev.ID()), 10)
}

// eagerEntryFor returns the cache entry of a key, creating it once.
func eagerEntryFor(key []byte) *eagerEntry {
	eagerCache.RLock()
	e := eagerCache.m[string(key)]
	eagerCache.RUnlock()
	if e != nil {
		return e
	}
	eagerCache.Lock()
	defer eagerCache.Unlock()
	if e = eagerCache.m[string(key)]; e == nil {
		e = &eagerEntry{}
		eagerCache.m[string(key)] = e
	}
	return e
}

// ApplyPrimitive runs one primitive on buffers that live on dev and returns
// its results: the eager path. Shape and dtype errors are *trace.TypeError.
func ApplyPrimitive(dev Device, prim *trace.Primitive, params trace.Params, args []Buffer) ([]Buffer, error) {
	return ApplyPrimitiveWith(NoHost, dev, prim, params, args)
}

// ApplyPrimitiveWith is ApplyPrimitive run with host, whose cancellation
// and budget (see Cancellable, Budgeted) apply.
func ApplyPrimitiveWith(host Host, dev Device, prim *trace.Primitive, params trace.Params, args []Buffer) ([]Buffer, error) {
	one, all, err := ApplyPrimitiveOne(host, dev, prim, params, args)
	if err != nil {
		return nil, err
	}
	if one != nil {
		return []Buffer{one}, nil
	}
	return all, nil
}

// An ExecutableOne is an Executable that can return the result of a
// program with one result without a list around it: the commonest eager
// case, where that list would be one more allocation per operation.
type ExecutableOne interface {
	// ExecuteOne is Execute for a program with exactly one result.
	ExecuteOne(args []Buffer, host Host) (Buffer, error)
}

// ApplyPrimitiveOne is ApplyPrimitiveWith that returns the result of a
// primitive with one result as one, and the results of any other as all.
func ApplyPrimitiveOne(host Host, dev Device, prim *trace.Primitive, params trace.Params, args []Buffer) (one Buffer, all []Buffer, err error) {
	var few [4]trace.AVal // the operand types of most primitives, kept off the heap
	in := few[:0]
	if len(args) > len(few) {
		in = make([]trace.AVal, 0, len(args))
	}
	for i, a := range args {
		if a.Device() != dev {
			return nil, nil, fmt.Errorf("%s: operand %d is on %s, not %s", prim.Name, i, a.Device(), dev)
		}
		in = append(in, a.AVal())
	}
	exe, out, err := PreparePrimitive(dev, prim, params, in)
	if err != nil {
		return nil, nil, err
	}
	if x, ok := exe.(ExecutableOne); ok && len(out) == 1 {
		one, err = x.ExecuteOne(args, host)
		return one, nil, err
	}
	all, err = exe.Execute(args, host)
	return nil, all, err
}

// PreparePrimitive returns the cached executable of one primitive applied to
// operands of types in on dev, and its result types, without running it:
// the eager path of an operation whose operands are still being computed,
// which runs later (asynchronously) once they are.
func PreparePrimitive(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) (Executable, []trace.AVal, error) {
	e := eagerEntryOf(dev, prim, params, in)
	if !e.compiled.Load() {
		e.compile(dev, prim, params, in)
	}
	if e.err != nil {
		return nil, nil, e.err
	}
	return e.exe, e.out, nil
}

// eagerEntryOf finds the cache entry of a signature: in the recent table
// when the params are all of plain kinds (every ufunc, dot_general,
// reductions), else by its key text.
func eagerEntryOf(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) *eagerEntry {
	slot := -1
	paramsHash, plain := uint64(0), true
	if len(params) > 0 {
		paramsHash, plain = params.Hash()
	}
	if plain {
		slot = recentSlot(prim, paramsHash, in)
		if r := recentEager[slot].Load(); r != nil && r.matches(dev, prim, params, in) {
			return r.entry
		}
	}
	buf := keyBuffers.Get().(*[]byte)
	*buf = appendEagerKey((*buf)[:0], prim, params, in, dev)
	e := eagerEntryFor(*buf)
	keyBuffers.Put(buf)
	if slot >= 0 {
		r := &recentSignature{dev: dev, prim: prim, in: make([]trace.AVal, len(in)), entry: e}
		if len(params) > 0 {
			r.params = params.CloneValues()
		}
		for i, a := range in {
			r.in[i] = trace.AVal{Shape: a.Shape.Clone(), DType: a.DType, Weak: a.Weak}
		}
		recentEager[slot].Store(r)
	}
	return e
}

// recentEager maps eager signatures with plain params, hashed, to their
// cache entries: a script's eager ops repeat a few signatures, and
// comparing one directly costs a fraction of building its key text and
// hashing that under a lock. A slot holds the last signature hashed to
// it; another one's miss replaces it (the key map still has both). A hit
// compares the whole signature, params included, never just the hash.
var recentEager [256]atomic.Pointer[recentSignature]

// A recentSignature is an eager signature and its entry; never modified
// once stored.
type recentSignature struct {
	dev    Device
	prim   *trace.Primitive
	params trace.Params // a copy: the caller's may share slices with it
	in     []trace.AVal
	entry  *eagerEntry
}

func (r *recentSignature) matches(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) bool {
	if r.prim != prim || r.dev != dev || len(r.in) != len(in) {
		return false
	}
	for i, a := range in {
		if !r.in[i].Equal(a) {
			return false
		}
	}
	return len(params) == len(r.params) && (len(params) == 0 || r.params.Same(params))
}

// recentSlot hashes a primitive, its params' hash and its operand types
// (FNV-1a over the primitive's address, the params' hash, each dtype, weak
// flag and dimension).
func recentSlot(prim *trace.Primitive, paramsHash uint64, in []trace.AVal) int {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	mix(uint64(uintptr(unsafe.Pointer(prim))))
	mix(paramsHash)
	for _, a := range in {
		v := uint64(a.DType) << 1
		if a.Weak {
			v |= 1
		}
		mix(v)
		mix(uint64(len(a.Shape)))
		for _, d := range a.Shape {
			mix(uint64(d))
		}
	}
	return int((h ^ h>>32) % uint64(len(recentEager)))
}

// compile fills the entry once. It copies in, which may live on the
// caller's stack: only this first call of a key keeps the types.
func (e *eagerEntry) compile(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) {
	owned := append([]trace.AVal(nil), in...)
	e.once.Do(func() {
		e.exe, e.out, e.err = compileSingle(dev, prim, params, owned)
		e.compiled.Store(true)
	})
}

func compileSingle(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) (Executable, []trace.AVal, error) {
	out, effects, err := prim.Infer(in, params)
	if err != nil {
		return nil, nil, err
	}
	if params == nil { // the eager path passes none for a primitive without
		params = trace.Params{}
	}
	j := &trace.Jaxpr{Effects: effects}
	eqn := &trace.Eqn{Prim: prim, Params: params, Effects: effects}
	for _, a := range in {
		v := trace.NewVar(a)
		j.InVars = append(j.InVars, v)
		eqn.In = append(eqn.In, v)
	}
	for _, a := range out {
		v := trace.NewVar(a)
		eqn.Out = append(eqn.Out, v)
		j.OutVars = append(j.OutVars, v)
	}
	j.Eqns = []*trace.Eqn{eqn}
	// One equation has nothing to optimise or fuse: lower it only, so the
	// eager path stays one OpaqueKernel and cheap to compile.
	p, err := CompileWith(j, Options{})
	if err != nil {
		return nil, nil, err
	}
	b, err := backendOf(dev)
	if err != nil {
		return nil, nil, err
	}
	exe, err := b.Compile(p, dev)
	return exe, out, err
}
