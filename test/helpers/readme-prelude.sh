# Put before the README's ```sh blocks by test/readme-examples.e2e-spec.ts (see its header).
set -eo pipefail
__log() { printf '%s\n' "$*" >> "$README_LOG"; }

# curl as the README shows it, plus: quiet progress, a time limit, and its status written to the log.
curl() {
  local err rc=0 status args
  err=$(mktemp)
  command curl --silent --show-error --max-time 30 "$@" --write-out '%{stderr}\n@status %{http_code}\n' 2>"$err" || rc=$?
  status=$(sed -n 's/^@status //p' "$err" | tail -n 1)
  grep -v '^@status ' "$err" | sed '/^$/d' >&2 || true
  rm -f "$err"
  args="$*"
  args=${args//$'\n'/ }
  __log "call	${status:-000}	${args:0:300}"
  return $rc
}

__expect() { __log "expect	$1	$2"; }

CAL_SERVER_PID=
__stop_server() {
  if [ -n "$CAL_SERVER_PID" ]; then
    kill "$CAL_SERVER_PID" 2>/dev/null || true
    wait "$CAL_SERVER_PID" 2>/dev/null || true
    CAL_SERVER_PID=
  fi
}
trap __stop_server EXIT

CAL_SERVER_ENV=
__owns_port() {
  command -v ss > /dev/null || return 0
  ss -Hltnp "sport = :$PORT" | grep -q "pid=$CAL_SERVER_PID,"
}

__start_server() {
  local environment
  environment=$(env | grep -v -E '^(_|PWD|OLDPWD|SHLVL)=' | sort)
  # Already running with this environment (the demo's `npm start` after the first one): nothing to do.
  if [ -n "$CAL_SERVER_PID" ] && [ "$environment" = "$CAL_SERVER_ENV" ] && kill -0 "$CAL_SERVER_PID" 2>/dev/null; then return 0; fi
  __stop_server
  CAL_SERVER_ENV=$environment
  node "$CAL_DIST/main.js" >> server.log 2>&1 &
  CAL_SERVER_PID=$!
  for _ in $(seq 1 600); do
    # Ready, and on the port by this server: while a new database migrates, another process of the
    # machine (a test's short-lived server) may hold the port for a moment and answer instead.
    if command curl --silent --fail --output /dev/null "http://127.0.0.1:$PORT/health/ready" && __owns_port; then return 0; fi
    if ! kill -0 "$CAL_SERVER_PID" 2>/dev/null; then echo "npm start: the server exited; server.log:" >&2; tail -n 20 server.log >&2; return 1; fi
    sleep 0.1
  done
  echo "npm start: the server was not ready within 60 s" >&2
  return 1
}

npm() {
  case "$1" in
    install | ci) return 0 ;;
    start) __start_server ;;
    run)
      shift
      if [ "$1" = --silent ]; then shift; fi
      if [ "$1" != cli ]; then echo "npm run $1: not run by the README test (fence the block as console)" >&2; return 1; fi
      shift
      if [ "$1" = -- ]; then shift; fi
      # The demo's block seeds before `npm start`: a server left running by an earlier section
      # would be a second writer of the SQLite file while the demo is written.
      if [ "$1" = seed:demo ]; then __stop_server; fi
      node "$CAL_DIST/cli.js" "$@"
      ;;
    *) echo "npm $1: not run by the README test (fence the block as console)" >&2; return 1 ;;
  esac
}
