#include "dice/roller.hpp"

#include <chrono>
#include <random>

namespace duels::dice {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}
std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Rng::Rng(std::uint64_t seed) : seed_(seed), s_{} {
  std::uint64_t x = seed;
  for (auto& word : s_)
    word = splitmix64(x);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17U;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

int Rng::uniform(int n) {
  const auto range = static_cast<std::uint64_t>(n);
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % range);
  std::uint64_t x = next();
  while (x >= limit)
    x = next();
  return static_cast<int>(x % range) + 1;
}

std::vector<Roll> Roller::roll(const std::vector<Die>& dice) {
  std::vector<Roll> out;
  out.reserve(dice.size());
  for (const Die& d : dice)
    out.push_back(roll(d));
  return out;
}

std::uint64_t fresh_seed() {
  std::random_device rd;
  const auto now = static_cast<std::uint64_t>(
      std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return (static_cast<std::uint64_t>(rd()) << 32U) ^ rd() ^ now;
}

}  // namespace duels::dice
