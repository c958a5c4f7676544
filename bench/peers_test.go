package bench

// Side-by-side benchmarks: simdbloom against its Go peers and against the
// hardware floor, in one run, at filters of 16 KiB, 1 MiB, 8 MiB and 256 MiB
// holding about 10 bits per key. Every benchmark reports ns/op per KEY (b.N
// counts keys), so benchstat compares them directly:
//
//	cd bench && go test -run '^$' -bench . -count 6 -timeout 60m . | tee bench.txt
//	benchstat -col /lib bench.txt
//
// simdbloom's rows carry the names the root module's BenchmarkLookup,
// BenchmarkAdd and BenchmarkLevels had before they moved here, so older runs
// line up. Lookup streams hold 2^20 keys, half present
// and half absent, shuffled (the branch predictor learns shorter streams).
// Filters are filled before the timer starts (no first-touch page faults are
// timed). Accuracy is printed by TestPeerAccuracy (go test -run PeerAccuracy
// -v): speed is never shown without the FPR and bits per key it buys.
//
// Set -bench.sizes=16K,1M to limit the sizes (256 MiB needs several GiB of
// memory and minutes of set-up for the peers); -short defaults them to 16K.

import (
	"encoding/binary"
	"sync"
	"testing"

	"github.com/FastFilter/xorfilter"
	bitsbloom "github.com/bits-and-blooms/bloom/v3"
	holiman "github.com/holiman/bloomfilter/v2"
	parquetbloom "github.com/parquet-go/parquet-go/bloom"

	"github.com/simdbloom/bloom/bench/internal/benchkit"
	"github.com/simdbloom/bloom/bench/internal/cputime"
	"github.com/simdbloom/bloom/internal/sizing"
)

// The keys, streams, simdbloom's filters and rows, the -bench.sizes flag, the
// lookup loops and the floor are internal/benchkit's (shared with
// typed_test.go); this file adds the peers.

// fixture holds every peer's filter of one size, filled with the keys of
// simdbloom's fixture of that size.
type fixture struct {
	*benchkit.Fixture
	bits      *bitsbloom.BloomFilter
	bitsStr   *bitsbloom.BloomFilter
	hol       *holiman.Filter
	parquet   parquetbloom.SplitBlockFilter
	fuse      *xorfilter.BinaryFuse8
	fuseBytes uint64
}

var (
	fixtures   = map[uint64]*fixture{}
	fixturesMu sync.Mutex
)

func le64(x uint64) []byte { return binary.LittleEndian.AppendUint64(nil, x) }

// getFixture builds (once per process) the peers' filters of one size.
func getFixture(tb testing.TB, size uint64) *fixture {
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f := fixtures[size]; f != nil {
		return f
	}
	fx := &fixture{Fixture: benchkit.Get(tb, size)}
	n := uint64(len(fx.Keys))
	mbits := size * 8
	k := uint(sizing.OptimalKInt(mbits, n))
	fx.bits = bitsbloom.New(uint(mbits), k)
	for _, x := range fx.Keys {
		fx.bits.Add(le64(x))
	}
	var err error
	fx.hol, err = holiman.New(mbits, uint64(k))
	if err != nil {
		tb.Fatal(err)
	}
	for _, h := range fx.Hashes {
		fx.hol.AddHash(h)
	}
	fx.parquet = parquetbloom.MakeSplitBlockFilter(make([]byte, size))
	fx.parquet.InsertBulk(fx.Hashes)
	fx.fuse, err = xorfilter.PopulateBinaryFuse8(fx.Keys)
	if err != nil {
		tb.Fatal(err)
	}
	fx.fuseBytes = uint64(len(fx.fuse.Fingerprints))
	fx.bitsStr = bitsbloom.New(uint(mbits), k)
	for _, s := range fx.StrKeys {
		fx.bitsStr.AddString(s)
	}
	fixtures[size] = fx
	return fx
}

