#include "arena/arena_file.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "gtp/time_settings.h"
#include "match/adjudication.h"
#include "nlohmann/json.hpp"
#include "policy/spec.h"
#include "rules/rules.h"
#include "tournament/tournament.h"

namespace qipu::arena {
namespace {

using Json = nlohmann::json;

// Reads typed values out of one JSON object, naming the object in errors.
class Reader {
 public:
  Reader(const Json& object, std::string where)
      : object_(object), where_(std::move(where)) {}

  // InvalidArgument naming any key not in `known`.
  absl::Status CheckKeys(const std::vector<std::string>& known) const {
    for (const auto& [key, value] : object_.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        return Error(key, absl::StrCat("unknown key (known: ",
                                       absl::StrJoin(known, ", "), ")"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status String(const std::string& key, std::string* out,
                      bool required = false) const {
    auto it = object_.find(key);
    if (it == object_.end()) {
      return required ? Error(key, "missing (required)") : absl::OkStatus();
    }
    if (!it->is_string()) return Error(key, "must be a string");
    *out = it->get<std::string>();
    if (required && out->empty()) return Error(key, "must not be empty");
    return absl::OkStatus();
  }

  absl::Status Int(const std::string& key, int lo, int hi, int* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return absl::OkStatus();
    if (!it->is_number_integer()) return Error(key, "must be an integer");
    const int64_t v = it->get<int64_t>();
    if (v < lo || v > hi) {
      return Error(key, absl::StrCat(v, " is out of range ", lo, "..", hi));
    }
    *out = static_cast<int>(v);
    return absl::OkStatus();
  }

  absl::Status Uint64(const std::string& key, uint64_t* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return absl::OkStatus();
    if (!it->is_number_unsigned() && !it->is_number_integer()) {
      return Error(key, "must be a non-negative integer");
    }
    if (it->is_number_integer() && it->get<int64_t>() < 0) {
      return Error(key, "must be a non-negative integer");
    }
    *out = it->get<uint64_t>();
    return absl::OkStatus();
  }

  absl::Status Double(const std::string& key, double* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return absl::OkStatus();
    if (!it->is_number()) return Error(key, "must be a number");
    *out = it->get<double>();
    return absl::OkStatus();
  }

  absl::Status Bool(const std::string& key, bool* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return absl::OkStatus();
    if (!it->is_boolean()) return Error(key, "must be true or false");
    *out = it->get<bool>();
    return absl::OkStatus();
  }

  absl::Status Error(const std::string& key, absl::string_view why) const {
    return absl::InvalidArgumentError(
        absl::StrCat(where_, ": \"", key, "\": ", why));
  }

 private:
  const Json& object_;
  std::string where_;
};

absl::Status ParseEntrant(const Json& j, const std::string& where,
                          ArenaFileEntrant* e) {
  if (!j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be an object {\"name\", \"spec\"}"));
  }
  Reader r(j, where);
  QIPU_RETURN_IF_ERROR(
      r.CheckKeys({"name", "spec", "rating", "team", "board"}));
  QIPU_RETURN_IF_ERROR(r.String("name", &e->name, /*required=*/true));
  QIPU_RETURN_IF_ERROR(r.String("spec", &e->spec, /*required=*/true));
  QIPU_RETURN_IF_ERROR(r.Int("rating", -1000, 4000, &e->rating));
  QIPU_RETURN_IF_ERROR(r.String("team", &e->team));
  QIPU_RETURN_IF_ERROR(r.Int("board", 0, 32, &e->board));
  if (absl::StartsWith(e->spec, "gtp:")) {
    if (absl::StripAsciiWhitespace(e->spec.substr(4)).empty()) {
      return r.Error("spec", "gtp: needs the engine's command line");
    }
  } else if (auto canonical = policy::CanonicalPolicySpec(e->spec);
             !canonical.ok()) {
    return r.Error("spec", canonical.status().message());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ArenaFile> ParseArenaFile(absl::string_view text,
                                         absl::string_view name) {
  const std::string file(name);
  Json j = Json::parse(text.begin(), text.end(), nullptr,
                       /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded()) {
    // Parse again with exceptions for the position of the fault.
    try {
      Json again = Json::parse(text.begin(), text.end(), nullptr, true, true);
      (void)again;
    } catch (const Json::parse_error& e) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ": not JSON: ", e.what()));
    }
    return absl::InvalidArgumentError(absl::StrCat(file, ": not JSON"));
  }
  if (!j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": the tournament file must be a JSON object"));
  }
  Reader r(j, file);
  QIPU_RETURN_IF_ERROR(
      r.CheckKeys({"name", "system", "rounds", "best_of", "losses",
                   "knockout_size", "teams", "boards", "board_size", "rules",
                   "komi", "handicap", "clock", "illegal_moves", "concurrency",
                   "seed", "index_depth", "entrants", "drawing_lots"}));
  ArenaFile out;
  qipu::v1::CreateTournamentRequest& c = out.create;
  qipu::v1::ArenaSettings& a = *c.mutable_arena();
  std::string s;
  QIPU_RETURN_IF_ERROR(r.String("name", &s, /*required=*/true));
  c.set_name(s);
  s = "round-robin";
  QIPU_RETURN_IF_ERROR(r.String("system", &s));
  auto system = tournament::ParseSystem(s);
  if (!system.ok()) return r.Error("system", system.status().message());
  c.set_system(*system);
  int v = 0;
  QIPU_RETURN_IF_ERROR(r.Int("rounds", 0, 1000, &v));
  c.set_rounds(v);
  v = 0;
  QIPU_RETURN_IF_ERROR(r.Int("best_of", 0, 7, &v));
  c.set_best_of(v);
  v = 0;
  QIPU_RETURN_IF_ERROR(r.Int("losses", 0, 8, &v));
  c.set_losses(v);
  v = 0;
  QIPU_RETURN_IF_ERROR(r.Int("knockout_size", 0, 1024, &v));
  c.set_knockout_size(v);
  bool teams = false;
  QIPU_RETURN_IF_ERROR(r.Bool("teams", &teams));
  c.set_teams(teams);
  v = 0;
  QIPU_RETURN_IF_ERROR(r.Int("boards", 0, 32, &v));
  c.set_boards(v);
  uint64_t lots = 0;
  QIPU_RETURN_IF_ERROR(r.Uint64("drawing_lots", &lots));
  c.set_drawing_lots(lots);

