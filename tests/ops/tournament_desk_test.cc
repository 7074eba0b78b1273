// Process test: the director's desk (issue 34) with the real `qipu
// tournament` commands, on a database (--db) and through qipu-coordinator
// processes (--server, with and without tokens): results that cannot be
// lost or overturned silently (an earlier round's result cleared only with
// --force, naming the standings it moves; pairing refused while any round
// lacks a result; a withdrawal's forfeit kept unless forced; the history
// of who changed what, when, from what to what -- the local user, the
// token, or the unverified user of a coordinator without tokens); the
// OpenGotha export of a player who withdrew after round 3; and what a
// director does on the day: seeds and player edits, names in two scripts
// on sheets and standings (text aligned in terminal columns, HTML),
// requested byes, late entries with the event's points, pairing edits
// refused with their reason or forced, and swiss-elimination.
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using Json = nlohmann::json;

// Runs `qipu tournament <args> <target...>` and, with RunJson, parses the
// last line of stdout.
struct Desk {
  std::string dir;
  std::vector<std::string> target;  // {"--db", D} or {"--server", A, ...}
  int calls = 0;

  Ran Run(std::vector<std::string> args) {
    std::vector<std::string> full = {"tournament"};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), target.begin(), target.end());
    return RunQipu(dir, absl::StrCat("desk", calls++), full);
  }
  Json RunJson(std::vector<std::string> args) {
    args.push_back("--json");
    const Ran r = Run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return LastJsonLine(r.out);
  }
};

// The user the child processes run as, as the tool names it.
std::string LocalUser() {
  if (const char* user = std::getenv("USER"); user != nullptr && *user) {
    return user;
  }
  const passwd* pw = getpwuid(geteuid());
  return pw != nullptr ? pw->pw_name : absl::StrCat("uid ", geteuid());
}

// Terminal columns of UTF-8 text: CJK ideographs and fullwidth forms 2.
int Columns(const std::string& s) {
  int width = 0;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    uint32_t cp = len == 1 ? c : c & (0x7f >> len);
    for (int k = 1; k < len && i + k < s.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    }
    width += (cp >= 0x2e80 && cp <= 0x9fff) || (cp >= 0xff00 && cp <= 0xff60)
                 ? 2
                 : 1;
    i += len;
  }
  return width;
}

// Registers players "name:alt:rank" in tournament `id`.
void Register(Desk& d, const std::string& id,
              const std::vector<std::string>& players) {
  for (const std::string& p : players) {
    const std::vector<std::string> f = absl::StrSplit(p, ':');
    const Ran r = d.Run({"player", "add", "--tournament", id, "--name", f[0],
                         "--alt-name", f[1], "--rank", f[2]});
    ASSERT_EQ(r.status, 0) << r.err;
  }
}

// Enters Black wins at every table of round `round` without a result.
void BlackWins(Desk& d, const std::string& id, int round) {
  const Json shown = d.RunJson({"show", "--tournament", id});
  for (const Json& p : shown["round"][round - 1]["pairings"]) {
    if (p["result"] != "?") continue;
    const Ran r = d.Run(
        {"result", "--tournament", id, "--round", absl::StrCat(round),
         "--table", absl::StrCat(p["table"].get<int>()), "--result", "B+"});
    ASSERT_EQ(r.status, 0) << r.err;
  }
}

const std::vector<std::string> kPlayers = {
    "Li Wei:李偉:5d",   "Wang Fang:王芳:4d", "Zhang Min:張敏:3d",
    "Chen Jie:陳杰:2d", "Liu Yang:劉洋:1d",  "Zhao Lei:趙磊:1k"};

