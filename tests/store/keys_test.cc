// Every key layout of store/keys.h: encode/decode round trips, byte order
// equals logical order, and pinned bytes (the layout is a data format).
#include "store/keys.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/record.h"
#include "store/game_id.h"

namespace qipu::store {
namespace {

std::string Hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

TEST(Keys, GameKeyRoundTripsAndIsPinned) {
  const GameId id = GameId::SelfPlay(7, 258);
  const std::string k = GameKey(id);
  EXPECT_EQ(Hex(k),
            "01"
            "0000000000000007"
            "0000000000000102");
  EXPECT_EQ(DecodeGameKey(k), id);
  const GameId imp{GameId::Kind::kImported, 0x0123456789abcdefULL, 42};
  EXPECT_EQ(DecodeGameKey(GameKey(imp)), imp);
  EXPECT_FALSE(DecodeGameKey("short").has_value());
  std::string bad = GameKey(id);
  bad[0] = 9;
  EXPECT_FALSE(DecodeGameKey(bad).has_value());
}

TEST(Keys, GameKeysOfAJobAreContiguousAndOrdered) {
  std::vector<std::string> keys;
  for (uint64_t job : {2, 1, 300}) {
    for (uint64_t i : {1000, 3, 256, 0})
      keys.push_back(GameKey(GameId::SelfPlay(job, i)));
  }
  std::sort(keys.begin(), keys.end());
  std::vector<GameId> ids;
  for (const auto& k : keys) ids.push_back(*DecodeGameKey(k));
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  const std::string prefix = JobGamesPrefix(2);
  int n = 0;
  for (const auto& k : keys) n += k.compare(0, prefix.size(), prefix) == 0;
  EXPECT_EQ(n, 4);
}

TEST(Keys, PositionKeyRoundTripsAndSharesItsPrefix) {
  PositionKeyParts p;
  p.width = 19;
  p.height = 13;
  p.position = rules::Hash128{0xfedcba9876543210ULL, 0x1122334455667788ULL};
  p.config_id = 5;
  p.day = 20261202;
  const std::string k = PositionKey(p);
  ASSERT_EQ(k.size(), 26u);
  EXPECT_EQ(DecodePositionKey(k), p);
  EXPECT_EQ(k.substr(0, kPositionPrefixLength),
            PositionPrefix(19, 13, p.position));
  EXPECT_EQ(Hex(k),
            "130d"
            "fedcba9876543210"
            "1122334455667788"
            "00000005"
            "01352952");
  PositionKeyParts q = p;
  q.config_id = 6;
  q.day = 1;
  EXPECT_LT(PositionKey(p), PositionKey(q));
  EXPECT_FALSE(DecodePositionKey(k.substr(1)).has_value());
}

TEST(Keys, AggregateJobLeaseAndCounterKeys) {
  uint32_t config = 0;
  uint32_t day = 0;
  ASSERT_TRUE(DecodeAggregateKey(AggregateKey(3, 20180503), &config, &day));
  EXPECT_EQ(config, 3u);
  EXPECT_EQ(day, 20180503u);
  EXPECT_FALSE(DecodeAggregateKey("x", &config, &day));
  EXPECT_EQ(DecodeJobKey(JobKey(99)), 99u);
  EXPECT_FALSE(
      DecodeJobKey(JobCounterKey(99, JobCounter::kRejected)).has_value());
  EXPECT_LT(JobKey(2), JobKey(10));
  EXPECT_EQ(DecodeTournamentKey(TournamentKey(12345)), 12345u);
  EXPECT_FALSE(DecodeTournamentKey(JobKey(3)).has_value());
  EXPECT_FALSE(DecodeTournamentKey("T12").has_value());
  EXPECT_LT(TournamentKey(9), TournamentKey(300));
  EXPECT_EQ(DecodeTokenKey(TokenKey(77)), 77u);
  EXPECT_FALSE(DecodeTokenKey(TournamentKey(77)).has_value());
  EXPECT_FALSE(DecodeTokenKey("A12").has_value());
  EXPECT_LT(TokenKey(9), TokenKey(300));
  EXPECT_LT(TokenKey(~uint64_t{0}), JobKey(0));
  uint64_t job = 0;
  uint64_t index = 0;
  ASSERT_TRUE(DecodeAbandonedKey(AbandonedKey(4, 17), &job, &index));
  EXPECT_EQ(job, 4u);
  EXPECT_EQ(index, 17u);
  EXPECT_EQ(LeaseKey(4, "4-ab")[0], kLeaseTag);
  EXPECT_EQ(DecodeConfigKey(ConfigKey(12)), 12u);
  EXPECT_NE(ConfigTupleKey("9x9|a"), ConfigKey(12));
  EXPECT_EQ(DecodeUint64Value(EncodeUint64Value(1234567)), 1234567u);
  EXPECT_FALSE(DecodeUint64Value("1234").has_value());
}

TEST(Keys, JobCounterKeyRoundTrips) {
  uint64_t job = 0;
  JobCounter counter = JobCounter::kDone;
  ASSERT_TRUE(DecodeJobCounterKey(
      JobCounterKey(1ULL << 40, JobCounter::kRejected), &job, &counter));
  EXPECT_EQ(job, 1ULL << 40);
  EXPECT_EQ(counter, JobCounter::kRejected);
  ASSERT_TRUE(
      DecodeJobCounterKey(JobCounterKey(3, JobCounter::kDone), &job, &counter));
  EXPECT_EQ(job, 3u);
  EXPECT_EQ(counter, JobCounter::kDone);
  EXPECT_EQ(Hex(JobCounterKey(3, JobCounter::kDone)),
            "4b"
            "0000000000000003"
            "64");
  std::string unknown = JobCounterKey(3, JobCounter::kDone);
  unknown.back() = 'z';
  EXPECT_FALSE(DecodeJobCounterKey(unknown, &job, &counter));
  EXPECT_FALSE(DecodeJobCounterKey(JobKey(3), &job, &counter));
  EXPECT_FALSE(DecodeJobCounterKey(AbandonedKey(3, 100), &job, &counter));
}

TEST(Keys, IndexWatermarkValueRoundTripsAndIsPinned) {
  EXPECT_EQ(Hex(IndexWatermarkValue(0x0102030405060708ULL)),
            "0102030405060708");
  for (uint64_t batch : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
    EXPECT_EQ(DecodeIndexWatermarkValue(IndexWatermarkValue(batch)), batch);
  }
  EXPECT_FALSE(DecodeIndexWatermarkValue("1234567").has_value());
  EXPECT_FALSE(DecodeIndexWatermarkValue(IndexWatermarkKey()).has_value());
  EXPECT_FALSE(DecodePositionKey(IndexWatermarkKey()).has_value());
}

// The inline writers the fast paths use are the string encoders' bytes.
TEST(Keys, BufferEncodersWriteTheKeysBytes) {
  PositionKeyParts p;
  p.width = 9;
  p.height = 9;
  p.position = rules::Hash128{0x8000000000000001ULL, 0xffULL};
  p.config_id = 0xfffffffeu;
  p.day = 20240229;
  char buf[kPositionKeyLength + 1];
  buf[kPositionKeyLength] = '!';
  EXPECT_EQ(EncodePositionKey(buf, p), buf + kPositionKeyLength);
  EXPECT_EQ(std::string(buf, kPositionKeyLength), PositionKey(p));
  EXPECT_EQ(buf[kPositionKeyLength], '!');
  EXPECT_EQ(EncodePositionPrefix(buf, 9, 9, p.position),
            buf + kPositionPrefixLength);
  EXPECT_EQ(std::string(buf, kPositionPrefixLength),
            PositionPrefix(9, 9, p.position));
}

TEST(Keys, FixedWidthFieldsRoundTripBigEndian) {
  char b[8];
  EXPECT_EQ(EncodeFixed16BE(b, 0x0102), b + 2);
  EXPECT_EQ(Hex(std::string(b, 2)), "0102");
  EXPECT_EQ(GetFixed16BE(b), 0x0102);
  EXPECT_EQ(EncodeFixed32BE(b, 0x01020304u), b + 4);
  EXPECT_EQ(Hex(std::string(b, 4)), "01020304");
  EXPECT_EQ(GetFixed32BE(b), 0x01020304u);
  EXPECT_EQ(EncodeFixed64BE(b, 0x0102030405060708ULL), b + 8);
  EXPECT_EQ(Hex(std::string(b, 8)), "0102030405060708");
  EXPECT_EQ(GetFixed64BE(b), 0x0102030405060708ULL);
  std::string s;
  PutFixed32BE(&s, 0xdeadbeefu);
  PutFixed64BE(&s, 42);
  EXPECT_EQ(Hex(s),
            "deadbeef"
            "000000000000002a");
  EXPECT_EQ(GetFixed32BE(s.data()), 0xdeadbeefu);
  EXPECT_EQ(GetFixed64BE(s.data() + 4), 42u);
  // Byte order is numeric order.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = rng() >> (rng() % 64);
    const uint64_t y = rng() >> (rng() % 64);
    std::string kx, ky;
    PutFixed64BE(&kx, x);
    PutFixed64BE(&ky, y);
    EXPECT_EQ(x < y, kx < ky);
    EXPECT_EQ(GetFixed64BE(kx.data()), x);
    EXPECT_EQ(GetFixed16BE(kx.data() + 6), static_cast<uint16_t>(x));
  }
}

TEST(Keys, PrefixUpperBoundIsAboveEveryKeyOfThePrefix) {
  EXPECT_EQ(PrefixUpperBound("ab"), "ac");
  EXPECT_EQ(PrefixUpperBound(std::string("a\xff\xff", 3)), "b");
  EXPECT_EQ(PrefixUpperBound(std::string("\xff\xff", 2)), "");
  EXPECT_EQ(PrefixUpperBound(""), "");
  const std::string prefix = JobGamesPrefix(7);
  const std::string upper = PrefixUpperBound(prefix);
  EXPECT_LT(GameKey(GameId::SelfPlay(7, ~uint64_t{0})), upper);
  EXPECT_LE(upper, GameKey(GameId::SelfPlay(8, 0)));
}

TEST(GameId, TextFormsRoundTrip) {
  const GameId s = GameId::SelfPlay(12, 345);
  EXPECT_EQ(GameIdText(s), "s12-345");
  EXPECT_EQ(ParseGameId("s12-345").value(), s);
  const GameId i{GameId::Kind::kImported, 0xabcULL, 0xdefULL};
  EXPECT_EQ(GameIdText(i), "i0000000000000abc0000000000000def");
  EXPECT_EQ(ParseGameId(GameIdText(i)).value(), i);
  for (const char* bad : {"", "s", "s12", "s-1", "sx-1", "i12", "x12-3",
                          "i0000000000000abc0000000000000deg"}) {
    EXPECT_FALSE(ParseGameId(bad).ok()) << bad;
  }
}

TEST(GameId, ContentIdIgnoresMetadataAndSetupOrderButNotMoves) {
  rules::GameRecord a;
  a.width = a.height = 19;
  rules::SetupStep s;
  s.black = {rules::MakePoint(3, 15), rules::MakePoint(15, 3)};
  a.setup.push_back(s);
  a.handicap = 2;
  a.moves = {{rules::Color::kWhite, rules::MakePoint(15, 15)},
             {rules::Color::kBlack, rules::kPass}};
  rules::GameRecord b = a;
  b.black_player = "someone";
  b.result = rules::RecordResult::Read("B+R");
  std::reverse(b.setup[0].black.begin(), b.setup[0].black.end());
  EXPECT_EQ(ContentId(a), ContentId(b));
  rules::GameRecord c = a;
  c.moves[1].point = rules::MakePoint(3, 3);
  EXPECT_NE(ContentId(a), ContentId(c));
  rules::GameRecord d = a;
  d.width = d.height = 13;
  EXPECT_NE(ContentId(a), ContentId(d));
  // Pinned: the content hash is a stored data format.
  EXPECT_EQ(GameIdText(ContentId(a)), "i55cd88fcfbc1b9b533550280e9546ac3");
  EXPECT_EQ(ContentId(a).kind, GameId::Kind::kImported);
}

TEST(Keys, PlayerIndexKeysRoundTripInDateOrder) {
  const GameId a = GameId::SelfPlay(3, 7);
  const GameId b = GameId::SelfPlay(3, 8);
  const std::string k = PlayerPostingKey("ke jie", 20170523, a);
  EXPECT_EQ(k.size(), 1 + 6 + 1 + 4 + 17);
  EXPECT_TRUE(k.starts_with(PlayerPostingPrefix("ke jie")));
  auto parts = DecodePostingKey(k);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->tag, kPlayerPostingTag);
  EXPECT_EQ(parts->name, "ke jie");
  EXPECT_EQ(parts->day, 20170523u);
  EXPECT_EQ(parts->id, a);
  // Date order within a name, and a name's keys before a longer name's.
  EXPECT_LT(PlayerPostingKey("ke jie", 20160000, b), k);
  EXPECT_LT(k, PlayerPostingKey("ke jie", 20170523, b));
  EXPECT_LT(PlayerPostingKey("ke jie", 29991231, b),
            PlayerPostingKey("ke jiea", 0, a));
  auto e = DecodePostingKey(EventPostingKey("future of go", 1, b));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->name, "future of go");
  EXPECT_EQ(e->id, b);
  auto d = DecodePostingKey(DatePostingKey(20190304, a));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->tag, kDatePostingTag);
  EXPECT_EQ(d->day, 20190304u);
  EXPECT_FALSE(DecodePostingKey("p\x01").has_value());
  EXPECT_FALSE(DecodePostingKey("").has_value());

  auto c = DecodePlayerCountKey(PlayerCountKey("柯洁", 2019, 'W', 2));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->name, "柯洁");
  EXPECT_EQ(c->year, 2019);
  EXPECT_EQ(c->colour, 'W');
  EXPECT_EQ(c->winner, 2);
  EXPECT_TRUE(PlayerCountKey("柯洁", 2019, 'W', 2)
                  .starts_with(PlayerCountPrefix("柯洁")));
  EXPECT_FALSE(DecodePlayerCountKey("c\0x").has_value());
  std::string written;
  auto n = DecodeNamedKey(PlayerNameKey("ke jie", "Ke Jie 9p"), &written);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(*n, "ke jie");
  EXPECT_EQ(written, "Ke Jie 9p");
  EXPECT_EQ(DecodeNamedKey(EventCountKey("ev"), nullptr), "ev");
}

}  // namespace
}  // namespace qipu::store
