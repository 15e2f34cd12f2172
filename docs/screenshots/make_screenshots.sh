#!/usr/bin/env bash
# Re-makes the overlay screenshots in this folder (README.md and docs/window.md show them) by driving the
# real window with UI scripts under Xvfb, on a four-team match on the bundled demo table.
#   docs/screenshots/make_screenshots.sh [path/to/duels]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
duels=${1:-$root/build/bin/duels}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
scene=$root/assets/scenes/demo_table.yaml
W=1280
H=800

gui() {
  xvfb-run -a -s "-screen 0 ${W}x${H}x24" "$duels" gui --size "${W}x${H}" --scale 1 \
    --reset-layout "$@" >/dev/null
}
script() { cat >"$work/$1"; }

# A four-team match on the demo table, the figures where the scene has them, all terrain down.
gui --teams "Street Team,Arcane Team,Tech Team,Heavy Team" --scene "$scene" \
  --journal "$work/m.jsonl" --seed 5 --frames 1
script setup.txt <<'EOF'
alpha 6+6 1+1 2+2 3+3
terrain crate
terrain pillar
terrain wall
terrain rubble
pass
pass
pass
pass
EOF
"$duels" match play "$work/m.jsonl" --script "$work/setup.txt" >/dev/null

# Round start: the dice go from cup to base one click each.
cp "$work/m.jsonl" "$work/dice.jsonl"
script dice.ui <<'EOF'
select-die "blue:d8"
select-die "blue:d10:ace"
select-die "green:d6"
select-die "white:d8"
wait 2
EOF
gui --match "$work/dice.jsonl" --scene "$scene" --ui-script "$work/dice.ui" \
  --screenshot "$here/dice.png"

script choose.txt <<'EOF'
choose Razor #0 #2 #3 #4 #5 #6
choose Hex #0 #1 #2 #3 #4 #5
choose Gridlock #0 #1 #2 #3 #4 #5
choose Bulldozer #0 #1 #2 #3 #4 #5
EOF
"$duels" match play "$work/m.jsonl" --script "$work/choose.txt" >/dev/null

# An attack: Razor picks Hex (line of fire clear, tape rings, the advisor's exact odds), looks at
# Gridlock behind the crate (blocked), then attacks Hex with typed dice; Hex picks the dial.
script attack.ui <<EOF
click-base Razor
hover-base Hex
wait-for "#1"
click "#1"
wait 2
screenshot $here/attack.png
hover-base Gridlock
wait 3
screenshot $here/blocked.png
hover-base Hex
wait-for "#1"
select-die "blue:d8"
select-die "blue:d10:ace"
select-die "green:d6"
click "Attack"
click "No dodge"
click "attack die 1"
type "7"
click "attack die 2"
type "ace"
click "attack die 3"
type "5"
click "Use these results"
wait-for "Body"
screenshot $here/damage.png
click "Body"
click "Move Razor…"
select-die "white:d6"
click "Roll movement dice"
hover-table 15 16
wait 3
EOF
gui --match "$work/m.jsonl" --scene "$scene" --ui-script "$work/attack.ui" \
  --screenshot "$here/move.png"

# The demo: both sides played by the built-in opponent.
script demo.ui <<'EOF'
sleep 12000
EOF
gui --teams "Street Team,Arcane Team" --ai 1,2 --auto --seed 3 --journal "$work/demo.jsonl" \
  --ui-script "$work/demo.ui" --screenshot "$here/demo.png"
# The camera picture (the bundled synthetic scene) with the overlay in perspective: Razor
# selected (its tape rings as ellipses on the table), Gridlock hovered (the line of fire).
gui --figures Razor,Gridlock --journal "$work/cam.jsonl" --seed 7 --frames 1
script cam.txt <<'EOF2'
alpha 6+6 1+1
pass
pass
place Razor 18 12
place Gridlock 58 58
choose Razor #0 #1 #2 #3
choose Gridlock #0 #1 #2 #3
EOF2
"$duels" match play "$work/cam.jsonl" --script "$work/cam.txt" >/dev/null
script cam.ui <<'EOF2'
wait-for "bases seen 2"
click-base Razor
hover "camera base Gridlock"
wait 3
EOF2
# (a smaller window: the camera's noisy picture compresses poorly)
W=960 H=640 gui --match "$work/cam.jsonl" --source synthetic:demo --ui-script "$work/cam.ui" \
  --screenshot "$here/camera.png"

# The README's picture: the evening's match (Razor vs Gridlock, README.md) on the synthetic
# camera standing in for a webcam, Razor selected and Gridlock targeted once Razor has moved.
"$duels" match new --figures Razor,Gridlock --journal "$work/evening.jsonl" --seed 7 >/dev/null
script evening.txt <<'EOF2'
alpha 5+3 2+2
pass
pass
place Razor 18 12
place Gridlock 58 58
choose Razor yellow:d8:ace blue:d8 blue:d10:ace green:d6 2xwhite:d6
choose Gridlock white:d6 white:d10 blue:d6:ace blue:d8 black:d6:ace black:d10
EOF2
"$duels" match play "$work/evening.jsonl" --script "$work/evening.txt" >/dev/null
script window.ui <<'EOF2'
wait-for "bases seen 2"
sleep 10000
click-base Razor
hover "camera base Gridlock"
wait 3
wait-for "#1"
wait 5
EOF2
gui --match "$work/evening.jsonl" --source synthetic:demo --ui-script "$work/window.ui" \
  --screenshot "$here/window.png"

# A card game in its tab: Encounters through its console, journaled beside the match.
script cards.ui <<'EOF2'
click "encounters command"
type "player Ann"
key enter
wait 2
type "player Bob"
key enter
wait 2
type "target 40"
key enter
wait 2
click "advise"
wait 3
EOF2
gui --match "$work/m.jsonl" --scene "$scene" --cards encounters \
  --cards-journal "$work/encounters.jsonl" --ui-script "$work/cards.ui" \
  --screenshot "$here/cards.png"

# The calibration wizard on the synthetic board until it has calibrated, then the table
# registered from its corner markers and the file saved.
script calib.ui <<'EOF2'
wait-for "Calibration done"
click "Register the table"
wait-for "table registered"
click "Save calibration"
wait-for "calibration saved"
wait 2
EOF2
gui --match "$work/m.jsonl" --scene "$scene" --calibrate synthetic:3 --ui-script "$work/calib.ui" \
  --calibrate-out "$work/camera.yml" --screenshot "$here/calibration.png"
ls -l "$here"/*.png
