#!/usr/bin/env bash
# Prints the plain closing line 'N passed, N failed' from an XCTest log (one count per test case).
log=$1
passed=$(grep -cE "^Test Case '.*' passed" "$log")
failed=$(grep -cE "^Test Case '.*' failed" "$log")
echo "$passed passed, $failed failed"
