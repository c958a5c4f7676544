package sbpebble

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	pbloom "github.com/cockroachdb/pebble/v2/bloom"
	"github.com/simdbloom/bloom"
)

// The comparisons with Pebble's own bloom.FilterPolicy(10), in one process
// so that the two alternate (-count runs every sub-benchmark in turn):
//
//	go test -run '^$' -bench . -count 6 ./ > new.txt
//	benchstat -col /policy new.txt
//
// The seeks vary more between processes than between policies; compare
// them one policy per process, alternated:
//
//	for p in pebble simdbloom simdbloom pebble ...; do
//		go test -run '^$' -bench "Seek/absent/policy=$p\$" ./
//	done
//
// MayContain: ns per call on present and absent keys (hash included);
// Build: ns per key of AddKey then Finish, with the filter's bytes per key
// and false-positive rate as metrics; Seek: SeekPrefixGE on absent keys in
// a database of 1M keys (L0 and L6 tables) with UseL6Filters, whose cost
// the filters bound, in seeks per second.

var policies = []struct {
	name string
	p    pebble.FilterPolicy
}{
	{"pebble", pbloom.FilterPolicy(10)},
	{"simdbloom", FilterPolicy(10)},
}

// lookupPolicies adds, for MayContain only, bloom.Lookup on the same
// filters (typedLookup).
var lookupPolicies = append(policies[:len(policies):len(policies)], struct {
	name string
	p    pebble.FilterPolicy
}{"simdbloom-typed", typedLookup{FilterPolicy(10)}})

var sizes = []struct {
	name string
	n    int
}{{"10k", 10_000}, {"100k", 100_000}, {"1M", 1_000_000}}

// probeKeys are the lookup streams: 1<<16 present and absent keys spread
// over the largest size.
var probeKeys = func() (k [2][][]byte) {
	for i := range 1 << 16 {
		j := int((uint64(i) * 0x9e3779b97f4a7c15) >> 44) // spread over 0..1M
		k[0] = append(k[0], key(j))
		k[1] = append(k[1], absent(j))
	}
	return k
}()

// keysOf returns the first n keys, made once.
var allKeys [][]byte

func keysOf(n int) [][]byte {
	for len(allKeys) < n {
		allKeys = append(allKeys, key(len(allKeys)))
	}
	return allKeys[:n]
}

// filters caches each policy's filter of each size.
var filters = map[string][]byte{}

func filterOf(p pebble.FilterPolicy, n int) []byte {
	id := fmt.Sprint(p.Name(), n)
	if f, ok := filters[id]; ok {
		return f
	}
	w := p.NewWriter(pebble.TableFilter)
	for _, k := range keysOf(n) {
		w.AddKey(k)
	}
	f := w.Finish(nil)
	filters[id] = f
	return f
}

func BenchmarkMayContain(b *testing.B) {
	for _, s := range sizes {
		for ki, kind := range []string{"present", "absent"} {
			for _, pol := range lookupPolicies {
				b.Run(fmt.Sprintf("keys=%s/probe=%s/policy=%s", s.name, kind, pol.name), func(b *testing.B) {
					f := filterOf(pol.p, s.n)
					var ks [][]byte
					for _, k := range probeKeys[ki] {
						if ki == 1 || string(k) < string(key(s.n)) {
							ks = append(ks, k) // present: only the keys this size holds
						}
					}
					mask := len(ks) - 1
					for mask&(mask+1) != 0 {
						mask >>= 1 // a power of two less one
					}
					c := 0
					cpuTimed(b, func() {
						for i := 0; i < b.N; i++ {
							if pol.p.MayContain(pebble.TableFilter, f, ks[i&mask]) {
								c++
							}
						}
					})
					if ki == 0 && c != b.N {
						b.Fatalf("%d false negatives", b.N-c)
					}
				})
			}
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, s := range sizes {
		for _, pol := range policies {
			b.Run(fmt.Sprintf("keys=%s/policy=%s", s.name, pol.name), func(b *testing.B) {
				ks := keysOf(s.n)
				var buf []byte
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					w := pol.p.NewWriter(pebble.TableFilter)
					for _, k := range ks {
						w.AddKey(k)
					}
					buf = w.Finish(buf[:0])
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.n), "ns/key")
				b.ReportMetric(float64(len(buf))/float64(s.n), "B/key")
				fp := 0
				for _, k := range probeKeys[1] {
					if pol.p.MayContain(pebble.TableFilter, buf, k) {
						fp++
					}
				}
				b.ReportMetric(100*float64(fp)/float64(len(probeKeys[1])), "fpr%")
			})
		}
	}
}

// seekDBs caches each policy's database, built once per process.
var seekDBs = map[string]*pebble.DB{}