// lookupCases lists every library's lookup over fx's streams: simdbloom's
// rows, then the peers', at each level.
func lookupCases(fx *fixture) []benchkit.Case {
	return benchkit.LookupCases(fx.Fixture, benchkit.Lookups{
		// Hash level: the caller has 64-bit hashes.
		Hash: []benchkit.Case{
			{Lib: "parquet-go-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.HashStream, fx.parquet.Check) }},
			{Lib: "holiman-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.HashStream, fx.hol.ContainsHash) }},
		},
		// Key level: uint64 keys, hashing included.
		Uint64: []benchkit.Case{
			{Lib: "bits-and-blooms-uint64-single", Fn: func(b *testing.B) {
				var buf [8]byte
				benchkit.Single(b, fx.KeyStream, func(x uint64) bool {
					binary.LittleEndian.PutUint64(buf[:], x)
					return fx.bits.Test(buf[:])
				})
			}},
			{Lib: "xorfilter-fuse8-uint64-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.KeyStream, fx.fuse.Contains) }},
		},
		// Key level: 16-byte string keys.
		String: []benchkit.Case{
			{Lib: "bits-and-blooms-string-single", Fn: func(b *testing.B) { benchkit.Single(b, fx.StrStream, fx.bitsStr.TestString) }},
		},
	})
}

func BenchmarkLookup(b *testing.B) {
	for _, size := range benchkit.Sizes(b) {
		benchkit.Run(b, size, lookupCases(getFixture(b, size)))
	}
}

func BenchmarkAdd(b *testing.B) {
	for _, size := range benchkit.Sizes(b) {
		fx := getFixture(b, size)
		benchkit.Run(b, size, benchkit.AddCases(fx.Fixture))
		// The peers' adds, like simdbloom's, go into copies of the lookup
		// fixtures and re-add the stream.
		pq := parquetbloom.MakeSplitBlockFilter(append([]byte(nil), fx.parquet.Bytes()...))
		hol, _ := fx.hol.Copy()
		bb := fx.bits.Copy()
		benchkit.Run(b, size, []benchkit.Case{
			{Lib: "parquet-go-single", Fn: func(b *testing.B) {
				cputime.PerKey(b, func() {
					for i := 0; i < b.N; i++ {
						pq.Insert(fx.HashStream[i&benchkit.StreamMask])
					}
				})
			}},
			{Lib: "parquet-go-bulk", Fn: func(b *testing.B) {
				cputime.PerKey(b, func() {
					for i := 0; i < b.N; i += benchkit.Batch {
						j := i & benchkit.StreamMask
						pq.InsertBulk(fx.HashStream[j : j+benchkit.Batch])
					}
				})
			}},
			{Lib: "holiman-single", Fn: func(b *testing.B) {
				cputime.PerKey(b, func() {
					for i := 0; i < b.N; i++ {
						hol.AddHash(fx.HashStream[i&benchkit.StreamMask])
					}
				})
			}},
			{Lib: "bits-and-blooms-uint64-single", Fn: func(b *testing.B) {
				cputime.PerKey(b, func() {
					var buf [8]byte
					for i := 0; i < b.N; i++ {
						binary.LittleEndian.PutUint64(buf[:], fx.KeyStream[i&benchkit.StreamMask])
						bb.Add(buf[:])
					}
				})
			}},
		})
	}
}

// BenchmarkFloor is what no lookup can beat: hashing alone, and one random
// cache-line load per key from an array of the filter's size.
func BenchmarkFloor(b *testing.B) { benchkit.Floor(b) }

// BenchmarkLevels runs simdbloom's rows at every kernel level the machine
// has, in one process, switching cpu.Active per row:
//
//	cd bench && go test -run '^$' -bench Levels -bench.sizes 16K,1M -count 6 . | tee levels.txt
//	benchstat -col /level levels.txt
func BenchmarkLevels(b *testing.B) { benchkit.Levels(b) }
