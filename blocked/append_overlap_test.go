package blocked

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestAppendFilterHashesInDst checks AppendFilter when the hashes lie in
// the memory it builds into: a caller with one scratch buffer stages the
// hashes in dst's spare capacity (under the header, the payload, or across
// its end) and builds into dst. The encoding must still be the one
// New-then-AddHashes-then-AppendBinary gives, holding every key, with dst's
// contents kept; hashes past the bytes it writes leave it building in place.
func TestAppendFilterHashesInDst(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		const nkeys = 1000
		keys := randomHashes(nkeys, 281)
		for _, k := range []int{8, 16} {
			for _, nb := range []uint64{1, 40} {
				n := HeaderSize + int(nb)*64
				f := mustBytes(t, nb*64, k)
				f.AddHashes(keys)
				f.SetKeyHash(HashXXH3)
				want, _ := f.MarshalBinary()
				for _, pre := range []int{0, 8, 64} {
					// at: where the hashes start, in bytes from where the
					// encoding starts; n and beyond is past it.
					for _, at := range []int{-pre, 0, HeaderSize / 2, HeaderSize, HeaderSize + 64*int(nb)/2, n - 8, n} {
						words := make([]uint64, (pre+n)/8+nkeys+8)
						buf := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
						hs := unsafe.Slice((*uint64)(unsafe.Pointer(&buf[pre+at])), nkeys)
						copy(hs, keys)
						dst := buf[:pre]
						if at >= 0 { // dst's contents are not under the hashes
							copy(dst, bytes.Repeat([]byte{0xa5}, pre))
						}
						before := bytes.Clone(dst)
						got, err := AppendFilter(dst, nb, k, hs, BuildOptions{Hash: HashXXH3})
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got[:pre], before) {
							t.Fatalf("k=%d nb=%d pre=%d hashes at %d: dst's contents changed", k, nb, pre, at)
						}
						if !bytes.Equal(got[pre:], want) {
							lost := 0
							if v, err := View(got[pre:]); err == nil {
								for _, h := range keys {
									if !v.HasHash(h) {
										lost++
									}
								}
							}
							t.Fatalf("k=%d nb=%d pre=%d hashes at %d: the encoding differs from AppendBinary's (%d of %d keys answer false)", k, nb, pre, at, lost, nkeys)
						}
						if inPlace := &got[0] == &buf[0]; at >= n && !inPlace {
							t.Errorf("k=%d nb=%d pre=%d: hashes past the encoding, but it was not built in dst", k, nb, pre)
						}
					}
				}
			}
		}
	})
}

// TestAppendBinaryViewInDst checks a view's AppendBinary when the viewed
// bytes lie in b's spare capacity, where the encoding is written (a buffer
// that holds an encoding, viewed, then appended to): the bytes appended
// must be the viewed encoding. It runs the little-endian copy and the
// word-by-word conversion of big-endian machines (here the identity).
func TestAppendBinaryViewInDst(t *testing.T) {
	if !littleEndian {
		t.Skip("no views on a big-endian machine (errs.ErrByteOrder); its conversion runs here on little-endian ones")
	}
	defer func(le bool) { littleEndian = le }(littleEndian)
	paths := []bool{true, false} // false: the conversion, word by word, is the identity here
	hs := randomHashes(3000, 282)
	for _, c := range codecs {
		enc, err := c.build(t, 40, hs).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, le := range paths {
			for _, pre := range []int{8, 64, 72} {
				// The encoding starts at from, and is appended at pre.
				for _, from := range []int{0, pre - 8, pre, pre + 8, pre + HeaderSize} {
					littleEndian = true
					buf := make([]byte, pre+from+len(enc)+HeaderSize+64)
					copy(buf[from:], enc)
					v, err := c.view(buf[from : from+len(enc)])
					if err != nil {
						t.Fatal(err)
					}
					littleEndian = le
					got, err := v.AppendBinary(buf[:pre])
					littleEndian = true
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got[pre:], enc) {
						t.Errorf("%s, little-endian path %v: viewed at %d, appended at %d: not the viewed encoding", c.name, le, from, pre)
					}
				}
			}
		}
	}
}
