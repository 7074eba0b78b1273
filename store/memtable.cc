#include "store/memtable.h"

#include <utility>

namespace qipu::store {
namespace {

// See memtable.h. Every call is forwarded to the inner memtable that
// serves it best; inserts go to both.
class DualMemTableRep final : public rocksdb::MemTableRep {
 public:
  DualMemTableRep(rocksdb::Allocator* allocator,
                  std::unique_ptr<rocksdb::MemTableRep> by_prefix,
                  std::unique_ptr<rocksdb::MemTableRep> in_order)
      : rocksdb::MemTableRep(allocator),
        by_prefix_(std::move(by_prefix)),
        in_order_(std::move(in_order)) {}

  // Entries are allocated once (by the base class, in the arena); both
  // inner memtables store only the pointer.
  void Insert(rocksdb::KeyHandle handle) override {
    by_prefix_->Insert(handle);
    in_order_->Insert(handle);
  }

  bool Contains(const char* key) const override {
    return by_prefix_->Contains(key);
  }

  void MarkReadOnly() override {
    by_prefix_->MarkReadOnly();
    in_order_->MarkReadOnly();
  }

  void MarkFlushed() override {
    by_prefix_->MarkFlushed();
    in_order_->MarkFlushed();
  }

  // Point lookups look in the key's prefix bucket.
  void Get(const rocksdb::LookupKey& k, void* callback_args,
           bool (*callback_func)(void* arg, const char* entry)) override {
    by_prefix_->Get(k, callback_args, callback_func);
  }

  uint64_t ApproximateNumEntries(const rocksdb::Slice& start_ikey,
                                 const rocksdb::Slice& end_ikey) override {
    return in_order_->ApproximateNumEntries(start_ikey, end_ikey);
  }

  size_t ApproximateMemoryUsage() override {
    return by_prefix_->ApproximateMemoryUsage() +
           in_order_->ApproximateMemoryUsage();
  }

  // Total order (flushes, total_order_seek reads): the vector, sorted once
  // when immutable.
  Iterator* GetIterator(rocksdb::Arena* arena) override {
    return in_order_->GetIterator(arena);
  }

  // Prefix-bounded reads: the key's bucket only.
  Iterator* GetDynamicPrefixIterator(rocksdb::Arena* arena) override {
    return by_prefix_->GetDynamicPrefixIterator(arena);
  }

 private:
  std::unique_ptr<rocksdb::MemTableRep> by_prefix_;
  std::unique_ptr<rocksdb::MemTableRep> in_order_;
};

class DualMemTableFactory final : public rocksdb::MemTableRepFactory {
 public:
  explicit DualMemTableFactory(size_t bucket_count)
      : by_prefix_(rocksdb::NewHashSkipListRepFactory(bucket_count, 4, 4)),
        in_order_(std::make_unique<rocksdb::VectorRepFactory>()) {}

  using rocksdb::MemTableRepFactory::CreateMemTableRep;
  rocksdb::MemTableRep* CreateMemTableRep(
      const rocksdb::MemTableRep::KeyComparator& cmp,
      rocksdb::Allocator* allocator, const rocksdb::SliceTransform* transform,
      rocksdb::Logger* logger) override {
    std::unique_ptr<rocksdb::MemTableRep> by_prefix(
        by_prefix_->CreateMemTableRep(cmp, allocator, transform, logger));
    std::unique_ptr<rocksdb::MemTableRep> in_order(
        in_order_->CreateMemTableRep(cmp, allocator, transform, logger));
    return new DualMemTableRep(allocator, std::move(by_prefix),
                               std::move(in_order));
  }

  const char* Name() const override { return "QipuDualMemTableFactory"; }

 private:
  std::unique_ptr<rocksdb::MemTableRepFactory> by_prefix_;
  std::unique_ptr<rocksdb::MemTableRepFactory> in_order_;
};

}  // namespace

std::shared_ptr<rocksdb::MemTableRepFactory> NewDualMemTableFactory(
    size_t bucket_count) {
  return std::make_shared<DualMemTableFactory>(bucket_count);
}

}  // namespace qipu::store
