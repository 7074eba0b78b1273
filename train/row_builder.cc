#include "train/row_builder.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "rules/playout.h"
#include "rules/replay.h"
#include "rules/scoring.h"
#include "train/game_order.h"

namespace qipu::train {

using rules::Color;
using rules::Move;
using rules::Point;

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

uint64_t GameSeed(uint64_t seed, const store::GameId& id, uint64_t salt) {
  uint64_t h = Mix(seed ^ salt);
  h = Mix(h ^ static_cast<uint64_t>(id.kind));
  h = Mix(h ^ id.hi);
  return Mix(h ^ id.lo);
}

namespace {

constexpr uint64_t kSampleSalt = 0x73616d706c65ULL;    // "sample"
constexpr uint64_t kSymmetrySalt = 0x73796d6d6574ULL;  // "symmet"

// Sets bit i of a packed channel (numpy.packbits order: MSB first).
inline void SetBit(uint8_t* channel, int i) {
  channel[i >> 3] |= static_cast<uint8_t>(0x80u >> (i & 7));
}

// Applies a root handicap or a setup step as rules/replay.cc does.
absl::Status ApplyStep(const rules::SetupStep& step, bool root_handicap,
                       rules::Game* game) {
  if (root_handicap && step.white.empty() && step.empty.empty()) {
    return game->PlaceFreeHandicap(step.black);
  }
  return game->ApplySetup(step.black, step.white, step.empty, step.to_play);
}

}  // namespace

// What every row of one game shares.
struct RowBuilder::GameFacts {
  const TrainingGame* game = nullptr;
  // Moves the replay played.
  int played = 0;
  bool ownership = false;
  // White's komi with the handicap compensation, in points.
  double white_komi = 0;
  // Every row's weight (RowOptions).
  float row_weight = 1.0f;
};

absl::Status ValidateRowOptions(const RowOptions& o) {
  if (o.pos_len < rules::kMinSize || o.pos_len > kMaxPosLen) {
    return absl::InvalidArgumentError(
        absl::StrCat("pos_len ", o.pos_len, " is outside [", rules::kMinSize,
                     ", ", kMaxPosLen, "]"));
  }
  if (o.symmetries != 1 && o.symmetries != 8) {
    return absl::InvalidArgumentError(
        absl::StrCat("symmetries must be 1 or 8, not ", o.symmetries));
  }
  if (o.positions_per_game < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("positions per game must be >= 0 (0 for all), not ",
                     o.positions_per_game));
  }
  if (o.min_move < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("min move must be >= 0, not ", o.min_move));
  }
  if (o.weight_by_length && o.weight_by_recency) {
    return absl::InvalidArgumentError(
        "row weights go by length or by recency, not both");
  }
  if (!(o.row_weight > 0.0f && o.row_weight <= 1000.0f)) {
    return absl::InvalidArgumentError(
        absl::StrCat("row weight must be in (0, 1000], not ", o.row_weight));
  }
  return absl::OkStatus();
}

void ComputeLibertiesCapped(const rules::Board& board,
                            std::array<uint8_t, rules::kNumCells>* libs) {
  constexpr int kDirs[4] = {-rules::kStride, -1, 1, rules::kStride};
  std::array<Point, rules::kMaxPoints> chain;
  // stamp[p] == current chain's number: p already counted for it.
  std::array<uint16_t, rules::kNumCells> stamp{};
  std::array<bool, rules::kNumCells> done{};
  uint16_t number = 0;
  libs->fill(0);
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const Point p = rules::MakePoint(x, y);
      const Color c = board.at(p);
      if ((c != Color::kBlack && c != Color::kWhite) || done[p]) continue;
      ++number;
      int count = 0;
      int next = 0;
      int liberties = 0;
      chain[count++] = p;
      done[p] = true;
      while (next < count) {
        const Point q = chain[next++];
        for (int d : kDirs) {
          const Point n = static_cast<Point>(q + d);
          const Color nc = board.at(n);
          if (nc == c && !done[n]) {
            done[n] = true;
            chain[count++] = n;
          } else if (nc == Color::kEmpty && stamp[n] != number) {
            stamp[n] = number;
            ++liberties;
          }
        }
      }
      const uint8_t capped = static_cast<uint8_t>(std::min(liberties, 4));
      for (int i = 0; i < count; ++i) (*libs)[chain[i]] = capped;
    }
  }
}

