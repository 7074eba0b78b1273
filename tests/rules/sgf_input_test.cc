// SGF files that real tools write and the reader must take: UTF-16 files
// (either byte order; told by a byte order mark, a CA written in UTF-16 or
// their zero bytes) read as the same records as their UTF-8 twin, with
// places that are bytes of the file; malformed UTF-16 and UTF-32 as one
// error about the whole file; collections mixing Go with other games, whose
// other games are skipped in their place. The UTF-16 files and the mixed
// collection are in tests/rules/sgf_corpus (the fuzzer's seeds too).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/record.h"
#include "rules/record_note.h"
#include "rules/sgf_reader.h"
#include "rules/types.h"
#include "rules/utf16.h"
#include "tests/rules/utf16_util.h"

namespace qipu::rules {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string CorpusFile(const std::string& name) {
  const std::filesystem::path path =
      std::filesystem::path(QIPU_SOURCE_DIR) / "tests/rules/sgf_corpus" / name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream data;
  data << in.rdbuf();
  return data.str();
}

// Every field the reader fills from the file's content (all but notes and
// byte_offset).
void ExpectSameRecord(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  ASSERT_EQ(a.setup.size(), b.setup.size());
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.handicap, b.handicap);
  EXPECT_EQ(a.has_komi, b.has_komi);
  EXPECT_EQ(a.komi, b.komi);
  EXPECT_EQ(a.rules, b.rules);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.black_player, b.black_player);
  EXPECT_EQ(a.white_player, b.white_player);
  EXPECT_EQ(a.black_rank, b.black_rank);
  EXPECT_EQ(a.white_rank, b.white_rank);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.event, b.event);
  EXPECT_EQ(a.game_name, b.game_name);
  EXPECT_EQ(a.place, b.place);
  EXPECT_EQ(a.extra, b.extra);
  EXPECT_EQ(a.game_number, b.game_number);
}

TEST(SgfInput, Utf16FilesReadAsTheirUtf8Twin) {
  const SgfCollection want = ReadSgf(CorpusFile("unicode_utf8.sgf"));
  ASSERT_THAT(want.errors, IsEmpty());
  ASSERT_EQ(want.games.size(), 2u);
  EXPECT_EQ(want.games[0].black_player, "柯洁");
  EXPECT_EQ(want.games[0].event, "第4届 ] 梦百合杯");
  struct Case {
    const char* file;
    const char* charset;
    const char* told;
  };
  for (const Case& c : {
           Case{"unicode_utf16le_bom.sgf", "UTF-16LE", "byte order mark"},
           Case{"unicode_utf16be_bom.sgf", "UTF-16BE", "byte order mark"},
           Case{"unicode_utf16le.sgf", "UTF-16LE", "zero bytes"},
           Case{"unicode_utf16be_ca.sgf", "UTF-16BE", "CA[UTF-16BE]"},
       }) {
    SCOPED_TRACE(c.file);
    const SgfCollection got = ReadSgf(CorpusFile(c.file));
    EXPECT_THAT(got.errors, IsEmpty());
    EXPECT_THAT(got.skipped, IsEmpty());
    ASSERT_EQ(got.games.size(), want.games.size());
    const RecordNote note{
        .kind = NoteKind::kUtf16Decoded, .value = c.told, .charset = c.charset};
    for (size_t i = 0; i < got.games.size(); ++i) {
      ExpectSameRecord(got.games[i], want.games[i]);
      // The decoding is the game's first note; no "no CA[]" note, no note
      // about a CA naming UTF-16.
      ASSERT_FALSE(got.games[i].notes.empty());
      EXPECT_EQ(got.games[i].notes[0], note);
      for (const RecordNote& n : got.games[i].notes) {
        EXPECT_NE(n.kind, NoteKind::kNoCharset);
        EXPECT_NE(n.kind, NoteKind::kCharsetOverriddenByUtf16);
        EXPECT_NE(n.kind, NoteKind::kWideCharsetIn8BitFile);
      }
    }
  }
  EXPECT_EQ(NoteText({.kind = NoteKind::kUtf16Decoded,
                      .value = "byte order mark",
                      .charset = "UTF-16LE"}),
            "the file is UTF-16LE (told by its byte order mark): decoded to "
            "UTF-8 before reading");
}

