#!/usr/bin/env python3
"""Hostile load against `mailroom serve`, with a legitimate client measured at the same time.

Usage: http_load.py --port P --token T [--attackers N] [--samples K] [--bound R] [--slack-ms S]
                    [--scenario NAME]...

For each scenario the legitimate client times K requests `GET /api/v1/team`, each on a new
connection with the bearer token, one after another, alone (idle) and while N hostile connections
run (loaded), in alternating windows (--rounds of K / rounds requests each; the hostile
connections start afresh in each loaded window, which is timed after --warmup seconds). Each
scenario prints one JSON line; the exit status is 1 when, in any scenario, a legitimate request
failed, a hostile request got an answer other than the documented one, or the loaded p99 was
above R x the idle p99 + S ms.

Scenarios (docs/http-api.md "Limits"):
  slow-body      POST headers without a bearer, then a body byte every half second (issue 51's 260)
  slow-headers   a request line, then a header line every half second, never the blank line
  idle-flood     connections from another client address (127.0.0.2) that send nothing
  token-flood    kept-alive connections with the token from 127.0.0.3: one request each, then idle
  dup-headers    requests with a second Host or Origin header (each must be 400)
  unknown-keys   POST messages with a typo'd key (each must be 400; nothing is sent)
  last-event-id  event streams with hostile Last-Event-ID values (400, or 200 with a reset)
A hostile connection that the server closes is opened again after --reconnect seconds.
"""

import argparse
import collections
import json
import multiprocessing
import random
import selectors
import socket
import sys
import threading
import time

SCENARIOS = ["slow-body", "slow-headers", "idle-flood", "token-flood", "dup-headers", "unknown-keys",
             "last-event-id"]


