// QueryEngine: Games, Players, the alias groups, and the player index's
// side of Openings, Ko, Cycles and Results (queries.h).
#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/queries.h"
#include "proto/convert.h"
#include "rules/player_name.h"
#include "store/aggregate.h"
#include "store/indexer.h"
#include "store/keys.h"

namespace qipu::engine {
namespace {

// Bytes of a posting's sort key: day (4) and game key (17).
constexpr size_t kSortKeyBytes = 21;

// Decides a filter's per-game fields on index entries.
class GameMatcher {
 public:
  GameMatcher(const Filter& filter, const store::AliasGroups& aliases,
              const store::ConfigRegistry* configs)
      : filter_(filter), configs_(configs) {
    if (!filter.player().empty()) {
      for (std::string& k : aliases.Expand(filter.player())) {
        players_.insert(std::move(k));
      }
    }
    if (!filter.opponent().empty()) {
      for (std::string& k : aliases.Expand(filter.opponent())) {
        opponents_.insert(std::move(k));
      }
    }
  }

  bool Matches(const qipu::v1::GameEntry& e) {
    if (!filter_.MatchesDay(e.day())) return false;
    auto [cm, fresh] = config_matches_.try_emplace(e.config_id(), false);
    if (fresh) {
      const auto config = configs_->Get(e.config_id());
      cm->second = config.has_value() && filter_.MatchesConfig(*config);
    }
    if (!cm->second) return false;
    if (!filter_.event().empty() &&
        !absl::StrContains(rules::FoldText(e.event()), filter_.event())) {
      return false;
    }
    const std::string& want = filter_.result();
    if (!want.empty()) {
      const auto w = static_cast<rules::Winner>(e.winner());
      const bool ok = want == "B+"     ? w == rules::Winner::kBlack
                      : want == "W+"   ? w == rules::Winner::kWhite
                      : want == "draw" ? w == rules::Winner::kDraw
                                       : w == rules::Winner::kNone;
      if (!ok) return false;
    }
    // The sides the player may be on (both when no player is given).
    bool side_ok[2] = {true, true};
    const std::string* keys[2] = {&e.black_key(), &e.white_key()};
    const std::string* ranks[2] = {&e.black_rank(), &e.white_rank()};
    if (!players_.empty()) {
      for (int s = 0; s < 2; ++s) {
        const rules::Color c =
            s == 0 ? rules::Color::kBlack : rules::Color::kWhite;
        side_ok[s] = players_.contains(*keys[s]) &&
                     (filter_.player_as() == rules::Color::kEmpty ||
                      filter_.player_as() == c);
      }
    }
    if (!opponents_.empty()) {
      for (int s = 0; s < 2; ++s) {
        if (!side_ok[s]) continue;
        if (players_.empty()) {
          // Opponent alone: games with the opponent on either side.
          side_ok[s] = opponents_.contains(*keys[s]);
        } else {
          side_ok[s] = opponents_.contains(*keys[1 - s]);
        }
      }
    }
    if (!side_ok[0] && !side_ok[1]) return false;
    if (filter_.rank_min() != 0 || filter_.rank_max() != 0) {
      auto in_range = [&](const std::string& rank) {
        const int o = rules::RankOrder(rank);
        if (o == 0) return false;
        if (filter_.rank_min() != 0 && o < filter_.rank_min()) return false;
        if (filter_.rank_max() != 0 && o > filter_.rank_max()) return false;
        return true;
      };
      if (!players_.empty()) {
        // The player's rank, on a side the player is on.
        bool any = false;
        for (int s = 0; s < 2; ++s) {
          if (side_ok[s] && in_range(*ranks[s])) any = true;
        }
        if (!any) return false;
      } else if (!in_range(*ranks[0]) || !in_range(*ranks[1])) {
        return false;
      }
    }
    return true;
  }

