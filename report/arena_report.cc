#include "report/arena_report.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "report/tournament_report.h"
#include "tournament/outcome.h"
#include "tournament/ratings.h"
#include "tournament/tournament.h"

namespace qipu::report {
namespace {

using Json = nlohmann::json;

Json GameJson(const qipu::v1::Tournament& t, int round, int table, int board,
              int black, int white, qipu::v1::GameResult result,
              const google::protobuf::RepeatedPtrField<std::string>& ids) {
  auto name = [&](int i) {
    return i >= 0 && i < t.players_size() ? t.players(i).name() : "";
  };
  return {{"round", round},
          {"table", table},
          {"board", board},
          {"black", name(black)},
          {"white", name(white)},
          {"result", tournament::GameResultText(result)},
          {"game_id", ids.empty() ? Json(nullptr) : Json(ids[ids.size() - 1])}};
}

Json GamesJson(const qipu::v1::Tournament& t) {
  Json games = Json::array();
  for (const qipu::v1::Round& r : t.round()) {
    for (const qipu::v1::Pairing& p : r.pairings()) {
      if (t.teams_event()) {
        for (const qipu::v1::BoardGame& b : p.boards()) {
          if (b.game_ids().empty()) continue;
          games.push_back(GameJson(t, r.number(), p.table(), b.board(),
                                   b.black(), b.white(), b.result(),
                                   b.game_ids()));
        }
      } else if (!p.game_ids().empty()) {
        games.push_back(GameJson(t, r.number(), p.table(), 0, p.black(),
                                 p.white(), p.result(), p.game_ids()));
      }
    }
  }
  return games;
}

Json SettingsJson(const qipu::v1::ArenaSettings& a) {
  Json entrants = Json::array();
  for (const qipu::v1::ArenaEntrant& e : a.entrants()) {
    entrants.push_back({{"name", e.name()}, {"spec", e.spec()}});
  }
  return {{"board_size", a.size()},
          {"rules", a.rules()},
          {"komi", a.komi()},
          {"handicap", a.handicap()},
          {"clock", a.time()},
          {"illegal_moves", a.illegal()},
          {"concurrency", a.concurrency()},
          {"seed", a.seed()},
          {"entrants", std::move(entrants)}};
}

// Ratings, or nullopt when no game says anything about strength yet.
absl::StatusOr<std::optional<tournament::Ratings>> Rate(
    const qipu::v1::Tournament& t) {
  const std::vector<tournament::RatedGame> games = RatedGames(t);
  const std::vector<std::string> names = PlayerNames(t);
  if (games.empty() || names.empty()) return std::nullopt;
  auto r = tournament::ComputeRatings(games, static_cast<int>(names.size()), {},
                                      names);
  if (!r.ok()) return r.status();
  return std::optional<tournament::Ratings>(*std::move(r));
}

}  // namespace

absl::StatusOr<Json> ArenaReportJson(const qipu::v1::Tournament& t) {
  auto standings = tournament::GetStandings(t);
  if (!standings.ok()) return standings.status();
  auto crosstable = tournament::GetCrosstable(t);
  if (!crosstable.ok()) return crosstable.status();
  auto finished = tournament::IsFinished(t);
  if (!finished.ok()) return finished.status();
  auto ratings = Rate(t);
  if (!ratings.ok()) return ratings.status();
  return Json{{"tournament", TournamentSummaryJson(t)},
              {"arena", SettingsJson(t.arena())},
              {"finished", *finished},
              {"standings", StandingsJson(t, *standings)},
              {"crosstable", CrosstableJson(*crosstable)},
              {"games", GamesJson(t)},
              {"ratings",
               ratings->has_value() ? RatingsJson(**ratings) : Json(nullptr)}};
}

absl::StatusOr<std::string> ArenaReportText(const qipu::v1::Tournament& t) {
  auto standings = tournament::GetStandings(t);
  if (!standings.ok()) return standings.status();
  auto crosstable = tournament::GetCrosstable(t);
  if (!crosstable.ok()) return crosstable.status();
  auto finished = tournament::IsFinished(t);
  if (!finished.ok()) return finished.status();
  auto ratings = Rate(t);
  if (!ratings.ok()) return ratings.status();
  const qipu::v1::ArenaSettings& a = t.arena();
  std::string out = absl::StrFormat(
      "tournament %s: %s (%s), %dx%d %s komi %g, clock %s, illegal moves "
      "%s%s\n",
      t.id(), t.name(), tournament::SystemName(t.system()), a.size(), a.size(),
      a.rules(), a.komi(), a.time(), a.illegal(),
      *finished ? "" : "  [not finished]");
  for (const qipu::v1::ArenaEntrant& e : a.entrants()) {
    absl::StrAppendFormat(&out, "  %-20s %s\n", e.name(), e.spec());
  }
  out += "\nrounds\n";
  for (const Json& g : GamesJson(t)) {
    absl::StrAppendFormat(
        &out, "  round %d table %d%s  %s (B) - %s (W)  %s  %s\n",
        g["round"].get<int>(), g["table"].get<int>(),
        g["board"].get<int>() > 0
            ? absl::StrCat(" board ", g["board"].get<int>())
            : "",
        g["black"].get<std::string>(), g["white"].get<std::string>(),
        g["result"].get<std::string>(),
        g["game_id"].is_string() ? g["game_id"].get<std::string>() : "");
  }
  for (const qipu::v1::Round& r : t.round()) {
    for (int b : r.byes()) {
      absl::StrAppendFormat(&out, "  round %d bye  %s\n", r.number(),
                            EntrantName(t, b));
    }
  }
  out += "\nstandings\n";
  out += StandingsText(t, *standings);
  out += "\ncrosstable\n";
  out += CrosstableText(*crosstable);
  if (ratings->has_value()) {
    out += "\nratings (Bradley-Terry with first-move advantage and draws)\n";
    out += RatingsText(**ratings);
  }
  return out;
}

}  // namespace qipu::report
