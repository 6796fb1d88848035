package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The worker pool is shared by every logical device: parallelFor splits a
// range into chunks that the calling goroutine and idle workers take in turn.
// The caller always works too and only waits for chunks another worker has
// already started, so a kernel that calls parallelFor from inside a worker
// (nested parallelism) can never deadlock waiting for a queued task.
type workerPool struct {
	tasks chan func()
	size  int
}

var pool = newWorkerPool(runtime.GOMAXPROCS(0))

func newWorkerPool(n int) *workerPool {
	p := &workerPool{tasks: make(chan func(), 4*n), size: n}
	for i := 0; i < n; i++ {
		go func() {
			for t := range p.tasks {
				t()
			}
		}()
	}
	return p
}

// grainElements is the smallest number of elements worth a chunk of its
// own: below it, handing work to another core costs more than it saves.
const grainElements = 1 << 14

// A stopSignal is closed when the program a kernel runs for is cancelled
// (nil: it cannot be). Kernels pass it to parallelFor, which checks it
// between chunks: a cancelled kernel ends within one chunk's time instead
// of running to its end (DESIGN decision 11).
type stopSignal <-chan struct{}

func (s stopSignal) requested() bool {
	if s == nil {
		return false
	}
	select {
	case <-s:
		return true
	default:
		return false
	}
}

// errStopped is what parallelFor panics with in its caller when it gave up
// because of its stop: the kernel unwinds (its deferred releases run) up
// to executable.run, which returns the program's cancellation error. A
// panic, not a result, because a kernel's later phases read what its
// earlier parallel phases wrote (a radix sort's counts, a gather's
// starts), and a phase cut short must not let them run on garbage.
type stoppedKernel struct{}

var errStopped any = stoppedKernel{}

// stoppableChunks is how many chunks a range is cut into, at most, when its
// kernel can be stopped: enough that a chunk of a kernel taking a minute on
// one core takes well under a tenth of a second, few enough that
// scheduling them costs nothing next to grain elements each.
const stoppableChunks = 1024

// parallelFor calls fn on disjoint sub-ranges [lo, hi) covering [0, n), on
// several cores when n is large. grain is the minimum chunk length. Once s
// is requested no further chunk starts, and parallelFor panics with
// errStopped after the chunks already running have finished.
func (p *workerPool) parallelFor(s stopSignal, n, grain int, fn func(lo, hi int)) {
	if grain < 1 {
		grain = 1
	}
	chunks := n / grain
	limit := 4 * p.size
	if p.size <= 1 {
		limit = 1
	}
	if s != nil {
		limit = max(limit, stoppableChunks)
	}
	chunks = min(chunks, limit)
	if chunks <= 1 {
		if n > 0 {
			if s.requested() {
				panic(errStopped)
			}
			fn(0, n)
		}
		return
	}
	var next atomic.Int64
	var halted atomic.Bool
	var done sync.WaitGroup
	done.Add(chunks)
	// runChunk runs one chunk; a nested parallelFor that stopped ends the
	// chunk, not the worker.
	runChunk := func(c int) {
		defer done.Done()
		if halted.Load() || s.requested() {
			halted.Store(true)
			return
		}
		if s != nil {
			defer func() {
				if r := recover(); r != nil {
					if r != errStopped {
						panic(r)
					}
					halted.Store(true)
				}
			}()
		}
		fn(c*n/chunks, (c+1)*n/chunks)
	}
	work := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			runChunk(c)
		}
	}
	if p.size > 1 {
		for i := 0; i < p.size-1 && i < chunks-1; i++ {
			select {
			case p.tasks <- work:
			default: // every worker is busy; the caller does the rest itself
			}
		}
	}
	work()
	done.Wait()
	if halted.Load() {
		panic(errStopped)
	}
}
