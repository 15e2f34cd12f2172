// A minimal PNG encoder: IHDR, one IDAT holding a zlib stream of stored (uncompressed)
// blocks, IEND. Every decoder reads it; it is only larger than a compressed one.
#include "app/png_write.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace duels::app {

namespace {

std::array<std::uint32_t, 256> crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k)
      c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1U) : c >> 1U;
    t[n] = c;
  }
  return t;
}

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24U));
  out.push_back(static_cast<std::uint8_t>(v >> 16U));
  out.push_back(static_cast<std::uint8_t>(v >> 8U));
  out.push_back(static_cast<std::uint8_t>(v));
}

void chunk(std::vector<std::uint8_t>& out, const char* type, const std::vector<std::uint8_t>& data,
           const std::array<std::uint32_t, 256>& table) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<std::uint8_t>(type[i]));
  out.insert(out.end(), data.begin(), data.end());
  std::uint32_t crc = 0xFFFFFFFFU;
  for (std::size_t i = start; i < out.size(); ++i)
    crc = table[(crc ^ out[i]) & 0xFFU] ^ (crc >> 8U);
  put32(out, crc ^ 0xFFFFFFFFU);
}

}  // namespace

void write_png(const std::string& path, const RgbImage& image) {
  const auto table = crc_table();
  // Raw scanlines, each with filter type 0.
  std::vector<std::uint8_t> raw;
  const std::size_t row = static_cast<std::size_t>(image.width) * 3;
  raw.reserve((row + 1) * static_cast<std::size_t>(image.height));
  for (int y = 0; y < image.height; ++y) {
    raw.push_back(0);
    const auto begin =
        image.rgb.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y));
    raw.insert(raw.end(), begin, begin + static_cast<std::ptrdiff_t>(row));
  }
  // zlib: header, stored blocks of at most 65535 bytes, Adler-32.
  std::vector<std::uint8_t> z = {0x78, 0x01};
  std::size_t at = 0;
  do {
    const std::size_t len = std::min<std::size_t>(65535, raw.size() - at);
    const bool last = at + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<std::uint8_t>(len & 0xFFU));
    z.push_back(static_cast<std::uint8_t>(len >> 8U));
    z.push_back(static_cast<std::uint8_t>(~len & 0xFFU));
    z.push_back(static_cast<std::uint8_t>((~len >> 8U) & 0xFFU));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
             raw.begin() + static_cast<std::ptrdiff_t>(at + len));
    at += len;
  } while (at < raw.size());
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  for (std::uint8_t v : raw) {
    a = (a + v) % 65521U;
    b = (b + a) % 65521U;
  }
  put32(z, (b << 16U) | a);

  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<std::uint8_t> ihdr;
  put32(ihdr, static_cast<std::uint32_t>(image.width));
  put32(ihdr, static_cast<std::uint32_t>(image.height));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit, RGB, deflate, no filter, no interlace
  chunk(png, "IHDR", ihdr, table);
  chunk(png, "IDAT", z, table);
  chunk(png, "IEND", {}, table);

  write_file_atomically(path,
                        std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
}

}  // namespace duels::app
