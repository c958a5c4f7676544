package main

import (
	"math/bits"

	"github.com/simdbloom/bloom"
)

// classic is a textbook Bloom filter of m bits with k independent hash
// functions, the model the seed lesson's formulas describe. Position i of
// key x is xxh3 of x with seed i, mapped onto [0, m) by fastrange.
type classic struct {
	bits []uint64
	m    uint64
	k    int
}

func newClassic(m uint64, k int) *classic {
	return &classic{bits: make([]uint64, (m+63)/64), m: m, k: k}
}

// pos returns position i of key x.
func (c *classic) pos(x uint64, i int) uint64 {
	h := bloom.Hash(x ^ uint64(i)*0x9e3779b97f4a7c15)
	hi, _ := bits.Mul64(h, c.m)
	return hi
}

func (c *classic) add(x uint64) {
	for i := range c.k {
		p := c.pos(x, i)
		c.bits[p/64] |= 1 << (p % 64)
	}
}

func (c *classic) has(x uint64) bool {
	for i := range c.k {
		p := c.pos(x, i)
		if c.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// fill returns the fraction of set bits.
func (c *classic) fill() float64 {
	n := 0
	for _, w := range c.bits {
		n += bits.OnesCount64(w)
	}
	return float64(n) / float64(c.m)
}
