//go:build !(amd64 || arm64 || 386 || ppc64le || ppc64 || s390x || wasm)

package blocked

// unalignedOK is false where a word load from an address that is not a
// multiple of its size may fault or trap (arm, mips, riscv64, ...): a view
// of a payload at such an address copies it into aligned memory.
const unalignedOK = false
