// QueryEngine::Pattern: Kombilo-style pattern search. The request's pattern
// is compiled (rules/pattern.h) into its distinct images and the offsets
// each may stand at; one scan of the patterns column family tests every
// game's entry (store/pattern_index.h) against them, and each game it
// admits is read, checked against the filter and replayed position by
// position until the pattern stands (PatternSearch::FindOnBoard over the
// offsets the entry admitted). All matches are found on every call (the
// outcomes and continuations cover them all); the page is cut from them in
// game-id order, the token naming the last game returned.
#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"
#include "base/work_pool.h"
#include "engine/exporter.h"
#include "engine/queries.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/pattern.h"
#include "rules/result.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/pattern_index.h"
#include "store/position_value.h"

namespace qipu::engine {
namespace {

// The request's placement; InvalidArgument for a value this qipu does not
// know.
absl::StatusOr<rules::PatternPlacement> PlacementOf(
    qipu::v1::PatternPlacement p) {
  switch (p) {
    case qipu::v1::PATTERN_PLACEMENT_UNSPECIFIED:
    case qipu::v1::PATTERN_PLACEMENT_FIXED:
      return rules::PatternPlacement::kFixed;
    case qipu::v1::PATTERN_PLACEMENT_CORNER:
      return rules::PatternPlacement::kCorner;
    case qipu::v1::PATTERN_PLACEMENT_SIDE:
      return rules::PatternPlacement::kSide;
    case qipu::v1::PATTERN_PLACEMENT_ANYWHERE:
      return rules::PatternPlacement::kAnywhere;
    default:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("placement: unknown value ", static_cast<int>(p)));
}

// Compiles the request's pattern, placement and anchor for a w x h board.
absl::StatusOr<rules::PatternSearch> CompilePatternRequest(
    const qipu::v1::PatternRequest& req, int w, int h) {
  absl::StatusOr<rules::Pattern> pattern = rules::ParsePattern(req.pattern());
  if (!pattern.ok()) return pattern.status();
  if (pattern->width > w || pattern->height > h) {
    return absl::InvalidArgumentError(
        absl::StrCat("pattern: ", pattern->width, "x", pattern->height,
                     " is larger than the ", w, "x", h, " board"));
  }
  absl::StatusOr<rules::PatternPlacement> placement =
      PlacementOf(req.placement());
  if (!placement.ok()) return placement.status();
  int ax = 0;
  int ay = 0;
  if (!req.anchor().empty()) {
    absl::StatusOr<rules::Point> p = rules::ParseGtpPoint(req.anchor(), w, h);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("anchor: ", p.status().message()));
    }
    if (*p == rules::kPass || *p == rules::kResign) {
      return absl::InvalidArgumentError(absl::StrCat(
          "anchor: ", base::QuoteInput(req.anchor()), " is not a point"));
    }
    ax = rules::PointX(*p);
    ay = rules::PointY(*p);
    const bool corner = *placement == rules::PatternPlacement::kCorner;
    const bool side = *placement == rules::PatternPlacement::kSide;
    if (!corner &&
        (ax + pattern->width > w || (!side && ay + pattern->height > h))) {
      return absl::InvalidArgumentError(
          absl::StrCat("anchor: the ", pattern->width, "x", pattern->height,
                       " pattern with its top-left cell at ", req.anchor(),
                       " does not fit on the ", w, "x", h, " board"));
    }
  }
  return rules::PatternSearch::Compile(*pattern, *placement, w, h, ax, ay,
                                       req.colour_swap());
}

// One game where the pattern appeared.
struct PatternHit {
  std::string key;
  uint32_t move_number = 0;
  // PatternContinuation.move, or empty when the record ends there.
  std::string next;
  rules::Color next_color = rules::Color::kEmpty;
  std::string result;
};

// A continuation summed over games.
struct ContinuationTotal {
  std::string move;
  rules::Color color = rules::Color::kEmpty;
  store::Outcome outcome;
  // Dense index of the move in the caller's frame; pass, then tenuki, last.
  int order = 0;
};

void PatternOutcome(const store::Outcome& from, qipu::v1::Outcomes* to) {
  to->set_games(from.games);
  to->set_black_wins(from.black);
  to->set_white_wins(from.white);
  to->set_draws(from.draws);
  to->set_void_(from.voids);
}

std::string ResultTextOf(const qipu::v1::Game& game) {
  if (!game.meta().record_result().empty()) {
    return game.meta().record_result();
  }
  absl::StatusOr<rules::GameResult> r = wire::ResultFromProto(game.result());
  if (!r.ok()) return "?";
  return rules::ResultToSgf(*r);
}

// Entries read, then tested and replayed in parallel, per chunk.
constexpr size_t kPatternChunk = 2048;

// Helper threads of a pattern query: one fewer than the cores (the caller
// works too), at most 7.
int PatternHelperThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores - 1, 0, 7);
}

