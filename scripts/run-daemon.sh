#!/usr/bin/env bash
# Starts liveryd on the session bus, or, when there is no session bus, on a private bus whose
# address is printed for `livery --address`. The shipped themes (the given directory, the source
# tree's themes/) are found by liveryd after the XDG search path, so the user's own themes of the
# same ids come first, as the README's search order says: the directory is not passed as
# --themes-dir, which would put it first. A directory other than the tree's is passed.
#
# The private bus belongs to this script, not to the daemon it started: when that daemon ends
# because `liveryd --replace` took its name over, the bus stays up while anything owns
# org.livery.Livery1 on it, and goes when nothing does any more, or when this script is
# interrupted (Ctrl-C in make run's terminal) or terminated.
set -euo pipefail
bin=$1
themes=$2
here=$(cd "$(dirname "$0")/.." && pwd)
extra=()
if [ "$(cd "$themes" && pwd)" != "$here/themes" ]; then extra=(--themes-dir "$themes"); fi
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --dest=org.freedesktop.DBus --type=method_call \
    --print-reply /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  echo "liveryd on the session bus ($DBUS_SESSION_BUS_ADDRESS); try: $bin/livery list"
  exec "$bin/liveryd" "${extra[@]}"
fi
addr_file=$(mktemp)
dbus-daemon --session --nofork --nopidfile --print-address=3 3>"$addr_file" &
bus=$!
daemon=
stop() {
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null
  kill "$bus" 2>/dev/null
  return 0
}
# Background jobs and `wait` (not a foreground liveryd), so that these run at once.
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap 'stop' EXIT
for _ in $(seq 50); do [ -s "$addr_file" ] && break; sleep 0.1; done
address=$(head -n1 "$addr_file")
rm -f "$addr_file"
echo "No session bus: started a private one."
echo "  export DBUS_SESSION_BUS_ADDRESS='$address'"
echo "then, in another terminal: $bin/livery list   (or: $bin/livery --address '$address' list)"
"$bin/liveryd" "${extra[@]}" --address "$address" &
daemon=$!
status=0
wait "$daemon" || status=$?
daemon=
owned() {
  dbus-send --bus="$address" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.livery.Livery1 2>/dev/null | grep -q 'boolean true'
}
if owned; then
  echo "liveryd was replaced; keeping the private bus while org.livery.Livery1 has an owner (Ctrl-C stops it)"
  while owned; do
    sleep 1 &
    wait $! || true
  done
  echo "org.livery.Livery1 has no owner any more; stopping the private bus"
fi
exit "$status"
