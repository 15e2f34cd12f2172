#include "cards/srtcg/deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>

#include "common/yaml_read.hpp"

namespace duels::cards::srtcg {

namespace {

constexpr int kSchema = 1;
constexpr int kMinCards = 60;
constexpr int kMinObjectives = 6;
constexpr int kMaxCopies = 4;
constexpr int kHand = 7;

const std::vector<std::string> kTypes = {"runner",   "gear",    "challenge",
                                         "location", "contact", "special"};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<DeckEntry> read_entries(FieldReader& r, const YAML::Node& root, const char* key,
                                    bool objectives) {
  std::vector<DeckEntry> out;
  const YAML::Node seq = r.sequence(root, key, "", true);
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const YAML::Node n = seq[i];
    const std::string path = index_path(key, i);
    if (!r.expect_map(n, path, {"name", "type", "copies", "unique", "rep"})) continue;
    DeckEntry e;
    e.line = FieldReader::line_of(n);
    if (auto name = r.text(n, "name", path, true)) e.name = *name;
    if (objectives) {
      e.type = "objective";
      if (n["type"] && lower(n["type"].as<std::string>("")) != "objective") {
        r.error(n["type"], join_path(path, "type"), "objective (or leave it out) in objectives");
      }
      if (auto rep = r.integer(n, "rep", path, true, 0, 1000)) e.rep = *rep;
    } else {
      if (auto type = r.text(n, "type", path, true)) {
        e.type = lower(*type);
        if (e.type == "stinger") e.type = "special";
        if (std::find(kTypes.begin(), kTypes.end(), e.type) == kTypes.end()) {
          r.error(n["type"], join_path(path, "type"),
                  "runner, gear, challenge, location, contact or special");
        }
      }
      if (n["rep"]) r.error(n["rep"], join_path(path, "rep"), "rep only on objectives");
    }
    if (auto copies = r.integer(n, "copies", path, false, 1, 1000)) e.copies = *copies;
    if (n["unique"]) {
      const std::string u = lower(n["unique"].as<std::string>(""));
      if (u == "true" || u == "yes") {
        e.unique = true;
      } else if (u != "false" && u != "no") {
        r.error(n["unique"], join_path(path, "unique"), "true or false");
      }
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace

Deck parse_deck(const std::string& text, const std::string& file) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  Deck d;
  d.file = file;
  if (!r.expect_map(root, "", {"schema_version", "goal", "cards", "objectives"})) {
    r.throw_if_errors();
  }
  r.schema_version(root, kSchema);
  if (auto goal = r.integer(root, "goal", "", false, 1, 10000)) d.goal = *goal;
  d.cards = read_entries(r, root, "cards", false);
  d.objectives = read_entries(r, root, "objectives", true);
  r.throw_if_errors();
  return d;
}

Deck load_deck(const std::string& path) {
  return parse_deck(read_text_file(path, "a readable deck file"), path);
}

double p_none_in_hand(int deck, int marked, int hand) {
  if (deck <= 0 || hand <= 0) return 1.0;
  if (hand > deck) hand = deck;
  if (marked <= 0) return 1.0;
  if (deck - marked < hand) return 0.0;
  double p = 1.0;
  for (int i = 0; i < hand; ++i)
    p *= static_cast<double>(deck - marked - i) / static_cast<double>(deck - i);
  return p;
}

DeckReport check_deck(const Deck& deck) {
  DeckReport r;
  r.goal = deck.goal;
  const auto problem = [&](int line, std::string field, std::string expected) {
    r.problems.push_back(DataError{deck.file, line, std::move(field), std::move(expected)});
  };
  std::map<std::string, int> copies;
  std::map<std::string, int> first_line;
  std::map<std::string, bool> unique;
  std::map<std::string, std::string> shown;
  const auto count = [&](const DeckEntry& e) {
    const std::string key = lower(e.name);
    copies[key] += e.copies;
    if (first_line.count(key) == 0) first_line[key] = e.line;
    unique[key] = unique[key] || e.unique;
    shown.emplace(key, e.name);
  };
  for (const DeckEntry& e : deck.cards) {
    r.cards += e.copies;
    r.by_type[e.type] += e.copies;
    if (e.type == "challenge") r.challenges += e.copies;
    count(e);
  }
  for (const DeckEntry& e : deck.objectives) {
    r.objectives += e.copies;
    r.rep_total += e.rep * e.copies;
    count(e);
  }
  if (deck.goal < 50) {
    problem(0, "goal", fmt::format("a Reputation goal of at least 50 (not {})", deck.goal));
  }
  if (r.cards < kMinCards) {
    problem(0, "cards",
            fmt::format("at least {} cards besides the Objectives (this deck has {})", kMinCards,
                        r.cards));
  }
  if (r.objectives < kMinObjectives) {
    problem(0, "objectives",
            fmt::format("at least {} Objectives (this deck has {})", kMinObjectives, r.objectives));
  }
  if (r.rep_total < deck.goal) {
    problem(0, "objectives",
            fmt::format("Objectives worth at least the goal of {} Reputation (they add up to {})",
                        deck.goal, r.rep_total));
  }
  for (const auto& [key, n] : copies) {
    if (unique[key] && n > 1) {
      problem(first_line[key], shown[key],
              fmt::format("one copy of a Unique card (this deck has {})", n));
    } else if (n > kMaxCopies) {
      problem(first_line[key], shown[key],
              fmt::format("at most {} copies of a card (this deck has {})", kMaxCopies, n));
    }
  }
  r.legal = r.problems.empty();
  const auto advise = [&](const char* type, const char* label, int lo, int hi) {
    const int n = r.by_type.count(type) ? r.by_type.at(type) : 0;
    if (n < lo || n > hi) {
      r.advice.push_back(fmt::format("{} {} (suggested {}–{})", n, label, lo, hi));
    }
  };
  advise("runner", "Runners", 12, 20);
  advise("gear", "Gear cards", 5, 10);
  advise("challenge", "Challenges", 12, 20);
  advise("location", "Locations", 1, 5);
  advise("contact", "Contacts", 1, 5);
  advise("special", "Specials", 8, 12);
  if (r.cards > 70) {
    r.advice.push_back(fmt::format(
        "{} cards: 60–70 is recommended, larger decks tend to be less effective", r.cards));
  }
  r.p_no_challenge_opening = p_none_in_hand(r.cards, r.challenges, kHand);
  return r;
}

}  // namespace duels::cards::srtcg
