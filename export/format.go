package export

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/export/exportpb"
	"github.com/jaxsh/jaxsh/trace"
	"google.golang.org/protobuf/proto"
)

// The artifact header (docs/export-format.md): the magic, the format
// version, the payload's length and its CRC-32C, all little-endian, then
// the payload: a protocol-buffers encoded exportpb.Artifact.
const (
	Magic = "JAXSHEXP"
	// FormatVersion is the version Serialize writes. Deserialize reads
	// versions MinFormatVersion through FormatVersion.
	FormatVersion    = 1
	MinFormatVersion = 1
	headerSize       = len(Magic) + 4 + 8 + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Serialize writes the artifact in the current format version. With
// vjpOrder > 0 it computes and stores the VJP functions too, vjpOrder
// levels deep, so the loaded artifact can be differentiated that many
// times.
func (e *Exported) Serialize(vjpOrder int) ([]byte, error) {
	if vjpOrder < 0 {
		return nil, fmt.Errorf("serialize: vjp_order must be >= 0, got %d", vjpOrder)
	}
	if e.Poly != nil {
		return nil, fmt.Errorf("serialize %s: %w", e.FunName, ErrPolymorphicSerialize)
	}
	a, err := encodeArtifact(e, vjpOrder)
	if err != nil {
		return nil, fmt.Errorf("serialize %s: %w", e.FunName, err)
	}
	payload, err := proto.MarshalOptions{Deterministic: true}.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("serialize %s: %w", e.FunName, err)
	}
	return frame(FormatVersion, payload), nil
}

