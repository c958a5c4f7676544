package main

// A Scalable encoding's outer payload checksum covers its stages, whose
// payloads have checksums of their own: crcConcat makes the outer one from
// the stages' (and the few bytes between them), so that checkEncoding
// checks both in one pass over the payload. CRC-32C is linear: for byte
// strings A and B, CRC(A B) = CRC(A)·x^(8·len(B)) + CRC(B) modulo its
// polynomial (the all-ones start and end of hash/crc32 cancel out).

// castagnoliPoly is the CRC-32C polynomial in the bit order hash/crc32
// uses: bit 31 holds x^0, bit 0 holds x^31 (x^32 is implicit).
const castagnoliPoly = 0x82f63b78

// gfMul returns a·b modulo the CRC-32C polynomial, both in that bit order.
func gfMul(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 { // a's terms, x^0 first
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 { // b·x overflows into x^32
			b = b>>1 ^ castagnoliPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8n returns x^(8·n) modulo the polynomial, by repeated squaring.
func xPow8n(n uint64) uint32 {
	p := uint32(1) << 31        // x^0
	sq := uint32(1) << (31 - 8) // x^8, then x^16, x^32, ...
	for ; n != 0; n >>= 1 {
		if n&1 != 0 {
			p = gfMul(p, sq)
		}
		sq = gfMul(sq, sq)
	}
	return p
}

// crcConcat returns the CRC-32C (as format.CRC computes it) of A followed
// by B, given crcA = CRC(A), crcB = CRC(B) and lenB = len(B).
func crcConcat(crcA, crcB uint32, lenB uint64) uint32 {
	return gfMul(crcA, xPow8n(lenB)) ^ crcB
}
