#include "proto/convert.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "base/varint.h"
#include "rules/coord.h"

namespace qipu::wire {
namespace {

// UnpackPoints()' way out of its fast path: the varint at data[*pos]
// (longer than two bytes, or truncated) through GetVarint64(), for its
// error; advances *pos past the bytes read. Takes the string, not a
// pointer into it: UnpackPoints()' loop then keeps no pointer of its own.
bool GetLongVarint(const std::string& data, size_t* pos, uint64_t* v) {
  absl::string_view rest = absl::string_view(data).substr(*pos);
  const bool ok = base::GetVarint64(&rest, v);
  *pos = data.size() - rest.size();
  return ok;
}

rules::Color ColorFromProto(qipu::v1::Color c) {
  switch (c) {
    case qipu::v1::COLOR_BLACK:
      return rules::Color::kBlack;
    case qipu::v1::COLOR_WHITE:
      return rules::Color::kWhite;
    default:
      return rules::Color::kEmpty;
  }
}

qipu::v1::Color ColorToProto(rules::Color c) {
  switch (c) {
    case rules::Color::kBlack:
      return qipu::v1::COLOR_BLACK;
    case rules::Color::kWhite:
      return qipu::v1::COLOR_WHITE;
    default:
      return qipu::v1::COLOR_UNSPECIFIED;
  }
}

}  // namespace

qipu::v1::RuleSet RulesToProto(const rules::Rules& r) {
  qipu::v1::RuleSet p;
  p.set_preset(rules::PresetName(r));
  p.set_ko(static_cast<qipu::v1::KoRule>(static_cast<int>(r.ko) + 1));
  p.set_cycle(static_cast<qipu::v1::CycleRule>(static_cast<int>(r.cycle) + 1));
  p.set_multi_stone_suicide(r.multi_stone_suicide);
  p.set_komi(r.komi);
  p.set_dame(static_cast<qipu::v1::DameRule>(static_cast<int>(r.dame) + 1));
  p.set_handicap_compensation(static_cast<qipu::v1::HandicapCompensation>(
      static_cast<int>(r.handicap_compensation) + 1));
  p.set_move_cap(static_cast<uint32_t>(r.move_cap));
  return p;
}

absl::StatusOr<rules::Rules> RulesFromProto(const qipu::v1::RuleSet& p) {
  rules::Rules r;
  if (p.ko() < 1 || p.ko() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.ko: ", p.ko(), " is not a ko rule"));
  }
  if (p.cycle() < 1 || p.cycle() > 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.cycle: ", p.cycle(), " is not a cycle rule"));
  }
  if (p.dame() < 1 || p.dame() > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.dame: ", p.dame(), " is not a dame rule"));
  }
  if (p.handicap_compensation() < 1 || p.handicap_compensation() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.handicap_compensation: ", p.handicap_compensation(),
                     " is not a compensation rule"));
  }
  if (absl::Status s = rules::ValidateKomi(p.komi()); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.komi: ", s.message()));
  }
  if (p.move_cap() > 100000) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.move_cap: ", p.move_cap(), " exceeds 100000"));
  }
  r.ko = static_cast<rules::KoRule>(p.ko() - 1);
  r.cycle = static_cast<rules::CycleRule>(p.cycle() - 1);
  r.multi_stone_suicide = p.multi_stone_suicide();
  r.komi = p.komi();
  r.dame = static_cast<rules::DameRule>(p.dame() - 1);
  r.handicap_compensation =
      static_cast<rules::HandicapCompensation>(p.handicap_compensation() - 1);
  r.move_cap = static_cast<int>(p.move_cap());
  return r;
}

void PackPoint(rules::Point p, int width, std::string* out) {
  base::PutVarint64(out,
                    p == rules::kPass ? 0 : rules::DenseIndex(p, width) + 1);
}

std::string PackPoints(const std::vector<rules::Point>& points, int width) {
  std::string out;
  out.reserve(points.size() * 2);
  for (rules::Point p : points) PackPoint(p, width, &out);
  return out;
}

