//go:build linux

package cpu

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the 2 MiB-aligned interior of
// storage with huge pages. Fresh storage from the OS is faulted in on
// first touch one 4 KiB page at a time (with the kernel zeroing each), and
// for a 64 MiB result those 16,384 faults cost more than the kernel
// writing it; where transparent huge pages are on "madvise" (as Debian
// ships), Go's heap gets none unless asked. Advice only: an error changes
// nothing.
func adviseHugePages(storage []uint64) {
	const huge = 2 << 20
	base := unsafe.Pointer(unsafe.SliceData(storage))
	start := uintptr(base)
	end := start + uintptr(len(storage))*8
	first, last := (start+huge-1)&^(huge-1), end&^(huge-1)
	if last <= first {
		return
	}
	region := unsafe.Slice((*byte)(unsafe.Add(base, first-start)), last-first)
	_ = syscall.Madvise(region, syscall.MADV_HUGEPAGE)
}
