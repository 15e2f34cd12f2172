#include "vision/povray.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "calib/image_source.hpp"
#include "calib/synthetic.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/yaml_read.hpp"
#include "vision/ring.hpp"
#include "vision/rotation.hpp"

extern char** environ;

namespace duels::vision {
namespace {

namespace fs = std::filesystem;

std::string vec(cv::Vec3d v) {
  return fmt::format("<{:.6f}, {:.6f}, {:.6f}>", v[0], v[1], v[2]);
}

// A BGR 0–255 colour as POV-Ray's sRGB colour.
std::string srgb(cv::Vec3d bgr) {
  const auto c = [](double x) { return std::clamp(x / 255.0, 0.0, 1.0); };
  return fmt::format("srgb <{:.4f}, {:.4f}, {:.4f}>", c(bgr[2]), c(bgr[1]), c(bgr[0]));
}

cv::Vec3d bgr_of(const cv::Scalar& s) {
  return {s[0], s[1], s[2]};
}

// A number from 0 to 1 for a figure's variant and a part (a hash of our own: the POV-Ray figures
// take their pose from the same variant as vision/render's, but not its numbers).
double part_share(std::uint32_t variant, int part) {
  std::uint64_t z =
      (static_cast<std::uint64_t>(variant) << 20) ^ (0xD1B54A32D192ED03ULL * (part + 1));
  z ^= z >> 33;
  z *= 0xFF51AFD7ED558CCDULL;
  z ^= z >> 33;
  z *= 0xC4CEB9FE1A85EC53ULL;
  z ^= z >> 33;
  return static_cast<double>(z >> 11) / 9007199254740992.0;
}

cv::Point2d turned(cv::Point2d p, double a) {
  return {p.x * std::cos(a) - p.y * std::sin(a), p.x * std::sin(a) + p.y * std::cos(a)};
}

// POV-Ray's `matrix`: rows are where the local x, y and z axes go, then the origin.
std::string matrix(cv::Vec3d x, cv::Vec3d y, cv::Vec3d z, cv::Vec3d o) {
  return fmt::format(
      "matrix <{:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}, "
      "{:.6f}, {:.6f}>",
      x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2], o[0], o[1], o[2]);
}

std::string paint(cv::Vec3d bgr, double specular = 0.15) {
  return fmt::format(
      "texture {{ pigment {{ color {} }} finish {{ diffuse 0.85 specular {:.2f} roughness 0.03 }} "
      "}}",
      srgb(bgr), specular);
}

std::string capsule(cv::Vec3d p, cv::Vec3d q, double r, const std::string& texture) {
  if (cv::norm(p - q) < 1e-6)
    return fmt::format("sphere {{ {}, {:.4f} {} }}\n", vec(p), r, texture);
  return fmt::format(
      "cylinder {{ {}, {}, {:.4f} {} }} sphere {{ {}, {:.4f} {} }} sphere {{ {}, {:.4f} {} }}\n",
      vec(p), vec(q), r, texture, vec(p), r, texture, vec(q), r, texture);
}

// A figure of a real one's shape, our own construction: legs as cones, a torso, shoulder pads,
// a weapon (a box) held out over the rim, an open hand beside, a head, a flat hat or helmet on
// most, a cape or a pack on some. Its proportions follow the base's figure_variant.
std::string posed_figure(const SceneBaseSpec& b, cv::Point2d foot, double a, double body_r) {
  const auto s = [&](int part) { return part_share(b.figure_variant, part); };
  const double h = b.figure_height_in * (0.85 + 0.3 * s(1));
  const cv::Vec3d up(0, 0, 1);
  const cv::Vec3d fwd(std::cos(a), std::sin(a), 0);
  const cv::Vec3d side(-std::sin(a), std::cos(a), 0);
  const cv::Vec3d at(foot.x, foot.y, b.height_in);
  const cv::Vec3d cloth(40 + 150 * s(2), 40 + 150 * s(3), 40 + 150 * s(4));
  const cv::Vec3d skin(105 + 40 * s(5), 135 + 40 * s(5), 175 + 50 * s(5));
  const cv::Vec3d light(205 + 35 * s(6), 205 + 35 * s(7), 200 + 40 * s(8));
  const std::string t_cloth = paint(cloth);
  const std::string t_dark = paint(cloth * 0.65);
  const std::string t_skin = paint(skin, 0.1);
  const std::string t_light = paint(light, 0.25);
  std::string out = "union {\n";
  const double hip = 0.47 * h;
  const double shoulder = 0.8 * h;
  const double stance = (0.35 + 0.45 * s(9)) * body_r;
  for (double sg : {-1.0, 1.0}) {
    out += fmt::format("cone {{ {}, {:.4f}, {}, {:.4f} {} }}\n", vec(at + sg * stance * side),
                       0.36 * body_r, vec(at + sg * 0.45 * body_r * side + hip * up), 0.5 * body_r,
                       t_dark);
  }
  out += capsule(at + hip * up, at + (shoulder - 0.45 * body_r) * up, 0.95 * body_r,
                 s(10) < 0.4 ? t_light : t_cloth);
  const double sw = 1.2 * body_r + 0.12;
  out += capsule(at - sw * side + shoulder * up, at + sw * side + shoulder * up, 0.5 * body_r,
                 s(11) < 0.5 ? t_light : t_cloth);
  // The weapon arm and the weapon, past the rim in front.
  const double wsg = s(13) < 0.5 ? -1.0 : 1.0;
  const cv::Vec3d hand =
      at + wsg * 0.45 * sw * side + (0.75 + 0.55 * s(12)) * fwd + (0.56 + 0.14 * s(14)) * h * up;
  out += capsule(at + wsg * sw * side + shoulder * up, hand, 0.3 * body_r, t_cloth);
  const double len = 0.9 + 0.9 * s(15);
  const double droop = 0.3 * s(16);
  const cv::Vec3d gx = cv::normalize(fwd - droop * up);
  const cv::Vec3d gz = cv::normalize(gx.cross(side)) * -1.0;
  const double gw = 0.16 + 0.08 * s(17);
  out += fmt::format(
      "box {{ <-0.15, {:.4f}, {:.4f}>, <{:.4f}, {:.4f}, {:.4f}> texture {{ pigment {{ color {} }} "
      "finish {{ diffuse 0.7 specular 0.6 roughness 0.01 metallic }} }} {} }}\n",
      -gw / 2, -0.6 * gw, len, gw / 2, 0.6 * gw, srgb({45, 45, 52}), matrix(gx, side, gz, hand));
  // The other arm, out to the side and down, an open hand.
  const cv::Vec3d hand2 = at - wsg * (sw + 0.6 + 0.8 * s(18)) * side + 0.3 * s(19) * fwd +
                          (0.35 + 0.2 * s(20)) * h * up;
  out += capsule(at - wsg * sw * side + shoulder * up, hand2, 0.3 * body_r, t_cloth);
  out += fmt::format("sphere {{ {}, {:.4f} {} }}\n", vec(hand2), 0.42 * body_r, t_skin);
  // Head and hat.
  const double head_r = 0.78 * body_r;
  const cv::Vec3d head = at + (shoulder + 0.35 * body_r + head_r) * up;
  out += fmt::format("sphere {{ {}, {:.4f} {} }}\n", vec(head), head_r, t_skin);
  if (s(21) < 0.7) {
    const double brim = s(22) < 0.5 ? 1.6 : 1.1;
    out +=
        fmt::format("cylinder {{ {}, {}, {:.4f} {} }}\n", vec(head + 0.3 * head_r * up),
                    vec(head + ((0.3 + 0.5 * s(23)) * head_r + 0.08) * up), brim * head_r, t_light);
  }
  // Behind: a cape hanging over the rim, or a pack.
  if (s(24) < 0.4) {
    const cv::Vec3d top = at - 0.45 * body_r * fwd + shoulder * up;
    const cv::Vec3d bottom = at - (0.65 + 0.5 * s(25)) * fwd + 0.25 * h * up;
    const cv::Vec3d slant = cv::normalize(bottom - top);
    const cv::Vec3d n = cv::normalize(side.cross(slant));
    out += fmt::format("box {{ <{:.4f}, -0.03, 0>, <{:.4f}, 0.03, {:.4f}> {} {} }}\n", -1.2 * sw,
                       1.2 * sw, cv::norm(bottom - top), t_dark, matrix(side, n, slant, top));
  } else if (s(24) < 0.7) {
    const cv::Vec3d c = at - 0.95 * body_r * fwd + 0.66 * h * up;
    out += fmt::format("box {{ <-0.3, {:.4f}, {:.4f}>, <0.3, {:.4f}, {:.4f}> {} {} }}\n",
                       -0.7 * body_r, -0.12 * h, 0.7 * body_r, 0.12 * h, paint(light * 0.8),
                       matrix(fwd, side, up, c));
  }
  out += "}\n";
  return out;
}

std::string rough_figure(const SceneBaseSpec& b, cv::Point2d foot, double body_r) {
  const cv::Vec3d at(foot.x, foot.y, b.height_in);
  const cv::Vec3d up(0, 0, 1);
  const cv::Vec3d colour = bgr_of(b.colour) * 0.8 + cv::Vec3d(30, 30, 30);
  std::string out = "union {\n";
  out += capsule(at + body_r * up, at + 0.75 * b.figure_height_in * up, body_r, paint(colour));
  out += fmt::format("sphere {{ {}, {:.4f} {} }}\n", vec(at + (b.figure_height_in - body_r) * up),
                     0.9 * body_r, paint({120, 150, 190}, 0.1));
  return out + "}\n";
}

// Face normals of a die (unit vectors), in its own frame.
std::vector<cv::Vec3d> die_normals(int sides) {
  std::vector<cv::Vec3d> n;
  const auto add = [&](cv::Vec3d v) { n.push_back(cv::normalize(v)); };
  if (sides == 8) {
    for (int k = 0; k < 8; ++k)
      add({k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0});
  } else if (sides == 10) {
    const double el = 42 * CV_PI / 180;
    for (int k = 0; k < 5; ++k) {
      const double up = 2 * CV_PI * k / 5;
      const double down = up + CV_PI / 5;
      add({std::cos(el) * std::cos(up), std::cos(el) * std::sin(up), std::sin(el)});
      add({std::cos(el) * std::cos(down), std::cos(el) * std::sin(down), -std::sin(el)});
    }
  } else if (sides == 12) {
    const double p = (1 + std::sqrt(5.0)) / 2;
    for (double a : {-1.0, 1.0}) {
      for (double b : {-p, p}) {
        add({0, a, b});
        add({a, b, 0});
        add({b, 0, a});
      }
    }
  } else if (sides == 4) {
    add({1, 1, 1});
    add({1, -1, -1});
    add({-1, 1, -1});
    add({-1, -1, 1});
  } else {
    for (int k = 0; k < 3; ++k) {
      cv::Vec3d v(0, 0, 0);
      v[k] = 1;
      add(v);
      add(-v);
    }
  }
  return n;
}

cv::Vec3d die_body(DieColour c) {
  switch (c) {
    case DieColour::kWhite:
      return {232, 236, 238};
    case DieColour::kYellow:
      return {40, 200, 235};
    case DieColour::kBlue:
      return {170, 70, 30};
    case DieColour::kGreen:
      return {60, 150, 40};
    case DieColour::kBlack:
      return {28, 28, 30};
    case DieColour::kRed:
      return {40, 40, 190};
  }
  return {128, 128, 128};
}

// Pips of a d6 face, in the face's own square (−1 … 1).
std::vector<cv::Point2d> pips(int value) {
  const double q = 0.55;
  switch (value) {
    case 1:
      return {{0, 0}};
    case 2:
      return {{-q, -q}, {q, q}};
    case 3:
      return {{-q, -q}, {0, 0}, {q, q}};
    case 4:
      return {{-q, -q}, {q, q}, {-q, q}, {q, -q}};
    case 5:
      return {{-q, -q}, {q, q}, {-q, q}, {q, -q}, {0, 0}};
    default:
      return {{-q, -q}, {q, q}, {-q, q}, {q, -q}, {-q, 0}, {q, 0}};
  }
}

// A die resting on a face on the top at `top_z`, its middle over `at` (table inches), turned by
// `yaw` (radians): a d6 a rounded cube with sunk pips, the others polyhedra cut by planes with
// the top face's number engraved.
std::string die_object(const DieSpec& die, cv::Point2d at, double top_z, double yaw) {
  const bool dark = die.colour == DieColour::kBlack || die.colour == DieColour::kBlue ||
                    die.colour == DieColour::kRed || die.colour == DieColour::kGreen;
  const cv::Vec3d body = die_body(die.colour);
  const cv::Vec3d mark = dark ? cv::Vec3d(235, 235, 235) : cv::Vec3d(25, 25, 25);
  const std::string t_body = fmt::format(
      "texture {{ pigment {{ color {} }} finish {{ diffuse 0.8 specular 0.5 roughness 0.008 "
      "reflection 0.03 }} }}",
      srgb(body));
  const std::string t_mark = paint(mark, 0.1);
  const std::vector<cv::Vec3d> normals = die_normals(die.sides);
  const double inradius = (die.sides == 6 ? 0.5 : die.sides == 4 ? 0.22 : 0.45) * die.size_in;
  // Rest on the face most nearly opposite the one on top (face 0 of the list stands for "the
  // face shown"): turn the bottom normal down, then yaw.
  const std::size_t shown = static_cast<std::size_t>(die.face) % normals.size();
  std::size_t bottom = 0;
  double most = 2;
  for (std::size_t k = 0; k < normals.size(); ++k) {
    const double d = normals[k].dot(normals[shown]);
    if (d < most) {
      most = d;
      bottom = k;
    }
  }
  const cv::Matx33d rest = rotation_between(normals[bottom], {0, 0, -1});
  const cv::Matx33d spin(std::cos(yaw), -std::sin(yaw), 0, std::sin(yaw), std::cos(yaw), 0, 0, 0,
                         1);
  const cv::Matx33d r = spin * rest;
  const cv::Vec3d centre(at.x, at.y, top_z + inradius);
  std::vector<cv::Vec3d> world;
  for (const auto& n : normals)
    world.push_back(r * n);
  // The face looking most nearly up carries the number on top.
  std::size_t top = 0;
  for (std::size_t k = 1; k < world.size(); ++k) {
    if (world[k][2] > world[top][2]) top = k;
  }
  std::string out;
  if (die.sides == 6) {
    const cv::Vec3d ex = r * cv::Vec3d(1, 0, 0);
    const cv::Vec3d ey = r * cv::Vec3d(0, 1, 0);
    const cv::Vec3d ez = r * cv::Vec3d(0, 0, 1);
    // A cube with its corners rounded off (a cube cut by a sphere), the pips dark discs sunk a
    // hair into the faces.
    out += fmt::format(
        "intersection {{ box {{ <-1, -1, -1>, <1, 1, 1> }} sphere {{ 0, 1.55 }} {} scale {:.4f} "
        "{} }}\n",
        t_body, inradius, matrix(ex, ey, ez, centre));
    // Values on the faces: the shown one on top, 7 − it below, the other two pairs round.
    std::array<int, 6> value{};
    const int up = std::clamp(die.face, 1, 6);
    value[top] = up;
    value[top ^ 1U] = 7 - up;
    std::size_t slot = (top & ~std::size_t{1}) == 0 ? 2 : 0;
    for (int low = 1; low <= 3; ++low) {
      if (low == up || low == 7 - up) continue;
      value[slot] = low;
      value[slot + 1] = 7 - low;
      slot += 2;
      if (slot == (top & ~std::size_t{1})) slot += 2;
    }
    for (std::size_t k = 0; k < 6; ++k) {
      const cv::Vec3d n = world[k];
      const cv::Vec3d u = cv::normalize(std::abs(n[2]) < 0.9 ? cv::Vec3d(0, 0, 1).cross(n)
                                                             : cv::Vec3d(1, 0, 0).cross(n));
      const cv::Vec3d v = n.cross(u);
      for (const auto& p : pips(value[k])) {
        const cv::Vec3d c = centre + inradius * n + 0.55 * inradius * (p.x * u + p.y * v);
        out += fmt::format("cylinder {{ {}, {}, {:.4f} {} }}\n", vec(c - 0.02 * n),
                           vec(c + 0.004 * n), 0.17 * inradius, t_mark);
      }
    }
    return out;
  }
  out += "intersection {\n";
  for (const auto& n : world)
    out += fmt::format("plane {{ {}, {:.5f} }}\n", vec(n), inradius + n.dot(centre));
  // Planes are unbounded: without a bound every ray of the picture would test every die.
  out += fmt::format("bounded_by {{ sphere {{ {}, {:.4f} }} }}\n{}\n}}\n", vec(centre),
                     2.0 * inradius, t_body);
  // The number, engraved (dark on light, light on dark) a little into the top face.
  const cv::Vec3d n = world[top];
  const cv::Vec3d u =
      cv::normalize(std::abs(n[2]) < 0.9 ? cv::Vec3d(0, 0, 1).cross(n)
                                         : cv::Vec3d(std::cos(yaw), std::sin(yaw), 0).cross(n));
  const cv::Vec3d v = n.cross(u);
  const std::string number = std::to_string(std::clamp(die.face, 1, die.sides));
  const double em = 0.55 * inradius;
  const cv::Vec3d origin = centre + (inradius - 0.01) * n -
                           0.3 * em * static_cast<double>(number.size()) * u - 0.35 * em * v;
  out += fmt::format("text {{ ttf \"timrom.ttf\" \"{}\" 0.02, 0 {} scale {:.4f} {} }}\n", number,
                     t_mark, em, matrix(u, v, n, origin));
  return out;
}

std::string base_sticker_png(const std::string& dir, const std::string& stem, std::size_t index,
                             const SceneBaseSpec& b) {
  const double r = b.diameter_in / 2;
  constexpr int kSize = 512;
  cv::Mat img(kSize, kSize, CV_8UC3);
  const cv::Vec3d own = bgr_of(b.colour);
  const RingStyle style = ring_style_of(b.target);
  for (int row = 0; row < kSize; ++row) {
    for (int col = 0; col < kSize; ++col) {
      cv::Vec3d sum(0, 0, 0);
      for (int sy = 0; sy < 2; ++sy) {
        for (int sx = 0; sx < 2; ++sx) {
          const cv::Point2d local((col + 0.25 + 0.5 * sx) / kSize * 2 * r - r,
                                  r - (row + 0.25 + 0.5 * sy) / kSize * 2 * r);
          const auto shade = std::hypot(local.x, local.y) <= r
                                 ? ring_shade(b.marker_id, r, local, style)
                                 : std::nullopt;
          sum += shade ? cv::Vec3d::all(*shade > 0.5 ? 235.0 : 25.0) : own;
        }
      }
      img.at<cv::Vec3b>(row, col) =
          cv::Vec3b(cv::saturate_cast<uchar>(sum[0] / 4), cv::saturate_cast<uchar>(sum[1] / 4),
                    cv::saturate_cast<uchar>(sum[2] / 4));
    }
  }
  const std::string name = fmt::format("{}-base{}.png", stem, index);
  if (!cv::imwrite((fs::path(dir) / name).string(), img))
    throw DataException({(fs::path(dir) / name).string(), 0, "", "a folder that can be written"});
  return name;
}

// The pinhole picture POV-Ray must render so that every pixel of the camera's (distorted)
// picture has its ray inside it: half-widths in pixels of focal length f.
cv::Size pinhole_size(const calib::Intrinsics& cam) {
  const cv::Size s = cam.image_size;
  std::vector<cv::Point2f> border;
  for (int u = 0; u <= s.width; u += 8) {
    border.emplace_back(static_cast<float>(std::min(u, s.width - 1)), 0.f);
    border.emplace_back(static_cast<float>(std::min(u, s.width - 1)),
                        static_cast<float>(s.height - 1));
  }
  for (int v = 0; v <= s.height; v += 8) {
    border.emplace_back(0.f, static_cast<float>(std::min(v, s.height - 1)));
    border.emplace_back(static_cast<float>(s.width - 1),
                        static_cast<float>(std::min(v, s.height - 1)));
  }
  std::vector<cv::Point2f> ideal;
  cv::undistortPoints(border, ideal, cv::Mat(cam.camera_matrix), cv::Mat(cam.dist));
  double hx = s.width / 2.0;
  double hy = s.height / 2.0;
  for (const auto& p : ideal) {
    hx = std::max(hx, std::abs(p.x) * cam.fx() + 4);
    hy = std::max(hy, std::abs(p.y) * cam.fy() + 4);
  }
  return {2 * static_cast<int>(std::ceil(hx)), 2 * static_cast<int>(std::ceil(hy))};
}

void check_camera(const SceneSpec& spec) {
  const auto& c = spec.camera;
  const cv::Size s = c.image_size;
  if (std::abs(c.fx() - c.fy()) > 1e-6 * c.fx() || std::abs(c.cx() - (s.width - 1) / 2.0) > 0.01 ||
      std::abs(c.cy() - (s.height - 1) / 2.0) > 0.01) {
    throw DataException({spec.name, 0, "camera",
                         "square pixels and the principal point at the picture's middle (what "
                         "POV-Ray's pinhole renders)"});
  }
}

double srgb_encode(double v) {
  v = std::clamp(v, 0.0, 1.0);
  return v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055;
}

double srgb_decode(double v) {
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// Runs `povray` with `args`, its messages into `log`; its exit status (−1 when it could not run).
int run_povray(const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<std::string> all{"povray"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "povray", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string last_line(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::string last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  return last;
}

// `j`'s member `key`, or null when `j` is no object or has none (a truth file may be anything).
const nlohmann::json& member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}

// Whether `have` holds what `want` holds: numbers within `tol`, arrays element by element,
// anything else equal.
bool holds(const nlohmann::json& have, const nlohmann::json& want, double tol) {
  if (want.is_number())
    return have.is_number() && std::abs(have.get<double>() - want.get<double>()) <= tol;
  if (want.is_array()) {
    if (!have.is_array() || have.size() != want.size()) return false;
    for (std::size_t k = 0; k < want.size(); ++k) {
      if (!holds(have[k], want[k], tol)) return false;
    }
    return true;
  }
  return have == want;
}

nlohmann::json truth_json(const SceneSpec& spec) {
  const auto& c = spec.camera;
  nlohmann::json bases = nlohmann::json::array();
  for (const auto& b : spec.bases) {
    const BasePose p = base_pose_at(b, 0);
    bases.push_back({{"id", b.id},
                     {"code", b.marker_id},
                     {"x", p.centre_in.x},
                     {"y", p.centre_in.y},
                     {"facing", p.angle_deg},
                     {"diameter", b.diameter_in},
                     {"height", b.height_in},
                     {"dice", b.dice.size()},
                     {"posed", b.figure_style == FigureStyle::kPosed}});
  }
  return {
      {"image_set", "duels companion, POV-Ray 3.7 rendering of a coverage table"},
      {"version", 1},
      {"scene", spec.name},
      {"camera",
       {{"width", c.image_size.width},
        {"height", c.image_size.height},
        {"fx", c.fx()},
        {"fy", c.fy()},
        {"cx", c.cx()},
        {"cy", c.cy()},
        {"dist", c.dist}}},
      {"pose",
       {{"rvec",
         {spec.table_to_camera.rvec[0], spec.table_to_camera.rvec[1],
          spec.table_to_camera.rvec[2]}},
        {"tvec",
         {spec.table_to_camera.tvec[0], spec.table_to_camera.tvec[1],
          spec.table_to_camera.tvec[2]}}}},
      {"table", {{"width", spec.table.width_in}, {"depth", spec.table.depth_in}}},
      {"lamp", spec.look.lamp.on ? nlohmann::json{spec.look.lamp.at_in.x, spec.look.lamp.at_in.y,
                                                  spec.look.lamp.at_in.z}
                                 : nlohmann::json(nullptr)},
      {"bases", bases}};
}

}  // namespace

PovrayScene write_povray_scene(const SceneSpec& spec, const std::string& dir,
                               const std::string& stem) {
  check_camera(spec);
  PovrayScene out;
  out.render_size = pinhole_size(spec.camera);
  const double f = spec.camera.fx();
  const cv::Matx33d rot = calib::rotation_of(spec.table_to_camera);
  const cv::Vec3d eye = calib::camera_centre_in_object(spec.table_to_camera);
  const cv::Vec3d xc(rot(0, 0), rot(0, 1), rot(0, 2));
  const cv::Vec3d yc(rot(1, 0), rot(1, 1), rot(1, 2));
  const cv::Vec3d zc(rot(2, 0), rot(2, 1), rot(2, 2));
  std::ostringstream pov;
  pov << "// " << spec.name << ": written by duels (vision/povray.cpp) from the scene; table\n"
      << "// inches, z up. Render linear: +FN16 File_Gamma=1.0.\n"
      << "#version 3.7;\n"
      << "global_settings { assumed_gamma 1.0 max_trace_level 6\n"
      << "  radiosity { pretrace_start 0.08 pretrace_end 0.02 count 40 error_bound 1.4\n"
      << "              recursion_limit 1 nearest_count 5 brightness 1 } }\n"
      << "#default { finish { ambient 0 emission 0 diffuse 0.85 } }\n"
      << "background { rgb 0.02 }\n";
  // The camera: pixel (i, j) looks along f·z + (i − (W−1)/2)·x + (j − (H−1)/2)·y.
  pov << fmt::format("camera {{ perspective location {} direction {} right {} up {} }}\n", vec(eye),
                     vec(f * zc), vec(out.render_size.width * xc),
                     vec(-out.render_size.height * yc));
  // Light: the room's ceiling light, and the lamp when there is one.
  const cv::Vec3d middle(spec.table.width_in / 2, spec.table.depth_in / 2, 0);
  const Lamp& lamp = spec.look.lamp;
  const double room = lamp.on ? lamp.ambient : 1.0;
  pov << fmt::format(
      "light_source {{ {} color rgb {:.4f} area_light <36, 0, 0>, <0, 36, 0>, 5, 5 adaptive 1 "
      "jitter circular orient }}\n",
      vec(middle + cv::Vec3d(0, -6, 80)), room);
  if (lamp.on) {
    const cv::Vec3d at(lamp.at_in.x, lamp.at_in.y, lamp.at_in.z);
    const double d = cv::norm(at - middle);
    const double incidence = at[2] / d;
    pov << fmt::format(
        "light_source {{ {} color rgb {:.4f} area_light <{:.3f}, 0, 0>, <0, {:.3f}, 0>, 6, 6 "
        "adaptive 1 jitter circular orient fade_distance {:.3f} fade_power 2 }}\n",
        vec(at), lamp.strength / std::max(incidence, 0.2), 2 * lamp.radius_in, 2 * lamp.radius_in,
        d);
  }
  // The table: the felt with its corner markers on their paper, a little nap; beyond it the
  // room's floor.
  calib::TableLook look;
  look.px_per_in = 40;
  look.felt_grey = spec.look.felt_grey;
  const calib::PlanarTexture tex =
      calib::table_texture(spec.table, scene_corner_markers(spec), look);
  const std::string table_png = stem + "-table.png";
  if (!cv::imwrite((fs::path(dir) / table_png).string(), tex.image)) {
    throw DataException(
        {(fs::path(dir) / table_png).string(), 0, "", "a folder that can be written"});
  }
  pov << fmt::format(
      "box {{ <0, 0, -1>, <{0:.4f}, {1:.4f}, 0> texture {{ pigment {{ image_map {{ png \"{2}\" "
      "gamma srgb once interpolate 2 }} scale <{0:.4f}, {1:.4f}, 1> }} normal {{ granite 0.08 "
      "scale 0.12 }} finish {{ diffuse 0.9 }} }} }}\n",
      spec.table.width_in, spec.table.depth_in, table_png);
  pov << fmt::format("plane {{ z, -1.5 texture {{ pigment {{ color {} }} }} }}\n",
                     srgb({70, 80, 90}));
  // Bases, their stickers, figures and dice.
  for (std::size_t i = 0; i < spec.bases.size(); ++i) {
    const SceneBaseSpec& b = spec.bases[i];
    const BasePose pose = base_pose_at(b, 0);
    const double a = pose.angle_deg * CV_PI / 180;
    const double r = b.diameter_in / 2;
    const cv::Vec3d c(pose.centre_in.x, pose.centre_in.y, 0);
    pov << fmt::format("// base {} ({})\n", b.id, b.marker_id);
    pov << fmt::format(
        "cylinder {{ {}, {}, {:.4f} texture {{ pigment {{ color {} }} finish {{ diffuse 0.8 "
        "specular 0.25 roughness 0.02 }} }} }}\n",
        vec(c), vec(c + cv::Vec3d(0, 0, b.height_in - 0.004)), r, srgb(bgr_of(b.colour)));
    if (b.target != BaseTargetKind::kSquare) {
      const std::string png = base_sticker_png(dir, stem, i, b);
      pov << fmt::format(
          "cylinder {{ <0, 0, {0:.4f}>, <0, 0, {1:.4f}>, {2:.4f} texture {{ pigment {{ image_map "
          "{{ png \"{3}\" gamma srgb once interpolate 2 }} translate <-0.5, -0.5, 0> scale "
          "<{4:.4f}, {4:.4f}, 1> }} finish {{ diffuse 0.85 specular 0.05 roughness 0.1 }} }} "
          "rotate z * {5:.5f} translate {6} }}\n",
          b.height_in - 0.005, b.height_in, r, png, 2 * r, pose.angle_deg - 90, vec(c));
    }
    for (const auto& die : b.dice) {
      if (die.t_on_s > 0 || die.t_off_s <= 0) continue;
      const cv::Point2d at = pose.centre_in + turned(die.at_in, a - CV_PI / 2);
      pov << die_object(die, at, b.height_in, die.yaw_deg * CV_PI / 180 + a);
    }
    if (b.figure_height_in <= 0) continue;
    const FigureFootprint fp = *figure_footprint(b);
    const cv::Point2d foot = pose.centre_in + turned(fp.centre_in, a - CV_PI / 2);
    pov << (b.figure_style == FigureStyle::kPosed ? posed_figure(b, foot, a, fp.radius_in)
                                                  : rough_figure(b, foot, fp.radius_in));
  }
  out.pov_file = (fs::path(dir) / (stem + ".pov")).string();
  write_file_atomically(out.pov_file, pov.str());
  return out;
}

cv::Mat camera_picture(const cv::Mat& linear16, const SceneSpec& spec) {
  if (linear16.empty() || linear16.depth() != CV_16U || linear16.channels() != 3) {
    throw DataException({spec.name, 0, "picture", "POV-Ray's 16-bit colour picture"});
  }
  const calib::Intrinsics& cam = spec.camera;
  const cv::Size s = cam.image_size;
  cv::Mat lin;
  linear16.convertTo(lin, CV_32FC3, 1.0 / 65535);
  // The lens: where in the pinhole picture each of the camera's pixels looks.
  std::vector<cv::Point2f> px;
  px.reserve(static_cast<std::size_t>(s.area()));
  for (int v = 0; v < s.height; ++v) {
    for (int u = 0; u < s.width; ++u)
      px.emplace_back(static_cast<float>(u), static_cast<float>(v));
  }
  std::vector<cv::Point2f> ideal;
  cv::undistortPoints(px, ideal, cv::Mat(cam.camera_matrix), cv::Mat(cam.dist));
  cv::Mat map(s, CV_32FC2);
  const double ox = (linear16.cols - 1) / 2.0;
  const double oy = (linear16.rows - 1) / 2.0;
  for (int v = 0; v < s.height; ++v) {
    auto* m = map.ptr<cv::Vec2f>(v);
    for (int u = 0; u < s.width; ++u) {
      const auto& p = ideal[static_cast<std::size_t>(v) * s.width + u];
      m[u] = cv::Vec2f(static_cast<float>(p.x * cam.fx() + ox),
                       static_cast<float>(p.y * cam.fy() + oy));
    }
  }
  cv::Mat warped;
  cv::remap(lin, warped, map, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  // Exposure: the median brightness (mostly felt) at the felt's grey.
  cv::Mat grey;
  cv::cvtColor(warped, grey, cv::COLOR_BGR2GRAY);
  std::vector<float> values(grey.begin<float>(), grey.end<float>());
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2),
                   values.end());
  const double median = std::max(1e-6, static_cast<double>(values[values.size() / 2]));
  const double gain = srgb_decode(spec.look.felt_grey / 255.0) / median;
  // The tone curve, through a table of 4096 steps.
  std::array<unsigned char, 4097> curve{};
  for (std::size_t k = 0; k < curve.size(); ++k)
    curve[k] = cv::saturate_cast<uchar>(255 * srgb_encode(static_cast<double>(k) / 4096));
  cv::Mat out(s, CV_8UC3);
  for (int v = 0; v < s.height; ++v) {
    const auto* in = warped.ptr<cv::Vec3f>(v);
    auto* o = out.ptr<cv::Vec3b>(v);
    for (int u = 0; u < s.width; ++u) {
      for (int ch = 0; ch < 3; ++ch) {
        const double x = std::clamp(in[u][ch] * gain, 0.0, 1.0);
        o[u][ch] = curve[static_cast<std::size_t>(std::lround(x * 4096))];
      }
    }
  }
  return out;
}

void render_with_povray(const SceneSpec& spec, const std::string& dir, const std::string& stem) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path work = fs::path(dir) / (stem + ".work");
  fs::create_directories(work, ec);
  if (ec) throw DataException({work.string(), 0, "", "a folder that can be made: " + ec.message()});
  const PovrayScene scene = write_povray_scene(spec, work.string(), stem);
  const std::string png = (work / (stem + "-linear.png")).string();
  const std::string log = (work / (stem + ".log")).string();
  const int rc =
      run_povray({"+I" + scene.pov_file, "+O" + png, "+FN16", "File_Gamma=1.0",
                  fmt::format("+W{}", scene.render_size.width),
                  fmt::format("+H{}", scene.render_size.height), "+A0.3", "+AM2", "+R3", "+Q9",
                  "-D", "-V", "+L" + work.string(), "+L/usr/share/povray-3.7/include"},
                 log);
  if (rc != 0) {
    throw DataException({scene.pov_file, 0, "povray",
                         rc < 0 ? std::string("the povray program (Debian package povray)")
                                : "a scene POV-Ray renders (it said: " + last_line(log) + ")"});
  }
  const cv::Mat linear = cv::imread(png, cv::IMREAD_UNCHANGED);
  const cv::Mat picture = camera_picture(linear, spec);
  std::vector<unsigned char> jpeg;
  cv::imencode(".jpg", picture, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95});
  write_file_atomically((fs::path(dir) / (stem + ".jpg")).string(),
                        std::string(jpeg.begin(), jpeg.end()));
  write_file_atomically((fs::path(dir) / (stem + ".json")).string(),
                        truth_json(spec).dump(1) + "\n");
  if (!std::getenv("DUELS_KEEP_POVRAY_WORK")) fs::remove_all(work, ec);
}

