// QueryEngine: Openings and GetGame, and the helpers they share with
// query_aggregates.cc (Ko, Cycles, Results).
#include "engine/queries.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "base/quote.h"
#include "engine/game_format.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rocksdb/iterator.h"
#include "rules/coord.h"
#include "rules/rules_key.h"
#include "rules/sgf_writer.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/position_value.h"
#include "store/status.h"

namespace qipu::engine {
namespace {

void CopyOutcome(const store::Outcome& from, qipu::v1::Outcomes* to) {
  to->set_games(from.games);
  to->set_black_wins(from.black);
  to->set_white_wins(from.white);
  to->set_draws(from.draws);
  to->set_void_(from.voids);
}

// One continuation summed over buckets.
struct ContinuationSum {
  uint16_t move = 0;
  store::Outcome outcome;
  std::vector<store::GameId> examples;
  // Dense index of the move in the caller's orientation (pass sorts last).
  int order = 0;
  std::string name;
};

// Cycle text of the QC root property, as `qipu selfplay` writes it:
// class:first_move:period:black_captures:white_captures:outcome:move.
std::string CyclesText(
    const google::protobuf::RepeatedPtrField<qipu::v1::Cycle>& a,
    const google::protobuf::RepeatedPtrField<qipu::v1::Cycle>& b, int width,
    int height) {
  std::vector<std::string> parts;
  for (const auto* list : {&a, &b}) {
    for (const qipu::v1::Cycle& c : *list) {
      auto r = wire::CycleFromProto(c, width, height);
      if (!r.ok()) continue;
      parts.push_back(absl::StrCat(rules::CycleClassName(r->cls), ":",
                                   r->first_move, ":", r->period, ":",
                                   r->black_captures, ":", r->white_captures,
                                   ":", rules::CycleOutcomeName(r->outcome),
                                   ":", rules::GtpPoint(r->point, height)));
    }
  }
  return absl::StrJoin(parts, ";");
}

// The SGF of a stored game: its record plus rules, komi, result, date and
// qipu's own root properties.
absl::StatusOr<std::string> GameSgf(const qipu::v1::Game& game) {
  auto record = wire::GameToRecord(game);
  if (!record.ok()) return record.status();
  rules::GameRecord& r = *record;
  auto rs = wire::RulesFromProto(game.rules());
  if (rs.ok()) {
    const std::string preset = rules::PresetName(*rs);
    if (r.rules.empty()) r.rules = preset == "custom" ? "chinese" : preset;
    r.komi = rs->komi;
    r.has_komi = true;
  }
  // The RE exports write (rules::RecordResult::Sgf()).
  r.result.text = r.result.Sgf();
  const qipu::v1::Provenance& p = game.provenance();
  const bool self_play = p.job() != 0;
  if (self_play) {
    const wire::ColourPolicies policies = wire::GamePolicies(p);
    if (r.black_player.empty())
      r.black_player = absl::StrCat("qipu ", policies.black);
    if (r.white_player.empty())
      r.white_player = absl::StrCat("qipu ", policies.white);
    if (!policies.same()) {
      r.extra.emplace_back("QB", policies.black);
      r.extra.emplace_back("QW", policies.white);
    }
    if (r.date.empty() && p.stored_unix_micros() != 0) {
      r.date = absl::FormatTime("%Y-%m-%d",
                                absl::FromUnixMicros(p.stored_unix_micros()),
                                absl::UTCTimeZone());
    }
    r.extra.emplace_back("QJ", absl::StrCat(p.job()));
    r.extra.emplace_back("QI", absl::StrCat(p.game_index()));
    r.extra.emplace_back("QS", absl::StrCat(p.seed()));
    r.extra.emplace_back("QA", absl::StrCat(p.attempt()));
  }
  r.extra.emplace_back("QK", absl::StrCat(game.ko_captures()));
  const std::string cycles =
      CyclesText(game.voided_cycles(), game.cycles(), r.width, r.height);
  if (!cycles.empty()) r.extra.emplace_back("QC", cycles);
  if (rs.ok()) r.extra.emplace_back("QR", rules::RulesKey(*rs).Text());
  if (!p.policy().empty()) r.extra.emplace_back("QP", p.policy());
  if (!p.qipu_version().empty()) r.extra.emplace_back("QV", p.qipu_version());
  if (auto searches = SearchProperties(game); searches.ok()) {
    r.move_extra = *std::move(searches);
  }
  return rules::WriteSgf(r);
}

}  // namespace

absl::StatusOr<int> ExamplesWanted(uint32_t requested) {
  if (requested > kMaxQueryExamples) {
    return absl::InvalidArgumentError(
        absl::StrCat("examples: ", requested, " exceeds ", kMaxQueryExamples));
  }
  return static_cast<int>(requested == 0 ? kDefaultQueryExamples : requested);
}

rules::Rules OpeningsReplayRules(const Filter& filter) {
  if (auto preset = rules::PresetRules(filter.proto().rules()); preset.ok()) {
    return *preset;
  }
  rules::Rules r;
  r.ko = filter.rules().ko.value_or(rules::KoRule::kSimple);
  r.cycle = filter.rules().cycle.value_or(rules::CycleRule::kNone);
  r.multi_stone_suicide = filter.rules().multi_stone_suicide.value_or(true);
  return r;
}

absl::StatusOr<rules::Move> ParseOpeningMove(absl::string_view text, int width,
                                             int height) {
  rules::Move m{rules::Color::kEmpty, rules::kPass};
  absl::string_view vertex = text;
  if (const size_t colon = text.find(':'); colon != absl::string_view::npos) {
    const absl::string_view colour = text.substr(0, colon);
    if (colour == "B" || colour == "b") {
      m.color = rules::Color::kBlack;
    } else if (colour == "W" || colour == "w") {
      m.color = rules::Color::kWhite;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "colour ", base::QuoteInput(colour), " is not B or W (like B:Q16)"));
    }
    vertex = text.substr(colon + 1);
    if (vertex.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no vertex after '", colour, ":' (like ", colour,
                       ":Q16 or ", colour, ":pass)"));
    }
  }
  auto p = rules::ParseGtpPoint(vertex, width, height);
  if (!p.ok()) return p.status();
  if (*p == rules::kResign) {
    return absl::InvalidArgumentError("resignation is not a move");
  }
  m.point = *p;
  return m;
}