  int size = 19;
  QIPU_RETURN_IF_ERROR(r.Int("board_size", 2, 25, &size));
  a.set_size(size);
  std::string rules_name = "chinese";
  QIPU_RETURN_IF_ERROR(r.String("rules", &rules_name));
  auto rules = rules::PresetRules(rules_name);
  if (!rules.ok()) return r.Error("rules", rules.status().message());
  a.set_rules(rules_name);
  double komi = rules->komi;
  QIPU_RETURN_IF_ERROR(r.Double("komi", &komi));
  if (absl::Status k = rules::ValidateKomi(komi); !k.ok()) {
    return r.Error("komi", k.message());
  }
  a.set_komi(komi);
  int handicap = 0;
  QIPU_RETURN_IF_ERROR(r.Int("handicap", 0, 9, &handicap));
  if (handicap == 1) return r.Error("handicap", "must be 0 or 2..9");
  a.set_handicap(handicap);
  std::string clock = "none";
  QIPU_RETURN_IF_ERROR(r.String("clock", &clock));
  auto time = gtp::ParseTimeSettings(clock);
  if (!time.ok()) return r.Error("clock", time.status().message());
  a.set_time(clock);
  std::string illegal = "forfeit";
  QIPU_RETURN_IF_ERROR(r.String("illegal_moves", &illegal));
  auto policy = match::ParseIllegalMovePolicy(illegal);
  if (!policy.ok()) return r.Error("illegal_moves", policy.status().message());
  a.set_illegal(match::IllegalMovePolicyName(*policy));
  int concurrency = 1;
  QIPU_RETURN_IF_ERROR(r.Int("concurrency", 1, 256, &concurrency));
  a.set_concurrency(concurrency);
  uint64_t seed = 1;
  QIPU_RETURN_IF_ERROR(r.Uint64("seed", &seed));
  a.set_seed(seed);
  int depth = 60;
  QIPU_RETURN_IF_ERROR(r.Int("index_depth", 0, 1000, &depth));
  a.set_index_depth(depth);

  auto entrants = j.find("entrants");
  if (entrants == j.end() || !entrants->is_array()) {
    return r.Error("entrants", "required: an array of {\"name\", \"spec\"}");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < entrants->size(); ++i) {
    ArenaFileEntrant e;
    const std::string where = absl::StrCat(file, ": entrants[", i, "]");
    QIPU_RETURN_IF_ERROR(ParseEntrant((*entrants)[i], where, &e));
    if (!names.insert(e.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": the name \"", e.name, "\" is taken"));
    }
    qipu::v1::ArenaEntrant* pe = a.add_entrants();
    pe->set_name(e.name);
    pe->set_spec(e.spec);
    out.entrants.push_back(std::move(e));
  }
  if (out.entrants.size() < 2) {
    return r.Error("entrants", "a tournament needs at least 2 entrants");
  }
  return out;
}

absl::StatusOr<ArenaFile> ReadArenaFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot read the tournament file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseArenaFile(text.str(), path);
}

}  // namespace qipu::arena
