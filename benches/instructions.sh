#!/usr/bin/env bash
# Instructions a game, as docs/performance.md counts them: callgrind's count
# of a release `meeple sim --threads 1 --seed 3` of N games, less that of one
# game (the packs' parse and set-up), divided by N - 1. Unlike games/s on a
# shared machine, the count does not move with the machine's load, so two
# builds compare by it to a fraction of a percent.
#
#   benches/instructions.sh                       every `random` row of benches/suite.txt
#   benches/instructions.sh 4 the_gifts           one row: players, packs
#   benches/instructions.sh --games 51 --binary OLD/meeple 2 base
#   benches/instructions.sh --fingerprint         the games each row plays, hashed
#
# Each row is printed with its ratio to the first row (random base 2p in the
# suite), as `meeple bench` gives its games/s: the first row's count divided
# by the row's. The count is an average over the games played, so a row
# moves a little with N (README's base 2p figure is of 1001 games).
#
# `--fingerprint` prints, for each row, a hash of the games `sim --threads 2
# --seed 5 --games 60` plays (every game's seat scores, turns and points by
# reason, from `--games-out`): a change that should not change the games (a
# faster path to the same answers) must give the same hashes.
#
# Needs valgrind (Debian: apt-get install valgrind) for the counts; builds
# `target/release/meeple` first unless --binary names a build.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  # The comment above, up to `set`.
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
}

games=101
binary=""
fingerprint=false
rows=()
while [ $# -gt 0 ]; do
  case "$1" in
    --games)
      [ $# -ge 2 ] || { echo "--games needs a number of games (2 or more), such as --games 101" >&2; exit 2; }
      games="$2"
      shift 2
      ;;
    --binary)
      [ $# -ge 2 ] || { echo "--binary needs the path of a meeple build, such as --binary target/release/meeple" >&2; exit 2; }
      binary="$2"
      shift 2
      ;;
    --fingerprint) fingerprint=true; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "unknown option $1; options are --games N, --binary PATH, --fingerprint (--help)" >&2; exit 2 ;;
    *)
      [ $# -ge 2 ] || { echo "a row is a number of players and the packs, such as: 4 the_gifts,christmas_present" >&2; exit 2; }
      rows+=("$1 $2")
      shift 2
      ;;
  esac
done
case "$games" in
  '' | *[!0-9]*) echo "--games $games is not a number of games; give 2 or more, such as --games 101" >&2; exit 2 ;;
esac
if [ "$games" -lt 2 ]; then
  echo "--games $games: give 2 or more (one game is the set-up subtracted)" >&2
  exit 2
fi

if [ ${#rows[@]} -eq 0 ]; then
  # The suite's random rows: MEASURE PLAYERS PACKS [LABEL].
  while read -r measure players packs _; do
    [ "$measure" = random ] && rows+=("$players $packs")
  done < <(grep -v '^[[:space:]]*\(#\|$\)' benches/suite.txt)
fi
for row in "${rows[@]}"; do
  players="${row%% *}"
  case "$players" in
    '' | *[!0-9]*) echo "row \"$row\": the players come first, a number such as 4" >&2; exit 2 ;;
  esac
done

if [ -z "$binary" ]; then
  cargo build --release --quiet -p meeple-cli
  binary=target/release/meeple
fi
if [ ! -x "$binary" ]; then
  echo "no meeple build at $binary; build one with cargo build --release, or give its path with --binary" >&2
  exit 2
fi
if ! $fingerprint && ! command -v valgrind > /dev/null; then
  echo "valgrind is not installed: the counts are callgrind's (Debian: apt-get install valgrind)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Callgrind's count of instructions for `sim` of $3 games of packs $2 at $1 players.
count() {
  if ! valgrind --tool=callgrind --callgrind-out-file="$work/out" "$binary" sim --threads 1 --seed 3 \
    --players "$1" --rules "$2" --games "$3" > /dev/null 2> "$work/err"; then
    echo "sim --players $1 --rules $2 failed:" >&2
    grep -v '^==' "$work/err" >&2 || true
    exit 1
  fi
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err"
}

first=""
for row in "${rows[@]}"; do
  players="${row%% *}"
  packs="${row#* }"
  if $fingerprint; then
    if ! "$binary" sim --threads 2 --seed 5 --games 60 --players "$players" --rules "$packs" \
      --games-out "$work/games.csv" > /dev/null 2> "$work/err"; then
      echo "sim --players $players --rules $packs failed:" >&2
      cat "$work/err" >&2
      exit 1
    fi
    printf '%s  %s %sp\n' "$(md5sum < "$work/games.csv" | cut -c1-12)" "$packs" "$players"
    continue
  fi
  many="$(count "$players" "$packs" "$games")"
  one="$(count "$players" "$packs" 1)"
  per_game=$(((many - one) / (games - 1)))
  first="${first:-$per_game}"
  printf '%10d a game  %6.3fx  %s %sp\n' "$per_game" \
    "$(awk -v a="$first" -v b="$per_game" 'BEGIN { print a / b }')" "$packs" "$players"
done
