package blocked

// The pure-Go kernels: the path on every processor without SIMD, and the
// reference every assembly kernel must equal bit for bit. The k = 8 key
// operations are Filter.AddHash and Filter.HasHash themselves (filter.go).

// add16 sets two bits in each word of b for x (k = 16).
func add16(b *block, x uint32) {
	b[0] |= 1<<((x*salt0)>>26) | 1<<((x*salt8)>>26)
	b[1] |= 1<<((x*salt1)>>26) | 1<<((x*salt9)>>26)
	b[2] |= 1<<((x*salt2)>>26) | 1<<((x*salt10)>>26)
	b[3] |= 1<<((x*salt3)>>26) | 1<<((x*salt11)>>26)
	b[4] |= 1<<((x*salt4)>>26) | 1<<((x*salt12)>>26)
	b[5] |= 1<<((x*salt5)>>26) | 1<<((x*salt13)>>26)
	b[6] |= 1<<((x*salt6)>>26) | 1<<((x*salt14)>>26)
	b[7] |= 1<<((x*salt7)>>26) | 1<<((x*salt15)>>26)
}

// has16 reports whether all sixteen bits of x are set in b (k = 16), without branches.
func has16(b *block, x uint32) bool {
	v := b[0] >> ((x * salt0) >> 26) & (b[0] >> ((x * salt8) >> 26))
	v &= b[1] >> ((x * salt1) >> 26) & (b[1] >> ((x * salt9) >> 26))
	v &= b[2] >> ((x * salt2) >> 26) & (b[2] >> ((x * salt10) >> 26))
	v &= b[3] >> ((x * salt3) >> 26) & (b[3] >> ((x * salt11) >> 26))
	v &= b[4] >> ((x * salt4) >> 26) & (b[4] >> ((x * salt12) >> 26))
	v &= b[5] >> ((x * salt5) >> 26) & (b[5] >> ((x * salt13) >> 26))
	v &= b[6] >> ((x * salt6) >> 26) & (b[6] >> ((x * salt14) >> 26))
	v &= b[7] >> ((x * salt7) >> 26) & (b[7] >> ((x * salt15) >> 26))
	return v&1 != 0
}

// addHashesGeneric adds every hash of hs to f.
func addHashesGeneric(f *Filter, hs []uint64) {
	if f.k == 8 {
		for _, h := range hs {
			f.AddHash(h)
		}
		return
	}
	for _, h := range hs {
		add16(f.blockAt(h), uint32(h))
	}
}

// hasHashesGeneric looks up every hash of hs; out has the length of hs.
func hasHashesGeneric(f *Filter, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	if f.k == 8 {
		for i, h := range hs {
			r := f.HasHash(h)
			out[i] = r
			n += int(b2u(r))
		}
		return n
	}
	for i, h := range hs {
		r := has16(f.blockAt(h), uint32(h))
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// b2u converts a bool to 0 or 1 without a branch.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
