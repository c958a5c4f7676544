package blocked

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// The encoding benchmarks at 16 KiB (cache-resident) and 256 MiB (DRAM):
// WriteTo and ReadFrom stream the bytes (MB/s), View must take the same
// time at both sizes (O(1)), Verify reads every byte.

var encodingBenchSizes = []struct {
	name  string
	bytes uint64
}{{"16KiB", 16 << 10}, {"256MiB", 256 << 20}}

// benchEncoded returns a filter of n bytes with every word written (no
// first-touch faults in the timed loop) and its encoding, 64-byte aligned.
func benchEncoded(b *testing.B, n uint64) (*Filter, []byte) {
	f := mustBytes(b, n, 8)
	for i, w := 0, f.words(); i < len(w); i++ {
		w[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	f.SetKeyHash(HashXXH3)
	enc, err := f.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	return f, alignedCopy(enc, 0)
}

func BenchmarkEncoding(b *testing.B) {
	for _, s := range encodingBenchSizes {
		f, enc := benchEncoded(b, s.bytes)
		b.Run(fmt.Sprintf("WriteTo/%s", s.name), func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if _, err := f.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("ReadFrom/%s", s.name), func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				var g Filter
				if _, err := g.ReadFrom(bytes.NewReader(enc)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("ReadFromNoLen/%s", s.name), func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				var g Filter
				if _, err := g.ReadFrom(noLenReader{bytes.NewReader(enc)}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("View/%s", s.name), func(b *testing.B) {
			for b.Loop() {
				if _, err := newView(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Verify/%s", s.name), func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if err := Verify(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
