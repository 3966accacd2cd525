#!/usr/bin/env bash
# Fan-out benchmark of issues 4 and 15 (bench/fanout/README.md): Livery's broadcast Changed to
# 1,000 watching connections against dconf's Notify to 1,000 watchers, a stalled watcher,
# liveryd's resident memory across watch/unwatch cycles and vanishing clients, and the worst case
# the limits permit (65,536 maximum-length watched paths, a 100-process Watch burst) with Peer.Ping
# timed throughout. Everything runs on a private dbus-daemon this script starts; every process it
# started is stopped on exit.
#
# Usage: bench/fanout/run.sh [BIN_DIR [fanout.py options]]   (default: $(swift build -c release --show-bin-path))
# (bench/fanout/run.sh .build/release --quick --out /tmp/worst.md: the worst case alone.)
# Writes bench/fanout/results.md. Exit status 1 when a correctness check fails (a lost,
# duplicated or out-of-order change, a wrong value, a dead daemon); a missed speed target is
# reported in the table, not an error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [ $# -ge 1 ]; then
  bin="$1"
else
  swift="$(command -v swift || echo /opt/swift/usr/bin/swift)"
  bin="$(cd "$repo" && "$swift" build -c release --show-bin-path)"
fi
bin="$(cd "$bin" && pwd)"
for b in liveryd livery; do
  [ -x "$bin/$b" ] || { echo "run.sh: $bin/$b is missing; build it with swift build -c release --product $b" >&2; exit 2; }
done

# Debian packages: the bus, the Python client (dbus-python + GLib), dconf.
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
missing=""
for p in dbus-daemon python3-dbus python3-gi dconf-service dconf-cli; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "run.sh: installing:$missing"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

work="$(mktemp -d /tmp/livery-fanout.XXXXXX)"
status=0
cleanup() {
  # Stop what this run started: every process carrying this run's marker in its environment
  # (the driver's children and anything the private bus activated), and nothing else.
  local marker="BENCH_FANOUT_WORK=$work" pid
  for env in /proc/[0-9]*/environ; do
    pid="${env#/proc/}"; pid="${pid%/environ}"
    [ "$pid" = "$$" ] && continue
    if { tr "\0" "\n" <"$env"; } 2>/dev/null | grep -qxF "$marker"; then
      kill -CONT "$pid" 2>/dev/null || true
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  if [ "$status" = 0 ]; then rm -rf "$work"; else echo "run.sh: logs kept in $work" >&2; fi
}
trap 'status=$?; cleanup; exit $status' EXIT
trap 'exit 130' INT TERM

echo "run.sh: $bin, work dir $work"
# The driver is bounded (a timeout per switch and per phase); this is the outer bound. It runs in
# the background so that a signal to this script interrupts `wait` and the trap runs at once.
BENCH_FANOUT_WORK="$work" timeout --signal=TERM --kill-after=10 600 \
  /usr/bin/python3 "$here/fanout.py" --bin "$bin" --repo "$repo" --work "$work" \
  --out "$here/results.md" "${@:2}" &
wait $!
