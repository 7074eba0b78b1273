// The subcommands of the `qipu` tool. Each Add*Command() registers one
// subcommand (and its children) on `app`; when it runs, its callback
// stores the process exit status in `*exit_code` (0 success, 1 failure,
// 2 usage). Output conventions: `--json` prints machine-readable JSON on
// stdout (one object, or one per line for streams); errors go to stderr as
// "qipu <command>: <what>: <why>".
#ifndef QIPU_OPS_COMMANDS_H_
#define QIPU_OPS_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace qipu::ops {

// `qipu bench playouts|...`: throughput benchmarks.
void AddBenchCommand(CLI::App& app, int* exit_code);
// `qipu replay FILE.sgf`: replay records under a rule set.
void AddReplayCommand(CLI::App& app, int* exit_code);
// `qipu selfplay`: offline self-play games to SGF files.
void AddSelfplayCommand(CLI::App& app, int* exit_code);
// `qipu job submit|status`: self-play jobs on a coordinator.
void AddJobCommand(CLI::App& app, int* exit_code);
// `qipu local`: coordinator + worker in one process, one job, a summary.
void AddLocalCommand(CLI::App& app, int* exit_code);

// `qipu query openings|ko|cycles|results|game`: database queries.
void AddQueryCommand(CLI::App& app, int* exit_code);
// `qipu explore --db DIR --http HOST:PORT`: the web explorer over a
// database opened here (ops/explore_command.cc).
void AddExploreCommand(CLI::App& app, int* exit_code);
// `qipu query pattern` under `query` (query_pattern_command.cc).
void AddQueryPatternCommand(CLI::App* query, int* exit_code);
// `qipu bench query`: openings query latency over gRPC (on `bench`, the
// subcommand AddBenchCommand() created).
void AddBenchQueryCommand(CLI::App& bench, int* exit_code);
// `qipu bench pattern` (bench_pattern_command.cc).
void AddBenchPatternCommand(CLI::App& bench, int* exit_code);
// `qipu bench players` (ops/bench_players_command.cc).
void AddBenchPlayersCommand(CLI::App& bench, int* exit_code);
// `qipu import`: SGF files and folders into the database (--db or --server).
void AddImportCommand(CLI::App& app, int* exit_code);
// `qipu aliases FILE (--db DIR | --server ADDR)`: alias groups (issue 32).
void AddAliasesCommand(CLI::App& app, int* exit_code);
// `qipu export`: stored games out as SGF or JSON Lines.
void AddExportCommand(CLI::App& app, int* exit_code);

// `qipu backup [list|verify]` and `qipu restore` (ops/backup_command.cc).
void AddBackupCommand(CLI::App& app, int* exit_code);

// `qipu train export` (ops/train_command.cc).
void AddTrainCommand(CLI::App& app, int* exit_code);
// `qipu bench import`: import throughput into a fresh temporary database
// (on `bench`, the subcommand AddBenchCommand() created).
void AddBenchImportCommand(CLI::App& bench, int* exit_code);
// `qipu bench ingest`: uploads over gRPC vs raw RocksDB writes (on `bench`).
void AddBenchIngestCommand(CLI::App& bench, int* exit_code);
// `qipu bench local` (on `bench`): qipu local against full playouts.
void AddBenchLocalCommand(CLI::App& bench, int* exit_code);
// `qipu tournament ...`: tournaments for people (ops/tournament_command.cc).
void AddTournamentCommand(CLI::App& app, int* exit_code);
// `qipu arena run|show`: tournaments between engines (ops/arena_command.cc).
void AddArenaCommand(CLI::App& app, int* exit_code);
// `qipu token create|list|revoke` (token_command.cc).
void AddTokenCommand(CLI::App& app, int* exit_code);
// `qipu gtp`: a GTP v2 engine on stdin/stdout (gtp/engine.h).
void AddGtpCommand(CLI::App& app, int* exit_code);
// `qipu play`: a Go board in the terminal (play/tui.h).
void AddPlayCommand(CLI::App& app, int* exit_code);

// `qipu bench train` (ops/bench_train_command.cc).
void AddBenchTrainCommand(CLI::App& bench, int* exit_code);
// `qipu bench arena` (ops/bench_arena_command.cc): the arena's overhead.
void AddBenchArenaCommand(CLI::App& bench, int* exit_code);
// `qipu bench strength` (ops/bench_strength_command.cc): two policies' games.
void AddBenchStrengthCommand(CLI::App& bench, int* exit_code);

}  // namespace qipu::ops

#endif  // QIPU_OPS_COMMANDS_H_