// frame puts the header before a payload.
func frame(version uint32, payload []byte) []byte {
	out := make([]byte, headerSize, headerSize+len(payload))
	copy(out, Magic)
	binary.LittleEndian.PutUint32(out[8:], version)
	binary.LittleEndian.PutUint64(out[12:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(out[20:], crc32.Checksum(payload, castagnoli))
	return append(out, payload...)
}

// A FormatError says why bytes are not a loadable artifact.
type FormatError struct{ Msg string }

func (e *FormatError) Error() string { return "deserialize: " + e.Msg }

func formatErrorf(format string, args ...any) error {
	return &FormatError{Msg: fmt.Sprintf(format, args...)}
}

// unframe checks the header and returns the payload.
func unframe(data []byte) ([]byte, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, formatErrorf("not a jaxsh export artifact (it does not start with %q)", Magic)
	}
	if len(data) < headerSize {
		return nil, formatErrorf("truncated artifact: %d bytes, shorter than its %d-byte header", len(data), headerSize)
	}
	version := binary.LittleEndian.Uint32(data[8:])
	switch {
	case version > FormatVersion:
		return nil, formatErrorf("the artifact has format version %d, newer than this jaxsh reads (%d to %d); load it with a newer jaxsh",
			version, MinFormatVersion, FormatVersion)
	case version < MinFormatVersion:
		return nil, formatErrorf("the artifact has format version %d, which no jaxsh reads", version)
	}
	n := binary.LittleEndian.Uint64(data[12:])
	payload := data[headerSize:]
	switch {
	case uint64(len(payload)) < n:
		return nil, formatErrorf("truncated artifact: the header announces %d bytes of payload, %d are present", n, len(payload))
	case uint64(len(payload)) > n:
		return nil, formatErrorf("%d stray bytes after the artifact's payload", uint64(len(payload))-n)
	}
	if want, got := binary.LittleEndian.Uint32(data[20:]), crc32.Checksum(payload, castagnoli); want != got {
		return nil, formatErrorf("the artifact is corrupted: its checksum is %08x, its payload's is %08x", want, got)
	}
	return payload, nil
}

// A BindFunc makes the host callback stored under a name for one equation
// that calls it, from the callback's kind and stored description (see
// ExportableCallback).
type BindFunc func(kind string, spec []byte) (trace.Callback, error)

// An ExportableCallback is a callback that can be stored: besides its name,
// its kind ("id_tap", "call", ...) and a description of this use of it
// that the BindFunc given to Deserialize reads back.
type ExportableCallback interface {
	trace.Callback
	CallbackKind() string
	ExportSpec() ([]byte, error)
}

// A callback may be stored under another name than the one jaxprs print
// (id_print with an output_stream is stored under the stream's name, the
// function a load binds).
type exportNamer interface{ ExportName() string }

// exportName is the name a callback is stored and bound under.
func exportName(c trace.Callback) string {
	if n, ok := c.(exportNamer); ok {
		return n.ExportName()
	}
	return c.CallbackName()
}

// Deserialize loads an artifact. callbacks binds each host callback the
// artifact stores by name; every stored name must be bound and every bound
// name must be used. Nothing in data can make it panic: bytes that are not
// a well-formed artifact of a known version are a *FormatError.
func Deserialize(data []byte, callbacks map[string]BindFunc) (*Exported, error) {
	return DeserializeWith(data, DeserializeOptions{Callbacks: callbacks})
}

// DeserializeOptions are Deserialize's bindings.
type DeserializeOptions struct {
	// Callbacks are the user's bindings, checked against the stored names.
	Callbacks map[string]BindFunc
	// Builtin binds callbacks that need no user function (the dialect's
	// id_print): a name it binds (a nil error and callback) is neither
	// missing nor required. It may be nil.
	Builtin func(name, kind string, spec []byte) (trace.Callback, error)
}

// DeserializeWith is Deserialize with builtin bindings.
func DeserializeWith(data []byte, opts DeserializeOptions) (*Exported, error) {
	payload, err := unframe(data)
	if err != nil {
		return nil, err
	}
	var a exportpb.Artifact
	if err := (proto.UnmarshalOptions{RecursionLimit: maxProtoDepth}).Unmarshal(payload, &a); err != nil {
		return nil, formatErrorf("the artifact's payload does not decode: %v", err)
	}
	binds := map[string]BindFunc{}
	for name, f := range opts.Callbacks {
		binds[name] = f
	}
	if opts.Builtin != nil {
		for name, kind := range storedCallbacks(&a) {
			if _, user := binds[name]; user {
				continue
			}
			if _, err := opts.Builtin(name, kind, nil); err == nil {
				binds[name] = func(kind string, spec []byte) (trace.Callback, error) { return opts.Builtin(name, kind, spec) }
			}
		}
	}
	if err := checkBindings(&a, binds); err != nil {
		return nil, err
	}
	d := &decoder{callbacks: binds}
	return d.artifact(&a, 0)
}

// storedCallbacks lists the artifact's callback names with a kind each.
func storedCallbacks(a *exportpb.Artifact) map[string]string {
	out := map[string]string{}
	for v := a; v != nil; v = v.GetVjp() {
		collectCallbacks(v.GetJaxpr(), out)
	}
	return out
}

// Inspect loads an artifact without binding its host callbacks, to show
// it (jaxsh inspect): each stored callback gets a stand-in that fails
// when called.
func Inspect(data []byte) (*Exported, error) {
	payload, err := unframe(data)
	if err != nil {
		return nil, err
	}
	var a exportpb.Artifact
	if err := (proto.UnmarshalOptions{RecursionLimit: maxProtoDepth}).Unmarshal(payload, &a); err != nil {
		return nil, formatErrorf("the artifact's payload does not decode: %v", err)
	}
	binds := map[string]BindFunc{}
	for name := range storedCallbacks(&a) {
		binds[name] = func(kind string, spec []byte) (trace.Callback, error) {
			return &UnboundCallback{Name: name, Kind: kind, Spec: spec}, nil
		}
	}
	d := &decoder{callbacks: binds}
	return d.artifact(&a, 0)
}

// An UnboundCallback stands for a stored callback that Inspect did not
// bind. Hosts fail when a program calls one.
type UnboundCallback struct {
	Name, Kind string
	Spec       []byte
}

func (c *UnboundCallback) CallbackName() string        { return c.Name }
func (c *UnboundCallback) CallbackKind() string        { return c.Kind }
func (c *UnboundCallback) ExportSpec() ([]byte, error) { return c.Spec, nil }

// maxProtoDepth bounds the nesting of the payload's messages, so that a
// crafted artifact cannot exhaust the stack.
const maxProtoDepth = 2000

func checkBindings(a *exportpb.Artifact, callbacks map[string]BindFunc) error {
	used := map[string]bool{}
	for name := range storedCallbacks(a) {
		used[name] = true
	}
	var missing, extra []string
	for name := range used {
		if callbacks[name] == nil {
			missing = append(missing, name)
		}
	}
	for name := range callbacks {
		if !used[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	var msgs []string
	if len(missing) > 0 {
		msgs = append(msgs, fmt.Sprintf("the artifact calls host callbacks that are not bound: %s (pass them in callbacks=)", strings.Join(missing, ", ")))
	}
	if len(extra) > 0 {
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range used {
				if !yield(n) {
					return
				}
			}
		})
		stored := "none"
		if len(names) > 0 {
			stored = strings.Join(names, ", ")
		}
		msgs = append(msgs, fmt.Sprintf("callbacks= binds names the artifact does not use: %s (it uses: %s)", strings.Join(extra, ", "), stored))
	}
	if len(msgs) > 0 {
		return errors.New("deserialize: " + strings.Join(msgs, "; "))
	}
	return nil
}

func collectCallbacks(j *exportpb.Jaxpr, into map[string]string) {
	for _, e := range j.GetEqns() {
		for _, p := range e.GetParams() {
			switch v := p.GetValue().(type) {
			case *exportpb.Param_Callback:
				into[v.Callback.GetName()] = v.Callback.GetKind()
			case *exportpb.Param_Jaxpr:
				collectCallbacks(v.Jaxpr, into)
			case *exportpb.Param_Jaxprs:
				for _, sub := range v.Jaxprs.GetValues() {
					collectCallbacks(sub, into)
				}
			}
		}
	}
}