RowBuilder::RowBuilder(const RowOptions& options)
    : options_(options), game_(rules::kMinSize, rules::kMinSize, {}) {}

int RowBuilder::SymmetryOf(const store::GameId& id, int turn) const {
  if (options_.symmetries == 1) return 0;
  rules::Rng rng(GameSeed(options_.seed, id, kSymmetrySalt) ^
                 Mix(static_cast<uint64_t>(turn)));
  return static_cast<int>(rng.Below(8));
}

void RowBuilder::SampleTurns(const store::GameId& id, int positions) {
  turns_.clear();
  for (int t = options_.min_move; t < positions; ++t) turns_.push_back(t);
  const int k = options_.positions_per_game;
  if (k == 0 || k >= static_cast<int>(turns_.size())) return;
  // A partial Fisher-Yates shuffle picks k distinct turns; then they go
  // back into turn order (one replay visits them in passing).
  rules::Rng rng(GameSeed(options_.seed, id, kSampleSalt));
  const int n = static_cast<int>(turns_.size());
  for (int i = 0; i < k; ++i) {
    const int j = i + static_cast<int>(rng.Below(static_cast<uint32_t>(n - i)));
    std::swap(turns_[i], turns_[j]);
  }
  turns_.resize(k);
  std::sort(turns_.begin(), turns_.end());
}

void RowBuilder::ResetGame(const rules::GameRecord& record,
                           const rules::Rules& rules) {
  if (game_.width() != record.width || game_.height() != record.height) {
    game_ = rules::Game(record.width, record.height, rules);
  } else {
    game_.Reset(rules);
  }
}

absl::StatusOr<GameRowsInfo> RowBuilder::AddGame(const TrainingGame& tg,
                                                 RowBatch* batch) {
  const rules::GameRecord& record = tg.record;
  if (std::max(record.width, record.height) > options_.pos_len) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", store::GameIdText(tg.id), ": a ", record.width, "x",
        record.height, " board does not fit in pos_len ", options_.pos_len));
  }
  // Pass 1: the whole game, for the final position and the moves the
  // rules accept.
  absl::StatusOr<rules::ReplayReport> report =
      rules::ReplayInto(record, tg.rules, {}, &game_);
  if (!report.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", store::GameIdText(tg.id),
                     " does not replay: ", report.status().message()));
  }
  GameFacts facts;
  facts.game = &tg;
  facts.played = report->played;
  facts.white_komi =
      tg.rules.komi + rules::HandicapPoints(tg.rules, report->handicap);
  const rules::GameResult& counted = report->rules_result;
  facts.ownership = tg.result.reason == rules::EndReason::kScore &&
                    counted.reason == rules::EndReason::kScore &&
                    counted.winner == tg.result.winner &&
                    counted.margin == tg.result.margin;
  if (facts.ownership) ComputeArea(game_.board(), &final_area_);

  GameRowsInfo info;
  info.positions = report->played;
  info.ownership = facts.ownership;
  info.void_result = tg.result.winner == rules::Winner::kNone;
  SampleTurns(tg.id, report->played);
  if (turns_.empty()) return info;
  facts.row_weight = options_.row_weight;
  if (options_.weight_by_length) {
    facts.row_weight = static_cast<float>(options_.row_weight * 100.0 /
                                          static_cast<double>(turns_.size()));
  } else if (options_.weight_by_recency && tg.order_size > 0) {
    facts.row_weight = static_cast<float>(
        options_.row_weight * RecencyWeight(tg.order_rank, tg.order_size));
  }

  // Pass 2: move by move, a row before each sampled turn. Setups apply
  // as in rules::ReplayInto(); the move history shown starts after the
  // last setup.
  ResetGame(record, tg.rules);
  size_t next_setup = 0;
  int history_start = 0;
  size_t next_turn = 0;
  for (int k = 0; k < report->played && next_turn < turns_.size(); ++k) {
    while (next_setup < record.setup.size() &&
           record.setup[next_setup].before_move <= k) {
      const rules::SetupStep& step = record.setup[next_setup];
      const bool root_handicap =
          step.before_move == 0 && record.handicap >= 2 && next_setup == 0;
      if (absl::Status s = ApplyStep(step, root_handicap, &game_); !s.ok()) {
        return s;  // pass 1 applied the same step
      }
      history_start = k;
      ++next_setup;
    }
    if (turns_[next_turn] == k) {
      AddRow(facts, k, history_start, batch);
      ++info.rows;
      ++next_turn;
    }
    // The ladder planes read the two positions before a row's.
    if (options_.ladder_planes && next_turn < turns_.size() &&
        k + 2 >= turns_[next_turn]) {
      before2_ = before1_;
      SnapshotCells(game_.board(), &before1_);
    }
    const Move& m = record.moves[k];
    if (!game_.TryPlay(m.color, m.point).legal()) break;
  }
  return info;
}

