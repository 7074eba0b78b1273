// Tests of base/files.h: whole files read, errors that name the path, and
// temporary directories that go away (or stay when kept, or move).
#include "base/files.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(ReadFile, ReadsBytesAndNamesAMissingFile) {
  auto dir = TempDir::Create("files-test");
  ASSERT_TRUE(dir.ok()) << dir.status();
  const std::string path = dir->Sub("a.bin");
  const std::string bytes("(;GM[1]\0SZ[9])", 14);
  std::ofstream(path, std::ios::binary) << bytes;
  auto read = ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, bytes);
  auto missing = ReadFile(dir->Sub("none.sgf"));
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  EXPECT_NE(missing.status().message().find("none.sgf"), std::string::npos);
}

TEST(TempDir, RemovedUnlessKeptAndMovable) {
  std::string path;
  {
    auto dir = TempDir::Create("files-test");
    ASSERT_TRUE(dir.ok());
    path = dir->path();
    EXPECT_NE(path.find("/qipu-files-test-"), std::string::npos);
    std::ofstream(dir->Sub("x")) << "x";
    TempDir moved = *std::move(dir);
    EXPECT_EQ(moved.path(), path);
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  {
    auto dir = TempDir::Create("files-test");
    ASSERT_TRUE(dir.ok());
    path = dir->path();
    dir->Keep();
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove_all(path);
}

}  // namespace
}  // namespace qipu::base
