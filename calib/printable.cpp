#include "calib/printable.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "calib/units.hpp"
#include "common/atomic_file.hpp"

namespace duels::calib {

namespace fs = std::filesystem;

namespace {

constexpr double kHeaderIn = 1.35;  // title, parameters, check bars

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Title, parameter lines and the two check bars (1 inch and 50 mm) at the top of a sheet.
void add_header(Sheet& sheet, const std::string& title, const std::vector<std::string>& lines) {
  const double x = kSheetMarginIn;
  double y = kSheetMarginIn + 0.17;
  sheet.text.push_back({{x, y}, 13, title});
  for (const auto& l : lines) {
    y += 0.19;
    sheet.text.push_back({{x, y}, 9.5, l});
  }
  y += 0.19;
  sheet.text.push_back({{x, y},
                        9.5,
                        fmt::format("Print at 100% / actual size on {} paper, no 'fit to page'.",
                                    sheet.paper.name)});
  y += 0.19;
  sheet.text.push_back(
      {{x, y}, 9.5, "Check with a ruler: the bars below must measure 1 inch and 50 mm."});
  const double bar_y = y + 0.14;
  const double bar_h = 0.1;
  sheet.check_bar_in = cv::Rect2d(x, bar_y, 1.0, bar_h);
  sheet.black_in.push_back(sheet.check_bar_in);
  sheet.text.push_back({{x + 1.1, bar_y + bar_h}, 9, "1 inch"});
  const double mm50 = 50.0 / kMmPerInch;
  sheet.black_in.emplace_back(x + 2.0, bar_y, mm50, bar_h);
  sheet.text.push_back({{x + 2.0 + mm50 + 0.1, bar_y + bar_h}, 9, "50 mm"});
}

std::string pdf_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += (static_cast<unsigned char>(c) < 128) ? c : '?';
  }
  return out;
}

void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
  out.push_back(static_cast<unsigned char>(v >> 24));
  out.push_back(static_cast<unsigned char>(v >> 16));
  out.push_back(static_cast<unsigned char>(v >> 8));
  out.push_back(static_cast<unsigned char>(v));
}

std::uint32_t get_u32(const std::vector<unsigned char>& in, std::size_t at) {
  return (std::uint32_t{in[at]} << 24) | (std::uint32_t{in[at + 1]} << 16) |
         (std::uint32_t{in[at + 2]} << 8) | std::uint32_t{in[at + 3]};
}

}  // namespace

std::optional<Paper> paper_by_name(std::string_view name) {
  const std::string n = lower(name);
  if (n == "letter") return Paper{"Letter", 8.5, 11.0};
  if (n == "legal") return Paper{"Legal", 8.5, 14.0};
  if (n == "tabloid") return Paper{"Tabloid", 11.0, 17.0};
  if (n == "a4") return Paper{"A4", 210.0 / kMmPerInch, 297.0 / kMmPerInch};
  if (n == "a3") return Paper{"A3", 297.0 / kMmPerInch, 420.0 / kMmPerInch};
  return std::nullopt;
}

std::optional<PatternSpec> fit_board_to_paper(PatternSpec spec, const Paper& paper) {
  PatternSpec unit = spec;
  unit.square_mm = 1;
  const cv::Size2d n = board_size_mm(unit);  // the board in squares
  const double w_mm = (paper.width_in - 2 * kSheetMarginIn) * kMmPerInch;
  const double h_mm = (paper.height_in - 2 * kSheetMarginIn - kHeaderIn) * kMmPerInch;
  // Either way up (board_sheet turns the board a quarter turn when that fits better).
  const double upright = std::min(w_mm / n.width, h_mm / n.height);
  const double turned = std::min(w_mm / n.height, h_mm / n.width);
  const double square = std::floor(std::max(upright, turned));
  if (square < 5) return std::nullopt;
  spec.square_mm = square;
  if (spec.kind == PatternKind::kCharuco) spec.marker_mm = std::floor(square * 0.75 * 2) / 2;
  return spec;
}

