// The GTP commands that set a game up: boardsize, clear_board, komi,
// fixed_handicap, place_free_handicap, set_free_handicap (GTP 2 draft,
// sections 6.3.2 and 6.3.3), loadsgf and printsgf (6.3.5).
#include <algorithm>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"
#include "rules/coord.h"
#include "rules/scoring.h"
#include "rules/sgf_reader.h"
#include "rules/sgf_writer.h"

namespace qipu::gtp {
namespace {

using Args = std::vector<std::string>;
using Result = absl::StatusOr<std::string>;

absl::Status SyntaxError() {
  return absl::InvalidArgumentError("syntax error");
}

std::string VertexList(const std::vector<rules::Point>& points, int size) {
  std::vector<std::string> names;
  for (rules::Point p : points) names.push_back(rules::GtpPoint(p, size));
  return absl::StrJoin(names, " ");
}

// Where place_free_handicap puts n stones when the fixed pattern does not
// apply (small boards, more stones than it has): points with x + y even
// (no two adjacent, so every stone keeps liberties), those on the third
// and fourth lines first, then nearer the centre. Empty when the board
// has too few such points.
std::vector<rules::Point> FreePlacement(int size, int n) {
  struct Candidate {
    int rank;
    rules::Point p;
  };
  std::vector<Candidate> candidates;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      if ((x + y) % 2 != 0) continue;
      const int line =
          std::min(std::min(x, y), std::min(size - 1 - x, size - 1 - y));
      const int rank = line == 2 || line == 3 ? 0 : line > 3 ? 1 : 2;
      candidates.push_back({rank * 1000 + std::abs(2 * x - size + 1) +
                                std::abs(2 * y - size + 1),
                            rules::MakePoint(x, y)});
    }
  }
  // Leave room: a board full of stones leaves White no move.
  if (n > static_cast<int>(candidates.size()) - 1) return {};
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const Candidate& a, const Candidate& b) { return a.rank < b.rank; });
  std::vector<rules::Point> out;
  for (int i = 0; i < n; ++i) out.push_back(candidates[i].p);
  return out;
}

Result BoardSize(Engine& e, const Args& args) {
  if (args.size() != 1) return SyntaxError();
  absl::StatusOr<int> n = ParseInt(args[0]);
  if (!n.ok()) return n.status();
  if (absl::Status s = e.state().SetBoardSize(*n); !s.ok()) return s;
  e.clock().ResetPlayers();
  e.GameChanged();
  return std::string();
}

Result ClearBoard(Engine& e, const Args& args) {
  if (!args.empty()) return SyntaxError();
  e.state().Clear();
  e.clock().ResetPlayers();
  e.GameChanged();
  return std::string();
}

Result Komi(Engine& e, const Args& args) {
  if (args.size() != 1) return SyntaxError();
  absl::StatusOr<double> k = ParseFloat(args[0]);
  if (!k.ok()) return k.status();
  if (absl::Status s = e.state().SetKomi(*k); !s.ok()) return s;
  e.GameChanged();
  return std::string();
}

Result FixedHandicap(Engine& e, const Args& args) {
  if (args.size() != 1) return SyntaxError();
  absl::StatusOr<int> n = ParseInt(args[0]);
  if (!n.ok()) return n.status();
  if (!e.state().empty()) return absl::InvalidArgumentError("board not empty");
  const int size = e.state().size();
  absl::StatusOr<std::vector<rules::Point>> points =
      rules::FixedHandicap(size, size, *n);
  if (!points.ok() || *n < 2) {
    return absl::InvalidArgumentError("invalid number of stones");
  }
  if (absl::Status s = e.state().PlaceHandicap(*points); !s.ok()) return s;
  e.GameChanged();
  return VertexList(*points, size);
}

Result PlaceFreeHandicap(Engine& e, const Args& args) {
  if (args.size() != 1) return SyntaxError();
  absl::StatusOr<int> n = ParseInt(args[0]);
  if (!n.ok()) return n.status();
  if (!e.state().empty()) return absl::InvalidArgumentError("board not empty");
  const int size = e.state().size();
  if (*n < 2) return absl::InvalidArgumentError("invalid number of stones");
  absl::StatusOr<std::vector<rules::Point>> points =
      rules::FixedHandicap(size, size, *n);
  std::vector<rules::Point> chosen =
      points.ok() ? *points : FreePlacement(size, *n);
  if (chosen.empty()) {
    return absl::InvalidArgumentError("invalid number of stones");
  }
  if (absl::Status s = e.state().PlaceHandicap(chosen); !s.ok()) return s;
  e.GameChanged();
  return VertexList(chosen, size);
}

Result SetFreeHandicap(Engine& e, const Args& args) {
  if (!e.state().empty()) return absl::InvalidArgumentError("board not empty");
  std::vector<rules::Point> points;
  for (const std::string& a : args) {
    absl::StatusOr<rules::Point> p = ParseVertex(a, e.state().size());
    if (!p.ok()) return absl::InvalidArgumentError("bad vertex list");
    points.push_back(*p);
  }
  if (absl::Status s = e.state().PlaceHandicap(points); !s.ok()) return s;
  e.GameChanged();
  return std::string();
}

Result LoadSgf(Engine& e, const Args& args) {
  if (args.empty() || args.size() > 2) return SyntaxError();
  int move_number = -1;
  if (args.size() == 2) {
    absl::StatusOr<int> n = ParseInt(args[1]);
    if (!n.ok()) return n.status();
    move_number = *n;
  }
  std::ifstream in(args[0], std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot load file: cannot open ", args[0]));
  }
  std::stringstream data;
  data << in.rdbuf();
  const rules::SgfCollection sgf = rules::ReadSgf(data.str());
  if (sgf.games.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot load file: ", sgf.errors.empty()
                                  ? std::string("no game of Go in it")
                                  : sgf.errors[0].reason));
  }
  // "move_number": the position before that move (1 = the start).
  const int max_moves = move_number < 1 ? -1 : move_number - 1;
  if (absl::Status s = e.state().Load(sgf.games[0], max_moves); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot load file: ", s.message()));
  }
  e.clock().ResetPlayers();
  e.GameChanged();
  return std::string();
}

Result PrintSgf(Engine& e, const Args& args) {
  if (args.size() > 1) return SyntaxError();
  rules::GameRecord rec = e.state().ToRecord();
  rec.extra.emplace_back(
      "AP", absl::StrCat(e.options().name, ":", e.options().version));
  const std::string sgf = rules::WriteSgf(rec);
  if (args.empty()) return sgf;
  std::ofstream out(args[0], std::ios::binary | std::ios::trunc);
  out << sgf;
  out.close();
  if (!out) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot save file: ", args[0]));
  }
  return std::string();
}

}  // namespace

void RegisterSetupCommands(Engine& engine) {
  engine.Register("boardsize", BoardSize);
  engine.Register("clear_board", ClearBoard);
  engine.Register("komi", Komi);
  engine.Register("fixed_handicap", FixedHandicap);
  engine.Register("place_free_handicap", PlaceFreeHandicap);
  engine.Register("set_free_handicap", SetFreeHandicap);
  engine.Register("loadsgf", LoadSgf);
  engine.Register("printsgf", PrintSgf);
}

}  // namespace qipu::gtp
