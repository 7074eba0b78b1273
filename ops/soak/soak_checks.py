"""The end of a soak run (soak.py): the checks that nothing was lost or
doubled and that the coordinator's memory stayed flat, and the summary
(JSON and text). Each function takes the finished `soak.Soak`; the checks
report through its violation().
"""

import glob
import json
import os
import re
import statistics
import sys
import time

import pytest

import ack_check

# fleet_testing's failures (pytest.fail) outside pytest.
Failed = pytest.fail.Exception

# A life "lived to the end" when its last RSS sample is this close to the
# full age (samples come every second, and one more just before a kill).
END_TOLERANCE_S = 2.0


def mb(kb):
    return None if kb is None else round(kb / 1024.0, 1)


def metric_sum(text, name, label_re=""):
    """Sum of the samples of `name` whose labels match `label_re`."""
    total = 0.0
    for m in re.finditer(rf"^{name}(\{{[^}}]*\}})? (\S+)$", text, re.M):
        if re.search(label_re, m.group(1) or ""):
            total += float(m.group(2))
    return total


def accounted_kb(parts):
    """kB of the memory qipu accounts for and caps: the block cache
    (--block-cache-mb; the memtables, --memtable-mb, are charged to it by
    store.cc's write-buffer manager, so they are inside its usage) and the
    position index's buffer (flushed at 48 MB, at most 128 MB)."""
    return (parts["block_cache"] + parts["index_buffer"]) / 1024.0


def memory_points(life, settle, full):
    """{"settled": sample, "end": sample} of a life: its first metrics
    sample from the settle age on, and its last one up to the full age
    when it lived that long (the drain of the last life is not compared)."""
    points = {}
    if not life.metrics:
        return points
    last_age = life.metrics[-1][0]
    if last_age >= settle:
        points["settled"] = life.point_at(settle)
    if life.ended_by == "SIGKILL" or last_age >= full - END_TOLERANCE_S:
        points["end"] = life.point_until(full + END_TOLERANCE_S)
    return {k: v for k, v in points.items() if v is not None}


def life_summary(life, settle_age, full_age):
    points = memory_points(life, settle_age, full_age)
    out = {
        "life": life.number,
        "pid": life.pid,
        "length_s": round((life.ended or time.monotonic()) - life.started, 1),
        "ended_by": life.ended_by,
        "restart_s": (None if life.restart_s is None else
                      round(life.restart_s, 2)),
        "games_stored_at_start": life.games_at_start,
        "games_stored_at_end": life.games_at_end,
        "rss_samples": len(life.rss),
        "rss_max_mb": mb(max((kb for _, kb in life.rss), default=None)),
        "rss_last_mb": mb(life.rss[-1][1]) if life.rss else None,
    }
    for k in ("settled", "end"):
        p = points.get(k)
        out[f"{k}_age_s"] = None if p is None else round(p[0], 1)
        out[f"rss_{k}_mb"] = None if p is None else mb(p[1])
        out[f"heap_{k}_mb"] = None if p is None else mb(p[3])
        out[f"accounted_{k}_mb"] = None if p is None else \
            mb(accounted_kb(p[2]))
    if life.drain_age is not None:
        out["drain_from_age_s"] = round(life.drain_age, 1)
    return out


def check_all(soak):
    c = soak.checks
    try:
        check_jobs(soak, c)
        check_games(soak, c)
        check_acks(soak, c)
        check_aggregates(soak, c)
    except Failed as e:
        soak.violation(f"a check could not run: {e}")
    check_memory(soak, c)


def check_jobs(soak, c):
    if not soak.poll_jobs():
        pytest.fail("qipu job status --server failed at the end")
    all_jobs = soak.job_status
    extra = sorted(set(all_jobs) - set(soak.jobs))
    missing = sorted(set(soak.jobs) - set(all_jobs))
    c["jobs"] = len(all_jobs)
    c["jobs_unacknowledged"] = extra
    if missing:
        soak.violation(f"jobs acknowledged at submission but unknown to "
                       f"the coordinator: {missing}")
    requested = 0
    bad = []
    for job, st in sorted(all_jobs.items()):
        requested += int(st["requested"])
        if job in soak.jobs and int(st["requested"]) != \
                soak.jobs[job]["games"]:
            bad.append(f"job {job} requested {st['requested']}, "
                       f"submitted with {soak.jobs[job]['games']}")
        if st["state"] != "done" or int(st["done"]) != \
                int(st["requested"]) or int(st.get("rejected", 0)):
            bad.append(f"job {job}: {st}")
    c["games_requested"] = requested
    c["games_done"] = soak.games_done
    # The query engine's count of each job's games.
    stored = 0
    for job, st in sorted(all_jobs.items()):
        n = int(soak.qipu_json(["query", "results", "--server",
                                soak.address, "--job", job])["games"])
        stored += n
        if n != int(st["requested"]):
            bad.append(f"job {job}: query results finds {n} games, the "
                       f"job asked for {st['requested']}")
    c["games_stored_by_job_queries"] = stored
    for b in bad:
        soak.violation("lost or doubled: " + b)