TEST(OpsTournamentDesk, ResultsCannotBeLostOrOverturnedSilently) {
  TempDir tmp;
  Desk d{tmp.path(), {"--db", tmp.Sub("db")}};
  const std::string id = d.RunJson({"new", "--name", "Spring Open", "--system",
                                    "swiss", "--rounds", "7"})["tournament"];
  Register(d, id, kPlayers);
  d.RunJson({"pair", "--tournament", id});
  BlackWins(d, id, 1);
  d.RunJson({"pair", "--tournament", id});
  // Clearing a round 1 result once round 2 is paired: refused, naming the
  // reason and the standings it would move; nothing changes.
  const Json before = d.RunJson({"show", "--tournament", id});
  const Ran cleared = d.Run({"result", "--tournament", id, "--round", "1",
                             "--table", "1", "--result", "none"});
  EXPECT_EQ(cleared.status, 1);
  EXPECT_NE(cleared.err.find("round 1 table 1: B+ -> ? needs --force: round 2 "
                             "was paired from it. If forced, standings: "),
            std::string::npos)
      << cleared.err;
  EXPECT_NE(cleared.err.find("points 2 -> 0"), std::string::npos)
      << cleared.err;
  EXPECT_EQ(d.RunJson({"show", "--tournament", id}), before);
  // With --force it is cleared, the notes say what moved; round 3 then
  // cannot be paired while round 1 lacks it.
  const Ran forced = d.Run({"result", "--tournament", id, "--round", "1",
                            "--table", "1", "--result", "none", "--force"});
  ASSERT_EQ(forced.status, 0) << forced.err;
  EXPECT_NE(forced.out.find("note: standings: "), std::string::npos)
      << forced.out;
  BlackWins(d, id, 2);
  const Ran blocked = d.Run({"pair", "--tournament", id});
  EXPECT_EQ(blocked.status, 1);
  EXPECT_NE(blocked.err.find("round 1 is not complete: no result at table 1"),
            std::string::npos)
      << blocked.err;
  ASSERT_EQ(d.Run({"result", "--tournament", id, "--round", "1", "--table", "1",
                   "--result", "W+"})
                .status,
            0);
  const Json r3 = d.RunJson({"pair", "--tournament", id});
  ASSERT_EQ(r3["round"], 3);
  // A withdrawal forfeits the player's round 3 game; overturning it into
  // a win for the player needs --force.
  const std::string gone = r3["pairings"][0]["black"];
  ASSERT_EQ(
      d.Run({"player", "withdraw", "--tournament", id, "--name", gone}).status,
      0);
  const Ran overturn = d.Run({"result", "--tournament", id, "--round", "3",
                              "--table", "1", "--result", "B+"});
  EXPECT_EQ(overturn.status, 1);
  EXPECT_NE(overturn.err.find("it is a forfeit entered by a withdrawal "
                              "(W+forfeit)"),
            std::string::npos)
      << overturn.err;
  EXPECT_NE(overturn.err.find(absl::StrCat("it gives '", gone,
                                           "', who has withdrawn, a win")),
            std::string::npos)
      << overturn.err;
  ASSERT_EQ(d.Run({"result", "--tournament", id, "--round", "3", "--table", "1",
                   "--result", "B+", "--force"})
                .status,
            0);
  // The history: who (the local user), when, old and new of each change.
  const Json shown =
      d.RunJson({"show", "--tournament", id, "--history"})["history"];
  const std::string who = absl::StrCat(LocalUser(), " (local)");
  int forced_changes = 0;
  bool withdrawal = false;
  for (const Json& c : shown) {
    EXPECT_EQ(c["who"], who) << c;
    EXPECT_TRUE(absl::EndsWith(c["when"].get<std::string>(), "Z")) << c;
    forced_changes += c["forced"].get<bool>();
    withdrawal = withdrawal || c["action"] == "withdrawal";
  }
  EXPECT_EQ(forced_changes, 2);
  EXPECT_TRUE(withdrawal);
  const Json& clear = shown[3];  // after the three round 1 results
  EXPECT_EQ(clear["round"], 1);
  EXPECT_EQ(clear["table"], 1);
  EXPECT_EQ(clear["old"], "B+");
  EXPECT_EQ(clear["new"], "?");
  const Ran text = d.Run({"show", "--tournament", id, "--history"});
  EXPECT_NE(text.out.find("result  round 1 table 1: B+ -> ?  (forced)"),
            std::string::npos)
      << text.out;
  // OpenGotha: withdrawn after round 3 was paired, so played rounds 1-3.
  const Ran xml =
      d.Run({"export", "--tournament", id, "--format", "opengotha"});
  ASSERT_EQ(xml.status, 0) << xml.err;
  const size_t at = xml.out.find(absl::StrCat("name=\"", gone, "\""));
  ASSERT_NE(at, std::string::npos) << xml.out;
  EXPECT_NE(xml.out.find("participating=\"1110000\"", at), std::string::npos)
      << xml.out;
}

