// .npz files read back by numpy (Debian's python3-numpy): every member
// with its documented dtype and shape and the bytes the batch holds, the
// planes unpacked with np.unpackbits(axis=2)[:, :, :pos_len*pos_len] equal
// to the builder's bits, zip CRCs checked by Python's zipfile, stored and
// deflated; and the writer's refusals.
#include "train/npz_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "tests/common/temp_dir.h"
#include "train/row_builder.h"

namespace qipu::train {
namespace {

constexpr char kPython[] = "/usr/bin/python3";

// Checks `npz` against the manifest and raw files in `dir`.
constexpr char kCheckScript[] = R"PY(
import sys, zipfile
import numpy as np
npz, ref, pos_len = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(npz) as z:
    bad = z.testzip()
    assert bad is None, "bad CRC in " + str(bad)
with np.load(npz) as d:
    names = []
    for line in open(ref + "/manifest.txt"):
        name, descr, shape = line.split()
        shape = tuple(int(s) for s in shape.split(","))
        a = d[name]
        assert a.dtype == np.dtype(descr), (name, a.dtype, descr)
        assert a.shape == shape, (name, a.shape, shape)
        raw = open(ref + "/" + name + ".raw", "rb").read()
        assert a.tobytes() == raw, name
        names.append(name)
    assert sorted(names) == sorted(d.files), (names, d.files)
    # What a KataGo-style loader asserts.
    planes = np.unpackbits(d["binaryInputNCHWPacked"], axis=2)
    assert planes.shape[1] == 22
    assert planes.shape[2] == ((pos_len * pos_len + 7) // 8) * 8
    assert d["globalInputNC"].shape[1] == 19
    assert d["globalTargetsNC"].shape[1] == 80
    assert d["policyTargetsNCMove"].shape[1:] == (2, pos_len * pos_len + 1)
    assert d["valueTargetsNCHW"].shape[1:] == (5, pos_len, pos_len)
    planes = planes[:, :, :pos_len * pos_len]
    want = np.fromfile(ref + "/planes.raw", dtype=np.uint8).reshape(planes.shape)
    assert (planes == want).all(), "planes differ"
    planes = planes.reshape(planes.shape[0], planes.shape[1], pos_len, pos_len)
    print("ok", d["globalInputNC"].shape[0], int(planes[:, 0].sum()))
)PY";

// Runs a shell command; its output and exit status.
std::pair<std::string, int> RunCommand(const std::string& command) {
  std::string out;
  std::FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return {"popen failed", -1};
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  return {out, pclose(p)};
}

void WriteFile(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  ASSERT_TRUE(f.good()) << path;
}

// Rows of a few games: a 9x9 game and a 7x7 one, all positions.
RowBatch SomeRows(int pos_len, int symmetries) {
  RowBatch batch(pos_len);
  RowBuilder builder(
      RowOptions{.pos_len = pos_len, .symmetries = symmetries, .seed = 3});
  for (int size : {9, 7}) {
    TrainingGame g;
    g.record.width = size;
    g.record.height = size;
    for (int i = 0; i < 10; ++i) {
      g.record.moves.push_back(
          rules::Move{i % 2 == 0 ? rules::Color::kBlack : rules::Color::kWhite,
                      rules::At((i * 3) % size, (i * 5) % size)});
    }
    g.rules = rules::Rules{};
    g.result = {rules::Winner::kWhite, rules::EndReason::kResign, 0};
    g.id = store::GameId::SelfPlay(2, static_cast<uint64_t>(size));
    absl::StatusOr<GameRowsInfo> info = builder.AddGame(g, &batch);
    EXPECT_TRUE(info.ok()) << info.status();
  }
  return batch;
}

void CheckWithNumpy(const RowBatch& batch, NpzCompression compression) {
  test_util::TempDir dir("npz");
  const std::string npz = dir.path() + "/rows.npz";
  ASSERT_TRUE(WriteBatchNpz(batch, npz, compression, NpzMembers::kAll).ok());
  EXPECT_FALSE(std::filesystem::exists(npz + ".tmp"));
  std::string manifest;
  for (const NpyArray& a : BatchArrays(batch)) {
    absl::StrAppend(&manifest, a.name, " ", a.descr, " ",
                    absl::StrJoin(a.shape, ","), "\n");
    WriteFile(dir.path() + "/" + a.name + ".raw", a.data.data(), a.data.size());
  }
  WriteFile(dir.path() + "/manifest.txt", manifest.data(), manifest.size());
  const RowShape& s = batch.shape();
  std::vector<uint8_t> planes;
  int on_board = 0;
  for (int r = 0; r < batch.rows(); ++r) {
    for (int c = 0; c < kNumBinaryChannels; ++c) {
      for (int i = 0; i < s.area(); ++i) {
        planes.push_back(batch.InputBit(r, c, i) ? 1 : 0);
        if (c == bin::kOnBoard) on_board += planes.back();
      }
    }
  }
  WriteFile(dir.path() + "/planes.raw", planes.data(), planes.size());
  WriteFile(dir.path() + "/check.py", kCheckScript, sizeof(kCheckScript) - 1);
  const auto [out, status] =
      RunCommand(absl::StrCat(kPython, " ", dir.path(), "/check.py ", npz, " ",
                              dir.path(), " ", s.pos_len));
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, absl::StrCat("ok ", batch.rows(), " ", on_board, "\n"));
}

TEST(NpzWriter, NumpyReadsStoredFiles) {
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "no " << kPython;
  const RowBatch batch = SomeRows(19, 8);
  ASSERT_GE(batch.rows(), 10);
  CheckWithNumpy(batch, NpzCompression::kStored);
}

TEST(NpzWriter, NumpyReadsDeflatedFiles) {
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "no " << kPython;
  CheckWithNumpy(SomeRows(13, 1), NpzCompression::kDeflate);
  // An odd pos_len whose area is not a whole number of bytes, and no rows.
  CheckWithNumpy(SomeRows(11, 8), NpzCompression::kDeflate);
  CheckWithNumpy(RowBatch(19), NpzCompression::kDeflate);
  CheckWithNumpy(SomeRows(9, 8), NpzCompression::kDeflateFast);
}

TEST(NpzWriter, KataGosMembersInTheFileQipusInTheSidecar) {
  if (!std::filesystem::exists(kPython)) GTEST_SKIP() << "no " << kPython;
  test_util::TempDir dir("npz-sidecar");
  const RowBatch batch = SomeRows(19, 8);
  const std::string npz = dir.path() + "/rows-000003.npz";
  EXPECT_EQ(SidecarPath(npz), dir.path() + "/rows-000003.qipu.zip");
  ASSERT_TRUE(WriteBatchNpz(batch, npz, NpzCompression::kDeflate,
                            NpzMembers::kKataGoAndSidecar)
                  .ok());
  const std::string script = absl::StrCat(
      "import numpy as np\n"
      "d = np.load('",
      npz, "')\n", "e = np.load('", SidecarPath(npz), "')\n",
      "print(' '.join(d.files), '|', ' '.join(e.files),\n"
      "      d['qValueTargetsNCMove'].dtype, d['qValueTargetsNCMove'].shape,\n"
      "      e['qipuRowIdNC'].shape)\n");
  WriteFile(dir.path() + "/members.py", script.data(), script.size());
  const auto [out, status] =
      RunCommand(absl::StrCat(kPython, " ", dir.path(), "/members.py"));
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out,
            absl::StrCat("binaryInputNCHWPacked globalInputNC "
                         "policyTargetsNCMove globalTargetsNC scoreDistrN "
                         "valueTargetsNCHW qValueTargetsNCMove | "
                         "qipuGlobalInputNC qipuRowIdNC int16 (",
                         batch.rows(), ", 3, 362) (", batch.rows(), ", 5)\n"));
}

