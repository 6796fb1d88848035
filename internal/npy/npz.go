package npy

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// A Named array is one member of an .npz archive.
type Named struct {
	Name  string
	Array *Array
}

// ReadNPZ reads every array of an .npz archive, in the archive's order.
// Member names lose their ".npy" suffix, as np.load's NpzFile shows them.
// limit bounds the total data bytes (0: no bound).
func ReadNPZ(r io.ReaderAt, size int64, limit int64) ([]Named, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not an .npz archive: %w", err)
	}
	var out []Named
	var total int64
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".npy") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		left := int64(0)
		if limit > 0 {
			left = limit - total
			if left <= 0 {
				rc.Close()
				return nil, fmt.Errorf("%s: the archive's arrays exceed the %d bytes allowed", f.Name, limit)
			}
		}
		a, err := Read(rc, left)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		total += int64(len(a.Data))
		out = append(out, Named{Name: strings.TrimSuffix(f.Name, ".npy"), Array: a})
	}
	return out, nil
}

// WriteNPZ writes arrays as an .npz archive, each as NAME.npy; compress
// deflates them as np.savez_compressed does, otherwise they are stored as
// np.savez stores them.
func WriteNPZ(w io.Writer, arrays []Named, compress bool) error {
	zw := zip.NewWriter(w)
	method := zip.Store
	if compress {
		method = zip.Deflate
	}
	seen := map[string]bool{}
	for _, n := range arrays {
		if seen[n.Name] {
			return fmt.Errorf("two arrays are named %q", n.Name)
		}
		seen[n.Name] = true
		var buf bytes.Buffer
		if err := Write(&buf, n.Array); err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: n.Name + ".npy", Method: method})
		if err != nil {
			return err
		}
		if _, err := fw.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return zw.Close()
}
