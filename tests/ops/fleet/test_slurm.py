"""ops/slurm/qipu-workers.sbatch on a real one-node Slurm cluster (ctest
label "slurm"; skipped without Debian's slurm-wlm and munge, or without
root, which slurmd needs to start jobs as their owner).

The test starts munged, slurmctld and slurmd in a temp dir
(slurm_cluster.py), a qipu-coordinator on 127.0.0.1 with a RocksDB in the
temp dir, submits a job of GAMES games and a 4-task array of the sbatch
script against it, and `scancel`s one task as soon as it holds a lease.
The cancelled worker finishes the game in hand, uploads it and returns
the rest of its lease (lease expiry is set far beyond the test's time, so
the job can only finish in time if the lease came back); the other three
tasks finish the job and leave on their own. The job then has exactly
GAMES games stored, none twice, nothing left in any spool, and every game
acknowledged to a task (the tasks' shared --ack-log) stored as the copy
acknowledged (ack_check.py).
"""

import os
import re
import tempfile
import time

import pytest

import ack_check
import fleet_testing as ft
from slurm_cluster import SlurmCluster

SCRIPT = os.path.join(ft.SOURCE_DIR, "ops", "slurm", "qipu-workers.sbatch")
GAMES = 48
TASKS = 4
LEASE_GAMES = 6


@pytest.fixture(scope="module")
def root():
    with tempfile.TemporaryDirectory(prefix="qipu_slurm_") as d:
        os.chmod(d, 0o755)
        yield d


@pytest.fixture(scope="module")
def cluster(root):
    ft.worker_bin()
    ft.coordinator_bin()
    if os.geteuid() != 0:
        pytest.skip("needs root: slurmd starts each job as its owner "
                    "(setuid); CI runs the tests as root")
    c = SlurmCluster(os.path.join(root, "slurm"), cpus=TASKS)
    try:
        c.start()
        yield c
    finally:
        c.stop()


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def test_array_plays_the_job_and_a_cancelled_task_loses_nothing(cluster,
                                                                root):
    started = time.monotonic()
    coordinator = ft.Coordinator(
        os.path.join(root, "coordinator"),
        ["--lease-games", LEASE_GAMES, "--lease-ttl-ms", 600000]).start()
    try:
        # MCTS games (~0.25 s of a core each, more on a loaded machine): a
        # lease of 6 lasts seconds, long enough to cancel a task in the
        # middle of one.
        job = ft.submit_job(coordinator.address, GAMES, "--policy",
                            "mcts:playouts=100", "--seed", 20)
        logs = os.path.join(root, "logs")
        spools = os.path.join(root, "node-local")
        os.makedirs(logs)
        # One ack log for every task: each ack message is one O_APPEND
        # write, so the tasks' lines do not mix.
        acks = os.path.join(root, "acks.log")
        array = cluster.sbatch(
            [f"--array=0-{TASKS - 1}", "--cpus-per-task=1",
             f"--output={logs}/task-%a.log", f"--chdir={root}", SCRIPT,
             coordinator.address, "--job", job, "--log-level", "debug",
             "--ack-log", acks],
            env={"QIPU_WORKER": ft.worker_bin(),
                 "QIPU_SPOOL_ROOT": spools,
                 "QIPU_EXIT_WHEN_IDLE": "2",
                 "QIPU_DRAIN_TIMEOUT": "20"})
        task_log = lambda t: os.path.join(logs, f"task-{t}.log")

        def all_logs():
            return "\n".join(f"--- task {t}\n{read(task_log(t))[-2000:]}"
                             for t in range(TASKS)) + "\n" + \
                cluster.logs(1500) + "\n--- coordinator\n" + \
                coordinator.log_tail(1500)

        # The first task seen playing a lease is cancelled at once.
        def task_playing():
            for t in range(TASKS):
                m = re.search(r"lease (\S+) job \d+: playing (\d+) game",
                              read(task_log(t)))
                if m:
                    return t, m.group(1)
            return None

        victim, lease = ft.wait_for(task_playing, 60,
                                    lambda: "a task to lease games:\n" +
                                    all_logs())
        cancelled_at = time.monotonic()
        cluster.scancel(f"{array}_{victim}")
        ft.wait_for(lambda: "stopped;" in read(task_log(victim)), 60,
                    lambda: f"task {victim} to stop:\n" + all_logs())
        vlog = read(task_log(victim))
        assert "SIGTERM received; stopping gracefully" in vlog, vlog
        assert "stopping now" not in vlog, vlog  # One SIGTERM, not two.
        # Cancelled mid-lease: fewer games played than leased ...
        m = re.search(rf"lease {re.escape(lease)} job \d+: played (\d+) of "
                      rf"(\d+) game", vlog)
        assert m, vlog
        assert int(m.group(1)) < int(m.group(2)), vlog
        # ... the rest handed back, everything played uploaded.
        assert re.search(rf"lease {re.escape(lease)}: returned", vlog), vlog
        assert ", 0 left in the spool" in vlog, vlog

        # The other tasks finish the job and leave when idle.
        ft.wait_for(lambda: not cluster.jobs(), 90,
                    lambda: "the array to end:\n" + all_logs())
        finished = time.monotonic()

        status = ft.job_status(coordinator.address, job)
        assert status["state"] == "done", status
        assert status["done"] == GAMES, status
        assert status["requested"] == GAMES, status
        assert ft.stored_games(coordinator.address, job) == GAMES
        # Every game acknowledged to a task is stored, as acknowledged;
        # every game was acknowledged to some task (each ended with an
        # empty spool).
        export = os.path.join(root, "games.jsonl")
        ft.run_qipu(["export", "--server", coordinator.address, "--job", job,
                     "--format", "jsonl", "--out", export])
        acked = ack_check.assert_acked_games_stored(
            [acks], ack_check.stored_times_from_jsonl(export))
        assert acked["games"] == GAMES, acked
        assert len({a["worker"] for a in ack_check.read_ack_logs([acks])}) \
            >= 2, acked
        metrics = coordinator.metrics_text()
        assert f'qipu_games_total{{outcome="accepted"}} {GAMES}' in metrics
        assert 'qipu_leases{state="expired"} 0' in metrics
        assert 'qipu_leases{state="open"} 0' in metrics

        for t in range(TASKS):
            text = read(task_log(t))
            # One thread per task (--cpus-per-task=1), the spool on the
            # node-local root given, named after the array task.
            assert re.search(
                rf"task {array}_{t} on \S+: 1 thread\(s\), spool "
                rf"{re.escape(spools)}/qipu-spool-{array}_{t},", text), text
            assert ", 0 left in the spool" in text, text
            if t != victim:
                assert "no work for" in text, text
        played = sum(int(x) for t in range(TASKS) for x in re.findall(
            r"stopped; \d+ lease\(s\), (\d+) game\(s\) played",
            read(task_log(t))))
        assert played == GAMES  # Deterministic games: none played twice.
        print(f"slurm: array {array} of {TASKS} tasks played {GAMES} games "
              f"in {finished - started:.1f} s (task {victim} cancelled "
              f"{cancelled_at - started:.1f} s in; {acked['acks']} acks of "
              f"{acked['games']} games logged, each stored as "
              f"acknowledged)")
    finally:
        status = coordinator.stop()
    assert status == 0, coordinator.log_tail()
