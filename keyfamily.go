package bloom

import (
	"fmt"

	"github.com/simdbloom/bloom/blocked"
)

// Every typed filter records its key family in its encoding (FORMAT.md,
// compatible flags): byte strings for string and []byte keys, integers for
// the integer types. Hash hashes a string as its bytes and an integer as its
// 8 bytes after widening, so a filter of one family answers every lookup of
// the other wrongly; the typed decoders refuse an encoding of the other
// family with an error wrapping ErrHashMismatch. Integer types of any width
// share a family: widening keeps their hashes (an int32 filter read as an
// int64 one holds the same keys). An encoding that records no family (every
// encoding written before the field) is read as any key type, as it always
// was, and the decoded filter records its key type's family from then on.

// familyOf returns the key family of keys of kind kd.
func familyOf(kd keyKind) blocked.KeyFamily {
	switch kd {
	case kindInvalid:
		return blocked.KeysUnrecorded
	case kindString, kindBytes:
		return blocked.KeysBytes
	}
	return blocked.KeysIntegers
}

// keyFamily returns the key family of K.
func keyFamily[K Key]() blocked.KeyFamily { return familyOf(kindOf[K]()) }

// checkFamily refuses an encoding whose keys are not of K's family; typ
// names the typed filter ("Filter", "Scalable") for the message.
func checkFamily[K Key](recorded blocked.KeyFamily, typ string) error {
	if recorded == blocked.KeysUnrecorded || recorded == keyFamily[K]() {
		return nil
	}
	return fmt.Errorf("%w: the encoding holds keys that are %v, and bloom.%s[%s] reads %v; decode it with a key type of its family (%s)",
		ErrHashMismatch, recorded, typ, typeName[K](), keyFamily[K](), familyTypes(recorded))
}

// typeName returns K as Go source spells it ("[]byte" rather than "[]uint8").
func typeName[K Key]() string {
	var k K
	if n := fmt.Sprintf("%T", k); n != "[]uint8" {
		return n
	}
	return "[]byte"
}

// familyTypes names the key types of family k.
func familyTypes(k blocked.KeyFamily) string {
	switch k {
	case blocked.KeysBytes:
		return "string or []byte"
	case blocked.KeysIntegers:
		return "an integer type"
	}
	return "none this package knows"
}
