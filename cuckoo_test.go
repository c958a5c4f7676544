package bloom

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

func TestCuckooTyped(t *testing.T) {
	const n = 50_000
	c, err := NewCuckoo[string](n, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint("user-", i)
		if err := c.Add(keys[i]); err != nil {
			t.Fatalf("Add %d: %v", i, err)
		}
	}
	if uint64(c.EstimatedCount()) != n || c.LoadFactor() <= 0 || c.NumBits() == 0 {
		t.Fatalf("Len %d LoadFactor %v NumBits %d", uint64(c.EstimatedCount()), c.LoadFactor(), c.NumBits())
	}
	for _, k := range keys[:n/2] {
		if !c.Remove(k) {
			t.Fatalf("Remove(%q) found nothing", k)
		}
	}
	out := make([]bool, n)
	c.HasAll(keys, out)
	for i, k := range keys[n/2:] {
		if !out[n/2+i] || !c.Has(k) {
			t.Fatalf("false negative for %q after removing others", k)
		}
	}
	still := 0
	for _, k := range keys[:n/2] {
		if c.Has(k) {
			still++
		}
	}
	// Removed keys answer yes only as false positives: under the target, with slack.
	if p := float64(still) / (n / 2); p > 0.01+4*math.Sqrt(0.01/(n/2)) {
		t.Errorf("%.4f of removed keys still present", p)
	}
	if c.EstimatedFPR() <= 0 || c.EstimatedFPR() > 0.01 || c.f == nil {
		t.Errorf("EstimatedFPR %v", c.EstimatedFPR())
	}
	if _, err := NewCuckoo[int](0, 0.01); !errors.Is(err, errs.ErrKeys) {
		t.Errorf("n=0: %v", err)
	}
}

// TestCuckooAddAll checks that AddAll adds like a loop of Add, and at the
// first key that does not fit stops, reports how many it added and ErrFull,
// and leaves the filter as the loop leaves it before that key.
func TestCuckooAddAll(t *testing.T) {
	a, _ := NewCuckoo[uint64](1000, 0.01)
	b, _ := NewCuckoo[uint64](1000, 0.01)
	keys := seedKeys(5, 100000)
	n, err := a.AddAll(keys)
	if !errors.Is(err, ErrFull) || n < 1000 || n >= len(keys) {
		t.Fatalf("AddAll: %d, %v; want ErrFull after at least 1000", n, err)
	}
	for i, k := range keys {
		if err := b.Add(k); err != nil {
			if i != n {
				t.Fatalf("Add failed at %d, AddAll at %d", i, n)
			}
			break
		}
	}
	if uint64(a.EstimatedCount()) != uint64(n) || !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
		t.Fatal("AddAll and a loop of Add differ")
	}
	out := make([]bool, n)
	if a.HasAll(keys[:n], out) != n {
		t.Fatal("a key AddAll reported added is missing")
	}
}

// TestCuckooResumes checks that a decoded Cuckoo continues exactly as the
// original: same table after the same adds, up to and past the first ErrFull.
func TestCuckooResumes(t *testing.T) {
	c, err := NewCuckoo[uint64](1000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	c.AddAll(seedKeys(1, 900))
	var g Cuckoo[uint64]
	if err := g.UnmarshalBinary(mustMarshal(t, c)); err != nil {
		t.Fatal(err)
	}
	n1, err1 := c.AddAll(seedKeys(2, 1<<20))
	n2, err2 := g.AddAll(seedKeys(2, 1<<20))
	if n1 != n2 || !errors.Is(err1, ErrFull) || !errors.Is(err2, ErrFull) || !bytes.Equal(mustMarshal(t, c), mustMarshal(t, &g)) {
		t.Fatalf("a decoded Cuckoo continues differently: %d %v, %d %v", n1, err1, n2, err2)
	}
}
