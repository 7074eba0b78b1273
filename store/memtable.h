// The memtable of the positions column family: one entry list kept two
// ways, so that neither ingest nor queries pay for the other's access
// pattern.
//
// Position keys are random hashes, about 30 per ingested game. RocksDB's
// default skiplist pays a deep skiplist walk per insert; its hash-skiplist
// makes inserts a bucket lookup but builds a complete sorted skiplist of
// every entry when the memtable is flushed (measured: more than half of
// the coordinator's CPU during ingest); its vector memtable flushes with one
// std::sort but sorts a private copy of itself for every read of a live
// memtable, which would make a query during ingest cost milliseconds.
//
// The dual memtable inserts every entry into both an inner hash-skiplist
// (prefix buckets: what point lookups and prefix-bounded iterators --
// every query -- read) and an inner vector (what total-order iterators
// read, in particular the flush, which then sorts the immutable vector
// once). Both inner memtables hold pointers to the same entry bytes, which
// are allocated once in the memtable's arena.
//
// Requirements: the column family has a prefix extractor and every key is
// in its domain (as the hash-skiplist requires); one writer at a time
// (DBOptions::allow_concurrent_memtable_write = false).
#ifndef QIPU_STORE_MEMTABLE_H_
#define QIPU_STORE_MEMTABLE_H_

#include <cstddef>
#include <memory>

#include "rocksdb/memtablerep.h"

namespace qipu::store {

// A factory of dual memtables whose hash part has `bucket_count` prefix
// buckets (allocated per memtable up front, 8 bytes each). The returned
// factory is owned by the caller (e.g. ColumnFamilyOptions) and is
// thread-safe, like RocksDB's own.
std::shared_ptr<rocksdb::MemTableRepFactory> NewDualMemTableFactory(
    size_t bucket_count);

}  // namespace qipu::store

#endif  // QIPU_STORE_MEMTABLE_H_
