package blocked

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

// The zero value of every filter and view type: lookups answer false and
// read-only methods 0 (never a fault: each kernel level runs in a child
// process of its own), mutations panic with a message naming the constructor, and
// decoding into a zero value works.

// zeroHashes are hashes whose blocks are the first, the last and others of
// any filter: a zero filter must not read a block for any of them.
var zeroHashes = []uint64{0, 1, 1 << 32, ^uint64(0), 0xffffffff00000000, 0x0123456789abcdef, 0xfedcba9876543210}

// checkZeroReads checks every lookup and read-only method of a zero value.
func checkZeroReads(t *testing.T, name string, r looker) {
	t.Helper()
	for _, h := range zeroHashes {
		if r.HasHash(h) {
			t.Errorf("%s: HasHash(%#x) is true", name, h)
		}
	}
	out := make([]bool, len(zeroHashes)+1)
	for i := range out {
		out[i] = true
	}
	if n := r.HasHashes(zeroHashes, out); n != 0 {
		t.Errorf("%s: HasHashes found %d", name, n)
	}
	for i, v := range out[:len(zeroHashes)] {
		if v {
			t.Errorf("%s: HasHashes left out[%d] true", name, i)
		}
	}
	if !out[len(zeroHashes)] {
		t.Errorf("%s: HasHashes wrote past len(hs)", name)
	}
	type figures interface {
		FillRatio() float64
		EstimatedFPR() float64
	}
	if f, ok := r.(figures); ok && (f.FillRatio() != 0 || f.EstimatedFPR() != 0) {
		t.Errorf("%s: fill %v, FPR %v, want 0", name, f.FillRatio(), f.EstimatedFPR())
	}
	type sizes interface {
		NumBlocks() uint64
		NumBits() uint64
	}
	if s, ok := r.(sizes); ok && (s.NumBlocks() != 0 || s.NumBits() != 0) {
		t.Errorf("%s: sizes %d %d, want both 0", name, s.NumBlocks(), s.NumBits())
	}
	if c, ok := r.(interface{ EstimatedCount() float64 }); ok && c.EstimatedCount() != 0 {
		t.Errorf("%s: EstimatedCount %v", name, c.EstimatedCount())
	}
	if k, ok := r.(interface{ K() int }); ok && k.K() != 0 {
		t.Errorf("%s: K %d", name, k.K())
	}
	e, ok := r.(readable)
	if !ok {
		return // a view: no encoders
	}
	if e.KeyHash() != HashUnspecified {
		t.Errorf("%s: KeyHash %v", name, e.KeyHash())
	}
	if b, err := e.MarshalBinary(); !errors.Is(err, errs.ErrGeometry) || len(b) != 0 {
		t.Errorf("%s: MarshalBinary %d bytes, %v; want errs.ErrGeometry", name, len(b), err)
	}
	if b, err := e.AppendBinary([]byte("x")); !errors.Is(err, errs.ErrGeometry) || string(b) != "x" {
		t.Errorf("%s: AppendBinary %q, %v; want b unchanged and errs.ErrGeometry", name, b, err)
	}
	var buf bytes.Buffer
	if n, err := e.WriteTo(&buf); !errors.Is(err, errs.ErrGeometry) || n != 0 || buf.Len() != 0 {
		t.Errorf("%s: WriteTo %d, %v; want nothing written and errs.ErrGeometry", name, n, err)
	}
}

// wantPanic checks that fn panics with a message containing want.
func wantPanic(t *testing.T, what, want string, fn func()) {
	t.Helper()
	defer func() {
		t.Helper()
		msg, _ := recover().(string)
		if !strings.Contains(msg, want) {
			t.Errorf("%s: panic %q, want one containing %q", what, msg, want)
		}
	}()
	fn()
}

func TestZeroFilter(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var z Filter
		checkZeroReads(t, "Filter", &z)
		for _, h := range zeroHashes {
			if z.HasHashAtomic(h) {
				t.Errorf("HasHashAtomic(%#x) is true", h)
			}
		}
		if n := z.HasHashesAtomic(zeroHashes, make([]bool, len(zeroHashes))); n != 0 {
			t.Errorf("HasHashesAtomic found %d", n)
		}
		checkZeroReads(t, "FilterView", &FilterView{})
		checkZeroReads(t, "Filter.Clone", z.Clone())
		z.Clear()
		f := mustBytes(t, 64*3, 8)
		f.AddHashes(zeroHashes)
		if !z.Equal(&Filter{}) || z.Equal(f) || f.Equal(&z) {
			t.Error("Equal: a zero Filter equals only a zero Filter")
		}
		for _, op := range []struct {
			name string
			fn   func(*Filter, *Filter) error
		}{{"Union", (*Filter).Union}, {"Intersect", (*Filter).Intersect}} {
			g := f.Clone()
			if err := op.fn(g, &z); !errors.Is(err, errs.ErrGeometry) || !g.Equal(f) {
				t.Errorf("%s with a zero argument: %v, want errs.ErrGeometry and no change", op.name, err)
			}
			wantPanic(t, op.name, op.name+" on a zero Filter; use blocked.New or NewBytes", func() { op.fn(&z, f) })
		}
		const msg = " on a zero Filter; use blocked.New or NewBytes"
		wantPanic(t, "AddHash", "AddHash"+msg, func() { z.AddHash(1) })
		wantPanic(t, "AddHashes", "AddHashes"+msg, func() { z.AddHashes(zeroHashes) })
		wantPanic(t, "AddHashes(nil)", "AddHashes"+msg, func() { z.AddHashes(nil) })
		wantPanic(t, "AddHashAtomic", "AddHashAtomic"+msg, func() { z.AddHashAtomic(1) })
		wantPanic(t, "AddHashesAtomic", "AddHashesAtomic"+msg, func() { z.AddHashesAtomic(zeroHashes) })
		checkZeroReads(t, "Filter after the panics", &z)
	})
}

