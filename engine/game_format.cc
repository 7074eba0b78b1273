#include "engine/game_format.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/quote.h"
#include "nlohmann/json.hpp"
#include "proto/convert.h"
#include "proto/search_visits.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/rules_key.h"
#include "rules/sgf_writer.h"

namespace qipu::engine {
namespace {

using Json = nlohmann::ordered_json;

const char* ColorLetter(rules::Color c) {
  return c == rules::Color::kWhite ? "W" : "B";
}

// RU of an exported game: the name of the preset the rules are, komi
// aside (KM carries the komi), or every axis when they are no preset (so
// nothing is lost; the reader notes it and replays under chinese).
std::string RulesText(const qipu::v1::RuleSet& p) {
  auto r = wire::RulesFromProto(p);
  if (!r.ok()) return p.preset();
  for (absl::string_view name : rules::PresetNames()) {
    auto preset = rules::PresetRules(name);
    if (!preset.ok()) continue;
    preset->komi = r->komi;
    if (*preset == *r) return std::string(name);
  }
  return rules::RulesKey(*r).Text();
}

Json Vertices(const std::vector<rules::Point>& points, int height) {
  Json out = Json::array();
  for (rules::Point p : points) out.push_back(rules::GtpPoint(p, height));
  return out;
}

// The GTP name of a packed point (y * width + x + 1, 0 = pass).
std::string PackedVertex(uint32_t point, int width, int height) {
  if (point == 0 || point > static_cast<uint32_t>(width * height)) {
    return "pass";
  }
  return rules::GtpPoint(
      rules::FromDenseIndex(static_cast<int>(point) - 1, width), height);
}

// Cycles as the game's JSON lists them (class, outcome, first_move,
// period, point, black_captures, white_captures).
Json CyclesJson(const google::protobuf::RepeatedPtrField<qipu::v1::Cycle>& list,
                int w, int h) {
  Json cycles = Json::array();
  for (const qipu::v1::Cycle& c : list) {
    auto cr = wire::CycleFromProto(c, w, h);
    Json e;
    e["class"] = cr.ok() ? rules::CycleClassName(cr->cls) : "other";
    e["outcome"] = cr.ok() ? rules::CycleOutcomeName(cr->outcome) : "";
    e["first_move"] = c.first_move();
    e["period"] = c.period();
    e["point"] = PackedVertex(c.point(), w, h);
    e["black_captures"] = c.black_captures();
    e["white_captures"] = c.white_captures();
    cycles.push_back(std::move(e));
  }
  return cycles;
}

// --- JSON reading, without exceptions -----------------------------------

const Json* Find(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

absl::Status FieldError(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("field ", base::QuoteInput(field), " ", why));
}

// An integer in [lo, hi]; `*out` unchanged when the field is absent.
absl::Status GetInt(const Json& obj, const char* key, int64_t lo, int64_t hi,
                    bool required, int64_t* out) {
  const Json* v = Find(obj, key);
  if (v == nullptr) {
    return required ? FieldError(key, "is missing") : absl::OkStatus();
  }
  if (!v->is_number_integer()) return FieldError(key, "is not an integer");
  const int64_t n = v->is_number_unsigned()
                        ? static_cast<int64_t>(std::min<uint64_t>(
                              v->get<uint64_t>(), uint64_t{INT64_MAX}))
                        : v->get<int64_t>();
  if (n < lo || n > hi) {
    return FieldError(key, absl::StrCat("is ", n, ", outside ", lo, "..", hi));
  }
  *out = n;
  return absl::OkStatus();
}

absl::Status GetString(const Json& obj, const char* key, std::string* out) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_string()) return FieldError(key, "is not a string");
  *out = v->get<std::string>();
  return absl::OkStatus();
}

absl::Status GetColor(const Json& obj, const char* key, rules::Color* out) {
  std::string s;
  if (absl::Status st = GetString(obj, key, &s); !st.ok()) return st;
  if (s.empty()) return absl::OkStatus();
  if (s == "B" || s == "b") {
    *out = rules::Color::kBlack;
  } else if (s == "W" || s == "w") {
    *out = rules::Color::kWhite;
  } else {
    return FieldError(key,
                      absl::StrCat("is ", base::QuoteInput(s), ", not B or W"));
  }
  return absl::OkStatus();
}