TEST(OpsTournamentDesk, SeedsLateEntriesSitOutsEditsAndSheets) {
  TempDir tmp;
  Desk d{tmp.path(), {"--db", tmp.Sub("db")}};
  const std::string id = d.RunJson(
      {"new", "--name", "Club Night", "--system", "swiss", "--rounds", "5",
       "--late-entry-points", "1", "--sit-out-points", "1"})["tournament"];
  Register(d, id, kPlayers);
  ASSERT_EQ(d.Run({"player", "add", "--tournament", id, "--name", "Tom <b>&",
                   "--seed", "3"})
                .status,
            0);
  const Ran dup = d.Run(
      {"player", "add", "--tournament", id, "--name", "X", "--seed", "3"});
  EXPECT_EQ(dup.status, 2);
  EXPECT_NE(dup.err.find("seed 3 is given to 'Tom <b>&' already"),
            std::string::npos)
      << dup.err;
  const Ran nothing =
      d.Run({"player", "edit", "--tournament", id, "--name", "Zhao Lei"});
  EXPECT_EQ(nothing.status, 2);
  EXPECT_NE(nothing.err.find("nothing to change"), std::string::npos);
  ASSERT_EQ(d.Run({"player", "edit", "--tournament", id, "--name", "Zhao Lei",
                   "--seed", "1", "--rating", "2300"})
                .status,
            0);
  ASSERT_EQ(d.Run({"player", "sit-out", "--tournament", id, "--name",
                   "Chen Jie", "--round", "2"})
                .status,
            0);
  d.RunJson({"pair", "--tournament", id});
  const Json players = d.RunJson({"show", "--tournament", id})["players"];
  for (const Json& p : players) {
    if (p["name"] == "Zhao Lei") EXPECT_EQ(p["seed"], 1) << p;
    if (p["name"] == "Tom <b>&") EXPECT_EQ(p["seed"], 3) << p;
  }
  // The sheet: names in both scripts, every table line as wide as the
  // others (a Chinese character takes two columns).
  const Ran sheet = d.Run({"sheet", "--tournament", id});
  ASSERT_EQ(sheet.status, 0) << sheet.err;
  std::set<int> widths;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(sheet.out, '\n'))) {
    if (line.size() > 5 && line[4] >= '1' && line[4] <= '9') {
      widths.insert(Columns(line));
    }
  }
  EXPECT_EQ(widths.size(), 1u) << sheet.out;
  EXPECT_NE(sheet.out.find("Li Wei 李偉"), std::string::npos) << sheet.out;
  const Ran html =
      d.Run({"sheet", "--tournament", id, "--round", "1", "--html"});
  ASSERT_EQ(html.status, 0) << html.err;
  EXPECT_EQ(html.out.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.out.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.out.find("Wang Fang 王芳"), std::string::npos);
  EXPECT_NE(html.out.find("Tom &lt;b&gt;&amp;"), std::string::npos);
  EXPECT_EQ(html.out.find("Tom <b>"), std::string::npos);
  BlackWins(d, id, 1);
  // Round 2: Chen Jie sits out (1 point), the rest are paired.
  const Json r2 = d.RunJson({"pair", "--tournament", id});
  const Json round2 = d.RunJson({"show", "--tournament", id})["round"][1];
  EXPECT_EQ(round2["absent"], Json::array({"Chen Jie"})) << round2;
  for (const Json& p : r2["pairings"]) {
    EXPECT_NE(p["black"], "Chen Jie");
    EXPECT_NE(p["white"], "Chen Jie");
  }
  BlackWins(d, id, 2);
  // A late entry after round 2: 1 point for each round missed.
  ASSERT_EQ(d.Run({"player", "add", "--tournament", id, "--name", "Late",
                   "--alt-name", "遲到"})
                .status,
            0);
  const Json st = d.RunJson({"standings", "--tournament", id});
  for (const Json& row : st["rows"]) {
    if (row["name"] == "Late") {
      EXPECT_EQ(row["points"], 2) << row;
      EXPECT_EQ(row["absent"], 2) << row;
    }
  }
  // Round 3, edited by hand: a swap that repeats a pair is refused with
  // the reason, and made with --force; colours swapped; undo and pair.
  const Json r3 = d.RunJson({"pair", "--tournament", id});
  const Json round1 = d.RunJson({"show", "--tournament", id})["round"][0];
  const std::string a = round1["pairings"][0]["black"];
  const std::string b = round1["pairings"][0]["white"];
  std::string partner;  // a's opponent in round 3
  for (const Json& p : r3["pairings"]) {
    if (p["black"] == a) partner = p["white"];
    if (p["white"] == a) partner = p["black"];
  }
  // 8 play round 3 (no bye), never a pair of round 1 again.
  ASSERT_FALSE(partner.empty()) << r3;
  ASSERT_NE(partner, b);
  const Ran swap = d.Run({"pairing", "swap", "--tournament", id, "--first",
                          partner, "--second", b});
  EXPECT_EQ(swap.status, 1);
  EXPECT_NE(
      swap.err.find(absl::StrCat("'", a, "' and '", b, "' met in round 1")),
      std::string::npos)
      << swap.err;
  const Ran forced = d.Run({"pairing", "swap", "--tournament", id, "--first",
                            partner, "--second", b, "--force"});
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_NE(forced.out.find("note: "), std::string::npos) << forced.out;
  ASSERT_EQ(
      d.Run({"pairing", "colours", "--tournament", id, "--table", "1"}).status,
      0);
  const Ran unpair = d.Run({"pairing", "unpair", "--tournament", id});
  EXPECT_EQ(unpair.status, 2);  // neither --table nor --name
  ASSERT_EQ(d.Run({"pairing", "undo", "--tournament", id}).status, 0);
  const Json again = d.RunJson({"pair", "--tournament", id});
  EXPECT_EQ(again["round"], 3);
  const Json hist =
      d.RunJson({"show", "--tournament", id, "--history"})["history"];
  int pairing_edits = 0;
  for (const Json& c : hist) pairing_edits += c["action"] == "pairing";
  EXPECT_GE(pairing_edits, 2);
  // The standings page.
  const Ran page = d.Run({"standings", "--tournament", id, "--html"});
  ASSERT_EQ(page.status, 0) << page.err;
  EXPECT_NE(page.out.find("<table class=\"standings\">"), std::string::npos);
  EXPECT_NE(page.out.find("Late 遲到"), std::string::npos);
  // A round robin takes no late entry, and says why.
  const std::string rr = d.RunJson(
      {"new", "--name", "League", "--system", "round-robin"})["tournament"];
  Register(d, rr, {"A:甲:1d", "B:乙:1d", "C:丙:1d"});
  d.RunJson({"pair", "--tournament", rr});
  const Ran late = d.Run({"player", "add", "--tournament", rr, "--name", "D"});
  EXPECT_EQ(late.status, 1);
  EXPECT_NE(late.err.find("only an individual Swiss takes late entries (not "
                          "a round-robin)"),
            std::string::npos)
      << late.err;
}

