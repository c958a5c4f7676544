package blocked

import (
	"sync"
	"testing"
)

// TestAtomicAddsConcurrent runs writers that add atomically while readers
// look up, then checks that no key is missing and that the bits equal a
// filter built with plain adds. Run it with -race: the readers use the
// atomic lookups, so the detector must stay silent.
func TestAtomicAddsConcurrent(t *testing.T) {
	const writers, readers = 4, 4
	n := 200_000
	if testing.Short() {
		n = 40_000
	}
	hs := randomHashes(n, 11)
	pre := hs[:n/4] // added before the goroutines start: readers must always find them
	for _, k := range []int{8, 16} {
		f := mustBytes(t, uint64(n)*2, k) // about 16 bits per key
		f.AddHashes(pre)
		rest := hs[n/4:]
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				part := rest[w*len(rest)/writers : (w+1)*len(rest)/writers]
				half := len(part) / 2
				f.AddHashesAtomic(part[:half])
				for _, h := range part[half:] {
					f.AddHashAtomic(h)
				}
			}()
		}
		errs := make(chan uint64, readers)
		for r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := make([]bool, len(pre))
				for round := range 3 {
					if (r+round)%2 == 0 {
						if f.HasHashesAtomic(pre, out) != len(pre) {
							for i, ok := range out {
								if !ok {
									errs <- pre[i]
									return
								}
							}
						}
						continue
					}
					for _, h := range pre {
						if !f.HasHashAtomic(h) {
							errs <- h
							return
						}
					}
					f.HasHashesAtomic(rest, make([]bool, len(rest))) // racing with the writers
				}
			}()
		}
		wg.Wait()
		close(errs)
		for h := range errs {
			t.Fatalf("k=%d: false negative for %#x during concurrent adds", k, h)
		}
		out := make([]bool, n)
		if got := f.HasHashes(hs, out); got != n {
			t.Fatalf("k=%d: %d of %d keys found after the adds", k, got, n)
		}
		want := mustBytes(t, uint64(n)*2, k)
		want.AddHashes(hs)
		if !f.Equal(want) {
			t.Fatalf("k=%d: atomic adds set other bits than plain adds", k)
		}
	}
}

func TestSplitBlockAtomicAddsConcurrent(t *testing.T) {
	const writers = 4
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	hs := randomHashes(n, 12)
	s := mustSplit(t, n*2)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(2)
		part := hs[w*n/writers : (w+1)*n/writers]
		go func() {
			defer wg.Done()
			s.AddHashesAtomic(part[:len(part)/2])
			for _, h := range part[len(part)/2:] {
				s.AddHashAtomic(h)
			}
		}()
		go func() {
			defer wg.Done()
			s.HasHashesAtomic(hs, make([]bool, n))
		}()
	}
	wg.Wait()
	out := make([]bool, n)
	if got := s.HasHashesAtomic(hs, out); got != n {
		t.Fatalf("%d of %d keys found after concurrent adds", got, n)
	}
	want := mustSplit(t, n*2)
	want.AddHashes(hs)
	if !s.Equal(want) {
		t.Fatal("atomic adds set other bits than plain adds")
	}
}

// TestAtomicEqualsPlain checks the atomic single-key paths against the
// plain ones, bit for bit, and the atomic lookups against HasHash.
func TestAtomicEqualsPlain(t *testing.T) {
	hs := randomHashes(5000, 13)
	probe := randomHashes(5000, 14)
	for _, k := range []int{8, 16} {
		a, b := mustBytes(t, 64*97, k), mustBytes(t, 64*97, k)
		a.AddHashesAtomic(hs)
		for _, h := range hs {
			b.AddHash(h)
		}
		if !a.Equal(b) {
			t.Fatalf("k=%d: atomic and plain adds differ", k)
		}
		for _, h := range probe {
			if a.HasHashAtomic(h) != a.HasHash(h) {
				t.Fatalf("k=%d: HasHashAtomic(%#x) differs from HasHash", k, h)
			}
		}
	}
	s, p := mustSplit(t, 32*97), mustSplit(t, 32*97)
	s.AddHashesAtomic(hs)
	p.AddHashes(hs)
	if !s.Equal(p) {
		t.Fatal("split block: atomic and plain adds differ")
	}
	for _, h := range probe {
		if s.HasHashAtomic(h) != s.HasHash(h) {
			t.Fatalf("split block: HasHashAtomic(%#x) differs from HasHash", h)
		}
	}
}

func TestHasHashesAtomicShortOutPanics(t *testing.T) {
	for name, fn := range map[string]func(){
		"filter":     func() { mustBytes(t, 64, 8).HasHashesAtomic(make([]uint64, 2), make([]bool, 1)) },
		"splitblock": func() { mustSplit(t, 32).HasHashesAtomic(make([]uint64, 2), make([]bool, 1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic for a short out slice", name)
				}
			}()
			fn()
		}()
	}
}

// BenchmarkAtomic compares the atomic single-key paths with the plain ones
// on a 1 MiB filter (L2-resident), 2^20 shuffled hashes.
func BenchmarkAtomic(b *testing.B) {
	hs := randomHashes(1<<20, 16)
	f := mustBytes(b, 1<<20, 8)
	f.AddHashes(hs[:len(hs)/2])
	run := func(name string, fn func(h uint64)) {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				fn(hs[i&(len(hs)-1)])
				i++
			}
		})
	}
	var sink bool
	run("AddHash", f.AddHash)
	run("AddHashAtomic", f.AddHashAtomic)
	run("HasHash", func(h uint64) { sink = f.HasHash(h) })
	run("HasHashAtomic", func(h uint64) { sink = f.HasHashAtomic(h) })
	_ = sink
	b.Run("AddHashAtomicParallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				f.AddHashAtomic(hs[i&(len(hs)-1)])
				i += 7
			}
		})
	})
}
