#include "arena/referee.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "match/play_match.h"
#include "rules/sgf_writer.h"

namespace qipu::arena {

absl::StatusOr<ArenaGame> PlayGame(const Entrant& black, const Entrant& white,
                                   const RefereeOptions& options) {
  if (black.player == nullptr || white.player == nullptr) {
    return absl::InvalidArgumentError("arena game: an entrant has no player");
  }
  match::MatchOptions mo;
  mo.width = mo.height = options.size;
  mo.rules = options.rules;
  mo.handicap = options.handicap;
  mo.time = options.time;
  mo.illegal = options.illegal;
  mo.failure = match::FailureRule::kLoses;
  mo.dead_stones = match::SettlesDeadStones(*black.player, *white.player)
                       ? match::DeadStoneRule::kSettle
                       : match::DeadStoneRule::kAsPlayed;
  match::Driver driver;
  driver.now = options.now;
  absl::StatusOr<match::Match> m =
      match::PlayMatch(*black.player, *white.player, mo, driver);
  if (!m.ok()) {
    return absl::Status(m.status().code(),
                        absl::StrCat("arena game: ", m.status().message()));
  }
  ArenaGame out(m->outcome());
  match::RecordInfo info;
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    const Entrant& e = c == rules::Color::kBlack ? black : white;
    const std::string spec = e.player->spec();
    (c == rules::Color::kBlack ? info.black_name : info.white_name) =
        e.name.empty() ? spec : e.name;
    (c == rules::Color::kBlack ? info.black_spec : info.white_spec) = spec;
  }
  info.rules_name = options.rules_name.empty()
                        ? rules::PresetName(options.rules)
                        : options.rules_name;
  info.event = options.event;
  info.game_name = options.game_name;
  info.date = options.date;
  out.record = match::MatchRecord(out, info);
  out.sgf = rules::WriteSgf(out.record);
  return out;
}

}  // namespace qipu::arena
