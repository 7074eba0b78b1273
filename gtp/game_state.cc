#include "gtp/game_state.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "rules/coord.h"
#include "rules/result.h"

namespace qipu::gtp {
namespace {

// The handicap stones of an event list (its kHandicap event), if any.
template <typename Events>
std::vector<rules::Point> HandicapOf(const Events& events) {
  for (const auto& e : events) {
    if (e.kind == decltype(e.kind)::kHandicap) return e.black;
  }
  return {};
}

}  // namespace

GameState::GameState(int size, const rules::Rules& rules)
    : size_(size),
      rules_(rules),
      game_(std::make_unique<rules::Game>(size, size, rules)) {}

int GameState::moves_played() const {
  int n = 0;
  for (const Event& e : events_) n += e.kind == EventKind::kMove ? 1 : 0;
  return n;
}

absl::Status GameState::SetBoardSize(int size) {
  if (!rules::ValidateSize(size, size).ok()) {
    return absl::InvalidArgumentError("unacceptable size");
  }
  size_ = size;
  Clear();
  return absl::OkStatus();
}

void GameState::Clear() {
  events_.clear();
  handicap_points_.clear();
  game_ = std::make_unique<rules::Game>(size_, size_, rules_);
}

absl::Status GameState::SetKomi(double komi) {
  if (absl::Status s = rules::ValidateKomi(komi); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("syntax error: ", s.message()));
  }
  rules::Rules r = rules_;
  r.komi = komi;
  return SetRules(r);
}

absl::Status GameState::SetRules(const rules::Rules& rules) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<rules::Game> g, Replay(rules, events_));
  rules_ = rules;
  game_ = std::move(g);
  return absl::OkStatus();
}

std::unique_ptr<rules::Game> GameState::Resumed(const rules::Game& g,
                                                rules::Color c) const {
  if (!g.over()) {
    // The same game with another side to move: a setup that adds nothing.
    auto r = std::make_unique<rules::Game>(g);
    r->ApplySetup({}, {}, {}, c).IgnoreError();  // adds nothing: cannot fail
    return r;
  }
  auto r = std::make_unique<rules::Game>(g.width(), g.height(), g.rules());
  std::vector<rules::Point> black, white, all;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const rules::Point p = rules::MakePoint(x, y);
      all.push_back(p);
      if (g.board().at(p) == rules::Color::kBlack) black.push_back(p);
      if (g.board().at(p) == rules::Color::kWhite) white.push_back(p);
    }
  }
  // The handicap is placed first so that it still counts; the setup then
  // clears the board and puts today's stones on it. The position is one
  // the board held: neither step can fail.
  const std::vector<rules::Point> handicap = handicap_points_;
  if (!handicap.empty()) r->PlaceFreeHandicap(handicap).IgnoreError();
  r->ApplySetup(black, white, all, c).IgnoreError();
  return r;
}

absl::Status GameState::Apply(const Event& e,
                              std::unique_ptr<rules::Game>* game) const {
  rules::Game& g = **game;
  switch (e.kind) {
    case EventKind::kMove: {
      if (g.over()) *game = Resumed(g, e.move.color);
      const rules::MoveVerdict v = (*game)->TryPlay(e.move.color, e.move.point);
      if (!v.legal()) {
        return absl::InvalidArgumentError(
            absl::StrCat("illegal move: ", rules::IllegalReasonName(v.reason)));
      }
      return absl::OkStatus();
    }
    case EventKind::kHandicap:
      return g.PlaceFreeHandicap(e.black);
    case EventKind::kSetup:
      return g.ApplySetup(e.black, e.white, e.empty, e.to_play);
    case EventKind::kResign:
      if (!g.over()) g.Resign(e.move.color);
      return absl::OkStatus();
  }
  return absl::InternalError("unknown event");
}

absl::StatusOr<std::unique_ptr<rules::Game>> GameState::Replay(
    const rules::Rules& rules, const std::vector<Event>& events) const {
  auto g = std::make_unique<rules::Game>(size_, size_, rules);
  for (size_t i = 0; i < events.size(); ++i) {
    if (absl::Status s = Apply(events[i], &g); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("event ", i + 1, ": ", s.message()));
    }
  }
  return g;
}

absl::Status GameState::Play(rules::Color c, rules::Point p) {
  Event e;
  e.kind = EventKind::kMove;
  e.move = rules::Move{c, p};
  QIPU_RETURN_IF_ERROR(Apply(e, &game_));
  events_.push_back(std::move(e));
  return absl::OkStatus();
}

void GameState::Resign(rules::Color c) {
  Event e;
  e.kind = EventKind::kResign;
  e.move = rules::Move{c, rules::kResign};
  Apply(e, &game_).IgnoreError();  // cannot fail
  events_.push_back(std::move(e));
}

