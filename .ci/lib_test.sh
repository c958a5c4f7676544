#!/usr/bin/env bash
# Tests of .ci/lib.sh, alone, in throwaway directories (about 15 seconds):
#
#   - qemu_test runs again a package whose test binary hung, passes when it
#     passes then, and names it in a warning; the hung binary's child,
#     left holding its output, is stopped by PID, while a process outside
#     the run whose command line reads like a stuck QEMU child (what CI's
#     old pkill -f pattern matched) is left alone;
#   - a package that fails otherwise fails qemu_test, with no second run;
#   - generated_changes names the files its command changed or created, and
#     neither a scratch file nor a developer's edit it did not touch;
#   - summary prints every step's duration, marks the step a failure ended,
#     and repeats the warnings.
#
# Run: bash .ci/lib_test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"

dir=$(mktemp -d)
decoy=
cleanup() {
  if [ -n "$decoy" ]; then kill "$decoy" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

# A module of three packages: hang (its test hangs the first time, as a
# test binary whose child is stuck under QEMU), pass and bad.
mkdir -p "$dir/mod/hang" "$dir/mod/pass" "$dir/mod/bad"
printf 'module example.com/fake\n\ngo 1.24.0\n' >"$dir/mod/go.mod"
cat >"$dir/mod/hang/hang_test.go" <<'EOF'
package hang

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestHangOnce, the first time it runs, starts a child that sleeps holding
// the test's output, records its PID, and waits for it: the test binary
// hangs until its -timeout. The second time it passes.
func TestHangOnce(t *testing.T) {
	dir := os.Getenv("FAKE_DIR")
	if _, err := os.Stat(dir + "/hung"); err == nil {
		return
	}
	if err := os.WriteFile(dir+"/hung", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "300")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/child", []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}
EOF
printf 'package pass\n\nimport "testing"\n\nfunc TestPass(t *testing.T) {}\n' >"$dir/mod/pass/pass_test.go"
printf 'package bad\n\nimport "testing"\n\nfunc TestBad(t *testing.T) { t.Fatal("bad") }\n' >"$dir/mod/bad/bad_test.go"

echo "--- qemu_test: a package that hangs once"
# The decoy: not started by qemu_test, its command line what CI's old
# "pkill -f 'qemu-.*-static .*\.test'" ended.
bash -c 'exec -a "qemu-x86_64-static -cpu max /tmp/go-build1/b001/fake.test" sleep 300' &
decoy=$!
sleep 0.2
grep -Eq 'qemu-.*-static .*\.test' <(tr '\0' ' ' <"/proc/$decoy/cmdline") || fail "the decoy's command line is not what the old pattern matched"
rc=0
out=$(cd "$dir/mod" && FAKE_DIR=$dir QEMU_TEST_TIMEOUT=3s qemu_test -count=1 ./hang ./pass 2>&1; echo "rc=$?") || true
echo "$out" | sed 's/^/  | /'
alive "$decoy" || fail "the decoy $decoy, outside the run, was stopped"
child=$(cat "$dir/child")
if alive "$child"; then fail "the hung test's child $child is still running"; fi
grep -qx 'rc=0' <<<"$out" || fail "qemu_test failed on a package that passes when run again"
grep -q 'running again: example.com/fake/hang$' <<<"$out" || fail "qemu_test did not run the hung package again, alone"
grep -q '^WARNING: example.com/fake/hang hung under QEMU' <<<"$out" || fail "no warning names the hung package"
grep -q '^WARNING: .*processes left behind' <<<"$out" || fail "no warning about the stuck child"

echo "--- qemu_test: a package that fails"
out=$(cd "$dir/mod" && QEMU_TEST_TIMEOUT=3s qemu_test -count=1 ./bad ./pass 2>&1; echo "rc=$?") || true
echo "$out" | sed 's/^/  | /'
grep -qx 'rc=0' <<<"$out" && fail "qemu_test passed a failing package"
grep -q 'running again' <<<"$out" && fail "qemu_test ran a failing (not hung) package again"
grep -q '^WARNING' <<<"$out" && fail "a warning for a plain failure"

echo "--- generated_changes"
mkdir "$dir/repo"
(
  cd "$dir/repo"
  git init -q .
  printf 'old\n' >gen.txt
  printf 'same\n' >same.txt
  printf 'a\n' >edited.txt
  git add . && git -c user.name=t -c user.email=t@t commit -qm init
  printf 'a developer edit\n' >edited.txt
  printf 'scratch\n' >scratch.txt
  got=$(generated_changes 2>/dev/null bash -c 'echo output >&2; printf "new\n" >gen.txt; printf "same\n" >same.txt; printf "x\n" >created.txt')
  [ "$got" = "$(printf 'created.txt\ngen.txt')" ] || fail "generated_changes printed [$got], want created.txt and gen.txt"
  got=$(generated_changes true)
  [ -z "$got" ] || fail "generated_changes of a command writing nothing printed [$got]"
  if generated_changes false >/dev/null 2>&1; then fail "generated_changes hid its command's failure"; fi
)

echo "--- summary"
out=$(
  (
    ci_steps=() ci_times=() ci_warnings=() ci_step=
    trap summary EXIT
    step "first"
    warn "something to see"
    step "second"
    false
  ) 2>&1
) || true
echo "$out" | sed 's/^/  | /'
grep -Eq '^ +[0-9]+s +[0-9]+%  first$' <<<"$out" || fail "summary lacks the first step"
grep -Eq '^ +[0-9]+s +[0-9]+%  second \(FAILED\)$' <<<"$out" || fail "summary does not mark the failed step"
[ "$(grep -c '^WARNING: something to see$' <<<"$out")" = 2 ] || fail "the warning is not repeated in the summary"

echo "lib_test: ok"
