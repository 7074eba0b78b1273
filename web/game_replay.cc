#include "web/game_replay.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/game_format.h"
#include "proto/convert.h"
#include "report/rules_json.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/result.h"

namespace qipu::web {
namespace {

nlohmann::json Vertices(const std::vector<rules::Point>& points, int height) {
  nlohmann::json out = nlohmann::json::array();
  for (rules::Point p : points) out.push_back(rules::GtpPoint(p, height));
  return out;
}

// The empty points of `board` by whose area they count in: reaching only
// Black, only White, or both or neither (dame).
nlohmann::json Territory(const rules::Board& board) {
  const int w = board.width();
  const int h = board.height();
  std::vector<int> seen(static_cast<size_t>(w * h), 0);
  std::vector<rules::Point> black, white, dame;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const rules::Point start = rules::MakePoint(x, y);
      if (board.at(start) != rules::Color::kEmpty ||
          seen[static_cast<size_t>(y * w + x)] != 0) {
        continue;
      }
      // Flood fill of one empty region.
      std::vector<rules::Point> region = {start};
      seen[static_cast<size_t>(y * w + x)] = 1;
      bool reaches_black = false;
      bool reaches_white = false;
      for (size_t i = 0; i < region.size(); ++i) {
        const int px = rules::PointX(region[i]);
        const int py = rules::PointY(region[i]);
        const int dx[] = {1, -1, 0, 0};
        const int dy[] = {0, 0, 1, -1};
        for (int d = 0; d < 4; ++d) {
          const int nx = px + dx[d];
          const int ny = py + dy[d];
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const rules::Point n = rules::MakePoint(nx, ny);
          const rules::Color c = board.at(n);
          if (c == rules::Color::kBlack) {
            reaches_black = true;
          } else if (c == rules::Color::kWhite) {
            reaches_white = true;
          } else if (seen[static_cast<size_t>(ny * w + nx)] == 0) {
            seen[static_cast<size_t>(ny * w + nx)] = 1;
            region.push_back(n);
          }
        }
      }
      auto& into = reaches_black && !reaches_white   ? black
                   : reaches_white && !reaches_black ? white
                                                     : dame;
      into.insert(into.end(), region.begin(), region.end());
    }
  }
  return {{"black", Vertices(black, h)},
          {"white", Vertices(white, h)},
          {"dame", Vertices(dame, h)}};
}

// Applies one setup step as the replay does (rules/replay.cc): a root
// step of black stones only in a handicap game is the free handicap.
absl::Status ApplyReplaySetup(const rules::SetupStep& step, bool root_handicap,
                              rules::Game* game) {
  if (root_handicap && step.white.empty() && step.empty.empty()) {
    return game->PlaceFreeHandicap(step.black);
  }
  return game->ApplySetup(step.black, step.white, step.empty, step.to_play);
}

}  // namespace

absl::StatusOr<nlohmann::json> GameReplayJson(const qipu::v1::Game& g,
                                              absl::string_view id) {
  auto base = engine::GameJson(g, id);
  if (!base.ok()) return base.status();
  auto record = wire::GameToRecord(g);
  if (!record.ok()) return record.status();
  auto rules = wire::RulesFromProto(g.rules());
  if (!rules.ok()) return rules.status();
  // The whole replay first: cycles, end, area, as the coordinator saw it.
  // As recorded (rules::ReplayRecord()): an imported record kept against
  // its rules is shown as played; any other game replays the same either
  // way.
  auto report = rules::ReplayRecord(*record, *rules);
  if (!report.ok()) return report.status();

  const int w = record->width;
  const int h = record->height;
  rules::Game game(w, h, *rules);
  size_t next_setup = 0;
  auto apply_setups = [&](int before_move) -> absl::Status {
    while (next_setup < record->setup.size() &&
           record->setup[next_setup].before_move <= before_move) {
      const rules::SetupStep& step = record->setup[next_setup];
      const bool root_handicap =
          step.before_move == 0 && record->handicap >= 2 && next_setup == 0;
      if (absl::Status s = ApplyReplaySetup(step, root_handicap, &game);
          !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "setup before move ", step.before_move + 1, ": ", s.message()));
      }
      ++next_setup;
    }
    return absl::OkStatus();
  };
  // Per replayed move: the stones it captured, the prisoners so far.
  nlohmann::json replayed = nlohmann::json::array();
  for (size_t k = 0; k < record->moves.size(); ++k) {
    if (absl::Status s = apply_setups(static_cast<int>(k)); !s.ok()) return s;
    const rules::Move& m = record->moves[k];
    const rules::Board before = game.board();
    if (!game.PlayRecorded(m.color, m.point).played) break;
    // The stones the move removed: the opponent's, and its own chain when
    // it was a suicide (the point played included).
    std::vector<rules::Point> captured;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const rules::Point p = rules::MakePoint(x, y);
        if ((before.at(p) != rules::Color::kEmpty || p == m.point) &&
            game.board().at(p) == rules::Color::kEmpty) {
          captured.push_back(p);
        }
      }
    }
    replayed.push_back(
        {{"captured", Vertices(captured, h)},
         {"black_prisoners", game.captures(rules::Color::kBlack)},
         {"white_prisoners", game.captures(rules::Color::kWhite)}});
  }
  if (!game.over()) {
    if (absl::Status s = apply_setups(static_cast<int>(record->moves.size()));
        !s.ok()) {
      return s;
    }
  }
  const rules::AreaCount& a = report->area;
  nlohmann::json area = report::AreaJson(a);
  area["black_stones"] = a.black_stones;
  area["white_stones"] = a.white_stones;
  area["black_territory"] = a.black_territory;
  area["white_territory"] = a.white_territory;

  nlohmann::json j(*base);
  j["played"] = report->played;
  j["legal"] = report->legal;
  j["illegal_move"] = report->illegal_move;
  j["ended_at"] = report->ended_at;
  j["replayed"] = std::move(replayed);
  j["area"] = std::move(area);
  j["territory"] = Territory(game.board());
  j["area_result"] = rules::ResultToSgf(report->area_result);
  return j;
}

}  // namespace qipu::web
