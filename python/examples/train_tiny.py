#!/usr/bin/python3
"""train_tiny: a small policy + value network trained on qipu batches.

Pulls training rows from a running coordinator (qipu_client.batches) and
trains, on the CPU with PyTorch, a few convolutions over the unpacked input
planes (global inputs added to every point as a bias, the way KataGo's
nets take them) with two heads:

  policy  L*L + 1 logits (the points, then the pass), off-board points
          masked; cross-entropy against policyTargetsNCMove[:, 0] (the
          move played, normalised to a distribution)
  value   3 logits; cross-entropy against globalTargetsNC[:, 0:3] (win /
          loss / no result from the side to move; 0.5 / 0.5 for a draw)

It prints the losses every --print-every steps and ends with one JSON line:
{"steps", "rows", "seconds", "first_policy_loss", "last_policy_loss"
(means over the first and last --window steps), "first_value_loss",
"last_value_loss", "policy_losses", "value_losses" (every step)}.
When the selection runs out before --steps, the stream starts again with
the next seed (a new epoch in a new order).

  PYTHONPATH=build/release/python python/examples/train_tiny.py \
      --server 127.0.0.1:50051 --steps 300 --width 19 --symmetries 8
"""

import argparse
import json
import sys
import time

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

import qipu_client


class TinyNet(nn.Module):
    """Convolutions with a global-input bias, a policy and a value head."""

    def __init__(self, pos_len, channels, blocks, global_features):
        super().__init__()
        self.pos_len = pos_len
        self.stem = nn.Conv2d(qipu_client.NUM_PLANES, channels, 3, padding=1)
        self.global_bias = nn.Linear(global_features, channels)
        self.blocks = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=1) for _ in range(blocks))
        self.policy_conv = nn.Conv2d(channels, 1, 1)
        self.pass_head = nn.Linear(channels, 1)
        self.value_hidden = nn.Linear(channels, 32)
        self.value_out = nn.Linear(32, 3)

    def forward(self, planes, global_inputs):
        """planes float [N, 22, L, L], global_inputs float [N, G] ->
        (policy logits [N, L*L+1], value logits [N, 3])."""
        on_board = planes[:, 0:1]
        x = self.stem(planes)
        x = F.relu(x + self.global_bias(global_inputs)[:, :, None, None])
        for conv in self.blocks:
            x = F.relu(x + conv(x)) * on_board
        points = on_board.sum(dim=(2, 3)).clamp(min=1)
        pooled = x.sum(dim=(2, 3)) / points
        board_logits = self.policy_conv(x).flatten(1)
        board_logits = board_logits.masked_fill(on_board.flatten(1) == 0,
                                                -1e4)
        policy = torch.cat([board_logits, self.pass_head(pooled)], dim=1)
        value = self.value_out(F.relu(self.value_hidden(pooled)))
        return policy, value


def tensors(batch, pos_len):
    """The network's inputs and targets of a batch, as float tensors."""
    planes = torch.from_numpy(
        qipu_client.unpack_inputs(batch, pos_len).astype(np.float32))
    global_inputs = torch.from_numpy(np.concatenate(
        [batch["globalInputNC"], batch["qipuGlobalInputNC"]], axis=1))
    policy = torch.from_numpy(
        batch["policyTargetsNCMove"][:, 0].astype(np.float32))
    value = torch.from_numpy(batch["globalTargetsNC"][:, 0:3].copy())
    return planes, global_inputs, policy, value


def losses(net, planes, global_inputs, policy_target, value_target):
    """(policy loss, value loss): mean cross-entropies; rows without a
    policy target do not count in the policy loss."""
    policy_logits, value_logits = net(planes, global_inputs)
    mass = policy_target.sum(dim=1)
    has_policy = (mass > 0).float()
    target = policy_target / mass.clamp(min=1)[:, None]
    policy_ce = -(target * F.log_softmax(policy_logits, dim=1)).sum(dim=1)
    policy_loss = (policy_ce * has_policy).sum() / has_policy.sum().clamp(
        min=1)
    value_loss = -(value_target * F.log_softmax(value_logits, dim=1)).sum(
        dim=1).mean()
    return policy_loss, value_loss


