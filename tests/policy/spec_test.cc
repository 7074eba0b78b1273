// Policy specs: parsing, canonical forms (keys sorted, defaults dropped),
// errors that name the bad key or value, and MakePolicy()'s products.
#include "policy/spec.h"

#include <string>

#include "gtest/gtest.h"
#include "policy/mcts.h"
#include "policy/mcts_options.h"

namespace qipu::policy {
namespace {

std::string Canonical(const std::string& spec) {
  absl::StatusOr<std::string> c = CanonicalPolicySpec(spec);
  return c.ok() ? *c : "error: " + std::string(c.status().message());
}

TEST(PolicySpec, CanonicalForms) {
  EXPECT_EQ(Canonical("random"), "random");
  EXPECT_EQ(Canonical(" pattern "), "pattern");
  EXPECT_EQ(Canonical("mcts"), "mcts");
  EXPECT_EQ(Canonical("mcts:"), "mcts");
  EXPECT_EQ(Canonical("mcts:playouts=1000,threads=1,playout=pattern"), "mcts");
  EXPECT_EQ(Canonical("mcts:threads=2,playouts=800"),
            "mcts:playouts=800,threads=2");
  EXPECT_EQ(Canonical("mcts: playout = random , c=0.30, seed=7"),
            "mcts:c=0.3,playout=random,seed=7");
  EXPECT_EQ(Canonical("mcts:resign=0,rave=0,expand=4,nodes=5000"),
            "mcts:expand=4,nodes=5000,rave=0,resign=0");
  // Canonical forms are fixed points.
  for (const char* s : {"mcts:c=0.3,playout=random,seed=7", "random", "mcts"}) {
    EXPECT_EQ(Canonical(s), s);
  }
}

TEST(PolicySpec, ErrorsNameTheProblem) {
  struct Case {
    const char* spec;
    const char* says;
  };
  for (const Case& c : {
           Case{"", "no policy name"},
           Case{":playouts=3", "no policy name"},
           Case{"alphago", "unknown policy \"alphago\""},
           Case{"mcts:playouts", "\"playouts\" is not key=value"},
           Case{"mcts:playouts=", "bad value \"\" for playouts"},
           Case{"mcts:=5", "bad key \"\""},
           Case{"mcts:Playouts=5", "bad key \"Playouts\""},
           Case{"mcts:playouts=5,playouts=6", "key playouts given twice"},
           Case{"mcts:playouts=0", "bad value \"0\" for playouts"},
           Case{"mcts:playouts=abc", "bad value \"abc\" for playouts"},
           Case{"mcts:threads=65", "bad value \"65\" for threads"},
           Case{"mcts:playout=heavy", "bad value \"heavy\" for playout"},
           Case{"mcts:c=-1", "bad value \"-1\" for c"},
           Case{"mcts:c=nan", "bad value \"nan\" for c"},
           Case{"mcts:resign=0.9", "bad value \"0.9\" for resign"},
           Case{"mcts:seed=-3", "bad value \"-3\" for seed"},
           Case{"mcts:depth=3", "unknown key \"depth\""},
           Case{"random:seed=3", "unknown key \"seed\""},
           Case{"pattern:x=1", "unknown key \"x\""},
           Case{"gtp:gnugo --mode gtp", "GTP front-end"},
       }) {
    const absl::StatusOr<std::string> canonical = CanonicalPolicySpec(c.spec);
    EXPECT_EQ(canonical.status().code(), absl::StatusCode::kInvalidArgument)
        << c.spec;
    EXPECT_NE(canonical.status().message().find(c.says), std::string::npos)
        << c.spec << ": " << canonical.status().message();
    const auto policy = MakePolicy(c.spec, 1);
    EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument)
        << c.spec;
  }
}

TEST(PolicySpec, GtpSpecsKeepTheirCommandLine) {
  const absl::StatusOr<PolicySpec> s =
      ParsePolicySpec("gtp:gnugo --mode gtp --level=10,x");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->name, "gtp");
  ASSERT_EQ(s->args.size(), 1u);
  EXPECT_EQ(s->args[0].second, "gnugo --mode gtp --level=10,x");
}

TEST(PolicySpec, MakePolicyBuildsWhatTheSpecSays) {
  for (const char* spec :
       {"random", "pattern", "mcts", "mcts:playouts=800,threads=2",
        "mcts:c=0.3,playout=random,seed=7"}) {
    const auto policy = MakePolicy(spec, 3);
    ASSERT_TRUE(policy.ok()) << spec << ": " << policy.status();
    EXPECT_EQ((*policy)->spec(), spec);
  }
  const auto p = MakePolicy("mcts:threads=2,playouts=50,playout=random", 1);
  ASSERT_TRUE(p.ok());
  const auto* mcts = dynamic_cast<const MctsPolicy*>(p->get());
  ASSERT_NE(mcts, nullptr);
  EXPECT_EQ(mcts->options().threads, 2);
  EXPECT_EQ(mcts->options().playouts, 50);
  EXPECT_EQ(mcts->options().playout, PlayoutKind::kRandom);
  EXPECT_EQ(mcts->spec(), "mcts:playout=random,playouts=50,threads=2");
}

}  // namespace
}  // namespace qipu::policy
