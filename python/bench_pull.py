#!/usr/bin/python3
"""bench_pull: training rows/s pulled by the Python client into numpy.

Pulls batches from a coordinator's TrainingService for --seconds (starting
the stream again, next seed, when the selection runs out) and prints one
JSON line:

  {"rows", "batches", "seconds", "rows_per_sec", "bytes_per_row",
   "mb_per_sec", "unpack", "tune_malloc"}

bytes_per_row is the payload of a row (the eight arrays); seconds runs from
the first request to the last batch received (or unpacked, with --unpack,
which adds qipu_client.unpack_inputs to every batch); --tune-malloc calls
qipu_client.tune_malloc() first. `qipu bench train`
runs it; by hand:

  PYTHONPATH=build/release/python python/bench_pull.py \
      --server 127.0.0.1:50051 --seconds 10 --symmetries 8
"""

import argparse
import json
import sys
import time

import qipu_client


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", required=True, help="coordinator HOST:PORT")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--shuffle-window", type=int, default=4096)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--pos-len", type=int, default=19)
    p.add_argument("--symmetries", type=int, default=8, choices=[1, 8])
    p.add_argument("--positions-per-game", type=int, default=0)
    p.add_argument("--min-move", type=int, default=0)
    p.add_argument("--width", type=int, default=0)
    p.add_argument("--height", type=int, default=0)
    p.add_argument("--rules", default="")
    p.add_argument("--source", default="")
    p.add_argument("--policy", default="")
    p.add_argument("--tune-malloc", action="store_true",
                   help="qipu_client.tune_malloc() first")
    p.add_argument("--unpack", action="store_true",
                   help="also unpack the input planes of every batch")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    return args


def main(argv):
    args = parse_args(argv)
    tuned = qipu_client.tune_malloc() if args.tune_malloc else False
    rows = batches = payload = 0
    channel = qipu_client.channel(args.server)
    start = time.monotonic()
    deadline = start + args.seconds
    end = start
    epoch = 0
    try:
        while end < deadline:
            got = 0
            stream = qipu_client.batches(
                channel, batch_size=args.batch_size,
                shuffle_window=args.shuffle_window, seed=args.seed + epoch,
                pos_len=args.pos_len, symmetries=args.symmetries,
                positions_per_game=args.positions_per_game,
                min_move=args.min_move, width=args.width, height=args.height,
                rules=args.rules, source=args.source, policy=args.policy,
                timeout=args.seconds + 60)
            for batch in stream:
                n = batch["globalInputNC"].shape[0]
                if args.unpack:
                    qipu_client.unpack_inputs(batch, args.pos_len)
                got += n
                batches += 1
                payload += sum(batch[m].nbytes for m in qipu_client.MEMBERS)
                end = time.monotonic()
                if end >= deadline:
                    break
            stream.close()
            rows += got
            if got == 0:
                print("bench_pull: the selection has no rows", file=sys.stderr)
                return 1
            epoch += 1
    except qipu_client.QipuError as e:
        print(f"bench_pull: {e}", file=sys.stderr)
        return 1
    finally:
        channel.close()
    seconds = end - start
    print(json.dumps({
        "rows": rows,
        "batches": batches,
        "seconds": round(seconds, 3),
        "rows_per_sec": round(rows / seconds, 1) if seconds > 0 else 0.0,
        "bytes_per_row": payload // rows if rows else 0,
        "mb_per_sec": round(payload / seconds / 1e6, 1) if seconds else 0.0,
        "unpack": args.unpack,
        "tune_malloc": tuned,
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