Expected<Sheet, std::string> board_sheet(const PatternSpec& spec, const Paper& paper) {
  if (const auto bad = validate(spec)) return *bad;
  const cv::Size2d size_mm = board_size_mm(spec);
  const double w_in = size_mm.width / kMmPerInch;
  const double h_in = size_mm.height / kMmPerInch;
  const double avail_w = paper.width_in - 2 * kSheetMarginIn;
  const double avail_h = paper.height_in - 2 * kSheetMarginIn - kHeaderIn;
  const bool upright = w_in <= avail_w + 1e-9 && h_in <= avail_h + 1e-9;
  const bool turned = h_in <= avail_w + 1e-9 && w_in <= avail_h + 1e-9;
  if (!upright && !turned) {
    const auto fit = fit_board_to_paper(spec, paper);
    return fmt::format(
        "the board is {:.1f} x {:.1f} in but {} paper leaves {:.1f} x {:.1f} in{}", w_in, h_in,
        paper.name, avail_w, avail_h,
        fit ? fmt::format(" (largest square that fits: {})", format_mm(fit->square_mm)) : "");
  }
  Sheet sheet;
  sheet.paper = paper;
  std::vector<std::string> lines{describe(spec)};
  if (spec.kind != PatternKind::kCharuco) {
    lines.push_back(
        fmt::format("calibrate with: duels calibrate --pattern {} --cols {} "
                    "--rows {} --square {:g}mm",
                    to_string(spec.kind), spec.cols, spec.rows, spec.square_mm));
  } else {
    lines.push_back(
        fmt::format("calibrate with: duels calibrate --pattern charuco --cols {} "
                    "--rows {} --square {:g}mm --marker {:g}mm --dict {}",
                    spec.cols, spec.rows, spec.square_mm, spec.marker_mm, spec.dictionary));
  }
  if (!upright) lines.front() += " (turned a quarter turn to fit)";
  add_header(sheet, "Duels Companion calibration board", lines);
  const double top = kSheetMarginIn + kHeaderIn;
  const double page_w = upright ? w_in : h_in;
  const double page_h = upright ? h_in : w_in;
  const double x0 = kSheetMarginIn + (avail_w - page_w) / 2;
  const double y0 = top + (avail_h - page_h) / 2;
  const cv::Point2d outer = board_outer_corner_mm(spec);
  for (const auto& r : board_black_rects_mm(spec)) {
    const double x = (r.x - outer.x) / kMmPerInch;
    const double y = (r.y - outer.y) / kMmPerInch;
    const double w = r.width / kMmPerInch;
    const double h = r.height / kMmPerInch;
    if (upright) {
      sheet.black_in.emplace_back(x0 + x, y0 + y, w, h);
    } else {  // a quarter turn counter-clockwise: board x runs up the page
      sheet.black_in.emplace_back(x0 + y, y0 + (w_in - x - w), h, w);
    }
  }
  return sheet;
}

