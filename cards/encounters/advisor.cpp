#include "cards/encounters/advisor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <tuple>

#include "cards/encounters/odds.hpp"

namespace duels::cards::encounters {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double unknown() {
  return std::numeric_limits<double>::quiet_NaN();
}

bool parse_small_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

ValueMix uniform_mix(int lo, int hi) {
  ValueMix mix;
  for (int v = std::max(1, lo); v <= std::min(kMaxSum, hi); ++v)
    mix.weights.emplace_back(v, 1.0);
  return mix;
}

ValueMix mix_from_values(const std::vector<int>& values) {
  std::map<int, double> counts;
  for (int v : values) {
    if (v >= 1 && v <= kMaxSum) counts[v] += 1.0;
  }
  ValueMix mix;
  for (const auto& [v, w] : counts)
    mix.weights.emplace_back(v, w);
  return mix;
}

Expected<ValueMix, SpecError> parse_value_mix(std::string_view text) {
  const auto fail = [&](std::size_t pos, std::size_t len, std::string expected) {
    return SpecError{"value mix", std::string(text), pos, std::max<std::size_t>(len, 1),
                     std::move(expected)};
  };
  if (text.size() > 1000) return fail(1000, 1, "a shorter list");
  std::map<int, double> weights;
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || text[i] == ' '))
      ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ',' && text[i] != ' ')
      ++i;
    if (i == start) break;
    const std::string_view tok = text.substr(start, i - start);
    const auto dash = tok.find('-');
    const auto colon = tok.find(':');
    int lo = 0;
    int hi = 0;
    double w = 1.0;
    const auto check = [](int v) { return v >= 1 && v <= kMaxSum; };
    if (dash != std::string_view::npos) {
      if (!parse_small_int(tok.substr(0, dash), lo) || !parse_small_int(tok.substr(dash + 1), hi) ||
          !check(lo) || !check(hi) || lo > hi) {
        return fail(start, tok.size(), "a range of values like 1-12 (values 1 to 48)");
      }
    } else if (colon != std::string_view::npos) {
      int weight = 0;
      if (!parse_small_int(tok.substr(0, colon), lo) || !check(lo)) {
        return fail(start, colon, "a value from 1 to 48 before ':'");
      }
      if (!parse_small_int(tok.substr(colon + 1), weight) || weight < 1 || weight > 100000) {
        return fail(start + colon + 1, tok.size() - colon - 1, "a whole weight ≥ 1 after ':'");
      }
      hi = lo;
      w = weight;
    } else {
      if (!parse_small_int(tok, lo) || !check(lo)) {
        return fail(start, tok.size(), "a value from 1 to 48, a range 1-12 or value:weight");
      }
      hi = lo;
    }
    for (int v = lo; v <= hi; ++v)
      weights[v] += w;
    any = true;
  }
  if (!any) return fail(text.size(), 1, "values like 1-12, 3,5,7 or 5:2,7:1");
  ValueMix mix;
  for (const auto& [v, wt] : weights)
    mix.weights.emplace_back(v, wt);
  return mix;
}

std::uint32_t plain_lock_sizes(const std::vector<int>& faces, int value) {
  if (value < 1 || value > kMaxSum) return 0;
  return subset_size_masks(faces)[static_cast<std::size_t>(value)];
}

Advisor::Advisor(AdvisorSettings settings) : settings_(std::move(settings)) {
  settings_.column_cap = std::clamp(settings_.column_cap, 1, 50);
  settings_.standard_dice = std::clamp(settings_.standard_dice, 1, kMaxDice);
  if (settings_.mix.weights.empty()) settings_.mix = uniform_mix();
  for (const auto& [v, w] : settings_.mix.weights)
    mix_total_ += std::max(0.0, w);
  if (mix_total_ <= 0) {
    settings_.mix = uniform_mix();
    mix_total_ = static_cast<double>(settings_.mix.weights.size());
  }
  masks_.resize(kMaxDice + 1);
  memo_.resize(static_cast<std::size_t>(settings_.column_cap) + 1,
               std::vector<std::vector<double>>(kMaxDice + 1));
}