def request(port, token, method="GET", path="/api/v1/team", headers=(), body=b"", source=None,
            timeout=10.0, stream=False):
    """One request on a new connection; (status, body) or raises OSError. A stream is read until
    its first event or two seconds."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        if source:
            s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        lines = ["%s %s HTTP/1.1" % (method, path), "Host: 127.0.0.1:%d" % port, "Connection: close"]
        if token:
            lines.append("Authorization: Bearer " + token)
        lines.extend(headers)
        if body or method == "POST":
            lines.append("Content-Type: application/json")
            lines.append("Content-Length: %d" % len(body))
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        data = b""
        if stream:
            s.settimeout(2.0)
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                if not stream:
                    raise
                break
            if not chunk:
                break
            data += chunk
            if stream and b"event: " in data:
                break
        head, _, rest = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        return status, rest
    finally:
        s.close()


def p99(samples):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def measure(port, token, count):
    """The legitimate client: (latencies in ms, failures)."""
    times, failures = [], 0
    for _ in range(count):
        start = time.monotonic()
        try:
            status, _ = request(port, token)
            if status != 200:
                failures += 1
        except OSError:
            failures += 1
        times.append((time.monotonic() - start) * 1000)
    return times, failures


class Trickler(threading.Thread):
    """N connections that each send `opening`, then `drip` every half second, reopened when closed."""

    def __init__(self, port, n, opening, drip, source=None, reconnect=0.5):
        super().__init__(daemon=True)
        self.port, self.n, self.opening, self.drip = port, n, opening, drip
        self.source, self.reconnect = source, reconnect
        self.stopping = threading.Event()
        self.opened = 0

    def open_one(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        if self.source:
            s.bind((self.source, 0))
        try:
            s.connect(("127.0.0.1", self.port))
        except BlockingIOError:
            pass
        self.opened += 1
        return {"sock": s, "sent": False, "next": time.monotonic()}

    def run(self):
        sel = selectors.DefaultSelector()
        due = collections.deque()  # (time, connection) in time order: every wait is the same
        reopen = collections.deque()  # times at which to open a connection again, in order

        def add():
            c = self.open_one()
            sel.register(c["sock"], selectors.EVENT_READ, c)
            due.append((time.monotonic() + 0.01, c))  # a loopback connect completes by then

        for _ in range(self.n):
            add()
        while not self.stopping.is_set():
            now = time.monotonic()
            wait = min([0.05] + ([due[0][0] - now] if due else []) + ([reopen[0] - now] if reopen else []))
            for key, _ in sel.select(timeout=max(0.0, wait)):
                c = key.data
                try:
                    data = c["sock"].recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:  # closed by the server: open another later
                    sel.unregister(c["sock"])
                    c["sock"].close()
                    c["closed"] = True
                    # Spread over the period (a connection refused at once comes back at once,
                    # and all of them together would be a burst of the harness's making).
                    reopen.append(time.monotonic() + self.reconnect * random.uniform(0.5, 1.5))
                    reopen = collections.deque(sorted(reopen))
            now = time.monotonic()
            while due and due[0][0] <= now:
                _, c = due.popleft()
                if c.get("closed"):
                    continue
                try:
                    c["sock"].send(self.drip if c["sent"] else self.opening)
                    c["sent"] = True
                except OSError:
                    pass  # not connected yet: the opening goes with the next turn
                due.append((now + 0.5, c))
            while reopen and reopen[0] <= now:
                reopen.popleft()
                add()
        for _, c in due:
            if not c.get("closed"):
                c["sock"].close()


class Looper(threading.Thread):
    """Sends hostile requests one after another; counts answers other than the expected ones."""

    def __init__(self, send):
        super().__init__(daemon=True)
        self.send = send
        self.stopping = threading.Event()
        self.sent = 0
        self.wrong = []

    def run(self):
        while not self.stopping.is_set():
            try:
                problem = self.send()
            except OSError as e:
                problem = "no answer: %s" % e
            self.sent += 1
            if problem and len(self.wrong) < 5:
                self.wrong.append(problem)
            time.sleep(0.005)


def attack(name, args):
    port, token, n = args.port, args.token, args.attackers
    host = "Host: 127.0.0.1:%d\r\n" % port
    if name == "slow-body":
        opening = ("POST /api/v1/messages HTTP/1.1\r\n%sContent-Type: application/json\r\n"
                   "Content-Length: 1000000\r\n\r\n" % host).encode()
        return [Trickler(port, n, opening, b"a", reconnect=args.reconnect)]
    if name == "slow-headers":
        opening = ("GET /api/v1/team HTTP/1.1\r\n%s" % host).encode()
        return [Trickler(port, n, opening, b"X-Slow: 1\r\n", reconnect=args.reconnect)]
    if name == "idle-flood":
        return [Trickler(port, n, b"", b"", source="127.0.0.2", reconnect=args.reconnect)]
    if name == "token-flood":
        opening = ("GET /api/v1/mailboxes HTTP/1.1\r\n%sAuthorization: Bearer %s\r\n\r\n"
                   % (host, token)).encode()
        return [Trickler(port, n, opening, b"", source="127.0.0.3", reconnect=args.reconnect)]

    def expect(status, got, what):
        return None if got == status else "%s: HTTP %d, not %d" % (what, got, status)

    if name == "dup-headers":
        def two_hosts():
            got, _ = request(port, token, headers=["Host: evil.example"])
            return expect(400, got, "two Host headers")

        def two_origins():
            got, _ = request(port, token, "POST", "/api/v1/messages",
                             ["Origin: http://127.0.0.1:%d" % port, "Origin: http://evil.example"],
                             b'{"to":"bob","body":"two origins"}')
            return expect(400, got, "two Origin headers")
        return [Looper(two_hosts) for _ in range(2)] + [Looper(two_origins) for _ in range(2)]
    if name == "unknown-keys":
        def typo():
            got, body = request(port, token, "POST", "/api/v1/messages",
                                body=b'{"to":"bob","body":"x","priorty":"urgent"}')
            return expect(400, got, "a typo'd key")
        return [Looper(typo) for _ in range(4)]
    if name == "last-event-id":
        values = ["99999999999999999999", "-1", "abc", "1e9", "9223372036854775807", "\u00ff" * 40]

        def hostile():
            problems = []
            for value in values:
                got, body = request(port, token, "GET", "/api/v1/events", ["Last-Event-ID: " + value],
                                    stream=True)
                if got == 200 and b"event: reset" not in body:
                    problems.append("Last-Event-ID %r: a stream without its reset" % value)
                elif got not in (200, 400):
                    problems.append("Last-Event-ID %r: HTTP %d" % (value, got))
            got, _ = request(port, token, "GET", "/api/v1/events", ["Last-Event-ID: 1", "Last-Event-ID: 2"],
                             stream=True)
            if got != 400:
                problems.append("two Last-Event-ID headers: HTTP %d" % got)
            return "; ".join(problems) or None
        return [Looper(hostile) for _ in range(2)]
    raise SystemExit("unknown scenario " + name)


def hostile_process(name, args, stop, results):
    """Runs scenario `name` until `stop` is set, in a process of its own (the measuring client
    never waits for the attackers' interpreter lock); sends back what it did."""
    workers = attack(name, args)
    for w in workers:
        w.start()
    stop.wait()
    for w in workers:
        w.stopping.set()
    for w in workers:
        w.join()
    results.send({"hostile": sum(getattr(w, "opened", 0) + getattr(w, "sent", 0) for w in workers),
                  "wrong": [p for w in workers for p in getattr(w, "wrong", [])]})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--attackers", type=int, default=260)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--bound", type=float, default=2.0)
    parser.add_argument("--slack-ms", type=float, default=0.0)
    parser.add_argument("--reconnect", type=float, default=0.5)
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--scenario", action="append")
    args = parser.parse_args()
    measure(args.port, args.token, 20)  # warm the server's connections and caches
    per_round = max(1, args.samples // args.rounds)
    ok = True
    for name in args.scenario or SCENARIOS:
        # Idle and loaded windows alternate, so both see the same machine (on a shared one, what
        # else runs drifts over seconds).
        idle, times, failures, wrong, hostile = [], [], 0, [], 0
        for _ in range(args.rounds):
            quiet, failed = measure(args.port, args.token, per_round)
            idle += quiet
            failures += failed
            stop = multiprocessing.Event()
            receive, send = multiprocessing.Pipe(duplex=False)
            process = multiprocessing.Process(target=hostile_process, args=(name, args, stop, send))
            process.start()
            time.sleep(args.warmup)
            loaded, failed = measure(args.port, args.token, per_round)
            times += loaded
            failures += failed
            stop.set()
            done = receive.recv()
            process.join()
            wrong += done["wrong"]
            hostile += done["hostile"]
            time.sleep(0.3)  # the closed hostile connections' lingering ends
        idle_p99, loaded_p99 = p99(idle), p99(times)
        ratio = loaded_p99 / idle_p99 if idle_p99 > 0 else 0.0
        passed = failures == 0 and not wrong and loaded_p99 <= args.bound * idle_p99 + args.slack_ms
        ok = ok and passed
        print(json.dumps({"scenario": name, "p99_ms": round(loaded_p99, 3), "idle_p99_ms": round(idle_p99, 3),
                          "ratio": round(ratio, 3), "samples": len(times),
                          "worst_ms": [round(t, 1) for t in sorted(times)[-3:]],
                          "p50_ms": round(sorted(times)[len(times) // 2], 3), "failures": failures,
                          "hostile": hostile, "wrong": wrong[:3], "passed": passed}), flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