Expected<std::vector<Sheet>, std::string> marker_sheets(const std::string& dictionary,
                                                        const std::vector<int>& ids, double side_in,
                                                        const Paper& paper) {
  const auto dict = dictionary_by_name(dictionary);
  if (!dict) return fmt::format("unknown ArUco dictionary '{}'", dictionary);
  if (ids.empty()) return std::string("no marker ids given");
  for (int id : ids) {
    if (id < 0 || id >= dict->bytesList.rows) {
      return fmt::format("{} has ids 0 to {}, not {}", dictionary, dict->bytesList.rows - 1, id);
    }
  }
  const double gap = std::max(0.3, side_in * 0.12);  // white quiet zone and room for the label
  const double label = 0.22;
  const double avail_w = paper.width_in - 2 * kSheetMarginIn;
  const double avail_h = paper.height_in - 2 * kSheetMarginIn - kHeaderIn;
  const int cols = static_cast<int>(std::floor((avail_w + gap) / (side_in + gap)));
  const int rows = static_cast<int>(std::floor((avail_h + gap) / (side_in + label + gap)));
  if (!(side_in > 0) || cols < 1 || rows < 1) {
    return fmt::format("a {} marker does not fit on {} paper (at most {:.1f} in)",
                       format_in(side_in), paper.name, std::min(avail_w, avail_h - label));
  }
  std::string id_text;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    // Compress runs: 0,1,2,3 → 0-3.
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    id_text += (id_text.empty() ? "" : ",") +
               (j > i ? fmt::format("{}-{}", ids[i], ids[j]) : std::to_string(ids[i]));
    i = j;
  }
  const int per_page = cols * rows;
  const int pages = (static_cast<int>(ids.size()) + per_page - 1) / per_page;
  std::vector<Sheet> sheets;
  for (int page = 0; page < pages; ++page) {
    Sheet sheet;
    sheet.paper = paper;
    add_header(sheet, "Duels Companion ArUco markers",
               {fmt::format("{}, markers {} ({:.1f} mm) square, ids {}{}", dictionary,
                            format_in(side_in), side_in * kMmPerInch, id_text,
                            pages > 1 ? fmt::format(" -- page {} of {}", page + 1, pages) : ""),
                "Size = the black square's outer edge. Keep the white border; the label is "
                "under the bottom edge."});
    const double grid_w = cols * side_in + (cols - 1) * gap;
    const double x_start = kSheetMarginIn + (avail_w - grid_w) / 2;
    const double y_start = kSheetMarginIn + kHeaderIn + 0.1;
    for (int k = 0; k < per_page; ++k) {
      const std::size_t index = static_cast<std::size_t>(page * per_page + k);
      if (index >= ids.size()) break;
      const double x = x_start + (k % cols) * (side_in + gap);
      const double y = y_start + (k / cols) * (side_in + label + gap);
      const auto cells = marker_black_rects(*dict, ids[index], side_in, {x, y});
      sheet.black_in.insert(sheet.black_in.end(), cells.begin(), cells.end());
      sheet.text.push_back({{x, y + side_in + 0.17}, 9, fmt::format("id {}", ids[index])});
    }
    sheets.push_back(std::move(sheet));
  }
  return sheets;
}

std::optional<std::vector<int>> parse_id_list(std::string_view text) {
  std::vector<int> ids;
  auto number = [](std::string_view s) -> std::optional<int> {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
  };
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    const auto dash = part.find('-');
    if (dash == std::string_view::npos) {
      const auto v = number(part);
      if (!v) return std::nullopt;
      ids.push_back(*v);
    } else {
      const auto a = number(part.substr(0, dash));
      const auto b = number(part.substr(dash + 1));
      if (!a || !b || *b < *a || *b - *a > 10000) return std::nullopt;
      for (int v = *a; v <= *b; ++v)
        ids.push_back(v);
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) return std::nullopt;
  }
  if (ids.empty()) return std::nullopt;
  return ids;
}