TEST(OpsTournamentDesk, SwissEliminationKeepsTheFieldEven) {
  TempDir tmp;
  Desk d{tmp.path(), {"--db", tmp.Sub("db")}};
  const Ran no_losses =
      d.Run({"new", "--name", "E", "--system", "swiss-elimination"});
  EXPECT_EQ(no_losses.status, 2);
  EXPECT_NE(no_losses.err.find("--eliminate-after"), std::string::npos);
  const std::string id =
      d.RunJson({"new", "--name", "E", "--system", "swiss-elimination",
                 "--eliminate-after", "1", "--rounds", "5"})["tournament"];
  Register(d, id, {"A:甲:1d", "B:乙:1d", "C:丙:1d", "D:丁:1d", "E:戊:1d"});
  const Ran odd = d.Run({"pair", "--tournament", id});
  EXPECT_EQ(odd.status, 1);
  EXPECT_NE(odd.err.find("5 registered: register or withdraw one"),
            std::string::npos)
      << odd.err;
  Register(d, id, {"F:己:1d"});
  // 6 play round 1; one loss puts a player out: 3 left, the lowest cut.
  EXPECT_EQ(d.RunJson({"pair", "--tournament", id})["pairings"].size(), 3u);
  BlackWins(d, id, 1);
  const Json r2 = d.RunJson({"pair", "--tournament", id});
  EXPECT_EQ(r2["pairings"].size(), 1u) << r2;
  EXPECT_TRUE(r2["bye"].is_null()) << r2;
  const Json shown = d.RunJson({"show", "--tournament", id});
  EXPECT_EQ(shown["round"][1]["cut"].size(), 1u) << shown;
  BlackWins(d, id, 2);
  const Ran over = d.Run({"pair", "--tournament", id});
  EXPECT_EQ(over.status, 1);
  EXPECT_NE(over.err.find("the event is over"), std::string::npos) << over.err;
  const Json st = d.RunJson({"standings", "--tournament", id});
  EXPECT_EQ(st["order"][0], "still_in");
  EXPECT_EQ(st["rows"][0]["out_in_round"], 0);  // the winner
  EXPECT_EQ(st["rows"][1]["out_in_round"], 2);
}