absl::Status GetVertices(const Json& obj, const char* key, int width,
                         int height, bool allow_pass,
                         std::vector<rules::Point>* out) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return absl::OkStatus();
  if (!v->is_array()) return FieldError(key, "is not an array");
  out->reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    const Json& e = (*v)[i];
    if (!e.is_string()) {
      return FieldError(absl::StrCat(key, "[", i, "]"), "is not a string");
    }
    auto p = rules::ParseGtpPoint(e.get<std::string>(), width, height);
    if (!p.ok() || *p == rules::kResign ||
        (!allow_pass && *p == rules::kPass)) {
      return FieldError(
          absl::StrCat(key, "[", i, "]"),
          p.ok() ? "is not a board point" : std::string(p.status().message()));
    }
    out->push_back(*p);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<rules::GameRecord> ExportRecord(const qipu::v1::Game& game) {
  auto record = wire::GameToRecord(game);
  if (!record.ok()) return record.status();
  // The game's result as exports write it (the record's text as written
  // when the stored result is unknown).
  record->result.text = record->result.Sgf();
  record->rules = RulesText(game.rules());
  const qipu::v1::Provenance& p = game.provenance();
  auto& extra = record->extra;
  const bool self_play = p.job() != 0;
  if (self_play) {
    extra.emplace_back("QJ", absl::StrCat(p.job()));
    extra.emplace_back("QI", absl::StrCat(p.game_index()));
    extra.emplace_back("QS", absl::StrCat(p.seed()));
    if (p.attempt() > 0) extra.emplace_back("QA", absl::StrCat(p.attempt()));
  }
  if (!p.policy().empty()) extra.emplace_back("QP", p.policy());
  if (!p.black_policy().empty()) extra.emplace_back("QB", p.black_policy());
  if (!p.white_policy().empty()) extra.emplace_back("QW", p.white_policy());
  if (!p.source().empty()) extra.emplace_back("QO", p.source());
  extra.emplace_back("QC", absl::StrCat(game.cycles_size()));
  extra.emplace_back("QK", absl::StrCat(game.ko_captures()));
  if (!p.qipu_version().empty()) extra.emplace_back("QV", p.qipu_version());
  auto searches = SearchProperties(game);
  if (!searches.ok()) return searches.status();
  record->move_extra = *std::move(searches);
  return record;
}

absl::StatusOr<std::vector<rules::MoveProperty>> SearchProperties(
    const qipu::v1::Game& game) {
  const int w = static_cast<int>(game.width());
  const int h = static_cast<int>(game.height());
  auto searches =
      wire::UnpackSearches(game.search_visits(), w, h, game.num_moves());
  if (!searches.ok()) return searches.status();
  std::vector<rules::MoveProperty> out;
  out.reserve(searches->size());
  for (const wire::MoveSearch& s : *searches) {
    std::string text;
    for (const wire::PointVisits& v : s.visits) {
      absl::StrAppend(&text, text.empty() ? "" : " ",
                      v.point == rules::kPass ? std::string("pass")
                                              : rules::SgfPoint(v.point),
                      ":", v.visits);
    }
    out.push_back({static_cast<int>(s.move), std::string(kSearchProperty),
                   std::move(text)});
  }
  return out;
}

absl::StatusOr<std::string> SearchVisitsOf(const rules::GameRecord& record) {
  std::vector<wire::MoveSearch> searches;
  for (const rules::MoveProperty& mp : record.move_extra) {
    if (mp.name != kSearchProperty) continue;
    auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat(kSearchProperty, " of move ", mp.move + 1, ": ", why));
    };
    wire::MoveSearch s;
    s.move = static_cast<uint32_t>(mp.move);
    for (absl::string_view pair :
         absl::StrSplit(mp.value, ' ', absl::SkipWhitespace())) {
      const size_t colon = pair.rfind(':');
      uint32_t visits = 0;
      if (colon == absl::string_view::npos ||
          !absl::SimpleAtoi(pair.substr(colon + 1), &visits)) {
        return bad(
            absl::StrCat(base::QuoteInput(pair), " is not point:visits"));
      }
      const absl::string_view point = pair.substr(0, colon);
      rules::Point p = rules::kPass;
      if (point != "pass") {
        auto parsed = rules::ParseSgfPoint(point, record.width, record.height);
        if (!parsed.ok()) return bad(parsed.status().message());
        p = *parsed;
      }
      s.visits.push_back({p, visits});
    }
    searches.push_back(std::move(s));
  }
  const std::string packed = wire::PackSearches(searches, record.width);
  // The same checks as a worker's upload (increasing moves, points once,
  // visits above 0).
  auto check = wire::UnpackSearches(packed, record.width, record.height,
                                    static_cast<uint32_t>(record.moves.size()));
  if (!check.ok()) return check.status();
  if (check->size() != searches.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(kSearchProperty, ": an entry without visits"));
  }
  return packed;
}

