package sbpebble

import (
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/simdbloom/bloom/blocked"
	"github.com/zeebo/xxh3"
)

// TestMayContainHash checks that MayContain answers as blocked.LookupHash
// of xxh3.Hash does, for keys
// of every length from 0 to 300 bytes in a small, dense filter (where
// either answer is common), and finds every key added.
func TestMayContainHash(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	var keys [][]byte
	for n := range 301 {
		for range 20 {
			k := make([]byte, n)
			for j := range k {
				k[j] = byte(r.Uint32())
			}
			keys = append(keys, k)
		}
	}
	p := FilterPolicy(3) // about 18% false positives
	w := p.NewWriter(pebble.TableFilter)
	for _, k := range keys[:len(keys)/2] {
		w.AddKey(k)
	}
	f := w.Finish(nil)
	yes := 0
	for i, k := range keys {
		got := p.MayContain(pebble.TableFilter, f, k)
		want, err := blocked.LookupHash(f, xxh3.Hash(k))
		if err != nil || got != want || (i < len(keys)/2 && !got) {
			t.Fatalf("key %d (%d bytes): MayContain %v, LookupHash of xxh3 %v (%v)", i, len(k), got, want, err)
		}
		if got {
			yes++
		}
	}
	if yes == len(keys) {
		t.Fatal("every key may be present: the test shows nothing")
	}
}
