// The request/response commands end to end in-process: wait, send --ttl/--trace/--wait-reply
// (flag checks), trace, watch, and the type column of inbox. Against a real bead store in memory;
// the store has no change signal, so waits here poll (mail::k_wait_poll_interval_ms) and are kept
// to what is already there or to short timeouts.

#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "cli/app.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::cli {

namespace {

struct Harness {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  StringOutput out;

  Harness() : cwd(testing::make_temp_dir("reqresp").string())
  {
    vars["HOME"] = cwd;
    vars["PATH"] = "/usr/bin:/bin";
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, mail::MailPolicy{}, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in;
    AppDeps deps{env,
                 out,
                 in,
                 clock,
                 [](const mail::ProviderSettings&,
                    const config::Identity&) -> Result<std::unique_ptr<mail::Provider>> {
                   return make_error(ErrorCode::store_error, "unexpected open");
                 },
                 store.get()};
    return run_args(args, deps);
  }

  // Runs `args` with --json and returns the id of the message it sent.
  std::string send(std::vector<std::string> args)
  {
    args.insert(args.begin(), "--json");
    REQUIRE(run(args) == 0);
    return nlohmann::json::parse(out.out_text()).at("id").get<std::string>();
  }

  mail::Message get(const std::string& viewer, const std::string& id)
  {
    auto message = store->get(viewer, id);
    REQUIRE(message.ok());
    return std::move(message).value();
  }
};

} // namespace