absl::StatusOr<std::string> GameToSgf(const qipu::v1::Game& game) {
  auto record = ExportRecord(game);
  if (!record.ok()) return record.status();
  std::string sgf = rules::WriteSgf(*record);
  if (sgf.empty() || sgf.back() != '\n') sgf += '\n';
  return sgf;
}

std::vector<KeptNote> KeptNotes(const qipu::v1::Game& game) {
  std::vector<KeptNote> out;
  const int w = static_cast<int>(game.width());
  const int h = static_cast<int>(game.height());
  auto r = wire::RulesFromProto(game.rules());
  const rules::Rules rules = r.ok() ? *r : rules::Rules{};
  for (const qipu::v1::RuleBreach& p : game.breaches()) {
    auto b = wire::BreachFromProto(p, w, h);
    KeptNote n;
    n.move = static_cast<int>(p.move());
    n.colour = p.color() == qipu::v1::COLOR_WHITE ? "W" : "B";
    n.vertex = PackedVertex(p.point(), w, h);
    if (b.ok()) {
      n.rule = b->rule == rules::IllegalReason::kGameOver
                   ? "game-end"
                   : rules::IllegalReasonName(b->rule);
      n.text = rules::RuleBreachText(*b, rules, h);
    } else {
      n.rule = "?";
      n.text = absl::StrCat("move ", p.move(), ": ", b.status().message());
    }
    out.push_back(std::move(n));
  }
  if (game.has_cut()) {
    const qipu::v1::RecordCut& p = game.cut();
    KeptNote n;
    n.cut = true;
    n.move = static_cast<int>(p.move());
    n.colour = p.color() == qipu::v1::COLOR_WHITE ? "W" : "B";
    n.vertex = p.point() == 0 ? std::string() : PackedVertex(p.point(), w, h);
    n.rule =
        p.reason() == qipu::v1::CUT_REASON_OCCUPIED ? "occupied" : "off-board";
    auto c = wire::CutFromProto(p, w, h);
    n.text = c.ok() ? rules::RecordCutText(*c, h)
                    : absl::StrCat("cut at move ", p.move());
    if (c.ok() && c->played.point == rules::kNoPoint && !p.value().empty()) {
      absl::StrAppend(&n.text, " ('", p.value(), "')");
    }
    absl::StrAppend(&n.text, "; stored up to move ", p.move() - 1, " of ",
                    p.recorded_moves(), " read");
    out.push_back(std::move(n));
  }
  return out;
}