TEST(NpzWriter, SameRowsSameBytes) {
  test_util::TempDir dir("npz");
  const RowBatch batch = SomeRows(19, 8);
  for (NpzCompression c : {NpzCompression::kStored, NpzCompression::kDeflate}) {
    ASSERT_TRUE(WriteBatchNpz(batch, dir.path() + "/a.npz", c).ok());
    ASSERT_TRUE(WriteBatchNpz(SomeRows(19, 8), dir.path() + "/b.npz", c).ok());
    std::ifstream a(dir.path() + "/a.npz", std::ios::binary);
    std::ifstream b(dir.path() + "/b.npz", std::ios::binary);
    const std::string sa((std::istreambuf_iterator<char>(a)), {});
    const std::string sb((std::istreambuf_iterator<char>(b)), {});
    EXPECT_FALSE(sa.empty());
    EXPECT_EQ(sa, sb);
  }
}

TEST(NpzWriter, HeaderIsAlignedNpy10) {
  const uint8_t data[6] = {1, 2, 3, 4, 5, 6};
  const NpyArray a{"x", "|u1", {2, 3}, data};
  const std::string h = NpyHeader(a);
  EXPECT_EQ(h.size() % 64, 0u);
  EXPECT_EQ(h.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(h.find("'shape': (2, 3)"), std::string::npos) << h;
  EXPECT_EQ(h.back(), '\n');
  const NpyArray one{"y", "<f4", {0}, {}};
  EXPECT_NE(NpyHeader(one).find("'shape': (0,)"), std::string::npos);
}

TEST(NpzWriter, RefusesBadArraysAndUnwritablePaths) {
  test_util::TempDir dir("npz");
  const uint8_t data[5] = {};
  const NpyArray wrong{"x", "<f4", {2}, data};
  absl::Status s =
      WriteNpz(dir.path() + "/x.npz", {&wrong, 1}, NpzCompression::kStored);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("array x"), std::string::npos) << s;
  const NpyArray ok{"x", "|u1", {5}, data};
  s = WriteNpz(dir.path() + "/no/such/dir/x.npz", {&ok, 1},
               NpzCompression::kStored);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("no/such/dir"), std::string::npos) << s;
}

}  // namespace
}  // namespace qipu::train
