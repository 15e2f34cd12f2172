// The match finder: book scenarios T-E1, T-E3, T-E7, T-E8, T-E17 and a property test against
// a brute-force search over every order of every ability.
#include <gtest/gtest.h>

#include <tuple>

#include <algorithm>
#include <bit>

#include "cards/encounters/match.hpp"
#include "cards/encounters/odds.hpp"
#include "dice/roller.hpp"

namespace duels::cards::encounters {
namespace {

HandCard card(const char* spec) {
  auto c = parse_runner(spec);
  EXPECT_TRUE(c) << (c ? "" : c.error().message());
  return HandCard{c ? *c : RunnerCard{}, 0, false};
}

MatchQuery query(std::vector<int> dice, int value, std::vector<std::string> keywords = {}) {
  MatchQuery q;
  q.dice = std::move(dice);
  q.value = value;
  q.keywords = std::move(keywords);
  q.max_solutions = 100000;
  return q;
}

std::vector<int> cards_of(const Solution& s) {
  std::vector<int> out;
  for (const CardUse& c : s.cards)
    out.push_back(c.card);
  return out;
}

/// Replays a way's steps on the dice and checks every rule the finder promises.
void expect_valid(const Solution& s, const MatchQuery& q) {
  std::vector<int> values = q.dice;
  std::vector<std::tuple<int, int, int>> used;
  for (const Step& st : s.steps) {
    const Ability& a = q.cards[static_cast<std::size_t>(st.card)]
                           .card.abilities[static_cast<std::size_t>(st.ability)];
    // Each ability once per Encounter; "All rolled 4s & 6s are wild" covers every die that
    // shows a listed face (each die once).
    const int die = a.kind == AbilityKind::Wild ? st.die : -2;
    const auto key = std::make_tuple(st.card, st.ability, die);
    EXPECT_EQ(std::count(used.begin(), used.end(), key), 0) << "ability used twice";
    used.push_back(key);
    if (st.die < 0) {
      EXPECT_EQ(a.kind, AbilityKind::Lift);
      continue;
    }
    EXPECT_TRUE(keyword_matches(a, q.keywords));
    ASSERT_EQ(values[static_cast<std::size_t>(st.die)], st.from);
    EXPECT_NE(ability_targets(a, st.from) & (1U << st.to), 0) << "illegal step";
    EXPECT_GE(st.to, 1);
    EXPECT_LE(st.to, 6);
    values[static_cast<std::size_t>(st.die)] = st.to;
    EXPECT_NE(std::find(s.dice.begin(), s.dice.end(), st.die), s.dice.end());
  }
  std::vector<int> all;
  for (const auto& g : s.groups) {
    int sum = 0;
    for (int d : g)
      sum += values[static_cast<std::size_t>(d)];
    EXPECT_EQ(sum, q.value);
    all.insert(all.end(), g.begin(), g.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << "a die used twice";
  EXPECT_EQ(all, s.dice);
  EXPECT_EQ(s.dice_left, static_cast<int>(q.dice.size() - s.dice.size()));
}

// T-E1 (book): Contrary Mary + Topshelf against Ancients Captain (7, Metahuman, Underworld).
TEST(EncountersMatch, TE1ContraryMaryAndTopshelf) {
  MatchQuery q = query({1, 1, 3}, 7, {"metahuman", "underworld"});
  q.cards = {card("Contrary Mary: wild 4,6; megacorporation: +1"),
             card("Topshelf: wild 2,5; metahuman: +1; red")};
  auto r = find_matches(q);
  ASSERT_TRUE(r) << r.error();
  EXPECT_FALSE(r->plain_match);
  for (const Solution& s : r->solutions)
    expect_valid(s, q);

  // The book's line: Topshelf only, +1 on a 1 (1→2), then wild 2→3: {1,3,3}, all dice locked.
  const auto book = std::find_if(r->solutions.begin(), r->solutions.end(), [](const Solution& s) {
    return s.cards.size() == 1 && s.cards[0].card == 1 && s.dice.size() == 3 &&
           s.steps.size() == 2 && s.steps[0].from == 1 && s.steps[0].to == 2 &&
           s.steps[1].from == 2 && s.steps[1].to == 3;
  });
  ASSERT_NE(book, r->solutions.end());
  EXPECT_EQ(book->dice_left, 0);                        // all 6 locked: Escalation available
  EXPECT_EQ(book->cards[0].fate, CardFate::Discarded);  // red icon: no retain
  EXPECT_EQ(book->retain_cost_nuyen, 0);
  EXPECT_EQ(book->steps[0].ability, 1);  // metahuman: +1 first
  EXPECT_EQ(book->steps[1].ability, 0);  // then wild 2,5

  // Contrary Mary's Megacorporation ability shows as unavailable, with the reason.
  ASSERT_EQ(r->unavailable.size(), 1U);
  EXPECT_EQ(r->unavailable[0].card, 0);
  EXPECT_EQ(r->unavailable[0].ability, 1);
  EXPECT_NE(r->unavailable[0].reason.find("Megacorporation"), std::string::npos);

  // Other paths use both cards.
  EXPECT_TRUE(std::any_of(r->solutions.begin(), r->solutions.end(),
                          [](const Solution& s) { return s.cards.size() == 2; }));
  // The ranking puts one-card ways first.
  EXPECT_EQ(r->solutions.front().cards.size(), 1U);
  // Lock sizes: 2 (e.g. 1→4 with 3) and 3 (the book line).
  EXPECT_EQ(r->lock_sizes, (std::vector<int>{2, 3}));
}

// T-E3 (book): Spirit of Fire has the No-Shadowrunners icon; Poppyseeds is blocked unless
// Tulio is discarded; then its Magic keyword works too.
TEST(EncountersMatch, TE3NoShadowrunnersIconAndLift) {
  MatchQuery q = query({2, 2}, 6, {"magic"});
  q.no_runners = true;
  q.cards = {card("Poppyseeds: magic: +2")};
  auto blocked = find_matches(q);
  ASSERT_TRUE(blocked);
  EXPECT_TRUE(blocked->solutions.empty());
  ASSERT_EQ(blocked->unavailable.size(), 1U);
  EXPECT_NE(blocked->unavailable[0].reason.find("No-Shadowrunners"), std::string::npos);

  q.cards.push_back(card("Tulio: lift; cost 3"));
  auto lifted = find_matches(q);
  ASSERT_TRUE(lifted);
  ASSERT_FALSE(lifted->solutions.empty());
  const Solution& s = lifted->solutions.front();
  expect_valid(s, q);
  EXPECT_EQ(s.steps.front().die, -1);  // discard Tulio first
  EXPECT_EQ(s.steps.front().card, 1);
  EXPECT_EQ(cards_of(s), (std::vector<int>{0, 1}));
  EXPECT_EQ(s.cards[1].fate, CardFate::DiscardedToLift);
  EXPECT_EQ(s.values, (std::vector<int>{2, 4}));
  EXPECT_FALSE(lifted->plain_match);
}

// Special Shadowrunners are not "Shadowrunners" for the icon (rulebook, Special Shadowrunner).
TEST(EncountersMatch, SpecialShadowrunnerIgnoresTheIcon) {
  MatchQuery q = query({3}, 4);
  q.no_runners = true;
  q.cards = {card("Fixer: +1"), card("Contacts: special +1")};
  auto r = find_matches(q);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->solutions.size(), 1U);
  EXPECT_EQ(cards_of(r->solutions[0]), (std::vector<int>{1}));
  EXPECT_EQ(r->solutions[0].cards[0].fate, CardFate::SpentSpecial);
  EXPECT_EQ(r->solutions[0].cards_lost, 1);
}

// T-E7 (derived): exact sums only.
TEST(EncountersMatch, TE7ExactSum) {
  auto none = find_matches(query({6, 5, 2}, 4));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->solutions.empty());
  EXPECT_FALSE(none->plain_match);
  auto two = find_matches(query({6, 5, 2, 2}, 4));
  ASSERT_TRUE(two);
  ASSERT_EQ(two->solutions.size(), 1U);  // the two 2s, listed once
  EXPECT_TRUE(two->plain_match);
  EXPECT_EQ(two->solutions[0].dice, (std::vector<int>{2, 3}));
  EXPECT_EQ(two->solutions[0].faces, (std::vector<int>{2, 2}));
  EXPECT_TRUE(two->solutions[0].steps.empty());
}

// Found by fuzz_encounters_spec (UBSan): with more than 32 usable abilities in hand the finder
// shifted a 32-bit mask past its width before refusing. It is refused, counting them all.
TEST(EncountersMatch, MoreUsableAbilitiesThanTheLimitAreRefusedAndCounted) {
  MatchQuery q = query({3, 4}, 9);
  std::string spec = "Many: wild 1,2";
  for (int i = 1; i < 16; ++i)
    spec += "; wild 1,2";
  for (int i = 0; i < 3; ++i)
    q.cards.push_back(card(spec.c_str()));
  const auto r = find_matches(q);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "too many usable abilities at once (48, the limit is 16)");
}

/// "Twice" against `value` with two copies of the card `spec`: some way is found, and each is legal
/// (every copy of an ability used once).
void expect_twice_answered(std::vector<int> dice, int value, const char* spec,
                           std::vector<std::string> keywords = {}) {
  MatchQuery q = query(std::move(dice), value, std::move(keywords));
  q.twice = true;
  q.max_solutions = 20;
  q.cards = {card(spec), card(spec)};
  const auto r = find_matches(q);
  ASSERT_TRUE(r) << r.error();
  ASSERT_FALSE(r->solutions.empty());
  for (const Solution& s : r->solutions)
    expect_valid(s, q);
}

// Found by fuzz_encounters_spec (slow input): a card of eight small ± abilities held twice
// (16 abilities, each turning a die up or down) against "twice 9" with six dice kept the finder
// busy for two minutes. Copies of one ability are now searched once, not once per numbering of
// the copies, and the answer comes well within the default budget.
TEST(EncountersMatch, ManySmallPlusMinusAbilitiesAnswerWithinTheBudget) {
  expect_twice_answered({2, 6, 4, 2, 5, 3}, 9, "Wim: +-2; +1; +2; +-2; +-4; +1; +2; +-2",
                        {"metahuman", "magic"});
}

// Sixteen copies of one ability: without treating the copies as one, "twice 13" on eight dice
// exhausts any budget; with it, the finder answers, and every way uses each copy once.
TEST(EncountersMatch, CopiesOfOneAbilityAreSearchedOnce) {
  expect_twice_answered({1, 2, 3, 4, 5, 6, 1, 2}, 13,
                        "Ones: +-1; +-1; +-1; +-1; +-1; +-1; +-1; +-1");
}

// A hand whose abilities combine in more ways than the search budget allows gets an answer in
// words, never a hang; the odds with such a hand too.
TEST(EncountersMatch, ASearchPastItsBudgetSaysSo) {
  MatchQuery q = query({2, 6, 4, 2, 5, 3}, 9, {"metahuman", "magic"});
  q.twice = true;
  const char* spec = "Wim: +-2; +1; +2; +-2; +-4; +1; +2; +-2";
  q.cards = {card(spec), card(spec)};
  q.search_budget = 1000;
  const auto r = find_matches(q);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(),
            "these 16 abilities combine in too many ways to check them all; leave some cards out "
            "and ask again");
  const auto odds = odds_with_cards(6, q);
  ASSERT_FALSE(odds);
  EXPECT_EQ(odds.error(),
            "these abilities combine in too many ways to work out the odds; leave some cards out "
            "and ask again");
}