absl::StatusOr<OpeningPosition> ReplayOpening(int width, int height,
                                              const rules::Rules& rules,
                                              int handicap,
                                              const OpeningLine& line) {
  if (absl::Status s = rules::ValidateSize(width, height); !s.ok()) return s;
  if (line.to_play != rules::Color::kEmpty &&
      line.to_play != rules::Color::kBlack &&
      line.to_play != rules::Color::kWhite) {
    return absl::InvalidArgumentError("to_play: neither Black nor White");
  }
  rules::Game game(width, height, rules);
  if (!line.setup.empty()) {
    std::vector<rules::Point> stones[2];
    std::vector<bool> taken(static_cast<size_t>(width * height), false);
    for (size_t i = 0; i < line.setup.size(); ++i) {
      const std::string& text = line.setup[i];
      auto where = [&] {
        return absl::StrCat("setup: stone ", i + 1, " ",
                            base::QuoteInput(text));
      };
      auto m = ParseOpeningMove(text, width, height);
      if (!m.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), ": ", m.status().message()));
      }
      if (m->color == rules::Color::kEmpty) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), ": a setup stone names its colour (B:", text,
                         " or W:", text, ")"));
      }
      if (m->point == rules::kPass) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), ": pass is not a stone"));
      }
      const int dense = rules::DenseIndex(m->point, width);
      if (taken[static_cast<size_t>(dense)]) {
        return absl::InvalidArgumentError(
            absl::StrCat(where(), ": ", rules::GtpPoint(m->point, height),
                         " is set up twice"));
      }
      taken[static_cast<size_t>(dense)] = true;
      stones[m->color == rules::Color::kWhite ? 1 : 0].push_back(m->point);
    }
    // As the indexer reads a handicap game's root setup: black stones only
    // in a game with a handicap give White the first move.
    const rules::Color first = handicap >= 2 && stones[1].empty()
                                   ? rules::Color::kWhite
                                   : rules::Color::kBlack;
    if (absl::Status s = game.ApplySetup(stones[0], stones[1], {}, first);
        !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("setup: ", s.message()));
    }
  } else if (handicap >= 2) {
    if (absl::Status s = game.PlaceHandicap(handicap); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter.handicap: ", s.message()));
    }
  }
  for (size_t i = 0; i < line.moves.size(); ++i) {
    const std::string& text = line.moves[i];
    auto m = ParseOpeningMove(text, width, height);
    if (!m.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("moves: move ", i + 1, " ", base::QuoteInput(text), ": ",
                       m.status().message()));
    }
    const rules::Color c =
        m->color == rules::Color::kEmpty ? game.to_play() : m->color;
    const rules::MoveVerdict v = game.Check(c, m->point);
    if (!v.legal()) {
      const bool rule_dependent = v.reason == rules::IllegalReason::kSuicide ||
                                  v.reason == rules::IllegalReason::kSuperko ||
                                  v.reason == rules::IllegalReason::kCycle;
      return absl::InvalidArgumentError(absl::StrCat(
          "moves: move ", i + 1, " ", base::QuoteInput(text), " is illegal (",
          rules::IllegalReasonName(v.reason), ")",
          rule_dependent
              ? absl::StrCat(" under ", rules::RulesKey(rules).Text())
              : ""));
    }
    game.Play(c, m->point, v);
  }
  OpeningPosition out;
  out.width = width;
  out.height = height;
  out.to_play =
      line.to_play == rules::Color::kEmpty ? game.to_play() : line.to_play;
  out.key = rules::SymmetricHasher(game.board()).Canonical(out.to_play);
  return out;
}

