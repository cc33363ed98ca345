#!/usr/bin/env bash
# Instructions a game, as docs/performance.md counts them: callgrind's count
# of a release `meeple sim --threads 1 --seed 3` of N games, less that of one
# game (the packs' parse and set-up), divided by N - 1. Unlike games/s on a
# shared machine, the count does not move with the machine's load, so two
# builds compare by it to a fraction of a percent.
#
#   benches/instructions.sh                       every `random` row of benches/suite.txt
#   benches/instructions.sh 4 the_gifts           one row: players, packs
#   benches/instructions.sh --games 51 --binary old/meeple 2 base
#   benches/instructions.sh --fingerprint         a checksum of the games each row plays
#
# Options come before the rows. Paths (--binary, a pack's .rules file) are
# read from the directory the script is run in.
#
# Each row is printed with its ratio to the first row (random base 2p in the
# suite), as `meeple bench` gives its games/s: the first row's count divided
# by the row's. The count is an average over the games played, so a row
# moves a little with N (README's base 2p figure is of 1001 games).
#
# `--fingerprint` prints instead, for each row, a checksum of the games
# `sim --threads 2 --seed 5 --games 60` plays (every game's seat scores,
# turns and points by reason, from `--games-out`), and needs no valgrind.
# Run it with the build before a change and with the one after: a change
# meant to leave the games alone (a faster path to the same answers) must
# print the same checksums.
#
# Needs valgrind (Debian: apt-get install valgrind) for the counts; builds
# `target/release/meeple` first unless --binary names a build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
  # The comment above, up to `set`.
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
}
fail() {
  echo "$1" >&2
  exit 2
}

games=""
binary=""
fingerprint=false
rows=()
labels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --games)
      [ $# -ge 2 ] || fail "--games needs a number of games (2 or more), such as --games 101"
      games="$2"
      shift 2
      ;;
    --binary)
      [ $# -ge 2 ] || fail "--binary needs the path of a meeple build, such as --binary target/release/meeple"
      binary="$2"
      shift 2
      ;;
    --fingerprint) fingerprint=true; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) fail "unknown option $1; options are --games N, --binary PATH, --fingerprint (--help)" ;;
    *)
      [ $# -ge 2 ] || fail "\"$1\" is left without packs: a row is a number of players and the packs, such as 4 the_gifts,christmas_present"
      case "$1" in
        '' | *[!0-9]* | 0*) fail "row \"$1 $2\": the players come first, a number such as 4" ;;
      esac
      case "$2" in
        -*) fail "row \"$1 $2\": options go before the rows" ;;
      esac
      rows+=("$1 $2")
      labels+=("$2")
      shift 2
      ;;
  esac
done
if $fingerprint; then
  # The games fingerprinted are fixed, so that checksums compare across runs.
  [ -z "$games" ] || fail "--fingerprint plays a fixed 60 games a row; leave out --games"
else
  games="${games:-101}"
  case "$games" in
    '' | *[!0-9]*) fail "--games $games is not a number of games; give 2 or more, such as --games 101" ;;
  esac
  # Read in base 10 (a leading 0 is no octal here, as it is none for sim).
  [ ${#games} -le 6 ] || fail "--games $games: give at most 999999 (101 takes about a second a row)"
  games=$((10#$games))
  [ "$games" -ge 2 ] || fail "--games $games: give 2 or more (one game is the set-up subtracted)"
  command -v valgrind > /dev/null || fail "valgrind is not installed: the counts are callgrind's (Debian: apt-get install valgrind)"
fi

if [ ${#rows[@]} -eq 0 ]; then
  # The suite's random rows: MEASURE PLAYERS PACKS [LABEL].
  while read -r measure players packs label; do
    if [ "$measure" = random ]; then
      rows+=("$players $packs")
      labels+=("${label:-$packs}")
    fi
  done < <(grep -v '^[[:space:]]*\(#\|$\)' "$root/benches/suite.txt")
fi

if [ -z "$binary" ]; then
  cargo build --release --quiet -p meeple-cli --manifest-path "$root/Cargo.toml"
  binary="$root/target/release/meeple"
fi
if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
  fail "no meeple build at $binary; build one with cargo build --release, or give its path with --binary"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Callgrind's count of instructions for `sim` of $3 games of packs $2 at $1 players.
count() {
  if ! valgrind --tool=callgrind --callgrind-out-file="$work/out" "$binary" sim --threads 1 --seed 3 \
    --players "$1" --rules "$2" --games "$3" > /dev/null 2> "$work/err"; then
    echo "sim --players $1 --rules $2 failed:" >&2
    grep -v '^==' "$work/err" >&2 || true
    return 1
  fi
  local n
  n="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")"
  if [ -z "$n" ]; then
    echo "callgrind gave no count for sim --players $1 --rules $2 with $binary (is it a meeple build?)" >&2
    return 1
  fi
  echo "$n"
}

first=""
for i in "${!rows[@]}"; do
  players="${rows[$i]%% *}"
  packs="${rows[$i]#* }"
  label="${labels[$i]} ${players}p"
  if $fingerprint; then
    rm -f "$work/games.csv"
    if ! "$binary" sim --threads 2 --seed 5 --games 60 --players "$players" --rules "$packs" \
      --games-out "$work/games.csv" > /dev/null 2> "$work/err" || [ ! -s "$work/games.csv" ]; then
      echo "sim --players $players --rules $packs failed or wrote no games with $binary:" >&2
      cat "$work/err" >&2
      exit 1
    fi
    # Builds since the `slot` column (the seat's agent slot, the seat
    # itself here) hash the same lines as builds before it.
    if head -1 "$work/games.csv" | grep -q '^game,seed,seat,slot,'; then
      awk -F, -v OFS=, '{ out = $1; for (i = 2; i <= NF; i++) if (i != 4) out = out OFS $i; print out }' \
        "$work/games.csv" > "$work/games.cut" && mv "$work/games.cut" "$work/games.csv"
    fi
    printf '%10s  %s\n' "$(cksum < "$work/games.csv" | cut -d' ' -f1)" "$label"
    continue
  fi
  many="$(count "$players" "$packs" "$games")" || exit 1
  one="$(count "$players" "$packs" 1)" || exit 1
  per_game=$(((many - one) / (games - 1)))
  if [ "$per_game" -le 0 ]; then
    echo "sim --players $players --rules $packs: $games games counted no more than one ($many against $one); is $binary a meeple build?" >&2
    exit 1
  fi
  first="${first:-$per_game}"
  printf '%10d a game  %6.3fx  %s\n' "$per_game" \
    "$(awk -v a="$first" -v b="$per_game" 'BEGIN { print a / b }')" "$label"
done
