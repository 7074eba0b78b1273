// The merge operators of qipu's column families. They never throw and
// never fail a read: an operand that does not decode (which only a bug or
// disk damage can produce) is skipped and reported through RocksDB's info
// log, so that one bad operand cannot make a whole position or aggregate
// unreadable. Thread-safe (stateless).
#ifndef QIPU_STORE_MERGE_OPERATORS_H_
#define QIPU_STORE_MERGE_OPERATORS_H_

#include <memory>

#include "rocksdb/merge_operator.h"

namespace qipu::store {

// positions CF: store/position_value.h values.
std::shared_ptr<rocksdb::MergeOperator> NewPositionMergeOperator();
// aggregates CF: qipu.v1.AggregateStats values.
std::shared_ptr<rocksdb::MergeOperator> NewAggregateMergeOperator();
// jobs CF: 8-byte little-endian uint64 counters that add.
std::shared_ptr<rocksdb::MergeOperator> NewUint64AddOperator();

}  // namespace qipu::store

#endif  // QIPU_STORE_MERGE_OPERATORS_H_