std::string pdf_document(const std::vector<Sheet>& sheets, const std::string& title) {
  std::string out = "%PDF-1.6\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  auto begin_object = [&]() {
    offsets.push_back(out.size());
    out += fmt::format("{} 0 obj\n", offsets.size());
  };
  const std::size_t n = sheets.size();
  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then (page, contents) per sheet.
  begin_object();
  out +=
      "<< /Type /Catalog /Pages 2 0 R /ViewerPreferences << /PrintScaling /None >> >>\n"
      "endobj\n";
  begin_object();
  out += "<< /Type /Pages /Kids [";
  for (std::size_t i = 0; i < n; ++i)
    out += fmt::format(" {} 0 R", 5 + 2 * i);
  out += fmt::format(" ] /Count {} >>\nendobj\n", n);
  begin_object();
  out +=
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\n"
      "endobj\n";
  begin_object();
  out += fmt::format("<< /Title ({}) /Producer (Duels Companion) >>\nendobj\n", pdf_escape(title));
  for (std::size_t i = 0; i < n; ++i) {
    const Sheet& s = sheets[i];
    const double w_pt = s.paper.width_in * 72.0;
    const double h_pt = s.paper.height_in * 72.0;
    std::string content = "0 g\n";
    for (const auto& r : s.black_in) {
      content += fmt::format("{:.4f} {:.4f} {:.4f} {:.4f} re\n", r.x * 72.0,
                             h_pt - (r.y + r.height) * 72.0, r.width * 72.0, r.height * 72.0);
    }
    for (const auto& poly : s.black_polygons_in) {
      for (std::size_t k = 0; k < poly.size(); ++k) {
        content += fmt::format("{:.4f} {:.4f} {}\n", poly[k].x * 72.0, h_pt - poly[k].y * 72.0,
                               k == 0 ? "m" : "l");
      }
      if (!poly.empty()) content += "h\n";
    }
    content += "f\n";
    for (const auto& t : s.text) {
      content += fmt::format("BT /F1 {:.1f} Tf {:.4f} {:.4f} Td ({}) Tj ET\n", t.size_pt,
                             t.at_in.x * 72.0, h_pt - t.at_in.y * 72.0, pdf_escape(t.text));
    }
    begin_object();
    out += fmt::format(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {:.4f} {:.4f}] /Resources << /Font << /F1 "
        "3 0 R >> >> /Contents {} 0 R >>\nendobj\n",
        w_pt, h_pt, 6 + 2 * i);
    begin_object();
    out += fmt::format("<< /Length {} >>\nstream\n{}endstream\nendobj\n", content.size(), content);
  }
  const std::size_t xref = out.size();
  out += fmt::format("xref\n0 {}\n0000000000 65535 f \n", offsets.size() + 1);
  for (std::size_t off : offsets)
    out += fmt::format("{:010d} 00000 n \n", off);
  out += fmt::format("trailer\n<< /Size {} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{}\n%%EOF\n",
                     offsets.size() + 1, xref);
  return out;
}

cv::Mat rasterize(const Sheet& sheet, double dpi) {
  const int w = static_cast<int>(std::lround(sheet.paper.width_in * dpi));
  const int h = static_cast<int>(std::lround(sheet.paper.height_in * dpi));
  cv::Mat img(h, w, CV_8UC1, cv::Scalar(255));
  for (const auto& r : sheet.black_in) {
    const int x0 = static_cast<int>(std::lround(r.x * dpi));
    const int y0 = static_cast<int>(std::lround(r.y * dpi));
    const int x1 = static_cast<int>(std::lround((r.x + r.width) * dpi));
    const int y1 = static_cast<int>(std::lround((r.y + r.height) * dpi));
    const cv::Rect cell = cv::Rect(x0, y0, x1 - x0, y1 - y0) & cv::Rect(0, 0, w, h);
    if (cell.area() > 0) img(cell).setTo(0);
  }
  constexpr int kShift = 4;  // sub-pixel polygon vertices
  for (const auto& poly : sheet.black_polygons_in) {
    std::vector<cv::Point> pts;
    for (const auto& p : poly) {
      pts.emplace_back(static_cast<int>(std::lround(p.x * dpi * (1 << kShift))),
                       static_cast<int>(std::lround(p.y * dpi * (1 << kShift))));
    }
    if (pts.size() >= 3)
      cv::fillPoly(img, std::vector<std::vector<cv::Point>>{pts}, 0, cv::LINE_AA, kShift);
  }
  const int font = cv::FONT_HERSHEY_SIMPLEX;
  int base = 0;
  const double unit_height = cv::getTextSize("H", font, 1.0, 1, &base).height;
  for (const auto& t : sheet.text) {
    // Cap height of Helvetica is ~0.72 of the point size.
    const double cap_px = t.size_pt / 72.0 * dpi * 0.72;
    double scale = cap_px / unit_height;
    int thickness = std::max(1, static_cast<int>(std::lround(scale * 1.2)));
    // The raster font is wider than Helvetica: shrink lines that would run off the page.
    const double room = (sheet.paper.width_in - kSheetMarginIn / 2 - t.at_in.x) * dpi;
    const double wide = cv::getTextSize(t.text, font, scale, thickness, &base).width;
    if (wide > room) {
      scale *= room / wide;
      thickness = std::max(1, static_cast<int>(std::lround(scale * 1.2)));
    }
    cv::putText(img, t.text,
                cv::Point(static_cast<int>(std::lround(t.at_in.x * dpi)),
                          static_cast<int>(std::lround(t.at_in.y * dpi))),
                font, scale, cv::Scalar(0), thickness, cv::LINE_AA);
  }
  return img;
}

