//go:build amd64 || arm64 || 386 || ppc64le || ppc64 || s390x || wasm

package blocked

// unalignedOK is true where loading a word from any address is correct and
// cheap: the views then use payloads where they are, at any address.
const unalignedOK = true
