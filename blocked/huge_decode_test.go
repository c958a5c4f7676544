package blocked

import (
	"bytes"
	"io"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/alloc"
	"github.com/simdbloom/bloom/internal/alloc/hugetest"
)

// TestDecodedHugePages: a filter of alloc.HugeFrom bytes or more gets its
// memory from internal/alloc whichever way it is made, decoded ones
// included (UnmarshalBinary, ReadFrom of a reader that tells its length
// and of a stream that does not, SplitBlockFromBitset): at a 2 MiB boundary
// and advised for huge pages (on Linux; hugetest calibrates), as New gives
// it; and equal to the filter encoded.
func TestDecodedHugePages(t *testing.T) {
	const size = alloc.HugeFrom + 4096
	hs := randomHashes(2000, 7)
	f := mustBytes(t, size, 8)
	f.AddHashes(hs)
	s := mustSplit(t, size)
	s.AddHashes(hs)
	c, err := NewCountingBytes(size)
	if err != nil {
		t.Fatal(err)
	}
	c.AddHashes(hs)
	check := func(what string, blocks unsafe.Pointer, n uint64, equal bool) {
		t.Helper()
		if !equal {
			t.Errorf("%s: not equal to the filter encoded", what)
		}
		hugetest.Check(t, what, blocks, n)
	}
	ptr := func(mem []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(mem)) }
	check("NewBytes", ptr(f.mem()), size, true)
	check("Filter.Clone", ptr(f.Clone().mem()), size, true)

	readers := map[string]func(b []byte) io.Reader{
		"ReadFrom":            func(b []byte) io.Reader { return bytes.NewReader(b) },
		"ReadFrom (streamed)": func(b []byte) io.Reader { return noLenReader{bytes.NewReader(b)} },
	}
	enc, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g Filter
	if err := g.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	check("Filter.UnmarshalBinary", ptr(g.mem()), size, g.Equal(f))
	for name, r := range readers {
		var g Filter
		if _, err := g.ReadFrom(r(enc)); err != nil {
			t.Fatal(err)
		}
		check("Filter."+name, ptr(g.mem()), size, g.Equal(f))
	}

	if enc, err = s.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	var gs SplitBlock
	if err := gs.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	check("SplitBlock.UnmarshalBinary", ptr(gs.bytes()), size, gs.Equal(s))
	for name, r := range readers {
		var gs SplitBlock
		if _, err := gs.ReadFrom(r(enc)); err != nil {
			t.Fatal(err)
		}
		check("SplitBlock."+name, ptr(gs.bytes()), size, gs.Equal(s))
	}
	fb, err := SplitBlockFromBitset(s.Bitset())
	if err != nil {
		t.Fatal(err)
	}
	check("SplitBlockFromBitset", ptr(fb.bytes()), size, fb.Equal(s))

	if enc, err = c.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	var gc Counting
	if err := gc.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	check("Counting.UnmarshalBinary", ptr(gc.mem()), size, gc.Equal(c))
	for name, r := range readers {
		var gc Counting
		if _, err := gc.ReadFrom(r(enc)); err != nil {
			t.Fatal(err)
		}
		check("Counting."+name, ptr(gc.mem()), size, gc.Equal(c))
	}
}