// T-E8 (derived): no split, clamp at 6.
TEST(EncountersMatch, TE8NoSplitAndClamp) {
  MatchQuery q = query({6}, 3);
  q.cards = {card("Booster: +1")};
  EXPECT_TRUE(find_matches(q)->solutions.empty());  // 6+1 clamps, 6 cannot split into 3+3
  q = query({5}, 6);
  q.cards = {card("Booster: +1")};
  auto r = find_matches(q);
  ASSERT_EQ(r->solutions.size(), 1U);
  EXPECT_EQ(r->solutions[0].values, (std::vector<int>{6}));
  // "+1" on a 6 stays 6: it is never offered as a step.
  EXPECT_EQ(ability_targets(*parse_runner("+1")->abilities.begin(), 6), 0);
  q = query({6}, 6);
  q.cards = {card("Booster: +1")};
  r = find_matches(q);
  ASSERT_EQ(r->solutions.size(), 1U);
  EXPECT_TRUE(r->solutions[0].steps.empty());
  // A bigger step stops at the edge: 5 + 2 → 6.
  EXPECT_EQ(ability_targets(*parse_runner("+2")->abilities.begin(), 5), 1U << 6);
}

// T-E17 (derived): "defeat twice with the same roll" needs two disjoint sets.
TEST(EncountersMatch, TE17Vampire) {
  MatchQuery q = query({5, 2, 3, 1}, 5);
  q.twice = true;
  auto r = find_matches(q);
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->solutions.empty());
  for (const Solution& s : r->solutions) {
    expect_valid(s, q);
    EXPECT_EQ(s.groups.size(), 2U);
  }
  const bool has_5_and_23 =
      std::any_of(r->solutions.begin(), r->solutions.end(), [](const auto& s) {
        return s.groups[0] == std::vector<int>{0} && s.groups[1] == std::vector<int>{1, 2};
      });
  EXPECT_TRUE(has_5_and_23);

  q.dice = {5, 4, 1};
  r = find_matches(q);
  ASSERT_EQ(r->solutions.size(), 1U);
  EXPECT_EQ(r->solutions[0].dice_left, 0);

  q.dice = {5, 3};
  EXPECT_TRUE(find_matches(q)->solutions.empty());
  // Each ability still only once across both sets: {5,4} with one "+1" cannot make 5 and 5.
  q.dice = {4, 4};
  q.cards = {card("Booster: +1")};
  EXPECT_TRUE(find_matches(q)->solutions.empty());
  q.cards.push_back(card("Second: +1"));
  EXPECT_FALSE(find_matches(q)->solutions.empty());
}

