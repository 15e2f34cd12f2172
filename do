#!/usr/bin/env bash
# Duels Companion developer entry point. Every step is idempotent and quick when already done.
#   ./do demo     install Debian packages, build, run `duels demo`
#   ./do test     install Debian packages, build, run every test (DUELS_ASAN=1: then the same
#                 suite built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/)
#   ./do asan     only the sanitizer build and its test run
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

# The sanitizer build: every test of the suite, built with ASan + UBSan (any report fails the
# test that ran into it). Benchmarks are left out (they are not tests).
asan() {
  if [ ! -f build-asan/build.ninja ]; then
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    # -O1 with line tables only: quicker to build than -O2 -g, and reports still name the line.
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DDUELS_WERROR=ON \
      -DDUELS_REQUIRE_OVERLAY=ON -DDUELS_SANITIZE=ON -DDUELS_BUILD_BENCH=OFF "${launcher[@]}"
  fi
  local t0=$SECONDS
  cmake --build build-asan -j "${DUELS_JOBS:-2}"
  echo "==> sanitizer build: $((SECONDS - t0)) s"
  t0=$SECONDS
  # Leaks inside the system's GL, X and font libraries (not ours) are suppressed by name.
  # intercept_tls_get_addr=0: LeakSanitizer otherwise scans the dynamic TLS that Mesa's driver
  # left behind when a window closed (dlclose), and crashes on it at exit ("Tracer caught
  # signal 11", "DTLS … at 0x2fa8") in a test process that opened two windows one after the
  # other (overlay_editor_gui_tests); leaks are still found (checked with a leaking program).
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0" \
    ctest --test-dir build-asan --output-on-failure -j "${DUELS_JOBS:-2}" --timeout 900 \
      -E "${DUELS_ASAN_EXCLUDE:-^$}"
  echo "==> sanitizer tests: $((SECONDS - t0)) s"
}

case "${1:-}" in
  setup) setup ;;
  build) setup; build ;;
  demo) setup; build; shift; exec ./build/bin/duels demo "$@" ;;
  test)
    setup; build
    (cd build && ctest --output-on-failure -j "${DUELS_JOBS:-2}" --timeout 900)
    # The sanitizer suite runs in CI (.ci/run) after this one; DUELS_ASAN=1 adds it here.
    if [ "${DUELS_ASAN:-0}" != 0 ]; then asan; fi
    ;;
  asan) setup; asan ;;
  fuzz)
    setup
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    # The window and the command line are not fuzzed: leave them out of this build.
    cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DDUELS_FUZZ=ON \
      -DDUELS_BUILD_TESTS=OFF -DDUELS_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DDUELS_SKIP_MODULES=overlay;app" "${launcher[@]}"
    cmake --build build-fuzz -j "${DUELS_JOBS:-2}"
    for f in build-fuzz/bin/fuzz_*; do
      echo "==> $f"
      mkdir -p "build-fuzz/corpus/$(basename "$f")"
      "$f" -max_total_time="${2:-30}" "build-fuzz/corpus/$(basename "$f")" "fuzz/corpus/$(basename "$f")" 2>&1 | tail -3
    done
    ;;
  *)
    sed -n '2,10p' "$0"; exit 2 ;;
esac
