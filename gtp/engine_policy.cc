#include "gtp/engine_policy.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "gtp/command_line.h"
#include "gtp/protocol.h"
#include "rules/coord.h"

namespace qipu::gtp {

absl::StatusOr<std::unique_ptr<EnginePolicy>> EnginePolicy::Create(
    absl::string_view command_line, const EnginePolicyOptions& options) {
  QIPU_ASSIGN_OR_RETURN(std::vector<std::string> argv,
                        SplitCommandLine(command_line));
  return std::unique_ptr<EnginePolicy>(
      new EnginePolicy(std::move(argv), options));
}

EnginePolicy::~EnginePolicy() {
  if (engine_) engine_->Stop();
}

std::string EnginePolicy::spec() const {
  return absl::StrCat("gtp:", JoinCommandLine(argv_));
}

absl::Status EnginePolicy::NewGame(const rules::Game& game) {
  if (engine_ == nullptr || !engine_->alive()) {
    EngineProcessOptions o;
    o.argv = argv_;
    o.stderr_path = options_.stderr_path;
    o.command_timeout = options_.command_timeout;
    o.quit_timeout = options_.quit_timeout;
    engine_.reset();
    QIPU_ASSIGN_OR_RETURN(engine_, EngineProcess::Start(o));
    ++engines_started_;
    size_ = 0;
    time_sent_ = 0;
    clock_told_ = false;
    commands_.reset();
  }
  synced_ = false;
  return FullSync(game);
}

absl::Status EnginePolicy::FullSync(const rules::Game& game) {
  synced_ = false;
  if (game.width() != game.height()) {
    return absl::UnimplementedError(
        absl::StrCat("GTP engines play square boards; this one is ",
                     game.width(), "x", game.height()));
  }
  if (size_ != game.width()) {
    QIPU_RETURN_IF_ERROR(
        engine_->Command(absl::StrCat("boardsize ", game.width())).status());
    size_ = game.width();
  }
  QIPU_RETURN_IF_ERROR(engine_->Command("clear_board").status());
  QIPU_RETURN_IF_ERROR(
      engine_->Command(absl::StrCat("komi ", game.rules().komi)).status());
  komi_ = game.rules().komi;
  const rules::Board& b = game.board();
  std::vector<std::string> black, white;
  for (int y = 0; y < game.height(); ++y) {
    for (int x = 0; x < game.width(); ++x) {
      const rules::Point p = rules::MakePoint(x, y);
      if (b.at(p) == rules::Color::kBlack) {
        black.push_back(rules::GtpPoint(p, game.height()));
      } else if (b.at(p) == rules::Color::kWhite) {
        white.push_back(rules::GtpPoint(p, game.height()));
      }
    }
  }
  const bool handicap = game.num_moves() == 0 && game.handicap() >= 2 &&
                        white.empty() &&
                        static_cast<int>(black.size()) == game.handicap();
  if (handicap) {
    QIPU_RETURN_IF_ERROR(engine_
                             ->Command(absl::StrCat("set_free_handicap ",
                                                    absl::StrJoin(black, " ")))
                             .status());
  } else {
    for (const std::string& v : black) {
      QIPU_RETURN_IF_ERROR(engine_->Command("play black " + v).status());
    }
    for (const std::string& v : white) {
      QIPU_RETURN_IF_ERROR(engine_->Command("play white " + v).status());
    }
  }
  base_moves_ = game.num_moves();
  sent_.clear();
  synced_ = true;
  return absl::OkStatus();
}

absl::Status EnginePolicy::Sync(const rules::Game& game) {
  if (!synced_ || size_ != game.width() || komi_ != game.rules().komi ||
      game.num_moves() < base_moves_) {
    return FullSync(game);
  }
  // The moves sent that are still the game's; the others are taken back.
  const size_t since = static_cast<size_t>(game.num_moves() - base_moves_);
  size_t kept = 0;
  while (kept < sent_.size() && kept < since &&
         game.moves()[base_moves_ + kept] == sent_[kept]) {
    ++kept;
  }
  if (sent_.size() - kept > static_cast<size_t>(kMaxUndo)) {
    return FullSync(game);
  }
  while (sent_.size() > kept) {
    absl::StatusOr<std::string> r = engine_->Command("undo");
    if (absl::IsFailedPrecondition(r.status())) return FullSync(game);
    QIPU_RETURN_IF_ERROR(r.status());
    sent_.pop_back();
  }
  for (int i = base_moves_ + static_cast<int>(sent_.size());
       i < game.num_moves(); ++i) {
    const rules::Move m = game.moves()[i];
    QIPU_RETURN_IF_ERROR(
        engine_
            ->Command(absl::StrCat("play ", ColorWord(m.color), " ",
                                   rules::GtpPoint(m.point, game.height())))
            .status());
    sent_.push_back(m);
  }
  return absl::OkStatus();
}

void EnginePolicy::SetGameClock(const TimeSettings& settings) {
  if (game_clock_ != settings) clock_told_ = false;
  game_clock_ = settings;
  time_left_.reset();
}

void EnginePolicy::SetTimeLeft(rules::Color c, double seconds, int stones) {
  time_left_ = PendingTimeLeft{c, seconds, stones};
}

bool EnginePolicy::EngineLists(absl::string_view command) {
  if (!commands_.has_value()) {
    commands_.emplace();
    absl::StatusOr<std::string> r = engine_->Command("list_commands");
    if (r.ok()) {
      for (absl::string_view line : absl::StrSplit(*r, '\n')) {
        commands_->emplace_back(absl::StripAsciiWhitespace(line));
      }
    }
  }
  for (const std::string& c : *commands_) {
    if (c == command) return true;
  }
  return false;
}

std::string EnginePolicy::GameClockCommand() {
  const TimeSettings& t = *game_clock_;
  switch (t.system) {
    case TimeSystem::kNone:
      return "time_settings 0 1 0";
    case TimeSystem::kAbsolute:
      return absl::StrCat("time_settings ", t.main_s, " 0 0");
    case TimeSystem::kCanadian:
      return absl::StrCat("time_settings ", t.main_s, " ", t.period_s, " ",
                          t.stones);
    case TimeSystem::kJapanese:
      if (EngineLists("kgs-time_settings")) {
        return absl::StrCat("kgs-time_settings byoyomi ", t.main_s, " ",
                            t.period_s, " ", t.stones);
      }
      return absl::StrCat("time_settings ", t.main_s, " ", t.period_s, " 1");
  }
  return "time_settings 0 1 0";
}

void EnginePolicy::SendTime(const policy::SearchLimits& limits,
                            rules::Color c) {
  if (game_clock_.has_value()) {
    // Refusals are no error: the engine plays on without the clock.
    if (!clock_told_) {
      absl::StatusOr<std::string> r = engine_->Command(GameClockCommand());
      clock_told_ = r.ok() || absl::IsFailedPrecondition(r.status());
    }
    if (time_left_.has_value() && time_left_->color == c &&
        game_clock_->system != TimeSystem::kNone && engine_->alive()) {
      int stones = time_left_->stones;
      // Japanese byo-yomi told as time_settings: one move per period.
      if (stones > 0 && game_clock_->system == TimeSystem::kJapanese &&
          !EngineLists("kgs-time_settings")) {
        stones = 1;
      }
      const int seconds =
          static_cast<int>(std::floor(std::max(0.0, time_left_->seconds)));
      (void)engine_->Command(
          absl::StrCat("time_left ", ColorWord(c), " ", seconds, " ", stones));
      time_left_.reset();
    }
    return;
  }
  int want = -1;
  if (limits.time != absl::InfiniteDuration()) {
    want = std::max(
        1, static_cast<int>(std::ceil(absl::ToDoubleSeconds(limits.time))));
  }
  if (want == time_sent_ || (want == -1 && time_sent_ == 0)) return;
  // "0 1 0" is GTP's "no time limit". A refusal is no error.
  const std::string cmd = want > 0
                              ? absl::StrCat("time_settings 0 ", want, " 1")
                              : std::string("time_settings 0 1 0");
  absl::StatusOr<std::string> r = engine_->Command(cmd);
  if (r.ok() || absl::IsFailedPrecondition(r.status())) time_sent_ = want;
}

void EnginePolicy::SearchOf(const AnalyzeReport& report,
                            policy::MoveChoice* choice) {
  winrates_.clear();
  for (const AnalyzedMove& m : report.moves) {
    if (m.visits <= 0) continue;
    choice->visits.push_back(policy::MoveVisits{
        m.point,
        static_cast<uint32_t>(std::min<int64_t>(m.visits, UINT32_MAX))});
    choice->playouts += m.visits;
    winrates_.emplace_back(m.point, m.winrate);
  }
  std::stable_sort(
      choice->visits.begin(), choice->visits.end(),
      [](const policy::MoveVisits& a, const policy::MoveVisits& b) {
        return a.visits > b.visits;
      });
}

double EnginePolicy::WinrateOf(rules::Point point) const {
  for (const auto& [p, w] : winrates_) {
    if (p == point) return w;
  }
  return -1;
}

absl::StatusOr<policy::MoveChoice> EnginePolicy::Choose(
    const rules::Game& game, const policy::SearchLimits& limits) {
  if (engine_ == nullptr) {
    // Choose() without NewGame(): start now.
    QIPU_RETURN_IF_ERROR(NewGame(game));
  }
  if (!engine_->alive()) {
    return absl::UnavailableError(
        absl::StrCat("engine '", engine_->command_line(),
                     "' is gone until the next game: ", engine_->end_reason()));
  }
  QIPU_RETURN_IF_ERROR(Sync(game));
  const rules::Color c = game.to_play();
  // An engine that reports its search (Leela Zero, KataGo) is asked for
  // it: the visits become the move's search (MoveChoice::visits), as a
  // search of qipu's own would. The interval is longer than any search,
  // so the engine posts its analysis once, when the search ends.
  const AnalyzeDialect dialect = EngineLists("kata-genmove_analyze")
                                     ? AnalyzeDialect::kKataGo
                                     : AnalyzeDialect::kLeelaZero;
  const bool analyze =
      dialect == AnalyzeDialect::kKataGo || EngineLists("lz-genmove_analyze");
  SendTime(limits, c);
  if (!engine_->alive()) return absl::UnavailableError(engine_->end_reason());
  const absl::Duration deadline = limits.time == absl::InfiniteDuration()
                                      ? options_.genmove_timeout
                                      : limits.time + options_.genmove_margin;
  policy::MoveChoice choice;
  std::string answer;
  if (analyze) {
    QIPU_ASSIGN_OR_RETURN(
        std::string response,
        engine_->Command(
            absl::StrCat(dialect == AnalyzeDialect::kKataGo
                             ? "kata-genmove_analyze "
                             : "lz-genmove_analyze ",
                         ColorWord(c), " ", kAnalyzeIntervalCentis),
            deadline));
    absl::StatusOr<AnalyzeReport> report =
        ParseAnalyzeResponse(response, game.width(), game.height(), dialect);
    if (!report.ok() || report->play.empty()) {
      engine_->Kill("analyze answer");
      return absl::DataLossError(absl::StrCat(
          "engine '", engine_->command_line(), "' answered ",
          dialect == AnalyzeDialect::kKataGo ? "kata" : "lz",
          "-genmove_analyze with '", absl::CHexEscape(response),
          "': ", report.ok() ? "no play line" : report.status().message()));
    }
    answer = report->play;
    SearchOf(*report, &choice);
  } else {
    QIPU_ASSIGN_OR_RETURN(
        answer,
        engine_->Command(absl::StrCat("genmove ", ColorWord(c)), deadline));
  }
  const std::string text = absl::AsciiStrToLower(answer);
  if (text == "resign") {
    choice.point = rules::kResign;
    return choice;
  }
  absl::StatusOr<rules::Point> p =
      rules::ParseGtpPoint(text, game.width(), game.height());
  if (!p.ok()) {
    engine_->Kill(absl::StrCat("genmove answer '", answer, "'"));
    return absl::DataLossError(absl::StrCat(
        "engine '", engine_->command_line(), "' answered genmove with '",
        absl::CHexEscape(answer), "': ", p.status().message()));
  }
  choice.point = *p;
  for (const policy::MoveVisits& v : choice.visits) {
    if (v.point == *p) choice.winrate = WinrateOf(v.point);
  }
  winrates_.clear();
  // The engine has played it; the caller plays it too, or the game ends.
  sent_.push_back(rules::Move{c, *p});
  return choice;
}

absl::StatusOr<std::vector<rules::Point>> EnginePolicy::FinalStatusList(
    const rules::Game& game, absl::string_view status) {
  if (engine_ == nullptr || !engine_->alive()) {
    return absl::UnavailableError(absl::StrCat(
        "engine '", JoinCommandLine(argv_), "' is not running",
        engine_ == nullptr ? "" : absl::StrCat(": ", engine_->end_reason())));
  }
  QIPU_RETURN_IF_ERROR(Sync(game));
  QIPU_ASSIGN_OR_RETURN(std::string answer, engine_->Command(absl::StrCat(
                                                "final_status_list ", status)));
  std::vector<rules::Point> points;
  for (absl::string_view word :
       absl::StrSplit(answer, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
    absl::StatusOr<rules::Point> p = rules::ParseGtpPoint(
        absl::AsciiStrToLower(word), game.width(), game.height());
    if (!p.ok() || *p == rules::kPass) {
      engine_->Kill(absl::StrCat("final_status_list answer '", answer, "'"));
      return absl::DataLossError(
          absl::StrCat("engine '", engine_->command_line(),
                       "' answered final_status_list ", status, " with '",
                       absl::CHexEscape(answer), "': not a list of vertices"));
    }
    points.push_back(*p);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

}  // namespace qipu::gtp
