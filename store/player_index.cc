#include "store/player_index.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "base/quote.h"
#include "base/status_macros.h"
#include "base/varint.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rocksdb/write_batch.h"
#include "rules/player_name.h"
#include "rules/result.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/status.h"
#include "store/store.h"

namespace qipu::store {
namespace {

// The game's start with its first `moves` moves: what OpeningRecord()
// replays.
void CopyOpening(const qipu::v1::Game& game, uint32_t moves,
                 qipu::v1::Game* out) {
  out->set_width(game.width());
  out->set_height(game.height());
  out->set_handicap(game.handicap());
  *out->mutable_setup() = game.setup();
  out->set_first_color(game.first_color());
  const uint32_t n = std::min(moves, game.num_moves());
  absl::string_view packed = game.moves();
  size_t end = 0;
  for (uint32_t i = 0; i < n && end < packed.size(); ++i) {
    absl::string_view rest = packed.substr(end);
    const size_t before = rest.size();
    uint64_t v = 0;
    if (!base::GetVarint64(&rest, &v)) break;
    end += before - rest.size();
  }
  out->set_moves(std::string(packed.substr(0, end)));
  out->set_num_moves(n);
  for (uint32_t i : game.same_color_moves()) {
    if (i < n) out->add_same_color_moves(i);
  }
  // Setups after the moves kept do not change the walk (the walk applies
  // a setup before its move only).
  auto* setup = out->mutable_setup();
  setup->erase(std::remove_if(setup->begin(), setup->end(),
                              [n](const qipu::v1::Setup& s) {
                                return s.before_move() > n;
                              }),
               setup->end());
}

std::string DateOfDay(uint32_t day) {
  if (day == 0) return "";
  return absl::StrFormat("%04u-%02u-%02u", day / 10000, day / 100 % 100,
                         day % 100);
}

}  // namespace

PlayerEntries BuildPlayerEntries(const qipu::v1::Game& game, const GameId& id,
                                 uint32_t config_id, uint32_t day,
                                 uint32_t index_plies) {
  PlayerEntries out;
  qipu::v1::GameEntry e;
  e.set_config_id(config_id);
  e.set_day(day);
  e.set_width(game.width());
  e.set_height(game.height());
  const qipu::v1::Meta& meta = game.meta();
  const bool self_play = game.provenance().job() != 0;
  rules::PlayerName black;
  rules::PlayerName white;
  if (self_play) {
    const wire::ColourPolicies p = wire::GamePolicies(game.provenance());
    black.written = black.key = p.black;
    white.written = white.key = p.white;
    e.set_date(DateOfDay(day));
  } else {
    black = rules::ParsePlayerName(meta.black_player(), meta.black_rank());
    white = rules::ParsePlayerName(meta.white_player(), meta.white_rank());
    e.set_event(meta.event());
    e.set_date(meta.date());
  }
  e.set_black_name(black.written);
  e.set_black_key(black.key);
  e.set_black_rank(black.rank);
  e.set_white_name(white.written);
  e.set_white_key(white.key);
  e.set_white_rank(white.rank);
  const auto result = wire::ResultFromProto(game.result());
  const rules::Winner winner =
      result.ok() ? result->winner : rules::Winner::kNone;
  e.set_winner(static_cast<uint32_t>(winner));
  if (!meta.record_result().empty()) {
    e.set_result(meta.record_result());
  } else if (result.ok()) {
    e.set_result(rules::ResultToSgf(*result));
  }
  e.set_moves(game.num_moves());
  if (game.has_cut()) {
    e.set_record("cut");
  } else if (game.breaches_size() > 0) {
    e.set_record("noted");
  }

  // Date and event postings: no opening.
  std::string plain = e.SerializeAsString();
  out.puts.emplace_back(DatePostingKey(day, id), plain);
  const std::string event = rules::FoldText(e.event());
  if (!event.empty()) {
    out.puts.emplace_back(EventPostingKey(event, day, id), plain);
    out.counts.emplace_back(EventCountKey(event), 1);
  }
  if (black.key.empty() && white.key.empty()) return out;
  CopyOpening(game, index_plies + 1, e.mutable_opening());
  e.set_opening_plies(index_plies);
  const std::string full = e.SerializeAsString();
  const uint16_t year = static_cast<uint16_t>(day / 10000);
  const uint8_t w = static_cast<uint8_t>(winner);
  if (black.key == white.key) {
    out.puts.emplace_back(PlayerPostingKey(black.key, day, id), full);
    out.counts.emplace_back(PlayerCountKey(black.key, year, 'S', w), 1);
  } else {
    for (const rules::PlayerName* p : {&black, &white}) {
      if (p->key.empty()) continue;
      out.puts.emplace_back(PlayerPostingKey(p->key, day, id), full);
      out.counts.emplace_back(
          PlayerCountKey(p->key, year, p == &black ? 'B' : 'W', w), 1);
    }
  }
  for (const rules::PlayerName* p : {&black, &white}) {
    if (p->key.empty() || p->written == p->key) continue;
    out.counts.emplace_back(PlayerNameKey(p->key, p->written), 1);
    if (black.key == white.key && black.written == white.written) break;
  }
  return out;
}

absl::StatusOr<rules::GameRecord> OpeningRecord(
    const qipu::v1::GameEntry& entry) {
  return wire::GameToRecord(entry.opening());
}

// --- alias groups ----------------------------------------------------------

absl::StatusOr<AliasGroups> AliasGroups::Parse(absl::string_view text,
                                               absl::string_view file) {
  AliasGroups out;
  absl::flat_hash_map<std::string, int> line_of;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t.empty() || t.front() == '#') continue;
    const char sep = t.find('\t') != absl::string_view::npos ? '\t' : ',';
    auto where = [&] { return absl::StrCat(file, ":", line_no, ": "); };
    std::vector<std::string> group;
    int field = 0;
    for (absl::string_view name : absl::StrSplit(t, sep)) {
      ++field;
      const std::string key = rules::ParsePlayerName(name, "").key;
      if (key.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            where(), "name ", field, " is empty (names are separated by ",
            sep == '\t' ? "tabs" : "commas", ")"));
      }
      if (std::find(group.begin(), group.end(), key) != group.end()) continue;
      if (auto it = line_of.find(key); it != line_of.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), base::QuoteInput(name), " (", key,
                         ") is already in the group of line ", it->second));
      }
      group.push_back(key);
    }
    if (group.size() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat(where(), "a group names two or more different players (",
                       base::QuoteInput(t), "), separated by tabs or commas"));
    }
    for (const std::string& k : group) line_of[k] = line_no;
    for (const std::string& k : group) out.group_of_[k] = out.groups_.size();
    out.groups_.push_back(std::move(group));
  }
  return out;
}