def batch_stream(args):
    """Batches of the request, epoch after epoch (seed, seed + 1, ...)."""
    epoch = 0
    while True:
        empty = True
        for batch in qipu_client.batches(
                args.server, timeout=args.timeout, width=args.width,
                height=args.height, rules=args.rules, source=args.source,
                policy=args.policy, cycles=args.cycles,
                drop_void=args.drop_void, batch_size=args.batch_size,
                shuffle_window=args.shuffle_window, seed=args.seed + epoch,
                symmetries=args.symmetries, pos_len=args.pos_len,
                positions_per_game=args.positions_per_game,
                min_move=args.min_move, recent_games=args.recent_games):
            empty = False
            yield batch
        if empty:
            raise SystemExit("train_tiny: the selection has no rows")
        epoch += 1


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", required=True, help="coordinator HOST:PORT")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0,
                   help="seeds the network and the stream")
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--blocks", type=int, default=2)
    p.add_argument("--threads", type=int, default=2,
                   help="PyTorch CPU threads")
    p.add_argument("--print-every", type=int, default=10)
    p.add_argument("--window", type=int, default=20,
                   help="steps averaged in first/last_*_loss")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds allowed for each stream")
    g = p.add_argument_group("rows")
    g.add_argument("--pos-len", type=int, default=19)
    g.add_argument("--symmetries", type=int, default=1, choices=[1, 8])
    g.add_argument("--positions-per-game", type=int, default=0)
    g.add_argument("--min-move", type=int, default=0)
    g.add_argument("--shuffle-window", type=int, default=16384)
    g.add_argument("--recent-games", type=int, default=0)
    f = p.add_argument_group("filter")
    f.add_argument("--width", type=int, default=0)
    f.add_argument("--height", type=int, default=0)
    f.add_argument("--rules", default="")
    f.add_argument("--source", default="")
    f.add_argument("--policy", default="")
    f.add_argument("--cycles", default="any", choices=["any", "with",
                                                       "without"])
    f.add_argument("--drop-void", action="store_true")
    args = p.parse_args(argv)
    if args.steps < 1 or args.batch_size < 1 or args.window < 1:
        p.error("--steps, --batch-size and --window must be positive")
    return args


def main(argv):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    net = TinyNet(args.pos_len, args.channels, args.blocks,
                  global_features=19 + 6)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    policy_losses, value_losses = [], []
    rows = 0
    start = time.monotonic()
    try:
        stream = batch_stream(args)
        for step in range(1, args.steps + 1):
            batch = next(stream)
            rows += batch["globalInputNC"].shape[0]
            policy_loss, value_loss = losses(net,
                                             *tensors(batch, args.pos_len))
            optimizer.zero_grad()
            (policy_loss + value_loss).backward()
            optimizer.step()
            policy_losses.append(policy_loss.item())
            value_losses.append(value_loss.item())
            if step % args.print_every == 0 or step == args.steps:
                print(f"step {step:5d}  policy {policy_losses[-1]:.4f}  "
                      f"value {value_losses[-1]:.4f}", flush=True)
        stream.close()
    except qipu_client.QipuError as e:
        print(f"train_tiny: {e}", file=sys.stderr)
        return 1
    w = min(args.window, len(policy_losses))
    summary = {
        "steps": len(policy_losses),
        "rows": rows,
        "seconds": round(time.monotonic() - start, 3),
        "first_policy_loss": float(np.mean(policy_losses[:w])),
        "last_policy_loss": float(np.mean(policy_losses[-w:])),
        "first_value_loss": float(np.mean(value_losses[:w])),
        "last_value_loss": float(np.mean(value_losses[-w:])),
        "policy_losses": policy_losses,
        "value_losses": value_losses,
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
