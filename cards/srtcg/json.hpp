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

#include "cards/common/state_json.hpp"
#include "cards/srtcg/command.hpp"
#include "cards/srtcg/state.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

/// Every command struct (and BurstRoll, SplitEntry) converts on its own too; a command's JSON
/// carries its "type".
DUELS_CARDS_DECLARE_JSON(AddPlayer)
DUELS_CARDS_DECLARE_JSON(Configure)
DUELS_CARDS_DECLARE_JSON(StartGame)
DUELS_CARDS_DECLARE_JSON(BadShuffle)
DUELS_CARDS_DECLARE_JSON(NextPhase)
DUELS_CARDS_DECLARE_JSON(PlaceObjective)
DUELS_CARDS_DECLARE_JSON(RevealObjective)
DUELS_CARDS_DECLARE_JSON(Payday)
DUELS_CARDS_DECLARE_JSON(Heal)
DUELS_CARDS_DECLARE_JSON(Repair)
DUELS_CARDS_DECLARE_JSON(Deploy)
DUELS_CARDS_DECLARE_JSON(DeployCard)
DUELS_CARDS_DECLARE_JSON(PlaySpecial)
DUELS_CARDS_DECLARE_JSON(PlayChallenge)
DUELS_CARDS_DECLARE_JSON(AttachGear)
DUELS_CARDS_DECLARE_JSON(SwapGear)
DUELS_CARDS_DECLARE_JSON(UseGear)
DUELS_CARDS_DECLARE_JSON(Recon)
DUELS_CARDS_DECLARE_JSON(PumpRunner)
DUELS_CARDS_DECLARE_JSON(PumpChallenge)
DUELS_CARDS_DECLARE_JSON(Biotech)
DUELS_CARDS_DECLARE_JSON(Activate)
DUELS_CARDS_DECLARE_JSON(StartRun)
DUELS_CARDS_DECLARE_JSON(StackOrder)
DUELS_CARDS_DECLARE_JSON(Reveal)
DUELS_CARDS_DECLARE_JSON(Sleaze)
DUELS_CARDS_DECLARE_JSON(BurstRoll)
DUELS_CARDS_DECLARE_JSON(SplitEntry)
DUELS_CARDS_DECLARE_JSON(Fight)
DUELS_CARDS_DECLARE_JSON(Beat)
DUELS_CARDS_DECLARE_JSON(Stopped)
DUELS_CARDS_DECLARE_JSON(Continue)
DUELS_CARDS_DECLARE_JSON(PullOut)
DUELS_CARDS_DECLARE_JSON(TakeObjective)
DUELS_CARDS_DECLARE_JSON(Intercept)
DUELS_CARDS_DECLARE_JSON(Damage)
DUELS_CARDS_DECLARE_JSON(Kill)
DUELS_CARDS_DECLARE_JSON(TrashGear)
DUELS_CARDS_DECLARE_JSON(Draw)
DUELS_CARDS_DECLARE_JSON(Discard)
DUELS_CARDS_DECLARE_JSON(Nuyen)
DUELS_CARDS_DECLARE_JSON(Reputation)
DUELS_CARDS_DECLARE_JSON(Override)
// Cards and the parts of the state.
DUELS_CARDS_DECLARE_JSON(Threat)
DUELS_CARDS_DECLARE_JSON(Armor)
DUELS_CARDS_DECLARE_JSON(Pump)
DUELS_CARDS_DECLARE_JSON(Role)
DUELS_CARDS_DECLARE_JSON(GearType)
DUELS_CARDS_DECLARE_JSON(RunnerCard)
DUELS_CARDS_DECLARE_JSON(ChallengeCard)
DUELS_CARDS_DECLARE_JSON(ObjectiveCard)
DUELS_CARDS_DECLARE_JSON(GearCard)
DUELS_CARDS_DECLARE_JSON(Phase)
DUELS_CARDS_DECLARE_JSON(RunStep)
DUELS_CARDS_DECLARE_JSON(HeldGear)
DUELS_CARDS_DECLARE_JSON(Runner)
DUELS_CARDS_DECLARE_JSON(SupportCard)
DUELS_CARDS_DECLARE_JSON(StackCard)
DUELS_CARDS_DECLARE_JSON(Objective)
DUELS_CARDS_DECLARE_JSON(Player)
DUELS_CARDS_DECLARE_JSON(Run)
DUELS_CARDS_DECLARE_JSON(Settings)

DUELS_CARDS_GAME_JSON_DECLARE(Command, Event, State)

}  // namespace duels::cards::srtcg
