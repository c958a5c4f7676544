package format

// The CRC-32C of two pieces joined, from the CRC of each and the length of
// the second, without reading either again: Verify checks a Scalable's
// stages and its outer payload in one CRC pass over the bytes.
//
// A CRC register is a polynomial over GF(2) of degree below 32, bit 31 the
// coefficient of x^0 and bit 0 that of x^31 (the reflected order of
// Castagnoli's table). Appending n bytes to a message multiplies the
// register by x^(8n) mod P and adds the register of the n bytes alone; the
// initial and final inversions of CRC-32C cancel in the sum, so that
// CRC(a b) = CRC(a) x^(8 len(b)) + CRC(b) mod P on the final values.

// castagnoliReflected is P without its x^32 term, in the reflected order.
const castagnoliReflected = 0x82F63B78

// mulModP returns a*b mod P, both in the reflected order.
func mulModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0 && a != 0; m >>= 1 { // a's terms from x^0 up
		if a&m != 0 {
			p ^= b
			a &^= m
		}
		b = b>>1 ^ (b&1)*castagnoliReflected // b *= x
	}
	return p
}

// x2k[k] is x^(2^k) mod P: x, x^2, x^4, ...
var x2k = func() (t [64 + 3]uint32) {
	t[0] = 1 << 30 // x
	for k := 1; k < len(t); k++ {
		t[k] = mulModP(t[k-1], t[k-1])
	}
	return t
}()

// combineCRC returns the CRC-32C of a followed by b from crcA, the CRC-32C
// of a, crcB, that of b, and n, the length of b: in O(log n) steps, without
// the bytes.
func combineCRC(crcA, crcB uint32, n uint64) uint32 {
	for k := 3; n != 0; k, n = k+1, n>>1 { // x^(8n): n's bits from x^8 up
		if n&1 != 0 {
			crcA = mulModP(x2k[k], crcA)
		}
	}
	return crcA ^ crcB
}