TEST(SgfInput, Utf16PlacesAreBytesOfTheFile) {
  // ASCII only: every decoded byte is two bytes of the file.
  const std::string utf8 = "(;GM[1]SZ[9]\nKM[650];B[ee])\n(;SZ[9];B[zz])";
  const std::string le = ToUtf16(utf8, Utf16Order::kLittleEndian, true);
  const SgfCollection c = ReadSgf(le);
  // B[zz] is off the board: the second game is read up to it, the move
  // kept with its place (GameRecord::unread).
  ASSERT_EQ(c.games.size(), 2u);
  ASSERT_EQ(c.errors.size(), 0u);
  const size_t value = utf8.find("[zz]");
  EXPECT_EQ(c.games[1].unread.move, 1);
  const size_t line_start = utf8.rfind('\n') + 1;
  EXPECT_THAT(
      c.games[1].unread.reason,
      HasSubstr(absl::StrCat("at byte ", 2 + 2 * value, " (line 3, column ",
                             2 * (value - line_start) + 1, ")")));
  EXPECT_EQ(c.games[0].byte_offset, 2u);
  // The Fox komi note: KM at byte 2 + 2 * 13, line 2, column 1.
  EXPECT_THAT(c.games[0].notes, Contains(RecordNote{.kind = NoteKind::kFoxKomi,
                                                    .value = "650",
                                                    .where = {2 + 2 * 13, 2, 1},
                                                    .komi = 6.5}));
  // Non-ASCII text before the place: 柯 is 3 bytes in UTF-8, 2 in UTF-16.
  const std::string cjk = "(;PB[柯柯柯]SZ[9]AB[zz])";
  const SgfCollection k = ReadSgf(ToUtf16(cjk, Utf16Order::kBigEndian, false));
  ASSERT_EQ(k.errors.size(), 1u);
  EXPECT_EQ(k.errors[0].byte_offset, 2 * (cjk.find("[zz]") - 6));
}

TEST(SgfInput, MalformedUtf16IsOneErrorAboutTheFile) {
  const SgfCollection odd = ReadSgf(CorpusFile("utf16le_truncated.sgf"));
  EXPECT_THAT(odd.games, IsEmpty());
  ASSERT_EQ(odd.errors.size(), 1u);
  EXPECT_EQ(odd.errors[0].game_number, 0);
  EXPECT_EQ(odd.errors[0].byte_offset, 100u);
  EXPECT_THAT(
      odd.errors[0].reason,
      AllOf(HasSubstr("UTF-16LE (told by its byte order mark)"),
            HasSubstr("does not decode"),
            HasSubstr("odd number of bytes (101)"), HasSubstr("at byte 100")));
  const std::string lone = ToUtf16("(;C[", Utf16Order::kLittleEndian, false) +
                           "\x3D\xD8" +
                           ToUtf16("x])", Utf16Order::kLittleEndian, false);
  const SgfCollection s = ReadSgf(lone);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].game_number, 0);
  EXPECT_EQ(s.errors[0].byte_offset, 8u);
  EXPECT_THAT(s.errors[0].reason,
              AllOf(HasSubstr("zero bytes"), HasSubstr("unpaired surrogate"),
                    HasSubstr("byte 8")));
  const SgfCollection u32 =
      ReadSgf(std::string("\xFF\xFE\0\0(\0\0\0;\0\0\0)\0\0\0", 16));
  ASSERT_EQ(u32.errors.size(), 1u);
  EXPECT_EQ(u32.errors[0].game_number, 0);
  EXPECT_THAT(u32.errors[0].reason, HasSubstr("UTF-32"));
  // A UTF-16 file that decodes but is truncated: an error in game 1.
  const SgfCollection cut =
      ReadSgf(ToUtf16("(;GM[1];B[aa]", Utf16Order::kLittleEndian, true));
  ASSERT_EQ(cut.errors.size(), 1u);
  EXPECT_EQ(cut.errors[0].game_number, 1);
  EXPECT_EQ(cut.errors[0].byte_offset, 28u);
  EXPECT_THAT(cut.errors[0].reason, HasSubstr("truncated"));
}