absl::StatusOr<std::vector<rules::Point>> UnpackPoints(const std::string& data,
                                                       int width, int height,
                                                       bool allow_pass) {
  // Dense index -> point for this width, built once per width and thread
  // (a division per point was most of this function).
  thread_local int table_width = 0;
  thread_local std::array<rules::Point, rules::kMaxPoints> point_of;
  if (table_width != width) {
    for (int i = 0; i < rules::kMaxPoints; ++i) {
      point_of[i] = rules::FromDenseIndex(i, width);
    }
    table_width = width;
  }
  // One point per byte at most; filled by index, trimmed at the end. The
  // usual one- and two-byte varints are decoded without a branch on their
  // length (moves on a big board are a random mix of both); longer ones,
  // never a point, take GetVarint64() to the error they deserve.
  const size_t n = data.size();
  const char* const d = data.data();
  const uint64_t points = static_cast<uint64_t>(width) * height;
  std::vector<rules::Point> out(n);
  size_t count = 0;
  size_t pos = 0;
  while (pos < n) {
    uint64_t v;
    uint32_t v14;
    if (const size_t len = base::DecodeVarint14(d, n, pos, &v14); len != 0)
        [[likely]] {
      v = v14;
      pos += len;
    } else if (!GetLongVarint(data, &pos, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("packed points truncated at byte ", pos));
    }
    if (v - 1 >= points) [[unlikely]] {  // 0 (a pass) or off the board
      if (v == 0) {
        if (!allow_pass) {
          return absl::InvalidArgumentError(
              absl::StrCat("pass in a setup point list at item ", count + 1));
        }
        out[count++] = rules::kPass;
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("point ", v, " at item ", count + 1, " is off the ",
                       width, "x", height, " board"));
    }
    out[count++] = point_of[v - 1];
  }
  out.resize(count);
  return out;
}

qipu::v1::Cycle CycleToProto(const rules::CycleRecord& c, int width) {
  qipu::v1::Cycle p;
  p.set_cls(static_cast<qipu::v1::CycleClass>(static_cast<int>(c.cls) + 1));
  p.set_first_move(static_cast<uint32_t>(c.first_move));
  p.set_period(static_cast<uint32_t>(c.period));
  p.set_black_captures(static_cast<uint32_t>(c.black_captures));
  p.set_white_captures(static_cast<uint32_t>(c.white_captures));
  p.set_outcome(
      static_cast<qipu::v1::CycleOutcome>(static_cast<int>(c.outcome) + 1));
  p.set_point(
      c.point == rules::kPass || c.point == rules::kNoPoint
          ? 0
          : static_cast<uint32_t>(rules::DenseIndex(c.point, width) + 1));
  return p;
}

absl::StatusOr<rules::CycleRecord> CycleFromProto(const qipu::v1::Cycle& p,
                                                  int width, int height) {
  if (p.cls() < 1 || p.cls() > 5 || p.outcome() < 1 || p.outcome() > 5) {
    return absl::InvalidArgumentError("cycle: unknown class or outcome");
  }
  if (p.point() == 0 || p.point() > static_cast<uint32_t>(width * height) ||
      p.period() == 0 || p.first_move() == 0) {
    return absl::InvalidArgumentError("cycle: bad point, period or first move");
  }
  rules::CycleRecord c;
  c.cls = static_cast<rules::CycleClass>(p.cls() - 1);
  c.outcome = static_cast<rules::CycleOutcome>(p.outcome() - 1);
  c.first_move = static_cast<int>(p.first_move());
  c.period = static_cast<int>(p.period());
  c.black_captures = static_cast<int>(p.black_captures());
  c.white_captures = static_cast<int>(p.white_captures());
  c.point = rules::FromDenseIndex(static_cast<int>(p.point() - 1), width);
  return c;
}

qipu::v1::Result ResultToProto(const rules::GameResult& r) {
  qipu::v1::Result p;
  switch (r.winner) {
    case rules::Winner::kBlack:
      p.set_winner(qipu::v1::WINNER_BLACK);
      break;
    case rules::Winner::kWhite:
      p.set_winner(qipu::v1::WINNER_WHITE);
      break;
    case rules::Winner::kDraw:
      p.set_winner(qipu::v1::WINNER_DRAW);
      break;
    case rules::Winner::kNone:
      p.set_winner(qipu::v1::WINNER_NONE);
      break;
  }
  // EndReason values line up with the proto enum (kNotOver = UNSPECIFIED).
  p.set_reason(static_cast<qipu::v1::EndReason>(static_cast<int>(r.reason)));
  p.set_margin(r.margin);
  return p;
}

