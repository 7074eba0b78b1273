#include "store/position_value.h"

#include <algorithm>

#include "store/keys.h"
#include "store/varint.h"

namespace qipu::store {
namespace {

void PutOutcome(std::string* out, const Outcome& o) {
  PutVarint64(out, o.games);
  PutVarint64(out, o.black);
  PutVarint64(out, o.white);
  PutVarint64(out, o.draws);
  PutVarint64(out, o.voids);
}

bool GetOutcome(absl::string_view* in, Outcome* o) {
  return GetVarint64(in, &o->games) && GetVarint64(in, &o->black) &&
         GetVarint64(in, &o->white) && GetVarint64(in, &o->draws) &&
         GetVarint64(in, &o->voids);
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
  out.reserve(16 + v.continuations.size() * 32);
  PutOutcome(&out, v.reached);
  PutVarint64(&out, v.continuations.size());
  for (const Continuation& c : v.continuations) {
    PutFixed64BE(&out, c.child.hi);
    PutFixed64BE(&out, c.child.lo);
    PutVarint64(&out, c.move);
    PutOutcome(&out, c.outcome);
    out.push_back(static_cast<char>(c.examples.size()));
    for (const GameId& id : c.examples) out += GameKey(id);
  }
  return out;
}

absl::StatusOr<PositionValue> DecodePositionValue(absl::string_view data) {
  PositionValue v;
  absl::string_view in = data;
  uint64_t n = 0;
  if (!GetOutcome(&in, &v.reached) || !GetVarint64(&in, &n)) {
    return absl::DataLossError("position value: truncated header");
  }
  if (n > in.size() / 22 + 1) {
    return absl::InvalidArgumentError("position value: bad continuation count");
  }
  v.continuations.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    Continuation& c = v.continuations[i];
    if (in.size() < 16) return absl::DataLossError("position value: truncated");
    c.child.hi = GetFixed64BE(in.data());
    c.child.lo = GetFixed64BE(in.data() + 8);
    in.remove_prefix(16);
    uint64_t move = 0;
    if (!GetVarint64(&in, &move) || move > 0xFFFF || !GetOutcome(&in, &c.outcome) ||
        in.empty()) {
      return absl::DataLossError("position value: truncated continuation");
    }
    c.move = static_cast<uint16_t>(move);
    const int examples = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    if (examples > kMaxExamples || in.size() < 17u * examples) {
      return absl::InvalidArgumentError("position value: bad examples");
    }
    for (int e = 0; e < examples; ++e) {
      auto id = DecodeGameKey(in.substr(0, 17));
      if (!id) return absl::InvalidArgumentError("position value: bad game key");
      c.examples.push_back(*id);
      in.remove_prefix(17);
    }
    if (i > 0 && !(v.continuations[i - 1].child < c.child)) {
      return absl::InvalidArgumentError("position value: unsorted continuations");
    }
  }
  if (!in.empty()) {
    return absl::InvalidArgumentError("position value: trailing bytes");
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
    if (j == bc.size() || (i < ac.size() && ac[i].child < bc[j].child)) {
      merged.push_back(std::move(ac[i++]));
    } else if (i == ac.size() || bc[j].child < ac[i].child) {
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
