// Process test: bad clients against a running qipu-coordinator process.
// UploadGames is a bidirectional stream with one ack per game (several to
// a message in the batched form, which is tested here too): a game
// that parses but is wrong (an illegal move, a wrong claimed result, an
// unknown job) is answered by an ACK_STATUS_REJECTED ack whose reason says
// what is wrong and why, and the stream stays usable. Bytes that are no
// GameUpload at all (truncated, garbage) and a message above the server's
// 32 MiB receive limit end the stream with an error status; a connection
// that does not speak HTTP/2 is closed. After each case nothing is
// stored, the health check says SERVING, and a valid game uploaded
// afterwards is stored -- and is then the only game in the database.
//
// Every RPC (OpsBadRequests): bytes that are not its request message get
// INVALID_ARGUMENT naming the type (gRPC alone says INTERNAL, or
// UNIMPLEMENTED on the callback API); each string field of each RPC's
// request (tests/ops/rpc_table.h) 1 MB long gets an answer whose message
// quotes at most a bounded part of it -- never RESOURCE_EXHAUSTED from an
// error message larger than the client's metadata limit.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/text_format.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/support/byte_buffer.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/game.h"
#include "rules/selfplay.h"
#include "tests/ops/any_rpc.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/rpc_table.h"

namespace qipu::testing {
namespace {

using grpc::health::v1::HealthCheckResponse;

constexpr char kUploadMethod[] = "/qipu.v1.WorkService/UploadGames";

// Game `index` of `job` as a worker would upload it.
qipu::v1::Game PlayGame(uint64_t job, const qipu::v1::JobConfig& config,
                        uint64_t index) {
  rules::SelfPlaySpec spec;
  spec.width = static_cast<int>(config.width());
  spec.height = static_cast<int>(config.height());
  auto r = wire::RulesFromProto(config.rules());
  EXPECT_TRUE(r.ok()) << r.status();
  if (r.ok()) spec.rules = *r;
  spec.handicap = static_cast<int>(config.handicap());
  spec.job_seed = config.seed();
  spec.index = index;
  rules::Game g(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  const absl::Status s = rules::PlaySelfPlay(spec, &g, &outcome);
  EXPECT_TRUE(s.ok()) << s;
  qipu::v1::Game out;
  wire::SelfPlayToProto(g, spec, outcome, job, "bad-client", &out);
  return out;
}

qipu::v1::GameUpload UploadOf(const qipu::v1::Game& game, uint64_t seq) {
  qipu::v1::GameUpload up;
  up.set_lease_id("no-such-lease");
  *up.mutable_game() = game;
  up.set_seq(seq);
  return up;
}

// The end of one UploadGames stream.
struct StreamOutcome {
  grpc::Status status;
  std::vector<qipu::v1::GameAck> acks;
};

// Sends `uploads` on one stream, half-closes, reads every ack.
StreamOutcome Upload(Client& client,
                     const std::vector<qipu::v1::GameUpload>& uploads) {
  StreamOutcome out;
  auto ctx = client.Context();
  auto stream = client.work().UploadGames(ctx.get());
  for (const auto& up : uploads) {
    if (!stream->Write(up)) break;
  }
  stream->WritesDone();
  qipu::v1::GameAck ack;
  while (stream->Read(&ack)) out.acks.push_back(ack);
  out.status = stream->Finish();
  return out;
}

// Sends `entries` as one batched GameUpload (GameUpload.batch) on one
// stream, half-closes, reads every ack message. *messages, when given,
// receives the ack messages as they came; the outcome's acks are the
// entries of the batched ones, flattened.
StreamOutcome UploadBatch(Client& client,
                          const std::vector<qipu::v1::GameUpload>& entries,
                          std::vector<qipu::v1::GameAck>* messages = nullptr) {
  qipu::v1::GameUpload batch;
  for (const auto& e : entries) *batch.add_batch() = e;
  StreamOutcome raw = Upload(client, {batch});
  StreamOutcome out;
  out.status = raw.status;
  for (const auto& m : raw.acks) {
    if (m.batch_size() == 0) out.acks.push_back(m);
    for (const auto& a : m.batch()) out.acks.push_back(a);
  }
  if (messages != nullptr) *messages = std::move(raw.acks);
  return out;
}

// Sends `frames` -- arbitrary bytes, each as one gRPC message -- on one
// UploadGames stream through the generic stub, half-closes, and reads
// whatever comes back. The context's deadline bounds every step.
StreamOutcome RawUpload(Client& client,
                        const std::vector<std::string>& frames) {
  StreamOutcome out;
  grpc::GenericStub stub(client.channel());
  grpc::CompletionQueue cq;
  auto ctx = client.Context();
  auto call = stub.PrepareCall(ctx.get(), kUploadMethod, &cq);
  // Each operation is started alone and waited for; its tag is its number.
  intptr_t next = 0;
  auto run = [&](auto&& start) {
    void* const tag = reinterpret_cast<void*>(++next);
    start(tag);
    void* got = nullptr;
    bool ok = false;
    if (!cq.Next(&got, &ok)) return false;
    EXPECT_EQ(got, tag);
    return ok;
  };
  bool open = run([&](void* tag) { call->StartCall(tag); });
  for (const std::string& frame : frames) {
    if (!open) break;
    grpc::Slice slice(frame);
    grpc::ByteBuffer buffer(&slice, 1);
    open = run([&](void* tag) { call->Write(buffer, tag); });
  }
  if (open) run([&](void* tag) { call->WritesDone(tag); });
  for (;;) {
    grpc::ByteBuffer reply;
    if (!run([&](void* tag) { call->Read(&reply, tag); })) break;
    std::vector<grpc::Slice> slices;
    qipu::v1::GameAck ack;
    std::string bytes;
    if (reply.Dump(&slices).ok()) {
      for (const grpc::Slice& s : slices) {
        bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
      }
    }
    EXPECT_TRUE(ack.ParseFromString(bytes));
    out.acks.push_back(ack);
  }
  run([&](void* tag) { call->Finish(&out.status, tag); });
  cq.Shutdown();
  void* got = nullptr;
  bool ok = false;
  while (cq.Next(&got, &ok)) {
  }
  return out;
}

std::string Describe(const StreamOutcome& o) {
  std::string s = absl::StrCat("status ", o.status.error_code(), " '",
                               o.status.error_message(), "', acks:");
  for (const auto& a : o.acks) {
    absl::StrAppend(&s, " [", a.ShortDebugString(), "]");
  }
  return s;
}

// Writes `bytes` to a plain TCP connection to 127.0.0.1:`port` and reads
// until the server closes it. True when it closed (or reset) it within
// `timeout`; false when it kept the connection open.
bool ServerClosesGarbageConnection(int port, const std::string& bytes,
                                   absl::Duration timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  timeval tv = absl::ToTimeval(timeout);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return false;
  }
  // The server may close while we are still writing: that is fine.
  send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  bool closed = false;
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n > 0) continue;
    closed = n == 0 || errno == ECONNRESET;
    break;
  }
  close(fd);
  return closed;
}

