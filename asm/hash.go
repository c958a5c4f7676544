package main

// hashKernels emits the root package's key-hashing kernels (-set hash).
func hashKernels() {}