TEST(EncountersMatch, EqualDiceCanServeBothVampireSets) {
  MatchQuery q = query({5, 5}, 5);
  q.twice = true;
  auto r = find_matches(q);
  ASSERT_EQ(r->solutions.size(), 1U);
  EXPECT_EQ(r->solutions[0].groups, (std::vector<std::vector<int>>{{0}, {1}}));
}

TEST(EncountersMatch, UsedAndFaceDownCardsAreUnavailable) {
  MatchQuery q = query({3}, 4);
  q.cards = {card("Booster: +1"), card("Second: +1")};
  q.cards[0].used_mask = 1;
  q.cards[1].face_down = true;
  auto r = find_matches(q);
  EXPECT_TRUE(r->solutions.empty());
  ASSERT_EQ(r->unavailable.size(), 2U);
  EXPECT_NE(r->unavailable[0].reason.find("already used"), std::string::npos);
  EXPECT_NE(r->unavailable[1].reason.find("face down"), std::string::npos);
}

TEST(EncountersMatch, MetahumanCoversTheMetatypes) {
  MatchQuery q = query({3}, 4, {"elf"});
  q.cards = {card("Topshelf: metahuman: +1")};
  EXPECT_EQ(find_matches(q)->solutions.size(), 1U);
  q.keywords = {"matrix"};
  EXPECT_TRUE(find_matches(q)->solutions.empty());
}