// Makes the first stone of `g` be played again by the opponent on the next
// move (a move on an occupied point); returns that move's 1-based number,
// or 0 when the game has no such pair of moves.
size_t MakeIllegal(qipu::v1::Game* g) {
  std::string moves = g->moves();
  size_t i = 0;
  while (i + 1 < moves.size() && moves[i] == 0) ++i;  // skip passes
  if (i + 1 >= moves.size()) return 0;
  moves[i + 1] = moves[i];  // 9x9: one byte per move
  g->set_moves(moves);
  return i + 2;
}

// Claims the other side won.
void FlipWinner(qipu::v1::Game* g) {
  g->mutable_result()->set_winner(g->result().winner() == qipu::v1::WINNER_BLACK
                                      ? qipu::v1::WINNER_WHITE
                                      : qipu::v1::WINNER_BLACK);
}

// A coordinator process with one 10-game 9x9 job and nothing stored.
class OpsBadClient : public ::testing::Test {
 protected:
  // The game index every test stores at the end, to show the coordinator
  // still accepts valid games.
  static constexpr uint64_t kValidIndex = 9;

  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    coord_ = std::make_unique<CoordinatorProcess>(tmp_.Sub("db"),
                                                  tmp_.Sub("coordinator"));
    ASSERT_TRUE(coord_->Start().ok()) << coord_->LogTail();
    client_ = std::make_unique<Client>(coord_->address());
    auto job = client_->SubmitJob(10, JobConfigFor(9, 4242));
    ASSERT_TRUE(job.ok()) << job.status();
    job_ = *job;
    auto st = client_->JobStatus(job_);
    ASSERT_TRUE(st.ok()) << st.status();
    config_ = st->config();
  }

  // Nothing is stored, the process runs and its health check says
  // SERVING; then a valid game is stored, and after a graceful stop it
  // is the only game in the database.
  void ExpectUnharmed(const std::string& after, uint64_t rejected) {
    auto st = client_->JobStatus(job_);
    ASSERT_TRUE(st.ok()) << after << ": " << st.status();
    EXPECT_EQ(st->done(), 0u) << after;
    EXPECT_EQ(st->rejected(), rejected) << after;
    EXPECT_EQ(st->state(), qipu::v1::JOB_STATE_RUNNING) << after;
    ASSERT_TRUE(coord_->process()->IsRunning()) << after << coord_->LogTail();
    auto health = client_->Health();
    ASSERT_TRUE(health.ok()) << after << ": " << health.status();
    EXPECT_EQ(*health, HealthCheckResponse::SERVING) << after;

    // The lease id of an upload is informational: none is needed.
    const qipu::v1::Game good = PlayGame(job_, config_, kValidIndex);
    const StreamOutcome o = Upload(*client_, {UploadOf(good, 1)});
    ASSERT_TRUE(o.status.ok()) << after << ": " << Describe(o);
    ASSERT_EQ(o.acks.size(), 1u) << after << ": " << Describe(o);
    EXPECT_EQ(o.acks[0].status(), qipu::v1::ACK_STATUS_STORED) << Describe(o);
    st = client_->JobStatus(job_);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->done(), 1u) << after;

    // An open connection holds a graceful shutdown up for its whole grace
    // period: close ours first.
    client_.reset();
    EXPECT_EQ(coord_->Stop(), 0) << coord_->LogTail();
    uint64_t others = 0;
    auto games = ReadStoredGames(tmp_.Sub("db"), job_, &others);
    ASSERT_TRUE(games.ok()) << games.status();
    EXPECT_EQ(others, 0u) << after;
    ASSERT_EQ(games->size(), 1u) << after;
    EXPECT_EQ(games->begin()->first, kValidIndex);
    EXPECT_EQ(games->begin()->second.moves(), good.moves());
  }

  // The one ack of a one-game stream: REJECTED, for `index`, with a
  // reason containing every string of `words`.
  void ExpectRejected(const StreamOutcome& o, uint64_t job, uint64_t index,
                      const std::vector<std::string>& words) {
    EXPECT_TRUE(o.status.ok()) << Describe(o);
    ASSERT_EQ(o.acks.size(), 1u) << Describe(o);
    const qipu::v1::GameAck& ack = o.acks[0];
    EXPECT_EQ(ack.seq(), 7u);
    EXPECT_EQ(ack.status(), qipu::v1::ACK_STATUS_REJECTED) << Describe(o);
    EXPECT_EQ(ack.game_id(), absl::StrCat("s", job, "-", index));
    for (const std::string& w : words) {
      EXPECT_TRUE(absl::StrContains(ack.reason(), w))
          << "'" << w << "' not in the reason '" << ack.reason() << "'";
    }
  }

  // A stream whose first message carried bytes which are no GameUpload:
  // it must end with INVALID_ARGUMENT (do not resend) saying which
  // message and why, and no ack.
  void ExpectUnparsableRefused(const StreamOutcome& o, size_t bytes) {
    EXPECT_EQ(o.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << "an unparsable GameUpload was not refused: " << Describe(o);
    for (const std::string& w : {std::string("upload message 1 of the stream"),
                                 absl::StrCat("(", bytes, " bytes)"),
                                 std::string("is not a qipu.v1.GameUpload")}) {
      EXPECT_TRUE(absl::StrContains(o.status.error_message(), w))
          << "'" << w << "' not in '" << o.status.error_message() << "'";
    }
    EXPECT_TRUE(o.acks.empty()) << Describe(o);
  }

  TempDir tmp_;
  std::unique_ptr<CoordinatorProcess> coord_;
  std::unique_ptr<Client> client_;
  uint64_t job_ = 0;
  qipu::v1::JobConfig config_;
};

