// The Encounters card notation: known answers, errors that point at the bad token, round
// trips, and a few thousand seeded random strings (the libFuzzer target's gcc stand-in).
#include <gtest/gtest.h>

#include <string>

#include "cards/encounters/advisor.hpp"
#include "cards/encounters/notation.hpp"
#include "dice/roller.hpp"

namespace duels::cards::encounters {
namespace {

TEST(EncountersNotation, ParsesTheBookRunners) {
  auto topshelf = parse_runner("Topshelf: wild 2,5; metahuman: +1; red");
  ASSERT_TRUE(topshelf) << topshelf.error().message();
  EXPECT_EQ(topshelf->name, "Topshelf");
  EXPECT_EQ(topshelf->retain, RetainMode::Never);
  EXPECT_EQ(topshelf->hire_cost, 2);
  ASSERT_EQ(topshelf->abilities.size(), 2U);
  EXPECT_EQ(topshelf->abilities[0].kind, AbilityKind::Wild);
  EXPECT_EQ(topshelf->abilities[0].wild_faces, (1U << 2) | (1U << 5));
  EXPECT_EQ(topshelf->abilities[1].kind, AbilityKind::Modify);
  EXPECT_EQ(topshelf->abilities[1].keyword, "metahuman");
  EXPECT_TRUE(topshelf->abilities[1].up);
  EXPECT_FALSE(topshelf->abilities[1].down);

  auto mary = parse_runner("Contrary Mary: wild 4 6; Megacorporation: +1");
  ASSERT_TRUE(mary);
  EXPECT_EQ(mary->name, "Contrary Mary");
  EXPECT_EQ(mary->abilities[1].keyword, "megacorporation");

  auto fixer = parse_runner("Fixer: +-2; cost 4; purple");
  ASSERT_TRUE(fixer);
  EXPECT_EQ(fixer->hire_cost, 4);
  EXPECT_EQ(fixer->retain, RetainMode::Always);
  EXPECT_TRUE(fixer->abilities[0].up && fixer->abilities[0].down);
  EXPECT_EQ(fixer->abilities[0].amount, 2);

  auto contacts = parse_runner("Contacts: special +1");
  ASSERT_TRUE(contacts);
  EXPECT_TRUE(contacts->special);

  auto tulio = parse_runner("Tulio: lift; cost 3");
  ASSERT_TRUE(tulio);
  EXPECT_EQ(tulio->abilities[0].kind, AbilityKind::Lift);

  auto nameless = parse_runner("-1");
  ASSERT_TRUE(nameless);
  EXPECT_EQ(nameless->name, "");
  EXPECT_TRUE(nameless->abilities[0].down);
}

TEST(EncountersNotation, ParsesEncounters) {
  auto captain = parse_encounter("Ancients Captain: 7 Metahuman underworld");
  ASSERT_TRUE(captain);
  EXPECT_EQ(captain->value, 7);
  EXPECT_EQ(captain->keywords, (std::vector<std::string>{"metahuman", "underworld"}));
  auto fire = parse_encounter("Spirit of Fire: 6 no-runners magic rotate 2 bonus 1");
  ASSERT_TRUE(fire);
  EXPECT_TRUE(fire->no_runners);
  EXPECT_EQ(fire->rotate_icons, 2);
  EXPECT_EQ(fire->bonus_nuyen, 1);
  auto vampire = parse_encounter("Vampire: 5 twice paracritter");
  ASSERT_TRUE(vampire);
  EXPECT_TRUE(vampire->twice);
  auto worm = parse_encounter("Data Worm: -");
  ASSERT_TRUE(worm);
  EXPECT_FALSE(worm->value.has_value());
  auto contacts = parse_encounter("Contacts: 4 special +2");
  ASSERT_TRUE(contacts);
  EXPECT_EQ(contacts->special_plus, 2);
  auto bare = parse_encounter("9");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->name, "");
}

struct BadSpec {
  const char* text;
  std::size_t position;
  const char* token;
  const char* expected_fragment;
};

TEST(EncountersNotation, RunnerErrorsPointAtTheToken) {
  const BadSpec cases[] = {
      {"Topshelf: wild 2,7", 17, "7", "face from 1 to 6"},
      {"Topshelf: wild", 10, "wild", "followed by faces"},
      {"Topshelf: +9", 11, "9", "amount from 1 to 5"},
      {"Topshelf: +", 10, "+", "number right after the sign"},
      {"Topshelf: fly 3", 10, "fly", "an ability"},
      {"Topshelf: meta human: +1", 10, "meta human", "keyword"},
      {"Topshelf: metahuman: red", 21, "red", "die ability after the keyword"},
      {"Topshelf: +1 2", 13, "2", "nothing more here"},
      {"Topshelf: red; purple", 15, "purple", "only one of red or purple"},
      {"Topshelf: cost 1", 15, "1", "hire cost from 2 to 20"},
      {"Contacts: special +1; +1", 22, "+1", "nothing else on a Special"},
      {"Bad\x01Name: +1", 0, "Bad\x01Name:", "name before ':'"},
      {"Nobody:", 7, "", "a Shadowrunner like"},
  };
  for (const auto& c : cases) {
    auto r = parse_runner(c.text);
    ASSERT_FALSE(r) << c.text;
    EXPECT_EQ(r.error().position, c.position) << c.text;
    EXPECT_EQ(r.error().text.substr(r.error().position, r.error().length), c.token) << c.text;
    EXPECT_NE(r.error().expected.find(c.expected_fragment), std::string::npos)
        << c.text << " → " << r.error().expected;
    const std::string msg = r.error().message();
    EXPECT_NE(msg.find('^'), std::string::npos) << msg;
  }
}

// Found by fuzz_encounters_spec (UBSan): a card with 33 abilities made the match finder shift a
// 32-bit mask by 32. A card has at most 16 abilities; the 17th is refused where it stands.
TEST(EncountersNotation, AtMostSixteenAbilitiesOnACard) {
  std::string spec = "Many: +1";
  for (int i = 1; i < 16; ++i)
    spec += "; +1";
  ASSERT_TRUE(parse_runner(spec)) << spec;
  const std::size_t seventeenth = spec.size() + 2;
  spec += "; -2";
  const auto refused = parse_runner(spec);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().position, seventeenth);
  EXPECT_EQ(refused.error().expected, "at most 16 abilities on a card");
}

