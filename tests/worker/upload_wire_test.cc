// Tests of worker/upload_wire.h: the upload messages assembled from
// spooled bytes are byte for byte what protobuf serializes for the
// equivalent qipu.v1.GameUpload (single and batched form, empty lease id,
// empty game, multi-byte lengths and seqs), and parse back to it.
#include "worker/upload_wire.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "qipu/v1/work.pb.h"
#include "tests/worker/test_util.h"

namespace qipu::worker {
namespace {

using testing::Config;
using testing::PlayOne;

std::string Bytes(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(buffer.Dump(&slices).ok());
  std::string out;
  for (const grpc::Slice& s : slices) {
    out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return out;
}

// The single-form message protobuf makes of `item`.
qipu::v1::GameUpload Reference(const UploadItem& item) {
  qipu::v1::GameUpload up;
  up.set_lease_id(item.game->lease_id);
  EXPECT_TRUE(up.mutable_game()->ParseFromString(item.game->game));
  up.set_seq(item.seq);
  return up;
}

UploadItem Item(uint64_t seq, FinishedGame g) {
  return UploadItem{seq, std::make_shared<const FinishedGame>(std::move(g))};
}

std::vector<UploadItem> Items() {
  const qipu::v1::JobConfig c9 = Config(9, 3);
  const qipu::v1::JobConfig c19 = Config(19, 4);
  std::vector<UploadItem> items;
  items.push_back(Item(1, PlayOne(c9, 5, 0, "lease-a")));
  // No lease id (proto3 omits the empty string).
  items.push_back(Item(2, PlayOne(c9, 5, 1, "")));
  // A 19x19 game: a length of two or three varint bytes.
  items.push_back(Item(127, PlayOne(c19, 6, 2, "lease-b")));
  items.push_back(Item(128, PlayOne(c19, 6, 3, std::string(300, 'L'))));
  // An empty game is still present (has_game()), as protobuf writes it.
  FinishedGame empty;
  empty.key = GameKey{9, 9};
  empty.lease_id = "lease-c";
  items.push_back(Item(uint64_t{1} << 40, empty));
  return items;
}

TEST(UploaderWire, SingleFormIsWhatProtobufWrites) {
  for (const UploadItem& item : Items()) {
    const std::string bytes = Bytes(EncodeUpload({item}, /*batched=*/false));
    const qipu::v1::GameUpload want = Reference(item);
    EXPECT_EQ(bytes, want.SerializeAsString()) << item.seq;
    EXPECT_EQ(bytes.size(), SingleUploadBytes(*item.game, item.seq));
    qipu::v1::GameUpload parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes));
    EXPECT_EQ(parsed.seq(), item.seq);
    EXPECT_EQ(parsed.lease_id(), item.game->lease_id);
    EXPECT_TRUE(parsed.has_game());
    EXPECT_EQ(parsed.game().SerializeAsString(), item.game->game);
    EXPECT_EQ(parsed.batch_size(), 0);
  }
}

TEST(UploaderWire, BatchedFormIsWhatProtobufWrites) {
  const std::vector<UploadItem> items = Items();
  for (size_t n = 1; n <= items.size(); ++n) {
    const absl::Span<const UploadItem> some(items.data(), n);
    qipu::v1::GameUpload want;
    for (const UploadItem& item : some) *want.add_batch() = Reference(item);
    const std::string bytes = Bytes(EncodeUpload(some, /*batched=*/true));
    EXPECT_EQ(bytes, want.SerializeAsString()) << n;
    qipu::v1::GameUpload parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes));
    ASSERT_EQ(parsed.batch_size(), static_cast<int>(n));
    EXPECT_FALSE(parsed.has_game());
    EXPECT_EQ(parsed.seq(), 0u);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(parsed.batch(static_cast<int>(i)).seq(), items[i].seq);
    }
  }
}

}  // namespace
}  // namespace qipu::worker
