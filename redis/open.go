package sbredis

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/simdbloom/bloom"
)

// Open returns the filter named name, made by New (in any process), with
// the geometry recorded in Redis. It returns an error wrapping ErrNotFound
// if there is none, bloom.ErrMagic if the key at name is not a filter of
// this package, bloom.ErrHashMismatch if the filter's keys are of another
// family than K (strings and byte slices against integers), and ErrShard if
// a shard is missing or damaged (Open waits up to a second for the shards
// of a filter another process is making).
func Open[K bloom.Key](ctx context.Context, c redis.UniversalClient, name string) (*Filter[K], error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return open[K](ctx, c, name)
}

func open[K bloom.Key](ctx context.Context, c redis.UniversalClient, name string) (*Filter[K], error) {
	meta, err := c.Get(ctx, name).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("sbredis: Open %q: %w", name, ErrNotFound)
	}
	if err != nil {
		if isWrongType(err) {
			return nil, fmt.Errorf("sbredis: Open %q: %w: the key is not a string: %v", name, bloom.ErrMagic, err)
		}
		return nil, fmt.Errorf("sbredis: Open %q: %w", name, err)
	}
	g, err := parseGeometry(meta)
	if err != nil {
		return nil, fmt.Errorf("sbredis: Open %q: %w: %v", name, bloom.ErrMagic, err)
	}
	if want := keyFamily[K](); g.keys != want {
		return nil, fmt.Errorf("sbredis: Open %q: %w: the filter's keys are of family %d, not %d", name, bloom.ErrHashMismatch, g.keys, want)
	}
	f := newFilter[K](c, name, g)
	// Check every shard; wait a little for shards still being made.
	delay := 5 * time.Millisecond
	deadline := time.Now().Add(time.Second)
	for {
		missing, err := f.checkShards(ctx)
		if err == nil {
			return f, nil
		}
		if !missing || time.Now().After(deadline) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("sbredis: Open %q: %w", name, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}

// checkShards checks every shard (queueCheck) and that every counter
// exists. missing tells that the error is only missing keys, as while
// another process makes the filter.
func (f *Filter[K]) checkShards(ctx context.Context) (missing bool, err error) {
	p := f.c.Pipeline()
	exist := make([]*redis.IntCmd, f.g.shards)
	checks := make([]*redis.StringCmd, f.g.shards)
	for i := range f.g.shards {
		exist[i] = p.Exists(ctx, f.shardKeys[i], f.counterKeys[i])
		checks[i] = f.queueCheck(ctx, p, i)
	}
	if _, err := p.Exec(ctx); err != nil {
		return false, f.wrap("Open", err)
	}
	for i := range f.g.shards {
		if err := f.checkShard("Open", i, checks[i].Val(), "", 0); err != nil {
			return exist[i].Val() == 0, err
		}
		if exist[i].Val() != 2 {
			return false, fmt.Errorf("sbredis: Open %q: %w: counter %s missing", f.name, ErrShard, f.counterKeys[i])
		}
	}
	return false, nil
}

// create makes the filter's keys: it returns false if another process
// wrote the name's key first (nothing written), an error if a shard key
// already exists or Redis failed.
func (f *Filter[K]) create(ctx context.Context) (bool, error) {
	p := f.c.Pipeline()
	var ex []*redis.IntCmd
	for i := range f.g.shards {
		ex = append(ex, p.Exists(ctx, f.shardKeys[i]), p.Exists(ctx, f.counterKeys[i]))
	}
	if _, err := p.Exec(ctx); err != nil {
		return false, f.wrap("New", err)
	}
	for _, e := range ex {
		if e.Val() != 0 {
			// Made by another process since open looked?
			if n, err := f.c.Exists(ctx, f.name).Result(); err == nil && n == 1 {
				return false, nil
			}
			return false, fmt.Errorf("sbredis: New %q: %w: key %s exists and was not made by this filter (delete it, or choose another name)",
				f.name, bloom.ErrMagic, e.Args()[1])
		}
	}
	meta := f.g.String()
	ok, err := f.c.SetNX(ctx, f.name, meta, 0).Result()
	if err != nil {
		return false, f.wrap("New", err)
	}
	if !ok {
		return false, nil
	}
	// Counters start at a random value: a replica of a filter that was
	// deleted and made again must not find its old counters. It is above
	// 0, so that an add's INCR that returns 1 made a missing counter.
	var seed [8]byte
	if _, err := rand.Read(seed[:]); err != nil {
		return false, fmt.Errorf("sbredis: New %q: %w", f.name, err)
	}
	start := strconv.FormatUint(binary.LittleEndian.Uint64(seed[:])>>12+1, 10)
	var made []int
	var failed error
	for i := 0; i < f.g.shards && failed == nil; i += 16 {
		p := f.c.Pipeline()
		var cmds []*redis.Cmd
		for j := i; j < min(i+16, f.g.shards); j++ {
			cmds = append(cmds, createScript.Run(ctx, p, []string{f.shardKeys[j], f.counterKeys[j]}, f.g.shardLen(j), f.prefixes[j], start))
		}
		_, err := p.Exec(ctx)
		if err != nil && isNoScript(err) {
			p = f.c.Pipeline()
			cmds = cmds[:0]
			for j := i; j < min(i+16, f.g.shards); j++ {
				cmds = append(cmds, createScript.Eval(ctx, p, []string{f.shardKeys[j], f.counterKeys[j]}, f.g.shardLen(j), f.prefixes[j], start))
			}
			_, err = p.Exec(ctx)
		}
		for j, c := range cmds {
			if v, _ := c.Int(); v == 1 {
				made = append(made, i+j)
			} else if err == nil {
				err = fmt.Errorf("%w: key %s or %s exists and was not made by this filter", bloom.ErrMagic, f.shardKeys[i+j], f.counterKeys[i+j])
			}
		}
		if err != nil {
			failed = f.wrap("New", err)
		}
	}
	if failed != nil {
		// Undo what this call made, with a fresh context: ctx may be done.
		bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		delIfScript.Run(bg, f.c, []string{f.name}, meta)
		for _, i := range made {
			f.c.Del(bg, f.shardKeys[i])
			f.c.Del(bg, f.counterKeys[i])
		}
		return false, failed
	}
	return true, nil
}

// Delete removes the filter from Redis: the name's key, then every shard
// and counter. Lookups and adds of f and of every process's Filter of this
// name fail afterwards (ErrShard), until New makes the name again. An add
// by such a Filter recreates part of its shard (and fails): New then
// refuses the name (bloom.ErrMagic) until Delete runs again, so stop the
// adders of a filter before deleting it.
func (f *Filter[K]) Delete(ctx context.Context) error {
	f.mustBeMade("Delete")
	if err := f.c.Del(ctx, f.name).Err(); err != nil {
		return f.wrap("Delete", err)
	}
	p := f.c.Pipeline()
	for i := range f.g.shards {
		p.Del(ctx, f.shardKeys[i])
		p.Del(ctx, f.counterKeys[i])
	}
	_, err := p.Exec(ctx)
	return f.wrap("Delete", err)
}

func isWrongType(err error) bool {
	return err != nil && strings.Contains(err.Error(), "WRONGTYPE")
}

func isNoScript(err error) bool {
	return err != nil && strings.Contains(err.Error(), "NOSCRIPT")
}

// wrap returns nil for nil, else err with the operation's name, wrapping
// ErrShard for a shard the scripts or commands found changed.
func (f *Filter[K]) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if s := err.Error(); strings.Contains(s, "SBSHARD") || strings.Contains(s, "WRONGTYPE") {
		return fmt.Errorf("sbredis: %s %q: %w: %v", op, f.name, ErrShard, err)
	}
	return fmt.Errorf("sbredis: %s %q: %w", op, f.name, err)
}