TEST(EncountersNotation, EncounterAndDiceErrorsPointAtTheToken) {
  auto v = parse_encounter("Big: 49");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().position, 5U);
  auto kw = parse_encounter("Odd: 5 m@gic");
  ASSERT_FALSE(kw);
  EXPECT_EQ(kw.error().position, 7U);
  auto twice = parse_encounter("Worm: - twice");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().position, 8U);
  auto special = parse_encounter("C: 4 special 2");
  ASSERT_FALSE(special);
  EXPECT_EQ(special.error().position, 13U);

  auto dice = parse_dice("1, 1, 7");
  ASSERT_FALSE(dice);
  EXPECT_EQ(dice.error().position, 6U);
  EXPECT_NE(dice.error().message().find("  1, 1, 7\n        ^"), std::string::npos)
      << dice.error().message();
  auto many = parse_dice("1,2,3,4,5,6,1,2,3");
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().position, 16U);
  EXPECT_FALSE(parse_dice(""));
  EXPECT_FALSE(parse_dice("0"));
  EXPECT_EQ(*parse_dice("1 1,3"), (std::vector<int>{1, 1, 3}));
  EXPECT_FALSE(parse_value("0"));
  EXPECT_FALSE(parse_value("seven"));
  EXPECT_EQ(*parse_value(" 12 "), 12);
  EXPECT_FALSE(parse_keywords("magic, 9lives"));
}

