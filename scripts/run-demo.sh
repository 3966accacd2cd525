#!/usr/bin/env bash
# Shows livery-demo, the GTK 4 window of the sample screen, following liveryd: the daemon on the
# session bus when one runs there; otherwise a liveryd this script starts, on the session bus
# when there is one, or on a private bus as scripts/run-daemon.sh does. What it started stops
# when the window is closed or the script is interrupted. The themes directory is passed to
# both programs unless it is the source tree's (which they find by themselves).
set -euo pipefail
bin=$1
themes=$2
here=$(cd "$(dirname "$0")/.." && pwd)
extra=()
if [ "$(cd "$themes" && pwd)" != "$here/themes" ]; then extra=(--themes-dir "$themes"); fi
bus=
daemon=
# Under `set -e` a failing `kill` (the daemon already gone, say after `liveryd --replace`) would
# end the trap before the bus is stopped: each kill may fail.
stop() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; fi
  if [ -n "$bus" ]; then kill "$bus" 2>/dev/null || true; fi
  return 0
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap 'stop' EXIT
address=()
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --dest=org.freedesktop.DBus --type=method_call \
    --print-reply /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  if "$bin/livery" get >/dev/null 2>&1; then
    echo "liveryd on the session bus; switch themes with: $bin/livery set crimson"
  else
    "$bin/liveryd" "${extra[@]}" &
    daemon=$!
    echo "started liveryd on the session bus; switch themes with: $bin/livery set crimson"
  fi
else
  addr_file=$(mktemp)
  dbus-daemon --session --nofork --nopidfile --print-address=3 3>"$addr_file" &
  bus=$!
  for _ in $(seq 50); do [ -s "$addr_file" ] && break; sleep 0.1; done
  private=$(head -n1 "$addr_file")
  rm -f "$addr_file"
  address=(--address "$private")
  "$bin/liveryd" "${extra[@]}" "${address[@]}" &
  daemon=$!
  echo "No session bus: started liveryd on a private one; switch themes with:"
  echo "  $bin/livery --address '$private' set crimson"
fi
for _ in $(seq 100); do "$bin/livery" "${address[@]}" get >/dev/null 2>&1 && break; sleep 0.1; done
status=0
# On a private bus the window's own session-bus clients (GTK's accessibility) use it too.
if [ -n "$bus" ]; then export DBUS_SESSION_BUS_ADDRESS=$private; fi
"$bin/livery-demo" "${address[@]}" "${extra[@]}" || status=$?
exit "$status"
