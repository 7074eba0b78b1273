// The GTP commands of play, its time and its end: play, genmove,
// reg_genmove, undo (GTP 2 draft, sections 6.3.3 and 6.3.4), showboard
// (6.3.6), final_score and final_status_list (6.3.5; qipu's judgement of
// dead and seki stones, policy/stone_judge.h), and the clock's
// time_settings, time_left (6.3.7) and KGS's kgs-time_settings
// (gtp/clock.h keeps the time and allots it per move).
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtp/board_report.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"
#include "policy/stone_judge.h"
#include "rules/coord.h"
#include "rules/dead_stones.h"

namespace qipu::gtp {
namespace {

using Args = std::vector<std::string>;
using Result = absl::StatusOr<std::string>;

absl::Status PlaySyntaxError() {
  return absl::InvalidArgumentError("syntax error");
}

Result Play(Engine& e, const Args& args) {
  if (args.size() != 2) return PlaySyntaxError();
  absl::StatusOr<rules::Color> c = ParseColor(args[0]);
  if (!c.ok()) return c.status();
  absl::StatusOr<rules::Point> p = ParseVertex(args[1], e.state().size());
  if (!p.ok()) return p.status();
  if (absl::Status s = e.PlayMove(*c, *p); !s.ok()) return s;
  return std::string();
}

// genmove (play = true) and reg_genmove (play = false).
Result GenMove(Engine& e, const Args& args, bool play) {
  if (args.size() != 1) return PlaySyntaxError();
  absl::StatusOr<rules::Color> c = ParseColor(args[0]);
  if (!c.ok()) return c.status();
  absl::StatusOr<policy::MoveChoice> choice = e.Generate(*c, play);
  if (!choice.ok()) return choice.status();
  const rules::Point p = choice->point;
  if (!play) {
    // The policy may have moved on with its guess: make it start over.
    e.GameChanged();
  } else if (p == rules::kResign) {
    e.state().Resign(*c);
  } else if (absl::Status s = e.PlayMove(*c, p); !s.ok()) {
    return s;
  }
  return rules::GtpPoint(p, e.state().size());
}

Result Undo(Engine& e, const Args& args) {
  if (!args.empty()) return PlaySyntaxError();
  if (absl::Status s = e.state().Undo(); !s.ok()) return s;
  e.GameChanged();
  return std::string();
}

Result ShowBoardCommand(Engine& e, const Args& args) {
  if (!args.empty()) return PlaySyntaxError();
  return ShowBoard(e.state().game());
}

// final_score: the count with the stones qipu judges dead taken off
// (policy/stone_judge.h), as final_status_list says them.
Result FinalScore(Engine& e, const Args& args) {
  if (!args.empty()) return PlaySyntaxError();
  const rules::Game& game = e.state().game();
  const rules::StoneJudgement j = policy::JudgeDeadStones(game.board());
  const rules::GameResult r =
      rules::CountWithout(game, j.dead, rules::Counting::kJudged);
  double margin = r.margin;
  if (r.winner == rules::Winner::kWhite) margin = -margin;
  if (r.winner == rules::Winner::kDraw || r.winner == rules::Winner::kNone) {
    margin = 0;
  }
  return ScoreText(margin);
}

Result FinalStatusList(Engine& e, const Args& args) {
  if (args.size() != 1) return PlaySyntaxError();
  const std::string what = absl::AsciiStrToLower(args[0]);
  rules::StoneStatus status;
  if (what == "alive") {
    status = rules::StoneStatus::kAlive;
  } else if (what == "dead") {
    status = rules::StoneStatus::kDead;
  } else if (what == "seki") {
    status = rules::StoneStatus::kSeki;
  } else {
    return PlaySyntaxError();
  }
  const int size = e.state().size();
  const rules::Board& board = e.state().game().board();
  const rules::StoneJudgement j = policy::JudgeDeadStones(board);
  std::vector<std::string> lines;
  for (const auto& chain : rules::ChainsWithStatus(board, j, status)) {
    std::vector<std::string> names;
    for (rules::Point p : chain) names.push_back(rules::GtpPoint(p, size));
    lines.push_back(absl::StrJoin(names, " "));
  }
  return absl::StrJoin(lines, "\n");
}

// Parses args[from..] as non-negative integers into *out.
absl::Status Ints(const Args& args, size_t from, std::vector<int>* out) {
  for (size_t i = from; i < args.size(); ++i) {
    absl::StatusOr<int> v = ParseInt(args[i]);
    if (!v.ok() || *v < 0) return PlaySyntaxError();
    out->push_back(*v);
  }
  return absl::OkStatus();
}

Result TimeSettingsCommand(Engine& e, const Args& args) {
  std::vector<int> v;
  if (args.size() != 3 || !Ints(args, 0, &v).ok()) return PlaySyntaxError();
  if (absl::Status s = e.clock().SetGtp(v[0], v[1], v[2]); !s.ok()) return s;
  return std::string();
}

Result KgsTimeSettings(Engine& e, const Args& args) {
  if (args.empty()) return PlaySyntaxError();
  const std::string system = absl::AsciiStrToLower(args[0]);
  std::vector<int> v;
  if (!Ints(args, 1, &v).ok()) return PlaySyntaxError();
  if (system == "none" && v.empty()) {
    e.clock().SetNone();
  } else if (system == "absolute" && v.size() == 1) {
    e.clock().SetAbsolute(v[0]);
  } else if (system == "byoyomi" && v.size() == 3) {
    e.clock().SetJapanese(v[0], v[1], v[2]);
  } else if (system == "canadian" && v.size() == 3) {
    e.clock().SetCanadian(v[0], v[1], v[2]);
  } else {
    return PlaySyntaxError();
  }
  return std::string();
}

Result TimeLeftCommand(Engine& e, const Args& args) {
  if (args.size() != 3) return PlaySyntaxError();
  absl::StatusOr<rules::Color> c = ParseColor(args[0]);
  if (!c.ok()) return c.status();
  absl::StatusOr<double> t = ParseFloat(args[1]);
  absl::StatusOr<int> stones = ParseInt(args[2]);
  if (!t.ok() || !stones.ok() || *stones < 0) return PlaySyntaxError();
  e.clock().SetTimeLeft(*c, *t, *stones);
  return std::string();
}

}  // namespace

void RegisterPlayCommands(Engine& engine) {
  engine.Register("play", Play);
  engine.Register("genmove", [](Engine& e, const Args& args) {
    return GenMove(e, args, true);
  });
  engine.Register("reg_genmove", [](Engine& e, const Args& args) {
    return GenMove(e, args, false);
  });
  engine.Register("undo", Undo);
  engine.Register("showboard", ShowBoardCommand);
  engine.Register("final_score", FinalScore);
  engine.Register("final_status_list", FinalStatusList);
  engine.Register("time_settings", TimeSettingsCommand);
  engine.Register("kgs-time_settings", KgsTimeSettings);
  engine.Register("time_left", TimeLeftCommand);
}

}  // namespace qipu::gtp
