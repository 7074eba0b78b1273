"""examples/train_tiny.py against a real coordinator with the fox-pro
corpus: 150 steps of a small net on CPU, and a policy loss that falls by
more than chance explains.

Why the margin means learning: the rows come from one shuffle window
(shuffle_window >= every row the run pulls: 150 steps x 64 rows < 16384),
mixed in a random order, so without learning the per-step losses of the
first 20 and of the last 20 steps would be draws from one distribution
(batches of rows sampled from the same pool, scored by the same net) and
the difference of their means would be about normal with mean 0 and
standard error se = sqrt(s1^2/20 + s2^2/20), s1 and s2 the two samples'
standard deviations. We require first - last > 6 se (and > 0.3 nats):
chance gives 6 standard errors with probability about 1e-9. A falling loss
has a mean that moves within each window too, which inflates s1 and s2:
the test only gets harder to pass, never easier.
"""

import json
import math
import os
import subprocess

from qipu_testing import PYTHON, SOURCE_DIR, need_module

need_module("numpy")
need_module("grpc")
need_module("torch")

SCRIPT = os.path.join(SOURCE_DIR, "python/examples/train_tiny.py")
WINDOW = 20


def mean_and_var(xs):
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def test_policy_loss_falls(fox_pro_server):
    p = subprocess.run(
        [PYTHON, SCRIPT, "--server", fox_pro_server.address, "--steps", "150",
         "--batch-size", "64", "--lr", "0.003", "--seed", "1",
         "--channels", "16", "--blocks", "2", "--threads", "1",
         "--symmetries", "8", "--shuffle-window", "16384",
         "--window", str(WINDOW), "--timeout", "120"],
        capture_output=True, text=True, timeout=240, env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout.strip().splitlines()[-1])
    assert summary["steps"] == 150 and summary["rows"] == 150 * 64
    losses = summary["policy_losses"]
    assert len(losses) == 150 and all(math.isfinite(x) for x in losses)
    first, v1 = mean_and_var(losses[:WINDOW])
    last, v2 = mean_and_var(losses[-WINDOW:])
    se = math.sqrt(v1 / WINDOW + v2 / WINDOW)
    assert abs(first - summary["first_policy_loss"]) < 1e-9
    assert abs(last - summary["last_policy_loss"]) < 1e-9
    # A net that starts near uniform over the 362 moves: ln 362 = 5.89.
    assert 4.5 < first < 6.5, first
    assert first - last > max(6 * se, 0.3), (first, last, se)
    # Loss lines were printed along the way.
    assert "step   150  policy" in p.stdout
    assert all(math.isfinite(x) for x in summary["value_losses"])
    # Bounded: well under a minute on 2 cores.
    assert summary["seconds"] < 60, summary["seconds"]
