#include "store/position_value.h"

#include <algorithm>

#include "base/varint.h"

namespace qipu::store {
namespace {

void PutOutcome(std::string* out, const Outcome& o) {
  EmitOutcome(o, [out](char c) { out->push_back(c); });
}

// False when truncated or when the counts exceed the games.
bool GetOutcome(absl::string_view* in, Outcome* o) {
  if (!base::GetVarint64(in, &o->games) || !base::GetVarint64(in, &o->black) ||
      !base::GetVarint64(in, &o->white) || !base::GetVarint64(in, &o->draws)) {
    return false;
  }
  uint64_t left = o->games;
  for (uint64_t part : {o->black, o->white, o->draws}) {
    if (part > left) return false;
    left -= part;
  }
  o->voids = left;
  return true;
}

void PutGameId(std::string* out, const GameId& id) {
  EmitGameId(id, [out](char c) { out->push_back(c); });
}

bool GetGameId(absl::string_view* in, GameId* id) {
  if (in->empty()) return false;
  const uint8_t kind = static_cast<uint8_t>((*in)[0]);
  if (kind != static_cast<uint8_t>(GameId::Kind::kSelfPlay) &&
      kind != static_cast<uint8_t>(GameId::Kind::kImported)) {
    return false;
  }
  in->remove_prefix(1);
  id->kind = static_cast<GameId::Kind>(kind);
  return base::GetVarint64(in, &id->hi) && base::GetVarint64(in, &id->lo);
}

void AppendExamples(std::vector<GameId>* to, const std::vector<GameId>& from) {
  for (const GameId& id : from) {
    if (static_cast<int>(to->size()) >= kMaxExamples) return;
    if (std::find(to->begin(), to->end(), id) == to->end()) to->push_back(id);
  }
}

}  // namespace

void Outcome::Add(rules::Winner w) {
  ++games;
  switch (w) {
    case rules::Winner::kBlack:
      ++black;
      break;
    case rules::Winner::kWhite:
      ++white;
      break;
    case rules::Winner::kDraw:
      ++draws;
      break;
    case rules::Winner::kNone:
      ++voids;
      break;
  }
}

void Outcome::Add(const Outcome& o) {
  games += o.games;
  black += o.black;
  white += o.white;
  draws += o.draws;
  voids += o.voids;
}

std::string EncodePositionValue(const PositionValue& v) {
  std::string out;
  out.reserve(8 + v.continuations.size() * 16);
  PutOutcome(&out, v.reached);
  base::PutVarint64(&out, v.continuations.size());
  for (const Continuation& c : v.continuations) {
    base::PutVarint64(&out, c.move);
    PutOutcome(&out, c.outcome);
    base::PutVarint64(&out, c.examples.size());
    for (const GameId& id : c.examples) PutGameId(&out, id);
  }
  return out;
}

absl::StatusOr<PositionValue> DecodePositionValue(absl::string_view data) {
  PositionValue v;
  absl::string_view in = data;
  uint64_t n = 0;
  if (!GetOutcome(&in, &v.reached) || !base::GetVarint64(&in, &n)) {
    return absl::DataLossError("position value: truncated or bad header");
  }
  // A continuation takes at least 6 bytes.
  if (n > in.size() / 6) {
    return absl::DataLossError("position value: bad continuation count");
  }
  v.continuations.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    Continuation& c = v.continuations[i];
    uint64_t move = 0;
    uint64_t examples = 0;
    if (!base::GetVarint64(&in, &move) || move > 0xFFFF ||
        !GetOutcome(&in, &c.outcome) || !base::GetVarint64(&in, &examples)) {
      return absl::DataLossError("position value: truncated continuation");
    }
    c.move = static_cast<uint16_t>(move);
    if (examples > static_cast<uint64_t>(kMaxExamples)) {
      return absl::DataLossError("position value: bad example count");
    }
    c.examples.resize(examples);
    for (GameId& id : c.examples) {
      if (!GetGameId(&in, &id)) {
        return absl::DataLossError("position value: bad example game id");
      }
    }
    if (i > 0 && !(v.continuations[i - 1].move < c.move)) {
      return absl::DataLossError("position value: unsorted continuations");
    }
  }
  if (!in.empty()) {
    return absl::DataLossError("position value: trailing bytes");
  }
  return v;
}

void MergePositionValues(PositionValue* a, const PositionValue& b) {
  a->reached.Add(b.reached);
  if (b.continuations.empty()) return;
  std::vector<Continuation> merged;
  merged.reserve(a->continuations.size() + b.continuations.size());
  size_t i = 0;
  size_t j = 0;
  auto& ac = a->continuations;
  const auto& bc = b.continuations;
  while (i < ac.size() || j < bc.size()) {
    if (j == bc.size() || (i < ac.size() && ac[i].move < bc[j].move)) {
      merged.push_back(std::move(ac[i++]));
    } else if (i == ac.size() || bc[j].move < ac[i].move) {
      merged.push_back(bc[j++]);
    } else {
      Continuation c = std::move(ac[i++]);
      c.outcome.Add(bc[j].outcome);
      AppendExamples(&c.examples, bc[j].examples);
      merged.push_back(std::move(c));
      ++j;
    }
  }
  ac = std::move(merged);
}

}  // namespace qipu::store
