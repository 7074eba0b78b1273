#include "engine/training.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/quote.h"
#include "base/status_macros.h"
#include "engine/exporter.h"
#include "engine/queries.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "store/keys.h"
#include "train/game_order.h"
#include "train/npz_writer.h"
#include "train/row_builder.h"

namespace qipu::engine {
namespace {

// Largest int a uint32 request field may hold for an int option.
constexpr uint32_t kMaxIntOption = 1u << 30;

absl::Status Bad(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

bool IsVoid(const qipu::v1::Game& game) {
  const qipu::v1::Winner w = game.result().winner();
  return w == qipu::v1::WINNER_NONE || w == qipu::v1::WINNER_UNSPECIFIED;
}

bool HasCycles(const qipu::v1::Game& game) {
  return game.cycles_size() > 0 || game.voided_cycles_size() > 0;
}

using train::GameFilter;

// What one pass over a selection found.
struct SelectionScan {
  // The games that fit in pos_len, with their times (when asked for).
  std::vector<train::OrderedGame> fitting;
  // Games larger than pos_len, and the largest such board.
  uint64_t oversize = 0;
  uint32_t oversize_width = 0;
  uint32_t oversize_height = 0;
};

// Reads the games `selected` takes: counts those larger than pos_len and,
// with `collect`, lists the others with their times. Keys or games that
// do not decode are skipped (the stream skips and counts them).
absl::StatusOr<SelectionScan> ScanSelection(const store::Store& store,
                                            const GameFilter& selected,
                                            uint32_t pos_len, bool collect) {
  SelectionScan out;
  store::ScanOptions options;
  options.fill_cache = false;
  store::Cursor it = store.Scan(store::Records::kGames, options);
  qipu::v1::Game game;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const std::optional<store::GameId> id = store::DecodeGameKey(it.key());
    const absl::string_view v = it.value();
    if (!id.has_value() ||
        !game.ParseFromArray(v.data(), static_cast<int>(v.size())) ||
        !selected(*id, game)) {
      continue;
    }
    if (game.width() > pos_len || game.height() > pos_len) {
      ++out.oversize;
      if (game.width() * game.height() >
          out.oversize_width * out.oversize_height) {
        out.oversize_width = game.width();
        out.oversize_height = game.height();
      }
      continue;
    }
    if (collect) out.fitting.push_back({train::GamePlayedMicros(game), *id});
  }
  QIPU_RETURN_IF_ERROR(it.status());
  return out;
}

}  // namespace

uint64_t TrainingStreamKey(const qipu::v1::TrainingRequest& req) {
  qipu::v1::TrainingRequest k;
  *k.mutable_filter() = req.filter();
  k.set_cycles(req.cycles());
  k.set_drop_void(req.drop_void());
  k.set_pos_len(req.pos_len() == 0 ? train::kDefaultPosLen : req.pos_len());
  k.set_symmetries(req.symmetries() == 0 ? 1 : req.symmetries());
  k.set_seed(req.seed());
  k.set_positions_per_game(req.positions_per_game());
  k.set_min_move(req.min_move());
  k.set_shuffle_window(req.shuffle_window() <= 1 ? 0 : req.shuffle_window());
  k.set_weight_by(req.weight_by() == "length" || req.weight_by() == "recency"
                      ? req.weight_by()
                      : "");
  if (req.order() == qipu::v1::TRAINING_ORDER_DATE) k.set_order(req.order());
  // Defaults stay unset, so that the keys of earlier requests still hold.
  k.set_ladder_planes(req.ladder_planes());
  if (req.row_weight() != 0.0f && req.row_weight() != 1.0f) {
    k.set_row_weight(req.row_weight());
  }
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream raw(&bytes);
    google::protobuf::io::CodedOutputStream out(&raw);
    out.SetSerializationDeterministic(true);
    k.SerializeToCodedStream(&out);
  }
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64
  for (const char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ULL;
  }
  return train::Mix(h);
}