def check_games(soak, c):
    path = os.path.join(soak.root, "games.jsonl")
    status, _, err = soak.qipu(
        ["export", "--server", soak.address, "--format", "jsonl",
         "--out", path], timeout=3600)
    if status != 0:
        pytest.fail(f"qipu export exited {status}: {err[-500:]}")
    ids = set()
    # provenance.stored_unix_micros of each game, for check_acks().
    soak.stored_us = {}
    total = 0
    by_size = {}
    by_job = {}
    doubled = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            g = json.loads(line)
            total += 1
            gid = g["id"]
            if gid in ids:
                if len(doubled) < 10:
                    doubled.append(gid)
                continue
            ids.add(gid)
            soak.stored_us[gid] = int(g["provenance"]["stored_unix_micros"])
            by_size[g["width"]] = by_size.get(g["width"], 0) + 1
            m = re.fullmatch(r"s(\d+)-(\d+)", gid)
            if not m:
                soak.violation(f"a stored game that no job played: {gid}")
                continue
            by_job.setdefault(int(m.group(1)), set()).add(
                int(m.group(2)))
    if not soak.args.keep:
        os.remove(path)
    c["games_exported"] = total
    c["distinct_ids"] = len(ids)
    c["games_by_size"] = {str(k): v for k, v in sorted(by_size.items())}
    soak.exported_by_size = by_size
    if doubled:
        soak.violation(f"doubled: ids exported more than once, e.g. "
                       f"{doubled}")
    if total != c["games_requested"]:
        soak.violation(f"{total} games exported, the jobs asked for "
                       f"{c['games_requested']}")
    for job, st in sorted(soak.job_status.items()):
        want = set(range(int(st["requested"])))
        have = by_job.get(job, set())
        if have != want:
            soak.violation(
                f"job {job}: game indices missing "
                f"{sorted(want - have)[:10]}, unexpected "
                f"{sorted(have - want)[:10]}")
    for job in sorted(set(by_job) - set(soak.job_status)):
        soak.violation(f"games of job {job}, which no status lists")


def check_acks(soak, c):
    """Every game acknowledged to a worker (the workers' ack logs, also of
    the killed ones) is among the exported games, stored no later than its
    first ack."""
    logs = sorted(glob.glob(os.path.join(soak.root, "workers", "*.acks")))
    try:
        acks = ack_check.read_ack_logs(logs)
    except ack_check.AckLogError as e:
        soak.violation(f"acks: {e}")
        return
    r = ack_check.check_acked_games_stored(acks, soak.stored_us)
    # The ids themselves, the first 50 of each kind.
    c["acked"] = {"logs": len(logs), "acks": r["acks"], "games": r["games"],
                  "not_stored": len(r["missing"]),
                  "stored_late": len(r["stored_after_ack"]),
                  "missing": r["missing"][:50],
                  "stored_after_ack": r["stored_after_ack"][:50]}
    if not r["ok"]:
        soak.violation("lost: games acknowledged to a worker and not "
                       "stored as acknowledged: " + ack_check.describe(r))
    # Not every stored game was acknowledged to a worker: one whose worker
    # was killed before its ack came, on a spool no other worker took up,
    # is stored and never acknowledged. But most are.
    if c.get("games_requested") and r["games"] == 0:
        soak.violation(f"acks: the {len(logs)} worker ack logs name no game")


