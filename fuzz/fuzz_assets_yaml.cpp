// libFuzzer target: the figure/gear/team YAML loader must turn any bytes into either a library
// or a list of errors — never a crash, a hang or an exception escaping.
#include <cstddef>
#include <cstdint>
#include <string>

#include "duels/assets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  duels::AssetLibrary library;
  duels::LoadReport report;
  duels::load_asset_text(text, "fuzz.yaml", library, report);
  for (const auto& e : report.errors)
    (void)e.message();
  return 0;
}
