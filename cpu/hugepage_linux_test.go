//go:build linux

package cpu

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// Fresh large result storage is marked for huge pages (VmFlags "hg" in
// /proc/self/smaps on the mapping holding its aligned interior), and the
// advice leaves its contents alone.
func TestAdviseHugePagesMarksInterior(t *testing.T) {
	const words = (8 << 20) / 8
	storage := unsafe.Slice((*uint64)(mallocgc(words*8, nil, true)), words)
	storage[words-1] = 42
	adviseHugePages(storage)
	if storage[words-1] != 42 || storage[0] != 0 {
		t.Fatalf("advice changed the storage")
	}
	const huge = 2 << 20
	addr := (uintptr(unsafe.Pointer(&storage[0])) + huge - 1) &^ (huge - 1)
	flags, err := vmFlagsAt(addr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("mapping at %#x has VmFlags %q, want hg among them", addr, flags)
	}
}

// A slice without a whole aligned 2 MiB page inside is left as it is.
func TestAdviseHugePagesSmall(t *testing.T) {
	storage := make([]uint64, 1000)
	storage[999] = 7
	adviseHugePages(storage)
	if storage[999] != 7 {
		t.Fatalf("advice changed the storage")
	}
}

// vmFlagsAt is the VmFlags line of the mapping of /proc/self/smaps that
// holds addr.
func vmFlagsAt(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}