TEST_F(OpsBadClient, IllegalMoveIsRejectedNamingTheMoveAndWhy) {
  qipu::v1::Game g = PlayGame(job_, config_, 0);
  const size_t move = MakeIllegal(&g);
  ASSERT_GT(move, 0u);
  ExpectRejected(Upload(*client_, {UploadOf(g, 7)}), job_, 0,
                 {absl::StrCat("move ", move, " is illegal"), "occupied"});
  ExpectUnharmed("an illegal game", /*rejected=*/1);
}

TEST_F(OpsBadClient, WrongClaimedResultIsRejectedWithClaimAndTruth) {
  qipu::v1::Game g = PlayGame(job_, config_, 1);
  FlipWinner(&g);
  ExpectRejected(Upload(*client_, {UploadOf(g, 7)}), job_, 1,
                 {"result: the game claims", "but the rules give"});
  ExpectUnharmed("a wrong result", /*rejected=*/1);
}

TEST_F(OpsBadClient, GameOfAnUnknownJobIsRejected) {
  const uint64_t unknown = job_ + 1000;
  ExpectRejected(Upload(*client_, {UploadOf(PlayGame(unknown, config_, 2), 7)}),
                 unknown, 2,
                 {absl::StrCat("job ", unknown, " does not exist")});
  // A game of no job is not a rejected upload of this one.
  ExpectUnharmed("an unknown job", /*rejected=*/0);
}