const std::vector<std::pair<std::uint32_t, double>>& Advisor::size_masks(int u) {
  auto& out = masks_[static_cast<std::size_t>(u)];
  if (!out.empty()) return out;
  std::map<std::uint32_t, double> by_mask;
  const double rolls = std::pow(6.0, u);
  for (const FaceMultiset& m : face_multisets(u)) {
    const auto masks = subset_size_masks(m.faces);
    const double p_roll = static_cast<double>(m.orderings) / rolls;
    for (const auto& [v, w] : settings_.mix.weights) {
      if (w <= 0) continue;
      const std::uint32_t mask = v >= 1 && v <= kMaxSum ? masks[static_cast<std::size_t>(v)] : 0;
      by_mask[mask] += p_roll * w / mix_total_;
    }
  }
  out.assign(by_mask.begin(), by_mask.end());
  return out;
}

double Advisor::score(int banked) const {
  if (settings_.objective == Objective::ReachTarget) {
    return banked >= settings_.nuyen_needed ? 1.0 : 0.0;
  }
  return banked;
}

double Advisor::value(int column, int unlocked, int banked) {
  if (settings_.objective == Objective::ReachTarget && banked >= settings_.nuyen_needed) return 1;
  column = std::clamp(column, 1, settings_.column_cap);
  unlocked = std::clamp(unlocked, 0, kMaxDice);
  banked = std::max(0, banked);
  auto& slot = memo_[static_cast<std::size_t>(column)][static_cast<std::size_t>(unlocked)];
  if (static_cast<std::size_t>(banked) >= slot.size()) {
    slot.resize(static_cast<std::size_t>(banked) + 64, unknown());
  }
  double& memo = slot[static_cast<std::size_t>(banked)];
  if (!std::isnan(memo)) return memo;
  double best = score(banked);
  if (unlocked == 0) {
    best = std::max(best, escalate(column, banked));
  } else {
    best = std::max(best, push(column, unlocked, banked));
  }
  // `slot` may have grown during the recursion: index again.
  memo_[static_cast<std::size_t>(column)][static_cast<std::size_t>(unlocked)]
       [static_cast<std::size_t>(banked)] = best;
  return best;
}

double Advisor::push(int column, int unlocked, int banked) {
  if (unlocked < 1) return kNegInf;
  column = std::clamp(column, 1, settings_.column_cap);
  unlocked = std::min(unlocked, kMaxDice);
  std::array<double, kMaxDice + 1> after{};  // value after locking s dice
  for (int s = 1; s <= unlocked; ++s) {
    after[static_cast<std::size_t>(s)] = value(column, unlocked - s, banked + column);
  }
  double total = 0;
  for (const auto& [mask, p] : size_masks(unlocked)) {
    if (mask == 0) continue;  // failure is worth 0
    double best = kNegInf;
    for (unsigned m = mask; m != 0; m &= m - 1) {
      best = std::max(best, after[static_cast<std::size_t>(std::countr_zero(m))]);
    }
    total += p * best;
  }
  return total;
}

double Advisor::escalate(int column, int banked) {
  if (column >= settings_.column_cap) return kNegInf;
  return push(column + 1, settings_.standard_dice, banked);
}

double Advisor::p_beat(int unlocked) {
  if (unlocked < 1) return 0;
  double p = 0;
  for (const auto& [mask, q] : size_masks(std::min(unlocked, kMaxDice))) {
    if (mask != 0) p += q;
  }
  return p;
}

namespace {

std::string money(double v, const Advisor& a) {
  return a.settings().objective == Objective::ReachTarget ? fmt::format("{:.1f}%", 100 * v)
                                                          : fmt::format("{:.2f}¥", v);
}

}  // namespace