absl::StatusOr<TrainingPlan> PlanTraining(
    const store::Store& store, const qipu::v1::TrainingRequest& req) {
  absl::StatusOr<Filter> filter = Filter::Compile(req.filter());
  // Its errors name the field ("filter.rules: ...").
  if (!filter.ok()) return filter.status();
  if (!qipu::v1::CycleSelection_IsValid(req.cycles())) {
    return Bad("cycles", absl::StrCat("unknown selection ", req.cycles(),
                                      " (any, with or without)"));
  }
  for (const auto& [name, v] :
       {std::pair<const char*, uint32_t>{"pos_len", req.pos_len()},
        {"symmetries", req.symmetries()},
        {"positions_per_game", req.positions_per_game()},
        {"min_move", req.min_move()},
        {"batch_size", req.batch_size()},
        {"shuffle_window", req.shuffle_window()}}) {
    if (v > kMaxIntOption) return Bad(name, absl::StrCat(v, " is too large"));
  }
  TrainingPlan plan;
  train::StreamOptions& o = plan.options;
  o.rows.pos_len = req.pos_len() == 0 ? train::kDefaultPosLen
                                      : static_cast<int>(req.pos_len());
  o.rows.symmetries =
      req.symmetries() == 0 ? 1 : static_cast<int>(req.symmetries());
  o.rows.seed = req.seed();
  o.rows.positions_per_game = static_cast<int>(req.positions_per_game());
  o.rows.min_move = static_cast<int>(req.min_move());
  if (req.weight_by() != "" && req.weight_by() != "constant" &&
      req.weight_by() != "length" && req.weight_by() != "recency") {
    return Bad("weight_by", absl::StrCat("unknown weighting ",
                                         base::QuoteInput(req.weight_by()),
                                         " (constant, length or recency)"));
  }
  if (!qipu::v1::TrainingOrder_IsValid(req.order())) {
    return Bad("order",
               absl::StrCat("unknown order ", req.order(), " (key or date)"));
  }
  const bool by_date = req.order() == qipu::v1::TRAINING_ORDER_DATE;
  if (req.weight_by() == "recency" && !by_date) {
    return Bad("weight_by",
               "recency weights follow the games' own order: ask for order "
               "date (--order date)");
  }
  o.rows.weight_by_length = req.weight_by() == "length";
  o.rows.weight_by_recency = req.weight_by() == "recency";
  o.rows.ladder_planes = req.ladder_planes();
  o.rows.row_weight = req.row_weight() == 0.0f ? 1.0f : req.row_weight();
  o.batch_size = static_cast<int>(req.batch_size());
  o.shuffle_window = static_cast<int>(req.shuffle_window());
  o.max_rows = req.max_rows();
  QIPU_RETURN_IF_ERROR(train::ValidateStreamOptions(o));
  const uint32_t pos_len = static_cast<uint32_t>(o.rows.pos_len);
  const uint32_t filter_width = filter->width();
  const uint32_t filter_height = filter->height();
  if (filter->width() > pos_len || filter->height() > pos_len) {
    return Bad("pos_len", absl::StrCat(pos_len, " is smaller than the ",
                                       filter->width(), "x", filter->height(),
                                       " board the filter selects"));
  }
  const int64_t batch_bytes =
      int64_t{o.batch_size} * train::RowShape{o.rows.pos_len}.row_bytes();
  if (batch_bytes > kMaxBatchBytes) {
    return Bad("batch_size",
               absl::StrCat(
                   o.batch_size, " rows at pos_len ", o.rows.pos_len, " make ",
                   batch_bytes >> 20, " MiB messages; at most ",
                   kMaxBatchBytes / train::RowShape{o.rows.pos_len}.row_bytes(),
                   " rows"));
  }
  plan.stream_key = TrainingStreamKey(req);
  const qipu::v1::CycleSelection cycles = req.cycles();
  const bool drop_void = req.drop_void();
  // The selection with boards of every size.
  GameFilter selected = [f = *std::move(filter), cycles, drop_void](
                            const store::GameId&, const qipu::v1::Game& game) {
    if (drop_void && IsVoid(game)) return false;
    if (cycles == qipu::v1::CYCLE_SELECTION_WITH && !HasCycles(game)) {
      return false;
    }
    if (cycles == qipu::v1::CYCLE_SELECTION_WITHOUT && HasCycles(game)) {
      return false;
    }
    return f.MatchesDay(GameDay(game)) && f.MatchesConfig(GameDimensions(game));
  };
  const bool size_fixed = filter_width != 0 && filter_height != 0;
  if (by_date || !size_fixed) {
    QIPU_ASSIGN_OR_RETURN(const SelectionScan scan,
                          ScanSelection(store, selected, pos_len, by_date));
    if (scan.oversize > 0 && !req.skip_oversize()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pos_len ", pos_len, " is smaller than the ", scan.oversize_width,
          "x", scan.oversize_height, " boards of ", scan.oversize, " of the ",
          scan.oversize + scan.fitting.size(), " selected games; pass pos_len ",
          std::max(scan.oversize_width, scan.oversize_height),
          ", select one size, or skip_oversize "
          "(--skip-oversize) to leave them out"));
    }
    plan.games_oversize = scan.oversize;
    if (by_date) {
      o.order =
          std::make_shared<const train::GameOrder>(std::move(scan.fitting));
    }
  }
  plan.filter = [selected = std::move(selected), pos_len](
                    const store::GameId& id, const qipu::v1::Game& game) {
    if (game.width() > pos_len || game.height() > pos_len) return false;
    return selected(id, game);
  };
  if (!req.cursor().empty()) {
    QIPU_ASSIGN_OR_RETURN(
        plan.start, train::DecodeStreamCursor(req.cursor(), plan.stream_key));
  } else if (req.recent_games() > 0 && o.order != nullptr) {
    const uint64_t n = req.recent_games();
    if (n < o.order->size()) {
      plan.start.done_through = o.order->at(o.order->size() - n - 1).id;
    }
  } else if (req.recent_games() > 0) {
    QIPU_ASSIGN_OR_RETURN(
        plan.start.done_through,
        train::RecentWindowStart(store, plan.filter, req.recent_games()));
  }
  return plan;
}

}  // namespace qipu::engine
