package cuckoo

// Semi-sorting (Fan et al., 2014): a bucket's 4 fingerprints are kept in
// ascending order, so their top 4 bits (nibbles) are a sorted 4-tuple of
// values 0..15. There are C(19, 4) = 3876 such tuples, which fit in 12 bits
// instead of 16: the bucket stores the tuple's rank, then the remaining
// f-4 bits of each fingerprint in slot order.

// codeBits is the size of a bucket's nibble code.
const codeBits = 12

// numCodes is the number of sorted 4-tuples of nibbles.
const numCodes = 3876

// decodeNibbles maps a code to its 4 sorted nibbles, the smallest in the
// low 4 bits. Codes numCodes and up are never stored (decoders refuse
// them); their entries are 0.
var decodeNibbles [1 << codeBits]uint16

// binom[k][x] is C(x, k+1): the colex ranking of 4-subsets of [0, 19).
var binom [4][19]uint16

func init() {
	for x := range 19 {
		c := 1 // C(x, k+1), built from C(x, k)
		for k := range 4 {
			c = c * (x - k) / (k + 1)
			binom[k][x] = uint16(max(c, 0))
		}
	}
	for a := range 16 {
		for b := a; b < 16; b++ {
			for c := b; c < 16; c++ {
				for d := c; d < 16; d++ {
					nib := uint64(a | b<<4 | c<<8 | d<<12)
					decodeNibbles[encodeNibbles(nib)] = uint16(nib)
				}
			}
		}
	}
	archInit()
}

// encodeNibbles returns the code of the 4 sorted nibbles of nib (the
// smallest in the low 4 bits): the colex rank of the set {n0, n1+1, n2+2,
// n3+3}, a 4-subset of [0, 19).
func encodeNibbles(nib uint64) uint16 {
	return binom[0][nib&15] + binom[1][nib>>4&15+1] + binom[2][nib>>8&15+2] + binom[3][nib>>12&15+3]
}

// sort4 sorts 4 values in ascending order (a sorting network).
func sort4(s *[bucketSize]uint64) {
	cs := func(i, j int) {
		if s[i] > s[j] {
			s[i], s[j] = s[j], s[i]
		}
	}
	cs(0, 1)
	cs(2, 3)
	cs(0, 2)
	cs(1, 3)
	cs(1, 2)
}
