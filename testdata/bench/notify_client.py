#!/usr/bin/env python3
"""Times resource notifications of `mailroom mcp` (testdata/bench/mcp_notify.sh; stdlib only).

Usage: notify_client.py MAILROOM DB ME SENDER RUNS STYLE
  DB the bead store's file (its events table is read for the commit time).
  STYLE legacy: resources/subscribe mailroom://inbox; modern: subscriptions/listen (2026-07-28).

Starts `MAILROOM --as ME mcp`, subscribes to ME's inbox, then RUNS times runs
`MAILROOM --as SENDER send ME -s … -m …` as a process of its own and records, for each:
  commit_ms  from the send's commit until the server's notifications/resources/updated is read:
             the wall clock at the read minus the `at` of the send's mail.sent event, which the
             store takes inside the send's transaction, just before it commits (so a little more
             than the time from the commit; both clocks are this machine's, in milliseconds)
  start_ms   from just before the send process starts until the notification is read
  send_ms    the send process's own run time
Prints one line of JSON: {"commit_ms": [...], "start_ms": [...], "send_ms": [...], "missed": N}
(missed: sends no notification followed within 5 s). A run starts only after the previous one's
notification, with 20 ms between runs.
"""
import json
import sqlite3
import subprocess
import sys
import threading
import time


def main():
    mailroom, db, me, sender = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    runs, style = int(sys.argv[5]), sys.argv[6]
    server = subprocess.Popen([mailroom, "--as", me, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, bufsize=0)
    heard = []  # (monotonic time, message)
    cond = threading.Condition()

    def reader():
        for line in server.stdout:
            message = json.loads(line)
            with cond:
                heard.append((time.monotonic(), time.time(), message))
                cond.notify_all()

    threading.Thread(target=reader, daemon=True).start()

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())

    def wait_for(predicate, start, timeout):
        deadline = time.monotonic() + timeout
        with cond:
            while True:
                for index in range(start, len(heard)):
                    if predicate(heard[index][2]):
                        return index
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                cond.wait(left)

    if style == "legacy":
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "1"}}})
        send({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": {"uri": "mailroom://inbox"}})
        ready = wait_for(lambda m: m.get("id") == 2, 0, 30)
    else:
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}
        send({"jsonrpc": "2.0", "id": "listen", "method": "subscriptions/listen",
              "params": {"_meta": meta, "notifications": {"resourceSubscriptions": ["mailroom://inbox"]}}})
        ready = wait_for(lambda m: m.get("method") == "notifications/subscriptions/acknowledged", 0, 30)
    if ready is None:
        sys.exit("bench: the subscription was not answered")

    def updated(message):
        return message.get("method") == "notifications/resources/updated"

    store = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    commit_ms, start_ms, send_ms, missed = [], [], [], 0
    for run in range(runs):
        with cond:
            seen = len(heard)
        started = time.monotonic()
        sent = subprocess.run([mailroom, "--json", "--as", sender, "send", me, "-s", f"bench {run}", "-m", "hello"],
                              check=True, stdout=subprocess.PIPE)
        ended = time.monotonic()
        message_id = json.loads(sent.stdout)["id"]
        index = wait_for(updated, seen, 5)
        if index is None:
            missed += 1
        else:
            at = store.execute("SELECT at FROM events WHERE message_id = ? AND type = 'mail.sent'",
                               (message_id,)).fetchone()[0]
            commit_ms.append(heard[index][1] * 1000 - at)
            start_ms.append((heard[index][0] - started) * 1000)
            send_ms.append((ended - started) * 1000)
        time.sleep(0.02)
    server.stdin.close()
    server.wait(timeout=10)
    print(json.dumps({"commit_ms": commit_ms, "start_ms": start_ms, "send_ms": send_ms, "missed": missed}))


if __name__ == "__main__":
    main()