TEST_F(OpsBadClient, BadGamesOnOneStreamAreRejectedInOrderAndItStaysUsable) {
  qipu::v1::Game illegal = PlayGame(job_, config_, 0);
  ASSERT_GT(MakeIllegal(&illegal), 0u);
  qipu::v1::Game wrong = PlayGame(job_, config_, 1);
  FlipWinner(&wrong);
  const qipu::v1::Game foreign = PlayGame(job_ + 1000, config_, 2);
  const qipu::v1::Game good = PlayGame(job_, config_, 3);
  const StreamOutcome o =
      Upload(*client_, {UploadOf(illegal, 11), UploadOf(wrong, 12),
                        UploadOf(foreign, 13), UploadOf(good, 14)});
  ASSERT_TRUE(o.status.ok()) << Describe(o);
  ASSERT_EQ(o.acks.size(), 4u) << Describe(o);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(o.acks[i].seq(), static_cast<uint64_t>(11 + i)) << Describe(o);
    EXPECT_EQ(o.acks[i].status(), i < 3 ? qipu::v1::ACK_STATUS_REJECTED
                                        : qipu::v1::ACK_STATUS_STORED)
        << Describe(o);
    EXPECT_EQ(o.acks[i].reason().empty(), i == 3) << Describe(o);
  }
  auto st = client_->JobStatus(job_);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->done(), 1u);
  EXPECT_EQ(st->rejected(), 2u);
}

TEST_F(OpsBadClient, BatchedUploadIsAckedInOrderInBatchedAcks) {
  qipu::v1::Game illegal = PlayGame(job_, config_, 0);
  ASSERT_GT(MakeIllegal(&illegal), 0u);
  qipu::v1::Game wrong = PlayGame(job_, config_, 1);
  FlipWinner(&wrong);
  const qipu::v1::Game good = PlayGame(job_, config_, 3);
  const qipu::v1::Game other = PlayGame(job_, config_, 4);
  // The same game twice in one message: stored once, then a duplicate.
  std::vector<qipu::v1::GameAck> messages;
  const StreamOutcome o = UploadBatch(
      *client_,
      {UploadOf(illegal, 21), UploadOf(good, 22), UploadOf(wrong, 23),
       UploadOf(good, 24), UploadOf(other, 25)},
      &messages);
  ASSERT_TRUE(o.status.ok()) << Describe(o);
  ASSERT_EQ(o.acks.size(), 5u) << Describe(o);
  const qipu::v1::AckStatus want[] = {
      qipu::v1::ACK_STATUS_REJECTED, qipu::v1::ACK_STATUS_STORED,
      qipu::v1::ACK_STATUS_REJECTED, qipu::v1::ACK_STATUS_DUPLICATE,
      qipu::v1::ACK_STATUS_STORED};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(o.acks[i].seq(), static_cast<uint64_t>(21 + i)) << Describe(o);
    EXPECT_EQ(o.acks[i].status(), want[i]) << Describe(o);
  }
  EXPECT_TRUE(absl::StrContains(o.acks[0].reason(), "is illegal"));
  EXPECT_TRUE(absl::StrContains(o.acks[2].reason(), "result"));
  EXPECT_EQ(o.acks[1].game_id(), absl::StrCat("s", job_, "-3"));
  // Every ack message of a batched stream is in the batched form.
  for (const auto& m : messages) {
    EXPECT_GT(m.batch_size(), 0) << m.ShortDebugString();
    EXPECT_EQ(m.seq(), 0u) << m.ShortDebugString();
  }
  auto st = client_->JobStatus(job_);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->done(), 2u);
  EXPECT_EQ(st->rejected(), 2u);
}

