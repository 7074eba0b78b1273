#include "store/merge_operators.h"

#include <string>

#include "rocksdb/env.h"
#include "store/aggregate.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::store {
namespace {

// Codec adapters: Decode(slice, T*) -> bool, Merge(T*, const T&),
// Encode(const T&) -> string.
struct PositionCodec {
  using Value = PositionValue;
  static constexpr const char* kName = "qipu.PositionMerge.v2";
  static bool Decode(const rocksdb::Slice& s, Value* v) {
    auto r = DecodePositionValue(absl::string_view(s.data(), s.size()));
    if (!r.ok()) return false;
    *v = std::move(*r);
    return true;
  }
  static void Merge(Value* a, const Value& b) { MergePositionValues(a, b); }
  static std::string Encode(const Value& v) { return EncodePositionValue(v); }
};

struct AggregateCodec {
  using Value = qipu::v1::AggregateStats;
  static constexpr const char* kName = "qipu.AggregateMerge.v1";
  static bool Decode(const rocksdb::Slice& s, Value* v) {
    return v->ParseFromArray(s.data(), static_cast<int>(s.size()));
  }
  static void Merge(Value* a, const Value& b) { MergeAggregates(a, b); }
  static std::string Encode(const Value& v) { return v.SerializeAsString(); }
};

struct Uint64Codec {
  using Value = uint64_t;
  static constexpr const char* kName = "qipu.Uint64Add.v1";
  static bool Decode(const rocksdb::Slice& s, Value* v) {
    auto r = DecodeUint64Value(absl::string_view(s.data(), s.size()));
    if (!r) return false;
    *v = *r;
    return true;
  }
  static void Merge(Value* a, const Value& b) { *a += b; }
  static std::string Encode(const Value& v) { return EncodeUint64Value(v); }
};

// Full and partial merges decode every operand once, combine in memory and
// encode once: O(total size), not O(operands x value size).
template <typename Codec>
class CodecMergeOperator final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return Codec::kName; }

  bool FullMergeV2(const MergeOperationInput& in,
                   MergeOperationOutput* out) const override {
    // One operand and nothing under it -- most position keys, which one
    // game reaches -- is its own result: no decoding and encoding.
    if (in.existing_value == nullptr && in.operand_list.size() == 1) {
      out->existing_operand = in.operand_list[0];
      return true;
    }
    typename Codec::Value acc{};
    if (in.existing_value != nullptr &&
        !Codec::Decode(*in.existing_value, &acc)) {
      Skip(in.logger, "existing value");
      acc = typename Codec::Value{};
    }
    for (const rocksdb::Slice& op : in.operand_list) Add(op, &acc, in.logger);
    out->new_value = Codec::Encode(acc);
    return true;
  }

  bool PartialMergeMulti(const rocksdb::Slice& key,
                         const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value,
                         rocksdb::Logger* logger) const override {
    typename Codec::Value acc{};
    for (const rocksdb::Slice& op : operands) Add(op, &acc, logger);
    *new_value = Codec::Encode(acc);
    return true;
  }

  bool PartialMerge(const rocksdb::Slice& key, const rocksdb::Slice& left,
                    const rocksdb::Slice& right, std::string* new_value,
                    rocksdb::Logger* logger) const override {
    typename Codec::Value acc{};
    Add(left, &acc, logger);
    Add(right, &acc, logger);
    *new_value = Codec::Encode(acc);
    return true;
  }

  bool AllowSingleOperand() const override { return false; }

 private:
  static void Add(const rocksdb::Slice& op, typename Codec::Value* acc,
                  rocksdb::Logger* logger) {
    typename Codec::Value v{};
    if (!Codec::Decode(op, &v)) {
      Skip(logger, "operand");
      return;
    }
    Codec::Merge(acc, v);
  }
  static void Skip(rocksdb::Logger* logger, const char* what) {
    if (logger != nullptr) {
      rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, logger,
                   "%s: skipped an undecodable %s", Codec::kName, what);
    }
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> NewPositionMergeOperator() {
  return std::make_shared<CodecMergeOperator<PositionCodec>>();
}
std::shared_ptr<rocksdb::MergeOperator> NewAggregateMergeOperator() {
  return std::make_shared<CodecMergeOperator<AggregateCodec>>();
}
std::shared_ptr<rocksdb::MergeOperator> NewUint64AddOperator() {
  return std::make_shared<CodecMergeOperator<Uint64Codec>>();
}

}  // namespace qipu::store
