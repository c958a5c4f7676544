package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/bench/internal/cputime"
	"github.com/simdbloom/bloom/blocked"
)

// BenchmarkSpeed is the guard of issue 21 ("keep every speed"): the lookups
// a restructuring must not slow down, on API that every version since the
// restructuring has, so that one file builds against the old tree and the
// new one and benchstat compares their binaries run alternately. Each
// level is a process of its own (SIMDBLOOM_CPU). Half the probes are of
// added keys; string keys are 5-64 bytes, each in its own allocation.
// An op is one key (of batches of 4096); cpu-ns/key is the benchmark
// thread's CPU time per key, which the other jobs on a shared machine do
// not inflate.
func BenchmarkSpeed(b *testing.B) {
	const probes = 4096
	for _, size := range []uint64{16 << 10, 1 << 20} {
		e, err := blocked.NewBytes(size, 8)
		if err != nil {
			b.Fatal(err)
		}
		n := int(size * 8 / 10) // 10 bits per key
		r := rand.New(rand.NewPCG(uint64(size), 7))
		ints := make([]uint64, n)
		strs := make([]string, n)
		for i := range ints {
			ints[i] = r.Uint64()
			buf := make([]byte, 5+r.IntN(60))
			for j := range buf {
				buf[j] = 'a' + byte(r.IntN(26))
			}
			strs[i] = string(buf)
		}
		fi := bloom.FromEngine[uint64](e)
		fi.AddAll(ints)
		es, _ := blocked.NewBytes(size, 8)
		fs := bloom.FromEngine[string](es)
		fs.AddAll(strs)
		pi := make([]uint64, probes)
		ps := make([]string, probes)
		for i := range pi {
			if i%2 == 0 {
				j := r.IntN(n)
				pi[i], ps[i] = ints[j], strs[j]
			} else {
				pi[i] = r.Uint64()
				buf := make([]byte, 5+r.IntN(60))
				for j := range buf {
					buf[j] = 'A' + byte(r.IntN(26)) // upper case: never an added key
				}
				ps[i] = string(buf)
			}
		}
		hs := make([]uint64, probes)
		for i, k := range pi {
			hs[i] = bloom.Hash(k)
		}
		out := make([]bool, probes)
		label := fmt.Sprintf("size=%dKiB", size>>10)
		run := func(op string, f func() int) {
			b.Run("op="+op+"/"+label, func(b *testing.B) {
				sink := 0
				cputime.PerKey(b, func() { // b.N keys, in whole batches
					for done := 0; done < b.N; done += probes {
						sink += f()
					}
				})
				if sink < 0 {
					b.Log(sink)
				}
			})
		}
		run("HasHashes", func() int { return e.HasHashes(hs, out) })
		run("HasHash", func() int {
			c := 0
			for _, h := range hs {
				if e.HasHash(h) {
					c++
				}
			}
			return c
		})
		run("HasAllUint64", func() int { return fi.HasAll(pi, out) })
		run("HasAllString", func() int { return fs.HasAll(ps, out) })
		run("HasString", func() int {
			c := 0
			for _, k := range ps {
				if fs.Has(k) {
					c++
				}
			}
			return c
		})
	}
}