TEST(EncountersMatch, RankingPrefersFreeCardsThenDiceLeft) {
  MatchQuery q = query({3, 2}, 4);
  q.cards = {card("Normal: +1"), card("Free: +1; purple")};
  auto r = find_matches(q);
  ASSERT_TRUE(r);
  // 3+1: the purple card (kept free) beats the normal one (3¥ or lost); 2+1+1 uses both.
  ASSERT_EQ(r->solutions.size(), 3U);
  EXPECT_EQ(cards_of(r->solutions[0]), (std::vector<int>{1}));
  EXPECT_EQ(r->solutions[0].cards[0].fate, CardFate::RetainedFree);
  EXPECT_EQ(r->solutions[1].retain_cost_nuyen, 3);
  EXPECT_EQ(r->solutions[2].cards.size(), 2U);

  // Plain ways: {2,2} and {1,1,2}. By default fewer dice first; asking to keep 1 die left
  // puts the three-dice way first.
  q = query({1, 1, 2, 2}, 4);
  r = find_matches(q);
  ASSERT_EQ(r->solutions.size(), 2U);
  EXPECT_EQ(r->solutions[0].faces, (std::vector<int>{2, 2}));
  q.preferred_dice_left = 1;
  r = find_matches(q);
  EXPECT_EQ(r->solutions[0].faces, (std::vector<int>{1, 1, 2}));
}

