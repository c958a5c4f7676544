package sbredis

import (
	"errors"
	"fmt"

	"github.com/simdbloom/bloom"
)

var (
	// ErrShard means a shard key of the filter is missing, or holds
	// something other than the string of the length the filter gave it (a
	// DEL, FLUSHALL, eviction, a failover to an empty replica, a write by
	// another program), or its change counter is missing. The keys in the
	// shard can no longer be answered; the filter must be rebuilt. It wraps
	// bloom.ErrCorrupt.
	ErrShard = fmt.Errorf("%w: sbredis shard missing or changed", bloom.ErrCorrupt)
	// ErrNotFound means Open found no filter at the name.
	ErrNotFound = errors.New("sbredis: no filter at this name")
	// ErrNotReplicated means an add reached the master but fewer replicas
	// than WithWaitReplicas asks acknowledged it within its timeout. The
	// add is in the master; it may be lost by a failover.
	ErrNotReplicated = errors.New("sbredis: add not acknowledged by enough replicas")
)