TEST_F(OpsBadClient, BatchMixedWithTheSingleFormIsRefused) {
  qipu::v1::GameUpload mixed = UploadOf(PlayGame(job_, config_, 3), 7);
  *mixed.add_batch() = UploadOf(PlayGame(job_, config_, 4), 8);
  const StreamOutcome o = Upload(*client_, {mixed});
  EXPECT_EQ(o.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << Describe(o);
  EXPECT_TRUE(absl::StrContains(o.status.error_message(), "mixes"))
      << Describe(o);
  EXPECT_TRUE(o.acks.empty()) << Describe(o);
  ExpectUnharmed("a batch mixed with a single game", /*rejected=*/0);
}

TEST_F(OpsBadClient, NestedBatchIsRefusedAfterTheEntriesBeforeIt) {
  // Entry 1 is a valid game of index 5; entry 2 nests a batch. The stream
  // ends with INVALID_ARGUMENT naming entry 2, after acking entry 1.
  qipu::v1::GameUpload nested;
  *nested.add_batch() = UploadOf(PlayGame(job_, config_, 6), 9);
  const StreamOutcome o =
      UploadBatch(*client_, {UploadOf(PlayGame(job_, config_, 5), 8), nested});
  EXPECT_EQ(o.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << Describe(o);
  EXPECT_TRUE(absl::StrContains(o.status.error_message(), "entry 2"))
      << Describe(o);
  ASSERT_EQ(o.acks.size(), 1u) << Describe(o);
  EXPECT_EQ(o.acks[0].seq(), 8u);
  EXPECT_EQ(o.acks[0].status(), qipu::v1::ACK_STATUS_STORED);
  auto st = client_->JobStatus(job_);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->done(), 1u);
}

TEST_F(OpsBadClient, TruncatedMessageEndsTheStreamWithAnError) {
  const std::string whole =
      UploadOf(PlayGame(job_, config_, 3), 7).SerializeAsString();
  // Cut inside the length-delimited `game` field: it cannot parse.
  ExpectUnparsableRefused(
      RawUpload(*client_, {whole.substr(0, whole.size() / 2)}),
      whole.size() / 2);
  ExpectUnharmed("a truncated message", /*rejected=*/0);
}

TEST_F(OpsBadClient, GarbageMessageEndsTheStreamWithAnError) {
  // 0xff... is an over-long varint tag: never a valid protobuf.
  ExpectUnparsableRefused(RawUpload(*client_, {std::string(64, '\xff')}), 64);
  ExpectUnharmed("a garbage message", /*rejected=*/0);
}

TEST_F(OpsBadClient, ConnectionThatIsNotHttp2IsClosed) {
  std::string garbage = "GET / HTTP/1.1\r\nHost: qipu\r\n\r\n";
  for (int i = 0; garbage.size() < 64 * 1024; ++i) {
    garbage.push_back(static_cast<char>((i * 7919) & 0xff));
  }
  EXPECT_TRUE(ServerClosesGarbageConnection(coord_->port(), garbage,
                                            absl::Seconds(10) * kSlowdown));
  ExpectUnharmed("garbage bytes on the port", /*rejected=*/0);
}

TEST_F(OpsBadClient, OversizedMessageIsRefusedWithResourceExhausted) {
  qipu::v1::Game g = PlayGame(job_, config_, 3);
  // Above the coordinator's 32 MiB receive limit.
  g.mutable_meta()->set_event(std::string(33u << 20, 'x'));
  const StreamOutcome o = Upload(*client_, {UploadOf(g, 7)});
  EXPECT_EQ(o.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << Describe(o).substr(0, 500);
  // gRPC's own message: "Received message larger than max (N vs. M)".
  EXPECT_TRUE(absl::StrContains(o.status.error_message(), "larger than max"))
      << o.status.error_message();
  EXPECT_TRUE(o.acks.empty());
  ExpectUnharmed("an oversized message", /*rejected=*/0);
}

// --- every RPC: unparseable and oversized requests -----------------------

namespace pb = ::google::protobuf;

// A coordinator (auth off, loopback) with job 1 of 2 games, as the RPC
// table expects.
class OpsBadRequests : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    coord_ = std::make_unique<CoordinatorProcess>(tmp_.Sub("db"),
                                                  tmp_.Sub("coordinator"));
    ASSERT_TRUE(coord_->Start().ok()) << coord_->LogTail();
    client_ = std::make_unique<Client>(coord_->address());
    auto job = client_->SubmitJob(2, JobConfigFor(9, 7));
    ASSERT_TRUE(job.ok()) << job.status();
    ASSERT_EQ(*job, 1u);
  }

  RawCallResult Call(const std::string& path,
                     const std::vector<std::string>& frames) {
    return CallRaw(client_->channel(), path, frames, {},
                   absl::Seconds(60) * kSlowdown);
  }

  TempDir tmp_;
  std::unique_ptr<CoordinatorProcess> coord_;
  std::unique_ptr<Client> client_;
};