// One entry of the patterns CF and what became of it.
struct PatternSlot {
  std::string key;
  std::string value;
  // Outcome of ProcessPatternEntry():
  absl::Status status;
  bool indexed = false;  // an entry of the board size
  bool scanned = false;  // admitted, of the filter, replayed
  bool matched = false;
  PatternHit hit;
  rules::Winner won = rules::Winner::kNone;
  // ContinuationTotal::order of hit.next.
  int order = 0;
};

// Per-thread scratch of ProcessPatternEntry().
struct PatternScratch {
  store::PatternEntry entry;
  store::PositionWalk walk;
  std::vector<rules::BoardRows> allowed;
};

// Tests slot->value against `search`, and when it admits the pattern,
// reads the game, checks it against `filter` and replays it to the first
// position where the pattern stands. Fills the slot's outcome fields.
void ProcessPatternEntry(const store::Store& st, const Filter& filter,
                         const rules::PatternSearch& search,
                         uint32_t rows_needed, int w, int h,
                         PatternScratch* scratch, PatternSlot* slot) {
  slot->status = absl::OkStatus();
  slot->indexed = slot->scanned = slot->matched = false;
  slot->hit = PatternHit();
  if (!store::DecodePatternEntry(slot->value, &scratch->entry, rows_needed)) {
    return;
  }
  if (scratch->entry.width != w || scratch->entry.height != h) return;
  slot->indexed = true;
  const std::vector<rules::PatternVariant>& variants = search.variants();
  scratch->allowed.resize(variants.size());
  const uint32_t segments =
      store::PatternCandidates(scratch->entry, search, scratch->allowed.data());
  if (segments == 0) return;
  absl::StatusOr<std::optional<std::string>> bytes =
      st.Get(store::Records::kGames, slot->key);
  if (!bytes.ok()) {
    slot->status = bytes.status();
    return;
  }
  if (!bytes->has_value()) return;  // an entry whose game is gone
  qipu::v1::Game game;
  if (!game.ParseFromString(**bytes)) {
    const std::optional<store::GameId> id = store::DecodeGameKey(slot->key);
    slot->status = absl::DataLossError(absl::StrCat(
        "pattern: stored game ",
        id.has_value() ? store::GameIdText(*id) : "(bad key)", " is damaged"));
    return;
  }
  if (!filter.MatchesDay(GameDay(game)) ||
      !filter.MatchesConfig(GameDimensions(game))) {
    return;
  }
  absl::StatusOr<rules::GameRecord> record = wire::GameToRecord(game);
  if (!record.ok()) return;
  slot->scanned = true;

  store::PositionWalk& walk = scratch->walk;
  walk.Start(*record);
  rules::PatternSearch::Match m;
  for (;;) {
    // Only positions of segments that admit the pattern can hold it.
    if ((segments >> store::PatternSegmentOf(walk.ply())) & 1) {
      m = search.FindOnBoard(walk.black_rows(), walk.white_rows(),
                             scratch->allowed.data());
    }
    if (m.found() || walk.AtEnd()) break;
    walk.Next();
  }
  if (!m.found()) return;

  PatternHit& hit = slot->hit;
  hit.key = slot->key;
  hit.move_number = static_cast<uint32_t>(walk.ply());
  hit.result = ResultTextOf(game);
  const rules::PatternVariant& v = variants[m.variant];
  slot->order = w * h + 1;
  if (!walk.AtEnd()) {
    const rules::Move next = walk.next_move();
    hit.next_color = v.swapped ? rules::Opponent(next.color) : next.color;
    if (next.point == rules::kPass) {
      hit.next = "pass";
      slot->order = w * h;
    } else {
      const int x = rules::PointX(next.point) - m.ox;
      const int y = rules::PointY(next.point) - m.oy;
      if (x >= 0 && y >= 0 && x < v.width && y < v.height) {
        const rules::Point mine = search.ToCaller(v, m.ox, m.oy, next.point);
        hit.next = rules::GtpPoint(mine, h);
        slot->order = rules::DenseIndex(mine, w);
      } else {
        hit.next = "tenuki";
      }
    }
  }
  absl::StatusOr<rules::Winner> winner =
      wire::WinnerFromProto(game.result().winner());
  slot->won = winner.ok() ? *winner : rules::Winner::kNone;
  slot->matched = true;
}

}  // namespace

