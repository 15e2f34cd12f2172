// libFuzzer target: the table scene files of `duels table check|path|reach` (duels/scene.cpp)
// must turn any bytes into a scene or a DataException, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "duels/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)duels::parse_scene(text, "fuzz.yaml",
                             [](std::string_view) -> const duels::FigureDef* { return nullptr; });
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  return 0;
}