TEST(EncountersNotation, RoundTripsThroughCanonicalText) {
  const char* runners[] = {"Topshelf: wild 2,5; metahuman: +1; red",
                           "Contrary Mary: wild 4,6; megacorporation: +1",
                           "Fixer: +-2; cost 4; purple",
                           "Contacts: special +1",
                           "Tulio: lift; cost 3",
                           "Plain: cost 2",
                           "-1",
                           ": metahuman: +2; red"};
  for (const char* text : runners) {
    auto a = parse_runner(text);
    ASSERT_TRUE(a) << text;
    auto b = parse_runner(to_notation(*a));
    ASSERT_TRUE(b) << to_notation(*a);
    EXPECT_EQ(*a, *b) << text;
  }
  const char* encounters[] = {"Ancients Captain: 7 metahuman underworld",
                              "Spirit of Fire: 6 no-runners magic rotate 2 bonus 1",
                              "Vampire: 5 twice paracritter",
                              "Data Worm: -",
                              "Contacts: 4 special +2",
                              "9"};
  for (const char* text : encounters) {
    auto a = parse_encounter(text);
    ASSERT_TRUE(a) << text;
    auto b = parse_encounter(to_notation(*a));
    ASSERT_TRUE(b) << to_notation(*a);
    EXPECT_EQ(*a, *b) << text;
  }
}

TEST(EncountersNotation, StarterLegality) {
  EXPECT_FALSE(starter_problem(*parse_runner("Generic: +1")));
  EXPECT_TRUE(starter_problem(*parse_runner("Pricey: +1; cost 3")));
  EXPECT_TRUE(starter_problem(*parse_runner("osi: lift")));
  EXPECT_TRUE(starter_problem(*parse_runner("Corium: +1")));
}

/// A random string biased toward the notation's own characters, so the parsers go deep.
std::string random_spec(dice::Rng& rng) {
  static const std::string alphabet =
      "abcdefghijklmnopqrstuvwxyz ABCTMW0123456789:;,+-=_#\xC2\xB1\t\n\x01\xff";
  static const char* pieces[] = {
      "wild ", "metahuman: ", "+1",    "-2",       "+-",      "special ",   "lift",
      "red",   "purple",      "cost ", "bonus ",   "rotate ", "no-runners", "twice",
      "; ",    ": ",          ",",     "99999999", "-",       "1-12",       "5:2"};
  std::string out = rng.uniform(2) == 1 ? "Name: " : "";
  const int n = rng.uniform(12) - 1;
  for (int i = 0; i < n; ++i) {
    if (rng.uniform(3) == 1) {
      out += pieces[rng.uniform(static_cast<int>(std::size(pieces))) - 1];
    } else {
      out += alphabet[static_cast<std::size_t>(rng.uniform(static_cast<int>(alphabet.size())) - 1)];
    }
  }
  return out;
}

// Every parser returns a value or an error inside the text, on thousands of random strings;
// whatever parses also round-trips.
TEST(EncountersNotation, RandomStringsNeverCrash) {
  dice::Rng rng(0xE4C0);
  int parsed = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string text = random_spec(rng);
    const auto check = [&](const auto& r) {
      if (!r) {
        EXPECT_LE(r.error().position, text.size()) << text;
        EXPECT_FALSE(r.error().message().empty());
      }
    };
    auto runner = parse_runner(text);
    check(runner);
    if (runner) {
      ++parsed;
      auto again = parse_runner(to_notation(*runner));
      ASSERT_TRUE(again) << text << " → " << to_notation(*runner);
      EXPECT_EQ(*again, *runner) << text;
    }
    auto enc = parse_encounter(text);
    check(enc);
    if (enc) {
      auto again = parse_encounter(to_notation(*enc));
      ASSERT_TRUE(again) << text << " → " << to_notation(*enc);
      EXPECT_EQ(*again, *enc) << text;
    }
    check(parse_dice(text));
    check(parse_keywords(text));
    check(parse_value(text));
    check(parse_value_mix(text));
  }
  EXPECT_GT(parsed, 20);  // the generator does reach valid specs
}

}  // namespace
}  // namespace duels::cards::encounters