func TestZeroSplitBlock(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var z SplitBlock
		checkZeroReads(t, "SplitBlock", &z)
		for _, h := range zeroHashes {
			if z.HasHashAtomic(h) {
				t.Errorf("HasHashAtomic(%#x) is true", h)
			}
		}
		if n := z.HasHashesAtomic(zeroHashes, make([]bool, len(zeroHashes))); n != 0 {
			t.Errorf("HasHashesAtomic found %d", n)
		}
		checkZeroReads(t, "SplitBlockView", &SplitBlockView{})
		checkZeroReads(t, "SplitBlock.Clone", z.Clone())
		if len(z.Bitset()) != 0 {
			t.Error("Bitset of a zero SplitBlock is not empty")
		}
		z.Clear()
		s := mustSplit(t, 32*3)
		s.AddHashes(zeroHashes)
		if !z.Equal(&SplitBlock{}) || z.Equal(s) || s.Equal(&z) {
			t.Error("Equal: a zero SplitBlock equals only a zero SplitBlock")
		}
		for _, op := range []struct {
			name string
			fn   func(*SplitBlock, *SplitBlock) error
		}{{"Union", (*SplitBlock).Union}, {"Intersect", (*SplitBlock).Intersect}} {
			g := s.Clone()
			if err := op.fn(g, &z); !errors.Is(err, errs.ErrGeometry) || !g.Equal(s) {
				t.Errorf("%s with a zero argument: %v, want errs.ErrGeometry and no change", op.name, err)
			}
			wantPanic(t, op.name, op.name+zeroSplitBlock, func() { op.fn(&z, s) })
		}
		const ctor = "on a zero SplitBlock; use blocked.NewSplitBlock, NewSplitBlockBytes or SplitBlockFromBitset"
		wantPanic(t, "AddHash", "AddHash "+ctor, func() { z.AddHash(1) })
		wantPanic(t, "AddHashes", "AddHashes "+ctor, func() { z.AddHashes(zeroHashes) })
		wantPanic(t, "AddHashes(nil)", "AddHashes "+ctor, func() { z.AddHashes(nil) })
		wantPanic(t, "AddHashAtomic", "AddHashAtomic "+ctor, func() { z.AddHashAtomic(1) })
		wantPanic(t, "AddHashesAtomic", "AddHashesAtomic "+ctor, func() { z.AddHashesAtomic(zeroHashes) })
	})
}

func TestZeroCounting(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		var z Counting
		checkZeroReads(t, "Counting", &z)
		checkZeroReads(t, "CountingView", &CountingView{})
		checkZeroReads(t, "Counting.Clone", z.Clone())
		if z.Saturated() != 0 {
			t.Error("Saturated of a zero Counting")
		}
		z.Clear()
		c := mustCounting(t, 64*3)
		c.AddHashes(zeroHashes)
		if !z.Equal(&Counting{}) || z.Equal(c) || c.Equal(&z) {
			t.Error("Equal: a zero Counting equals only a zero Counting")
		}
		const ctor = "on a zero Counting; use blocked.NewCounting or NewCountingBytes"
		wantPanic(t, "AddHash", "AddHash "+ctor, func() { z.AddHash(1) })
		wantPanic(t, "AddHashes", "AddHashes "+ctor, func() { z.AddHashes(zeroHashes) })
		wantPanic(t, "AddHashes(nil)", "AddHashes "+ctor, func() { z.AddHashes(nil) })
		wantPanic(t, "RemoveHash", "RemoveHash "+ctor, func() { z.RemoveHash(1) })
		wantPanic(t, "RemoveHashes", "RemoveHashes "+ctor, func() { z.RemoveHashes(zeroHashes) })
	})
}

// TestZeroDecode checks that UnmarshalBinary and ReadFrom into a zero value
// give the encoded filter, and that the result then works as any filter.
func TestZeroDecode(t *testing.T) {
	hs := randomHashes(500, 11)
	for _, c := range codecs {
		b, err := marshalHash(c.build(t, 9, hs), HashXXH3)
		if err != nil {
			t.Fatal(err)
		}
		u, r := c.fresh(), c.fresh() // zero values
		if err := u.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: UnmarshalBinary into a zero value: %v", c.name, err)
		}
		if n, err := r.ReadFrom(bytes.NewReader(b)); err != nil || n != int64(len(b)) {
			t.Fatalf("%s: ReadFrom into a zero value: %d, %v", c.name, n, err)
		}
		for _, e := range []encodable{u, r} {
			checkHas(t, c.name, e, hs)
			if again, _ := e.MarshalBinary(); !bytes.Equal(again, b) {
				t.Fatalf("%s: decoded zero value re-encodes differently", c.name)
			}
		}
	}
}
