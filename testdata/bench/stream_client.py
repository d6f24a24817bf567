#!/usr/bin/env python3
"""testdata/bench/stream_client.py: the event-stream client of stream.sh (python3, stdlib only).

Holds event streams open on `mailroom serve` (GET /api/v1/events with the bearer token; docs/http-api.md,
"Live events"), parses their Server-Sent Events and times them. Two modes:

  latency  --streams 64 --runs N --warmup W --mailroom BIN --db STORE
      opens the streams, then W + N times runs `BIN --db STORE --as agent-001 send agent-002 ...` as a
      process and waits until the send's mail.sent event has arrived on every stream. Prints one JSON
      object: the latencies (from just before the process starts until the event is read from a
      stream) of all streams and of the last stream to get each event. Exits 1 when a stream misses an
      event, gets one twice or out of order, or its events differ from the store's events table.

  memory   --events E --seconds S --pid PID --writers K --fanout F
      opens one stream, then POSTs /api/v1/messages (to F recipients) over K kept-alive connections at
      full rate until the stream has received E events or S seconds have passed, reading the server's
      VmRSS (/proc/PID/status) when the stream has received 10,000 events, at every further tenth of E,
      and at the end. Prints one JSON object. Exits 1 when a request fails or the stream misses an event.

The server's port comes from --port, the token from --token-file (the file itself is never printed).
"""
import argparse
import json
import os
import selectors
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import http.client


def fail(msg):
    print(f"stream_client: {msg}", file=sys.stderr)
    sys.exit(1)


class Stream:
    """One SSE connection; feed() returns the events completed by the new bytes."""

    def __init__(self, port, token):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        req = (f"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n")
        self.sock.sendall(req.encode())
        self.buf = b""
        self.head = None
        self.opened = False  # the ": stream" comment seen: the server has subscribed it
        self.seqs = []
        self.sent = []  # (seq, arrival) of mail.sent events

    def read_head(self):
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                fail(f"the server closed an event stream before its headers: {self.buf[:200]!r}")
            self.buf += chunk
        self.head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        status = self.head.split(b"\r\n", 1)[0]
        if b" 200 " not in status + b" ":
            fail(f"GET /api/v1/events answered {status.decode(errors='replace')}: {self.buf[:300]!r}")
        self.sock.setblocking(False)
        self.feed(b"", time.monotonic())  # what came with the headers

    def feed(self, data, arrival):
        self.buf += data
        events = []
        while b"\n\n" in self.buf:
            block, self.buf = self.buf.split(b"\n\n", 1)
            fields = {}
            for line in block.split(b"\n"):
                if line.startswith(b":"):
                    if line == b": stream":
                        self.opened = True
                    continue
                name, _, value = line.partition(b":")
                fields[name.decode()] = value[1:].decode() if value.startswith(b" ") else value.decode()
            if "data" not in fields or "id" not in fields:
                continue  # peer.state (no id) and comments
            seq = int(fields["id"])
            if self.seqs and seq <= self.seqs[-1]:
                fail(f"a stream got seq {seq} after {self.seqs[-1]} (a repeat or out of order)")
            self.seqs.append(seq)
            doc = json.loads(fields["data"])
            if doc.get("seq") != seq:
                fail(f"an event's data seq {doc.get('seq')} differs from its id {seq}")
            if fields.get("event") == "mail.sent":
                self.sent.append((seq, arrival))
            events.append((seq, fields.get("event"), arrival))
        return events


def open_streams(port, token, n):
    streams = [Stream(port, token) for _ in range(n)]
    for s in streams:
        s.read_head()
    sel = selectors.DefaultSelector()
    for s in streams:
        sel.register(s.sock, selectors.EVENT_READ, s)
    # Every stream subscribed before anything is sent (the server sends ": stream" once it is).
    deadline = time.monotonic() + 10
    while not all(s.opened for s in streams):
        if time.monotonic() > deadline:
            fail(f"{sum(not s.opened for s in streams)} of {n} streams were not opened within 10 s")
        pump(sel, 0.1)
    return streams, sel


def pump(sel, timeout):
    for key, _ in sel.select(timeout):
        s = key.data
        try:
            data = s.sock.recv(1 << 20)
        except BlockingIOError:
            continue
        arrival = time.monotonic()
        if not data:
            fail("the server closed an event stream")
        s.feed(data, arrival)


def quantile(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * q))]


def store_seqs(db, after):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [r[0] for r in con.execute("SELECT seq FROM events WHERE seq > ? ORDER BY seq", (after,))]
    finally:
        con.close()