cv::Mat read_image_set_picture(const SceneSpec& spec, const std::string& dir,
                               const std::string& stem) {
  const std::string truth_file = (fs::path(dir) / (stem + ".json")).string();
  const std::string text = read_text_file(truth_file, "an image set's truth file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw DataException({truth_file, 0, "", "the JSON truth file of a picture"});
  }
  const nlohmann::json want = truth_json(spec);
  const auto differ = [&](const std::string& field, const std::string& what) {
    throw DataException(
        {truth_file, 0, field,
         what +
             " as the scene has it (the picture was rendered from another scene: remove the "
             "set's pictures and render them again with `duels bench coverage --images " +
             dir + " --povray-render`)"});
  };
  for (const char* k : {"width", "height", "fx", "fy", "cx", "cy"}) {
    if (!holds(member(member(j, "camera"), k), want["camera"][k], 1e-3))
      differ(std::string("camera.") + k, "the camera");
  }
  for (const char* part : {"rvec", "tvec"}) {
    if (!holds(member(member(j, "pose"), part), want["pose"][part], 1e-4))
      differ(std::string("pose.") + part, "the camera's pose");
  }
  const nlohmann::json& bases = member(j, "bases");
  if (!bases.is_array() || bases.size() != want["bases"].size())
    differ("bases", fmt::format("{} bases", want["bases"].size()));
  for (std::size_t i = 0; i < want["bases"].size(); ++i) {
    for (const char* k : {"code", "x", "y", "facing", "diameter", "height", "dice", "posed"}) {
      if (!holds(member(bases[i], k), want["bases"][i][k], 1e-3))
        differ(fmt::format("bases[{}].{}", i, k), "the base");
    }
  }
  if (!holds(member(j, "lamp"), want["lamp"], 1e-3)) differ("lamp", "the lamp");
  const std::string picture_file = (fs::path(dir) / (stem + ".jpg")).string();
  cv::Mat picture = calib::read_image(picture_file, cv::IMREAD_COLOR, "picture");
  if (picture.size() != spec.camera.image_size) {
    throw DataException({picture_file, 0, "picture",
                         fmt::format("a {}x{} picture", spec.camera.image_size.width,
                                     spec.camera.image_size.height)});
  }
  return picture;
}

}  // namespace duels::vision
