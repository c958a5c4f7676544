# The functions of .ci/run, in a file of their own so that .ci/lib_test.sh
# can try them alone. Source it from bash, with set -euo pipefail.

# Steps and warnings. step NAME ends the step before (its duration goes to
# the summary) and starts NAME; warn MSG prints a warning at once and again
# in the summary; summary, the EXIT trap, prints every step's duration (the
# one a failure ended marked FAILED) and the warnings, pass or fail.
ci_steps=() ci_times=() ci_warnings=() ci_step= ci_step_start=0
step() {
  step_end
  ci_step=$*
  ci_step_start=$SECONDS
  printf '\n=== %s (at %ds)\n' "$*" "$SECONDS"
}
step_end() {
  if [ -n "$ci_step" ]; then
    ci_steps+=("$ci_step")
    ci_times+=($((SECONDS - ci_step_start)))
    printf '=== took %ds: %s\n' $((SECONDS - ci_step_start)) "$ci_step"
    ci_step=
  fi
}
warn() {
  ci_warnings+=("$*")
  printf 'WARNING: %s\n' "$*"
}
summary() {
  local rc=$? i total=$SECONDS
  if [ -n "$ci_step" ] && [ "$rc" != 0 ]; then ci_step="$ci_step (FAILED)"; fi
  step_end
  printf '\n=== summary: %d steps, %dm%02ds\n' "${#ci_steps[@]}" $((total / 60)) $((total % 60))
  for i in "${!ci_steps[@]}"; do
    printf '%6ds %3d%%  %s\n' "${ci_times[$i]}" $((100 * ci_times[i] / (total > 0 ? total : 1))) "${ci_steps[$i]}"
  done
  if [ "${#ci_warnings[@]}" -gt 0 ]; then
    printf '\n=== %d warnings\n' "${#ci_warnings[@]}"
    printf 'WARNING: %s\n' "${ci_warnings[@]}"
  fi
  return "$rc"
}

# session_pids SID: the processes of session SID, from /proc (field 6 of
# /proc/PID/stat, counted after the command name, which may hold spaces).
session_pids() {
  local want=$1 f line sid
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue # gone since the glob
    read -r _ _ _ sid _ <<<"${line##*) }" # state ppid pgrp session ...
    if [ "$sid" = "$want" ]; then
      f=${f#/proc/}
      echo "${f%/stat}"
    fi
  done
}

# own_session LOG CMD...: runs CMD in a session of its own (setsid), its
# output to the terminal and to LOG, and returns its status. Then it stops
# every process CMD left in that session, by PID, with a warning: under
# QEMU, the test binaries' stuck children (see qemu_test). Only processes
# this function started are in the session: nothing else is touched.
own_session() {
  local log=$1 pidfile pid tailpid rc=0 sid left
  shift
  pidfile=$(mktemp)
  # The shell writes its PID, the session's ID, then becomes CMD; setsid
  # -w forks first only if it must, and then waits and returns CMD's status.
  setsid -w bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" >"$log" 2>&1 </dev/null &
  pid=$!
  tail -n +1 -f --pid="$pid" "$log" &
  tailpid=$!
  wait "$pid" || rc=$?
  wait "$tailpid" || true
  sid=$(cat "$pidfile")
  rm -f "$pidfile"
  if [ -n "$sid" ]; then
    left=$(session_pids "$sid")
    if [ -n "$left" ]; then
      warn "$(echo $left | wc -w) processes left behind by: $*; stopped by PID: $(for p in $left; do printf '%s (%s) ' "$p" "$(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | cut -c1-80)"; done)"
      kill -KILL $left 2>/dev/null || true
    fi
  fi
  return "$rc"
}

# qemu_test ARGS...: go test ARGS under qemu-user, with one more run of each
# package whose test binary hung. Debian 12's QEMU 7.2 can leave a forked
# child stuck in the emulator between clone and exec (golang/go#68976 and its
# follow-ups: os/exec under QEMU user mode 7.2 is unreliable); the test binary
# then waits for it until its -timeout ("panic: test timed out"). CI met it in
# internal/childtest's TestLevelsDieOfSignal, the child asleep on a futex with
# the parent's command line. Only packages that timed out are run again, once;
# any other failure fails the step, and a package that passes on the retry is
# a warning naming it. go test runs in a session of its own (own_session), so
# the stuck children are stopped by PID. -timeout 8m bounds the wait: the
# slowest emulated package takes about 2 minutes.
qemu_test() {
  local log rc=0 again a args=()
  log=$(mktemp)
  own_session "$log" go test -timeout "${QEMU_TEST_TIMEOUT:-8m}" "$@" || rc=$?
  if [ "$rc" -eq 0 ]; then
    rm -f "$log"
    return 0
  fi
  # The packages that failed, and among them those that timed out.
  again=$(awk '/^panic: test timed out/ {t=1} /^ok  / {t=0}
    /^FAIL\t/ { if (t) print $2; else bad=1; t=0 } END { if (bad) print "OTHER" }' "$log")
  if [ -z "$again" ] || grep -qx OTHER <<<"$again"; then
    rm -f "$log"
    return "$rc"
  fi
  echo "timed out under QEMU (see qemu_test): running again:" $again
  for a in "$@"; do # the flags, not the packages
    case $a in .|./*) ;; *) args+=("$a") ;; esac
  done
  rc=0
  own_session "$log" go test -timeout "${QEMU_TEST_TIMEOUT:-8m}" "${args[@]}" $again || rc=$?
  rm -f "$log"
  if [ "$rc" -ne 0 ]; then return "$rc"; fi
  for a in $again; do
    warn "$a hung under QEMU (test timed out) and passed when run again (go test ${args[*]})"
  done
}

# generated_changes CMD...: runs CMD (go generate), its output on stderr,
# and prints the files it changed or created, compared by content with what was there before. Files
# it leaves alone, a developer's edits and scratch files included, are not
# looked at.
generated_changes() {
  local before after
  before=$(mktemp)
  after=$(mktemp)
  hash_files >"$before"
  "$@" >&2 || return
  hash_files >"$after"
  LC_ALL=C comm -13 "$before" "$after" | sed 's/^[0-9a-f]*  //'
  rm -f "$before" "$after"
}

# hash_files: the SHA-256 of every file git tracks or could (not ignored).
hash_files() {
  git ls-files -z --cached --others --exclude-standard | xargs -0 -r sha256sum 2>/dev/null | LC_ALL=C sort || true
}
