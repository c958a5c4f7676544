package bloom

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/simdbloom/bloom/internal/errs"
)

func TestCountingTyped(t *testing.T) {
	const n = 50_000
	c, err := NewCounting[uint64](n, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(n) {
		c.Add(i)
	}
	for i := range uint64(n / 2) {
		if !c.Remove(i) {
			t.Fatalf("Remove(%d) = false for an added key", i)
		}
	}
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = uint64(i)
	}
	out := make([]bool, n)
	c.HasAll(keys, out)
	for i := n / 2; i < n; i++ {
		if !out[i] || !c.Has(uint64(i)) {
			t.Fatalf("false negative for %d", i)
		}
	}
	if c.Saturated() != 0 || c.NumBits() == 0 || c.EstimatedFPR() <= 0 || c.c == nil {
		t.Errorf("Saturated %d NumBits %d EstimatedFPR %v", c.Saturated(), c.NumBits(), c.EstimatedFPR())
	}
	if c.Remove(1<<60) && c.Remove(1<<60+1) && c.Remove(1<<60+2) {
		t.Error("removing absent keys keeps succeeding")
	}
	if _, err := NewCounting[int](10, math.NaN()); !errors.Is(err, errs.ErrFPR) {
		t.Errorf("fpr NaN: %v", err)
	}
}

// TestCountingBatch checks AddAll, HasAll and RemoveAll against the single
// calls.
func TestCountingBatch(t *testing.T) {
	a, _ := NewCounting[string](5000, 0.01)
	b, _ := NewCounting[string](5000, 0.01)
	keys := make([]string, 3000)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i%2000) // some added twice
	}
	a.AddAll(keys)
	for _, k := range keys {
		b.Add(k)
	}
	if !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
		t.Fatal("AddAll and Add differ")
	}
	out := make([]bool, len(keys))
	if a.HasAll(keys, out) != len(keys) {
		t.Fatal("false negative")
	}
	n := a.RemoveAll(keys[:1000])
	m := 0
	for _, k := range keys[:1000] {
		m += int(b2i(b.Remove(k)))
	}
	if n != m || n != 1000 || !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
		t.Fatalf("RemoveAll removed %d, Remove %d, or the filters differ", n, m)
	}
}

func TestCountingEstimatedCountAfterRemove(t *testing.T) {
	c, err := NewCounting[int](10_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]int, 10_000)
	for i := range keys {
		keys[i] = i
	}
	c.AddAll(keys)
	c.RemoveAll(keys[:4000])
	if c.Saturated() == 0 && c.EstimatedCount() != 6000 {
		t.Fatalf("EstimatedCount %v, want 6000", c.EstimatedCount())
	}
	if c.FillRatio() <= 0 || c.FillRatio() >= 1 {
		t.Fatalf("FillRatio %v", c.FillRatio())
	}
}