 private:
  const Filter& filter_;
  const store::ConfigRegistry* configs_;
  absl::flat_hash_set<std::string> players_;
  absl::flat_hash_set<std::string> opponents_;
  absl::flat_hash_map<uint32_t, bool> config_matches_;
};

// The first day a scan of a posting list needs (its date_from's year:
// bucket days may lack month and day).
uint32_t FirstDay(const Filter& f) {
  return f.proto().date_from() / 10000 * 10000;
}

qipu::v1::PlayerRef SideRef(const std::string& name, const std::string& key,
                            const std::string& rank,
                            const store::AliasGroups& aliases) {
  qipu::v1::PlayerRef r;
  r.set_name(name);
  r.set_key(aliases.Canonical(key));
  r.set_rank(rank);
  return r;
}

}  // namespace

absl::StatusOr<std::vector<QueryEngine::IndexedGame>>
QueryEngine::MatchingGames(const Filter& filter) const {
  auto aliases = store::AliasGroups::Load(*store_);
  if (!aliases.ok()) return aliases.status();
  // The posting lists to read: the smallest the filter allows.
  std::vector<std::string> prefixes;
  if (!filter.player().empty() || !filter.opponent().empty()) {
    const std::string& who =
        filter.player().empty() ? filter.opponent() : filter.player();
    for (const std::string& k : aliases->Expand(who)) {
      prefixes.push_back(store::PlayerPostingPrefix(k));
    }
  } else if (!filter.event().empty()) {
    store::Cursor it =
        store_->Scan(store::Records::kPlayers,
                     {.prefix = std::string(1, store::kEventCountTag)});
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      auto event = store::DecodeNamedKey(it.key(), nullptr);
      if (event && absl::StrContains(*event, filter.event())) {
        prefixes.push_back(store::EventPostingPrefix(*event));
      }
    }
    if (!it.status().ok()) return it.status();
  } else {
    prefixes.push_back(std::string(1, store::kDatePostingTag));
  }
  GameMatcher matcher(filter, *aliases, configs_);
  std::vector<IndexedGame> out;
  const uint32_t to = filter.proto().date_to();
  for (const std::string& prefix : prefixes) {
    store::Cursor it =
        store_->Scan(store::Records::kPlayers, {.prefix = prefix});
    std::string start = prefix;
    store::PutFixed32BE(&start, FirstDay(filter));
    for (it.Seek(start); it.Valid(); it.Next()) {
      const absl::string_view key = it.key();
      if (key.size() != prefix.size() + kSortKeyBytes) {
        return absl::DataLossError("player index: malformed posting key");
      }
      const absl::string_view sort_key = key.substr(prefix.size());
      const uint32_t day = store::GetFixed32BE(sort_key.data());
      if (to != 0 && day > to) break;
      IndexedGame g;
      if (!g.entry.ParseFromArray(it.value().data(),
                                  static_cast<int>(it.value().size()))) {
        return absl::DataLossError("player index: damaged entry");
      }
      if (!matcher.Matches(g.entry)) continue;
      g.sort_key = std::string(sort_key);
      out.push_back(std::move(g));
    }
    if (!it.status().ok()) return it.status();
  }
  if (prefixes.size() > 1) {
    std::sort(out.begin(), out.end(),
              [](const IndexedGame& a, const IndexedGame& b) {
                return a.sort_key < b.sort_key;
              });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const IndexedGame& a, const IndexedGame& b) {
                            return a.sort_key == b.sort_key;
                          }),
              out.end());
  }
  return out;
}