def check_aggregates(soak, c):
    total = c["games_requested"]
    q = ["--server", soak.address]
    results = soak.qipu_json(["query", "results"] + q)
    agg = {
        "results": results["games"],
        "results_outcomes": results["black_wins"] +
        results["white_wins"] + results["draws"] + results["void"],
        "results_by_reason": sum(results["by_reason"].values()),
        "results_lengths": sum(results["length"]["counts"]),
        "ko": soak.qipu_json(["query", "ko"] + q)["games"],
        "cycles": soak.qipu_json(["query", "cycles"] + q)["games"],
    }
    for name, n in agg.items():
        if n != total:
            soak.violation(f"aggregate {name} counts {n} games, not "
                           f"{total}")
    openings = {}
    for size, n in sorted(soak.exported_by_size.items()):
        root = soak.qipu_json(["query", "openings", "--size", size,
                               "--limit", 0] + q)
        cont = sum(x["games"] for x in root["continuations"])
        openings[str(size)] = {"root": root["games"],
                               "continuations": cont}
        if root["games"] != n or cont != n:
            soak.violation(
                f"openings root of {size}x{size} counts {root['games']} "
                f"games and its continuations {cont}, not {n}")
    agg["openings"] = openings
    c["aggregates"] = agg
    text = soak.last_metrics_text
    c["last_life_metrics"] = {
        "accepted": metric_sum(text, "qipu_games_total",
                               'outcome="accepted"'),
        "duplicate": metric_sum(text, "qipu_games_total",
                                'outcome="duplicate"'),
        "rejected": metric_sum(text, "qipu_games_total",
                               'outcome="rejected"'),
        "leases_expired": metric_sum(text, "qipu_leases",
                                     'state="expired"'),
    }
    if c["last_life_metrics"]["rejected"]:
        soak.violation(f"the last coordinator life rejected "
                       f"{c['last_life_metrics']['rejected']:.0f} games")


def settle_age(soak):
    interval = soak.args.kill_coordinator_every or soak.args.duration
    return min(60.0, interval / 2)


def full_age(soak):
    return soak.args.kill_coordinator_every or soak.args.duration


def reference_life(soak):
    """The life the later ones are compared with: the second, the first to
    begin as every later one does -- after a SIGKILL, replaying the WAL
    into the memtables and re-indexing the batches the index's files
    lacked (transient memory that the allocator keeps) -- when a life
    after it lived to the settle age; else the first."""
    settle, full = settle_age(soak), full_age(soak)
    if any("settled" in memory_points(l, settle, full)
           for l in soak.lives[2:]):
        return soak.lives[1]
    return soak.lives[0]


def check_memory(soak, c):
    """Memory flat: at the settle age and at the end of a full life, no
    life after the reference life has a heap (RssAnon: VmRSS less the
    binary's and libraries' pages, which grow as code runs for the first
    time) above the reference's by more than the margin and the slack."""
    a = soak.args
    settle, full = settle_age(soak), full_age(soak)
    ref_life = reference_life(soak)
    ref = {k: p[3] for k, p in memory_points(ref_life, settle, full).items()}
    limits = {k: v * (1 + a.rss_margin_pct / 100.0) + a.rss_slack_mb * 1024
              for k, v in ref.items()}
    worst = {}
    compared = 0
    for life in soak.lives[ref_life.number:]:
        for k, p in memory_points(life, settle, full).items():
            if k not in limits:
                continue
            kb = p[3]
            compared += 1
            worst[k] = max(worst.get(k, kb), kb)
            if kb > limits[k]:
                soak.violation(
                    f"memory not flat: life {life.number}'s heap (RssAnon) "
                    f"at {p[0]:.0f} s is {mb(kb)} MB (VmRSS {mb(p[1])} MB; "
                    f"block cache and index buffer "
                    f"{mb(accounted_kb(p[2]))} MB), above life "
                    f"{ref_life.number}'s {mb(ref[k])} MB + "
                    f"{a.rss_margin_pct:g}% + {a.rss_slack_mb:g} MB = "
                    f"{mb(limits[k])} MB")
    c["memory"] = {
        "settle_age_s": settle, "full_age_s": full,
        "reference_life": ref_life.number,
        "reference_heap_mb": {k: mb(v) for k, v in ref.items()},
        "limit_heap_mb": {k: mb(v) for k, v in limits.items()},
        "later_lives_worst_heap_mb": {k: mb(v) for k, v in worst.items()},
        "points_compared": compared,
        "margin_pct": a.rss_margin_pct, "slack_mb": a.rss_slack_mb,
    }
    if len(soak.lives) > 1 and compared == 0:
        soak.violation("memory: no life after the reference lived to the "
                       "settle age, nothing to compare (lengthen the run)")