absl::StatusOr<rules::GameResult> ResultFromProto(const qipu::v1::Result& p) {
  rules::GameResult r;
  switch (p.winner()) {
    case qipu::v1::WINNER_BLACK:
      r.winner = rules::Winner::kBlack;
      break;
    case qipu::v1::WINNER_WHITE:
      r.winner = rules::Winner::kWhite;
      break;
    case qipu::v1::WINNER_DRAW:
      r.winner = rules::Winner::kDraw;
      break;
    case qipu::v1::WINNER_NONE:
      r.winner = rules::Winner::kNone;
      break;
    default:
      return absl::InvalidArgumentError("result.winner is unspecified");
  }
  if (p.reason() < 1 || p.reason() > 8) {
    return absl::InvalidArgumentError(
        "result.reason is unspecified or unknown");
  }
  r.reason = static_cast<rules::EndReason>(p.reason());
  r.margin = p.margin();
  return r;
}

qipu::v1::Area AreaToProto(const rules::AreaCount& a) {
  qipu::v1::Area p;
  p.set_black(a.black);
  p.set_white(a.white);
  p.set_dame(a.dame);
  return p;
}

absl::StatusOr<rules::GameRecord> GameToRecord(const qipu::v1::Game& g) {
  rules::GameRecord r;
  if (absl::Status s = rules::ValidateSize(static_cast<int>(g.width()),
                                           static_cast<int>(g.height()));
      !s.ok()) {
    return s;
  }
  r.width = static_cast<int>(g.width());
  r.height = static_cast<int>(g.height());
  if (g.handicap() > 9) {
    return absl::InvalidArgumentError(
        absl::StrCat("handicap ", g.handicap(), " exceeds 9"));
  }
  r.handicap = static_cast<int>(g.handicap());
  for (const qipu::v1::Setup& s : g.setup()) {
    rules::SetupStep step;
    step.before_move = static_cast<int>(s.before_move());
    auto black = UnpackPoints(s.black(), r.width, r.height, false);
    auto white = UnpackPoints(s.white(), r.width, r.height, false);
    auto empty = UnpackPoints(s.empty(), r.width, r.height, false);
    for (const auto* st : {&black, &white, &empty}) {
      if (!st->ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("setup: ", st->status().message()));
      }
    }
    step.black = *std::move(black);
    step.white = *std::move(white);
    step.empty = *std::move(empty);
    step.to_play = ColorFromProto(s.to_play());
    r.setup.push_back(std::move(step));
  }
  auto points = UnpackPoints(g.moves(), r.width, r.height, true);
  if (!points.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("moves: ", points.status().message()));
  }
  if (points->size() != g.num_moves()) {
    return absl::InvalidArgumentError(
        absl::StrCat("moves: ", points->size(),
                     " packed moves but num_moves says ", g.num_moves()));
  }
  rules::Color c = ColorFromProto(g.first_color());
  if (c == rules::Color::kEmpty) {
    c = (g.handicap() >= 2) ? rules::Color::kWhite : rules::Color::kBlack;
  }
  size_t same = 0;
  r.moves.reserve(points->size());
  for (size_t i = 0; i < points->size(); ++i) {
    if (i > 0) {
      if (same < static_cast<size_t>(g.same_color_moves_size()) &&
          g.same_color_moves(same) == i) {
        ++same;
      } else {
        c = rules::Opponent(c);
      }
    }
    r.moves.push_back(rules::Move{c, (*points)[i]});
  }
  if (same != static_cast<size_t>(g.same_color_moves_size())) {
    return absl::InvalidArgumentError(
        "same_color_moves: indices must increase and lie within the moves");
  }
  const qipu::v1::Meta& m = g.meta();
  r.black_player = m.black_player();
  r.white_player = m.white_player();
  r.black_rank = m.black_rank();
  r.white_rank = m.white_rank();
  r.date = m.date();
  r.event = m.event();
  r.result = m.record_result();
  r.komi = g.rules().komi();
  r.has_komi = true;
  r.rules = g.rules().preset();
  return r;
}

namespace {

// Moves, num_moves, first_color and same_color_moves of *g from `moves`.
// Writes the varints straight into the field's buffer (a dense index is
// below 2^14: at most two bytes).
void PackMoves(const std::vector<rules::Move>& moves, int width,
               qipu::v1::Game* g) {
  const size_t n = moves.size();
  const rules::Move* m = moves.data();
  std::string* packed = g->mutable_moves();
  packed->resize(n * 2);
  char* const begin = packed->data();
  char* out = begin;
  // EncodeVarint14() always writes two bytes and the cursor advances by the
  // varint's length: no branch on it (a random mix of 1 and 2 bytes on
  // boards above 11x11). out <= begin + 2i at move i, so the writes stay
  // inside.
  for (size_t i = 0; i < n; ++i) {
    const rules::Point p = m[i].point;
    const uint32_t v =
        p == rules::kPass
            ? 0
            : static_cast<uint32_t>(rules::DenseIndex(p, width) + 1);
    out = base::EncodeVarint14(out, v);
  }
  packed->resize(static_cast<size_t>(out - begin));
  g->clear_same_color_moves();
  for (size_t i = 1; i < n; ++i) {
    if (m[i].color == m[i - 1].color) {
      g->add_same_color_moves(static_cast<uint32_t>(i));
    }
  }
  g->set_num_moves(static_cast<uint32_t>(n));
  g->set_first_color(n == 0 ? qipu::v1::COLOR_UNSPECIFIED
                            : ColorToProto(m[0].color));
}

}  // namespace

