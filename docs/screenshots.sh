#!/usr/bin/env bash
# Remakes the screenshots README.md shows (docs/gallery.png, docs/replay.png)
# with the commands a user runs: `meeple tiles --html`, `meeple sim
# --record-dir`, `meeple replay --html`, then headless Chromium
# (`apt-get install chromium`; CHROMIUM=path overrides /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p meeple-cli
meeple=target/release/meeple
chromium=${CHROMIUM:-/usr/bin/chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$meeple" tiles base --html "$work/tiles.html" > /dev/null
"$meeple" sim --rules base --players 3 --games 1 --seed 4 --agents greedy --record-dir "$work/games" > /dev/null
"$meeple" replay "$work/games/game-00000.ron" --html "$work/replay.html" > /dev/null

shot() { # shot PAGE#FRAGMENT WIDTH,HEIGHT OUTPUT
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size="$2" --screenshot="$3" "file://$work/$1" 2> /dev/null
}
shot tiles.html 1280,1000 docs/gallery.png
shot "replay.html#turn=36" 1400,1000 docs/replay.png
echo "wrote docs/gallery.png and docs/replay.png"
