package bench

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	bitsbloom "github.com/bits-and-blooms/bloom/v3"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/bench/internal/benchkit"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/sizing"
)

// BenchmarkWindow: a bloom.Window (the default 4 generations, 5 kept, at
// fpr 0.01 in total, every generation full) against what a Go user would
// write with a peer: a loop over 5 bits-and-blooms filters of the same
// bits, testing each until one says yes. The fixture's keys are split
// over the 5 generations; lookups stream the fixture's keys (half present).
// The simdbloom-filter rows are one Filter of the Window's total size
// holding all the keys, the cost the Window's lookups are measured against.
// ns/op is per key:
//
//	cd bench && go test -run '^$' -bench BenchmarkWindow -count 6 . | benchstat -col /lib -
func BenchmarkWindow(b *testing.B) {
	const g = 4
	for _, size := range benchkit.Sizes(b) {
		fx := benchkit.Get(b, size)
		n := uint64(len(fx.Keys))
		now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
		w, err := bloom.NewWindow[uint64](n*g/(g+1), 0.01, time.Hour, bloom.WithClock(func() time.Time { return now }))
		if err != nil {
			b.Fatal(err)
		}
		genBits := w.NumBits() / (g + 1)
		k := uint(sizing.OptimalKInt(genBits, n/(g+1)))
		var peers []*bitsbloom.BloomFilter
		per := n / (g + 1)
		for i := range uint64(g + 1) {
			now = now.Add(time.Hour / g)
			keys := fx.Keys[i*per : (i+1)*per]
			if i == g {
				keys = fx.Keys[i*per:]
			}
			w.AddAll(keys)
			p := bitsbloom.New(uint(genBits), k)
			for _, x := range keys {
				p.Add(le64(x))
			}
			peers = append(peers, p)
		}
		same, err := blocked.NewBytes(w.NumBits()/8, 8) // a Filter of the Window's total size and keys
		if err != nil {
			b.Fatal(err)
		}
		same.AddHashes(fx.Hashes)
		f := bloom.FromEngine[uint64](same)
		label := fmt.Sprintf("%s/bytes=%d", benchkit.SizeLabel(size), w.NumBits()/8)
		cases := []benchkit.Case{
			{Lib: "simdbloom-window-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.KeyStream, w.Has) }},
			{Lib: "simdbloom-window-batch", Fn: func(b *testing.B) { benchkit.Batched(b, fx.KeyStream, w.HasAll) }},
			{Lib: "simdbloom-filter-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.KeyStream, f.Has) }},
			{Lib: "simdbloom-filter-batch", Fn: func(b *testing.B) { benchkit.Batched(b, fx.KeyStream, f.HasAll) }},
			{Lib: "bits-and-blooms-loop5-single", Fn: func(b *testing.B) {
				var buf [8]byte
				benchkit.Single(b, fx.KeyStream, func(x uint64) bool {
					binary.LittleEndian.PutUint64(buf[:], x)
					for _, p := range peers {
						if p.Test(buf[:]) {
							return true
						}
					}
					return false
				})
			}},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("size=%s/lib=%s", label, c.Lib), c.Fn)
		}
	}
}
