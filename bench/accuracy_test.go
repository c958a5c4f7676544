package bench

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/sizing"
)

// TestPeerAccuracy measures, for every library in the benchmarks, the
// false-positive rate and bits per key at the benchmarks' load (a 1 MiB
// filter, 10 bits per key), so that speed is never shown without accuracy:
//
//	cd bench && go test -run PeerAccuracy -v .
//
// It fails if simdbloom's measured FPR is more than 4 sigma from its exact
// formula, or if any library answers false for a key it holds.
func TestPeerAccuracy(t *testing.T) {
	size := uint64(1 << 20)
	if testing.Short() {
		size = 16 << 10
	}
	fx := getFixture(t, size)
	n := uint64(len(fx.Keys))
	const probes = 1 << 21
	r := rand.New(rand.NewPCG(99, 99))
	absent := make([]uint64, probes)
	for i := range absent {
		absent[i] = r.Uint64()
	}
	type lib struct {
		name  string
		bytes uint64
		has   func(key uint64) bool
		want  float64 // formula, 0 if none
	}
	var buf [8]byte
	libs := []lib{
		{"simdbloom (k=8)", fx.Ours.NumBits() / 8, func(k uint64) bool { return fx.Ours.HasHash(bloom.Hash(k)) },
			blocked.FPR(n, fx.Ours.NumBlocks(), 8)},
		{"parquet-go split block", uint64(len(fx.parquet.Bytes())), func(k uint64) bool { return fx.parquet.Check(bloom.Hash(k)) },
			blocked.SplitBlockFPR(n, uint64(len(fx.parquet)))},
		{"holiman/bloomfilter", fx.hol.M() / 8, func(k uint64) bool { return fx.hol.ContainsHash(bloom.Hash(k)) },
			sizing.ClassicFPR(fx.hol.M(), n, int(fx.hol.K()))},
		{"bits-and-blooms", uint64(fx.bits.Cap()) / 8, func(k uint64) bool {
			binary.LittleEndian.PutUint64(buf[:], k)
			return fx.bits.Test(buf[:])
		}, sizing.ClassicFPR(uint64(fx.bits.Cap()), n, int(fx.bits.K()))},
		{"xorfilter BinaryFuse8", fx.fuseBytes, fx.fuse.Contains, 1.0 / 256},
	}
	t.Logf("%d keys, %d absent probes", n, probes)
	t.Logf("%-24s %9s %10s %10s %8s", "library", "bits/key", "FPR", "formula", "sigma")
	for _, l := range libs {
		for _, k := range fx.Keys[:min(len(fx.Keys), 100_000)] {
			if !l.has(k) {
				t.Fatalf("%s: false negative", l.name)
			}
		}
		fp := 0
		for _, k := range absent {
			if l.has(k) {
				fp++
			}
		}
		got := float64(fp) / probes
		s := math.Sqrt(l.want * (1 - l.want) / probes)
		t.Logf("%-24s %9.2f %10.5f %10.5f %8.5f", l.name, float64(l.bytes*8)/float64(n), got, l.want, s)
		if l.name == "simdbloom (k=8)" && math.Abs(got-l.want) > 4*s {
			t.Errorf("simdbloom FPR %.5f is more than 4 sigma from the formula %.5f", got, l.want)
		}
	}
}
