package bloom

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// Window[K] encodes as FORMAT.md's variant 6: a header (k = 0, blocks =
// generations kept, key hash xxh3, the key family), then a 64-byte
// parameter block and each generation's whole Filter encoding, in slot
// order. A decoded Window keeps its receiver's clock (time.Now for the
// zero Window) and the encoded origin, so generations go on expiring at
// the same wall-clock times.

// Offsets in the parameter block.
const (
	wpFPR       = 0  // float64: total false-positive rate
	wpKeys      = 8  // uint64: keys per window
	wpWindow    = 16 // int64: the window in nanoseconds
	wpOriginSec = 24 // int64: when generation 0 began, Unix seconds
	wpOriginNs  = 32 // uint64: and nanoseconds, below 1e9
	wpEpoch     = 40 // int64: the newest generation's number, >= 0
	wpReserved  = 48 // 16 bytes, zero
)

// header returns the framing header of w (payload CRC left to the framing).
func (w *Window[K]) header() (format.Header, error) {
	if len(w.gens) == 0 {
		return format.Header{}, zeroEncode("Window", "NewWindow")
	}
	n := uint64(format.WindowParamBytes)
	for _, f := range w.gens {
		n += format.HeaderSize + (f.NumBits() / 8)
	}
	return format.Header{
		Version:      format.Version,
		Variant:      format.Window,
		Blocks:       uint64(len(w.gens)),
		Hash:         uint8(blocked.HashXXH3),
		PayloadBytes: n,
		Compat:       uint32(keyFamily[K]()),
	}, nil
}

// params returns the parameter block.
func (w *Window[K]) params() []byte {
	p := make([]byte, format.WindowParamBytes)
	le := binary.LittleEndian
	le.PutUint64(p[wpFPR:], math.Float64bits(w.fpr))
	le.PutUint64(p[wpKeys:], w.n)
	le.PutUint64(p[wpWindow:], uint64(w.window))
	le.PutUint64(p[wpOriginSec:], uint64(w.origin.Unix()))
	le.PutUint64(p[wpOriginNs:], uint64(w.origin.Nanosecond()))
	le.PutUint64(p[wpEpoch:], uint64(w.epoch))
	return p
}

// MarshalBinary returns the encoding of w. It returns an error wrapping
// ErrGeometry for the zero Window.
func (w *Window[K]) MarshalBinary() ([]byte, error) { return w.AppendBinary(nil) }

// AppendBinary appends the encoding of w to b, as MarshalBinary.
func (w *Window[K]) AppendBinary(b []byte) ([]byte, error) {
	h, err := w.header()
	if err != nil {
		return b, err
	}
	return appendChain(b, h, w.params(), w.gens)
}

// WriteTo writes the encoding of w to w2, each generation streamed from
// its memory, and returns the number of bytes written.
func (w *Window[K]) WriteTo(w2 io.Writer) (int64, error) {
	h, err := w.header()
	if err != nil {
		return 0, err
	}
	return format.Write(w2, h, func(yield func([]byte) bool) {
		if !yield(w.params()) {
			return
		}
		for _, f := range w.gens {
			cw := chunkWriter{yield: yield}
			if f.WriteTo(&cw); cw.stopped {
				return
			}
		}
	})
}

// UnmarshalBinary replaces w's generations and parameters with those
// encoded in b (by MarshalBinary or WriteTo), keeping w's clock. On error
// w is unchanged. It copies b; the zero Window may be the receiver.
func (w *Window[K]) UnmarshalBinary(b []byte) error {
	h, p, err := format.Decode(b, format.Window)
	if err != nil {
		return err
	}
	return w.decode(h, p)
}

// ReadFrom replaces w as UnmarshalBinary does with the encoding at the
// start of r, reading exactly its bytes, and returns the number of bytes
// read. On error w is unchanged. At the end of r (no byte read) it returns
// 0, io.EOF.
func (w *Window[K]) ReadFrom(r io.Reader) (int64, error) {
	h, p, n, err := format.Read(r, format.Window)
	if err != nil {
		return n, err
	}
	return n, w.decode(h, p)
}

// decode sets w from a checked header and its payload (length and CRC
// checked), or returns why it cannot: parameters in the ranges NewWindow
// allows, each generation a valid Filter encoding (its own CRC checked) of
// key hash xxh3 and the same size as the others, filling the payload
// exactly, then the header's key hash and key family.
func (w *Window[K]) decode(h format.Header, p []byte) error {
	le := binary.LittleEndian
	g := &Window[K]{
		fpr:    math.Float64frombits(le.Uint64(p[wpFPR:])),
		n:      le.Uint64(p[wpKeys:]),
		window: time.Duration(le.Uint64(p[wpWindow:])),
		epoch:  int64(le.Uint64(p[wpEpoch:])),
		clock:  w.clock,
		kind:   kindOf[K](),
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: Window: "+format, append([]any{ErrCorrupt}, a...)...)
	}
	gens := int(h.Blocks) // 2 .. WindowMaxGenerations+1 (format.Check)
	sec, ns := int64(le.Uint64(p[wpOriginSec:])), le.Uint64(p[wpOriginNs:])
	var err error
	switch {
	case le.Uint64(p[wpReserved:]) != 0 || le.Uint64(p[wpReserved+8:]) != 0:
		return bad("reserved parameter words are not zero")
	case !(g.fpr > 0 && g.fpr < 1):
		return bad("false-positive rate %v", g.fpr)
	case g.n == 0:
		return bad("0 keys per window")
	case ns >= 1e9:
		return bad("origin nanoseconds %d", ns)
	case g.epoch < 0:
		return bad("generation %d", g.epoch)
	}
	if g.span, err = windowSpan(g.window, gens-1); err != nil {
		return bad("%w", errs.Inner(err))
	}
	if g.epoch > math.MaxInt64/int64(g.span) {
		return bad("generation %d is past the end of time", g.epoch)
	}
	g.setOrigin(time.Unix(sec, int64(ns)))
	g.gens = make([]*blocked.Filter, 0, gens)
	rest := p[format.WindowParamBytes:]
	for i := range gens {
		sh, err := format.Parse(rest, format.Filter)
		if err != nil {
			return bad("generation %d: %w", i, errs.Inner(err))
		}
		if sh.Size() > uint64(len(rest)) {
			return bad("generation %d announces %d bytes, %d remain", i, sh.Size(), len(rest))
		}
		f := new(blocked.Filter)
		if err := f.UnmarshalBinary(rest[:sh.Size()]); err != nil {
			return bad("generation %d: %w", i, errs.Inner(err))
		}
		if id := f.KeyHash(); id != blocked.HashXXH3 {
			return bad("generation %d has key hash %v", i, id)
		}
		if i > 0 && (f.NumBlocks() != g.gens[0].NumBlocks() || f.K() != g.gens[0].K()) {
			return bad("generation %d has %d blocks (k = %d), generation 0 %d (k = %d)", i, f.NumBlocks(), f.K(), g.gens[0].NumBlocks(), g.gens[0].K())
		}
		g.gens = append(g.gens, f)
		rest = rest[sh.Size():]
	}
	if len(rest) != 0 {
		return bad("%d bytes after the last generation", len(rest))
	}
	g.setEpoch(g.epoch)
	if err := requireXXH3(blocked.HashID(h.Hash), "Window", "blocked.Filter generations"); err != nil {
		return err
	}
	if err := checkFamily[K](blocked.KeyFamily(h.Compat&format.CompatKeyMask), "Window"); err != nil {
		return err
	}
	*w = *g
	return nil
}
