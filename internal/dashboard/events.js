// The live event stream: GET /api/v1/events read with a streaming fetch() (so it carries the
// bearer header; EventSource cannot), parsed as Server-Sent Events (id:, event:, data:, blank line;
// ':' comments are heartbeats). The last id is kept and sent back as Last-Event-ID on reconnect,
// after 1, 2, 4, 8, then every 15 s. `event: reset` (the id was older than the oldest kept event)
// is passed on as {type: "reset"}: the views reload everything.
import { token } from "./api.js";

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];

export class EventStream {
  constructor({ onEvent, onState }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.lastId = null;
    this.failures = 0;
    this.stopped = false;
  }

  start() {
    this.loop();
  }

  async loop() {
    while (!this.stopped) {
      try {
        await this.readOnce();
        // The server ended the stream (a restart): reconnect at once, then back off.
      } catch (err) {
        this.onState(`reconnecting (${err.message})`);
      }
      if (this.stopped) return;
      const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
      this.failures++;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  async readOnce() {
    const t = token();
    if (!t) throw new Error("not signed in");
    const headers = { Authorization: `Bearer ${t}`, Accept: "text/event-stream" };
    if (this.lastId !== null) headers["Last-Event-ID"] = this.lastId;
    const response = await fetch("/api/v1/events", { headers, cache: "no-store", credentials: "omit" });
    if (response.status === 501) {
      // A server without an event stream: the views still work, refreshed when opened.
      this.stopped = true;
      this.onState("not live (this server has no event stream)");
      return;
    }
    if (!response.ok || !response.body) {
      if (response.status === 401) this.stopped = true;
      throw new Error(`HTTP ${response.status}`);
    }
    this.onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let fields = { id: null, event: "", data: [] };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      this.failures = 0;
      buffer += value;
      let nl;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        if (buffer[nl] === "\r" && nl === buffer.length - 1) break; // its \n may be in the next chunk
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith("\r\n", nl) ? 2 : 1));
        if (line === "") {
          this.dispatch(fields);
          fields = { id: null, event: "", data: [] };
          continue;
        }
        if (line.startsWith(":")) continue; // a heartbeat or comment
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        let value2 = colon < 0 ? "" : line.slice(colon + 1);
        if (value2.startsWith(" ")) value2 = value2.slice(1);
        if (name === "id") fields.id = value2;
        else if (name === "event") fields.event = value2;
        else if (name === "data") fields.data.push(value2);
      }
    }
    this.onState("reconnecting");
  }

  dispatch(fields) {
    if (fields.id !== null && fields.id !== "") this.lastId = fields.id;
    const type = fields.event || "message";
    if (type === "reset") {
      this.onEvent({ type: "reset" });
      return;
    }
    if (fields.data.length === 0) return;
    let data = null;
    try {
      data = JSON.parse(fields.data.join("\n"));
    } catch {
      return; // not an event of ours
    }
    if (data && typeof data === "object") this.onEvent({ ...data, type: data.type || type });
  }
}
