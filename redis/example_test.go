package sbredis_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
	sbredis "github.com/simdbloom/bloom/redis"
)

// A crawler's "seen" set shared by every worker: each worker calls New with
// the same name and size (the first makes the filter, the others open it),
// adds the URLs it fetched, and checks new ones against a local replica,
// refreshed now and then.
func Example() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"}) // or redis.NewClusterClient
	seen, err := sbredis.New[string](ctx, rdb, "crawler:seen", 100_000_000, 0.01)
	if err != nil {
		log.Fatal(err) // Redis unreachable, or another filter at this name
	}
	if err := seen.AddAll(ctx, []string{"https://example.com/", "https://example.com/about"}); err != nil {
		log.Fatal(err) // not every URL was added: add them again
	}
	found, err := seen.Has(ctx, "https://example.com/")
	if err != nil {
		log.Fatal(err) // never "absent" when the lookup failed
	}
	fmt.Println(found)

	// The hot path: lookups in a local copy, at local speed.
	local, err := seen.Replica(ctx)
	if err != nil {
		log.Fatal(err)
	}
	go func() {
		for range time.Tick(time.Second) {
			if _, err := local.Refresh(ctx); err != nil { // re-reads the shards that changed
				log.Print(err)
			}
		}
	}()
	fmt.Println(local.Has("https://example.com/about"))
}

// A bulk load or a distributed join: workers build partial filters at SIMD
// speed in memory, then OR them into the shared one.
func ExampleFilter_Merge() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	shared, err := sbredis.New[uint64](ctx, rdb, "join:keys", 10_000_000, 0.001)
	if err != nil {
		log.Fatal(err)
	}
	part, _ := bloom.New[uint64](10_000_000, 0.001) // the same n and fpr
	for id := range uint64(1_000_000) {
		part.Add(id)
	}
	if err := shared.Merge(ctx, part); err != nil {
		log.Fatal(err)
	}
}

// Adds that survive a failover: each waits for a replica's acknowledgement.
func ExampleWithWaitReplicas() {
	ctx := context.Background()
	rdb := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "mymaster", SentinelAddrs: []string{"localhost:26379"}})
	f, err := sbredis.New[string](ctx, rdb, "denylist", 1_000_000, 1e-4, sbredis.WithWaitReplicas(1, time.Second))
	if err != nil {
		log.Fatal(err)
	}
	if err := f.Add(ctx, "203.0.113.7"); err != nil {
		log.Fatal(err) // errors.Is(err, sbredis.ErrNotReplicated): on the master only
	}
}