TEST_SUITE("mailroom::cli request/response")
{
  TEST_CASE("wait returns at once what is already there, as peek shows it, and changes nothing")
  {
    Harness h;
    const std::string id = h.send({"--as", "alice", "send", "bob", "-s", "job", "-m", "do it"});
    CHECK(h.run({"--as", "bob", "wait", "--timeout", "5s"}) == 0);
    CHECK(h.out.out_text().find("ID:       " + id) == 0);
    CHECK(h.out.out_text().find("Body:     do it") != std::string::npos);
    CHECK_FALSE(h.get("bob", id).state->read);
    CHECK(h.run({"--json", "--as", "bob", "wait", "--read"}) == 0);
    const auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["timed_out"] == false);
    CHECK(doc["message"]["id"] == id);
    CHECK(h.get("bob", id).state->read);
  }

  TEST_CASE("wait times out with exit 1, quietly or with the contract's JSON")
  {
    Harness h;
    CHECK(h.run({"--as", "bob", "wait", "--timeout", "10ms"}) == 1);
    CHECK(h.out.out_text().empty());
    CHECK(h.out.err_text() == "mailroom wait: timed out after 10ms\n");
    CHECK(h.run({"--json", "--as", "bob", "wait", "--timeout", "10ms"}) == 1);
    CHECK(h.out.out_text() == "{\"message\":null,\"notice\":null,\"outcome\":\"timed_out\",\"schema_"
                              "version\":1,\"timed_out\":true}\n");
  }

  TEST_CASE("wait filters, and checks its flags before it waits")
  {
    Harness h;
    h.send({"--as", "alice", "send", "bob", "chat"});
    const std::string task = h.send({"--as", "carol", "send", "bob", "--type", "task_request", "task"});
    CHECK(h.run({"--json", "--as", "bob", "wait", "--timeout", "0", "--type", "task_request"}) == 0);
    CHECK(nlohmann::json::parse(h.out.out_text())["message"]["id"] == task);
    CHECK(h.run({"--json", "--as", "bob", "wait", "--timeout", "0", "--from", "carol"}) == 0);
    CHECK(nlohmann::json::parse(h.out.out_text())["message"]["id"] == task);
    CHECK(h.run({"--as", "bob", "wait", "--timeout", "0", "--type", "cron_task"}) == 1);
    CHECK(h.run({"--as", "bob", "wait", "--type", "task_reqest"}) == 2);
    CHECK(h.out.err_text().find("did you mean \"task_request\"") != std::string::npos);
    CHECK(h.run({"--as", "bob", "wait", "--timeout", "soon"}) == 2);
    CHECK(h.out.err_text().find("invalid duration \"soon\" for --timeout") != std::string::npos);
    CHECK(h.run({"--as", "bob", "wait", "--reply-to", "mr-00000000"}) == 3);
    CHECK(h.run({"--as", "bob", "wait", "--thread", "thread-nope"}) == 3);
  }

  TEST_CASE("wait --reply-to finds a reply already read")
  {
    Harness h;
    const std::string asked = h.send({"--as", "alice", "send", "bob", "--type", "task_request", "sum 1 2"});
    const std::string answer = h.send({"--as", "bob", "reply", asked, "3"});
    REQUIRE(h.run({"--as", "alice", "read", answer}) == 0);
    CHECK(h.run({"--json", "--as", "alice", "wait", "--reply-to", asked, "--timeout", "0"}) == 0);
    const auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["message"]["id"] == answer);
    CHECK(doc["message"]["type"] == "task_response");
    CHECK(doc["message"]["reply_to"] == asked);
  }

  TEST_CASE("send takes --ttl, --trace and TRACEPARENT")
  {
    Harness h;
    const std::string ttl = h.send({"--as", "alice", "send", "bob", "--ttl", "10m", "soon stale"});
    const auto stored = h.get("bob", ttl);
    REQUIRE(stored.expires_at.has_value());
    CHECK(*stored.expires_at == stored.created_at + 10 * 60 * 1000);
    CHECK(h.run({"--as", "alice", "send", "bob", "--ttl", "ten", "x"}) == 2);
    CHECK(h.run({"--as", "alice", "send", "bob", "--timeout", "5s", "x"}) == 2);
    CHECK(h.out.err_text().find("--timeout needs --wait-reply") != std::string::npos);

    const std::string parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const std::string child = h.send({"--as", "alice", "send", "bob", "--trace", parent, "child"});
    CHECK(h.get("bob", child).trace.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(h.get("bob", child).trace.parent_span_id == std::optional<std::string>("00f067aa0ba902b7"));
    const std::string grandchild = h.send({"--as", "bob", "send", "carol", "--trace", child, "grandchild"});
    CHECK(h.get("carol", grandchild).trace.parent_span_id ==
          std::optional<std::string>(h.get("bob", child).trace.span_id));
    CHECK(h.run({"--as", "alice", "send", "bob", "--trace", "nonsense", "x"}) == 2);

    h.vars["TRACEPARENT"] = parent;
    const std::string from_env = h.send({"--as", "alice", "send", "bob", "env"});
    CHECK(h.get("bob", from_env).trace.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
    h.vars["TRACEPARENT"] = "00-zz-01";
    const std::string fresh = h.send({"--as", "alice", "send", "bob", "bad env"});
    // Under --json (as send() runs it) the warning is a JSON line with its code.
    CHECK(h.out.err_text().find("\"invalid_traceparent\"") != std::string::npos);
    CHECK(h.out.err_text().find("ignoring invalid TRACEPARENT") != std::string::npos);
    CHECK_FALSE(h.get("bob", fresh).trace.parent_span_id.has_value());
  }

  TEST_CASE("trace prints the tree with the time since each parent; unknown is exit 3")
  {
    Harness h;
    const std::string root =
        h.send({"--as", "alice", "send", "bob", "--type", "task_request", "-s", "build", "-m", "go"});
    h.clock.advance(1500);
    const std::string reply = h.send({"--as", "bob", "reply", root, "built"});
    h.clock.advance(250);
    const std::string note =
        h.send({"--as", "bob", "send", "carol", "--trace", root, "-s", "test it", "-m", "x"});
    const std::string trace_id = h.get("bob", root).trace.trace_id;
    CHECK(h.run({"--as", "carol", "trace", reply}) == 0);
    // Each message's id, then each recipient's read and ack state; ├─ and └─ draw the tree.
    CHECK(h.out.out_text() ==
          "Trace " + trace_id + "\n" + root +
              "  2025-06-15T10:30:00.000Z  alice \xE2\x86\x92 bob  task_request  build\n"
              "\xE2\x94\x82   bob: completed, read +1.5s, acked +1.5s\n"
              "\xE2\x94\x9C\xE2\x94\x80 " +
              reply +
              "  2025-06-15T10:30:01.500Z  bob \xE2\x86\x92 alice  task_response  Re: build  +1.5s\n"
              "\xE2\x94\x82      alice: unread\n"
              "\xE2\x94\x94\xE2\x94\x80 " +
              note +
              "  2025-06-15T10:30:01.750Z  bob \xE2\x86\x92 carol  message  test it  +1.7s\n"
              "       carol: unread\n");
    CHECK(h.run({"--json", "--as", "carol", "trace", trace_id}) == 0);
    const auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["trace_id"] == trace_id);
    CHECK(doc["messages"].size() == 3);
    CHECK(doc["messages"][1]["parent_span_id"] == doc["messages"][0]["span_id"]);
    CHECK(h.run({"--as", "carol", "trace", "mr-ffffffffffff"}) == 3);
    CHECK(h.run({"--as", "carol", "trace", std::string(32, 'a')}) == 3);
  }

  TEST_CASE("inbox shows the type when it is not message, and marks expired messages")
  {
    Harness h;
    h.send({"--as", "alice", "send", "bob", "plain"});
    h.send({"--as", "alice", "send", "bob", "--type", "cron_task", "nightly"});
    h.send({"--as", "alice", "send", "bob", "--ttl", "1s", "stale"});
    h.clock.advance(2000);
    REQUIRE(h.run({"--as", "bob", "inbox", "--all"}) == 0);
    const std::string table = h.out.out_text();
    CHECK(table.find("TYPE") != std::string::npos);
    CHECK(table.find("cron_task") != std::string::npos);
    CHECK(table.find("stale (expired)") != std::string::npos);
    REQUIRE(h.run({"--as", "bob", "inbox"}) == 0);
    CHECK(h.out.out_text().find("stale") == std::string::npos);
  }

  TEST_CASE("watch refuses a missing or unrunnable command before claiming anything")
  {
    Harness h;
    const std::string id = h.send({"--as", "alice", "send", "bob", "work"});
    CHECK(h.run({"--as", "bob", "watch", "--once"}) == 2);
    CHECK(h.out.err_text().find("missing --exec CMD") != std::string::npos);
    CHECK(h.run({"--as", "bob", "watch", "--once", "--exec", "/nonexistent/handler", "--flag"}) == 2);
    CHECK(h.out.err_text().find("cannot run \"/nonexistent/handler\"") != std::string::npos);
    CHECK(h.run({"--as", "bob", "watch", "--lease", "forever", "--exec", "cat"}) == 2);
    auto next = mailroom::testing::reach(*h.store).claim_next(
        mail::ClaimRequest{"bob", {}, std::nullopt, 1000, "test"});
    REQUIRE(next.ok());
    REQUIRE(next->claim.has_value()); // never claimed, so free
    CHECK(next->claim->attempts == 0);
    CHECK(next->claim->message.id == id);
  }

  TEST_CASE("watch --once runs the handler, replies with its output and acks")
  {
    Harness h;
    const std::string task =
        h.send({"--as", "alice", "send", "bob", "--type", "task_request", "-s", "echo", "-m", "hello"});
    const std::string note = h.send({"--as", "alice", "send", "bob", "--type", "notification", "fyi"});
    // Everything after --exec is the handler's argv, options included.
    REQUIRE(h.run({"--json", "--as", "bob", "watch", "--once", "--exec", "/bin/sh", "-c",
                   "cat; printf ' %s/%s' \"$MAILROOM_TYPE\" \"$MAILROOM_MAILBOX\"", "--json"}) == 0);
    std::vector<nlohmann::json> events;
    std::string text = h.out.out_text();
    for (std::size_t at = 0; at < text.size();) {
      const auto end = text.find('\n', at);
      events.push_back(nlohmann::json::parse(text.substr(at, end - at)));
      at = end + 1;
    }
    std::vector<std::string> kinds;
    for (const auto& e : events) {
      CHECK(e["schema_version"] == 1);
      kinds.push_back(e["event"].get<std::string>());
    }
    CHECK(kinds == std::vector<std::string>{"claimed", "replied", "done", "claimed", "done"});
    const std::string reply = events[1]["reply_id"].get<std::string>();
    const auto answer = h.get("alice", reply);
    CHECK(answer.body == "hello task_request/bob");
    CHECK(answer.type == "task_response");
    CHECK(answer.reply_to == std::optional<std::string>(task));
    CHECK(answer.trace.parent_span_id == std::optional<std::string>(h.get("bob", task).trace.span_id));
    for (const std::string& id : {task, note}) {
      const auto seen = h.get("bob", id);
      CHECK(seen.state->read);
      CHECK(seen.state->ack_state == mail::AckState::acked);
    }
  }

  TEST_CASE("watch retries a failing handler, then sets it aside and escalates once")
  {
    Harness h;
    const std::string id = h.send({"--as", "alice", "send", "bob", "--type", "task_request", "doomed"});
    REQUIRE(h.run({"--json", "--as", "bob", "watch", "--once", "--max-attempts", "2", "--exec", "/bin/sh",
                   "-c", "echo broken >&2; exit 3"}) == 0);
    CHECK(h.out.out_text().find("\"event\":\"failed\"") != std::string::npos);
    CHECK(h.out.out_text().find("exit status 3: broken") != std::string::npos);
    CHECK(h.out.out_text().find("set_aside") == std::string::npos);
    h.clock.advance(mail::handler_retry_after(1));
    REQUIRE(h.run({"--as", "bob", "watch", "--once", "--max-attempts", "2", "--exec", "/bin/sh", "-c",
                   "exit 3"}) == 0);
    CHECK(h.out.out_text().find("Set aside " + id + " after 2 attempts; escalation") != std::string::npos);
    auto inbox = h.store->check("alice", 5, std::nullopt);
    REQUIRE(inbox.ok());
    REQUIRE(inbox->messages.size() == 1);
    const auto& escalation = inbox->messages.front();
    CHECK(escalation.from == "mailroom");
    CHECK(escalation.type == "escalation");
    CHECK(escalation.body.find(id) != std::string::npos);
    CHECK_FALSE(h.get("bob", id).state->read);
    // Set aside: the next watch leaves it alone until mark-unread.
    h.clock.advance(60 * 60 * 1000);
    REQUIRE(h.run({"--as", "bob", "watch", "--once", "--exec", "true"}) == 0);
    CHECK(h.out.out_text().empty());
    REQUIRE(h.run({"--as", "bob", "mark-unread", id}) == 0);
    REQUIRE(h.run({"--as", "bob", "watch", "--once", "--exec", "true"}) == 0);
    CHECK(h.out.out_text().find("Done " + id) != std::string::npos);
  }

  TEST_CASE("watch counts output over the body cap as a failure")
  {
    Harness h;
    h.send({"--as", "alice", "send", "bob", "--type", "task_request", "flood"});
    REQUIRE(h.run({"--as", "bob", "watch", "--once", "--exec", "/bin/sh", "-c",
                   "head -c 20000000 /dev/zero"}) == 0);
    CHECK(h.out.out_text().find("output is larger than the body cap") != std::string::npos);
  }
}

} // namespace mailroom::cli
