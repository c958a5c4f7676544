#!/usr/bin/env bash
# What a user's module gains from importing simdbloom: a throwaway consumer at
# `go 1.24.0` imports bloom, blocked, cuckoo and parquet, runs `go mod tidy`
# against this checkout, and fails if its go.sum holds any module beyond the
# library's own dependencies, if its go line was raised, or if the module
# holds developer tooling. Benchmark peers and tools live in the nested
# bench/ module and must never show up here.
# Run from anywhere: bash .ci/consumer.sh [checkout, default this one]
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)

# The library's requirements and what they need. github.com/zeebo/assert is
# required by zeebo/xxh3's own go.mod (for xxh3's tests; v1.1.0 is the latest
# xxh3): every user of xxh3 records its checksum, never builds it.
allowed='github.com/klauspost/cpuid/v2
github.com/zeebo/xxh3
github.com/cespare/xxhash/v2
golang.org/x/sys
github.com/zeebo/assert'
want_go='1.24.0'

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat >"$dir/go.mod" <<EOF
module example.com/consumer

go $want_go

require github.com/simdbloom/bloom v0.0.0

replace github.com/simdbloom/bloom => $root
EOF

cat >"$dir/main.go" <<'EOF'
package main

import (
	"fmt"

	"github.com/simdbloom/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/cuckoo"
	sbparquet "github.com/simdbloom/bloom/parquet"
)

func main() {
	f, _ := bloom.New[string](1000, 0.01)
	f.Add("a")
	b, _ := blocked.New(1000, 0.01)
	b.AddHash(bloom.Hash("b"))
	c, _ := cuckoo.New(1000, 0.01)
	s, _ := sbparquet.New(1000, 0.01)
	s.AddHash(sbparquet.HashString("d"))
	fmt.Println(f.Has("a"), b.HasHash(bloom.Hash("b")), c != nil, s.HasHash(sbparquet.HashString("d")))
}
EOF

cd "$dir"
# GOTOOLCHAIN=local: tidy must not switch toolchains to satisfy a raised go line.
GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod tidy
GOTOOLCHAIN=local go build -o /dev/null .

fail=0
found=$(awk '{print $1}' go.sum | sort -u)
extra=$(comm -23 <(printf '%s\n' "$found") <(printf '%s\n' "$allowed" | sort -u))
echo "consumer go.sum holds:"
printf '  %s\n' $found
if [ -n "$extra" ]; then
  echo "FAIL: the consumer's go.sum holds modules beyond the library's own dependencies:"
  printf '  %s\n' $extra
  fail=1
fi
# The module download holds no developer tooling: the benchmark harness
# (benchkit, cputime), the charts (plot) and the llvm-mca model (mca) live in
# the nested bench/ module, which a module zip leaves out like every
# directory with a go.mod.
# Two views: the packages the consumer's go command finds in the module, and
# the files a module zip of this checkout holds (git's files, less nested
# modules, as the go command zips a version).
tooling='internal/mca internal/benchkit internal/cputime internal/plot'
pkgs=$(GOTOOLCHAIN=local go list -f '{{.ImportPath}}' github.com/simdbloom/bloom/...)
echo "the consumer sees $(printf '%s\n' $pkgs | wc -l) packages of github.com/simdbloom/bloom"
files=
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  nested=$(git -C "$root" ls-files '*/go.mod' | xargs -r -n1 dirname)
  files=$(git -C "$root" ls-files | awk -v nested="$nested" '
    BEGIN { n = split(nested, d, "\n") }
    { for (i = 1; i <= n; i++) if (d[i] != "" && index($0, d[i] "/") == 1) next; print }')
  echo "a module zip of $root holds $(printf '%s\n' "$files" | wc -l) files (nested modules left out: $(echo $nested))"
else
  echo "note: $root is not a git checkout; only the package list is checked"
fi
for t in $tooling; do
  if printf '%s\n' $pkgs | grep -qx "github.com/simdbloom/bloom/$t"; then
    echo "FAIL: the module holds the tooling package github.com/simdbloom/bloom/$t"
    fail=1
  fi
  if [ -n "$files" ] && printf '%s\n' "$files" | grep -q "^$t/"; then
    echo "FAIL: a module download holds the tooling directory $t/:"
    printf '%s\n' "$files" | grep "^$t/" | sed 's/^/  /'
    fail=1
  fi
done
if [ -n "$files" ] && printf '%s\n' "$files" | grep -q '^bench/'; then
  echo "FAIL: a module download holds bench/ (its go.mod is gone?)"
  fail=1
fi

got_go=$(awk '$1 == "go" {print $2}' go.mod)
echo "consumer go line: go $got_go"
if [ "$got_go" != "$want_go" ]; then
  echo "FAIL: go mod tidy raised the consumer's go line from $want_go to $got_go"
  fail=1
fi
if grep -q '^toolchain' go.mod; then
  echo "FAIL: go mod tidy added a toolchain line: $(grep '^toolchain' go.mod)"
  fail=1
fi
if [ "$fail" = 0 ]; then echo "consumer module: ok"; fi
exit "$fail"
