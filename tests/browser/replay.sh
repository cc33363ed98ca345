#!/usr/bin/env bash
# The replay viewer in a real browser: headless Chromium opens the page that
# `meeple replay --html` writes for tests/scenarios/base/city_majority.ron at
# step 6, clicks "next", and the DOM must then show step 7 (tile Q, turn 7)
# with the scores the replay gives: Red 10 (the city), Blue 0. Nothing is
# fetched: the page is one file, opened from disk.
#
# Usage: bash tests/browser/replay.sh [MEEPLE_BINARY]; CHROMIUM=path overrides
# /usr/bin/chromium.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
meeple=${1:-$root/target/release/meeple}
chromium=${CHROMIUM:-/usr/bin/chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$meeple" replay "$root/tests/scenarios/base/city_majority.ron" --html "$work/game.html" > /dev/null

# The DOM after the page's script has run, at the address's #fragment.
dom() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
    --dump-dom "file://$work/game.html#$1" 2> /dev/null
}

failed=0
expect() { # expect DOM TEXT WHAT
  if ! grep -qF -- "$2" <<< "$1"; then
    echo "browser test: FAILED: $3 (the page lacks: $2)" >&2
    failed=1
  fi
}

before=$(dom "step=6")
expect "$before" 'data-step="6"' "the page opens at step 6"
expect "$before" 'id="score-0">0<' "before the last tile Red has 0"

after=$(dom "step=6&click=next")
expect "$after" 'data-step="7"' "\"next\" moves to step 7"
expect "$after" '<span id="label">tile Q</span>' "step 7 places Q"
expect "$after" 'id="turn-number">7<' "step 7 is turn 7"
expect "$after" 'id="score-0">10<' "Red's score after the city is 10"
expect "$after" 'id="score-1">0<' "Blue's score is 0"
expect "$after" '<li>Red scored 10 for city</li>' "the turn's events are shown in words"
expect "$after" 'class="last-placed"' "the board is drawn"

if [ "$failed" -ne 0 ]; then
  echo "--- DOM after clicking next (start) ---" >&2
  head -c 4000 <<< "$after" >&2
  exit 1
fi
echo "browser test: ok (the replay viewer steps forward and shows the turn and scores)"