absl::Status QueryEngine::OpeningsByGame(
    const Filter& filter, int w, int h, const rules::Hash128& position,
    int examples, store::Outcome* reached,
    std::vector<std::pair<uint16_t, store::Outcome>>* continuations,
    std::vector<std::vector<store::GameId>>* continuation_examples) const {
  auto games = MatchingGames(filter);
  if (!games.ok()) return games.status();
  absl::flat_hash_map<uint16_t, size_t> by_move;
  for (const IndexedGame& g : *games) {
    const qipu::v1::GameEntry& e = g.entry;
    if (static_cast<int>(e.width()) != w || static_cast<int>(e.height()) != h) {
      continue;
    }
    auto id = store::DecodeGameKey(absl::string_view(g.sort_key).substr(4));
    if (!id) return absl::DataLossError("player index: malformed game key");
    absl::StatusOr<rules::GameRecord> record;
    if (e.has_opening()) {
      record = store::OpeningRecord(e);
    } else {
      // A date or event posting: the game itself.
      auto value = store_->Get(store::Records::kGames, store::GameKey(*id));
      if (!value.ok()) return value.status();
      qipu::v1::Game game;
      if (!value->has_value() || !game.ParseFromString(**value)) {
        return absl::DataLossError(
            absl::StrCat("game ", store::GameIdText(*id), " is missing"));
      }
      record = wire::GameToRecord(game);
    }
    if (!record.ok()) {
      return absl::DataLossError(
          absl::StrCat("player index: the opening of ", store::GameIdText(*id),
                       " does not decode: ", record.status().message()));
    }
    const int plies = static_cast<int>(e.opening_plies());
    const store::OpeningHit hit =
        store::FindInOpening(*record, plies, plies, position);
    if (!hit.reached) continue;
    const auto winner = static_cast<rules::Winner>(e.winner());
    reached->Add(winner);
    if (!hit.has_next) continue;
    auto [slot, fresh] = by_move.try_emplace(hit.move, continuations->size());
    if (fresh) {
      continuations->emplace_back(hit.move, store::Outcome());
      continuation_examples->emplace_back();
    }
    (*continuations)[slot->second].second.Add(winner);
    auto& ex = (*continuation_examples)[slot->second];
    if (static_cast<int>(ex.size()) < examples) ex.push_back(*id);
  }
  return absl::OkStatus();
}

absl::Status QueryEngine::ForEachGameAggregate(
    const Filter& filter, const AggregateVisitor& fn) const {
  auto games = MatchingGames(filter);
  if (!games.ok()) return games.status();
  for (const IndexedGame& g : *games) {
    auto id = store::DecodeGameKey(absl::string_view(g.sort_key).substr(4));
    if (!id) return absl::DataLossError("player index: malformed game key");
    auto value = store_->Get(store::Records::kGames, store::GameKey(*id));
    if (!value.ok()) return value.status();
    qipu::v1::Game game;
    if (!value->has_value() || !game.ParseFromString(**value)) {
      return absl::DataLossError(
          absl::StrCat("game ", store::GameIdText(*id), " is missing"));
    }
    store::GameFacts facts;
    facts.id = *id;
    auto result = wire::ResultFromProto(game.result());
    if (result.ok()) facts.result = *result;
    facts.moves = static_cast<int>(game.num_moves());
    facts.ko_captures = static_cast<int>(game.ko_captures());
    for (const auto* list : {&game.cycles(), &game.voided_cycles()}) {
      for (const qipu::v1::Cycle& c : *list) {
        auto r = wire::CycleFromProto(c, static_cast<int>(game.width()),
                                      static_cast<int>(game.height()));
        if (r.ok()) facts.cycles.push_back(*r);
      }
    }
    const auto config = configs_->Get(g.entry.config_id());
    if (!config.has_value()) continue;
    fn(*config, g.entry.day(), store::AggregateFromGame(facts));
  }
  return absl::OkStatus();
}