void RecordToGame(const rules::GameRecord& r, qipu::v1::Game* g) {
  g->set_width(static_cast<uint32_t>(r.width));
  g->set_height(static_cast<uint32_t>(r.height));
  g->set_handicap(static_cast<uint32_t>(r.handicap));
  g->clear_setup();
  for (const rules::SetupStep& s : r.setup) {
    qipu::v1::Setup* p = g->add_setup();
    p->set_before_move(static_cast<uint32_t>(s.before_move));
    p->set_black(PackPoints(s.black, r.width));
    p->set_white(PackPoints(s.white, r.width));
    p->set_empty(PackPoints(s.empty, r.width));
    p->set_to_play(ColorToProto(s.to_play));
  }
  PackMoves(r.moves, r.width, g);
  qipu::v1::Meta* m = g->mutable_meta();
  m->set_black_player(r.black_player);
  m->set_white_player(r.white_player);
  m->set_black_rank(r.black_rank);
  m->set_white_rank(r.white_rank);
  m->set_date(r.date);
  m->set_event(r.event);
  m->set_record_result(r.result);
  m->clear_normalised();
  for (const std::string& n : r.notes) m->add_normalised(n);
}

rules::GameRecord RecordOfGame(const rules::Game& game,
                               const std::vector<rules::Point>& handicap) {
  rules::GameRecord r;
  r.width = game.width();
  r.height = game.height();
  r.handicap = game.handicap();
  if (!handicap.empty()) {
    rules::SetupStep s;
    s.black = handicap;
    r.setup.push_back(std::move(s));
  }
  r.moves = game.moves();
  return r;
}

rules::SelfPlaySpec SelfPlaySpecFor(const qipu::v1::JobConfig& config,
                                    const rules::Rules& rules, uint64_t index) {
  rules::SelfPlaySpec spec;
  spec.width = static_cast<int>(config.width());
  spec.height = static_cast<int>(config.height());
  spec.rules = rules;
  spec.handicap = static_cast<int>(config.handicap());
  spec.job_seed = config.seed();
  spec.index = index;
  return spec;
}

void SelfPlayToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                     const rules::SelfPlayOutcome& outcome, uint64_t job,
                     const std::string& worker, qipu::v1::Game* out) {
  out->Clear();
  std::vector<rules::Point> stones;
  if (spec.handicap > 0) {
    auto h = rules::FixedHandicap(spec.width, spec.height, spec.handicap);
    if (h.ok()) stones = *h;
  }
  out->set_width(static_cast<uint32_t>(game.width()));
  out->set_height(static_cast<uint32_t>(game.height()));
  out->set_handicap(static_cast<uint32_t>(game.handicap()));
  if (!stones.empty()) {
    qipu::v1::Setup* setup = out->add_setup();
    setup->set_black(PackPoints(stones, game.width()));
    setup->set_to_play(ColorToProto(rules::Color::kEmpty));
  }
  PackMoves(game.moves(), game.width(), out);
  *out->mutable_rules() = RulesToProto(game.rules());
  *out->mutable_result() = ResultToProto(game.result());
  *out->mutable_area() = AreaToProto(game.Area());
  for (const rules::CycleRecord& c : game.cycles()) {
    *out->add_cycles() = CycleToProto(c, spec.width);
  }
  for (const rules::CycleRecord& c : outcome.voided_cycles) {
    *out->add_voided_cycles() = CycleToProto(c, spec.width);
  }
  out->set_ko_captures(static_cast<uint32_t>(game.ko_captures()));
  qipu::v1::Provenance* p = out->mutable_provenance();
  p->set_job(job);
  p->set_game_index(spec.index);
  p->set_seed(outcome.seed);
  p->set_attempt(static_cast<uint32_t>(outcome.attempt));
  p->set_worker(worker);
  p->set_policy("random");
}

}  // namespace qipu::wire
