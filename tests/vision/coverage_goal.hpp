#pragma once
/// @file The accuracy goal of issue 15, checked the same way for every base target: never a
/// base more than 1" off, never an identity switch, and the named bases' errors within bounds.

#include <gtest/gtest.h>

#include "vision/coverage.hpp"

namespace duels::vision {

/// The goal's bounds other than the centre's: gap p95 ≤ 0.12", 0 bases more than 1" off,
/// 0 identity switches.
inline void expect_gap_and_identity_goal(const CoverageResult& r) {
  EXPECT_LE(r.gap_p95_in, 0.12);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.identity_switches, 0);
}

/// Centre p95 ≤ 0.10", gap p95 ≤ 0.12", 0 bases more than 1" off, 0 identity switches.
inline void expect_accuracy_goal(const CoverageResult& r) {
  EXPECT_LE(r.centre_p95_in, 0.10);
  expect_gap_and_identity_goal(r);
}

}  // namespace duels::vision