TEST(OpsTournamentDesk, HistoryNamesTheCallerOverGrpc) {
  TempDir tmp;
  // An operator token made on the database before the coordinator starts.
  const Ran token = RunQipu(tmp.path(), "token",
                            {"token", "create", "--role", "operator", "--name",
                             "desk", "--db", tmp.Sub("db"), "--json"});
  ASSERT_EQ(token.status, 0) << token.err;
  const Json t = LastJsonLine(token.out);
  const std::string secret = t["token"];
  const uint64_t token_id = t["id"];
  {
    CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("auth"),
                             {"--auth", "required"});
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
    Desk d{tmp.path(), {"--server", coord.address(), "--token", secret}};
    const std::string id = d.RunJson({"new", "--name", "Desk", "--system",
                                      "swiss", "--rounds", "3"})["tournament"];
    Register(d, id, {"A:甲:1d", "B:乙:1d"});
    d.RunJson({"pair", "--tournament", id});
    BlackWins(d, id, 1);
    const Json h =
        d.RunJson({"show", "--tournament", id, "--history"})["history"];
    ASSERT_EQ(h.size(), 1u) << h;
    EXPECT_EQ(h[0]["who"],
              absl::StrCat("token ", token_id, " 'desk' (operator)"));
    coord.Stop();
  }
  // Without tokens: the user the client says it is, marked unverified.
  CoordinatorProcess open(tmp.Sub("db"), tmp.Sub("open"));
  ASSERT_TRUE(open.Start().ok()) << open.LogTail();
  Desk d{tmp.path(), {"--server", open.address()}};
  ASSERT_EQ(d.Run({"result", "--tournament", "1", "--round", "1", "--table",
                   "1", "--result", "W+"})
                .status,
            0);
  const Json h =
      d.RunJson({"show", "--tournament", "1", "--history"})["history"];
  ASSERT_EQ(h.size(), 2u) << h;
  EXPECT_EQ(h[1]["who"], absl::StrCat(LocalUser(), " (no token, 127.0.0.1)"));
  EXPECT_EQ(h[1]["old"], "B+");
  EXPECT_EQ(h[1]["new"], "W+");
}

}  // namespace
}  // namespace qipu::testing