TEST_F(OpsBadRequests, UnparseableBytesAreInvalidArgumentOnEveryRpc) {
  // 0xff... is an over-long varint tag: never a valid protobuf.
  const std::string garbage(64, '\xff');
  std::vector<const pb::MethodDescriptor*> methods = QipuMethods();
  methods.push_back(pb::DescriptorPool::generated_pool()->FindMethodByName(
      "grpc.health.v1.Health.Check"));
  ASSERT_GE(methods.size(), 29u);
  for (const pb::MethodDescriptor* m : methods) {
    const RawCallResult r = Call(MethodPath(m), {garbage});
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << MethodPath(m) << ": " << r.status.error_message();
    // gRPC's own health service says "could not parse request".
    if (m->service()->full_name() != "grpc.health.v1.Health") {
      EXPECT_TRUE(absl::StrContains(r.status.error_message(),
                                    m->input_type()->full_name()))
          << MethodPath(m) << ": " << r.status.error_message();
    }
    EXPECT_TRUE(r.responses.empty()) << MethodPath(m);
  }
  // Nothing was done: still one job, and the coordinator serves.
  auto st = client_->JobStatus(1);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->requested(), 2u);
  auto two = client_->JobStatus(2);
  EXPECT_EQ(two.status().code(), absl::StatusCode::kNotFound) << two.status();
  EXPECT_EQ(*client_->Health(), HealthCheckResponse::SERVING);
}

// Every path to a string field of `type`: singular message fields
// followed (to `depth` levels, no type twice on one path), repeated
// strings included.
void StringFields(const pb::Descriptor* type, int depth,
                  std::vector<const pb::FieldDescriptor*>* path,
                  std::vector<std::vector<const pb::FieldDescriptor*>>* out) {
  for (int i = 0; i < type->field_count(); ++i) {
    const pb::FieldDescriptor* f = type->field(i);
    path->push_back(f);
    if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
      out->push_back(*path);
    } else if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE &&
               !f->is_repeated() && depth > 1 && !f->is_map()) {
      bool cycle = f->message_type() == type;
      for (const auto* p : *path) {
        cycle = cycle || p->containing_type() == f->message_type();
      }
      if (!cycle) StringFields(f->message_type(), depth - 1, path, out);
    }
    path->pop_back();
  }
}

// `base` with the string at `path` set to `value` (appended when
// repeated).
std::string WithField(const pb::Message& base,
                      const std::vector<const pb::FieldDescriptor*>& path,
                      const std::string& value) {
  std::unique_ptr<pb::Message> msg(base.New());
  msg->CopyFrom(base);
  pb::Message* at = msg.get();
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    at = at->GetReflection()->MutableMessage(at, path[i]);
  }
  const pb::FieldDescriptor* f = path.back();
  if (f->is_repeated()) {
    at->GetReflection()->AddString(at, f, value);
  } else {
    at->GetReflection()->SetString(at, f, value);
  }
  return msg->SerializeAsString();
}