PushAdvice advise_push(Advisor& a, int column, int unlocked, int banked) {
  PushAdvice out;
  out.column = column;
  out.unlocked = unlocked;
  out.banked = banked;
  out.score_value = a.score(banked);
  if (unlocked > 0) {
    out.push_value = a.push(column, unlocked, banked);
    out.p_beat_next = a.p_beat(unlocked);
  } else {
    out.push_value = kNegInf;
    const double esc = a.escalate(column, banked);
    if (esc > kNegInf) out.escalate_value = esc;
    out.p_beat_next = a.p_beat(a.settings().standard_dice);
  }
  const double push_or_esc = unlocked > 0 ? out.push_value : out.escalate_value.value_or(kNegInf);
  const char* go = unlocked > 0 ? "push" : "escalate";
  if (push_or_esc > out.score_value + 1e-9) {
    out.verdict = go;
    out.why = fmt::format(
        "{} is worth {} against {} for scoring now ({:.1f}% to beat the next "
        "Encounter with {} dice)",
        go, money(push_or_esc, a), money(out.score_value, a), 100 * out.p_beat_next,
        unlocked > 0 ? unlocked : a.settings().standard_dice);
  } else {
    out.verdict = "score";
    out.why =
        push_or_esc == kNegInf
            ? fmt::format("score {}: the column cap ({}) stops escalation", banked,
                          a.settings().column_cap)
            : fmt::format(
                  "scoring now is worth {}, {} only {} ({:.1f}% to beat the next "
                  "Encounter)",
                  money(out.score_value, a), go, money(push_or_esc, a), 100 * out.p_beat_next);
  }
  if (unlocked > 0 && unlocked <= 2 && out.p_beat_next < 0.35) {
    out.why +=
        fmt::format("; pushing with {} di{} is a long shot", unlocked, unlocked == 1 ? "e" : "ce");
  }
  return out;
}

LockAdvice advise_lock(Advisor& a, int column, int banked, int encounter_bonus,
                       const MatchResult& found, int unlocked) {
  LockAdvice out;
  for (int size : found.lock_sizes) {
    LockOption o;
    o.dice_locked = size;
    o.dice_left = unlocked - size;
    o.value = a.value(column, o.dice_left, banked + column + encounter_bonus);
    // The best-ranked way of this size (solutions are ranked already).
    for (std::size_t i = 0; i < found.solutions.size(); ++i) {
      if (static_cast<int>(found.solutions[i].dice.size()) == size) {
        o.solution = static_cast<int>(i);
        o.cards_used = static_cast<int>(found.solutions[i].cards.size());
        o.retain_cost_nuyen = found.solutions[i].retain_cost_nuyen;
        break;
      }
    }
    out.options.push_back(o);
  }
  std::stable_sort(out.options.begin(), out.options.end(),
                   [](const LockOption& x, const LockOption& y) {
                     if (std::abs(x.value - y.value) > 1e-9) return x.value > y.value;
                     return x.cards_used < y.cards_used;
                   });
  if (out.options.empty()) {
    out.why = "no way to beat this Encounter";
  } else {
    const LockOption& best = out.options.front();
    out.why = fmt::format("lock {} di{} (keep {}): worth {}", best.dice_locked,
                          best.dice_locked == 1 ? "e" : "ce", best.dice_left, money(best.value, a));
    if (out.options.size() > 1) {
      out.why += fmt::format(", against {} for locking {}", money(out.options[1].value, a),
                             out.options[1].dice_locked);
    }
  }
  return out;
}

StealAdvice advise_steal(Advisor& a, int column, int unlocked, int banked) {
  StealAdvice out;
  out.steal_value = a.push(column, unlocked, banked);
  out.fresh_value = a.push(1, a.settings().standard_dice, 0);
  out.steal = out.steal_value > out.fresh_value;
  out.why = fmt::format(
      "a Datasteal (column {}, {} dice, {}¥ locked) is worth {}; a fresh start "
      "{}",
      column, unlocked, banked, money(out.steal_value, a), money(out.fresh_value, a));
  return out;
}