std::string AliasGroups::Serialize() const {
  std::vector<std::string> lines;
  for (const auto& g : groups_) lines.push_back(absl::StrJoin(g, "\t"));
  return absl::StrJoin(lines, "\n");
}

absl::StatusOr<AliasGroups> AliasGroups::Deserialize(absl::string_view value) {
  AliasGroups out;
  if (value.empty()) return out;
  for (absl::string_view line : absl::StrSplit(value, '\n')) {
    std::vector<std::string> group = absl::StrSplit(line, '\t');
    if (group.size() < 2) {
      return absl::DataLossError("alias groups: a stored group is damaged");
    }
    for (const std::string& k : group) out.group_of_[k] = out.groups_.size();
    out.groups_.push_back(std::move(group));
  }
  return out;
}

absl::StatusOr<AliasGroups> AliasGroups::Load(const Store& store) {
  QIPU_ASSIGN_OR_RETURN(const std::optional<std::string> value,
                        store.Get(Records::kPlayers, AliasesKey()));
  if (!value.has_value()) return AliasGroups();
  return Deserialize(*value);
}

const std::string& AliasGroups::Canonical(const std::string& key) const {
  auto it = group_of_.find(key);
  return it == group_of_.end() ? key : groups_[it->second].front();
}

std::vector<std::string> AliasGroups::Expand(const std::string& key) const {
  auto it = group_of_.find(key);
  if (it == group_of_.end()) return {key};
  return groups_[it->second];
}

