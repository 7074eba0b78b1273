#!/usr/bin/env python3
"""Requests/s of a running explorer over kept-alive connections (the
figures in web/README.md; not a ctest).

Each client is a process with one kept-alive http.client connection that
asks a mix of openings, ko and results requests for --seconds; prints the
total requests/s and the p50/p99 latency.

  tests/web/explorer_load.py --url http://127.0.0.1:8080 --clients 4
  tests/web/explorer_load.py --url https://127.0.0.1:8443 --ca ca.pem
"""

import argparse
import http.client
import multiprocessing
import ssl
import time
import urllib.parse

TARGETS = [
    "/api/v1/openings",
    "/api/v1/openings?moves=Q16",
    "/api/v1/openings?moves=Q16+D4&size=19",
    "/api/v1/ko?size=19",
    "/api/v1/results?source=fox",
    "/api/v1/openings?moves=D4+Q16+Q3",
]


def client(url, ca, seconds, queue):
    u = urllib.parse.urlsplit(url)
    if u.scheme == "https":
        ctx = ssl.create_default_context(cafile=ca)
        conn = http.client.HTTPSConnection(u.hostname, u.port, context=ctx,
                                           timeout=30)
    else:
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    latencies = []
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        start = time.monotonic()
        conn.request("GET", TARGETS[i % len(TARGETS)])
        r = conn.getresponse()
        r.read()
        assert r.status == 200, (TARGETS[i % len(TARGETS)], r.status)
        latencies.append(time.monotonic() - start)
        i += 1
    conn.close()
    queue.put(latencies)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", required=True)
    p.add_argument("--ca", help="CA (PEM) of an https:// server")
    p.add_argument("--clients", type=int, default=1)
    p.add_argument("--seconds", type=float, default=10)
    a = p.parse_args()
    queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=client,
                                     args=(a.url, a.ca, a.seconds, queue))
             for _ in range(a.clients)]
    for proc in procs:
        proc.start()
    latencies = []
    for _ in procs:
        latencies += queue.get(timeout=a.seconds + 60)
    for proc in procs:
        proc.join()
    latencies.sort()
    n = len(latencies)
    print(f"{a.clients} client(s): {n / a.seconds:.0f} requests/s, "
          f"p50 {latencies[n // 2] * 1e3:.2f} ms, "
          f"p99 {latencies[int(n * 0.99)] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
