#include "calib/camera_file.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/yaml_read.hpp"

namespace duels::calib {

namespace fs = std::filesystem;

namespace {

cv::Mat column(const std::vector<double>& v) {
  return cv::Mat(v, true);
}

std::vector<double> values_of(const cv::Mat& m) {
  cv::Mat d;
  m.convertTo(d, CV_64F);
  d = d.reshape(1, 1);
  return {d.begin<double>(), d.end<double>()};
}

int format_flag(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".xml") return cv::FileStorage::FORMAT_XML;
  if (ext == ".json") return cv::FileStorage::FORMAT_JSON;
  return cv::FileStorage::FORMAT_YAML;
}

// The line a top-level key starts on (FileStorage keeps no positions), for error messages.
int line_of_key(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind(key + ":", 0) == 0 || line.rfind("\"" + key + "\"", 0) == 0 ||
        line.rfind("<" + key + ">", 0) == 0) {
      return n;
    }
  }
  return 0;
}

}  // namespace

std::string now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

CameraFile camera_file_from(const CalibrationResult& result, const PatternSpec& spec,
                            const std::string& date) {
  CameraFile f;
  f.intrinsics = result.intrinsics;
  f.pattern = describe(spec);
  f.board_inner_corners = inner_corners(spec);
  f.square_size_mm = spec.square_mm;
  f.date = date;
  f.rms_px = result.rms_px;
  f.per_view_rms_px = result.per_view_rms_px;
  f.views = result.view_names;
  f.dropped = result.dropped;
  f.std_dev = result.std_dev;
  f.covariance = result.covariance.clone();
  return f;
}

void write_camera_file(const std::string& path, const CameraFile& f) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw DataException(
        {path, 0, "", fmt::format("a writable path (folder {} does not exist)", dir.string())});
  }
  // Rendered in memory, then written atomically: a full disk or a crash keeps the old file.
  std::string text;
  try {
    cv::FileStorage out(".yml",
                        cv::FileStorage::WRITE | cv::FileStorage::MEMORY | format_flag(path));
    if (!out.isOpened()) throw DataException({path, 0, "", "a writable file"});
    out << "schema_version" << kCameraFileSchema;
    if (!f.date.empty()) out << "calibration_time" << f.date;
    out << "image_width" << f.intrinsics.image_size.width;
    out << "image_height" << f.intrinsics.image_size.height;
    if (f.board_inner_corners.area() > 0) {
      out << "board_width" << f.board_inner_corners.width;
      out << "board_height" << f.board_inner_corners.height;
      out << "square_size" << f.square_size_mm;
    }
    if (!f.views.empty()) out << "nframes" << static_cast<int>(f.views.size());
    out << "camera_matrix" << cv::Mat(f.intrinsics.camera_matrix);
    out << "distortion_coefficients" << column(f.intrinsics.dist);
    if (f.rms_px >= 0) out << "avg_reprojection_error" << f.rms_px;
    if (!f.per_view_rms_px.empty()) {
      out << "per_view_reprojection_errors" << column(f.per_view_rms_px);
    }
    if (!f.pattern.empty()) out << "pattern" << f.pattern;
    if (!f.std_dev.empty()) {
      out.writeComment("1-sigma of fx fy cx cy k1 k2 p1 p2 k3 (calibrateCameraExtended)");
      out << "std_deviations_intrinsics" << column(f.std_dev);
    }
    if (!f.covariance.empty()) out << "intrinsics_covariance" << f.covariance;
    if (!f.views.empty()) {
      out << "views_used"
          << "[";
      for (const auto& v : f.views)
        out << v;
      out << "]";
    }
    if (!f.dropped.empty()) {
      out << "views_dropped"
          << "[";
      for (const auto& d : f.dropped)
        out << "{"
            << "name" << d.name << "reason" << d.reason << "}";
      out << "]";
    }
    if (f.table) {
      const TableRecord& t = *f.table;
      out.writeComment("table frame: inches, origin near-left corner, x right, y away, z up");
      out << "table_width_in" << t.table.width_in;
      out << "table_depth_in" << t.table.depth_in;
      out << "table_rvec" << cv::Mat(t.table_to_camera.rvec);
      out << "table_tvec_in" << cv::Mat(t.table_to_camera.tvec);
      out << "table_method" << t.method;
      if (!t.date.empty()) out << "table_time" << t.date;
      out << "table_registration_rms_px" << t.rms_px;
      if (!t.points.table_in.empty()) {
        cv::Mat obj(static_cast<int>(t.points.table_in.size()), 3, CV_64F);
        cv::Mat img(static_cast<int>(t.points.image_px.size()), 2, CV_64F);
        for (int i = 0; i < obj.rows; ++i) {
          const auto& p = t.points.table_in[static_cast<std::size_t>(i)];
          const auto& q = t.points.image_px[static_cast<std::size_t>(i)];
          obj.at<double>(i, 0) = p.x;
          obj.at<double>(i, 1) = p.y;
          obj.at<double>(i, 2) = p.z;
          img.at<double>(i, 0) = q.x;
          img.at<double>(i, 1) = q.y;
        }
        out << "table_points_in" << obj;
        out << "table_points_px" << img;
      }
      if (t.accuracy) {
        out << "table_accuracy_rms_in" << t.accuracy->rms_in;
        out << "table_accuracy_p95_in" << t.accuracy->p95_in;
        out << "table_accuracy_max_in" << t.accuracy->max_in;
      }
    }
    text = out.releaseAndGetString();
  } catch (const cv::Exception& e) {
    throw DataException({path, 0, "", fmt::format("a writable file ({})", e.err)});
  }
  write_file_atomically(path, text);
}

