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

// "Has this user already seen this item?": a feed that must not show an
// item to a user twice within a week, served by a fleet. One window holds
// every (user, item) pair shown in the last week; each server asks it
// about its candidates and records what it showed. A false positive (1%
// here) hides an item that was not seen; an item is never shown twice
// within the week, and Redis forgets the pairs after it.
func ExampleNewWindow() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"}) // or redis.NewClusterClient
	// 50 million impressions a week: generations of 42 hours (a quarter
	// of the window), each about 22 MB in Redis, 5 of them at a time.
	shown, err := sbredis.NewWindow[string](ctx, rdb, "feed:shown", 50_000_000, 0.01, 7*24*time.Hour)
	if err != nil {
		log.Fatal(err)
	}
	pair := func(user, item string) string { return user + "\x00" + item }

	user, candidates := "user-42", []string{"item-1", "item-2", "item-3"}
	ks := make([]string, len(candidates))
	for i, item := range candidates {
		ks[i] = pair(user, item)
	}
	seen := make([]bool, len(ks))
	if _, err := shown.HasAll(ctx, ks, seen); err != nil {
		log.Fatal(err) // never "not seen" when Redis could not answer
	}
	var show []string
	for i, item := range candidates {
		if !seen[i] {
			show = append(show, item)
			ks[len(show)-1] = pair(user, item)
		}
	}
	if err := shown.AddAll(ctx, ks[:len(show)]); err != nil {
		log.Fatal(err) // some may not be recorded: record them again
	}
	fmt.Println(show)
}