// One row being made: where it goes, its symmetry and whose point of view
// it takes. What the steps of AddRow() share. The steps that loop over the
// board take it by value: the row's bytes are written through char
// pointers, which may alias any memory, so fields read through a
// reference would be loaded again after every store; a copy of its own
// stays in registers (as the locals of one function did).
struct RowBuilder::RowContext {
  const GameFacts& facts;
  const TrainingGame& game;
  // The batch's (a copy: see above).
  RowShape shape;
  RowBatch* batch;
  // The row's index in *batch.
  int r;
  // Moves played before the position; the row's move target is
  // game.record.moves[turn].
  int turn;
  // The row's symmetry (SymmetryOf()).
  int symmetry;
  // The board's size.
  int width;
  int height;
  // The side to move (the row's point of view) and its opponent.
  Color pla;
  Color opp;
  // White's komi with the handicap compensation, from pla's side.
  double self_komi;
  // The row's packed input channels, channel_bytes each.
  uint8_t* packed;
  int channel_bytes;

  // Row index of a board point after the row's symmetry.
  int Index(Point p) const {
    int x = rules::PointX(p);
    int y = rules::PointY(p);
    TransformXY(symmetry, width, height, &x, &y);
    return y * shape.pos_len + x;
  }
  // Policy index of a move: Index(), or the pass entry after the board.
  int MoveIndex(Point p) const {
    return p == rules::kPass ? shape.area() : Index(p);
  }
  // Packed input channel c of the row.
  uint8_t* Channel(int c) const { return packed + c * channel_bytes; }
};

namespace {

// The colour that won `result`; kEmpty for a draw or no winner.
Color WinnerColor(const rules::GameResult& result) {
  return result.winner == rules::Winner::kBlack   ? Color::kBlack
         : result.winner == rules::Winner::kWhite ? Color::kWhite
                                                  : Color::kEmpty;
}

}  // namespace

float KomiParityWave(float self_komi, int board_area) {
  // As KataGo's nninputs.cpp (fillRowV7, area scoring): the distance of
  // the komi above the nearest komi below it that can draw (even komi on
  // an even area, odd on an odd one), folded into a triangle wave.
  const bool drawable_even = board_area % 2 == 0;
  const float floor_komi =
      drawable_even ? std::floor(self_komi / 2.0f) * 2.0f
                    : std::floor((self_komi - 1.0f) / 2.0f) * 2.0f + 1.0f;
  const float delta = std::clamp(self_komi - floor_komi, 0.0f, 2.0f);
  if (delta < 0.5f) return delta;
  if (delta < 1.5f) return 1.0f - delta;
  return delta - 2.0f;
}

namespace {

// The score target from `pla`'s side: the margin of a game won on the
// count (negative when pla lost), else 0.
double ScoreTarget(const rules::GameResult& result, Color pla) {
  const Color winner = WinnerColor(result);
  if (result.winner == rules::Winner::kDraw || winner == Color::kEmpty) {
    return 0;
  }
  if (result.reason == rules::EndReason::kScore && result.margin >= 0) {
    return winner == pla ? result.margin : -result.margin;
  }
  return 0;
}

}  // namespace

void RowBuilder::AddRow(const GameFacts& facts, int turn, int history_start,
                        RowBatch* batch) {
  const TrainingGame& tg = *facts.game;
  const rules::Board& board = game_.board();
  const Color pla = tg.record.moves[turn].color;
  const int symmetry = SymmetryOf(tg.id, turn);
  const int r = batch->AddRow();
  const RowContext row{
      .facts = facts,
      .game = tg,
      .shape = batch->shape(),
      .batch = batch,
      .r = r,
      .turn = turn,
      .symmetry = symmetry,
      .width = board.width(),
      .height = board.height(),
      .pla = pla,
      .opp = rules::Opponent(pla),
      .self_komi = pla == Color::kWhite ? facts.white_komi : -facts.white_komi,
      .packed = batch->packed_inputs(r),
      .channel_bytes = batch->shape().packed_channel_bytes(),
  };
  AddBoardPlanes(row);
  const int history_shown = AddLastMoves(row, history_start);
  if (options_.ladder_planes) AddLadderPlanes(row, history_shown);
  AddGlobalInputs(row, history_start);
  const bool has_next = AddPolicyTargets(row);
  const double score = ScoreTarget(tg.result, pla);
  AddGlobalTargets(row, has_next, history_shown, score);
  AddFinalTargets(row, score);
  AddRowIds(row);
}

