#!/usr/bin/env bash
# Starts liveryd with the given themes directory on the session bus, or, when there is no
# session bus, on a private bus whose address is printed for `livery --address`.
set -euo pipefail
bin=$1
themes=$2
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --dest=org.freedesktop.DBus --type=method_call \
    --print-reply /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  echo "liveryd on the session bus ($DBUS_SESSION_BUS_ADDRESS); try: $bin/livery list"
  exec "$bin/liveryd" --themes-dir "$themes"
fi
addr_file=$(mktemp)
dbus-daemon --session --nofork --nopidfile --print-address=3 3>"$addr_file" &
bus=$!
trap 'kill $bus 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$addr_file" ] && break; sleep 0.1; done
address=$(head -n1 "$addr_file")
rm -f "$addr_file"
echo "No session bus: started a private one."
echo "  export DBUS_SESSION_BUS_ADDRESS='$address'"
echo "then, in another terminal: $bin/livery list   (or: $bin/livery --address '$address' list)"
"$bin/liveryd" --themes-dir "$themes" --address "$address"