CameraFile read_camera_file(const std::string& path) {
  return parse_camera_file(read_text_file(path, "a readable calibration file"), path);
}

namespace {
CameraFile parse_camera_text(const std::string& text, const std::string& path);
}  // namespace

CameraFile parse_camera_file(const std::string& text, const std::string& path) {
  try {
    return parse_camera_text(text, path);
  } catch (const DataException&) {
    throw;
  } catch (const std::exception& e) {
    // OpenCV's FileStorage can throw more than cv::Exception on hostile input (found by
    // fuzz_calib_files: std::length_error from a matrix with a damaged key).
    throw DataException(
        {path, 0, "", fmt::format("a valid OpenCV FileStorage file ({})", e.what())});
  }
}

namespace {
CameraFile parse_camera_text(const std::string& text, const std::string& path) {
  if (text.empty()) throw DataException({path, 0, "", "a calibration file (it is empty)"});
  // FileStorage keeps one of two equal top-level keys without a word; refuse them instead.
  {
    std::istringstream lines(text);
    std::string line;
    std::set<std::string> seen;
    int n = 0;
    const std::regex key_re(R"re(^"?([A-Za-z_][A-Za-z0-9_]*)"?\s*:)re");
    while (std::getline(lines, line)) {
      ++n;
      std::smatch m;
      if (std::regex_search(line, m, key_re) && !seen.insert(m[1].str()).second) {
        throw DataException({path, n, m[1].str(),
                             "each key once (this one is given twice; only one value can count)"});
      }
    }
  }

  cv::FileStorage store;
  try {
    store.open(text, cv::FileStorage::READ | cv::FileStorage::MEMORY | format_flag(path));
  } catch (const cv::Exception& e) {
    // OpenCV reports YAML faults as "<file>(<line>): <what>" in the function field.
    const std::regex where(R"(\((\d+)\):\s*(.*))");
    std::smatch m;
    const std::string func = e.func;
    if (std::regex_search(func, m, where)) {
      throw DataException(
          {path, std::stoi(m[1].str()), "", fmt::format("valid OpenCV YAML ({})", m[2].str())});
    }
    throw DataException({path, 0, "", fmt::format("an OpenCV FileStorage file ({})", e.err)});
  }
  if (!store.isOpened()) {
    throw DataException({path, 0, "", "an OpenCV FileStorage file (starting with %YAML:1.0)"});
  }
  auto fail = [&](const std::string& key, const std::string& expected) {
    throw DataException({path, line_of_key(text, key), key, expected});
  };
  auto node = [&](std::initializer_list<const char*> keys) -> std::pair<cv::FileNode, std::string> {
    for (const char* k : keys) {
      cv::FileNode n = store[k];
      if (!n.empty() && !n.isNone()) return {n, k};
    }
    return {cv::FileNode(), *keys.begin()};
  };
  auto read_mat = [&](const cv::FileNode& n, const std::string& key) {
    cv::Mat m;
    // The declared shape is checked before OpenCV allocates it: `cols: 3000000000` must be a
    // located error, not a 50 GB allocation (found by fuzz_calib_files under AddressSanitizer).
    if (n.isMap()) {
      const cv::FileNode rows = n["rows"];
      const cv::FileNode cols = n["cols"];
      const cv::FileNode data = n["data"];
      if (!rows.isInt() || !cols.isInt() || !data.isSeq()) fail(key, "an !!opencv-matrix");
      const auto r = static_cast<long long>(static_cast<int>(rows));
      const auto c = static_cast<long long>(static_cast<int>(cols));
      // "dt: 3d" is three channels a cell; "dt: d" one.
      const std::string dt = n["dt"].isString() ? n["dt"].string() : std::string();
      const long long channels = !dt.empty() && dt[0] >= '1' && dt[0] <= '4' ? dt[0] - '0' : 1;
      if (r < 1 || c < 1 || r > 1000000 || c > 1000000 ||
          static_cast<std::size_t>(r * c * channels) != data.size()) {
        fail(key, fmt::format("an !!opencv-matrix whose rows x cols ({} x {}) match the {} values "
                              "of its data",
                              r, c, data.size()));
      }
    }
    try {
      n >> m;
    } catch (const cv::Exception&) {
      fail(key, "an !!opencv-matrix");
    }
    if (m.empty() || !cv::checkRange(m)) fail(key, "an !!opencv-matrix of finite numbers");
    return m;
  };
  auto read_number = [&](const cv::FileNode& n, const std::string& key) {
    if (!n.isReal() && !n.isInt()) fail(key, "a number");
    return static_cast<double>(n);
  };

  CameraFile f;
  if (const auto [n, key] = node({"schema_version"}); !n.empty()) {
    if (!n.isInt()) fail(key, "a whole number");
    const int v = static_cast<int>(n);
    if (v < 1 || v > kCameraFileSchema) {
      fail(key, fmt::format("schema_version {} (this program reads up to {}; got {})",
                            kCameraFileSchema, kCameraFileSchema, v));
    }
  }
  // Camera matrix.
  {
    const auto [n, key] = node({"camera_matrix", "cameraMatrix"});
    if (n.empty()) fail(key, "a 3x3 camera matrix (it is missing)");
    const cv::Mat m = read_mat(n, key);
    if (m.rows != 3 || m.cols != 3)
      fail(key, fmt::format("a 3x3 matrix, not {}x{}", m.rows, m.cols));
    cv::Mat d;
    m.convertTo(d, CV_64F);
    f.intrinsics.camera_matrix = cv::Matx33d(d);
    if (!(f.intrinsics.fx() > 0) || !(f.intrinsics.fy() > 0)) {
      fail(key, "positive focal lengths fx and fy");
    }
  }
  {
    const auto [n, key] = node({"distortion_coefficients", "dist_coeffs", "distCoeffs"});
    if (n.empty()) fail(key, "the distortion coefficients (they are missing)");
    f.intrinsics.dist = values_of(read_mat(n, key));
    const auto count = f.intrinsics.dist.size();
    if (count != 4 && count != 5 && count != 8 && count != 12 && count != 14) {
      fail(key, fmt::format("4, 5, 8, 12 or 14 coefficients, not {}", count));
    }
    if (count == 14 && (f.intrinsics.dist[12] != 0 || f.intrinsics.dist[13] != 0)) {
      fail(key, "no tilted-sensor terms (the last two coefficients must be 0)");
    }
  }
  {
    const auto [w, wkey] = node({"image_width"});
    const auto [h, hkey] = node({"image_height"});
    if (!w.empty() || !h.empty()) {
      if (!w.isInt() || static_cast<int>(w) <= 0) fail(wkey, "a positive whole number of pixels");
      if (!h.isInt() || static_cast<int>(h) <= 0) fail(hkey, "a positive whole number of pixels");
      f.intrinsics.image_size = {static_cast<int>(w), static_cast<int>(h)};
    } else if (const auto [r, rkey] = node({"cameraResolution"}); !r.empty()) {
      std::vector<double> v;
      if (r.isSeq()) {
        for (const auto& item : r)
          v.push_back(item.isInt() || item.isReal() ? static_cast<double>(item) : 0.0);
      } else {
        v = values_of(read_mat(r, rkey));
      }
      if (v.size() != 2 || v[0] <= 0 || v[1] <= 0) fail(rkey, "width and height in pixels");
      f.intrinsics.image_size = {static_cast<int>(v[0]), static_cast<int>(v[1])};
    } else {
      fail("image_width", "image_width and image_height (they are missing)");
    }
  }
  if (const auto [n, key] = node({"avg_reprojection_error"}); !n.empty()) {
    f.rms_px = read_number(n, key);
  }
  if (const auto [n, key] = node({"per_view_reprojection_errors"}); !n.empty()) {
    f.per_view_rms_px = values_of(read_mat(n, key));
  }
  if (const auto [n, key] = node({"pattern"}); !n.empty() && n.isString()) f.pattern = n.string();
  if (const auto [n, key] = node({"calibration_time"}); !n.empty() && n.isString()) {
    f.date = n.string();
  }
  if (const auto [n, key] = node({"board_width"}); !n.empty() && n.isInt()) {
    f.board_inner_corners.width = static_cast<int>(n);
  }
  if (const auto [n, key] = node({"board_height"}); !n.empty() && n.isInt()) {
    f.board_inner_corners.height = static_cast<int>(n);
  }
  if (const auto [n, key] = node({"square_size"}); !n.empty())
    f.square_size_mm = read_number(n, key);
  if (const auto [n, key] = node({"std_deviations_intrinsics"}); !n.empty()) {
    f.std_dev = values_of(read_mat(n, key));
    if (f.std_dev.size() < 4) fail(key, "at least 4 standard deviations (fx fy cx cy …)");
  }
  if (const auto [n, key] = node({"intrinsics_covariance"}); !n.empty()) {
    cv::Mat c;
    read_mat(n, key).convertTo(c, CV_64F);
    if (c.rows != kIntrinsicParamCount || c.cols != kIntrinsicParamCount) {
      fail(key, fmt::format("a {0}x{0} matrix", kIntrinsicParamCount));
    }
    f.covariance = c;
  }
  if (const auto [n, key] = node({"views_used"}); !n.empty() && n.isSeq()) {
    for (const auto& v : n)
      f.views.push_back(v.isString() ? v.string() : std::string());
  }
  if (const auto [n, key] = node({"views_dropped"}); !n.empty() && n.isSeq()) {
    for (const auto& v : n) {
      DroppedView d;
      if (v["name"].isString()) d.name = v["name"].string();
      if (v["reason"].isString()) d.reason = v["reason"].string();
      f.dropped.push_back(d);
    }
  }
  if (const auto [n, key] = node({"table_rvec"}); !n.empty()) {
    TableRecord t;
    const auto rv = values_of(read_mat(n, key));
    if (rv.size() != 3) fail(key, "a 3x1 rotation vector");
    const auto [tn, tkey] = node({"table_tvec_in"});
    if (tn.empty()) fail(tkey, "a 3x1 translation (inches) with table_rvec (it is missing)");
    const auto tv = values_of(read_mat(tn, tkey));
    if (tv.size() != 3) fail(tkey, "a 3x1 translation vector (inches)");
    t.table_to_camera = {{rv[0], rv[1], rv[2]}, {tv[0], tv[1], tv[2]}};
    const auto [wn, wkey] = node({"table_width_in"});
    const auto [dn, dkey] = node({"table_depth_in"});
    if (wn.empty()) fail(wkey, "the table width in inches (it is missing)");
    if (dn.empty()) fail(dkey, "the table depth in inches (it is missing)");
    t.table.width_in = read_number(wn, wkey);
    t.table.depth_in = read_number(dn, dkey);
    // The same range as a layout file's table: a size far out of it (1e9) would make the
    // trackers search a table of astronomical size.
    if (!(t.table.width_in >= 1 && t.table.width_in <= 1000)) {
      fail(wkey, fmt::format("a table width from 1 to 1000 inches, not {}", t.table.width_in));
    }
    if (!(t.table.depth_in >= 1 && t.table.depth_in <= 1000)) {
      fail(dkey, fmt::format("a table depth from 1 to 1000 inches, not {}", t.table.depth_in));
    }
    if (const auto [mn, mkey] = node({"table_method"}); mn.isString()) t.method = mn.string();
    if (const auto [mn, mkey] = node({"table_time"}); mn.isString()) t.date = mn.string();
    if (const auto [rn, rkey] = node({"table_registration_rms_px"}); !rn.empty()) {
      t.rms_px = read_number(rn, rkey);
    }
    const auto [on, okey] = node({"table_points_in"});
    const auto [in_, ikey] = node({"table_points_px"});
    if (!on.empty() && !in_.empty()) {
      cv::Mat obj;
      cv::Mat img;
      read_mat(on, okey).convertTo(obj, CV_64F);
      read_mat(in_, ikey).convertTo(img, CV_64F);
      if (obj.cols != 3) fail(okey, "an n x 3 matrix of table points (inches)");
      if (img.cols != 2 || img.rows != obj.rows) {
        fail(ikey, "an n x 2 matrix of pixels, one per table point");
      }
      for (int i = 0; i < obj.rows; ++i) {
        t.points.table_in.emplace_back(obj.at<double>(i, 0), obj.at<double>(i, 1),
                                       obj.at<double>(i, 2));
        t.points.image_px.emplace_back(img.at<double>(i, 0), img.at<double>(i, 1));
      }
      t.points.method = t.method;
    }
    if (const auto [an, akey] = node({"table_accuracy_rms_in"}); !an.empty()) {
      AccuracyReport a;
      a.rms_in = read_number(an, akey);
      if (const auto [pn, pkey] = node({"table_accuracy_p95_in"}); !pn.empty()) {
        a.p95_in = read_number(pn, pkey);
      }
      if (const auto [xn, xkey] = node({"table_accuracy_max_in"}); !xn.empty()) {
        a.max_in = read_number(xn, xkey);
      }
      t.accuracy = a;
    }
    f.table = t;
  }
  return f;
}
}  // namespace

}  // namespace duels::calib