// --- backfill ----------------------------------------------------------------

std::string PlayerIndexMarkerKey() { return "Nplayer_index"; }

absl::StatusOr<bool> HasPlayerIndex(const Store& store) {
  QIPU_ASSIGN_OR_RETURN(const std::optional<std::string> v,
                        store.Get(store.meta(), PlayerIndexMarkerKey()));
  return v.has_value();
}

absl::StatusOr<uint64_t> BackfillPlayerIndex(Store* store,
                                             const ConfigOfGame& config_of) {
  // Start clean (an earlier backfill may have been cut short), keeping the
  // alias groups.
  QIPU_ASSIGN_OR_RETURN(const std::optional<std::string> aliases,
                        store->Get(Records::kPlayers, AliasesKey()));
  {
    rocksdb::WriteBatch clear;
    QIPU_RETURN_IF_ERROR(
        FromRocks(clear.DeleteRange(store->players(), rocksdb::Slice("", 0),
                                    rocksdb::Slice("\xff\xff\xff\xff", 4)),
                  "clearing the player index"));
    if (aliases.has_value())
      clear.Put(store->players(), AliasesKey(), *aliases);
    QIPU_RETURN_IF_ERROR(store->Commit(&clear, Durability::kSync));
  }
  rocksdb::WriteBatch batch;
  absl::flat_hash_map<std::string, uint64_t> counts;
  uint64_t written = 0;
  uint64_t unreadable = 0;
  ScanOptions scan;
  scan.fill_cache = false;
  scan.readahead_bytes = 4u << 20;
  auto flush_counts = [&] {
    for (const auto& [k, n] : counts) {
      batch.Merge(store->players(), k, EncodeUint64Value(n));
    }
    counts.clear();
  };
  Cursor it = store->Scan(Records::kGames, scan);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    qipu::v1::Game game;
    auto id = DecodeGameKey(it.key());
    if (!id || !game.ParseFromArray(it.value().data(),
                                    static_cast<int>(it.value().size()))) {
      ++unreadable;
      continue;
    }
    auto config = config_of(game);
    if (!config.ok()) {
      ++unreadable;
      continue;
    }
    uint32_t day = game.meta().date_ymd();
    if (game.provenance().job() != 0) {
      const absl::CivilDay d = absl::ToCivilDay(
          absl::FromUnixMicros(game.provenance().stored_unix_micros()),
          absl::UTCTimeZone());
      day = static_cast<uint32_t>(d.year() * 10000 + d.month() * 100 + d.day());
    }
    // The plies the position index covers.
    const uint32_t plies = std::min<uint32_t>(
        game.num_moves(),
        static_cast<uint32_t>(std::max(0, config->index_depth)));
    const PlayerEntries e =
        BuildPlayerEntries(game, *id, config->config_id, day, plies);
    for (const auto& [k, v] : e.puts) batch.Put(store->players(), k, v);
    for (const auto& [k, n] : e.counts) counts[k] += n;
    ++written;
    if (batch.Count() >= 1024) {
      flush_counts();
      QIPU_RETURN_IF_ERROR(store->Commit(&batch, Durability::kNoSync));
      batch.Clear();
    }
  }
  QIPU_RETURN_IF_ERROR(it.status());
  flush_counts();
  if (batch.Count() > 0) {
    QIPU_RETURN_IF_ERROR(store->Commit(&batch, Durability::kNoSync));
  }
  QIPU_RETURN_IF_ERROR(store->Flush());
  QIPU_RETURN_IF_ERROR(store->Put(store->meta(), PlayerIndexMarkerKey(), "1",
                                  Durability::kSync));
  if (unreadable > 0) {
    spdlog::error(
        "database {}: player index: {} stored game(s) unreadable, left out",
        store->dir(), unreadable);
  }
  return written;
}

}  // namespace qipu::store
