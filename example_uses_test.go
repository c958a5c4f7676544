package bloom_test

import (
	"fmt"
	"time"

	"github.com/simdbloom/bloom"
)

// A CDN edge caches an object only on its second request within a day:
// most objects are requested once ("one-hit wonders") and would only push
// popular ones out of the cache. A Window remembers the requests of the
// last day and forgets older ones by itself (here with a fake clock).
func ExampleNewWindow() {
	now := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	seen, err := bloom.NewWindow[string](1_000_000, 0.001, 24*time.Hour, bloom.WithClock(clock))
	if err != nil {
		panic(err)
	}
	// request returns whether to cache the object at url.
	request := func(url string) bool {
		if seen.Has(url) {
			return true // second request within a day: cache it
		}
		seen.Add(url)
		return false
	}
	fmt.Println(request("/video/1.mp4")) // first request
	now = now.Add(3 * time.Hour)
	fmt.Println(request("/video/1.mp4")) // second, within a day
	fmt.Println(request("/img/2.png"))
	now = now.Add(48 * time.Hour)
	fmt.Println(request("/img/2.png")) // two days later: forgotten, a first request again
	// Output:
	// false
	// true
	// false
	// false
}

// A distributed join: each worker builds a filter of the join keys in its
// partition, sized for the most any partition may hold, folds it down to
// the keys it actually got (FoldTo) and sends the bytes; the coordinator
// ORs them into the largest (Union spreads the smaller ones over it) and
// skips the rows of the other table that cannot match.
func ExampleFilter_FoldTo() {
	partitions := [][]uint64{
		{1, 2, 3, 5, 8, 13, 21, 34, 55, 89},
		make([]uint64, 50_000), // a large partition
		{100, 200},
	}
	for i := range partitions[1] {
		partitions[1][i] = uint64(1_000_000 + i)
	}
	var sent [][]byte
	for _, keys := range partitions {
		f, err := bloom.New[uint64](1_000_000, 0.01) // the worst case
		if err != nil {
			panic(err)
		}
		f.AddAll(keys)
		small, err := f.FoldTo(0.01)
		if err != nil {
			panic(err)
		}
		b, _ := small.MarshalBinary()
		sent = append(sent, b)
		fmt.Printf("worker: %d keys, %d of %d bytes sent\n", len(keys), len(b), f.NumBits()/8+64)
	}
	// The coordinator decodes the filters and ORs them into the largest.
	filters := make([]*bloom.Filter[uint64], len(sent))
	largest := 0
	for i, b := range sent {
		filters[i] = new(bloom.Filter[uint64])
		if err := filters[i].UnmarshalBinary(b); err != nil {
			panic(err)
		}
		if filters[i].NumBits() > filters[largest].NumBits() {
			largest = i
		}
	}
	all := filters[largest]
	for i, f := range filters {
		if i != largest {
			if err := all.Union(f); err != nil {
				panic(err)
			}
		}
	}
	fmt.Println(all.Has(21), all.Has(1_000_123), all.Has(200), all.Has(7))
	fmt.Printf("union: %d bytes, estimated FPR under 1.5%%: %v\n", all.NumBits()/8, all.EstimatedFPR() < 0.015)
	// Output:
	// worker: 10 keys, 9984 of 1269824 bytes sent
	// worker: 50000 keys, 79424 of 1269824 bytes sent
	// worker: 2 keys, 9984 of 1269824 bytes sent
	// true true true false
	// union: 79360 bytes, estimated FPR under 1.5%: true
}