absl::StatusOr<Json> GameJson(const qipu::v1::Game& game,
                              absl::string_view id) {
  auto record = ExportRecord(game);
  if (!record.ok()) return record.status();
  const int w = record->width;
  const int h = record->height;
  Json j;
  j["id"] = std::string(id);
  j["width"] = w;
  j["height"] = h;
  j["rules"] = record->rules;
  auto r = wire::RulesFromProto(game.rules());
  j["rules_key"] = r.ok() ? rules::RulesKey(*r).Text() : std::string();
  j["komi"] = game.rules().komi();
  j["handicap"] = game.handicap();
  Json setup = Json::array();
  for (const rules::SetupStep& s : record->setup) {
    Json step;
    step["before_move"] = s.before_move;
    step["black"] = Vertices(s.black, h);
    step["white"] = Vertices(s.white, h);
    step["empty"] = Vertices(s.empty, h);
    step["to_play"] = s.to_play == rules::Color::kEmpty
                          ? std::string()
                          : std::string(ColorLetter(s.to_play));
    setup.push_back(std::move(step));
  }
  j["setup"] = std::move(setup);
  j["first_color"] =
      record->moves.empty() ? "B" : ColorLetter(record->moves[0].color);
  Json moves = Json::array();
  for (const rules::Move& m : record->moves) {
    moves.push_back(rules::GtpPoint(m.point, h));
  }
  j["moves"] = std::move(moves);
  j["same_color_moves"] = Json(std::vector<uint32_t>(
      game.same_color_moves().begin(), game.same_color_moves().end()));
  j["result"] = record->result.text;
  auto res = wire::ResultFromProto(game.result());
  j["winner"] = res.ok() ? rules::WinnerName(res->winner) : "none";
  j["reason"] = res.ok() ? rules::EndReasonName(res->reason) : "unknown";
  j["margin"] = game.result().margin();
  j["detail"] = game.result().detail();
  j["illegal_point"] = game.result().illegal_point() == 0
                           ? std::string()
                           : PackedVertex(game.result().illegal_point(), w, h);
  j["area"] = {{"black", game.area().black()},
               {"white", game.area().white()},
               {"dame", game.area().dame()}};
  j["cycles"] = CyclesJson(game.cycles(), w, h);
  j["voided_cycles"] = CyclesJson(game.voided_cycles(), w, h);
  j["ko_captures"] = game.ko_captures();
  // An imported record kept against its rules (prepare.h): how, and its
  // notes (moves played against the rules, then the cut).
  j["record"] = game.has_cut()             ? "cut"
                : game.breaches_size() > 0 ? "noted"
                                           : "";
  Json notes = Json::array();
  for (const KeptNote& n : KeptNotes(game)) {
    notes.push_back({{"move", n.move},
                     {"colour", n.colour},
                     {"vertex", n.vertex},
                     {"rule", n.rule},
                     {"cut", n.cut},
                     {"text", n.text}});
  }
  j["record_notes"] = std::move(notes);
  Json searches = Json::array();
  if (auto unpacked =
          wire::UnpackSearches(game.search_visits(), w, h, game.num_moves());
      unpacked.ok()) {
    for (const wire::MoveSearch& s : *unpacked) {
      Json points = Json::array();
      Json visits = Json::array();
      for (const wire::PointVisits& v : s.visits) {
        points.push_back(rules::GtpPoint(v.point, h));
        visits.push_back(v.visits);
      }
      searches.push_back(
          {{"move", s.move}, {"points", points}, {"visits", visits}});
    }
  }
  j["searches"] = std::move(searches);
  const qipu::v1::Provenance& p = game.provenance();
  j["provenance"] = {{"job", p.job()},
                     {"game_index", p.game_index()},
                     {"seed", p.seed()},
                     {"attempt", p.attempt()},
                     {"worker", p.worker()},
                     {"policy", p.policy()},
                     {"black_policy", p.black_policy()},
                     {"white_policy", p.white_policy()},
                     {"source", p.source()},
                     {"file", p.file()},
                     {"file_game", p.file_game()},
                     {"qipu_version", p.qipu_version()},
                     {"stored_unix_micros", p.stored_unix_micros()}};
  const qipu::v1::Meta& m = game.meta();
  j["meta"] = {{"black_player", m.black_player()},
               {"white_player", m.white_player()},
               {"black_rank", m.black_rank()},
               {"white_rank", m.white_rank()},
               {"date", m.date()},
               {"date_ymd", m.date_ymd()},
               {"event", m.event()},
               {"record_result", m.record_result()},
               {"normalised", std::vector<std::string>(m.normalised().begin(),
                                                       m.normalised().end())}};
  return j;
}