void RowBuilder::AddBoardPlanes(RowContext row) {
  const rules::Board& board = game_.board();
  std::array<uint8_t, rules::kNumCells> libs;
  ComputeLibertiesCapped(board, &libs);
  ComputeArea(board, &area_);
  for (int y = 0; y < row.height; ++y) {
    for (int x = 0; x < row.width; ++x) {
      const Point p = rules::MakePoint(x, y);
      const int i = row.Index(p);
      SetBit(row.Channel(bin::kOnBoard), i);
      const Color c = board.at(p);
      if (c == row.pla || c == row.opp) {
        SetBit(row.Channel(c == row.pla ? bin::kOwnStone : bin::kOpponentStone),
               i);
        // KataGo's planes 3-5: exactly 1, 2 or 3 liberties.
        if (libs[p] > 0 && libs[p] <= 3) {
          SetBit(row.Channel(bin::kLiberties1 + libs[p] - 1), i);
        }
      } else {
        const rules::IllegalReason why = game_.Check(row.pla, p).reason;
        if (why == rules::IllegalReason::kKo ||
            why == rules::IllegalReason::kSuperko ||
            why == rules::IllegalReason::kCycle) {
          SetBit(row.Channel(bin::kKoBan), i);
        }
      }
      if (area_[p] == row.pla) SetBit(row.Channel(bin::kOwnArea), i);
      if (area_[p] == row.opp) SetBit(row.Channel(bin::kOpponentArea), i);
    }
  }
}

int RowBuilder::AddLastMoves(RowContext row, int history_start) {
  float* gin = row.batch->global_inputs(row.r);
  const std::vector<Move>& history = game_.moves();
  const int n = static_cast<int>(history.size());
  int shown = 0;
  for (int i = 0; i < bin::kNumLastMoves; ++i) {
    const int j = n - 1 - i;
    if (j < history_start) break;
    if (history[j].color != (i % 2 == 0 ? row.opp : row.pla)) break;
    if (history[j].point == rules::kPass) {
      gin[gin::kPass1 + i] = 1.0f;
    } else {
      SetBit(row.Channel(bin::kLastMove1 + i), row.Index(history[j].point));
    }
    shown = i + 1;
  }
  return shown;
}

void RowBuilder::AddLadderPlanes(RowContext row, int history_shown) {
  SnapshotCells(game_.board(), &now_);
  ladders_.Read(now_, row.width, row.height, row.opp, &found_);
  for (Point p : found_.stones) {
    SetBit(row.Channel(bin::kLadderedNow), row.Index(p));
  }
  for (Point p : found_.working_moves) {
    SetBit(row.Channel(bin::kLadderWorkingMoves), row.Index(p));
  }
  if (history_shown >= 1) {
    ladders_.Read(before1_, row.width, row.height, row.opp, &found_);
  }
  for (Point p : found_.stones) {
    SetBit(row.Channel(bin::kLadderedBefore1), row.Index(p));
  }
  if (history_shown >= 2) {
    ladders_.Read(before2_, row.width, row.height, row.opp, &found_);
  }
  for (Point p : found_.stones) {
    SetBit(row.Channel(bin::kLadderedBefore2), row.Index(p));
  }
}

