#!/usr/bin/env bash
# `npm run lint`: ESLint (typed rules), Prettier, the type-check of everything tsconfig.json covers
# (tests and bench included, which `npm run build` leaves out) and the dependency rules, side by
# side. ESLint alone takes about as long as the other three together; run one after the other, the
# four took over a minute on a cold cache. Each check's output is printed once all have ended, and
# the script fails if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

check() {
  local name=$1
  shift
  ("$@" > "$out/$name.log" 2>&1; echo $? > "$out/$name.status") &
}

check eslint "$bin/eslint" --cache --cache-location node_modules/.cache/eslint/ .
check prettier "$bin/prettier" --check --cache .
check tsc "$bin/tsc" --noEmit -p tsconfig.json
check depcruise "$bin/depcruise" src --config .dependency-cruiser.cjs --output-type err
wait

failed=0
for name in eslint prettier tsc depcruise; do
  status=$(cat "$out/$name.status")
  if [ "$status" -ne 0 ]; then
    printf '\n=== %s failed (exit %s)\n' "$name" "$status"
    failed=1
  else
    printf '\n=== %s\n' "$name"
  fi
  cat "$out/$name.log"
done
exit "$failed"
