#include "cards/encounters/odds.hpp"

#include <bit>

#include "dice/distribution.hpp"

namespace duels::cards::encounters {

std::string ExactOdds::fraction() const {
  return dice::fraction_string(count, total);
}

namespace {

std::uint64_t pow6(int k) {
  std::uint64_t p = 1;
  for (int i = 0; i < k; ++i)
    p *= 6;
  return p;
}

std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i)
    f *= static_cast<std::uint64_t>(i);
  return f;
}

}  // namespace

std::vector<FaceMultiset> face_multisets(int k) {
  std::vector<FaceMultiset> out;
  if (k < 0 || k > kMaxDice) return out;
  std::vector<int> faces(static_cast<std::size_t>(k), 1);
  while (true) {
    std::array<int, 7> counts{};
    for (int f : faces)
      ++counts[static_cast<std::size_t>(f)];
    std::uint64_t orderings = factorial(k);
    for (int c : counts)
      orderings /= factorial(c);
    out.push_back(FaceMultiset{faces, orderings});
    // Next non-decreasing sequence.
    int i = k - 1;
    while (i >= 0 && faces[static_cast<std::size_t>(i)] == 6)
      --i;
    if (i < 0) break;
    const int v = faces[static_cast<std::size_t>(i)] + 1;
    for (int j = i; j < k; ++j)
      faces[static_cast<std::size_t>(j)] = v;
  }
  return out;
}

std::array<std::uint32_t, kMaxSum + 1> subset_size_masks(const std::vector<int>& faces) {
  std::array<std::uint32_t, kMaxSum + 1> masks{};
  const int n = static_cast<int>(faces.size());
  if (n > kMaxDice) return masks;
  // Walk the subsets with running sums (Gray-code free: n ≤ 8, 256 subsets).
  std::array<int, 1U << kMaxDice> sums{};
  for (unsigned s = 1; s < (1U << n); ++s) {
    const int low = std::countr_zero(s);
    sums[s] = sums[s & (s - 1)] + faces[static_cast<std::size_t>(low)];
    masks[static_cast<std::size_t>(sums[s])] |= 1U << std::popcount(s);
  }
  return masks;
}

ExactOdds plain_odds(int dice, int value) {
  ExactOdds odds;
  odds.total = pow6(std::max(0, std::min(dice, kMaxDice)));
  if (dice < 1 || dice > kMaxDice || value < 1 || value > kMaxSum) return odds;
  for (const FaceMultiset& m : face_multisets(dice)) {
    if (subset_size_masks(m.faces)[static_cast<std::size_t>(value)] != 0) {
      odds.count += m.orderings;
    }
  }
  return odds;
}

ExactOdds brute_force_plain_odds(int dice, int value) {
  ExactOdds odds;
  if (dice < 1 || dice > kMaxDice) return odds;
  odds.total = pow6(dice);
  std::vector<int> roll(static_cast<std::size_t>(dice), 1);
  for (std::uint64_t outcome = 0; outcome < odds.total; ++outcome) {
    std::uint64_t x = outcome;
    for (int& f : roll) {
      f = static_cast<int>(x % 6) + 1;
      x /= 6;
    }
    bool hit = false;
    for (unsigned s = 1; s < (1U << dice) && !hit; ++s) {
      int sum = 0;
      for (int i = 0; i < dice; ++i) {
        if ((s & (1U << i)) != 0) sum += roll[static_cast<std::size_t>(i)];
      }
      hit = sum == value;
    }
    if (hit) ++odds.count;
  }
  return odds;
}

Expected<ExactOdds, std::string> odds_with_cards(int dice, const MatchQuery& query) {
  if (dice < 1 || dice > kMaxDice) {
    return std::string("the number of dice must be from 1 to 8");
  }
  auto oracle = MatchOracle::make(query);
  if (!oracle) return oracle.error();
  ExactOdds odds;
  odds.total = pow6(dice);
  for (const FaceMultiset& m : face_multisets(dice)) {
    if (oracle->can_match(m.faces)) odds.count += m.orderings;
    if (oracle->exhausted()) {
      return std::string(
          "these abilities combine in too many ways to work out the odds; leave some cards out "
          "and ask again");
    }
  }
  return odds;
}

}  // namespace duels::cards::encounters
