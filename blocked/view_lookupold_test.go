package blocked

import (
	"encoding/binary"

	"github.com/simdbloom/bloom/internal/format"
)

// lookupHashOld is LookupHash as it was before it built its Filter-shaped
// value directly (a zeroed Filter on the stack and a checked unsafe.Slice),
// kept for BenchmarkViewLookup's op=old.
func lookupHashOld(b []byte, h uint64) (bool, error) {
	if littleEndian && len(b) >= headerSize {
		hdr := (*[headerSize]byte)(b)
		w0 := binary.LittleEndian.Uint64(hdr[format.OffMagic:])
		nb := binary.LittleEndian.Uint64(hdr[format.OffBlocks:])
		kk := w0 >> 56
		bad := (w0&(1<<56-1) ^ format.Head(format.Filter)) |
			(^((1<<8 | 1<<16) >> (kk & 63)) & 1) | kk>>6 |
			(nb-1)>>32 |
			(binary.LittleEndian.Uint64(hdr[format.OffPayloadLen:]) ^ nb<<6) |
			((uint64(len(b)) - headerSize) ^ nb<<6) |
			uint64(binary.LittleEndian.Uint32(hdr[format.OffIncompat:])&^format.KnownIncompat)
		if bad == 0 {
			var f Filter
			f.blocks = viewBlocks[block](b, variantFilter)[:nb]
			f.k = int(kk)
			return f.HasHash(h), nil
		}
	}
	return false, viewErr(b, variantFilter)
}

// viewLightOld is Reset's checks as they were before format.LightHead and
// format.LightSize: the oracle TestResetHostile compares Reset with.
func viewLightOld(b []byte, v variant, shift uint) (nb uint64, k int, ok bool) {
	if !littleEndian || len(b) < headerSize {
		return 0, 0, false
	}
	hdr := (*[headerSize]byte)(b)
	w0 := binary.LittleEndian.Uint64(hdr[format.OffMagic:])
	nb = binary.LittleEndian.Uint64(hdr[format.OffBlocks:])
	kk := w0 >> 56
	kOK := uint64(1 << 8)
	if v == variantFilter {
		kOK |= 1 << 16
	}
	bad := (w0&(1<<56-1) ^ format.Head(format.Variant(v))) |
		(^(kOK >> (kk & 63)) & 1) | kk>>6 |
		(nb-1)>>32 |
		(binary.LittleEndian.Uint64(hdr[format.OffPayloadLen:]) ^ nb<<shift) |
		((uint64(len(b)) - headerSize) ^ nb<<shift) |
		uint64(binary.LittleEndian.Uint32(hdr[format.OffIncompat:])&^format.KnownIncompat)
	if bad != 0 {
		return 0, 0, false
	}
	return nb, int(kk), true
}

// resetOld is FilterView.Reset as it was (viewLightOld, then the blocks
// made by unsafe.Slice), for BenchmarkViewLookupPaired's op=resetold.
func (v *FilterView) resetOld(b []byte) error {
	nb, k, ok := viewLightOld(b, variantFilter, 6)
	if !ok {
		v.f = Filter{}
		return viewErr(b, variantFilter)
	}
	v.f.blocks = viewBlocks[block](b, variantFilter)[:nb]
	v.f.k = k
	v.f.hash = HashID(b[format.OffHash])
	v.f.keys = KeyFamily(b[format.OffCompat] & uint8(format.CompatKeyMask))
	return nil
}
