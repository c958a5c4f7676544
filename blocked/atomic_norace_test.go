//go:build !race

package blocked

import (
	"sync"
	"testing"
)

// TestPlainLookupsDuringAtomicAdds shows the documented middle ground: plain
// HasHashes concurrent with atomic adds finds every key added before the
// goroutines started. (The race detector reports such reads, as the Go memory
// model asks, so this test is built without -race.)
func TestPlainLookupsDuringAtomicAdds(t *testing.T) {
	hs := randomHashes(80_000, 15)
	pre, rest := hs[:20_000], hs[20_000:]
	f := mustBytes(t, 160_000, 8)
	f.AddHashes(pre)
	var wg sync.WaitGroup
	bad := make(chan bool, 2)
	for w := range 2 {
		wg.Add(2)
		go func() { defer wg.Done(); f.AddHashesAtomic(rest[w*30_000 : (w+1)*30_000]) }()
		go func() {
			defer wg.Done()
			out := make([]bool, len(pre))
			for range 20 {
				if f.HasHashes(pre, out) != len(pre) {
					bad <- true
					return
				}
			}
		}()
	}
	wg.Wait()
	close(bad)
	if <-bad {
		t.Fatal("plain lookup missed a key added before the concurrent atomic adds")
	}
	if out := make([]bool, len(hs)); f.HasHashes(hs, out) != len(hs) {
		t.Fatal("keys missing after the adds")
	}
}