func seekDB(b *testing.B, name string, p pebble.FilterPolicy) *pebble.DB {
	if db, ok := seekDBs[name]; ok {
		return db
	}
	b.StopTimer()
	defer b.StartTimer()
	dir, err := os.MkdirTemp("", "sbpebble-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {}) // the databases live for the process; the temp dirs are removed at exit below
	tempDirs = append(tempDirs, dir)
	db := openDB(b, dir, p)
	fill(b, db, 1_000_000, 8)
	b.Logf("%s tables:%s", name, levels(db))
	seekDBs[name] = db
	return db
}

var tempDirs []string

func TestMain(m *testing.M) {
	code := m.Run()
	for _, db := range seekDBs {
		db.Close()
	}
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

func BenchmarkSeek(b *testing.B) {
	for _, pol := range policies {
		b.Run("absent/policy="+pol.name, func(b *testing.B) {
			db := seekDB(b, pol.name, pol.p)
			it, err := db.NewIter(&pebble.IterOptions{UseL6Filters: true})
			if err != nil {
				b.Fatal(err)
			}
			defer it.Close()
			ks := probeKeys[1]
			start := time.Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if it.SeekPrefixGE(ks[i&(len(ks)-1)]) {
					b.Fatal("found an absent key")
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "seeks/s")
		})
	}
}

// typedLookup is FilterPolicy with MayContain by bloom.Lookup, the typed
// lookup that hashes the key and probes in one kernel call
// (BenchmarkMayContain's policy=simdbloom-typed).
type typedLookup struct{ FilterPolicy }

func (p typedLookup) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	if ftype != pebble.TableFilter {
		return true
	}
	ok, err := bloom.Lookup(filter, key)
	return ok || err != nil
}

// BenchmarkMayContainPaired runs the policies of BenchmarkMayContain in
// turn, 4096 calls each, within one benchmark, and reports each one's ns
// per call and each one's ratio to Pebble's: the policies then share the
// machine's load as it changes, which the alternated sub-benchmarks of
// BenchmarkMayContain do only at the scale of a whole run.
//
//	go test -run '^$' -bench MayContainPaired -count 6 . | benchstat -
func BenchmarkMayContainPaired(b *testing.B) {
	for _, s := range sizes {
		for ki, kind := range []string{"present", "absent"} {
			b.Run(fmt.Sprintf("keys=%s/probe=%s", s.name, kind), func(b *testing.B) {
				var ks [][]byte
				for _, k := range probeKeys[ki] {
					if ki == 1 || string(k) < string(key(s.n)) {
						ks = append(ks, k)
					}
				}
				mask := len(ks) - 1
				for mask&(mask+1) != 0 {
					mask >>= 1
				}
				fs := make([][]byte, len(lookupPolicies))
				for j, pol := range lookupPolicies {
					fs[j] = filterOf(pol.p, s.n)
				}
				const chunk = 4096
				spent := make([]time.Duration, len(lookupPolicies))
				calls := make([]int, len(lookupPolicies))
				c := 0
				b.ResetTimer()
				for i := 0; i < b.N; {
					for j, pol := range lookupPolicies {
						n := min(chunk, b.N-i)
						if n <= 0 {
							break
						}
						p, f := pol.p, fs[j]
						t0 := time.Now()
						for x := i; x < i+n; x++ {
							if p.MayContain(pebble.TableFilter, f, ks[x&mask]) {
								c++
							}
						}
						spent[j] += time.Since(t0)
						calls[j] += n
						i += n
					}
				}
				b.StopTimer()
				sinkCount += c
				if calls[len(calls)-1] == 0 {
					return // b.N too small to reach every policy
				}
				base := float64(spent[0]) / float64(calls[0])
				for j, pol := range lookupPolicies {
					per := float64(spent[j]) / float64(calls[j])
					b.ReportMetric(per, pol.name+"-ns/call")
					if j > 0 {
						b.ReportMetric(per/base, pol.name+"/pebble")
					}
				}
			})
		}
	}
}

var sinkCount int

// BenchmarkSeekPaired runs BenchmarkSeek's seeks on both databases in
// turn, 1024 seeks each, inside one benchmark, and reports each policy's
// seeks per second and this policy's time per seek over Pebble's: the
// seeks vary between processes more than between policies, and here both
// share the process and the machine's load as it changes.
//
//	go test -run '^$' -bench SeekPaired -count 6 . | benchstat -
func BenchmarkSeekPaired(b *testing.B) {
	its := make([]*pebble.Iterator, len(policies))
	for j, pol := range policies {
		db := seekDB(b, pol.name, pol.p)
		it, err := db.NewIter(&pebble.IterOptions{UseL6Filters: true})
		if err != nil {
			b.Fatal(err)
		}
		defer it.Close()
		its[j] = it
	}
	ks := probeKeys[1]
	spent := make([]time.Duration, len(its))
	calls := make([]int, len(its))
	b.ResetTimer()
	for i := 0; i < b.N; {
		for j, it := range its {
			n := min(1024, b.N-i)
			if n <= 0 {
				break
			}
			t0 := time.Now()
			for x := i; x < i+n; x++ {
				if it.SeekPrefixGE(ks[x&(len(ks)-1)]) {
					b.Fatal("found an absent key")
				}
			}
			spent[j] += time.Since(t0)
			calls[j] += n
			i += n
		}
	}
	b.StopTimer()
	if calls[len(calls)-1] == 0 {
		return
	}
	for j, pol := range policies {
		b.ReportMetric(float64(calls[j])/spent[j].Seconds(), pol.name+"-seeks/s")
	}
	b.ReportMetric((float64(spent[1])/float64(calls[1]))/(float64(spent[0])/float64(calls[0])), "simdbloom/pebble")
}