def summary(soak):
    a = soak.args
    settle, full = settle_age(soak), full_age(soak)
    ages = sorted(l.restart_s for l in soak.lives if l.restart_s)
    return {
        "ok": not soak.violations,
        "violations": soak.violations,
        "command": " ".join(sys.argv),
        "date": soak.date,
        "dir": soak.root,
        "config": {
            "seconds": a.duration, "workers": a.workers,
            "threads": a.threads, "kill_worker_every_s":
            a.kill_worker_every, "kill_coordinator_every_s":
            a.kill_coordinator_every, "job_games": a.job_games,
            "jobs_ahead": a.jobs_ahead, "policies": a.policy,
            "sizes": a.size, "lease_games": a.lease_games,
            "lease_ttl_ms": a.lease_ttl_ms, "block_cache_mb":
            a.block_cache_mb, "memtable_mb": a.memtable_mb,
            "seed": a.seed},
        "kill_phase_s": round(soak.kill_phase_s or 0, 1),
        "drain_s": round(soak.drain_s or 0, 1),
        "workers_stop_s": round(getattr(soak, "workers_stop_s", 0), 1),
        "checks_s": round(getattr(soak, "checks_s", 0), 1),
        "jobs_submitted": len(soak.jobs),
        "submit_failures": soak.submit_failures,
        "worker_kills": soak.worker_kills,
        "coordinator_kills": soak.coordinator_kills,
        "coordinator_restart_s": {
            "median": round(statistics.median(ages), 2) if ages else None,
            "max": round(ages[-1], 2) if ages else None},
        "coordinator_stop_s": round(getattr(soak, "coordinator_stop_s",
                                            0), 2),
        "checks": soak.checks,
        "lives": [life_summary(l, settle, full) for l in soak.lives],
        "workers_at_stop": getattr(soak, "worker_stops", []),
    }


def human(s):
    c = s["checks"]
    lines = [
        f"qipu soak {s['date']}: {'OK' if s['ok'] else 'FAILED'}",
        f"  {s['kill_phase_s']:.0f} s of kills, then {s['drain_s']:.0f} "
        f"s to finish the jobs, {s['workers_stop_s']:.0f} s to stop the "
        f"workers, {s['checks_s']:.0f} s of checks; "
        f"{s['config']['workers']} workers x "
        f"{s['config']['threads']} thread(s), policies "
        f"{', '.join(s['config']['policies'])}, sizes "
        f"{', '.join(map(str, s['config']['sizes']))}",
        f"  kills: {s['worker_kills']} worker, {s['coordinator_kills']} "
        f"coordinator (restart median {s['coordinator_restart_s']['median']}"
        f" s, max {s['coordinator_restart_s']['max']} s)",
    ]
    if "games_requested" in c:
        lines.append(
            f"  jobs: {c['jobs']} ({s['jobs_submitted']} acknowledged, "
            f"{len(c['jobs_unacknowledged'])} cut off by a kill, "
            f"{s['submit_failures']} failed submissions); games "
            f"requested {c['games_requested']}, stored by the job "
            f"queries {c.get('games_stored_by_job_queries')}, exported "
            f"{c.get('games_exported')} with "
            f"{c.get('distinct_ids')} distinct ids")
    if "acked" in c:
        a = c["acked"]
        lines.append(
            f"  acks: {a['acks']} acks of {a['games']} games in "
            f"{a['logs']} worker ack logs; {a['not_stored']} not stored, "
            f"{a['stored_late']} stored after their ack")
    if "aggregates" in c:
        agg = c["aggregates"]
        lines.append(
            f"  aggregates: results {agg['results']}, ko {agg['ko']}, "
            f"cycles {agg['cycles']}, openings " + ", ".join(
                f"{k}x{k} {v['root']}" for k, v in
                agg["openings"].items()))
    if s["lives"]:
        lines.append(
            "  coordinator lives: VmRSS / heap (RssAnon) / block cache + "
            "index buffer, MB, at the settle age and at the end of a full "
            "life; max VmRSS; games stored at start -> end:")
    for l in s["lives"]:
        def at(k):
            if l[f"{k}_age_s"] is None:
                return "-"
            return (f"{l[f'rss_{k}_mb']} / {l[f'heap_{k}_mb']} / "
                    f"{l[f'accounted_{k}_mb']} at {l[f'{k}_age_s']:.0f} s")
        lines.append(
            f"    {l['life']:3d}: {at('settled')}; {at('end')}; max "
            f"{l['rss_max_mb']}; {l['length_s']:.0f} s, {l['ended_by']}; "
            f"games {l['games_stored_at_start']} -> "
            f"{l['games_stored_at_end']}")
    if "memory" in c:
        m = c["memory"]
        lines.append(
            f"  memory check (heap at equal ages, life "
            f"{m['reference_life']}'s + {m['margin_pct']:g}% + "
            f"{m['slack_mb']:g} MB): reference "
            f"{m['reference_heap_mb']}, limit {m['limit_heap_mb']}, later "
            f"lives' worst {m['later_lives_worst_heap_mb']}, "
            f"{m['points_compared']} points compared")
    for v in s["violations"]:
        lines.append(f"  VIOLATION: {v}")
    return "\n".join(lines)
