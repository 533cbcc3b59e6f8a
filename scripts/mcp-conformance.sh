#!/usr/bin/env bash
# The MCP conformance suite (@modelcontextprotocol/conformance, server mode) against /mcp, anonymously:
# the scenarios that apply to a server without the suite's test tools. It starts the built service
# (dist/main.js) on a free port with a database of its own, or tests MCP_URL when set. The suite needs
# Node 22, which `npx -p node@22` brings; when npx cannot fetch it, the run is skipped with a message.
# Usage: bash scripts/mcp-conformance.sh   (after `npm run build`)
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.1.16
SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection)
npx_node22=(npx -y -p node@22 -p "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" --)

if ! "${npx_node22[@]}" node --version > /dev/null 2>&1; then
  echo "SKIPPED: npx could not fetch Node 22 and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION (is the npm registry reachable?)"
  exit 0
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2> /dev/null || true; wait "$server_pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

url="${MCP_URL:-}"
if [ -z "$url" ]; then
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  # No PUBLIC_URL: /mcp answers loopback names only, as a local server should (the DNS rebinding scenario).
  env -u PUBLIC_URL -u MCP_ALLOWED_HOSTS -u MCP_ALLOWED_ORIGINS -u DATABASE_URL PORT="$port" DATA_DIR="$work" LOG_LEVEL=warn \
    node dist/main.js > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$port/health/live" > /dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/health/live" > /dev/null || { echo "the service did not start:"; cat "$work/server.log"; exit 1; }
  url="http://localhost:$port/mcp"
fi

passed=0
failed=0
for scenario in "${SCENARIOS[@]}"; do
  if output=$("${npx_node22[@]}" conformance server --url "$url" --scenario "$scenario" -o "$work/results" 2>&1) &&
    grep -q ', 0 failed' <<< "$output"; then
    passed=$((passed + 1))
    echo "conformance $scenario: passed"
  else
    failed=$((failed + 1))
    echo "conformance $scenario: FAILED"
    grep -v '^npm warn' <<< "$output"
  fi
done
echo "mcp-conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
