#pragma once
/// @file Set-ups and commands as JSON records, both ways: what a match journal stores.
///
/// Writers produce canonical JSON (sorted keys), so the same value always gives the same text.
/// Readers accept only what the writers produce and throw a DataException naming the field and
/// what was expected (the journal adds the file and line) — never crash on hostile input.

#include <nlohmann/json_fwd.hpp>

#include "duels/commands.hpp"
#include "duels/engine.hpp"

namespace duels {

nlohmann::json setup_to_json(const MatchSetup& setup);
MatchSetup setup_from_json(const nlohmann::json& j);

nlohmann::json command_to_json(const Command& command);
Command command_from_json(const nlohmann::json& j);

FigureDef figure_from_json(const nlohmann::json& j, const std::string& path);
GearDef gear_from_json(const nlohmann::json& j, const std::string& path);

/// A terrain shape: {"circle": {"x", "y", "r"}} or {"polygon": [[x, y], …]} (inches).
nlohmann::json shape_to_json(const Shape& shape);
Shape shape_from_json(const nlohmann::json& j, const std::string& path);

}  // namespace duels
