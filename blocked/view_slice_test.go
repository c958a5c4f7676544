package blocked

import "testing"

// TestViewResetSliceHeader checks, on every platform (32-bit ones
// included), that Reset gives a view whose blocks have the length and
// capacity of the encoding's blocks and that it writes nothing past the
// view: each view sits between two guard words that must keep their
// values.
func TestViewResetSliceHeader(t *testing.T) {
	if !littleEndian {
		t.Skip("views need a little-endian machine")
	}
	const guard = 0x5a5a5a5a5a5a5a5a
	hs := randomHashes(100, 7)
	for _, c := range codecs {
		for _, nb := range []uint64{1, 3, 37} {
			f := c.build(t, nb, hs)
			b, err := marshalHash(f, HashXXH3)
			if err != nil {
				t.Fatal(err)
			}
			var n, capacity int
			var before, after uint64
			switch c.variant {
			case variantFilter:
				g := struct {
					before uint64
					v      FilterView
					after  uint64
				}{before: guard, after: guard}
				if err := g.v.Reset(b); err != nil {
					t.Fatalf("%s: Reset: %v", c.name, err)
				}
				n, capacity, before, after = len(g.v.f.blocks), cap(g.v.f.blocks), g.before, g.after
			case variantSplitBlock:
				g := struct {
					before uint64
					v      SplitBlockView
					after  uint64
				}{before: guard, after: guard}
				if err := g.v.Reset(b); err != nil {
					t.Fatalf("%s: Reset: %v", c.name, err)
				}
				n, capacity, before, after = len(g.v.s.blocks), cap(g.v.s.blocks), g.before, g.after
			case variantCounting:
				g := struct {
					before uint64
					v      CountingView
					after  uint64
				}{before: guard, after: guard}
				if err := g.v.Reset(b); err != nil {
					t.Fatalf("%s: Reset: %v", c.name, err)
				}
				n, capacity, before, after = len(g.v.c.blocks), cap(g.v.c.blocks), g.before, g.after
			default:
				t.Fatalf("%s: no view for variant %v", c.name, c.variant)
			}
			if uint64(n) != nb || uint64(capacity) != nb {
				t.Errorf("%s, %d blocks: the view's blocks have length %d and capacity %d", c.name, nb, n, capacity)
			}
			if before != guard || after != guard {
				t.Errorf("%s, %d blocks: Reset wrote outside the view: guards %#x and %#x, want %#x", c.name, nb, before, after, uint64(guard))
			}
		}
	}
}
