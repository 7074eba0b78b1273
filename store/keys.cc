#include "store/keys.h"

namespace qipu::store {
namespace {

constexpr char kVersionTag = 'V';
constexpr char kCounterTag = 'N';
constexpr char kConfigTag = 'C';
constexpr char kConfigTupleTag = 'c';

}  // namespace

std::string PrefixUpperBound(absl::string_view prefix) {
  std::string upper(prefix);
  while (!upper.empty() && static_cast<uint8_t>(upper.back()) == 0xff) {
    upper.pop_back();
  }
  if (!upper.empty()) {
    upper.back() = static_cast<char>(static_cast<uint8_t>(upper.back()) + 1);
  }
  return upper;
}

std::string EncodeUint64Value(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (8 * i));
  return out;
}

std::optional<uint64_t> DecodeUint64Value(absl::string_view v) {
  if (v.size() != 8) return std::nullopt;
  uint64_t x = 0;
  for (int i = 7; i >= 0; --i) x = (x << 8) | static_cast<uint8_t>(v[i]);
  return x;
}

std::string FormatVersionKey() { return std::string(1, kVersionTag); }

std::string CounterKey(absl::string_view name) {
  std::string k(1, kCounterTag);
  k.append(name.data(), name.size());
  return k;
}

std::string ConfigKey(uint32_t config_id) {
  std::string k(1, kConfigTag);
  PutFixed32BE(&k, config_id);
  return k;
}

std::optional<uint32_t> DecodeConfigKey(absl::string_view key) {
  if (key.size() != 5 || key[0] != kConfigTag) return std::nullopt;
  return GetFixed32BE(key.data() + 1);
}

std::string ConfigKeyPrefix() { return std::string(1, kConfigTag); }

std::string ConfigTupleKey(absl::string_view tuple) {
  std::string k(1, kConfigTupleTag);
  k.append(tuple.data(), tuple.size());
  return k;
}

std::string GameKey(const GameId& id) {
  std::string k(1, static_cast<char>(id.kind));
  PutFixed64BE(&k, id.hi);
  PutFixed64BE(&k, id.lo);
  return k;
}

std::optional<GameId> DecodeGameKey(absl::string_view key) {
  if (key.size() != 17) return std::nullopt;
  const auto kind = static_cast<GameId::Kind>(key[0]);
  if (kind != GameId::Kind::kSelfPlay && kind != GameId::Kind::kImported) {
    return std::nullopt;
  }
  return GameId{kind, GetFixed64BE(key.data() + 1),
                GetFixed64BE(key.data() + 9)};
}

std::string JobGamesPrefix(uint64_t job) {
  std::string k(1, static_cast<char>(GameId::Kind::kSelfPlay));
  PutFixed64BE(&k, job);
  return k;
}

std::string PositionPrefix(uint8_t width, uint8_t height,
                           const rules::Hash128& position) {
  std::string k(kPositionPrefixLength, '\0');
  EncodePositionPrefix(k.data(), width, height, position);
  return k;
}

std::string PositionKey(const PositionKeyParts& p) {
  std::string k(kPositionKeyLength, '\0');
  EncodePositionKey(k.data(), p);
  return k;
}

std::optional<PositionKeyParts> DecodePositionKey(absl::string_view key) {
  if (key.size() != kPositionKeyLength || key[0] == 0) return std::nullopt;
  PositionKeyParts p;
  p.width = static_cast<uint8_t>(key[0]);
  p.height = static_cast<uint8_t>(key[1]);
  p.position.hi = GetFixed64BE(key.data() + 2);
  p.position.lo = GetFixed64BE(key.data() + 10);
  p.config_id = GetFixed32BE(key.data() + 18);
  p.day = GetFixed32BE(key.data() + 22);
  return p;
}

std::string IndexWatermarkKey() {
  return std::string(kPositionKeyLength, '\0');
}

std::string IndexWatermarkValue(uint64_t batch) {
  std::string v;
  PutFixed64BE(&v, batch);
  return v;
}

std::optional<uint64_t> DecodeIndexWatermarkValue(absl::string_view value) {
  if (value.size() != 8) return std::nullopt;
  return GetFixed64BE(value.data());
}

std::string UnindexedKey(uint64_t batch) {
  std::string k(1, kUnindexedTag);
  PutFixed64BE(&k, batch);
  return k;
}

std::optional<uint64_t> DecodeUnindexedKey(absl::string_view key) {
  if (key.size() != 9 || key[0] != kUnindexedTag) return std::nullopt;
  return GetFixed64BE(key.data() + 1);
}

std::string AggregateKey(uint32_t config_id, uint32_t day) {
  std::string k;
  PutFixed32BE(&k, config_id);
  PutFixed32BE(&k, day);
  return k;
}

bool DecodeAggregateKey(absl::string_view key, uint32_t* config_id,
                        uint32_t* day) {
  if (key.size() != 8) return false;
  *config_id = GetFixed32BE(key.data());
  *day = GetFixed32BE(key.data() + 4);
  return true;
}

std::string JobKey(uint64_t job) {
  std::string k(1, kJobTag);
  PutFixed64BE(&k, job);
  return k;
}

std::optional<uint64_t> DecodeJobKey(absl::string_view key) {
  if (key.size() != 9 || key[0] != kJobTag) return std::nullopt;
  return GetFixed64BE(key.data() + 1);
}

std::string TournamentKey(uint64_t id) {
  std::string k(1, kTournamentTag);
  PutFixed64BE(&k, id);
  return k;
}

std::optional<uint64_t> DecodeTournamentKey(absl::string_view key) {
  if (key.size() != 9 || key[0] != kTournamentTag) return std::nullopt;
  return GetFixed64BE(key.data() + 1);
}