absl::StatusOr<qipu::v1::PatternResponse> QueryEngine::Pattern(
    const qipu::v1::PatternRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  const int w = filter->width() != 0 ? static_cast<int>(filter->width())
                                     : kDefaultOpeningsSize;
  const int h = filter->height() != 0 ? static_cast<int>(filter->height())
                                      : kDefaultOpeningsSize;
  if (absl::Status s = rules::ValidateSize(w, h); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter: board size: ", s.message()));
  }
  if (req.page_size() > kMaxPatternPageSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "page_size: ", req.page_size(), " exceeds ", kMaxPatternPageSize));
  }
  const uint32_t page_size =
      req.page_size() == 0 ? kDefaultPatternPageSize : req.page_size();
  std::string after;  // game key of the page token
  if (!req.page_token().empty()) {
    absl::StatusOr<store::GameId> id = store::ParseGameId(req.page_token());
    if (!id.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "page_token: ", base::QuoteInput(req.page_token()),
          " is not a token of this query (", id.status().message(), ")"));
    }
    after = store::GameKey(*id);
  }
  absl::StatusOr<rules::PatternSearch> search =
      CompilePatternRequest(req, w, h);
  if (!search.ok()) return search.status();

  qipu::v1::PatternResponse resp;
  const uint32_t rows_needed = store::PatternRowsNeeded(*search);
  std::vector<PatternHit> hits;
  store::Outcome matched;
  absl::flat_hash_map<std::string, ContinuationTotal> totals;
  uint64_t indexed = 0;
  uint64_t scanned = 0;

  // Entries are read in chunks by this thread and tested, read and
  // replayed on this thread and the pool's helpers; each chunk's results
  // are folded in key order.
  base::WorkPool pool(PatternHelperThreads(), "qipu-pattern");
  std::vector<PatternSlot> slots(kPatternChunk);
  auto process = [&](size_t i) {
    PatternSlot& slot = slots[i];
    thread_local PatternScratch scratch;
    ProcessPatternEntry(*store_, *filter, *search, rows_needed, w, h, &scratch,
                        &slot);
  };
  store::ScanOptions scan;
  scan.readahead_bytes = 2u << 20;
  // One pass over the whole family, larger than the block cache: its
  // blocks would only evict the hot ones of the other queries.
  scan.fill_cache = false;
  store::Cursor it = store_->Scan(store::Records::kPatternEntries, scan);
  it.SeekToFirst();
  while (it.Valid()) {
    size_t n = 0;
    for (; n < kPatternChunk && it.Valid(); ++n, it.Next()) {
      slots[n].key.assign(it.key().data(), it.key().size());
      slots[n].value.assign(it.value().data(), it.value().size());
    }
    pool.ParallelFor(n, process, /*grain=*/8);
    for (size_t i = 0; i < n; ++i) {
      PatternSlot& slot = slots[i];
      if (!slot.status.ok()) return slot.status;
      indexed += slot.indexed;
      scanned += slot.scanned;
      if (!slot.matched) continue;
      matched.Add(slot.won);
      if (!slot.hit.next.empty()) {
        const std::string name = absl::StrCat(
            slot.hit.next_color == rules::Color::kBlack ? "B:" : "W:",
            slot.hit.next);
        ContinuationTotal& t = totals[name];
        t.move = slot.hit.next;
        t.color = slot.hit.next_color;
        t.order = slot.order;
        t.outcome.Add(slot.won);
      }
      hits.push_back(std::move(slot.hit));
    }
  }
  if (absl::Status s = it.status(); !s.ok()) return s;

  std::vector<ContinuationTotal> sorted;
  sorted.reserve(totals.size());
  for (auto& [name, t] : totals) sorted.push_back(std::move(t));
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    if (a.outcome.games != b.outcome.games) {
      return a.outcome.games > b.outcome.games;
    }
    if (a.order != b.order) return a.order < b.order;
    return a.color < b.color;
  });
  PatternOutcome(matched, resp.mutable_matched());
  for (const ContinuationTotal& t : sorted) {
    qipu::v1::PatternContinuation* c = resp.add_continuations();
    c->set_move(t.move);
    c->set_color(wire::ColorToProto(t.color));
    PatternOutcome(t.outcome, c->mutable_outcomes());
  }

  // The page: hits are in key order, which is game-id order.
  auto first = hits.begin();
  if (!after.empty()) {
    first = std::upper_bound(
        hits.begin(), hits.end(), after,
        [](const std::string& k, const PatternHit& h) { return k < h.key; });
  }
  for (auto p = first; p != hits.end(); ++p) {
    if (resp.matches_size() == static_cast<int>(page_size)) {
      resp.set_next_page_token(
          store::GameIdText(*store::DecodeGameKey((p - 1)->key)));
      break;
    }
    qipu::v1::PatternMatch* out = resp.add_matches();
    const std::optional<store::GameId> id = store::DecodeGameKey(p->key);
    out->set_id(id.has_value() ? store::GameIdText(*id) : "");
    out->set_move_number(p->move_number);
    out->set_next(p->next);
    if (!p->next.empty()) {
      out->set_next_color(wire::ColorToProto(p->next_color));
    }
    out->set_result(p->result);
  }
  resp.set_games_scanned(scanned);
  resp.set_games_indexed(indexed);
  resp.set_pattern(rules::PatternText(search->pattern()));
  resp.set_placement(rules::PatternPlacementName(search->placement()));
  resp.set_anchor(rules::GtpPoint(
      rules::MakePoint(search->anchor_x(), search->anchor_y()), h));
  resp.set_colour_swap(search->colour_swap());
  return resp;
}

}  // namespace qipu::engine