TEST(SgfInput, CharsetNotesOfUtf16AndWideCharsets) {
  // CA naming another charset in a UTF-16 file: ignored, noted.
  const SgfCollection c = ReadSgf(
      ToUtf16("(;CA[GB2312]PB[柯洁])", Utf16Order::kLittleEndian, true));
  ASSERT_EQ(c.games.size(), 1u);
  EXPECT_EQ(c.games[0].black_player, "柯洁");
  EXPECT_THAT(c.games[0].notes,
              Contains(RecordNote{.kind = NoteKind::kCharsetOverriddenByUtf16,
                                  .value = "GB2312",
                                  .charset = "UTF-16LE"}));
  EXPECT_EQ(NoteText(c.games[0].notes[1]),
            "CA[GB2312] ignored: the file is UTF-16LE, decoded to UTF-8");
  // CA naming UTF-16 in an 8-bit file: text read as UTF-8, noted.
  const SgfCollection w = ReadSgf("(;CA[UTF-16]PB[\xE6\x9F\xAF])");
  ASSERT_EQ(w.games.size(), 1u);
  EXPECT_EQ(w.games[0].black_player, "柯");
  ASSERT_EQ(w.games[0].notes.size(), 1u);
  EXPECT_EQ(w.games[0].notes[0],
            (RecordNote{.kind = NoteKind::kWideCharsetIn8BitFile,
                        .value = "UTF-16",
                        .where = {2, 1, 3}}));
  EXPECT_EQ(NoteText(w.games[0].notes[0]),
            "CA[UTF-16] at byte 2 (line 1, column 3) names a 16- or 32-bit "
            "charset but the file is 8-bit text: text read as UTF-8");
}

TEST(SgfInput, OtherGamesOfACollectionAreSkippedInTheirPlace) {
  const std::string data = CorpusFile("mixed_games.sgf");
  const SgfCollection c = ReadSgf(data);
  EXPECT_THAT(c.errors, IsEmpty());
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_EQ(c.games[0].game_number, 1);
  EXPECT_EQ(c.games[0].black_player, "go 1");
  EXPECT_EQ(c.games[1].game_number, 3);
  EXPECT_EQ(c.games[1].black_player, "go 3");
  ASSERT_EQ(c.skipped.size(), 2u);
  EXPECT_EQ(c.skipped[0].game_number, 2);
  EXPECT_EQ(c.skipped[0].game_type, 19);
  EXPECT_EQ(c.skipped[0].byte_offset, data.find("(;GM[19]"));
  EXPECT_EQ(c.skipped[0].reason,
            "GM[19] at byte 41 (line 2, column 3): not a game of Go (Go is "
            "GM[1])");
  // Its SZ[30] and W[e2e4] would be errors in Go: the game is skipped first.
  EXPECT_EQ(c.skipped[1].game_number, 4);
  EXPECT_EQ(c.skipped[1].game_type, 3);
  EXPECT_EQ(c.skipped[1].byte_offset, data.find("(;FF[4]SZ[30]"));
  // A file of other games only: no games, no errors.
  const SgfCollection only = ReadSgf("(;GM[2]SZ[8];B[d3])");
  EXPECT_THAT(only.games, IsEmpty());
  EXPECT_THAT(only.errors, IsEmpty());
  ASSERT_EQ(only.skipped.size(), 1u);
  EXPECT_EQ(only.skipped[0].byte_offset, 0u);
  // Any other number is another game, GM[0] too.
  const SgfCollection zero = ReadSgf("(;GM[0]SZ[99])(;GM[1];B[aa])");
  EXPECT_THAT(zero.errors, IsEmpty());
  EXPECT_EQ(zero.games.size(), 1u);
  ASSERT_EQ(zero.skipped.size(), 1u);
  EXPECT_EQ(zero.skipped[0].game_type, 0);
  EXPECT_THAT(zero.skipped[0].reason, HasSubstr("GM[0] at byte 2"));
  // GM that is no number is still read as Go (noted), not skipped.
  const SgfCollection odd = ReadSgf("(;GM[go];B[aa])");
  EXPECT_EQ(odd.games.size(), 1u);
  EXPECT_THAT(odd.skipped, IsEmpty());
}

TEST(SgfInput, Utf16CollectionsSkipOtherGamesToo) {
  const std::string utf8 = "(;GM[19]C[柯])(;GM[1]PB[洁];B[aa])";
  const SgfCollection c = ReadSgf(ToUtf16(utf8, Utf16Order::kBigEndian, true));
  EXPECT_THAT(c.errors, IsEmpty());
  ASSERT_EQ(c.games.size(), 1u);
  EXPECT_EQ(c.games[0].black_player, "洁");
  EXPECT_EQ(c.games[0].game_number, 2);
  EXPECT_EQ(c.games[0].byte_offset, 2u + 2 * 13);
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_EQ(c.skipped[0].byte_offset, 2u);
  EXPECT_THAT(c.skipped[0].reason, HasSubstr("GM[19] at byte 6 "));
}

}  // namespace
}  // namespace qipu::rules
