#!/usr/bin/env bash
# Runs the built tests, each in a process of its own and several at once (SwiftPM's --parallel),
# then prints the closing line 'N passed, N failed'; exits non-zero when a test failed or did not
# run to its end.
#
# Usage: scripts/test.sh SWIFT WORKERS all|unit
#   all   every test target (`make test`); unit: all but EndToEndTests (`make unit`).
#
# Every end-to-end test has a bus, scratch directories and (when it needs one) an X display of
# its own, so they run side by side. The exceptions reach every process of the user, as the
# shipped plugins do on a desktop: the kitty plugin recolours every kitty listening on
# @livery-kitty-*, the vim plugin every neovim, the foot plugin every foot, the shell plugin
# writes to every pseudo-terminal, the waybar plugin signals every waybar and the dunst plugin
# restarts every dunst; and the tests that run those programs or terminals would be
# reached by another test's switch. Those run one at a time, beside the others (SERIAL below).
# Output: .build/test.log (the parallel run, then the serial one), with the xUnit results in
# .build/test-parallel.xml and .build/test-serial.xml.
set -uo pipefail
swift=$1
workers=$2
which=$3
cd "$(dirname "$0")/.."
log=.build/test.log

# The tests that reach, or are reached by, every process of the user (a regular expression
# over `Module.Class/test`).
SERIAL='EndToEndTests\.(RunningProgramPluginTests|TerminalFollowTests|VimPluginTests)(/|$)'
SERIAL+='|EndToEndTests\.PluginTests/(testShellPluginsSequencesArriveOnAPseudoTerminal|testAnUnlinkedShippedPluginsFailuresGoWithIt)$'
# waybar's plugin signals every waybar of the user, dunst's restarts every dunst.
SERIAL+='|EndToEndTests\.DesktopProgramPluginTests/(testSwayWaybarAndMakoFollowASwitch|testI3RofiAndDunstFollowASwitch|testASwayListeningOnAnInheritedSocketIsReloaded|testAnExitedSwayAndASwayConfigCheckArePassedOver)$'
# The plugins that signal or message every polybar, btop … of the user, and their programs.
SERIAL+='|EndToEndTests\.LiveProgramPluginTests(/|$)'

# One `swift test` each; the serial one beside the parallel one (--ignore-lock: both only read
# the build).
run() {
    "$swift" test --skip-build --disable-swift-testing --ignore-lock --parallel "$@" 2>&1
}
rm -f .build/test-parallel.xml .build/test-serial.xml .build/test-serial.log
if [ "$which" = unit ]; then
    run --num-workers "$workers" --skip '^EndToEndTests\.' --xunit-output .build/test-parallel.xml | tee "$log"
    status=$?
else
    run --num-workers 1 --filter "$SERIAL" --xunit-output .build/test-serial.xml >.build/test-serial.log &
    serial=$!
    run --num-workers "$workers" --skip "$SERIAL" --xunit-output .build/test-parallel.xml | tee "$log"
    status=$?
    wait "$serial" || status=1
    echo "== one at a time: $SERIAL" >>"$log"
    cat .build/test-serial.log >>"$log"
    # The serial run's output after the parallel run's, so that its failures are seen too.
    grep -v '^\[[0-9]*/[0-9]*\] Testing ' .build/test-serial.log
fi
results=(.build/test-parallel.xml)
[ "$which" = unit ] || results+=(.build/test-serial.xml)
scripts/test-summary.sh "${results[@]}" || status=1
exit "$status"
