#include "dice/distribution.hpp"

#include <fmt/format.h>

#include <numeric>

namespace duels::dice {

std::uint64_t Distribution::count(int v) const {
  if (v < min() || v > max()) return 0;
  return counts[static_cast<std::size_t>(v - offset)];
}

std::uint64_t Distribution::count_at_most(int v) const {
  if (v < min()) return 0;
  if (v >= max()) return total;
  std::uint64_t sum = 0;
  for (int i = 0; i <= v - offset; ++i)
    sum += counts[static_cast<std::size_t>(i)];
  return sum;
}

double Distribution::mean() const {
  double m = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    m += static_cast<double>(counts[i]) * (offset + static_cast<double>(i));
  }
  return m / total_d();
}

Distribution die_value(const Die& die) {
  Distribution d;
  d.offset = die.ace ? 0 : 1;
  d.counts.assign(static_cast<std::size_t>(die.sides + 1 - d.offset), 1);
  if (die.ace) d.counts[1] = 0;  // the 1 face shows the ace, which counts 0
  d.total = static_cast<std::uint64_t>(die.sides);
  return d;
}

Distribution convolve(const Distribution& a, const Distribution& b) {
  Distribution out;
  out.offset = a.offset + b.offset;
  out.counts.assign(a.counts.size() + b.counts.size() - 1, 0);
  for (std::size_t i = 0; i < a.counts.size(); ++i) {
    if (a.counts[i] == 0) continue;
    for (std::size_t j = 0; j < b.counts.size(); ++j)
      out.counts[i + j] += a.counts[i] * b.counts[j];
  }
  out.total = a.total * b.total;
  return out;
}

Distribution sum_of(const std::vector<Die>& dice) {
  Distribution out;
  for (const Die& d : dice)
    out = convolve(out, die_value(d));
  return out;
}

std::vector<std::uint64_t> cumulative(const Distribution& d) {
  std::vector<std::uint64_t> cum(d.counts.size());
  std::partial_sum(d.counts.begin(), d.counts.end(), cum.begin());
  return cum;
}

std::string fraction_string(std::uint64_t numerator, std::uint64_t denominator) {
  if (denominator == 0) return "0/0";
  const std::uint64_t g = std::gcd(numerator, denominator);
  return fmt::format("{}/{}", numerator / g, denominator / g);
}

}  // namespace duels::dice