absl::StatusOr<std::string> GameToJsonLine(const qipu::v1::Game& game,
                                           absl::string_view id) {
  auto j = GameJson(game, id);
  if (!j.ok()) return j.status();
  // Invalid UTF-8 (never produced by the reader) is replaced, not thrown.
  return j->dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<rules::GameRecord> JsonLineToRecord(absl::string_view line) {
  const Json j = Json::parse(line.begin(), line.end(), nullptr,
                             /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return absl::InvalidArgumentError("not a JSON value");
  }
  if (!j.is_object()) return absl::InvalidArgumentError("not a JSON object");
  rules::GameRecord r;
  int64_t width = 0;
  int64_t height = 0;
  int64_t handicap = 0;
  if (absl::Status s =
          GetInt(j, "width", rules::kMinSize, rules::kMaxSize, true, &width);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          GetInt(j, "height", rules::kMinSize, rules::kMaxSize, true, &height);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = GetInt(j, "handicap", 0, 9, false, &handicap); !s.ok()) {
    return s;
  }
  r.width = static_cast<int>(width);
  r.height = static_cast<int>(height);
  r.handicap = static_cast<int>(handicap);
  if (const Json* setup = Find(j, "setup")) {
    if (!setup->is_array()) return FieldError("setup", "is not an array");
    for (const Json& e : *setup) {
      if (!e.is_object()) return FieldError("setup", "holds a non-object");
      rules::SetupStep step;
      int64_t before = 0;
      if (absl::Status s =
              GetInt(e, "before_move", 0, INT32_MAX, false, &before);
          !s.ok()) {
        return s;
      }
      step.before_move = static_cast<int>(before);
      for (auto [key, list] :
           {std::pair{"black", &step.black}, std::pair{"white", &step.white},
            std::pair{"empty", &step.empty}}) {
        if (absl::Status s =
                GetVertices(e, key, r.width, r.height, false, list);
            !s.ok()) {
          return s;
        }
      }
      if (absl::Status s = GetColor(e, "to_play", &step.to_play); !s.ok()) {
        return s;
      }
      r.setup.push_back(std::move(step));
    }
  }
  std::vector<rules::Point> points;
  if (Find(j, "moves") == nullptr) return FieldError("moves", "is missing");
  if (absl::Status s =
          GetVertices(j, "moves", r.width, r.height, true, &points);
      !s.ok()) {
    return s;
  }
  rules::Color c = r.handicap >= 2 && !r.setup.empty() ? rules::Color::kWhite
                                                       : rules::Color::kBlack;
  if (absl::Status s = GetColor(j, "first_color", &c); !s.ok()) return s;
  std::vector<int64_t> same;
  if (const Json* v = Find(j, "same_color_moves")) {
    if (!v->is_array()) {
      return FieldError("same_color_moves", "is not an array");
    }
    for (const Json& e : *v) {
      if (!e.is_number_unsigned() || e.get<uint64_t>() == 0 ||
          e.get<uint64_t>() >= points.size() ||
          (!same.empty() &&
           static_cast<int64_t>(e.get<uint64_t>()) <= same.back())) {
        return FieldError("same_color_moves",
                          "must hold increasing move indices 1..moves-1");
      }
      same.push_back(static_cast<int64_t>(e.get<uint64_t>()));
    }
  }
  size_t next_same = 0;
  r.moves.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0) {
      if (next_same < same.size() &&
          same[next_same] == static_cast<int64_t>(i)) {
        ++next_same;
      } else {
        c = rules::Opponent(c);
      }
    }
    r.moves.push_back(rules::Move{c, points[i]});
  }
  if (const Json* komi = Find(j, "komi")) {
    if (!komi->is_number()) return FieldError("komi", "is not a number");
    r.komi = komi->get<double>();
    r.has_komi = true;
  }
  if (absl::Status s = GetString(j, "rules", &r.rules); !s.ok()) return s;
  std::string result;
  if (absl::Status s = GetString(j, "result", &result); !s.ok()) return s;
  r.result = rules::RecordResult::Read(result);
  if (const Json* searches = Find(j, "searches")) {
    if (!searches->is_array()) return FieldError("searches", "is not an array");
    for (size_t i = 0; i < searches->size(); ++i) {
      const Json& e = (*searches)[i];
      const std::string field = absl::StrCat("searches[", i, "]");
      if (!e.is_object()) return FieldError(field, "is not an object");
      int64_t move = 0;
      if (absl::Status s =
              GetInt(e, "move", 0, static_cast<int64_t>(r.moves.size()) - 1,
                     true, &move);
          !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("field '", field, "': ", s.message()));
      }
      std::vector<rules::Point> pts;
      if (absl::Status s =
              GetVertices(e, "points", r.width, r.height, true, &pts);
          !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("field '", field, "': ", s.message()));
      }
      const Json* visits = Find(e, "visits");
      if (visits == nullptr || !visits->is_array() ||
          visits->size() != pts.size()) {
        return FieldError(field, "needs \"visits\": one count for each point");
      }
      std::string text;
      for (size_t k = 0; k < pts.size(); ++k) {
        const Json& v = (*visits)[k];
        if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 ||
            v.get<uint64_t>() > UINT32_MAX) {
          return FieldError(field, "visits must be counts from 1 to 2^32-1");
        }
        absl::StrAppend(&text, text.empty() ? "" : " ",
                        pts[k] == rules::kPass ? std::string("pass")
                                               : rules::SgfPoint(pts[k]),
                        ":", v.get<uint64_t>());
      }
      r.move_extra.push_back(
          {static_cast<int>(move), std::string(kSearchProperty), text});
    }
  }
  if (const Json* meta = Find(j, "meta")) {
    if (!meta->is_object()) return FieldError("meta", "is not an object");
    for (auto [key, field] :
         {std::pair{"black_player", &r.black_player},
          std::pair{"white_player", &r.white_player},
          std::pair{"black_rank", &r.black_rank},
          std::pair{"white_rank", &r.white_rank}, std::pair{"date", &r.date},
          std::pair{"event", &r.event}}) {
      if (absl::Status s = GetString(*meta, key, field); !s.ok()) return s;
    }
  }
  return r;
}

}  // namespace qipu::engine
