#pragma once
/// @file JSON views of the rules' values, for `--json` output, the GUI and the state hash.

#include <nlohmann/json_fwd.hpp>

#include "duels/commands.hpp"
#include "duels/odds.hpp"
#include "duels/state.hpp"

namespace duels {

nlohmann::json to_json(const GameState& state);
nlohmann::json to_json(const FigureDef& figure);
nlohmann::json to_json(const GearDef& gear);
nlohmann::json to_json(const Event& event);
/// The `duels odds` shape: p_hit, clicks[k], expected_clicks, ace effect probabilities, exact
/// fractions beside the floats.
nlohmann::json to_json(const OddsResult& odds);
/// The `duels resolve` shape: hit, attack_total, defence_total, bad_karma, blocked, clicks,
/// ace_effects and the steps in words.
nlohmann::json to_json(const AttackInput& in, const AttackResult& result);

}  // namespace duels
