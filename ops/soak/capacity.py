#!/usr/bin/python3
"""qipu capacity: games per CPU-second of the coordinator and of a worker,
per policy, board size and index depth, from real processes.

Each cell (policy, size, index depth) runs, on 127.0.0.1:

- a `qipu-coordinator` on a fresh database (a temporary directory),
  pinned to CPU `--coordinator-cpu` (taskset semantics: every thread of it
  runs on that one core), with its default options (WAL synced per batch);
- a job of that policy, size and index depth, larger than can finish;
- `--workers` (1) `qipu-worker`s with one playing thread each, pinned to
  `--worker-cpu` (more of them, more upload streams: a fast policy then
  loads the coordinator's core fully);

for `--seconds` (longer while fewer than `--min-games` are stored, up to
`--max-seconds`). Then the workers get SIGTERM (each finishes the game in
hand and uploads what it played), then the coordinator (it flushes its
position index). Each process's CPU time is its whole life's user +
system time of all its threads (wait4's rusage), startup and shutdown
included, so the figures hold on a machine other programs share:

- coordinator games per CPU-second = games stored / coordinator CPU;
- worker games per CPU-second = games the workers played / their CPU;
- their ratio = worker cores one coordinator core can serve.

When the worker is the bottleneck (slow policies) the coordinator idles
most of the time and its CPU per game includes its fixed costs (lease
renewals, metrics, the database's housekeeping), so the coordinator
figure there is a floor and the ratio a floor too.

Cells run `--repeats` times, the order reversed every other round (the
machine drifts), and the table gives medians. Output: one JSON line per
run with `--json`, and a Markdown table. Binaries from `--build-dir`
(default $QIPU_BINARY_DIR). See ops/README.md, "Capacity".
"""

import argparse
import itertools
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "ops", "fleet"))

try:
    import pytest  # fleet_testing reports through pytest's outcomes.
    import fleet_testing as ft
except ImportError as e:  # pragma: no cover - depends on the host
    print(f"capacity: {e} (Debian package python3-pytest)", file=sys.stderr)
    sys.exit(77)

# The index depth `full` stands for: every ply (the flag's maximum).
FULL_DEPTH = 1000


def pinned(cpu):
    """preexec_fn pinning the child (and every thread it starts) to `cpu`."""
    if cpu is None:
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def reap(process, sig, timeout):
    """Sends `sig` (unless None), waits for the exit (SIGKILL after
    `timeout` seconds) and returns (exit status, CPU seconds of the whole
    process: user + system, all threads). Once: a second SIGTERM stops a
    qipu-worker at once instead of gracefully."""
    if sig is not None:
        process.send_signal(sig)
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            process.kill()
            deadline = float("inf")
        time.sleep(0.05)  # Polling the child's exit.


def thread_cpu(pid):
    """CPU seconds (user + system) of each live thread of `pid`, summed
    by thread group: the ingest committer (qipu-ingest), the position
    index's flusher (qipu-index), the validation helpers (qipu-validate),
    RocksDB's flushes and compactions (rocksdb:*) and the rest (gRPC's
    threads, where each upload stream replays its own share of the
    games; the metrics server; main)."""
    tick = os.sysconf("SC_CLK_TCK")
    groups = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # The thread ended meanwhile.
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / tick
        group = ("ingest" if name == "qipu-ingest" else
                 "index" if name == "qipu-index" else
                 "validate" if name.startswith("qipu-validate") else
                 "rocksdb" if name.startswith("rocksdb") else "other")
        groups[group] = groups.get(group, 0.0) + cpu
    return groups


def qipu_json(args, timeout=60):
    out = ft.run([ft.qipu_bin()] + [str(a) for a in args] + ["--json"],
                 timeout=timeout).stdout
    return ft.last_json(out)


