"""A TCP proxy that delays every chunk it forwards, both ways: a slow link
for the fleet tests (tests/ops/fleet/test_many_hosts.py runs it inside a
worker's network namespace, in front of the coordinator).

  python3 delay_proxy.py --listen 127.0.0.1:0 --upstream HOST:PORT
                         --delay-ms 50

Each accepted connection gets its own upstream connection; each chunk read
from one side is written to the other --delay-ms after it was read, in
order (the delay is a latency, not a rate limit: chunks in flight overlap).
A side that closes or fails closes both. Prints "delay_proxy listening on
HOST:PORT" once listening, and on SIGTERM or SIGINT one line of counts
("delay_proxy: C connection(s), U bytes up, D bytes down") before it exits
0.
"""

import argparse
import asyncio
import signal
import sys


class Proxy:

    def __init__(self, upstream, delay):
        self.upstream = upstream
        self.delay = delay
        self.connections = 0
        self.bytes = {"up": 0, "down": 0}

    async def handle(self, client_reader, client_writer):
        host, port = self.upstream
        try:
            up_reader, up_writer = await asyncio.open_connection(host, port)
        except OSError as e:
            print(f"delay_proxy: upstream {host}:{port}: {e}", flush=True)
            client_writer.close()
            return
        self.connections += 1
        writers = (client_writer, up_writer)
        await asyncio.gather(
            self.pipe(client_reader, up_writer, "up", writers),
            self.pipe(up_reader, client_writer, "down", writers))
        for w in writers:
            w.close()

    async def pipe(self, reader, writer, direction, writers):
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue()

        async def send():
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
                self.bytes[direction] += len(data)

        def abort_all():
            for w in writers:
                w.transport.abort()

        sender = asyncio.create_task(send())
        # A write that fails ends both sides at once (the read below may be
        # waiting for a peer that sends nothing more).
        sender.add_done_callback(
            lambda t: t.cancelled() or t.exception() is None or abort_all())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((loop.time() + self.delay, data))
                if not data:
                    break
            await sender
        except (OSError, asyncio.IncompleteReadError):
            # One side failed: end both, so that neither hangs.
            sender.cancel()
            abort_all()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--delay-ms", type=float, default=50)
    args = parser.parse_args()
    lhost, lport = args.listen.rsplit(":", 1)
    uhost, uport = args.upstream.rsplit(":", 1)
    proxy = Proxy((uhost, int(uport)), args.delay_ms / 1000)
    server = await asyncio.start_server(proxy.handle, lhost, int(lport))
    host, port = server.sockets[0].getsockname()[:2]
    print(f"delay_proxy listening on {host}:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    server.close()
    print(f"delay_proxy: {proxy.connections} connection(s), "
          f"{proxy.bytes['up']} bytes up, {proxy.bytes['down']} bytes down",
          flush=True)


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