std::string PathName(const std::vector<const pb::FieldDescriptor*>& path) {
  std::string s;
  for (const auto* f : path)
    absl::StrAppend(&s, s.empty() ? "" : ".", f->name());
  return s;
}

TEST_F(OpsBadRequests, MegabyteFieldsAreQuotedShortInEveryError) {
  const std::string big(1 << 20, 'x');
  const auto* pool = pb::DescriptorPool::generated_pool();
  pb::DynamicMessageFactory factory;
  int calls = 0;
  int refused = 0;
  for (const Row& row : RpcTable()) {
    if (row.messages.size() != 1 || row.cancel_after != 0) continue;
    std::string dotted =
        absl::StrReplaceAll(row.method.substr(1), {{"/", "."}});
    const pb::MethodDescriptor* m = pool->FindMethodByName(dotted);
    ASSERT_NE(m, nullptr) << row.method;
    std::unique_ptr<pb::Message> base(
        factory.GetPrototype(m->input_type())->New());
    ASSERT_TRUE(pb::TextFormat::ParseFromString(
        FillRequest(row.messages[0], {tmp_.Sub("backup"), 999}), base.get()))
        << row.method;
    std::vector<const pb::FieldDescriptor*> path;
    std::vector<std::vector<const pb::FieldDescriptor*>> fields;
    StringFields(m->input_type(), 3, &path, &fields);
    for (const auto& f : fields) {
      const RawCallResult r = Call(row.method, {WithField(*base, f, big)});
      ++calls;
      const std::string what = absl::StrCat(row.method, " ", PathName(f));
      EXPECT_NE(r.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
          << what << ": " << r.status.error_message().substr(0, 300);
      EXPECT_LE(r.status.error_message().size(), 1024u)
          << what << ": " << r.status.error_message().substr(0, 300);
      if (!r.status.ok()) {
        ++refused;
        // TODO(issue 28): Backup's path errors echo `to` whole; the lead
        // reworks that check (realpath) -- the status cap bounds it
        // meanwhile, which the two checks above hold.
        if (row.method == "/qipu.v1.AdminService/Backup") continue;
        // Quoted, it is cut short: no long run of the field's bytes.
        EXPECT_FALSE(
            absl::StrContains(r.status.error_message(), std::string(300, 'x')))
            << what << ": " << r.status.error_message().substr(0, 160);
      }
    }
  }
  EXPECT_GE(calls, 40);
  EXPECT_GE(refused, 20);
  ASSERT_TRUE(coord_->process()->IsRunning()) << coord_->LogTail();
  EXPECT_EQ(*client_->Health(), HealthCheckResponse::SERVING);
}

TEST_F(OpsBadRequests, MegabytePolicyAndIdAreInvalidArgumentWithTheirLength) {
  const std::string big(1 << 20, 'p');
  auto expect_short = [](const grpc::Status& s, const std::string& what) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << what << ": " << s.error_message().substr(0, 300);
    EXPECT_LT(s.error_message().size(), 600u) << what;
    // base::QuoteInput's cut: the first bytes, "...", the quote, the length.
    EXPECT_TRUE(absl::StrContains(s.error_message(), "...' (1048576 bytes)") ||
                absl::StrContains(s.error_message(), "...\" (1048576 bytes)"))
        << what << ": " << s.error_message().substr(0, 600);
  };
  {
    qipu::v1::GetGameRequest req;
    req.set_id(big);
    expect_short(
        Call("/qipu.v1.QueryService/GetGame", {req.SerializeAsString()}).status,
        "GetGame id");
  }
  {
    qipu::v1::SubmitJobRequest req;
    req.set_games(1);
    *req.mutable_config() = JobConfigFor(9, 7);
    req.mutable_config()->set_policy(big);
    expect_short(
        Call("/qipu.v1.JobService/SubmitJob", {req.SerializeAsString()}).status,
        "SubmitJob config.policy");
  }
}

}  // namespace
}  // namespace qipu::testing