def latency(args, token):
    con = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    start_seq = con.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]
    con.close()
    streams, sel = open_streams(args.port, token, args.streams)
    all_ms, last_ms, first_ms, exit_ms = [], [], [], []  # exit: the send process's own time
    for i in range(args.warmup + args.runs):
        seen = [len(s.sent) for s in streams]
        argv = [args.mailroom, "--db", args.db, "--as", "agent-001", "send", "agent-002",
                "-s", f"stream bench {i}", "-m", "hello", "-q"]
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        exited = []
        waiter = threading.Thread(target=lambda: (proc.wait(), exited.append(time.monotonic())))
        waiter.start()
        deadline = t0 + 10
        while any(len(s.sent) == n for s, n in zip(streams, seen)):
            if time.monotonic() > deadline:
                proc.kill()
                fail(f"send {i}: its event reached {sum(len(s.sent) > n for s, n in zip(streams, seen))}"
                     f" of {len(streams)} streams within 10 s")
            pump(sel, 0.05)
        waiter.join()
        rc = proc.returncode
        if rc != 0:
            fail(f"send {i} exited {rc}: {proc.stderr.read().decode(errors='replace')}")
        proc.stderr.close()
        seqs = {s.sent[n][0] for s, n in zip(streams, seen)}
        if len(seqs) != 1:
            fail(f"send {i}: the streams' first new mail.sent events differ: {sorted(seqs)}")
        if i < args.warmup:
            continue
        arrivals = [(s.sent[n][1] - t0) * 1000 for s, n in zip(streams, seen)]
        all_ms.extend(arrivals)
        exit_ms.append((exited[0] - t0) * 1000)
        last_ms.append(max(arrivals))
        first_ms.append(min(arrivals))
    # Whatever is still in flight (none expected), then the streams against the store.
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        pump(sel, 0.05)
    expected = store_seqs(args.db, start_seq)
    for k, s in enumerate(streams):
        if s.seqs != expected:
            missing = sorted(set(expected) - set(s.seqs))
            extra = sorted(set(s.seqs) - set(expected))
            fail(f"stream {k} got {len(s.seqs)} events, the store has {len(expected)} after seq {start_seq}"
                 f" (missing {missing[:10]}, not in the store {extra[:10]})")
    sends = args.warmup + args.runs
    print(json.dumps({
        "streams": len(streams), "sends": sends, "events_per_stream": len(expected),
        "events_per_send": len(expected) / sends,
        "p50_all": quantile(all_ms, 0.5), "p95_all": quantile(all_ms, 0.95),
        "p50_last": quantile(last_ms, 0.5), "p95_last": quantile(last_ms, 0.95),
        "p50_first": quantile(first_ms, 0.5), "max_last": max(last_ms),
        "p50_send_exit": quantile(exit_ms, 0.5),
    }))


def rss_kib(pid):
    """VmRSS, RssAnon, RssFile + RssShmem of PID, in KiB (/proc/PID/status)."""
    found = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "Threads"):
                found[name] = int(value.split()[0])
    if "VmRSS" not in found:
        fail(f"no VmRSS for pid {pid}")
    return found["VmRSS"], found.get("RssAnon", 0), found.get("RssFile", 0) + found.get("RssShmem", 0)


def memory(args, token):
    streams, sel = open_streams(args.port, token, 1)
    stream = streams[0]
    checkpoints = sorted({10000} | {args.events * k // 10 for k in range(1, 11) if args.events * k // 10 > 10000})
    samples = []  # (events received, VmRSS KiB, seconds since start, RssAnon KiB, RssFile+RssShmem KiB)
    lock = threading.Lock()
    state = {"posted": 0, "stop": False, "error": None}
    to = [f"agent-{10 + k:03d}" for k in range(args.fanout)]
    body = json.dumps({"to": to if args.fanout > 1 else to[0], "subject": "memory bench", "body": "x" * 100})
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def writer():
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        try:
            while not state["stop"]:
                conn.request("POST", "/api/v1/messages", body=body, headers=headers)
                res = conn.getresponse()
                data = res.read()
                if res.status not in (200, 201):
                    state["error"] = f"POST /api/v1/messages answered {res.status}: {data[:300]!r}"
                    state["stop"] = True
                    return
                with lock:
                    state["posted"] += 1
        except Exception as err:  # noqa: BLE001 - reported and failed below
            state["error"] = f"a writer failed: {err!r}"
            state["stop"] = True
        finally:
            conn.close()

    started = time.monotonic()
    threads = [threading.Thread(target=writer, daemon=True) for _ in range(args.writers)]
    for t in threads:
        t.start()
    timed_out = False
    while True:
        pump(sel, 0.05)
        got = len(stream.seqs)
        while checkpoints and got >= checkpoints[0]:
            rss, anon, file = rss_kib(args.pid)
            samples.append((got, rss, time.monotonic() - started, anon, file))
            checkpoints.pop(0)
        if state["error"]:
            fail(state["error"])
        if got >= args.events:
            break
        if time.monotonic() - started > args.seconds:
            timed_out = True
            break
    state["stop"] = True
    for t in threads:
        t.join(30)
    if state["error"]:
        fail(state["error"])
    # The stream catches up with every message posted (each makes events_per_message events).
    posted = state["posted"]
    deadline = time.monotonic() + 30
    last_len, quiet_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        pump(sel, 0.05)
        if len(stream.seqs) != last_len:
            last_len, quiet_since = len(stream.seqs), time.monotonic()
        elif time.monotonic() - quiet_since > 1.0:
            break
    got = len(stream.seqs)
    elapsed = time.monotonic() - started
    final_rss, final_anon, final_file = rss_kib(args.pid)
    if got == 0 or posted == 0:
        fail("no event arrived")
    per_message = got / posted
    if stream.seqs[-1] - stream.seqs[0] + 1 != got:
        fail(f"the stream's seqs have gaps: {got} events from {stream.seqs[0]} to {stream.seqs[-1]}")
    print(json.dumps({
        "posted": posted, "recipients": args.fanout, "events": got, "events_per_message": per_message, "seconds": elapsed,
        "timed_out": timed_out, "samples": samples, "final": [got, final_rss, elapsed, final_anon, final_file],
    }))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["latency", "memory"])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--token-file", required=True)
    ap.add_argument("--streams", type=int, default=64)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--mailroom")
    ap.add_argument("--db")
    ap.add_argument("--events", type=int, default=100000)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--pid", type=int)
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--fanout", type=int, default=1)
    args = ap.parse_args()
    with open(args.token_file) as f:
        token = f.read().strip()
    if args.mode == "latency":
        latency(args, token)
    else:
        memory(args, token)


if __name__ == "__main__":
    main()
