package bloom

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// Scalable[K] encodes as FORMAT.md's variant 5: a header (k = 0, blocks =
// number of stages, key hash xxh3), then a 64-byte parameter block and each
// stage's whole Filter encoding, oldest first. The parameters are what the
// filter needs to grow on exactly as it would have: a decoded Scalable adds
// stages at the same keys, of the same sizes, as the one encoded.

// Offsets in the parameter block.
const (
	spFPR        = 0  // float64: total false-positive rate
	spGrowth     = 8  // float64: growth factor
	spTightening = 16 // float64: tightening ratio
	spInitial    = 24 // uint64: keys planned for the first stage
	spPlanned    = 32 // uint64: keys planned for the newest stage (2^64-1: growth stopped)
	spCount      = 40 // uint64: keys added to the newest stage
	spNextCheck  = 48 // uint64: count at which the newest stage's fill is next read
	spReserved   = 56 // uint64: zero
)

// header returns the framing header of s (payload CRC left to the framing).
func (s *Scalable[K]) header() (format.Header, error) {
	if len(s.stages) == 0 {
		return format.Header{}, zeroEncode("Scalable", "NewScalable")
	}
	n := uint64(format.ScalableParamBytes)
	for _, f := range s.stages {
		n += format.HeaderSize + (f.NumBits() / 8)
	}
	return format.Header{
		Version:      format.Version,
		Variant:      format.Scalable,
		Blocks:       uint64(len(s.stages)),
		Hash:         uint8(blocked.HashXXH3),
		PayloadBytes: n,
		Compat:       uint32(keyFamily[K]()), // the key family (keyfamily.go); the stages record none
	}, nil
}

// params returns the parameter block.
func (s *Scalable[K]) params() []byte {
	p := make([]byte, format.ScalableParamBytes)
	le := binary.LittleEndian
	le.PutUint64(p[spFPR:], math.Float64bits(s.fpr))
	le.PutUint64(p[spGrowth:], math.Float64bits(s.growth))
	le.PutUint64(p[spTightening:], math.Float64bits(s.tightening))
	le.PutUint64(p[spInitial:], s.initial)
	le.PutUint64(p[spPlanned:], s.planned)
	le.PutUint64(p[spCount:], s.count)
	le.PutUint64(p[spNextCheck:], s.nextCheck)
	return p
}