void RowBuilder::AddGlobalInputs(const RowContext& row,
                                 int history_start) const {
  const rules::Rules& rules = row.game.rules;
  float* gin = row.batch->global_inputs(row.r);
  gin[gin::kSelfKomi] = static_cast<float>(row.self_komi / 20.0);
  gin[gin::kKomiParityWave] =
      KomiParityWave(static_cast<float>(row.self_komi), row.width * row.height);
  if (rules.ko == rules::KoRule::kPositional) {
    gin[gin::kSuperko] = 1.0f;
    gin[gin::kSuperkoKind] = 0.5f;
  } else if (rules.ko == rules::KoRule::kSituational) {
    gin[gin::kSuperko] = 1.0f;
    gin[gin::kSuperkoKind] = -0.5f;
  }
  if (rules.multi_stone_suicide) gin[gin::kSuicide] = 1.0f;
  const std::vector<Move>& history = game_.moves();
  const int n = static_cast<int>(history.size());
  if (n > history_start && history[n - 1].point == rules::kPass) {
    gin[gin::kPassEndsGame] = 1.0f;
  }

  float* qin = row.batch->qipu_inputs(row.r);
  qin[qin::kHandicapStones] = static_cast<float>(game_.handicap());
  qin[qin::kMovesPlayed] = static_cast<float>(row.turn);
  qin[qin::kCycleRule] = rules.cycle != rules::CycleRule::kNone ? 1.0f : 0.0f;
  qin[qin::kCycleDraw] = rules.cycle == rules::CycleRule::kDraw ? 1.0f : 0.0f;
  qin[qin::kDameHalf] = rules.dame == rules::DameRule::kHalf ? 1.0f : 0.0f;
  qin[qin::kSuicide] = rules.multi_stone_suicide ? 1.0f : 0.0f;
}

bool RowBuilder::AddPolicyTargets(const RowContext& row) const {
  const TrainingGame& tg = row.game;
  const int turn = row.turn;
  int16_t* policy = row.batch->policy_targets(row.r);
  const auto search = std::lower_bound(
      tg.searches.begin(), tg.searches.end(), static_cast<uint32_t>(turn),
      [](const wire::MoveSearch& s, uint32_t t) { return s.move < t; });
  if (search != tg.searches.end() &&
      search->move == static_cast<uint32_t>(turn)) {
    // The search's root visits (KataGo stores visit counts too), capped to
    // the int16 range.
    for (const wire::PointVisits& v : search->visits) {
      policy[row.MoveIndex(v.point)] = static_cast<int16_t>(
          std::min<uint32_t>(v.visits, std::numeric_limits<int16_t>::max()));
    }
  } else {
    policy[row.MoveIndex(tg.record.moves[turn].point)] = 1;
  }
  int16_t* policy1 = policy + row.shape.policy_size();
  const bool has_next = turn + 1 < row.facts.played;
  if (has_next) {
    policy1[row.MoveIndex(tg.record.moves[turn + 1].point)] = 1;
  } else {
    std::fill(policy1, policy1 + row.shape.policy_size(), int16_t{1});
  }
  return has_next;
}

void RowBuilder::AddGlobalTargets(const RowContext& row, bool has_next,
                                  int history_shown, double score) const {
  float* gt = row.batch->global_targets(row.r);
  const rules::GameResult& result = row.game.result;
  const Color winner = WinnerColor(result);
  if (result.winner == rules::Winner::kDraw) {
    gt[gtg::kWin] = 0.5f;
    gt[gtg::kLoss] = 0.5f;
  } else if (winner == Color::kEmpty) {
    gt[gtg::kNoResult] = 1.0f;
  } else {
    gt[winner == row.pla ? gtg::kWin : gtg::kLoss] = 1.0f;
  }
  gt[gtg::kScore] = static_cast<float>(score);
  // TD targets: no search stands behind a qipu row's turns, so the only
  // value sequence known is the outcome itself; KataGo's TD formula over a
  // sequence that is the outcome at every turn gives the outcome in every
  // group. Their value weight (1 - C24) is 0: KataGo's "unknown". The TD
  // score heads are weighted by C27 (ownership) in KataGo's loss, so their
  // targets must be the true final score where C27 is 1 -- never 0 -- and
  // AddFinalTargets() writes it (here: the placeholder 0 with C27 = 0).
  for (int g = 0; g < gtg::kNumTdGroups; ++g) {
    float* td = gt + gtg::kTdTargets + 4 * g;
    td[0] = gt[gtg::kWin];
    td[1] = gt[gtg::kLoss];
    td[2] = gt[gtg::kNoResult];
  }
  gt[gtg::kTdWeightComplement] = 1.0f;
  gt[gtg::kRowWeight] = row.facts.row_weight;
  gt[gtg::kPolicyWeight] = 1.0f;
  gt[gtg::kNextPolicyWeight] = has_next ? 1.0f : 0.0f;
  // History masks: 1 for the last moves the row shows (KataGo's trainer
  // drops the history planes whose mask is 0).
  for (int i = 0; i < history_shown; ++i) gt[gtg::kHistoryMask1 + i] = 1;
  const uint64_t h0 = row.game.id.hi;
  const uint64_t h1 = row.game.id.lo;
  gt[gtg::kGameHash + 0] = static_cast<float>(h0 & 0x3FFFFF);
  gt[gtg::kGameHash + 1] = static_cast<float>((h0 >> 22) & 0x3FFFFF);
  gt[gtg::kGameHash + 2] = static_cast<float>((h0 >> 44) & 0xFFFFF);
  gt[gtg::kGameHash + 3] = static_cast<float>(h1 & 0x3FFFFF);
  gt[gtg::kGameHash + 4] = static_cast<float>((h1 >> 22) & 0x3FFFFF);
  gt[gtg::kGameHash + 5] = static_cast<float>((h1 >> 44) & 0xFFFFF);
  gt[gtg::kSelfKomi] = static_cast<float>(row.self_komi);
  gt[gtg::kAreaScoring] = 1.0f;
  gt[gtg::kTurn] = static_cast<float>(row.turn);
  gt[gtg::kHitMoveCap] =
      result.reason == rules::EndReason::kMoveLimit ? 1.0f : 0.0f;
  gt[gtg::kHandicapStones] = static_cast<float>(game_.handicap());
  gt[gtg::kMode] = game_.handicap() > 0 ? kModeHandicap : 0.0f;
  const bool finished = result.reason != rules::EndReason::kNotOver &&
                        result.reason != rules::EndReason::kUnknown &&
                        result.reason != rules::EndReason::kMoveLimit;
  gt[gtg::kGameFinished] = finished ? 1.0f : 0.0f;
  gt[gtg::kDataVersion] = kGlobalTargetsVersion;
}

