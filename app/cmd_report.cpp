// `duels match report FILE --out DIR [--csv]` — the story of a match in Markdown and HTML, with
// charts as PNG: dice luck against the exact expected distribution, damage per round, dials.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <string_view>

#include "app/command.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "dice/notation.hpp"
#include "match/report.hpp"

namespace duels::app {
namespace {

namespace fs = std::filesystem;

// A chart as PNG bytes, for the report folder written whole.
std::string png_bytes(const cv::Mat& img) {
  std::vector<uchar> bytes;
  if (!cv::imencode(".png", img, bytes)) {
    throw DataException({"<chart>", 0, "", "a picture OpenCV can encode as PNG"});
  }
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A colour-blind-safe palette (Okabe–Ito), BGR.
const std::vector<cv::Scalar> kPalette = {{178, 114, 0},   {0, 159, 230}, {115, 158, 0},
                                          {167, 121, 204}, {0, 94, 213},  {233, 180, 86},
                                          {66, 228, 240},  {0, 0, 0}};

// A plot area with axes, y ticks, a title and a legend.
struct Chart {
  cv::Mat img;
  cv::Rect area;
  double y_max = 1;

  Chart(const std::string& title, double ymax, const std::string& y_label, int width = 1000,
        int height = 420)
      : img(height, width, CV_8UC3, cv::Scalar(255, 255, 255)),
        area(70, 50, width - 330, height - 110),
        y_max(ymax) {
    cv::putText(img, title, {area.x, 30}, cv::FONT_HERSHEY_SIMPLEX, 0.7, {30, 30, 30}, 2,
                cv::LINE_AA);
    cv::rectangle(img, area, {120, 120, 120}, 1);
    for (int i = 0; i <= 4; ++i) {
      const double v = y_max * i / 4;
      const int y = y_px(v);
      cv::line(img, {area.x, y}, {area.x + area.width, y}, {225, 225, 225}, 1);
      cv::putText(img, fmt::format("{:.3g}", v), {8, y + 5}, cv::FONT_HERSHEY_SIMPLEX, 0.45,
                  {60, 60, 60}, 1, cv::LINE_AA);
    }
    cv::putText(img, y_label, {8, area.y - 12}, cv::FONT_HERSHEY_SIMPLEX, 0.45, {60, 60, 60}, 1,
                cv::LINE_AA);
  }
  int y_px(double v) const {
    return area.y + area.height - static_cast<int>(std::lround(v / y_max * area.height));
  }
  void legend(int row, const std::string& label, const cv::Scalar& colour) {
    const int x = area.x + area.width + 20;
    const int y = area.y + 10 + row * 24;
    cv::rectangle(img, {x, y - 10}, {x + 14, y + 4}, colour, cv::FILLED);
    cv::putText(img, label, {x + 22, y + 3}, cv::FONT_HERSHEY_SIMPLEX, 0.48, {30, 30, 30}, 1,
                cv::LINE_AA);
  }
  void x_label(int x, const std::string& text) {
    cv::putText(img, text, {x - 8, area.y + area.height + 20}, cv::FONT_HERSHEY_SIMPLEX, 0.42,
                {60, 60, 60}, 1, cv::LINE_AA);
  }
};

cv::Mat luck_chart(const match::MatchReport& rep) {
  int max_count = 1;
  std::size_t bars = 0;
  for (const auto& l : rep.luck) {
    for (int o : l.observed)
      max_count = std::max(max_count, o);
    bars += l.observed.size();
  }
  Chart c("Dice luck: faces seen (bars) against the exact expectation (line)", max_count * 1.15,
          "rolls");
  if (bars == 0) return c.img;
  const double slot =
      static_cast<double>(c.area.width) / static_cast<double>(bars + rep.luck.size());
  double x = c.area.x + slot / 2;
  for (std::size_t k = 0; k < rep.luck.size(); ++k) {
    const auto& l = rep.luck[k];
    const cv::Scalar colour = kPalette[k % kPalette.size()];
    const double expected = static_cast<double>(l.rolls) / l.sides;
    const double x0 = x;
    for (std::size_t f = 0; f < l.observed.size(); ++f) {
      cv::rectangle(c.img, cv::Point(static_cast<int>(x), c.y_px(l.observed[f])),
                    cv::Point(static_cast<int>(x + slot * 0.8), c.y_px(0)), colour, cv::FILLED);
      if (l.sides <= 8 || f % 2 == 1)
        c.x_label(static_cast<int>(x + slot * 0.4), std::to_string(f + 1));
      x += slot;
    }
    cv::line(c.img, {static_cast<int>(x0), c.y_px(expected)},
             {static_cast<int>(x - slot * 0.2), c.y_px(expected)}, {0, 0, 0}, 2);
    c.legend(static_cast<int>(k),
             fmt::format("d{}: {} rolls, p={:.2f}", l.sides, l.rolls, l.p_value), colour);
    x += slot;
  }
  return c.img;
}

cv::Mat damage_chart(const match::MatchReport& rep) {
  int max_clicks = 1;
  for (const auto& [name, rounds] : rep.damage_by_round) {
    for (int v : rounds)
      max_clicks = std::max(max_clicks, v);
  }
  Chart c("Damage taken per round (clicks)", max_clicks * 1.15, "clicks");
  const int rounds = std::max(1, rep.rounds);
  const double group = static_cast<double>(c.area.width) / rounds;
  const double bar =
      group * 0.8 / static_cast<double>(std::max<std::size_t>(1, rep.damage_by_round.size()));
  int k = 0;
  for (const auto& [name, per_round] : rep.damage_by_round) {
    const cv::Scalar colour = kPalette[static_cast<std::size_t>(k) % kPalette.size()];
    for (std::size_t r = 0; r < per_round.size(); ++r) {
      if (per_round[r] == 0) continue;
      const double x = c.area.x + group * static_cast<double>(r) + group * 0.1 + bar * k;
      cv::rectangle(c.img, cv::Point(static_cast<int>(x), c.y_px(per_round[r])),
                    cv::Point(static_cast<int>(x + bar), c.y_px(0)), colour, cv::FILLED);
    }
    c.legend(k, name, colour);
    ++k;
  }
  for (int r = 0; r < rounds; r += std::max(1, rounds / 12)) {
    c.x_label(static_cast<int>(c.area.x + group * (r + 0.5)), std::to_string(r + 1));
  }
  return c.img;
}

cv::Mat dial_chart(const match::MatchReport& rep) {
  int max_value = 1;
  std::uint64_t last = 1;
  for (const auto& [name, hist] : rep.dials) {
    for (const auto& h : hist) {
      for (int v : h.value)
        max_value = std::max(max_value, v);
      last = std::max(last, h.seq);
    }
  }
  // One panel per dial, a line per figure, stacked.
  std::vector<cv::Mat> panels;
  for (int d = 0; d < 3; ++d) {
    Chart c(fmt::format("{} dial value over the match", dial_name(static_cast<DialKind>(d))),
            max_value * 1.1, "value", 1000, 260);
    int k = 0;
    for (const auto& [name, hist] : rep.dials) {
      const cv::Scalar colour = kPalette[static_cast<std::size_t>(k) % kPalette.size()];
      for (std::size_t i = 0; i < hist.size(); ++i) {
        const std::uint64_t seq_end = i + 1 < hist.size() ? hist[i + 1].seq : last;
        const int x0 = c.area.x + static_cast<int>(static_cast<double>(hist[i].seq) /
                                                   static_cast<double>(last) * c.area.width);
        const int x1 = c.area.x + static_cast<int>(static_cast<double>(seq_end) /
                                                   static_cast<double>(last) * c.area.width);
        const int y = c.y_px(hist[i].value[static_cast<std::size_t>(d)]) +
                      2 * k;  // offset: lines stay visible
        cv::line(c.img, {x0, y}, {x1, y}, colour, 3);
        if (i + 1 < hist.size()) {
          cv::line(c.img, {x1, y},
                   {x1, c.y_px(hist[i + 1].value[static_cast<std::size_t>(d)]) + 2 * k}, colour, 1);
        }
      }
      c.legend(k, name, colour);
      ++k;
    }
    c.x_label(c.area.x, "start");
    c.x_label(c.area.x + c.area.width - 30, fmt::format("event {}", last));
    panels.push_back(c.img);
  }
  cv::Mat all;
  cv::vconcat(panels, all);
  return all;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

void add_report(CLI::App& root) {
  struct Opts {
    std::string journal, out;
    bool csv = false;
  };
  auto o = std::make_shared<Opts>();
  auto* match = root.get_subcommand("match");
  auto* c = match->add_subcommand(
      "report", "Write a match report (Markdown, HTML, PNG charts; --csv: every roll)");
  c->add_option("journal", o->journal, "match journal")->required();
  c->add_option("--out", o->out, "output folder")->required();
  c->add_flag("--csv", o->csv, "also write rolls.csv with every roll");
  c->callback([o] {
    const auto contents = match::read_journal(o->journal);
    auto replay = match::replay(contents);
    // A report over part of a damaged journal says so, on stderr and in the report itself.
    const auto notes = match::damage_notes(contents, replay.error, replay.last_seq, o->journal);
    for (const auto& n : notes)
      std::cerr << "warning: " << n << "\n";
    const std::string coverage =
        fmt::format("This report covers events 1 to {} of the {} lines in the journal{}.",
                    replay.last_seq, contents.entry_lines,
                    notes.empty() ? "" : " (the journal is damaged: see the warnings below)");
    const match::MatchReport rep = match::build_report(replay);
    const fs::path dir(o->out);
    // Built whole in memory, then written as one folder: a full disk or a kill leaves the old
    // report (or none), never some new charts beside an old text.
    std::vector<FolderFile> files{{"dice_luck.png", png_bytes(luck_chart(rep))},
                                  {"damage.png", png_bytes(damage_chart(rep))},
                                  {"dials.png", png_bytes(dial_chart(rep))}};
    // Markdown.
    std::ostringstream md;
    md << "# " << rep.title << "\n\n**" << rep.result << "** after " << rep.rounds << " rounds.\n\n"
       << coverage << "\n\n";
    for (const auto& n : notes)
      md << "> **Warning:** " << n << "\n\n";
    for (const auto& t : rep.teams)
      md << "- " << t << "\n";
    md << "\n## Dice luck\n\nEach die size against its exact expectation (every face equally "
          "likely); the p-value is "
          "the chance of a spread at least this uneven from fair dice (χ² test).\n\n| die | rolls "
          "| faces 1…n | χ² | p |\n|---|---|---|---|---|\n";
    for (const auto& l : rep.luck) {
      std::string faces;
      for (int v : l.observed)
        faces += (faces.empty() ? "" : " ") + std::to_string(v);
      md << fmt::format("| d{} | {} | {} | {:.2f} | {:.3f} |\n", l.sides, l.rolls, faces,
                        l.chi_square, l.p_value);
    }
    md << "\n![dice luck](dice_luck.png)\n\n## Damage taken per round\n\n![damage](damage.png)\n\n";
    md << "| figure | clicks per round |\n|---|---|\n";
    for (const auto& [name, rounds] : rep.damage_by_round) {
      std::string v;
      for (int x : rounds)
        v += (v.empty() ? "" : " ") + std::to_string(x);
      md << "| " << name << " | " << v << " |\n";
    }
    md << "\n## Dials\n\n![dials](dials.png)\n\n## The story\n";
    for (const auto& [round, lines] : rep.story) {
      md << "\n### " << (round == 0 ? std::string("Set-up") : fmt::format("Round {}", round))
         << "\n\n";
      for (const auto& l : lines)
        md << (l.rfind("  ", 0) == 0 ? "    - " + l.substr(2) : "- " + l) << "\n";
    }
    // HTML.
    std::ostringstream html;
    html << "<!doctype html><html><head><meta charset=\"utf-8\"><title>" << html_escape(rep.title)
         << "</title><style>body{font-family:sans-serif;max-width:980px;margin:2em "
            "auto;line-height:1.4}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px "
            "8px}.step{color:#555;margin-left:2em}</style>"
            "</head><body><h1>"
         << html_escape(rep.title) << "</h1><p><b>" << html_escape(rep.result) << "</b> after "
         << rep.rounds << " rounds.</p><p>" << html_escape(coverage) << "</p>";
    for (const auto& n : notes)
      html << "<p><b>Warning:</b> " << html_escape(n) << "</p>";
    html << "<ul>";
    for (const auto& t : rep.teams)
      html << "<li>" << html_escape(t) << "</li>";
    html << "</ul><h2>Dice luck</h2><table><tr><th>die</th><th>rolls</th><th>faces "
            "1…n</th><th>χ²</th><th>p</th></tr>";
    for (const auto& l : rep.luck) {
      std::string faces;
      for (int v : l.observed)
        faces += (faces.empty() ? "" : " ") + std::to_string(v);
      html << fmt::format(
          "<tr><td>d{}</td><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.3f}</td></tr>", l.sides,
          l.rolls, faces, l.chi_square, l.p_value);
    }
    html << "</table><img src=\"dice_luck.png\" alt=\"dice luck\"><h2>Damage taken per round</h2>"
            "<img src=\"damage.png\" alt=\"damage\"><h2>Dials</h2><img src=\"dials.png\" "
            "alt=\"dials\"><h2>The story</h2>";
    for (const auto& [round, lines] : rep.story) {
      html << "<h3>" << (round == 0 ? std::string("Set-up") : fmt::format("Round {}", round))
           << "</h3>";
      for (const auto& l : lines) {
        html << (l.rfind("  ", 0) == 0 ? "<div class=\"step\">" + html_escape(l.substr(2))
                                       : "<div>" + html_escape(l))
             << "</div>";
      }
    }
    html << "</body></html>\n";
    if (o->csv) {
      std::ostringstream csv;
      csv << "event,round,figure,purpose,die,face,value\n";
      for (const auto& r : rep.rolls) {
        const dice::Roll roll{r.die, r.face};
        csv << fmt::format("{},{},\"{}\",{},{},{},{}\n", r.seq, r.round, r.figure, r.purpose,
                           dice::to_notation(r.die),
                           roll.is_ace() ? std::string("ace") : std::to_string(r.face),
                           roll.value());
      }
      files.push_back({"rolls.csv", csv.str()});
    }
    files.push_back({"report.md", md.str()});
    files.push_back({"report.html", html.str()});
    write_folder_atomically(
        dir.string(), files,
        {"report.md", "report.html", "dice_luck.png", "damage.png", "dials.png", "rolls.csv"});
    std::cout << fmt::format(
        "Report written to {} (report.md, report.html, dice_luck.png, damage.png, dials.png{})\n",
        dir.string(), o->csv ? ", rolls.csv" : "");
  });
}

DUELS_COMMAND(45, add_report);

}  // namespace
}  // namespace duels::app
