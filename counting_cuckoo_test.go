package bloom

import (
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