void RowBuilder::AddFinalTargets(RowContext row, double score) const {
  const RowShape shape = row.shape;
  int8_t* distr = row.batch->score_distribution(row.r);
  const int bins = shape.score_bins();
  const int mid = shape.area() + kExtraScoreRadius;
  if (!row.facts.ownership) {
    // KataGo's placeholder when the score is unknown: it still sums to 100.
    distr[mid - 1] = 50;
    distr[mid] = 50;
    return;
  }
  float* gt = row.batch->global_targets(row.r);
  gt[gtg::kFinalScore] = static_cast<float>(score);
  for (int g = 0; g < gtg::kNumTdGroups; ++g) {
    gt[gtg::kTdTargets + 4 * g + 3] = static_cast<float>(score);
  }
  gt[gtg::kOwnershipWeight] = 1.0f;
  gt[gtg::kAreaWeight] = 1.0f;
  int8_t* value = row.batch->value_targets(row.r);
  int8_t* own = value + vtg::kOwnership * shape.area();
  int8_t* scoring = value + vtg::kAreaScoring * shape.area();
  for (int y = 0; y < row.height; ++y) {
    for (int x = 0; x < row.width; ++x) {
      const Point p = rules::MakePoint(x, y);
      const Color c = final_area_[p];
      if (c != row.pla && c != row.opp) continue;
      const int i = row.Index(p);
      own[i] = c == row.pla ? 1 : -1;
      scoring[i] = c == row.pla ? 120 : -120;
    }
  }
  // Bin b stands for the score b - mid + 0.5; a score between two bin
  // centres is split between them.
  const double at = score + mid - 0.5;
  const int lower = static_cast<int>(std::floor(at));
  if (lower < 0) {
    distr[0] = 100;
  } else if (lower >= bins - 1) {
    distr[bins - 1] = 100;
  } else {
    const int upper_share = static_cast<int>(std::lround((at - lower) * 100.0));
    distr[lower] = static_cast<int8_t>(100 - upper_share);
    distr[lower + 1] = static_cast<int8_t>(upper_share);
  }
}

void RowBuilder::AddRowIds(const RowContext& row) {
  uint64_t* ids = row.batch->row_ids(row.r);
  ids[rid::kKind] = static_cast<uint64_t>(row.game.id.kind);
  ids[rid::kHi] = row.game.id.hi;
  ids[rid::kLo] = row.game.id.lo;
  ids[rid::kTurn] = static_cast<uint64_t>(row.turn);
  ids[rid::kSymmetry] = static_cast<uint64_t>(row.symmetry);
}

}  // namespace qipu::train
