#!/usr/bin/env bash
# Prints the plain closing line 'N passed, N failed' over test results: xUnit files (what
# `swift test --parallel --xunit-output` writes: one <testcase> per test, a <failure> in each
# that failed) or XCTest logs of a serial run (one 'Test Case ... passed' line per test). Exits
# 1 when a test failed or a file is missing (its run did not get to its end).
passed=0
failed=0
status=0
for results in "$@"; do
    if [ ! -s "$results" ]; then
        echo "$results is missing: that run did not finish" >&2
        status=1
        continue
    fi
    case $results in
    *.xml)
        tests=$(grep -c '<testcase ' "$results")
        bad=$(grep -c '<failure' "$results")
        ;;
    *)
        tests=$(grep -cE "^Test Case '.*' (passed|failed)" "$results")
        bad=$(grep -cE "^Test Case '.*' failed" "$results")
        ;;
    esac
    passed=$((passed + tests - bad))
    failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] || status=1
exit $status
