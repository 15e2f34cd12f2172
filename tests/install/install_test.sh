#!/usr/bin/env bash
# Installs Duels Companion the two ways a player would and runs it from an unrelated folder:
#   1. `cmake --install BUILD --prefix TMP/prefix` → TMP/prefix/bin/duels finds its assets in
#      TMP/prefix/share/duels-companion (relative to itself, not the source tree);
#   2. `cpack -G DEB` → the .deb's Depends (from dpkg-shlibdeps) name the Debian libraries;
#      `apt-get install --simulate ./….deb` resolves them against this machine (installing
#      nothing); the package is unpacked with `dpkg -x` into TMP/root (no dpkg database entry, no
#      file outside TMP) and TMP/root/usr/bin/duels is run.
# Usage: install_test.sh BUILD_DIR [--no-deb]
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {  # expect WHAT OUTPUT PATTERN
  grep -qE -- "$3" <<<"$2" || { echo "$2" >&2; fail "$1: output lacks /$3/"; }
}
# A clean player environment: no DUELS_ASSETS, an empty home and data folder.
mkdir -p "$tmp/home" "$tmp/elsewhere"
run() { (cd "$tmp/elsewhere" && env -u DUELS_ASSETS HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" \
  XDG_CONFIG_HOME="$tmp/home/config" "$@"); }

check_installed() {  # check_installed LABEL PREFIX
  local label=$1 prefix=$2 out
  [ -x "$prefix/bin/duels" ] || fail "$label: no bin/duels"
  for f in share/duels-companion/figures/samples.yaml share/duels-companion/TEMPLATE.yaml \
           share/applications/duels-companion.desktop \
           share/icons/hicolor/scalable/apps/duels-companion.svg \
           share/icons/hicolor/128x128/apps/duels-companion.png; do
    [ -f "$prefix/$f" ] || fail "$label: $f is missing"
  done
  out=$(run "$prefix/bin/duels" demo --terminal --seed 7) || fail "$label: demo exited $?"
  expect "$label demo" "$out" "wins"
  out=$(run "$prefix/bin/duels" figure show Razor) || fail "$label: figure show exited $?"
  expect "$label figure show" "$out" "^Razor"
  expect "$label figure show" "$out" "dials \(click by click"
  # The assets really come from beside the binary: a figure added to the installed folder only
  # is found (the source tree does not have it).
  cat > "$prefix/share/duels-companion/figures/zz_install_probe.yaml" <<'YAML'
schema_version: 1
figures:
  - name: Install Probe
    points: 50
    base: {diameter: 2}
    starting_dice: [yellow:d6]
    dials:
      head: [3, 2 hole]
      weapon: [4, 3 hole]
      body: [5, 4 hole]
    tape:
      - {colour: yellow, from: 0, to: 6}
YAML
  out=$(run "$prefix/bin/duels" figure show "Install Probe") ||
    fail "$label: the installed program does not read its installed assets: $out"
  expect "$label probe" "$out" "^Install Probe"
  rm "$prefix/share/duels-companion/figures/zz_install_probe.yaml"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$prefix/share/applications/duels-companion.desktop"
  fi
  echo "ok: $label"
}

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
check_installed "cmake --install" "$tmp/prefix"

if [ "${2:-}" != "--no-deb" ]; then
  (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >/dev/null)
  deb=$(ls "$tmp"/pkg/duels-companion_*.deb)
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "Depends: $depends"
  for lib in libopencv-core libglfw3 libyaml-cpp fonts-dejavu-core libstdc\\+\\+6; do
    expect "deb Depends" "$depends" "$lib"
  done
  contents=$(dpkg-deb -c "$deb")
  grep -q './usr/bin/duels$' <<<"$contents" || fail "deb has no /usr/bin/duels"
  grep -q './usr/share/applications/duels-companion.desktop$' <<<"$contents" || fail "deb has no .desktop entry"
  # Would `apt install ./duels-companion_*.deb` find every dependency here? --simulate only
  # works it out (it installs nothing).
  sim=$(apt-get install --simulate "$deb" 2>&1) || { echo "$sim" >&2; fail "apt-get --simulate"; }
  expect "apt-get install --simulate" "$sim" "^Inst duels-companion"
  dpkg -x "$deb" "$tmp/root"
  check_installed "dpkg -x $(basename "$deb")" "$tmp/root/usr"
fi
echo "install test passed"
