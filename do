#!/usr/bin/env bash
# Duels Companion developer entry point. Every step is idempotent and quick when already done.
#   ./do demo     install Debian packages, build, run `duels demo`
#   ./do test     install Debian packages, build, run every test
#   ./do setup    install Debian packages only
#   ./do build    configure and build only
#   ./do fuzz [SECONDS]   build the libFuzzer targets with clang and run each briefly
set -euo pipefail
cd "$(dirname "$0")"
# ccache: paths inside this clone count as relative, so a clone anywhere reuses the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev libsqlite3-dev
  libopencv-dev libopencv-contrib-dev
  libimgui-dev libstb-dev libglfw3-dev libgl-dev
  xvfb xauth fonts-dejavu-core
  clang libclang-rt-14-dev ccache
)

setup() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "==> installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

build() {
  if [ ! -f build/build.ninja ]; then
    local launcher=()
    # ccache (when installed) makes a rebuild in a fresh clone take minutes instead of half an hour.
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDUELS_WERROR=ON \
      -DDUELS_REQUIRE_OVERLAY=ON "${launcher[@]}"
  fi
  cmake --build build -j "${DUELS_JOBS:-2}"
}

case "${1:-}" in
  setup) setup ;;
  build) setup; build ;;
  demo) setup; build; shift; exec ./build/bin/duels demo "$@" ;;
  test)
    setup; build
    cd build && ctest --output-on-failure -j "${DUELS_JOBS:-2}" --timeout 900
    ;;
  fuzz)
    setup
    cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DDUELS_FUZZ=ON \
      -DDUELS_BUILD_TESTS=OFF -DDUELS_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build build-fuzz -j 2
    for f in build-fuzz/bin/fuzz_*; do
      echo "==> $f"
      mkdir -p "build-fuzz/corpus/$(basename "$f")"
      "$f" -max_total_time="${2:-30}" "build-fuzz/corpus/$(basename "$f")" "fuzz/corpus/$(basename "$f")" 2>&1 | tail -3
    done
    ;;
  *)
    sed -n '2,8p' "$0"; exit 2 ;;
esac
