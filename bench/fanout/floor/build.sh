#!/bin/sh
# Builds the C floor servers (Watch, Resolve), the Watch and Resolve clients and the pinger next to this script.
cd "$(dirname "$0")" && for p in floor resolve resolver client pinger; do
  cc -O2 -o $p $p.c $(pkg-config --cflags --libs dbus-1) || exit 1
done
