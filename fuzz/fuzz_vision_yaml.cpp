// libFuzzer target: the scene and base-map YAML loaders of vision/ must turn any bytes into a
// scene / map or a DataException — never a crash, a hang or another exception escaping.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "vision/markers.hpp"
#include "vision/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto scene = duels::vision::parse_scene_spec(text, "fuzz.yaml");
    (void)scene.frame_count();
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  try {
    (void)duels::vision::parse_base_map(text, "fuzz.yaml");
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  return 0;
}
