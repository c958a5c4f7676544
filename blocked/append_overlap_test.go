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
				n := headerSize + int(nb)*64
				f := mustBytes(t, nb*64, k)
				f.AddHashes(keys)
				f.SetKeyHash(HashXXH3)
				want, _ := f.MarshalBinary()
				for _, pre := range []int{0, 8, 64} {
					// at: where the hashes start, in bytes from where the
					// encoding starts; n and beyond is past it.
					for _, at := range []int{-pre, 0, headerSize / 2, headerSize, headerSize + 64*int(nb)/2, n - 8, n} {
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
							if v, err := newView(got[pre:]); err == nil {
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
