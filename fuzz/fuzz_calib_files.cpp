// libFuzzer target: the calibration file reader (OpenCV FileStorage YAML/JSON/XML, ours and
// OpenCV's own layouts) and the table-marker layout reader must turn any bytes into a result
// or a DataException naming the file — never a crash, a hang or another exception escaping.
#include <cstddef>
#include <cstdint>
#include <string>

#include "calib/camera_file.hpp"
#include "calib/layout_file.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000 || size == 0) return 0;
  // The first byte picks the reader and format, so one corpus covers all of them.
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const char* const kNames[] = {"fuzz.yml", "fuzz.json", "fuzz.xml"};
  try {
    if (data[0] % 4 == 3) {
      (void)duels::calib::parse_marker_layout(text, "layout.yml");
    } else {
      (void)duels::calib::parse_camera_file(text, kNames[data[0] % 4]);
    }
  } catch (const duels::DataException& e) {
    (void)e.what();
  }
  return 0;
}
