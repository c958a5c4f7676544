package blocked

import (
	"fmt"

	"github.com/simdbloom/bloom/internal/errs"
)

// LookupHash reports whether h may have been added to the Filter encoded in
// b, as Reset on a FilterView of its own then HasHash would, without
// allocating: the checks are Reset's (neither checksum, see Verify), and a
// b that fails them gives false and Reset's error. It reads any key hash
// and key family; LookupHashFor also checks them.
func LookupHash(b []byte, h uint64) (bool, error) {
	// Where the one-key assembly exists (amd64), one call that Go inlines
	// into the caller: filterLookupOne does Reset's checks (internal/
	// format's light check) and probes the block as filterHasOne does; a b
	// that fails them it passes on to lookupHashSlow, by a jump, for
	// Reset's error. Elsewhere, lookupHashSlow.
	if oneKeyAsm {
		return filterLookupOne(b, h)
	}
	return lookupHashSlow(b, h)
}

// LookupHashFor is LookupHash for a hash h made by the key hash id from a
// key of family keys: an encoding whose key hash is not id, or that records
// a key family other than keys, gives false and an error wrapping
// bloom.ErrHashMismatch (after Reset's checks, whose error comes first). An
// encoding that records no family (KeysUnrecorded) is read for any keys,
// and keys = KeysUnrecorded reads every family. Like LookupHash it does
// not allocate. Use it where the bytes may hold a filter of other hashes
// (a storage engine's filter blocks): package bloom's Lookup is the key's
// hash, then this call with HashXXH3 and the key's family.
func LookupHashFor(b []byte, h uint64, id HashID, keys KeyFamily) (bool, error) {
	// As LookupHash, with filterLookupKeyed, which also checks the key
	// hash and family, and lookupKeyedSlow.
	if oneKeyAsm {
		return filterLookupKeyed(b, h, lookupWant{uint8(keys), uint8(id)})
	}
	return lookupKeyedSlow(b, h, lookupWant{uint8(keys), uint8(id)})
}

// lookupWant is what LookupHashFor accepts besides Reset's checks: key hash
// id, and a recorded key family that is keys unless keys is KeysUnrecorded
// (an encoding that records none is read for any keys). filterLookupKeyed
// reads its fields by name, and refuses a keys above the family bits,
// passing it on to lookupKeyedSlow.
type lookupWant struct {
	keys uint8 // a KeyFamily
	id   uint8 // a HashID
}

// check returns the error of a key hash or key family that w refuses.
func (w lookupWant) check(id HashID, keys KeyFamily) error {
	if uint8(id) != w.id {
		return fmt.Errorf("%w: the encoding's key hash is %v, the lookup's %v", errs.ErrHashMismatch, id, HashID(w.id))
	}
	if want := KeyFamily(w.keys); keys != KeysUnrecorded && want != KeysUnrecorded && keys != want {
		return fmt.Errorf("%w: the encoding holds keys that are %v, the lookup's are %v", errs.ErrHashMismatch, keys, want)
	}
	return nil
}

// lookupHashSlow is LookupHash without the one-key assembly, or for a b
// that fails the checks (whose error it returns). filterLookupOne jumps
// here with its frame as it is: keep the two signatures the same.
//
//go:noinline
func lookupHashSlow(b []byte, h uint64) (bool, error) {
	var v FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	return v.HasHash(h), nil
}

// lookupKeyedSlow is LookupHashFor without the one-key assembly, or for a
// b that fails the checks (whose error it returns). filterLookupKeyed jumps
// here with its frame as it is: keep the two signatures the same.
//
//go:noinline
func lookupKeyedSlow(b []byte, h uint64, want lookupWant) (bool, error) {
	var v FilterView
	if err := v.Reset(b); err != nil {
		return false, err
	}
	if err := want.check(v.f.hash, v.f.keys); err != nil {
		return false, err
	}
	return v.HasHash(h), nil
}