TEST(EncountersMatch, BadInputIsAnErrorNotACrash) {
  EXPECT_FALSE(find_matches(query({7}, 3)));
  EXPECT_FALSE(find_matches(query({1}, 0)));
  EXPECT_FALSE(find_matches(query({1, 1, 1, 1, 1, 1, 1, 1, 1}, 3)));
  MatchQuery q = query({1}, 3);
  for (int i = 0; i < 17; ++i)
    q.cards.push_back(card("X: +1"));
  auto r = find_matches(q);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("too many"), std::string::npos);
}

// Property: on random small hands, the finder and the brute force agree on which lock sizes
// are possible and on which sets of cards suffice; every way the finder lists is legal.
TEST(EncountersMatch, AgreesWithBruteForceOnRandomHands) {
  const char* pool[] = {"+1",        "-1",     "+-1", "+2", "wild 2,5", "wild 4,6", "metahuman: +1",
                        "magic: -2", "wild 1", "+-2"};
  dice::Rng rng(20240608);
  for (int trial = 0; trial < 3000; ++trial) {
    MatchQuery q;
    const int n_dice = rng.uniform(5);
    for (int i = 0; i < n_dice; ++i)
      q.dice.push_back(rng.uniform(6));
    q.value = rng.uniform(std::min(24, 6 * n_dice + 2));
    if (rng.uniform(3) == 1) q.keywords = {"metahuman"};
    q.twice = rng.uniform(6) == 1;
    q.no_runners = rng.uniform(5) == 1;
    q.max_solutions = 100000;
    const int n_cards = rng.uniform(4) - 1;
    int abilities = 0;
    for (int c = 0; c < n_cards; ++c) {
      std::string spec = "C" + std::to_string(c) + ": ";
      const int k = rng.uniform(3) - 1;
      std::string items;
      for (int a = 0; a < k && abilities < 4; ++a, ++abilities) {
        items += std::string(items.empty() ? "" : "; ") + pool[rng.uniform(10) - 1];
      }
      spec += items.empty() ? "lift" : items;
      const int kind = rng.uniform(6);
      if (kind == 1) spec += "; red";
      if (kind == 2) spec += "; purple";
      auto parsed = parse_runner(spec);
      ASSERT_TRUE(parsed) << spec << "\n" << parsed.error().message();
      if (kind == 3 && !parsed->abilities.empty() &&
          parsed->abilities[0].kind == AbilityKind::Modify &&
          parsed->abilities[0].keyword.empty()) {
        RunnerCard special;
        special.name = parsed->name;
        special.special = true;
        special.abilities = {parsed->abilities[0]};
        q.cards.push_back(HandCard{special, 0, false});
      } else {
        q.cards.push_back(HandCard{*parsed, 0, false});
      }
    }
    auto fast = find_matches(q);
    ASSERT_TRUE(fast) << fast.error();
    ASSERT_FALSE(fast->truncated);
    const BruteForceAnswer slow = brute_force_matches(q);
    std::uint32_t sizes = 0;
    for (int k : fast->lock_sizes)
      sizes |= 1U << k;
    EXPECT_EQ(sizes, slow.lock_size_mask) << "trial " << trial;
    std::vector<bool> reach(std::size_t{1} << q.cards.size(), false);
    for (const Solution& s : fast->solutions) {
      expect_valid(s, q);
      std::uint32_t set = 0;
      for (const CardUse& c : s.cards)
        set |= 1U << c.card;
      for (std::size_t t = 0; t < reach.size(); ++t) {
        if ((t & set) == set) reach[t] = true;
      }
    }
    EXPECT_EQ(reach, slow.reachable_with_cards) << "trial " << trial;
    EXPECT_EQ(fast->solutions.empty(), slow.lock_size_mask == 0);
  }
}

}  // namespace
}  // namespace duels::cards::encounters