absl::StatusOr<qipu::v1::GamesResponse> QueryEngine::Games(
    const qipu::v1::GamesRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  if (req.page_size() > kMaxGamesPageSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "page_size: ", req.page_size(), " exceeds ", kMaxGamesPageSize));
  }
  const size_t page =
      req.page_size() == 0 ? kDefaultGamesPageSize : req.page_size();
  std::string after;
  if (!req.page_token().empty()) {
    const std::string lower = absl::AsciiStrToLower(req.page_token());
    after = absl::HexStringToBytes(lower);
    if (lower.size() != 2 * kSortKeyBytes ||
        absl::BytesToHexString(after) != lower) {
      return absl::InvalidArgumentError(
          "page_token: not a token of an earlier games response");
    }
  }
  auto aliases = store::AliasGroups::Load(*store_);
  if (!aliases.ok()) return aliases.status();
  auto games = MatchingGames(*filter);
  if (!games.ok()) return games.status();
  if (req.newest_first()) std::reverse(games->begin(), games->end());
  qipu::v1::GamesResponse resp;
  resp.set_total(games->size());
  size_t i = 0;
  if (!after.empty()) {
    while (i < games->size() &&
           (req.newest_first() ? (*games)[i].sort_key >= after
                               : (*games)[i].sort_key <= after)) {
      ++i;
    }
  }
  const size_t end = std::min(games->size(), i + page);
  for (; i < end; ++i) {
    const IndexedGame& g = (*games)[i];
    const qipu::v1::GameEntry& e = g.entry;
    auto id = store::DecodeGameKey(absl::string_view(g.sort_key).substr(4));
    if (!id) return absl::DataLossError("player index: malformed game key");
    qipu::v1::GameSummary* s = resp.add_games();
    s->set_id(store::GameIdText(*id));
    s->set_date(e.date());
    s->set_date_ymd(e.day());
    *s->mutable_black() =
        SideRef(e.black_name(), e.black_key(), e.black_rank(), *aliases);
    *s->mutable_white() =
        SideRef(e.white_name(), e.white_key(), e.white_rank(), *aliases);
    s->set_event(e.event());
    s->set_result(e.result());
    s->set_moves(e.moves());
    s->set_record(e.record().empty() ? "clean" : e.record());
    s->set_width(e.width());
    s->set_height(e.height());
  }
  if (end < games->size() && end > 0) {
    resp.set_next_page_token(
        absl::BytesToHexString((*games)[end - 1].sort_key));
  }
  return resp;
}