BurnAdvice advise_burn(Advisor& a, int column, int unlocked, int banked, double runner_value) {
  BurnAdvice out;
  const StealAdvice next = advise_steal(a, column, unlocked, banked);
  out.denied_value = std::max(0.0, next.steal_value - next.fresh_value);
  out.runner_value = runner_value;
  out.burn = out.denied_value > runner_value;
  out.why = fmt::format(
      "burning denies the next player {} over a fresh start; the runner is "
      "taken to be worth {:.2f}¥",
      money(out.denied_value, a), runner_value);
  return out;
}

Expected<RetainAdvice, std::string> advise_retain(Advisor& a, const RunnerCard& card, int column,
                                                  int unlocked, int banked, int nuyen,
                                                  const std::vector<int>& hire_costs) {
  RetainAdvice out;
  const int dice = unlocked > 0 ? unlocked : a.settings().standard_dice;
  // Keyword abilities count only when the next Encounter has the keyword: unknown, so they
  // are left out (the advice is on the safe side).
  MatchQuery q;
  q.cards.push_back(HandCard{card, 0, false});
  double total_w = 0;
  for (const auto& [v, w] : a.settings().mix.weights) {
    if (w <= 0) continue;
    q.value = v;
    auto with = odds_with_cards(dice, q);
    if (!with) return with.error();
    out.p_with_card += w * with->p();
    out.p_plain += w * plain_odds(dice, v).p();
    total_w += w;
  }
  if (total_w > 0) {
    out.p_with_card /= total_w;
    out.p_plain /= total_w;
  }
  out.stake = banked + (unlocked > 0 ? column : column + 1);
  out.card_value = (out.p_with_card - out.p_plain) * out.stake;
  if (!hire_costs.empty()) {
    double sum = 0;
    for (int c : hire_costs)
      sum += c;
    out.expected_hire_cost = sum / static_cast<double>(hire_costs.size());
  }
  const bool can_pay = nuyen >= out.retain_cost && card.retain == RetainMode::Normal;
  out.retain = can_pay && out.card_value >= out.retain_cost;
  out.why = fmt::format(
      "{} raises the chance to beat the next Encounter from {:.1f}% to {:.1f}%; "
      "with {:.0f}¥ at stake that is worth {:.2f}¥ against 3¥ to retain (a "
      "blind hire costs {:.1f}¥ on average)",
      card.name.empty() ? "the card" : card.name, 100 * out.p_plain, 100 * out.p_with_card,
      out.stake, out.card_value, out.expected_hire_cost);
  if (card.retain == RetainMode::Never) out.why = "red icon: it cannot be Retained";
  if (card.retain == RetainMode::Always) out.why = "purple icon: it is Retained free";
  if (card.retain == RetainMode::Normal && !can_pay) out.why += "; you cannot pay 3¥";
  return out;
}

