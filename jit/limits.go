package jit

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jaxsh/jaxsh/trace"
)

// Cancellation and memory reach a backend through the Host of an Execute
// (DESIGN decisions 10 and 11): the front end makes one Host per dispatch,
// and a Host may also implement Cancellable (the dispatch's cancellation,
// which the backend checks between kernels, blocks and loop iterations) and
// Budgeted (the memory budget its arrays are charged to). A Host that does
// neither — NoHost — runs uncancellable and charges the machine only.

// Cancellable is a Host's cancellation: the subset of context.Context a
// backend needs. Done is closed once the program must stop; Err then says
// why, and is the error the program fails with.
type Cancellable interface {
	Done() <-chan struct{}
	Err() error
}

// Budgeted is a Host whose arrays are charged to a Budget.
type Budgeted interface {
	Budget() *Budget
}

// CancellationOf returns h's cancellation, or nil when it has none.
func CancellationOf(h Host) Cancellable {
	c, _ := h.(Cancellable)
	return c
}

// BudgetOf returns h's budget, or nil when it has none.
func BudgetOf(h Host) *Budget {
	if b, ok := h.(Budgeted); ok {
		return b.Budget()
	}
	return nil
}

// WithLimits returns a Host that runs host ops through h and carries the
// cancellation c and the budget b (either may be nil).
func WithLimits(h Host, c Cancellable, b *Budget) Host {
	return &limitedHost{Host: h, cancel: c, budget: b}
}

type limitedHost struct {
	Host
	cancel Cancellable
	budget *Budget
}

func (h *limitedHost) Done() <-chan struct{} {
	if h.cancel == nil {
		return nil
	}
	return h.cancel.Done()
}

func (h *limitedHost) Err() error {
	if h.cancel == nil {
		return nil
	}
	return h.cancel.Err()
}

func (h *limitedHost) Budget() *Budget { return h.budget }

// A Budget bounds the bytes of array memory held at once: an interpreter's
// (Options.MaxArrayBytes) or the machine's. Backends charge it when they
// allocate a program's results and temporaries and release the charge when
// those are freed.
type Budget struct {
	limit int64
	what  string // "the interpreter's array memory limit", "this machine's memory"
	used  atomic.Int64
}

// NewBudget returns a budget of limit bytes; what names it in errors.
func NewBudget(limit int64, what string) *Budget {
	return &Budget{limit: limit, what: what}
}

// Limit is the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used is the bytes charged and not yet released.
func (b *Budget) Used() int64 { return b.used.Load() }

// Charge takes n bytes from the budget, or returns an *AllocError (which
// names the array, aval) when they are not left.
func (b *Budget) Charge(n int64, aval trace.AVal) error {
	for {
		used := b.used.Load()
		if n > b.limit-used {
			return &AllocError{AVal: aval, Bytes: n, Limit: b.limit, Used: used, What: b.what}
		}
		if b.used.CompareAndSwap(used, used+n) {
			return nil
		}
	}
}

// Release gives back n bytes charged earlier.
func (b *Budget) Release(n int64) { b.used.Add(-n) }

// An AllocError is an allocation refused by a Budget.
type AllocError struct {
	AVal  trace.AVal // the largest array of the refused allocation
	Bytes int64      // the bytes asked for
	Limit int64
	Used  int64
	What  string
}

func (e *AllocError) Error() string {
	in := ""
	if e.Used > 0 {
		in = ", " + FormatBytes(e.Used) + " in use"
	}
	return fmt.Sprintf("cannot allocate %s for an array of shape %s and dtype %s: more than %s (%s%s)",
		FormatBytes(e.Bytes), e.AVal.Shape, e.AVal.DType.Name(), e.What, FormatBytes(e.Limit), in)
}

// FormatBytes prints a byte count with a binary unit: 512 B, 1.5 KiB,
// 4.0 TiB.
func FormatBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / 1024
	u := 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
}

// Machine is the budget of the whole process's host memory: the machine's
// physical memory or its control group's limit, whichever is smaller. The
// CPU backend charges every program to it, so that an array the machine
// cannot hold is an error instead of the Go runtime's fatal out-of-memory.
var Machine = NewBudget(machineMemory(), "this machine's memory")

// ChargeFreeing is b.Charge, except that a refusal first lets the garbage
// collector free arrays nobody holds (their charges are released by
// cleanups, after a collection) and tries again.
func ChargeFreeing(b *Budget, n int64, aval trace.AVal) error {
	err := b.Charge(n, aval)
	if err == nil || n > b.limit {
		return err
	}
	gcMu.Lock()
	defer gcMu.Unlock()
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond) // cleanups run on their own goroutine
		if err = b.Charge(n, aval); err == nil {
			return nil
		}
	}
	return err
}

var gcMu sync.Mutex