std::vector<unsigned char> png_with_dpi(const cv::Mat& image, double dpi) {
  std::vector<unsigned char> png;
  cv::imencode(".png", image, png);
  // IHDR is always the first chunk: 8-byte signature + 4 length + 4 type + 13 data + 4 CRC.
  constexpr std::size_t kAfterIhdr = 8 + 4 + 4 + 13 + 4;
  const auto ppm = static_cast<std::uint32_t>(std::lround(dpi / 0.0254));
  std::vector<unsigned char> chunk;
  put_u32(chunk, 9);
  const unsigned char type[4] = {'p', 'H', 'Y', 's'};
  chunk.insert(chunk.end(), type, type + 4);
  put_u32(chunk, ppm);
  put_u32(chunk, ppm);
  chunk.push_back(1);  // unit: metre
  const uLong crc = crc32(crc32(0L, Z_NULL, 0), chunk.data() + 4, 13);
  put_u32(chunk, static_cast<std::uint32_t>(crc));
  png.insert(png.begin() + static_cast<std::ptrdiff_t>(kAfterIhdr), chunk.begin(), chunk.end());
  return png;
}

std::optional<double> png_dpi(const std::vector<unsigned char>& png) {
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::uint32_t len = get_u32(png, at);
    const std::string type(png.begin() + static_cast<std::ptrdiff_t>(at + 4),
                           png.begin() + static_cast<std::ptrdiff_t>(at + 8));
    if (type == "pHYs" && len == 9 && at + 17 <= png.size()) {
      if (png[at + 16] != 1) return std::nullopt;  // no unit: aspect ratio only
      return get_u32(png, at + 8) * 0.0254;
    }
    if (type == "IDAT") return std::nullopt;  // pHYs must come before the image data
    at += 12 + static_cast<std::size_t>(len);
  }
  return std::nullopt;
}

std::vector<std::string> write_sheets(const std::string& path, const std::vector<Sheet>& sheets,
                                      double dpi, const std::string& title) {
  const fs::path target(path);
  const std::string ext = lower(target.extension().string());
  if (ext != ".pdf" && ext != ".png") {
    throw DataException({path, 0, "--out", "a file name ending in .pdf or .png"});
  }
  if (ext == ".png" && !(dpi >= 72 && dpi <= 2400)) {
    throw DataException({path, 0, "--dpi", "a resolution from 72 to 2400 DPI"});
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw DataException({path, 0, "--out",
                         fmt::format("a path in an existing folder ({} does "
                                     "not exist)",
                                     dir.string())});
  }
  std::vector<std::pair<fs::path, std::string>> files;  // target, bytes
  if (ext == ".pdf") {
    files.emplace_back(target, pdf_document(sheets, title));
  } else {
    for (std::size_t i = 0; i < sheets.size(); ++i) {
      fs::path p = target;
      if (i > 0) p.replace_filename(target.stem().string() + fmt::format("-{}", i + 1) + ext);
      const auto bytes = png_with_dpi(rasterize(sheets[i], dpi), dpi);
      files.emplace_back(p, std::string(bytes.begin(), bytes.end()));
    }
  }
  // Each file written atomically: a full disk keeps the previous file and reports it.
  std::vector<std::string> written;
  for (const auto& [p, bytes] : files) {
    write_file_atomically(p.string(), bytes);
    written.push_back(p.string());
  }
  return written;
}

}  // namespace duels::calib