absl::StatusOr<qipu::v1::PlayersResponse> QueryEngine::Players(
    const qipu::v1::PlayersRequest& req) const {
  if (req.limit() > kMaxPlayersLimit) {
    return absl::InvalidArgumentError(
        absl::StrCat("limit: ", req.limit(), " exceeds ", kMaxPlayersLimit));
  }
  const size_t limit = req.limit() == 0 ? kDefaultPlayersLimit : req.limit();
  auto aliases = store::AliasGroups::Load(*store_);
  if (!aliases.ok()) return aliases.status();
  const std::string prefix = rules::FoldText(req.prefix());

  // Counters per name, read for the names under the prefix and the names
  // of every alias group one of whose names is.
  struct Tally {
    qipu::v1::PlayerSummary summary;
    std::map<uint32_t, qipu::v1::PlayerYear> years;
    std::vector<std::string> members;
  };
  std::map<std::string, Tally> by_player;  // canonical key -> tally
  absl::flat_hash_set<std::string> counted;
  auto add_counts = [&](const std::string& scan_prefix) -> absl::Status {
    store::Cursor it =
        store_->Scan(store::Records::kPlayers, {.prefix = scan_prefix});
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      auto parts = store::DecodePlayerCountKey(it.key());
      auto n = store::DecodeUint64Value(it.value());
      if (!parts || !n) {
        return absl::DataLossError("player index: malformed counter");
      }
      if (!counted.insert(std::string(it.key())).second) continue;
      Tally& t = by_player[aliases->Canonical(parts->name)];
      if (std::find(t.members.begin(), t.members.end(), parts->name) ==
          t.members.end()) {
        t.members.push_back(parts->name);
      }
      qipu::v1::PlayerSummary& s = t.summary;
      s.set_games(s.games() + *n);
      const auto w = static_cast<rules::Winner>(parts->winner);
      auto add_outcome = [&](qipu::v1::Outcomes* o) {
        o->set_games(o->games() + *n);
        switch (w) {
          case rules::Winner::kBlack:
            o->set_black_wins(o->black_wins() + *n);
            break;
          case rules::Winner::kWhite:
            o->set_white_wins(o->white_wins() + *n);
            break;
          case rules::Winner::kDraw:
            o->set_draws(o->draws() + *n);
            break;
          default:
            o->set_void_(o->void_() + *n);
        }
      };
      if (parts->colour != 'W') add_outcome(s.mutable_as_black());
      if (parts->colour != 'B') add_outcome(s.mutable_as_white());
      if (parts->year != 0) {
        qipu::v1::PlayerYear& y = t.years[parts->year];
        y.set_year(parts->year);
        y.set_games(y.games() + *n);
        const bool won = (parts->colour == 'B' && w == rules::Winner::kBlack) ||
                         (parts->colour == 'W' && w == rules::Winner::kWhite);
        const bool lost =
            (parts->colour == 'B' && w == rules::Winner::kWhite) ||
            (parts->colour == 'W' && w == rules::Winner::kBlack);
        if (won) y.set_wins(y.wins() + *n);
        if (lost) y.set_losses(y.losses() + *n);
      }
    }
    return it.status();
  };
  if (absl::Status s =
          add_counts(std::string(1, store::kPlayerCountTag) + prefix);
      !s.ok()) {
    return s;
  }
  for (const auto& group : aliases->groups()) {
    const bool hit = std::any_of(group.begin(), group.end(), [&](auto& k) {
      return absl::StartsWith(k, prefix);
    });
    if (!hit) continue;
    for (const std::string& k : group) {
      if (absl::Status s = add_counts(store::PlayerCountPrefix(k)); !s.ok()) {
        return s;
      }
    }
  }

  std::vector<std::pair<std::string, Tally*>> order;
  for (auto& [key, t] : by_player) order.emplace_back(key, &t);
  std::stable_sort(
      order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second->summary.games() > b.second->summary.games();
      });
  if (order.size() > limit) order.resize(limit);

  qipu::v1::PlayersResponse resp;
  for (auto& [key, t] : order) {
    qipu::v1::PlayerSummary& s = t->summary;
    s.set_key(key);
    // Forms written, most frequent first; the group's other names.
    std::vector<std::pair<uint64_t, std::string>> forms;
    uint32_t first = 0;
    uint32_t last = 0;
    std::string rank;
    for (const std::string& member : aliases->Expand(key)) {
      store::Cursor names =
          store_->Scan(store::Records::kPlayers,
                       {.prefix = store::PlayerNameKey(member, "")});
      for (names.SeekToFirst(); names.Valid(); names.Next()) {
        std::string written;
        auto n = store::DecodeUint64Value(names.value());
        if (!store::DecodeNamedKey(names.key(), &written) || !n) continue;
        forms.emplace_back(*n, written);
      }
      if (!names.status().ok()) return names.status();
      // First and last dated games of the name.
      const std::string p = store::PlayerPostingPrefix(member);
      store::Cursor posts =
          store_->Scan(store::Records::kPlayers, {.prefix = p});
      std::string dated = p;
      store::PutFixed32BE(&dated, 1);
      posts.Seek(dated);
      if (posts.Valid()) {
        const uint32_t d = store::GetFixed32BE(posts.key().data() + p.size());
        if (first == 0 || d < first) first = d;
      }
      posts.SeekToLast();
      if (posts.Valid()) {
        const uint32_t d = store::GetFixed32BE(posts.key().data() + p.size());
        if (d != 0 && d >= last) {
          qipu::v1::GameEntry e;
          if (e.ParseFromArray(posts.value().data(),
                               static_cast<int>(posts.value().size()))) {
            last = d;
            rank = e.black_key() == member ? e.black_rank() : e.white_rank();
          }
        }
      }
      if (!posts.status().ok()) return posts.status();
    }
    std::stable_sort(
        forms.begin(), forms.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    s.set_display(forms.empty() ? key : forms.front().second);
    absl::flat_hash_set<std::string> listed = {s.display()};
    auto add_name = [&](const std::string& n) {
      if (s.names_size() < 20 && listed.insert(n).second) s.add_names(n);
    };
    for (const auto& f : forms) add_name(f.second);
    for (const std::string& member : aliases->Expand(key)) add_name(member);
    s.set_first_ymd(first);
    s.set_last_ymd(last);
    s.set_rank(rank);
    for (auto& [year, y] : t->years) *s.add_years() = y;
    *resp.add_players() = std::move(s);
  }
  return resp;
}

absl::Status QueryEngine::SetAliases(const store::AliasGroups& groups) {
  return store_->Put(store::Records::kPlayers, store::AliasesKey(),
                     groups.Serialize(), store::Durability::kSync);
}

}  // namespace qipu::engine