def run_cell(args, policy, size, depth, root):
    """One measurement; a dict of its figures."""
    db = os.path.join(root, "db")
    out_path = os.path.join(root, "coordinator.out")
    log_path = os.path.join(root, "coordinator.log")
    with open(out_path, "w") as out, open(log_path, "w") as log:
        coord = subprocess.Popen(
            [ft.coordinator_bin(), "--db", db, "--listen", "127.0.0.1:0",
             "--log-level", "warn"], stdout=out, stderr=log,
            preexec_fn=pinned(args.coordinator_cpu))
    workers = []
    try:
        m = ft.wait_for(
            lambda: re.search(r"listening on (\S+:\d+)", open(out_path).read())
            or (coord.poll() is not None and pytest.fail(
                "qipu-coordinator exited:\n" + open(log_path).read())),
            60, "qipu-coordinator to start")
        address = m.group(1)
        job = qipu_json(["job", "submit", "--server", address, "--games",
                         100000000, "--size", size, "--policy", policy,
                         "--index-depth", depth, "--seed", 7])["job"]
        for i in range(args.workers):
            log_path_w = os.path.join(root, f"worker{i}.log")
            with open(log_path_w, "w") as log:
                workers.append((log_path_w, subprocess.Popen(
                    [str(a) for a in (
                        ft.worker_bin(), "--coordinator", address,
                        "--threads", 1, "--spool",
                        os.path.join(root, f"spool{i}"), "--job", job,
                        "--lease-games", args.lease_games,
                        "--upload-batch", args.upload_batch,
                        "--drain-timeout", 120, "--log-level", "info")],
                    stdout=log, stderr=subprocess.STDOUT,
                    preexec_fn=pinned(args.worker_cpu))))
        started = time.monotonic()

        def done():
            return int(qipu_json(["job", "status", "--server", address,
                                  "--job", job])["done"])

        while True:
            time.sleep(1.0)  # Polling the job's progress.
            elapsed = time.monotonic() - started
            if elapsed >= args.max_seconds or (
                    elapsed >= args.seconds and done() >= args.min_games):
                break
        threads = thread_cpu(coord.pid)
        busy = sum(threads.values()) / (time.monotonic() - started)
        played = 0
        wcpu = 0.0
        for _, w in workers:
            w.send_signal(signal.SIGTERM)
        for log_path_w, w in workers:
            wstatus, cpu = reap(w, None, 180)
            text = open(log_path_w).read()
            m = re.search(
                r"stopped; \d+ lease\(s\), (\d+) game\(s\) played", text)
            assert wstatus == 0 and m, \
                f"worker exited {wstatus}:\n{text[-2000:]}"
            played += int(m.group(1))
            wcpu += cpu
        stored = done()
        results = qipu_json(["query", "results", "--server", address,
                             "--job", job])
        cstatus, ccpu = reap(coord, signal.SIGTERM, 180)
        assert cstatus == 0, f"coordinator exited {cstatus}:\n" + \
            open(log_path).read()[-2000:]
        wall = time.monotonic() - started
        return {
            "policy": policy, "size": size,
            "index_depth": "full" if depth == FULL_DEPTH else depth,
            "wall_s": round(wall, 1),
            "games_stored": stored, "games_played": played,
            "mean_moves": round(results.get("mean_length", 0), 1),
            "workers": args.workers,
            "upload_batch": args.upload_batch,
            "coordinator_cpu_s": round(ccpu, 2),
            # Share of its core the coordinator's live threads used while
            # the workers played (1.0: the core was saturated).
            "coordinator_core_busy": round(busy, 2),
            # Live threads' CPU before the worker stopped (the process
            # total adds the shutdown and threads that ended).
            "coordinator_threads_cpu_s": {k: round(v, 2)
                                          for k, v in threads.items()},
            "ingest_thread_games_per_cpu_s":
                stored / threads["ingest"] if threads.get("ingest") else None,
            "index_thread_games_per_cpu_s":
                stored / threads["index"] if threads.get("index") else None,
            "worker_cpu_s": round(wcpu, 2),
            "coordinator_games_per_cpu_s": stored / ccpu if ccpu else None,
            "worker_games_per_cpu_s": played / wcpu if wcpu else None,
        }
    finally:
        for p in [w for _, w in workers] + [coord]:
            if p is not None and p.returncode is None and p.poll() is None:
                p.kill()
                p.wait()


def fmt(x):
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", default=os.environ.get("QIPU_BINARY_DIR"))
    p.add_argument("--policy", action="append",
                   help="policy spec; repeat (default random)")
    p.add_argument("--size", action="append", type=int,
                   help="board size; repeat (default 9)")
    p.add_argument("--depth", action="append",
                   help="index depth N or full; repeat (default 30)")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--min-games", type=int, default=20)
    p.add_argument("--max-seconds", type=float, default=120.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--lease-games", type=int, default=64)
    p.add_argument("--coordinator-cpu", type=int, default=0)
    p.add_argument("--worker-cpu", type=int, default=1)
    p.add_argument("--upload-batch", type=int, default=64,
                   help="the workers' --upload-batch; 1 sends each game as a "
                   "message of its own, as workers of slow policies do")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes (one playing thread each, all on "
                   "--worker-cpu): more upload streams load the coordinator "
                   "further")
    p.add_argument("--json", action="store_true",
                   help="one JSON line per run on stdout")
    args = p.parse_args(argv)

    def interrupted(signum, frame):
        raise KeyboardInterrupt  # run_cell's finally stops its processes.

    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    if not args.build_dir:
        p.error("no --build-dir and QIPU_BINARY_DIR is not set")
    ft.BINARY_DIR = os.path.abspath(args.build_dir)
    depths = [FULL_DEPTH if d == "full" else int(d)
              for d in (args.depth or ["30"])]
    cells = list(itertools.product(args.policy or ["random"],
                                   args.size or [9], depths))
    runs = {}
    for r in range(args.repeats):
        for cell in (cells if r % 2 == 0 else cells[::-1]):
            root = tempfile.mkdtemp(prefix="qipu_capacity_")
            try:
                fig = run_cell(args, *cell, root)
            finally:
                shutil.rmtree(root, ignore_errors=True)
            runs.setdefault(cell, []).append(fig)
            if args.json:
                print(json.dumps(fig), flush=True)
            print(f"capacity: {cell[0]} {cell[1]}x{cell[1]} depth "
                  f"{fig['index_depth']}: coordinator "
                  f"{fmt(fig['coordinator_games_per_cpu_s'])} games/CPU-s, "
                  f"worker {fmt(fig['worker_games_per_cpu_s'])}",
                  file=sys.stderr, flush=True)
    print("| policy | size | index depth | moves/game | coordinator games "
          "per CPU-s | worker games per CPU-s | worker cores per "
          "coordinator core | ingest thread games per CPU-s | coordinator "
          "core busy |")
    print("|---|---|---|---|---|---|---|---|---|")

    def med(figs, key):
        values = [f[key] for f in figs if f[key] is not None]
        return statistics.median(values) if values else None

    for cell in cells:
        figs = runs[cell]
        c = med(figs, "coordinator_games_per_cpu_s")
        w = med(figs, "worker_games_per_cpu_s")
        print(f"| `{cell[0]}` | {cell[1]} | {figs[0]['index_depth']} | "
              f"{med(figs, 'mean_moves'):.0f} | {fmt(c)} | {fmt(w)} | "
              f"{fmt(c / w if c and w else None)} | "
              f"{fmt(med(figs, 'ingest_thread_games_per_cpu_s'))} | "
              f"{med(figs, 'coordinator_core_busy'):.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
