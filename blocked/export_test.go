package blocked

import "unsafe"

// unsafePointer returns the address of the filter's first block.
func unsafePointer(f *Filter) unsafe.Pointer { return unsafe.Pointer(&f.blocks[0]) }
