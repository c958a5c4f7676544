package main

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/errs"
	"github.com/simdbloom/bloom/internal/format"
)

// scalableEncoding returns the encoding of a Scalable[uint64] of n keys
// planned for initial keys in its first stage.
func scalableEncoding(tb testing.TB, initial uint64, n int) []byte {
	tb.Helper()
	s, err := bloom.NewScalable[uint64](initial, 0.01)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range uint64(n) {
		s.Add(i)
	}
	b, err := s.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// reframe rewrites the outer header of the Scalable encoding b with edit
// applied, its payload CRC recomputed (unless the flag says none).
func reframe(t *testing.T, b []byte, edit func(h *format.Header)) []byte {
	t.Helper()
	b = bytes.Clone(b)
	h, err := format.Parse(b, format.Scalable)
	if err != nil {
		t.Fatal(err)
	}
	edit(&h)
	if h.HasPayloadCRC() {
		h.PayloadCRC = format.CRC(b[format.HeaderSize:])
	}
	h.Put(b)
	return b
}

// checkEncoding accepts a valid Scalable, with and without checksums, and
// refuses each way its stages can disagree with its header or their own
// checksums, with the error the library's decoder would match.
func TestCheckEncodingScalable(t *testing.T) {
	good := scalableEncoding(t, 500, 5000)
	h, err := format.Parse(good, format.Scalable)
	if err != nil || h.Blocks < 3 {
		t.Fatalf("%d stages (%v), want 3 or more", h.Blocks, err)
	}
	for _, crcs := range []bool{false, true} {
		if err := checkEncoding(good, crcs); err != nil {
			t.Errorf("valid, crcs %v: %v", crcs, err)
		}
	}
	stage1 := format.HeaderSize + format.ScalableParamBytes
	sh, _ := format.Parse(good[stage1:], format.Filter)
	stage1 += int(sh.Size())
	damaged := bytes.Clone(good)
	damaged[stage1+format.HeaderSize+7] ^= 0x10 // stage 1's payload
	lastByte := bytes.Clone(good)
	lastByte[len(lastByte)-1] ^= 1 // the newest stage's payload, outer CRC stale
	for _, c := range []struct {
		name   string
		b      []byte
		crcs   bool // the error is found only with checksums
		target error
		want   string
	}{
		{"a stage more than there are", reframe(t, good, func(h *format.Header) { h.Blocks++ }), false, errs.ErrCorrupt, fmt.Sprintf("stage %d", h.Blocks)},
		{"a stage fewer than there are", reframe(t, good, func(h *format.Header) { h.Blocks-- }), false, errs.ErrCorrupt, "bytes after the"},
		{"a stage header damaged", reframe(t, append(append([]byte{}, good[:stage1+9]...), append([]byte{good[stage1+9] ^ 1}, good[stage1+10:]...)...), func(*format.Header) {}), false, errs.ErrChecksum, "stage 1"},
		{"a stage payload damaged, outer CRC recomputed", reframe(t, damaged, func(*format.Header) {}), true, errs.ErrChecksum, "stage 1"},
		{"a stage payload damaged, no outer CRC", reframe(t, damaged, func(h *format.Header) { h.Incompat |= format.IncompatNoPayloadCRC; h.PayloadCRC = 0 }), true, errs.ErrChecksum, "stage 1"},
		{"a stage payload damaged, outer CRC stale", lastByte, true, errs.ErrChecksum, "payload CRC-32C"}, // the outer CRC is checked first
		{"the parameters damaged, outer CRC stale", append(append(bytes.Clone(good[:format.HeaderSize]), good[format.HeaderSize]^1), good[format.HeaderSize+1:]...), true, errs.ErrChecksum, "payload CRC-32C"},
	} {
		for _, crcs := range []bool{false, true} {
			err := checkEncoding(c.b, crcs)
			if !crcs && c.crcs {
				if err != nil {
					t.Errorf("%s, without checksums: %v; want it accepted (only a checksum tells)", c.name, err)
				}
				continue
			}
			if !errors.Is(err, c.target) || !bytes.Contains([]byte(fmt.Sprint(err)), []byte(c.want)) {
				t.Errorf("%s, crcs %v: %v; want an error matching %v with %q", c.name, crcs, err, c.target, c.want)
			}
		}
		// The library refuses the same bytes, with the same kind of error.
		var s bloom.Scalable[uint64]
		if err := s.UnmarshalBinary(c.b); !errors.Is(err, c.target) {
			t.Errorf("%s: Scalable.UnmarshalBinary: %v; want an error matching %v", c.name, err, c.target)
		}
	}
}

// checkEncoding never panics, and it agrees with the library: what it
// accepts with checksums blocked.Verify accepts, and what the library's
// decoder accepts (Scalable.UnmarshalBinary checks the stages, their
// checksums and more) it accepts.
func FuzzCheckEncoding(f *testing.F) {
	s := scalableEncoding(f, 50, 500)
	f.Add(s)
	noCRC := bytes.Clone(s)
	h, err := format.Parse(noCRC, format.Scalable)
	if err != nil {
		f.Fatal(err)
	}
	h.Incompat |= format.IncompatNoPayloadCRC
	h.PayloadCRC = 0
	h.Put(noCRC)
	f.Add(noCRC)
	bf, _ := blocked.New(100, 0.01)
	b, _ := bf.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		withCRCs, without := checkEncoding(b, true), checkEncoding(b, false)
		if withCRCs == nil && without != nil {
			t.Fatalf("accepted with checksums, refused without: %v", without)
		}
		if withCRCs == nil {
			if err := blocked.Verify(b); err != nil {
				t.Fatalf("checkEncoding accepts what blocked.Verify refuses: %v", err)
			}
		}
		var s bloom.Scalable[uint64]
		if s.UnmarshalBinary(b) == nil && withCRCs != nil {
			t.Fatalf("Scalable.UnmarshalBinary accepts what checkEncoding refuses: %v", withCRCs)
		}
	})
}
