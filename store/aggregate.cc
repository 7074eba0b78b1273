#include "store/aggregate.h"

#include <algorithm>
#include <cmath>

#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::store {
namespace {

using RepeatedU64 = google::protobuf::RepeatedField<uint64_t>;

void Bump(RepeatedU64* h, int index, uint64_t by = 1) {
  if (index < 0) index = 0;
  while (h->size() <= index) h->Add(0);
  h->Set(index, h->Get(index) + by);
}

void AddHistogram(const RepeatedU64& from, RepeatedU64* to) {
  for (int i = 0; i < from.size(); ++i) {
    if (from.Get(i) != 0) Bump(to, i, from.Get(i));
  }
}

qipu::v1::CycleClass ToProto(rules::CycleClass c) {
  switch (c) {
    case rules::CycleClass::kTripleKo:
      return qipu::v1::CYCLE_CLASS_TRIPLE_KO;
    case rules::CycleClass::kQuadrupleKo:
      return qipu::v1::CYCLE_CLASS_QUADRUPLE_KO;
    case rules::CycleClass::kEternalLife:
      return qipu::v1::CYCLE_CLASS_ETERNAL_LIFE;
    case rules::CycleClass::kSendingTwoReturningOne:
      return qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE;
    case rules::CycleClass::kOther:
      return qipu::v1::CYCLE_CLASS_OTHER;
  }
  return qipu::v1::CYCLE_CLASS_OTHER;
}

qipu::v1::CycleOutcome ToProto(rules::CycleOutcome o) {
  switch (o) {
    case rules::CycleOutcome::kNoResult:
      return qipu::v1::CYCLE_OUTCOME_NO_RESULT;
    case rules::CycleOutcome::kDraw:
      return qipu::v1::CYCLE_OUTCOME_DRAW;
    case rules::CycleOutcome::kReplay:
      return qipu::v1::CYCLE_OUTCOME_REPLAY;
    case rules::CycleOutcome::kPreventedSuperko:
      return qipu::v1::CYCLE_OUTCOME_PREVENTED_SUPERKO;
    case rules::CycleOutcome::kPreventedCycleRule:
      return qipu::v1::CYCLE_OUTCOME_PREVENTED_CYCLE_RULE;
  }
  return qipu::v1::CYCLE_OUTCOME_UNSPECIFIED;
}

qipu::v1::CycleCell* FindCell(qipu::v1::AggregateStats* a,
                              qipu::v1::CycleClass cls,
                              qipu::v1::CycleOutcome outcome) {
  for (auto& cell : *a->mutable_cycles()) {
    if (cell.cls() == cls && cell.outcome() == outcome) return &cell;
  }
  auto* cell = a->add_cycles();
  cell->set_cls(cls);
  cell->set_outcome(outcome);
  return cell;
}

void AppendExamples(const google::protobuf::RepeatedPtrField<std::string>& from,
                    google::protobuf::RepeatedPtrField<std::string>* to) {
  for (const std::string& e : from) {
    if (to->size() >= kMaxExamples) return;
    if (std::find(to->begin(), to->end(), e) == to->end()) *to->Add() = e;
  }
}

}  // namespace

void AddOutcome(rules::Winner w, qipu::v1::OutcomeCounts* o) {
  o->set_games(o->games() + 1);
  switch (w) {
    case rules::Winner::kBlack:
      o->set_black_wins(o->black_wins() + 1);
      break;
    case rules::Winner::kWhite:
      o->set_white_wins(o->white_wins() + 1);
      break;
    case rules::Winner::kDraw:
      o->set_draws(o->draws() + 1);
      break;
    case rules::Winner::kNone:
      o->set_void_(o->void_() + 1);
      break;
  }
}

void AddOutcomes(const qipu::v1::OutcomeCounts& from,
                 qipu::v1::OutcomeCounts* to) {
  to->set_games(to->games() + from.games());
  to->set_black_wins(to->black_wins() + from.black_wins());
  to->set_white_wins(to->white_wins() + from.white_wins());
  to->set_draws(to->draws() + from.draws());
  to->set_void_(to->void_() + from.void_());
}

qipu::v1::AggregateStats AggregateFromGame(const GameFacts& f) {
  qipu::v1::AggregateStats a;
  const rules::Winner w = f.result.winner;
  AddOutcome(w, a.mutable_outcomes());
  Bump(a.mutable_by_reason(), static_cast<int>(f.result.reason));
  if (f.result.reason == rules::EndReason::kScore && f.result.margin >= 0 &&
      (w == rules::Winner::kBlack || w == rules::Winner::kWhite)) {
    const int m = std::min(kMaxMarginPoints,
                           static_cast<int>(std::floor(f.result.margin)));
    Bump(w == rules::Winner::kBlack ? a.mutable_black_margin()
                                    : a.mutable_white_margin(),
         m);
  }
  Bump(a.mutable_length(),
       std::min(kMaxLengthBuckets - 1, f.moves / kLengthBucketMoves));
  a.set_total_moves(f.moves);
  const int ko = std::min(kMaxKoCaptures, f.ko_captures);
  Bump(a.mutable_ko_histogram(), ko);
  a.set_ko_captures(f.ko_captures);
  a.set_games_with_ko(f.ko_captures > 0 ? 1 : 0);
  auto* kl = a.add_ko_by_length();
  kl->set_bucket(static_cast<uint32_t>(f.moves / kKoLengthBucketMoves));
  Bump(kl->mutable_ko_histogram(), ko);

  const std::string example = GameKey(f.id);
  for (const rules::CycleRecord& c : f.cycles) {
    auto* cell = FindCell(&a, ToProto(c.cls), ToProto(c.outcome));
    cell->set_cycles(cell->cycles() + 1);
    if (cell->games() == 0) {
      cell->set_games(1);
      AddOutcome(w, cell->mutable_results());
      *cell->add_examples() = example;
    }
  }
  if (!f.cycles.empty()) AddOutcome(w, a.mutable_results_with_cycle());
  return a;
}

void MergeAggregates(qipu::v1::AggregateStats* a,
                     const qipu::v1::AggregateStats& b) {
  AddOutcomes(b.outcomes(), a->mutable_outcomes());
  AddHistogram(b.by_reason(), a->mutable_by_reason());
  AddHistogram(b.black_margin(), a->mutable_black_margin());
  AddHistogram(b.white_margin(), a->mutable_white_margin());
  AddHistogram(b.length(), a->mutable_length());
  a->set_total_moves(a->total_moves() + b.total_moves());
  AddHistogram(b.ko_histogram(), a->mutable_ko_histogram());
  a->set_ko_captures(a->ko_captures() + b.ko_captures());
  a->set_games_with_ko(a->games_with_ko() + b.games_with_ko());
  for (const auto& kl : b.ko_by_length()) {
    qipu::v1::KoByLength* into = nullptr;
    for (auto& mine : *a->mutable_ko_by_length()) {
      if (mine.bucket() == kl.bucket()) into = &mine;
    }
    if (into == nullptr) {
      into = a->add_ko_by_length();
      into->set_bucket(kl.bucket());
    }
    AddHistogram(kl.ko_histogram(), into->mutable_ko_histogram());
  }
  for (const auto& cell : b.cycles()) {
    auto* into = FindCell(a, cell.cls(), cell.outcome());
    into->set_cycles(into->cycles() + cell.cycles());
    into->set_games(into->games() + cell.games());
    AddOutcomes(cell.results(), into->mutable_results());
    AppendExamples(cell.examples(), into->mutable_examples());
  }
  AddOutcomes(b.results_with_cycle(), a->mutable_results_with_cycle());
}

}  // namespace qipu::store
