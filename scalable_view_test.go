package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// scalableOf returns a Scalable[K] of n keys made by key from 0 to n-1,
// with stages planned for initial keys at first.
func scalableOf[K Key](t testing.TB, initial uint64, n int, key func(i int) K) *Scalable[K] {
	t.Helper()
	s, err := NewScalable[K](initial, 0.01, WithGrowth(1.5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		s.Add(key(i))
	}
	return s
}

// checkViewAgrees fails t unless a ScalableView[K] Reset to b answers as
// s for keys made by key from 0 to 2n-1 (half of them added), by Has and
// HasAll.
func checkViewAgrees[K Key](t *testing.T, what string, v *ScalableView[K], s *Scalable[K], n int, key func(i int) K) {
	t.Helper()
	keys := make([]K, 2*n)
	for i := range keys {
		keys[i] = key(i)
	}
	want := make([]bool, len(keys))
	got := make([]bool, len(keys))
	wn := s.HasAll(keys, want)
	if gn := v.HasAll(keys, got); gn != wn || !slicesEqual(got, want) {
		t.Fatalf("%s: HasAll finds %d, the Scalable %d", what, gn, wn)
	}
	for i, k := range keys {
		if v.Has(k) != want[i] {
			t.Fatalf("%s: key %d: Has %v, the Scalable %v", what, i, !want[i], want[i])
		}
	}
	if wn < n || wn == len(keys) {
		t.Fatalf("%s: %d of %d keys found, %d added: the test shows nothing", what, wn, len(keys), n)
	}
}

func slicesEqual(a, b []bool) bool { return bytes.Equal(boolBytes(a), boolBytes(b)) }

func boolBytes(a []bool) []byte {
	b := make([]byte, len(a))
	for i, v := range a {
		b[i] = b2i(v)
	}
	return b
}

// TestScalableViewAgrees checks that a ScalableView answers as the
// Scalable it views and as the one decoded from the same bytes, for
// string, []byte, uint64 and int32 keys, one stage or many, at payload
// offsets that are not aligned; that one view Reset from a many-stage
// encoding to a one-stage one and back answers for each, without
// allocating; and that it reads the bytes in place.
func TestScalableViewAgrees(t *testing.T) {
	skipBigEndian(t)
	str := func(i int) string { return fmt.Sprint("key-", i) }
	for _, n := range []int{10, 3000} {
		s := scalableOf(t, 40, n, str)
		b := mustMarshal(t, s)
		var d Scalable[string]
		if err := d.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		for _, off := range []int{0, 1, 7, 33} {
			var v ScalableView[string]
			if err := v.Reset(unalignedAt(b, off)); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%d keys (%d stages), offset %d", n, s.Stages(), off)
			checkViewAgrees(t, what, &v, s, n, str)
			checkViewAgrees(t, what+", decoded", &v, &d, n, str)
			var vb ScalableView[[]byte]
			if err := vb.Reset(unalignedAt(b, off)); err != nil {
				t.Fatal(err)
			}
			sb := scalableOf(t, 40, n, func(i int) []byte { return []byte(str(i)) })
			checkViewAgrees(t, what+", []byte", &vb, sb, n, func(i int) []byte { return []byte(str(i)) })
		}
	}
	many := scalableOf(t, 30, 5000, func(i int) uint64 { return uint64(i) * 0x9e3779b9 })
	one := scalableOf(t, 5000, 200, func(i int) uint64 { return uint64(i) * 0x9e3779b9 })
	if many.Stages() < 5 || one.Stages() != 1 {
		t.Fatalf("%d and %d stages, want 5 or more and 1", many.Stages(), one.Stages())
	}
	bm, bo := mustMarshal(t, many), mustMarshal(t, one)
	var v ScalableView[uint64]
	for round := range 2 {
		for _, c := range []struct {
			s *Scalable[uint64]
			b []byte
			n int
		}{{many, bm, 5000}, {one, bo, 200}} {
			if err := v.Reset(c.b); err != nil {
				t.Fatal(err)
			}
			checkViewAgrees(t, fmt.Sprintf("round %d, %d stages", round, c.s.Stages()), &v, c.s, c.n, func(i int) uint64 { return uint64(i) * 0x9e3779b9 })
		}
	}
	probe, found := []uint64{0, 1, 2}, make([]bool, 3)
	if a := testing.AllocsPerRun(20, func() {
		if v.Reset(bm) != nil || v.Reset(bo) != nil || !v.Has(0) || v.HasAll(probe, found) == 0 {
			t.Fatal("Reset, Has or HasAll failed")
		}
	}); a != 0 {
		t.Errorf("Reset, Has and HasAll of a view that held as many stages allocate %v times", a)
	}
	// int32 keys: a Scalable of any integer type reads as any other.
	si := scalableOf(t, 50, 1000, func(i int) int32 { return int32(i - 500) })
	var vi ScalableView[int32]
	if err := vi.Reset(mustMarshal(t, si)); err != nil {
		t.Fatal(err)
	}
	checkViewAgrees(t, "int32", &vi, si, 1000, func(i int) int32 { return int32(i - 500) })
	// In place: with every stage's blocks cleared, no key is found.
	b := bytes.Clone(bm)
	if err := v.Reset(b); err != nil || !v.Has(0) {
		t.Fatal("Reset", err)
	}
	for _, st := range stageSpans(t, b) {
		clear(b[st[0]+format.HeaderSize : st[1]])
	}
	for i := range 5000 {
		if v.Has(uint64(i) * 0x9e3779b9) {
			t.Fatalf("key %d found in cleared stages: the view copied the bytes", i)
		}
	}
}

// stageSpans returns where each stage of the good Scalable encoding b
// starts and ends.
func stageSpans(t *testing.T, b []byte) [][2]int {
	t.Helper()
	var spans [][2]int
	for off := format.HeaderSize + format.ScalableParamBytes; off < len(b); {
		h, err := format.Parse(b[off:], 0)
		if err != nil {
			t.Fatal(err)
		}
		spans = append(spans, [2]int{off, off + int(h.Size())})
		off += int(h.Size())
	}
	return spans
}

// fixStage makes the checksums of the stage header at b[off:] right again,
// the payload's where the header's length lies within b.
func fixStage(b []byte, off int) {
	n := binary.LittleEndian.Uint64(b[off+format.OffPayloadLen:])
	if end := uint64(off) + format.HeaderSize + n; n < 1<<40 && end <= uint64(len(b)) {
		binary.LittleEndian.PutUint32(b[off+format.OffPayloadCRC:], format.CRC(b[off+format.HeaderSize:end]))
	}
	binary.LittleEndian.PutUint32(b[off+format.OffHeaderCRC:], format.CRC(b[off:off+format.OffHeaderCRC]))
}

// checkViewLikeDecoder fails t unless Reset of a ScalableView[uint64] on b
// does what Scalable[uint64].UnmarshalBinary does: the same error, word for
// word, or both accept b and answer alike. Where the decoder finds a
// payload checksum wrong, which Reset does not check, Reset may accept b or
// refuse it, with one of the format's errors; blocked.Verify refuses it
// then, and accepts b where the decoder does.
func checkViewLikeDecoder(t *testing.T, what string, v *ScalableView[uint64], b []byte) {
	t.Helper()
	var d Scalable[uint64]
	derr := d.UnmarshalBinary(b)
	verr := v.Reset(b)
	if err := blocked.Verify(b); (err == nil) != (derr == nil) && (derr == nil || errors.Is(derr, ErrChecksum)) {
		t.Fatalf("%s: Verify: %v; UnmarshalBinary: %v", what, err, derr)
	}
	switch {
	case derr != nil && errors.Is(derr, ErrChecksum) && !strings.Contains(derr.Error(), "header CRC"):
		if verr != nil && !isFormatError(verr) {
			t.Fatalf("%s: Reset: %v is none of the format's errors", what, verr)
		}
	case (verr == nil) != (derr == nil) || verr != nil && verr.Error() != derr.Error():
		t.Fatalf("%s: Reset: %v; UnmarshalBinary: %v", what, verr, derr)
	case verr == nil:
		for i := range 64 {
			if k := uint64(i) * 7919; v.Has(k) != d.Has(k) {
				t.Fatalf("%s: key %d: the view %v, the decoded filter %v", what, k, v.Has(k), d.Has(k))
			}
		}
	}
	if verr != nil && (v.Has(0) || v.HasAll([]uint64{1, 2}, make([]bool, 2)) != 0) {
		t.Fatalf("%s: the view finds keys after Reset failed", what)
	}
}

func isFormatError(err error) bool {
	for _, s := range []error{ErrMagic, ErrVersion, ErrVariant, ErrChecksum, ErrTruncated, ErrCorrupt, ErrHashMismatch} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// TestScalableViewHostile damages every byte of a Scalable encoding's
// header, parameters and first and last stage headers in turn (checksums
// made right, so that the damage is what the checks find), random bytes
// there with or without, and its length, and checks that Reset refuses
// exactly what UnmarshalBinary refuses, with the same error, or answers as
// the decoded filter, and never reads outside b.
func TestScalableViewHostile(t *testing.T) {
	skipBigEndian(t)
	s := scalableOf(t, 30, 600, func(i int) uint64 { return uint64(i) * 7919 })
	good := mustMarshal(t, s)
	spans := stageSpans(t, good)
	if len(spans) < 3 {
		t.Fatalf("%d stages, want 3 or more", len(spans))
	}
	first, last := spans[0][0], spans[len(spans)-1][0]
	var v ScalableView[uint64]
	fix := func(b []byte, at int) []byte {
		switch {
		case at >= last:
			fixStage(b, last)
		case at >= first && at < first+format.HeaderSize:
			fixStage(b, first)
		}
		return refixed(b)
	}
	var offsets []int
	for i := range first + format.HeaderSize {
		offsets = append(offsets, i)
	}
	for i := range format.HeaderSize {
		offsets = append(offsets, last+i)
	}
	for _, at := range offsets {
		for _, x := range []byte{0, 1, 0x80, 0xff} {
			b := bytes.Clone(good)
			if x == 0 || x == 0xff {
				b[at] = x
			} else {
				b[at] ^= x
			}
			checkViewLikeDecoder(t, fmt.Sprintf("byte %d ^ %#x (fixed)", at, x), &v, unalignedAt(fix(b, at), at%5))
		}
	}
	r := rand.New(rand.NewPCG(29, 2))
	for i := range 3000 {
		b := bytes.Clone(good)
		at := offsets[r.IntN(len(offsets))]
		b[at] = byte(r.Uint32())
		if i%3 != 0 {
			fix(b, at)
		}
		switch r.IntN(4) {
		case 0:
			b = b[:r.IntN(len(b)+1)]
		case 1:
			b = append(b, make([]byte, 64*r.IntN(3))...)
			refixed(b)
		}
		checkViewLikeDecoder(t, fmt.Sprintf("random %d: byte %d", i, at), &v, b[:len(b):len(b)])
	}
	// A stage's payload damaged: the decoder finds it by its checksum;
	// Reset does not read the payloads, and blocked.Verify, which checks
	// every stage's checksum, is the check (TestScalableVerifyChecksStages).
	b := bytes.Clone(good)
	b[first+format.HeaderSize] ^= 1
	refixed(b)
	if err := v.Reset(b); err != nil {
		t.Fatalf("Reset read a stage's payload: %v", err)
	}
	if err := blocked.Verify(b); !errors.Is(err, ErrChecksum) {
		t.Fatalf("Verify of a damaged stage payload, the outer checksum made right: %v", err)
	}
	if err := new(Scalable[uint64]).UnmarshalBinary(b); !errors.Is(err, ErrChecksum) {
		t.Fatalf("UnmarshalBinary of a damaged stage payload: %v", err)
	}
}

// TestScalableViewRefuses checks that Reset refuses, with the error that
// says so and leaving the zero view, a Filter encoding, a Scalable of the
// other key family and one whose header records another key hash.
func TestScalableViewRefuses(t *testing.T) {
	skipBigEndian(t)
	f, _ := New[string](100, 0.01)
	fb, _ := f.MarshalBinary()
	s := scalableOf(t, 30, 300, func(i int) string { return fmt.Sprint(i) })
	sb := mustMarshal(t, s)
	other := bytes.Clone(sb)
	other[format.OffHash] = byte(blocked.HashXXH64)
	refixed(other)
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"a Filter", fb, ErrVariant},
		{"integer keys", sb, ErrHashMismatch},
		{"key hash xxh64", other, ErrHashMismatch},
		{"nothing", nil, ErrTruncated},
	} {
		var v ScalableView[uint64]
		if err := v.Reset(mustMarshal(t, scalableOf(t, 30, 300, func(i int) uint64 { return uint64(i) }))); err != nil || !v.Has(1) {
			t.Fatal("Reset of a good encoding", err)
		}
		err := v.Reset(c.b)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Reset %v, want %v", c.name, err, c.want)
		}
		if v.Has(1) || v.HasAll([]uint64{1}, []bool{true}) != 0 {
			t.Errorf("%s: the view finds keys after Reset failed", c.name)
		}
	}
}

// TestScalableViewZero checks the zero view: lookups answer false, HasAll
// clears out, and a short out panics naming HasAll.
func TestScalableViewZero(t *testing.T) {
	var v ScalableView[string]
	out := []bool{true, true, true}
	if v.Has("a") || v.HasAll([]string{"a", "b"}, out) != 0 || out[0] || out[1] || !out[2] {
		t.Fatal("the zero view finds keys or leaves out unset")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "ScalableView.HasAll") {
			t.Fatalf("HasAll with a short out: %v", r)
		}
	}()
	v.HasAll([]string{"a", "b"}, out[:1])
}