absl::StatusOr<qipu::v1::OpeningsResponse> QueryEngine::Openings(
    const qipu::v1::OpeningsRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  auto examples = ExamplesWanted(req.examples());
  if (!examples.ok()) return examples.status();
  const int w = filter->width() != 0 ? static_cast<int>(filter->width())
                                     : kDefaultOpeningsSize;
  const int h = filter->height() != 0 ? static_cast<int>(filter->height())
                                      : kDefaultOpeningsSize;
  const int handicap = filter->proto().has_handicap()
                           ? static_cast<int>(filter->proto().handicap())
                           : 0;
  OpeningLine line;
  line.setup.assign(req.setup().begin(), req.setup().end());
  line.moves.assign(req.moves().begin(), req.moves().end());
  if (req.to_play() != qipu::v1::COLOR_UNSPECIFIED) {
    auto c = wire::ColorFromProto(req.to_play());
    if (!c.ok() || *c == rules::Color::kEmpty) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_play: ", static_cast<int>(req.to_play()),
                       " is neither COLOR_BLACK nor COLOR_WHITE"));
    }
    line.to_play = *c;
  }
  auto pos = ReplayOpening(w, h, OpeningsReplayRules(*filter), handicap, line);
  if (!pos.ok()) return pos.status();

  // One prefix scan: every (configuration, day) bucket of the position,
  // in the files and in the index's buffer.
  const std::string prefix = store::PositionPrefix(
      static_cast<uint8_t>(w), static_cast<uint8_t>(h), pos->key.key);
  absl::flat_hash_map<uint32_t, bool> config_matches;
  store::Outcome reached;
  std::vector<ContinuationSum> sums;
  // Continuations by canonical move (which names the resulting position).
  absl::flat_hash_map<uint16_t, size_t> by_move;
  absl::Status bad;
  if (filter->by_game()) {
    // Players, events, results, ranks: the player index's postings.
    std::vector<std::pair<uint16_t, store::Outcome>> conts;
    std::vector<std::vector<store::GameId>> conts_examples;
    if (absl::Status s = OpeningsByGame(*filter, w, h, pos->key.key, *examples,
                                        &reached, &conts, &conts_examples);
        !s.ok()) {
      return s;
    }
    for (size_t i = 0; i < conts.size(); ++i) {
      sums.emplace_back();
      sums.back().move = conts[i].first;
      sums.back().outcome = conts[i].second;
      sums.back().examples = std::move(conts_examples[i]);
    }
  }
  absl::Status read =
      filter->by_game()
          ? absl::OkStatus()
          : store_->position_index().ForEachUnderPrefix(
                prefix, [&](absl::string_view k, absl::string_view v) {
                  auto parts = store::DecodePositionKey(k);
                  if (!parts) {
                    bad = absl::DataLossError(
                        absl::StrCat("position index: malformed key under ",
                                     pos->key.key.ToHex()));
                    return false;
                  }
                  if (!filter->MatchesDay(parts->day)) return true;
                  auto [cm, inserted] =
                      config_matches.try_emplace(parts->config_id, false);
                  if (inserted) {
                    const auto config = configs_->Get(parts->config_id);
                    cm->second =
                        config.has_value() && filter->MatchesConfig(*config);
                  }
                  if (!cm->second) return true;
                  auto value = store::DecodePositionValue(v);
                  if (!value.ok()) {
                    bad = absl::DataLossError(absl::StrCat(
                        "position index entry of ", pos->key.key.ToHex(), ": ",
                        value.status().message()));
                    return false;
                  }
                  reached.Add(value->reached);
                  for (store::Continuation& c : value->continuations) {
                    auto [slot, fresh] =
                        by_move.try_emplace(c.move, sums.size());
                    if (fresh) {
                      sums.emplace_back();
                      sums.back().move = c.move;
                    }
                    ContinuationSum& sum = sums[slot->second];
                    sum.outcome.Add(c.outcome);
                    for (const store::GameId& id : c.examples) {
                      if (static_cast<int>(sum.examples.size()) >= *examples)
                        break;
                      sum.examples.push_back(id);
                    }
                  }
                  return true;
                });
  if (!read.ok()) return read;
  if (!bad.ok()) return bad;

  // Canonical-frame moves back into the caller's orientation.
  const int back = rules::InverseTransform(pos->key.transform);
  for (ContinuationSum& s : sums) {
    if (s.move == 0) {
      s.order = w * h;
      s.name = "pass";
      continue;
    }
    const rules::Point canonical = rules::FromDenseIndex(s.move - 1, w);
    const rules::Point mine = rules::TransformPoint(back, canonical, w, h);
    s.order = rules::DenseIndex(mine, w);
    s.name = rules::GtpPoint(mine, h);
  }
  std::sort(sums.begin(), sums.end(), [](const auto& a, const auto& b) {
    if (a.outcome.games != b.outcome.games)
      return a.outcome.games > b.outcome.games;
    return a.order < b.order;
  });
  if (req.limit() != 0 && sums.size() > req.limit()) sums.resize(req.limit());

  qipu::v1::OpeningsResponse resp;
  CopyOutcome(reached, resp.mutable_reached());
  resp.set_position_key(pos->key.key.ToHex());
  resp.set_to_play(wire::ColorToProto(pos->to_play));
  for (const ContinuationSum& s : sums) {
    qipu::v1::Continuation* c = resp.add_continuations();
    c->set_move(s.name);
    CopyOutcome(s.outcome, c->mutable_outcomes());
    for (const store::GameId& id : s.examples) {
      c->add_example_game_ids(store::GameIdText(id));
    }
  }
  return resp;
}

absl::StatusOr<qipu::v1::GetGameResponse> QueryEngine::GetGame(
    const qipu::v1::GetGameRequest& req) const {
  auto id = store::ParseGameId(req.id());
  if (!id.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("id: ", id.status().message()));
  }
  auto value = store_->Get(store::Records::kGames, store::GameKey(*id));
  if (!value.ok()) return value.status();
  if (!value->has_value()) {
    return absl::NotFoundError(
        absl::StrCat("game ", req.id(), " is not stored"));
  }
  qipu::v1::GetGameResponse resp;
  if (!resp.mutable_game()->ParseFromString(**value)) {
    return absl::DataLossError(absl::StrCat("game ", req.id(), " is damaged"));
  }
  auto sgf = GameSgf(resp.game());
  if (!sgf.ok()) {
    return absl::DataLossError(
        absl::StrCat("game ", req.id(),
                     " cannot be written as SGF: ", sgf.status().message()));
  }
  resp.set_sgf(*std::move(sgf));
  resp.set_id(store::GameIdText(*id));
  return resp;
}

}  // namespace qipu::engine
