// The GTP commands of play and its end: play, genmove, reg_genmove, undo
// (GTP 2 draft, sections 6.3.3 and 6.3.4), showboard (6.3.6), final_score
// and final_status_list (6.3.5).
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtp/board_report.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"
#include "rules/coord.h"

namespace qipu::gtp {
namespace {

using Args = std::vector<std::string>;
using Result = absl::StatusOr<std::string>;

absl::Status SyntaxError() {
  return absl::InvalidArgumentError("syntax error");
}

Result Play(Engine& e, const Args& args) {
  if (args.size() != 2) return SyntaxError();
  absl::StatusOr<rules::Color> c = ParseColor(args[0]);
  if (!c.ok()) return c.status();
  absl::StatusOr<rules::Point> p = ParseVertex(args[1], e.state().size());
  if (!p.ok()) return p.status();
  if (absl::Status s = e.PlayMove(*c, *p); !s.ok()) return s;
  return std::string();
}

// genmove (play = true) and reg_genmove (play = false).
Result GenMove(Engine& e, const Args& args, bool play) {
  if (args.size() != 1) return SyntaxError();
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
  if (!args.empty()) return SyntaxError();
  if (absl::Status s = e.state().Undo(); !s.ok()) return s;
  e.GameChanged();
  return std::string();
}

Result ShowBoardCommand(Engine& e, const Args& args) {
  if (!args.empty()) return SyntaxError();
  return ShowBoard(e.state().game());
}

Result FinalScore(Engine& e, const Args& args) {
  if (!args.empty()) return SyntaxError();
  const rules::GameResult r = e.state().game().ScoreNow();
  double margin = r.margin;
  if (r.winner == rules::Winner::kWhite) margin = -margin;
  if (r.winner == rules::Winner::kDraw || r.winner == rules::Winner::kNone) {
    margin = 0;
  }
  return ScoreText(margin);
}

Result FinalStatusList(Engine& e, const Args& args) {
  if (args.size() != 1) return SyntaxError();
  const std::string what = absl::AsciiStrToLower(args[0]);
  StoneStatus status;
  if (what == "alive") {
    status = StoneStatus::kAlive;
  } else if (what == "dead") {
    status = StoneStatus::kDead;
  } else if (what == "seki") {
    status = StoneStatus::kSeki;
  } else {
    return SyntaxError();
  }
  const int size = e.state().size();
  std::vector<std::string> lines;
  for (const auto& chain : ChainsWithStatus(e.state().game().board(), status)) {
    std::vector<std::string> names;
    for (rules::Point p : chain) names.push_back(rules::GtpPoint(p, size));
    lines.push_back(absl::StrJoin(names, " "));
  }
  return absl::StrJoin(lines, "\n");
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
}

}  // namespace qipu::gtp