std::string TokenKey(uint64_t id) {
  std::string k(1, kTokenTag);
  PutFixed64BE(&k, id);
  return k;
}

std::optional<uint64_t> DecodeTokenKey(absl::string_view key) {
  if (key.size() != 9 || key[0] != kTokenTag) return std::nullopt;
  return GetFixed64BE(key.data() + 1);
}

std::string JobCounterKey(uint64_t job, JobCounter counter) {
  std::string k(1, kJobCounterTag);
  PutFixed64BE(&k, job);
  k.push_back(static_cast<char>(counter));
  return k;
}

bool DecodeJobCounterKey(absl::string_view key, uint64_t* job,
                         JobCounter* counter) {
  if (key.size() != 10 || key[0] != kJobCounterTag) return false;
  const auto c = static_cast<JobCounter>(key[9]);
  if (c != JobCounter::kDone && c != JobCounter::kRejected) return false;
  *job = GetFixed64BE(key.data() + 1);
  *counter = c;
  return true;
}

std::string LeaseKey(uint64_t job, absl::string_view lease_id) {
  std::string k(1, kLeaseTag);
  PutFixed64BE(&k, job);
  k.append(lease_id.data(), lease_id.size());
  return k;
}

std::string AbandonedKey(uint64_t job, uint64_t index) {
  std::string k(1, kAbandonedTag);
  PutFixed64BE(&k, job);
  PutFixed64BE(&k, index);
  return k;
}

bool DecodeAbandonedKey(absl::string_view key, uint64_t* job, uint64_t* index) {
  if (key.size() != 17 || key[0] != kAbandonedTag) return false;
  *job = GetFixed64BE(key.data() + 1);
  *index = GetFixed64BE(key.data() + 9);
  return true;
}

namespace {

std::string NamedPrefix(char tag, absl::string_view name) {
  std::string k;
  k.reserve(name.size() + 2);
  k.push_back(tag);
  k.append(name.data(), name.size());
  k.push_back('\0');
  return k;
}

std::string PostingKey(char tag, absl::string_view name, uint32_t day,
                       const GameId& id) {
  std::string k = NamedPrefix(tag, name);
  PutFixed32BE(&k, day);
  k += GameKey(id);
  return k;
}

}  // namespace

std::string PlayerPostingPrefix(absl::string_view name) {
  return NamedPrefix(kPlayerPostingTag, name);
}
std::string PlayerPostingKey(absl::string_view name, uint32_t day,
                             const GameId& id) {
  return PostingKey(kPlayerPostingTag, name, day, id);
}
std::string EventPostingPrefix(absl::string_view event) {
  return NamedPrefix(kEventPostingTag, event);
}
std::string EventPostingKey(absl::string_view event, uint32_t day,
                            const GameId& id) {
  return PostingKey(kEventPostingTag, event, day, id);
}
std::string DatePostingKey(uint32_t day, const GameId& id) {
  std::string k(1, kDatePostingTag);
  PutFixed32BE(&k, day);
  k += GameKey(id);
  return k;
}

std::optional<PostingKeyParts> DecodePostingKey(absl::string_view key) {
  if (key.empty()) return std::nullopt;
  PostingKeyParts out;
  out.tag = key[0];
  absl::string_view rest = key.substr(1);
  if (out.tag == kPlayerPostingTag || out.tag == kEventPostingTag) {
    const size_t end = rest.find('\0');
    if (end == absl::string_view::npos) return std::nullopt;
    out.name = std::string(rest.substr(0, end));
    rest.remove_prefix(end + 1);
  } else if (out.tag != kDatePostingTag) {
    return std::nullopt;
  }
  if (rest.size() != 4 + 17) return std::nullopt;
  out.day = GetFixed32BE(rest.data());
  auto id = DecodeGameKey(rest.substr(4));
  if (!id) return std::nullopt;
  out.id = *id;
  return out;
}

std::string PlayerCountKey(absl::string_view name, uint16_t year, char colour,
                           uint8_t winner) {
  std::string k = NamedPrefix(kPlayerCountTag, name);
  char b[2];
  EncodeFixed16BE(b, year);
  k.append(b, 2);
  k.push_back(colour);
  k.push_back(static_cast<char>(winner));
  return k;
}
std::string PlayerCountPrefix(absl::string_view name) {
  return NamedPrefix(kPlayerCountTag, name);
}
std::optional<PlayerCountParts> DecodePlayerCountKey(absl::string_view key) {
  if (key.empty() || key[0] != kPlayerCountTag) return std::nullopt;
  absl::string_view rest = key.substr(1);
  const size_t end = rest.find('\0');
  if (end == absl::string_view::npos || rest.size() != end + 5) {
    return std::nullopt;
  }
  PlayerCountParts out;
  out.name = std::string(rest.substr(0, end));
  out.year = GetFixed16BE(rest.data() + end + 1);
  out.colour = rest[end + 3];
  out.winner = static_cast<uint8_t>(rest[end + 4]);
  return out;
}
std::string PlayerNameKey(absl::string_view name, absl::string_view written) {
  std::string k = NamedPrefix(kPlayerNameTag, name);
  k.append(written.data(), written.size());
  return k;
}
std::string EventCountKey(absl::string_view event) {
  return NamedPrefix(kEventCountTag, event);
}
std::optional<std::string> DecodeNamedKey(absl::string_view key,
                                          std::string* rest) {
  if (key.size() < 2) return std::nullopt;
  const size_t end = key.find('\0', 1);
  if (end == absl::string_view::npos) return std::nullopt;
  if (rest != nullptr) *rest = std::string(key.substr(end + 1));
  return std::string(key.substr(1, end - 1));
}
std::string AliasesKey() { return "A"; }

}  // namespace qipu::store
