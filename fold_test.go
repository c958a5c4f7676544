package bloom

import (
	"errors"
	"fmt"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/cpu"
)

// mustBytes returns an empty blocked.Filter of nbytes bytes and k.
func mustBytes(t *testing.T, nbytes uint64, k int) *blocked.Filter {
	t.Helper()
	f, err := blocked.NewBytes(nbytes, k)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFilterFold: every key of a typed filter is found after each folding
// its size allows, the folding equals the filter New would make at that
// size with the same keys (its bits, through Equal), and FoldTo and Union
// with a larger filter keep every key too.
func TestFilterFold(t *testing.T) {
	childtest.Levels(t, cpu.Usable(), func(t *testing.T, _ cpu.Level) { testFilterFold(t) })
}

func testFilterFold(t *testing.T) {
	const n = 5000
	f, err := New[string](n*8, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
	}
	f.AddAll(keys)
	nb := f.Engine().NumBlocks()
	folded := 0
	for times := 1; nb>>times<<times == nb; times++ {
		g, err := f.Fold(times)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if !g.Has(k) {
				t.Fatalf("folded %d times: %q lost", times, k)
			}
		}
		d := FromEngine[string](mustBytes(t, (nb>>times)*64, f.Engine().K()))
		d.AddAll(keys)
		if !g.equal(d) {
			t.Fatalf("folded %d times: differs from the filter built at %d blocks", times, nb>>times)
		}
		folded = times
	}
	if folded < 2 {
		t.Fatalf("New(%d, 0.01) has %d blocks: folds %d times", n*8, nb, folded)
	}
	g, err := f.FoldTo(0.01)
	if err != nil || g.NumBits() >= f.NumBits() || g.EstimatedFPR() > 0.01 {
		t.Fatalf("FoldTo(0.01): %v, %d of %d bits, FPR %v", err, g.NumBits(), f.NumBits(), g.EstimatedFPR())
	}
	small, _ := f.Fold(folded)
	u := small.clone()
	other, _ := New[string](n*8, 0.01)
	other.Add("other")
	if err := u.Union(other); err != nil || !u.Has("other") || !u.Has(keys[0]) {
		t.Fatalf("Union of a folded filter with a full-size one: %v", err)
	}
	var z Filter[string]
	if _, err := z.Fold(1); !errors.Is(err, ErrGeometry) {
		t.Errorf("zero Filter Fold: %v", err)
	}
	if _, err := z.FoldTo(0.5); !errors.Is(err, ErrGeometry) {
		t.Errorf("zero Filter FoldTo: %v", err)
	}
}
