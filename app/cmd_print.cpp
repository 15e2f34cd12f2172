// `duels print board|markers|bases` — true-scale printable sheets: a calibration board, ArUco
// markers (the table's corner set, base markers) or the coded rings for the bases' tops, each
// with a 1-inch check bar and its parameters printed on it. PDF (vector, exact size) or PNG
// (with its DPI stored).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/length_option.hpp"
#include "calib/printable.hpp"
#include "calib/units.hpp"
#include "duels/assets.hpp"
#include "vision/ring.hpp"

namespace duels::app {
namespace {

calib::Paper paper_from(const std::string& name) {
  const auto paper = calib::paper_by_name(name);
  if (!paper) {
    throw UsageError(fmt::format("--paper is letter, a4, legal, a3 or tabloid, not '{}'", name));
  }
  return *paper;
}

void report(const std::vector<std::string>& files, const std::string& what,
            const std::vector<calib::Sheet>& sheets, double dpi, bool json) {
  if (json) {
    nlohmann::json j;
    j["files"] = files;
    j["pages"] = sheets.size();
    j["what"] = what;
    j["paper"] = sheets.front().paper.name;
    j["dpi"] = dpi;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << what << "\n";
  for (const auto& f : files)
    std::cout << "wrote " << f << "\n";
  std::cout << "Print at 100% (actual size, no 'fit to page'), then check the 1-inch bar with a "
               "ruler.\n";
}

void add_print(CLI::App& root) {
  auto* print =
      root.add_subcommand("print", "Printable calibration boards, ArUco markers and base rings");
  print->require_subcommand(1);

  // Flags of `duels print board`.
  struct BoardOpts {
    std::string pattern = "charuco";
    int cols = 0;
    int rows = 0;
    std::string square;
    std::string marker;
    std::string dict = "DICT_5X5_100";
    std::string paper = "letter";
    std::string out;
    double dpi = 300;
    bool json = false;
  };
  auto b = std::make_shared<BoardOpts>();
  auto* board = print->add_subcommand(
      "board",
      "A calibration board: `duels print board --pattern charuco --paper letter --out "
      "board.pdf`");
  board->add_option("--pattern", b->pattern, "charuco, chessboard, circles or acircles")
      ->capture_default_str();
  board
      ->add_option("--cols", b->cols,
                   "chessboard: inner corners across (default 9); charuco: squares (default 5); "
                   "circles: per row (default 7; acircles 4)")
      ->check(CLI::Range(2, 200));
  board
      ->add_option("--rows", b->rows,
                   "chessboard: inner corners down (default 6); charuco: squares (default 7); "
                   "circles: rows (default 6; acircles 11)")
      ->check(CLI::Range(2, 200));
  board->add_option("--square", b->square, "square size, e.g. 30mm (default: largest that fits)");
  board->add_option("--marker", b->marker, "charuco marker size (default: 3/4 of the square)");
  board->add_option("--dict", b->dict, "charuco ArUco dictionary")->capture_default_str();
  board->add_option("--paper", b->paper, "letter, a4, legal, a3 or tabloid")->capture_default_str();
  board->add_option("--out", b->out, "FILE.pdf or FILE.png")->required();
  board->add_option("--dpi", b->dpi, "PNG resolution")->capture_default_str();
  board->add_flag("--json", b->json, "print JSON");
  board->callback([b] {
    calib::PatternSpec spec;
    const auto kind = calib::parse_pattern_kind(b->pattern);
    if (!kind) {
      throw UsageError(fmt::format(
          "--pattern is charuco, chessboard, circles or acircles, not '{}'", b->pattern));
    }
    spec.kind = *kind;
    // Defaults: OpenCV's sample boards (9x6 chessboard, 4x11 asymmetric circles).
    int cols = 5;
    int rows = 7;
    switch (spec.kind) {
      case calib::PatternKind::kChessboard:
        cols = 9;
        rows = 6;
        break;
      case calib::PatternKind::kCharuco:
        break;
      case calib::PatternKind::kCircles:
        cols = 7;
        rows = 6;
        break;
      case calib::PatternKind::kAsymmetricCircles:
        cols = 4;
        rows = 11;
        break;
    }
    spec.cols = b->cols > 0 ? b->cols : cols;
    spec.rows = b->rows > 0 ? b->rows : rows;
    spec.dictionary = b->dict;
    const calib::Paper paper = paper_from(b->paper);
    if (b->square.empty()) {
      const auto fitted = calib::fit_board_to_paper(spec, paper);
      if (!fitted) throw UsageError("the board has too many squares for this paper");
      spec = *fitted;
    } else {
      spec.square_mm = length_mm(b->square, "--square");
      spec.marker_mm = std::floor(spec.square_mm * 0.75 * 2) / 2;
    }
    if (!b->marker.empty()) spec.marker_mm = length_mm(b->marker, "--marker");
    if (const auto bad = calib::validate(spec)) throw UsageError(*bad);
    const auto sheet = calib::board_sheet(spec, paper);
    if (!sheet) throw UsageError(sheet.error());
    const std::vector<calib::Sheet> sheets{*sheet};
    const auto files = calib::write_sheets(b->out, sheets, b->dpi, calib::describe(spec));
    report(files, calib::describe(spec), sheets, b->dpi, b->json);
  });

  // Flags of `duels print markers`.
  struct MarkerOpts {
    std::string ids = "0-3";
    std::string size = "5in";
    std::string dict = "DICT_4X4_50";
    std::string paper = "letter";
    std::string out;
    double dpi = 300;
    bool json = false;
  };
  auto m = std::make_shared<MarkerOpts>();
  auto* markers = print->add_subcommand(
      "markers",
      "ArUco markers: `duels print markers --ids 0-3 --size 5in --out corners.pdf` is "
      "the table's corner set");
  markers->add_option("--ids", m->ids, "ids, e.g. 0-11 or 0,2,5-7")->capture_default_str();
  markers->add_option("--size", m->size, "side of the black square, e.g. 1.5in")
      ->capture_default_str();
  markers->add_option("--dict", m->dict, "ArUco dictionary")->capture_default_str();
  markers->add_option("--paper", m->paper, "letter, a4, legal, a3 or tabloid")
      ->capture_default_str();
  markers->add_option("--out", m->out, "FILE.pdf or FILE.png (one PNG per page)")->required();
  markers->add_option("--dpi", m->dpi, "PNG resolution")->capture_default_str();
  markers->add_flag("--json", m->json, "print JSON");
  markers->callback([m] {
    const auto ids = calib::parse_id_list(m->ids);
    if (!ids)
      throw UsageError(fmt::format("--ids wants a list like 0-11 or 0,2,5-7, not '{}'", m->ids));
    const double side_in = length_mm(m->size, "--size") / calib::kMmPerInch;
    const auto sheets = calib::marker_sheets(m->dict, *ids, side_in, paper_from(m->paper));
    if (!sheets) throw UsageError(sheets.error());
    const std::string what = fmt::format("{} ArUco markers ({}), {} square", ids->size(), m->dict,
                                         calib::format_in(side_in));
    const auto files = calib::write_sheets(m->out, *sheets, m->dpi, what);
    report(files, what, *sheets, m->dpi, m->json);
  });

  // Flags of `duels print bases`.
  struct BaseOpts {
    std::string ids = "0-7";
    std::string target = "ring2";
    std::vector<std::string> diameters;
    std::string paper = "letter";
    std::string out;
    double dpi = 300;
    bool json = false;
  };
  auto o = std::make_shared<BaseOpts>();
  auto* bases = print->add_subcommand(
      "bases",
      "Coded rings for the bases' tops: `duels print bases --ids 0-7 --out rings.pdf` (every "
      "base diameter of the figure files unless --diameter is given)");
  bases
      ->add_option("--ids", o->ids,
                   "ring codes, e.g. 0-7 or 0,2,5 (the `marker` of each base; the first codes lie "
                   "farthest apart)")
      ->capture_default_str();
  bases
      ->add_option("--target", o->target,
                   "ring2 (two code bands, read from any half of the ring) or ring (the first, "
                   "one-band ring)")
      ->capture_default_str();
  bases->add_option("--diameter", o->diameters,
                    "base diameter with a unit, e.g. 2in or 50mm; repeat for several");
  bases->add_option("--paper", o->paper, "letter, a4, legal, a3 or tabloid")->capture_default_str();
  bases->add_option("--out", o->out, "FILE.pdf or FILE.png (one PNG per page)")->required();
  bases->add_option("--dpi", o->dpi, "PNG resolution")->capture_default_str();
  bases->add_flag("--json", o->json, "print JSON");
  bases->callback([o] {
    const auto ids = calib::parse_id_list(o->ids);
    if (!ids)
      throw UsageError(fmt::format("--ids wants a list like 4-11 or 4,6,9, not '{}'", o->ids));
    std::vector<double> diameters;
    for (const auto& d : o->diameters)
      diameters.push_back(length_mm(d, "--diameter") / calib::kMmPerInch);
    if (diameters.empty()) {
      // Every base size of the bundled figure files.
      for (const auto& [name, fig] : load_asset_library(assets_dir()).figures) {
        if (std::none_of(diameters.begin(), diameters.end(),
                         [&](double x) { return std::abs(x - fig.base_diameter_in) < 1e-9; }))
          diameters.push_back(fig.base_diameter_in);
      }
      std::sort(diameters.begin(), diameters.end());
    }
    if (o->target != "ring" && o->target != "ring2")
      throw UsageError(fmt::format("--target is ring2 or ring, not '{}'", o->target));
    const auto style =
        o->target == "ring2" ? vision::RingStyle::kTwoBand : vision::RingStyle::kOneBand;
    const auto sheets = vision::ring_sheets(*ids, diameters, paper_from(o->paper), style);
    if (!sheets) throw UsageError(sheets.error());
    std::string sizes;
    for (double d : diameters)
      sizes += (sizes.empty() ? "" : ", ") + calib::format_in(d);
    const std::string what =
        fmt::format("{} {} (codes {}) for {} bases", ids->size(),
                    o->target == "ring2" ? "two-band base rings" : "base rings", o->ids, sizes);
    const auto files = calib::write_sheets(o->out, *sheets, o->dpi, what);
    report(files, what, *sheets, o->dpi, o->json);
  });
}

DUELS_COMMAND(65, add_print);

}  // namespace
}  // namespace duels::app
