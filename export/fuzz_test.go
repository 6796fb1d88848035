package export_test

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/jaxsh/jaxsh/export"
)

// FuzzDeserialize feeds arbitrary bytes to Deserialize, both as they are
// (the header's checks) and framed with a valid header around them (so
// that mutations reach the payload's decoding and the primitives' rules).
// Nothing may panic; whatever loads must serialize and load again to the
// same program.
//
//	go test ./export -run '^$' -fuzz FuzzDeserialize -fuzztime 5m -parallel 1
func FuzzDeserialize(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "v*", "*.jaxsh-export"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[24:]) // the payload alone, framed by the target
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
		checkLoad(t, framed(data))
	})
}

func framed(payload []byte) []byte {
	out := make([]byte, 24, 24+len(payload))
	copy(out, export.Magic)
	binary.LittleEndian.PutUint32(out[8:], export.FormatVersion)
	binary.LittleEndian.PutUint64(out[12:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(out[20:], crc32.Checksum(payload, crc32.MakeTable(crc32.Castagnoli)))
	return append(out, payload...)
}

func checkLoad(t *testing.T, data []byte) {
	e, err := export.Inspect(data)
	if err != nil {
		return
	}
	text := e.String() + e.Jaxpr.String()
	again, err := e.Serialize(0)
	if err != nil {
		t.Fatalf("a loaded artifact does not serialize: %v\n%s", err, text)
	}
	e2, err := export.Inspect(again)
	if err != nil {
		t.Fatalf("a re-serialized artifact does not load: %v\n%s", err, text)
	}
	if text2 := e2.String() + e2.Jaxpr.String(); text2 != text {
		t.Fatalf("the round trip changed the artifact:\n%s\nthen:\n%s", text, text2)
	}
}