SoloPlan plan_solo(Advisor& a, int nuyen, int target, int turns_left, dice::Rng& rng, int trials) {
  SoloPlan plan;
  plan.trials = std::max(0, trials);
  const auto& mix = a.settings().mix.weights;
  double total_w = 0;
  for (const auto& [v, w] : mix)
    total_w += std::max(0.0, w);
  const auto draw_value = [&]() {
    const double x = static_cast<double>(rng.next() >> 11) * 0x1.0p-53 * total_w;
    double acc = 0;
    for (const auto& [v, w] : mix) {
      acc += std::max(0.0, w);
      if (x < acc) return v;
    }
    return mix.back().first;
  };
  const int all = a.settings().standard_dice;
  double final_sum = 0;
  int wins = 0;
  for (int t = 0; t < plan.trials; ++t) {
    int n = nuyen;
    for (int turn = 0; turn < turns_left && n < target; ++turn) {
      int c = 1;
      int u = all;
      int b = 0;
      while (true) {
        const int v = draw_value();
        std::vector<int> faces(static_cast<std::size_t>(u));
        for (int& f : faces)
          f = rng.uniform(6);
        const std::uint32_t sizes = plain_lock_sizes(faces, v);
        if (sizes == 0) {
          b = 0;
          break;
        }
        int best_s = 0;
        double best_v = kNegInf;
        for (unsigned m = sizes; m != 0; m &= m - 1) {
          const int s = std::countr_zero(m);
          const double val = a.value(c, u - s, b + c);
          if (val > best_v) {
            best_v = val;
            best_s = s;
          }
        }
        u -= best_s;
        b += c;
        if (u == 0) {
          if (a.escalate(c, b) > a.score(b)) {
            ++c;
            u = all;
            continue;
          }
          break;
        }
        if (a.push(c, u, b) <= a.score(b)) break;
      }
      n += b;
    }
    final_sum += n;
    if (n >= target) ++wins;
  }
  if (plan.trials > 0) {
    plan.p_win = static_cast<double>(wins) / plan.trials;
    plan.mean_nuyen = final_sum / plan.trials;
  }
  return plan;
}

double brute_force_push(const AdvisorSettings& settings, int column, int unlocked, int banked) {
  // Same recursion, but every state walks all 6^u ordered rolls and all 2^u subsets itself.
  const int cap = std::clamp(settings.column_cap, 1, 50);
  const int all = std::clamp(settings.standard_dice, 1, kMaxDice);
  double mix_total = 0;
  for (const auto& [v, w] : settings.mix.weights)
    mix_total += std::max(0.0, w);
  std::map<std::tuple<int, int, int>, double> memo;
  const auto score = [&](int b) {
    return settings.objective == Objective::ReachTarget ? (b >= settings.nuyen_needed ? 1.0 : 0.0)
                                                        : static_cast<double>(b);
  };
  std::function<double(int, int, int)> value;
  std::function<double(int, int, int)> push;
  value = [&](int c, int u, int b) -> double {
    if (settings.objective == Objective::ReachTarget && b >= settings.nuyen_needed) return 1;
    const auto key = std::make_tuple(c, u, b);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    double best = score(b);
    if (u == 0) {
      if (c < cap) best = std::max(best, push(c + 1, all, b));
    } else {
      best = std::max(best, push(c, u, b));
    }
    memo[key] = best;
    return best;
  };
  push = [&](int c, int u, int b) -> double {
    std::vector<double> after(static_cast<std::size_t>(u) + 1);
    for (int s = 1; s <= u; ++s)
      after[static_cast<std::size_t>(s)] = value(c, u - s, b + c);
    double total = 0;
    const int rolls = static_cast<int>(std::pow(6, u));
    std::vector<int> faces(static_cast<std::size_t>(u));
    std::array<double, kMaxSum + 1> best_by_sum{};
    for (int r = 0; r < rolls; ++r) {
      int x = r;
      for (int& f : faces) {
        f = x % 6 + 1;
        x /= 6;
      }
      best_by_sum.fill(kNegInf);
      for (unsigned s = 1; s < (1U << u); ++s) {
        int sum = 0;
        for (int i = 0; i < u; ++i) {
          if ((s & (1U << i)) != 0) sum += faces[static_cast<std::size_t>(i)];
        }
        double& slot = best_by_sum[static_cast<std::size_t>(sum)];
        slot = std::max(slot, after[static_cast<std::size_t>(std::popcount(s))]);
      }
      for (const auto& [v, w] : settings.mix.weights) {
        if (w <= 0 || v < 1 || v > kMaxSum) continue;
        const double best = best_by_sum[static_cast<std::size_t>(v)];
        if (best > kNegInf) total += best * w / mix_total / rolls;
      }
    }
    return total;
  };
  return push(std::clamp(column, 1, cap), unlocked, banked);
}

}  // namespace duels::cards::encounters