absl::Status GameState::Undo() {
  size_t keep = events_.size();
  while (keep > 0 && events_[keep - 1].kind == EventKind::kResign) --keep;
  if (keep == 0 || events_[keep - 1].kind != EventKind::kMove) {
    return absl::InvalidArgumentError("cannot undo");
  }
  std::vector<Event> events(events_.begin(), events_.begin() + keep - 1);
  absl::StatusOr<std::unique_ptr<rules::Game>> g = Replay(rules_, events);
  if (!g.ok()) {
    // The events replayed once: they replay again. Defensive only.
    return absl::InternalError(
        absl::StrCat("cannot undo: ", g.status().message()));
  }
  events_ = std::move(events);
  game_ = std::move(*g);
  return absl::OkStatus();
}

absl::Status GameState::PlaceHandicap(absl::Span<const rules::Point> points) {
  if (!empty()) return absl::InvalidArgumentError("board not empty");
  std::vector<rules::Point> sorted(points.begin(), points.end());
  std::sort(sorted.begin(), sorted.end());
  const bool repeated =
      std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
  const bool pass =
      std::find(points.begin(), points.end(), rules::kPass) != points.end();
  if (points.size() < 2 || repeated || pass ||
      static_cast<int>(points.size()) >= size_ * size_) {
    return absl::InvalidArgumentError("bad vertex list");
  }
  Event e;
  e.kind = EventKind::kHandicap;
  e.move.point = rules::kNoPoint;
  e.black.assign(points.begin(), points.end());
  e.to_play = rules::Color::kWhite;
  if (!game_->PlaceFreeHandicap(e.black).ok()) {
    return absl::InvalidArgumentError("bad vertex list");
  }
  handicap_points_ = e.black;
  events_.push_back(std::move(e));
  return absl::OkStatus();
}

absl::Status GameState::Load(const rules::GameRecord& record, int max_moves) {
  if (record.width != record.height) {
    return absl::InvalidArgumentError(
        absl::StrCat("the board is ", record.width, "x", record.height,
                     "; GTP boards are square"));
  }
  if (!rules::ValidateSize(record.width, record.height).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported board size ", record.width));
  }
  rules::Rules r = rules_;
  if (record.has_komi) {
    if (absl::Status s = rules::ValidateKomi(record.komi); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("komi ", record.komi, ": ", s.message()));
    }
    r.komi = record.komi;
  }
  const int n = static_cast<int>(record.moves.size());
  const int moves = max_moves < 0 ? n : std::min(n, max_moves);
  std::vector<Event> events;
  size_t step = 0;
  for (int i = 0; i <= moves; ++i) {
    for (; step < record.setup.size() && record.setup[step].before_move <= i;
         ++step) {
      const rules::SetupStep& s = record.setup[step];
      Event e;
      e.move.point = rules::kNoPoint;
      const bool handicap = i == 0 && record.handicap > 0 && events.empty() &&
                            s.white.empty() && s.empty.empty() &&
                            s.black.size() >= 2;
      e.kind = handicap ? EventKind::kHandicap : EventKind::kSetup;
      e.black = s.black;
      e.white = s.white;
      e.empty = s.empty;
      e.to_play = handicap ? rules::Color::kWhite : s.to_play;
      events.push_back(std::move(e));
    }
    if (i == moves) break;
    Event e;
    e.kind = EventKind::kMove;
    e.move = record.moves[i];
    events.push_back(std::move(e));
  }
  // Replayed with the new events' handicap for resumed games.
  std::vector<rules::Point> old_handicap = std::move(handicap_points_);
  const int old_size = size_;
  handicap_points_ = HandicapOf(events);
  size_ = record.width;
  absl::StatusOr<std::unique_ptr<rules::Game>> g = Replay(r, events);
  if (!g.ok()) {
    handicap_points_ = std::move(old_handicap);
    size_ = old_size;
    return g.status();
  }
  rules_ = r;
  events_ = std::move(events);
  game_ = std::move(*g);
  return absl::OkStatus();
}

rules::GameRecord GameState::ToRecord() const {
  rules::GameRecord rec;
  rec.width = rec.height = size_;
  rec.komi = rules_.komi;
  rec.has_komi = true;
  const std::string preset = rules::PresetName(rules_);
  rec.rules = preset == "custom" ? "Chinese" : preset;
  int moves = 0;
  for (const Event& e : events_) {
    switch (e.kind) {
      case EventKind::kMove:
        rec.moves.push_back(e.move);
        ++moves;
        break;
      case EventKind::kHandicap:
      case EventKind::kSetup: {
        rules::SetupStep s;
        s.before_move = moves;
        s.black = e.black;
        s.white = e.white;
        s.empty = e.empty;
        s.to_play = e.to_play;
        if (e.kind == EventKind::kHandicap) {
          rec.handicap = static_cast<int>(e.black.size());
          s.to_play = rules::Color::kEmpty;  // implied by HA
        }
        rec.setup.push_back(std::move(s));
        break;
      }
      case EventKind::kResign:
        break;
    }
  }
  if (game_->over()) rec.result = rules::RecordResult::Of(game_->result());
  return rec;
}

const rules::Game& GameState::PositionFor(
    rules::Color c, std::unique_ptr<rules::Game>* scratch) const {
  if (!game_->over() && game_->to_play() == c) return *game_;
  *scratch = Resumed(*game_, c);
  return **scratch;
}

}  // namespace qipu::gtp
