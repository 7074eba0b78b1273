// qipu: the command-line tool of the qipu self-play service and game
// database.
//
// Map: main() builds one CLI11 app; each subcommand lives in its own file
// (ops/*_command.cc) and registers itself through ops/commands.h. Commands
// are thin: they parse flags into the Options structs of the libraries in
// rules/, store/, coordinator/ and worker/ and print results.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "base/logging.h"
#include "base/version.h"
#include "ops/commands.h"

int main(int argc, char** argv) {
  qipu::base::SetProcessDefaults();
  CLI::App app{
      "qipu (棋谱): distributed batch self-play and game database for Go"};
  app.require_subcommand(1);
  // A flag given twice takes its last value (./ops/run passes defaults
  // that the user's arguments override).
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", std::string("qipu ") +
                                        qipu::base::Version() + " (commit " +
                                        qipu::base::GitCommit() + ")");
  std::string log_level = "warn";
  app.add_option("--log-level", log_level,
                 "trace, debug, info, warn, error or off")
      ->capture_default_str();
  int exit_code = 0;
  qipu::ops::AddBenchCommand(app, &exit_code);
  qipu::ops::AddBenchQueryCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddQueryCommand(app, &exit_code);
  qipu::ops::AddExploreCommand(app, &exit_code);
  qipu::ops::AddReplayCommand(app, &exit_code);
  qipu::ops::AddSelfplayCommand(app, &exit_code);
  qipu::ops::AddJobCommand(app, &exit_code);
  qipu::ops::AddLocalCommand(app, &exit_code);
  qipu::ops::AddImportCommand(app, &exit_code);
  qipu::ops::AddAliasesCommand(app, &exit_code);
  qipu::ops::AddExportCommand(app, &exit_code);
  qipu::ops::AddBackupCommand(app, &exit_code);
  qipu::ops::AddTrainCommand(app, &exit_code);
  qipu::ops::AddBenchImportCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddBenchIngestCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddBenchLocalCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddBenchTrainCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddBenchStrengthCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddBenchArenaCommand(*app.get_subcommand("bench"), &exit_code);
  qipu::ops::AddGtpCommand(app, &exit_code);
  qipu::ops::AddTournamentCommand(app, &exit_code);
  qipu::ops::AddArenaCommand(app, &exit_code);
  qipu::ops::AddTokenCommand(app, &exit_code);
  qipu::ops::AddPlayCommand(app, &exit_code);
  app.parse_complete_callback([&] {
    if (absl::Status s = qipu::base::InitLogging("qipu", log_level); !s.ok()) {
      std::fprintf(stderr, "qipu: %s\n", std::string(s.message()).c_str());
    }
  });
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
