package blocked

import (
	"encoding/binary"

	"github.com/simdbloom/bloom/internal/format"
)

// lookupHashOld is LookupHash as it was before it built its Filter-shaped
// value directly (a zeroed Filter on the stack and a checked unsafe.Slice),
// kept for BenchmarkViewLookup's op=old.
func lookupHashOld(b []byte, h uint64) (bool, error) {
	if littleEndian && len(b) >= HeaderSize {
		hdr := (*[HeaderSize]byte)(b)
		w0 := binary.LittleEndian.Uint64(hdr[offMagic:])
		nb := binary.LittleEndian.Uint64(hdr[offBlocks:])
		kk := w0 >> 56
		bad := (w0&(1<<56-1) ^ viewHead(VariantFilter)) |
			(^((1<<8 | 1<<16) >> (kk & 63)) & 1) | kk>>6 |
			(nb-1)>>32 |
			(binary.LittleEndian.Uint64(hdr[offPayloadLen:]) ^ nb<<6) |
			((uint64(len(b)) - HeaderSize) ^ nb<<6) |
			uint64(binary.LittleEndian.Uint32(hdr[offIncompat:])&^format.KnownIncompat)
		if bad == 0 {
			var f Filter
			f.blocks = viewBlocks[block](b, VariantFilter)[:nb]
			f.k = int(kk)
			return f.HasHash(h), nil
		}
	}
	return false, viewErr(b, VariantFilter)
}
