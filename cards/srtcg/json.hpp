#pragma once
/// @file JSON forms of SRTCG commands, events and state, for the journal (match/).
///
/// Commands are objects with a "type" (e.g. {"type":"sleaze"}); cards inside commands are
/// their notation text, so a journal stays readable. from_json throws std::invalid_argument
/// (or a nlohmann exception) on bad input; parse_command / parse_state return the error in
/// words instead.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cards/srtcg/command.hpp"
#include "cards/srtcg/state.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

/// Every command struct (and BurstRoll, SplitEntry) converts on its own too; a command's JSON
/// carries its "type".
#define DUELS_SR_DECLARE_JSON(T)               \
  void to_json(nlohmann::json& j, const T& v); \
  void from_json(const nlohmann::json& j, T& v);
DUELS_SR_DECLARE_JSON(AddPlayer)
DUELS_SR_DECLARE_JSON(Configure)
DUELS_SR_DECLARE_JSON(StartGame)
DUELS_SR_DECLARE_JSON(BadShuffle)
DUELS_SR_DECLARE_JSON(NextPhase)
DUELS_SR_DECLARE_JSON(PlaceObjective)
DUELS_SR_DECLARE_JSON(RevealObjective)
DUELS_SR_DECLARE_JSON(Payday)
DUELS_SR_DECLARE_JSON(Heal)
DUELS_SR_DECLARE_JSON(Repair)
DUELS_SR_DECLARE_JSON(Deploy)
DUELS_SR_DECLARE_JSON(DeployCard)
DUELS_SR_DECLARE_JSON(PlaySpecial)
DUELS_SR_DECLARE_JSON(PlayChallenge)
DUELS_SR_DECLARE_JSON(AttachGear)
DUELS_SR_DECLARE_JSON(SwapGear)
DUELS_SR_DECLARE_JSON(UseGear)
DUELS_SR_DECLARE_JSON(Recon)
DUELS_SR_DECLARE_JSON(PumpRunner)
DUELS_SR_DECLARE_JSON(PumpChallenge)
DUELS_SR_DECLARE_JSON(Biotech)
DUELS_SR_DECLARE_JSON(Activate)
DUELS_SR_DECLARE_JSON(StartRun)
DUELS_SR_DECLARE_JSON(StackOrder)
DUELS_SR_DECLARE_JSON(Reveal)
DUELS_SR_DECLARE_JSON(Sleaze)
DUELS_SR_DECLARE_JSON(BurstRoll)
DUELS_SR_DECLARE_JSON(SplitEntry)
DUELS_SR_DECLARE_JSON(Fight)
DUELS_SR_DECLARE_JSON(Beat)
DUELS_SR_DECLARE_JSON(Stopped)
DUELS_SR_DECLARE_JSON(Continue)
DUELS_SR_DECLARE_JSON(PullOut)
DUELS_SR_DECLARE_JSON(TakeObjective)
DUELS_SR_DECLARE_JSON(Intercept)
DUELS_SR_DECLARE_JSON(Damage)
DUELS_SR_DECLARE_JSON(Kill)
DUELS_SR_DECLARE_JSON(TrashGear)
DUELS_SR_DECLARE_JSON(Draw)
DUELS_SR_DECLARE_JSON(Discard)
DUELS_SR_DECLARE_JSON(Nuyen)
DUELS_SR_DECLARE_JSON(Reputation)
DUELS_SR_DECLARE_JSON(Override)
// Cards and the parts of the state.
DUELS_SR_DECLARE_JSON(Threat)
DUELS_SR_DECLARE_JSON(Armor)
DUELS_SR_DECLARE_JSON(Pump)
DUELS_SR_DECLARE_JSON(Role)
DUELS_SR_DECLARE_JSON(GearType)
DUELS_SR_DECLARE_JSON(RunnerCard)
DUELS_SR_DECLARE_JSON(ChallengeCard)
DUELS_SR_DECLARE_JSON(ObjectiveCard)
DUELS_SR_DECLARE_JSON(GearCard)
DUELS_SR_DECLARE_JSON(Phase)
DUELS_SR_DECLARE_JSON(RunStep)
DUELS_SR_DECLARE_JSON(HeldGear)
DUELS_SR_DECLARE_JSON(Runner)
DUELS_SR_DECLARE_JSON(SupportCard)
DUELS_SR_DECLARE_JSON(StackCard)
DUELS_SR_DECLARE_JSON(Objective)
DUELS_SR_DECLARE_JSON(Player)
DUELS_SR_DECLARE_JSON(Run)
DUELS_SR_DECLARE_JSON(Settings)
#undef DUELS_SR_DECLARE_JSON

void to_json(nlohmann::json& j, const Command& c);
void from_json(const nlohmann::json& j, Command& c);
void to_json(nlohmann::json& j, const Event& e);
void from_json(const nlohmann::json& j, Event& e);
void to_json(nlohmann::json& j, const State& s);
void from_json(const nlohmann::json& j, State& s);

/// The command in a JSON object, or why it is not one.
Expected<Command, std::string> parse_command(const nlohmann::json& j);
/// The state in a JSON object, or why it is not one (including broken invariants).
Expected<State, std::string> parse_state(const nlohmann::json& j);

/// The "type" string of a command ("sleaze", "fight", …).
std::string command_type(const Command& c);

/// A stable 64-bit hash of the state: FNV-1a of its canonical JSON (sorted keys, no spaces).
/// Equal states hash equally on every machine; the journal stores it to check replays.
std::uint64_t state_hash(const State& s);
/// state_hash as 16 lower-case hex digits.
std::string state_hash_hex(const State& s);

/// The manual override: `s` with the field at JSON pointer `path` set to `value`. Fails (in
/// words) when the path names no tracked field or the result is not a valid state.
Expected<State, std::string> override_field(const State& s, const std::string& path,
                                            const nlohmann::json& value);

}  // namespace duels::cards::srtcg
