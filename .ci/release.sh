#!/usr/bin/env bash
# The release check (issue 35): can a user `go get` each module of this
# repository once it is tagged? It tags a scratch clone of HEAD as a release
# would (VERSION for the root module, DIR/VERSION for each released nested
# module), serves the tagged modules through a file-based module proxy built
# offline from that clone, and for each module alone makes a consumer module
# outside the repository that `go get`s it at VERSION (no replace, no
# workspace), builds and runs a program importing every one of its public
# packages, and `go install`s its commands at VERSION.
#
# Released nested modules: every nested module (DIR/go.mod, as git ls-files
# finds them) but those of unreleased below. A released module requires the
# root module at the version it is released with, the release's:
#
#	require github.com/simdbloom/bloom v1.0.0
#	replace github.com/simdbloom/bloom => ../
#
# The replace line is for the repository's own builds: Go ignores replace
# lines in a dependency, so users get the required version from the proxy.
# A new nested module joins the release with one line, that require (until
# then this check fails, naming the command that writes it).
#
# VERSION is the argument, or else the version the released nested modules
# require (they must all require the same one), or else v1.0.0. Only HEAD is
# checked: uncommitted changes are not in the clone.
#
# The simdbloom modules come only from the file proxy: the consumers use a
# module cache of their own, which starts empty; the other modules come from
# the normal module cache's download directory (a file proxy too, so nothing
# already downloaded is downloaded again), then from `go env GOPROXY`.
#
# Usage, from anywhere: bash .ci/release.sh [VERSION]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=github.com/simdbloom/bloom
start=$SECONDS

# The nested modules that are not for users, never tagged: the generator,
# the peer benchmarks, and the tests against parquet-go. Their go.mod
# requires the root at v0.0.0, with a replace line.
unreleased='asm bench parquet/interop'

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
took() { echo "  ($1: $((SECONDS - $2))s)"; }

# The settings the user's go env holds, before GOENV=off below hides them.
user_proxy=$(go env GOPROXY)
user_sumdb=$(go env GOSUMDB)
user_cache=$(go env GOMODCACHE)

# root_require GOMOD: the version of $mod that GOMOD requires (empty if none).
root_require() {
  awk -v m="$mod" '$1 == "require" && $2 == m { print $3 } $1 == m && $2 != "=>" { print $2 }' "$1"
}

# The scratch clone, HEAD only, without the repository's own tags.
git clone -q --no-local --no-tags "$root" "$tmp/repo"
head=$(git -C "$tmp/repo" rev-parse --short HEAD)
echo "release check of HEAD ($head) of $root"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "note: the working tree has uncommitted changes; only HEAD is checked"
fi

fail=0
released=() versions=()
for gomod in $(git -C "$tmp/repo" ls-files '*/go.mod'); do
  dir=$(dirname "$gomod")
  if [[ " $unreleased " == *" $dir "* ]]; then continue; fi
  released+=("$dir")
  versions+=("$(root_require "$tmp/repo/$gomod")")
done
version=${1:-}
if [ -z "$version" ]; then
  version=$(printf '%s\n' "${versions[@]}" | grep -Ex 'v[0-9]+\.[0-9]+\.[0-9]+' | grep -vx v0.0.0 | head -n1 || true)
  version=${version:-v1.0.0}
fi
echo "version $version; nested modules released: ${released[*]:-none}; not released: $unreleased"

# Each released module requires the root at the version it is released with,
# and replaces nothing but modules of this repository: a user's build ignores
# every replace line, so another one would make the user's build differ from
# the repository's. The root replaces nothing (go install ...@version refuses
# a module with replace lines).
for i in "${!released[@]}"; do
  if [ -n "${versions[$i]}" ] && [ "${versions[$i]}" != "$version" ]; then
    echo "FAIL: ${released[$i]}/go.mod requires $mod ${versions[$i]}, not the release's $version (a user's go get asks the proxy for ${versions[$i]}):"
    echo "  cd ${released[$i]} && go mod edit -require=$mod@$version"
    fail=1
  fi