// MarshalBinary returns the encoding of s. It returns an error wrapping
// ErrGeometry for the zero Scalable, and one wrapping ErrTooLarge for an
// encoding larger than this process can allocate.
func (s *Scalable[K]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// AppendBinary appends the encoding of s to b, as MarshalBinary. On error
// (ErrTooLarge only when b lacks the room) it returns b unchanged.
func (s *Scalable[K]) AppendBinary(b []byte) ([]byte, error) {
	h, err := s.header()
	if err != nil {
		return b, err
	}
	return appendChain(b, h, s.params(), s.stages)
}

// appendChain appends the encoding with header h of a chain of filters (a
// Scalable's stages, a Window's generations): the parameter block params,
// then each filter's whole encoding. Whatever fails, it returns b
// unchanged with the error (ErrTooLarge only when b lacks the room).
func appendChain(b []byte, h format.Header, params []byte, filters []*blocked.Filter) ([]byte, error) {
	var ferr error
	out, err := format.Append(b, h, func(p []byte) {
		q := p[copy(p, params):][:0]
		for _, f := range filters {
			if q, ferr = f.AppendBinary(q); ferr != nil { // within p's capacity: no allocation
				return
			}
		}
	})
	if err == nil {
		err = ferr
	}
	if err != nil {
		return b, err
	}
	return out, nil
}

// WriteTo writes the encoding of s to w, each stage streamed from its
// memory, and returns the number of bytes written. It reads every stage
// twice: once for the checksum, which the header carries, then to write.
func (s *Scalable[K]) WriteTo(w io.Writer) (int64, error) {
	h, err := s.header()
	if err != nil {
		return 0, err
	}
	return format.Write(w, h, func(yield func([]byte) bool) {
		if !yield(s.params()) {
			return
		}
		for _, f := range s.stages {
			cw := chunkWriter{yield: yield}
			if f.WriteTo(&cw); cw.stopped {
				return
			}
		}
	})
}

// chunkWriter passes what is written to it to yield until yield says stop.
type chunkWriter struct {
	yield   func([]byte) bool
	stopped bool
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	if c.stopped || !c.yield(p) {
		c.stopped = true
		return 0, io.ErrShortWrite
	}
	return len(p), nil
}

// UnmarshalBinary replaces s with the filter encoded in b (by MarshalBinary
// or WriteTo). On error s is unchanged. It copies b; the zero Scalable may
// be the receiver.
func (s *Scalable[K]) UnmarshalBinary(b []byte) error {
	h, p, err := format.Decode(b, format.Scalable)
	if err != nil {
		return err
	}
	g, err := decodeScalable[K](h, p)
	if err != nil {
		return err
	}
	*s = *g
	return nil
}

// ReadFrom replaces s with the filter encoded at the start of r, reading
// exactly its bytes, and returns the number of bytes read. On error s is
// unchanged. Memory grows with the bytes read, whatever the header
// announces. At the end of r (no byte read) it returns 0, io.EOF, so
// concatenated encodings are read in a loop until io.EOF.
func (s *Scalable[K]) ReadFrom(r io.Reader) (int64, error) {
	h, p, n, err := format.Read(r, format.Scalable)
	if err != nil {
		return n, err
	}
	g, err := decodeScalable[K](h, p)
	if err != nil {
		return n, err
	}
	*s = *g
	return n, nil
}

// decodeScalable builds a Scalable from a checked header and its payload
// (length and CRC checked): readChain's checks, each stage decoded (its
// payload CRC checked) into memory of its own.
func decodeScalable[K Key](h format.Header, p []byte) (*Scalable[K], error) {
	g := &Scalable[K]{kind: kindOf[K]()} // stages appended as they pass: no memory for a count the header merely claims
	newestPlanned, err := g.readChain(h, p, func(b []byte) error {
		f := new(blocked.Filter)
		if err := f.UnmarshalBinary(b); err != nil {
			return err
		}
		g.stages = append(g.stages, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	newest := g.stages[len(g.stages)-1]
	g.fillAt = blocked.Fill(newestPlanned, newest.NumBlocks(), newest.K())
	if g.planned == math.MaxUint64 {
		next := nextPlanned(newestPlanned, g.growth)
		_, err := stageSize(next, g.stageFPR(len(g.stages)))
		if err == nil { // it can be sized: the encoding platform could not allocate it
			err = fmt.Errorf("%w: growth stopped before the filter was encoded", ErrTooLarge)
		}
		g.err = fmt.Errorf("%w; so Scalable stage %d (%d keys) is not made, and stage %d takes every further key", err, len(g.stages), next, len(g.stages)-1)
	}
	return g, nil
}

// readChain sets g's parameters from the parameter block of the Scalable
// encoding with checked header h and payload p (its length checked), and
// checks them and the chain of stages, for decodeScalable and
// ScalableView.Reset: the parameters each in the range its option allows
// (or allowed when written), adds within the plan; then each stage, which
// open makes from its whole Filter encoding (header checked, of the length
// it announces: format.Stage): valid, with key hash xxh3, no smaller than
// the one before, sized as blocked.New sizes its planned keys at its rate
// (so the parameters describe the stages present, and the next stage is
// sized from keys the input vouches for); then the newest stage's planned
// keys the ones growth from the initial keys gives for that many stages
// (or growth stopped), the stages filling the payload exactly; last the
// header's key hash and key family. Its time grows with the stages it
// reaches, not with the count h claims, and it allocates nothing but
// errors (open may). It returns the newest stage's planned keys.
func (g *Scalable[K]) readChain(h format.Header, p []byte, open func(b []byte) error) (uint64, error) {
	le := binary.LittleEndian
	g.fpr = math.Float64frombits(le.Uint64(p[spFPR:]))
	g.growth = math.Float64frombits(le.Uint64(p[spGrowth:]))
	g.tightening = math.Float64frombits(le.Uint64(p[spTightening:]))
	g.initial = le.Uint64(p[spInitial:])
	g.planned = le.Uint64(p[spPlanned:])
	g.count = le.Uint64(p[spCount:])
	g.nextCheck = le.Uint64(p[spNextCheck:])
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: Scalable: "+format, append([]any{ErrCorrupt}, a...)...)
	}
	switch {
	case le.Uint64(p[spReserved:]) != 0:
		return 0, bad("reserved parameter word is not zero")
	case !(g.fpr > 0 && g.fpr < 1):
		return 0, bad("false-positive rate %v", g.fpr)
	case !(g.growth >= 1 && g.growth <= 1e6):
		return 0, bad("growth factor %v", g.growth)
	case !(g.tightening > 0 && g.tightening < 1):
		return 0, bad("tightening ratio %v", g.tightening)
	case g.initial == 0:
		return 0, bad("0 keys planned for the first stage")
	}
	step := max(1, g.planned/16)
	if g.count > g.planned || g.nextCheck == 0 || (g.nextCheck > g.count && g.nextCheck-g.count > step) {
		return 0, bad("%d keys added, %d planned, next check at %d", g.count, g.planned, g.nextCheck)
	}
	// Stage by stage, each planned key count computed as its stage is
	// reached: time and memory grow with the stages the input holds, not
	// with the count its header claims.
	rest := p[format.ScalableParamBytes:]
	var prevBlocks uint64
	planned := g.initial // of stage i
	for i := range h.Blocks {
		if i > 0 {
			planned = nextPlanned(planned, g.growth)
		}
		sh, err := format.Stage(rest, i)
		if err != nil {
			return 0, err
		}
		if err := open(rest[:sh.Size()]); err != nil {
			return 0, format.StageError(i, err)
		}
		if id := blocked.HashID(sh.Hash); id != blocked.HashXXH3 {
			return 0, bad("stage %d has key hash %v", i, id)
		}
		if i > 0 && sh.Blocks < prevBlocks {
			return 0, bad("stage %d is smaller than the one before", i)
		}
		if err := checkStageSize(sh.Blocks, int(sh.K), planned, g.stageFPR(int(i))); err != nil {
			return 0, bad("stage %d: %w", i, err)
		}
		prevBlocks = sh.Blocks
		rest = rest[sh.Size():]
	}
	if g.planned != planned && g.planned != math.MaxUint64 {
		return 0, bad("%d keys planned for stage %d, growth from %d gives %d", g.planned, h.Blocks, g.initial, planned)
	}
	if err := format.StagesEnd(rest); err != nil {
		return 0, err
	}
	if err := requireXXH3(blocked.HashID(h.Hash), "Scalable", "a chain of blocked.Filter"); err != nil {
		return 0, err
	}
	if err := checkFamily[K](blocked.KeyFamily(h.Compat&format.CompatKeyMask), "Scalable"); err != nil {
		return 0, err
	}
	return planned, nil
}

// checkStageSize returns an error unless a stage of b blocks and k bits per
// key has about the blocks that blocked.New gives that k for planned keys
// at rate p: the fewest blocks that
// reach p lie within 1 + blocks/8 of its own (slack for float rounding
// across platforms and refinements of the sizing math). Fewer would mean
// the parameters plan for more keys than the stage was made for, so that
// the stages after it would be sized from keys the input does not hold.
func checkStageSize(b uint64, k int, planned uint64, p float64) error {
	slack := 1 + b/8
	if !(blocked.FPR(planned, b+slack, k) <= p) {
		return fmt.Errorf("blocks: %d (k = %d), too few for the %d keys it plans for at rate %g", b, k, planned, p)
	}
	if b > slack && blocked.FPR(planned, b-slack, k) <= p {
		return fmt.Errorf("blocks: %d (k = %d), too many for the %d keys it plans for at rate %g", b, k, planned, p)
	}
	return nil
}
