package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
)

// Large result buffers are recycled. A program called in a loop that
// returns a large array (vmap(grad(f)) returns one gradient per example)
// otherwise has Go allocate and zero that array on every call, and with a
// small live heap the collector runs every few calls: per-example
// gradients of a small MLP (2 MiB per call) spent more of their time in
// the allocator and the collector than in the program. A result buffer
// nobody refers to any more is found by the collector anyway; a finalizer
// on its storage hands it back here instead of to Go, and the next
// Execute wanting that size takes it, already in memory and without
// clearing it: it is not marked zeroed, so the executor clears it for the
// kernels that need zeros and the others overwrite it.
//
// The finalizer is on the storage itself, not on a Buffer, because views
// and slices of the storage can outlive the Buffer that made them: the
// storage is unreachable only when every one of them is, which is when the
// collector runs its finalizer. A recycled block is never in use twice.
//
// Blocks handed out this way return only after a collection, and the
// collector's pace is set by new allocations, which recycled blocks are
// not: left alone, the pool would run dry and the program would allocate
// afresh until the heap grew enough for the collector to run. So once the
// recyclable bytes handed out since the last collection this file asked
// for exceed what was outstanding before it (at least collectAfterBytes),
// it asks for another, in the background: the memory waiting to come back
// stays proportional to what the program really holds, as Go's own
// pacing keeps it, and a collection is paid for every collectAfterBytes
// of results rather than every few calls.

// recycledMinBytes is the smallest result buffer recycled: below it Go's
// allocator is cheap next to the kernels that fill the buffer.
const recycledMinBytes = 256 << 10

// collectAfterBytes is the least recyclable memory handed out between two
// collections this file starts.
const collectAfterBytes = 16 << 20

// recycledMaxBytes bounds the memory waiting in the pool; blocks returned
// beyond it push out the oldest, which Go then frees.
var recycledMaxBytes = min(32<<20, jit.Machine.Limit()/32)

// blockPool holds result storage whose last user is gone, oldest first.
type blockPool struct {
	mu     sync.Mutex
	blocks [][]uint64
	bytes  int64

	// outstanding is the bytes handed out with a finalizer and not yet
	// back; sinceCollect those handed out since the last collection the
	// pool started; collecting is set while one runs.
	outstanding, sinceCollect atomic.Int64
	collecting                atomic.Bool
}

var recycled blockPool

// take returns a block of exactly words words from the pool (its contents
// are stale), or nil.
func (p *blockPool) take(words int) []uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.blocks) - 1; i >= 0; i-- {
		if b := p.blocks[i]; len(b) == words {
			last := len(p.blocks) - 1
			copy(p.blocks[i:], p.blocks[i+1:])
			p.blocks[last] = nil // else the array would keep b reachable
			p.blocks = p.blocks[:last]
			p.bytes -= int64(words) * 8
			return b
		}
	}
	return nil
}

// give puts a block back, pushing out the oldest blocks beyond
// recycledMaxBytes.
func (p *blockPool) give(b []uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blocks = append(p.blocks, b)
	p.bytes += int64(len(b)) * 8
	for p.bytes > recycledMaxBytes && len(p.blocks) > 0 {
		p.bytes -= int64(len(p.blocks[0])) * 8
		p.blocks[0] = nil
		p.blocks = p.blocks[1:]
	}
}

// handedOut counts n recyclable bytes given to a result and starts a
// collection in the background when enough have been since the last one.
func (p *blockPool) handedOut(n int64) {
	total := p.outstanding.Add(n)
	since := p.sinceCollect.Add(n)
	if since < max(collectAfterBytes, total-since) || !p.collecting.CompareAndSwap(false, true) {
		return
	}
	p.sinceCollect.Store(0)
	go func() {
		defer p.collecting.Store(false)
		runtime.GC()
	}()
}

// newRecyclableStorage returns storage of words words for a result
// buffer and whether it is zeroed: a recycled block when one of that size
// is waiting, else a new one.
func newRecyclableStorage(words int) ([]uint64, bool) {
	if b := recycled.take(words); b != nil {
		return b, false
	}
	return make([]uint64, words), true
}

// recycleWhenUnreachable arranges for data's storage, which
// newRecyclableStorage made, to come back to the pool once nothing refers
// to it, calling release first (the memory charge the result held).
func recycleWhenUnreachable(data []byte, release func()) {
	words := (cap(data) + 7) / 8
	first := (*uint64)(unsafe.Pointer(unsafe.SliceData(data)))
	runtime.SetFinalizer(first, func(p *uint64) {
		release()
		recycled.outstanding.Add(-int64(words) * 8)
		recycled.give(unsafe.Slice(p, words))
	})
	recycled.handedOut(int64(words) * 8)
}