done
for dir in . "${released[@]}"; do
  bad=$(awk -v m="$mod" '
    $1 == "replace" && $2 != "(" { $0 = substr($0, index($0, $2)) ; print; next }
    $1 == "replace" { inblock = 1; next }
    inblock && $1 == ")" { inblock = 0; next }
    inblock { print }' "$tmp/repo/$dir/go.mod" |
    awk -v m="$mod" -v dir="$dir" '
      dir == "." { print; next }
      ($1 != m && index($1, m "/") != 1) || $(NF) !~ /^\.\.?(\/|$)/ { print }')
  if [ -n "$bad" ]; then
    echo "FAIL: $dir/go.mod has replace lines a user's build ignores:"
    printf '  %s\n' "$bad"
    fail=1
  fi
done
if [ "$fail" != 0 ]; then exit 1; fi

# Tag the clone as the release would be tagged.
git -C "$tmp/repo" tag "$version"
paths=("$mod@$version")
for dir in "${released[@]}"; do
  git -C "$tmp/repo" tag "$dir/$version"
  paths+=("$mod/$dir@$version")
done

# The file proxy, made by the go command itself: it fetches the tagged
# modules from the clone as from github.com (git's insteadOf points
# https://github.com/simdbloom/bloom at the clone), exactly as a proxy or a
# GOPROXY=direct user would, zips them (nested modules left out of the root,
# as from GitHub), and leaves them in its download cache, whose layout
# ($module/@v/list, $version.info, .mod, .zip) is the GOPROXY protocol's.
t=$SECONDS
cat >"$tmp/gitconfig" <<EOF
[url "$tmp/repo"]
	insteadOf = https://$mod
EOF
(
  cd "$tmp"
  export GIT_CONFIG_GLOBAL="$tmp/gitconfig" GIT_CONFIG_NOSYSTEM=1 GOENV=off GOWORK=off \
    GOFLAGS=-modcacherw GOMODCACHE="$tmp/fetch" GOPROXY=off GOPRIVATE="$mod" GOTOOLCHAIN=local
  go mod download -json "${paths[@]}" >"$tmp/download.json"
)
mkdir -p "$tmp/proxy/github.com"
cp -r "$tmp/fetch/cache/download/github.com/simdbloom" "$tmp/proxy/github.com/"
find "$tmp/proxy" \( -name '*.lock' -o -name '*.ziphash' \) -delete
# The h1: hash of each module zip and go.mod, as "path version hash" lines.
awk -F'"' '$2 == "Path" { p = $4 } $2 == "Version" { v = $4 }
  $2 == "Sum" { print p, v, $4 } $2 == "GoModSum" { print p, v "/go.mod", $4 }' \
  "$tmp/download.json" >"$tmp/sums"
find "$tmp/proxy" -type f | sed "s#^$tmp/proxy/#  proxy: #" | sort
took "file proxy" "$t"

# consumer MODULE: a module outside the repository gets MODULE at $version
# from the proxy and builds a program importing its public packages.
proxy="file://$tmp/proxy"
if [ -d "$user_cache/cache/download" ]; then proxy="$proxy,file://$user_cache/cache/download"; fi
proxy="$proxy,$user_proxy"
consumer() (
  local m=$1 name=${1##*/} t=$SECONDS
  local dir="$tmp/use-$name"
  echo "--- consumer of $m@$version"
  mkdir -p "$dir"
  cd "$dir"
  unset GOPRIVATE GONOPROXY GONOSUMDB GOINSECURE GOFLAGS GOWORK GOROOT_FINAL
  export GOENV=off GOWORK=off GOTOOLCHAIN=local GOMODCACHE="$tmp/mod" GOPROXY="$proxy" \
    GOSUMDB="$user_sumdb" GONOSUMDB="$mod" GOFLAGS="-mod=mod -modcacherw" GOBIN="$tmp/bin"
  printf 'module example.com/consumer\n\ngo 1.24.0\n' >go.mod
  if ! go get "$m@$version" >get.log 2>&1; then cat get.log; exit 1; fi
  # The packages of the module a user may import, and its commands.
  local lib cmds
  lib=$(go list -e -f '{{if and .GoFiles (ne .Name "main")}}{{.ImportPath}}{{end}}' "$m/..." |
    grep -Ev '(^|/)internal(/|$)' || true)
  cmds=$(go list -e -f '{{if and .GoFiles (eq .Name "main")}}{{.ImportPath}}{{end}}' "$m/..." || true)
  if [ -z "$lib" ]; then echo "FAIL: $m@$version has no package a user may import"; exit 1; fi
  {
    echo 'package main'
    echo
    echo 'import ('
    printf '\t_ "%s"\n' $lib
    echo ')'
    echo
    echo 'func main() { println("ok") }'
  } >main.go
  go build -trimpath -o consumer .
  ./consumer
  echo "  imports: $(echo $lib)"
  # Each simdbloom module of the build is the one the proxy served.
  local bad=0 p v h want
  while read -r p v h; do
    case $p in "$mod" | "$mod"/*) ;; *) continue ;; esac
    want=$(awk -v p="$p" -v v="$v" '$1 == p && $2 == v { print $3 }' "$tmp/sums")
    if [ "$h" != "$want" ]; then
      echo "FAIL: the consumer's go.sum holds $p $v $h, the proxy served ${want:-nothing}"
      bad=1
    fi
  done <go.sum
  echo "  go.sum: $(awk '{print $1}' go.sum | sort -u | wc -l) modules; simdbloom: $(awk -v m="$mod" '$1 == m || index($1, m "/") == 1 { print $1 "@" $2 }' go.sum | grep -v /go.mod | sort | tr '\n' ' ')"
  for c in $cmds; do
    GOFLAGS=-modcacherw go install -trimpath "$c@$version"
    echo "  go install $c@$version: ok"
  done
  took "$m" "$t"
  exit "$bad"
)

consumer "$mod"
for dir in "${released[@]}"; do
  consumer "$mod/$dir"
done
echo "release check: ok ($((SECONDS - start))s)"
