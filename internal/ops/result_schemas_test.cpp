// Every operation's result against its documented schema (contract "Schemas checked against
// results"): each operation runs on a real bead store with mail in every state a key depends on
// (acked, claimed, set aside, a request, a schedule, a firing), and its to_json must have every key
// its output schema requires, no key the schema leaves out, and the schema's types, at every
// depth (testing/json_schema.hpp). It ends by reading the ops headers: a to_json it did not check
// fails it, so a new result cannot go unchecked.

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "mail/claims.hpp"
#include "ops/agents.hpp"
#include "ops/archive_matching.hpp"
#include "ops/change.hpp"
#include "ops/check.hpp"
#include "ops/count.hpp"
#include "ops/errors.hpp"
#include "ops/events.hpp"
#include "ops/inbox.hpp"
#include "ops/migrate.hpp"
#include "ops/peek.hpp"
#include "ops/purge.hpp"
#include "ops/read.hpp"
#include "ops/registry.hpp"
#include "ops/requests.hpp"
#include "ops/schedule_firing.hpp"
#include "ops/schedules.hpp"
#include "ops/search.hpp"
#include "ops/send.hpp"
#include "ops/sent.hpp"
#include "ops/sweep.hpp"
#include "ops/thread.hpp"
#include "ops/traces.hpp"
#include "ops/transfer.hpp"
#include "ops/views.hpp"
#include "ops/wait.hpp"
#include "ops/wake.hpp"
#include "ops/whoami.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/json_schema.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

// Checks results against their schemas and keeps the names of the result types it checked (the
// names of their to_json's parameter types).
struct Checker {
  std::set<std::string> checked;

  void operator()(const std::string& name, const nlohmann::json& schema, const nlohmann::json& doc)
  {
    CAPTURE(name);
    CAPTURE(doc.dump());
    for (const std::string& difference : testing::schema_differences(schema, doc)) {
      FAIL_CHECK(difference);
    }
    checked.insert(name);
  }
};

// A file store of alice, bob and carol, and a session per caller.
struct Store {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{{"TZ", "UTC"}}, "/"};
  std::filesystem::path dir = testing::make_temp_dir("result-schemas");

  Store()
  {
    mail::StoreSettings settings;
    settings.path = (dir / "mail.db").string();
    settings.access = mail::Access::create;
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
  }
};

struct Caller {
  config::Identity me;
  ProviderSlot slot;
  Session session;

  Caller(Store& world, const std::string& name)
      : me{name, config::default_origin()},
        slot(*world.store), session{world.config, world.policy, world.clock, me, world.env, slot}
  {
    session.presence = mail::SeenVia::command;
  }
};

SendRequest message_to(std::vector<std::string> names, std::string subject)
{
  SendRequest request;
  request.to = std::move(names);
  request.subject = std::move(subject);
  request.body = "body of " + request.subject.value_or("");
  return request;
}

template <typename T> T must(Result<T> result)
{
  if (!result.ok()) {
    FAIL_CHECK(result.error().message);
  }
  REQUIRE(result.ok());
  return std::move(result).value();
}

// Every parameter list of a to_json declared in internal/ops/*.hpp, as "Type" or "A,B".
std::set<std::string> declared_results()
{
  const std::filesystem::path ops = std::filesystem::path(MAILROOM_TESTDATA_DIR) / ".." / "internal" / "ops";
  const std::regex declaration(R"(nlohmann::json to_json\(([^)]*)\);)");
  const std::regex parameter(R"(const ([A-Za-z_:]+)&)");
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ops)) {
    if (entry.path().extension() != ".hpp") {
      continue;
    }
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), declaration), end; it != end; ++it) {
      const std::string parameters = (*it)[1];
      std::string name;
      for (std::sregex_iterator p(parameters.begin(), parameters.end(), parameter); p != end; ++p) {
        name += (name.empty() ? "" : ",") + (*p)[1].str();
      }
      names.insert(name);
    }
  }
  return names;
}

} // namespace

TEST_SUITE("mailroom::ops result schemas")
{
  TEST_CASE("every result's JSON is its documented schema: no key missing, none undocumented")
  {
    Store world;
    Checker conforms;
    Caller alice(world, "alice");
    Caller bob(world, "bob");
    Caller carol(world, "carol");

    // Mail in the states the keys depend on: an acked request, a read one, a claimed one, one
    // set aside, a reply, a redelivered delivery.
    SendRequest request = message_to({"bob", "carol"}, "deploy the release");
    request.sending.ack = true;
    request.sending.type = "task_request";
    const SendResult sent = must(send(alice.session, request));
    conforms("SendResult", send_output_schema(), to_json(sent));
    const mail::MessageId asked = sent.receipts.front().message.id;
    world.clock.advance(1000);
    const SendResult other = must(send(alice.session, message_to({"bob"}, "lunch")));
    const mail::MessageId lunch = other.receipts.front().message.id;
    world.clock.advance(1000);
    mail::ClaimRequest claim;
    claim.mailbox = "bob";
    claim.types = {"message"};
    claim.watcher = "host:1";
    claim.lease_ms = 600000;
    const auto claimed = mailroom::testing::reach(*world.store).claim_next(claim);
    REQUIRE(claimed.ok());
    REQUIRE(claimed->claim.has_value());
    CHECK(claimed->claim->message.id == lunch);
    mail::ClaimRequest aside = claim;
    aside.mailbox = "carol";
    aside.types = {"task_request"};
    aside.max_attempts = 0;
    const auto set_aside = mailroom::testing::reach(*world.store).claim_next(aside);
    REQUIRE(set_aside.ok());
    CHECK(set_aside->set_aside.has_value());

    ReplyRequest answer;
    answer.id = asked;
    answer.body = "done";
    const ReplyResult replied = must(reply(carol.session, answer));
    conforms("ReplyResult", reply_output_schema(), to_json(replied));
    world.clock.advance(1000);

    conforms("CountResult", count_output_schema(), to_json(must(count(bob.session, CountRequest{}))));
    conforms("CheckResult", check_output_schema(), to_json(must(check(bob.session, CheckRequest{}))));
    conforms("InboxResult", inbox_output_schema(), to_json(must(inbox(bob.session, InboxRequest{}))));
    conforms("SentResult", sent_output_schema(), to_json(must(ops::sent(alice.session, SentRequest{}))));
    SearchRequest words;
    words.words = {"deploy"};
    conforms("SearchResult", search_output_schema(), to_json(must(search(bob.session, words))));
    conforms("PeekResult", peek_output_schema(), to_json(must(peek(bob.session, PeekRequest{asked}))));
    nlohmann::json read_doc;
    const ReadDeliver deliver = [&](const ReadResult& result) -> Result<void> {
      read_doc = to_json(result);
      return {};
    };
    must(ops::read(bob.session, ReadRequest{asked, std::nullopt}, deliver));
    conforms("ReadResult", read_output_schema(), read_doc);
    conforms("ThreadResult", thread_output_schema(),
             to_json(must(thread(bob.session, ThreadRequest{asked}))));
    const StatusResult status_result = must(status(alice.session, StatusRequest{asked}));
    conforms("StatusResult", status_output_schema(), to_json(status_result));
    conforms("StatusResult", status_output_schema(),
             to_json(must(status(alice.session, StatusRequest{lunch}))));
    conforms("TraceResult", trace_output_schema(), to_json(must(trace(alice.session, TraceRequest{asked}))));
    conforms("PeersResult", peers_output_schema(), to_json(must(peers(alice.session, PeersRequest{}))));
    conforms("PairsResult", pairs_output_schema(), to_json(must(pairs(alice.session, PairsRequest{}))));
    conforms("TeamResult", team_output_schema(), to_json(must(team(alice.session, TeamRequest{}))));
    conforms("AgentsResult", agents_output_schema(), to_json(must(agents(alice.session, AgentsRequest{}))));
    conforms("RecentTracesResult", recent_traces_output_schema(),
             to_json(must(recent_traces(alice.session, RecentTracesRequest{}))));

    // The event log, a page and one event.
    EventsRequest from_start;
    from_start.after_seq = 0;
    const EventsResult page = must(ops::events(alice.session, from_start));
    REQUIRE_FALSE(page.events.empty());
    conforms("EventsResult", events_output_schema(), to_json(page));
    conforms("mail::Event", event_output_schema(), to_json(page.events.front()));

    // Requests: a decline and a cancel.
    SendRequest job = message_to({"bob", "carol"}, "rebuild the index");
    job.sending.type = "task_request";
    const mail::MessageId job_id = must(send(alice.session, job)).receipts.front().message.id;
    RespondRequest decline;
    decline.id = job_id;
    decline.text = "no time";
    conforms("RespondResult", respond_output_schema(), to_json(must(respond(bob.session, decline))));
    CancelRequest withdraw;
    withdraw.id = job_id;
    withdraw.reason = "not needed";
    conforms("CancelResult", cancel_output_schema(), to_json(must(cancel(alice.session, withdraw))));

    // Waiting: a reply that is there already, alone and after a send.
    WaitRequest waiting;
    waiting.reply_to = asked;
    waiting.deadline = std::chrono::steady_clock::now();
    WaitResult waited =
        must(wait(alice.session, waiting, [](const WaitResult&) -> Result<void> { return {}; }));
    conforms("WaitResult", wait_output_schema(), to_json(waited));
    conforms("SendResult,WaitResult", send_wait_output_schema(), to_json(sent, waited));
    WaitRequest nothing;
    nothing.from = "carol";
    nothing.deadline = std::chrono::steady_clock::now();
    waited = must(wait(bob.session, nothing, [](const WaitResult&) -> Result<void> { return {}; }));
    conforms("WaitResult", wait_output_schema(), to_json(waited));

    // Changes.
    ChangeRequest archive;
    archive.ids = {asked, "mr-000000000000"};
    archive.change = mail::Change::archive;
    const ChangeReport report = [](const std::string&, const std::string&,
                                   const Result<mail::ChangeOutcome>&) -> Result<void> { return {}; };
    const ChangeResult changed = must(change(bob.session, archive, report));
    CHECK_FALSE(changed.failed.empty());
    conforms("ChangeResult", change_output_schema(), to_json(changed));
    conforms("MarkAllReadResult", change_output_schema(), to_json(must(mark_all_read(carol.session))));
    ArchiveMatchRequest matching;
    matching.to = "bob";
    matching.filter.from = "alice";
    matching.dry_run = true;
    conforms("ArchiveMatchResult", archive_matching_output_schema(),
             to_json(must(archive_matching(bob.session, matching))));

    // Schedules: added, sent later, fired now, listed, shown, paused.
    ScheduleAddRequest daily;
    daily.name = "standup";
    daily.rule.every = "1h";
    daily.rule.tz = "UTC";
    daily.message = message_to({"bob"}, "standup");
    daily.message.sending.type = "task_request";
    conforms("ScheduleResult", schedule_result_output_schema(),
             to_json(must(schedule_add(alice.session, daily))));
    SendLaterRequest later;
    later.send = message_to({"carol"}, "reminder");
    later.in = "2h";
    conforms("SendLaterResult", send_later_output_schema(), to_json(must(send_later(alice.session, later))));
    conforms("FireResult", fire_output_schema(),
             to_json(must(schedule_run_now(alice.session, RunNowRequest{"standup", std::nullopt}))));
    conforms("ScheduleListResult", schedule_list_output_schema(),
             to_json(must(schedule_list(alice.session, ScheduleListRequest{}))));
    ScheduleShowRequest show;
    show.name = "standup";
    conforms("ScheduleShowResult", schedule_show_output_schema(),
             to_json(must(schedule_show(alice.session, show))));
    ScheduleChangeRequest pause;
    pause.names = {"standup"};
    conforms("ScheduleChangeResult", schedule_change_output_schema(),
             to_json(must(schedule_change(alice.session, pause))));

    // The sweep, with redelivery on and a delivery due again.
    world.policy.redelivery.enabled = true;
    world.clock.advance(3 * 24 * 3600 * 1000LL);
    SweepRequest pass;
    pass.dry_run = true;
    std::optional<SweepResult> swept;
    SweepEvents events;
    events.pass = [&](const SweepResult& result) -> Result<void> {
      swept = result;
      return {};
    };
    must(sweep(alice.session, pass, events));
    REQUIRE(swept.has_value());
    conforms("SweepResult", sweep_output_schema(), to_json(*swept));

    // The registry, the store's upkeep and a transfer.
    conforms("AgentsChangeResult", agents_change_output_schema(),
             to_json(must(add_agents(alice.session, AgentsChangeRequest{{"dave", "bob"}}))));
    PurgeRequest purging;
    purging.archived = true;
    purging.older_than = "1s";
    purging.dry_run = true;
    conforms("PurgeResult", purge_output_schema(), to_json(must(purge(alice.session, purging))));
    conforms("MigrateResult", migrate_output_schema(),
             to_json(must(migrate(alice.session, MigrateRequest{}))));
    std::string exported;
    must(export_mail(alice.session, ExportRequest{}, [&](std::string_view bytes) -> Result<void> {
      exported += bytes;
      return {};
    }));
    ImportRequest again;
    std::size_t offset = 0;
    again.read_stdin = [&](char* buffer, std::size_t size) -> Result<std::size_t> {
      const std::size_t n = std::min(size, exported.size() - offset);
      std::copy_n(exported.data() + offset, n, buffer);
      offset += n;
      return n;
    };
    conforms("ImportResult", import_output_schema(), to_json(must(import_mail(alice.session, again))));

    // An error, as every surface writes it.
    auto missing = peek(bob.session, PeekRequest{"mr-ffffffffffff"});
    REQUIRE_FALSE(missing.ok());
    conforms("error", error_output_schema(), error_to_json(missing.error()));

    // A wake target set (an argv: `true`), the wakes of an urgent message to it run here, and a
    // target removed.
    conforms("WakeSetResult", wake_set_output_schema(),
             to_json(must(set_wake(alice.session, WakeSetRequest{"carol", {"true"}, false}))));
    SendRequest urgent = message_to({"carol"}, "wake up");
    urgent.sending.urgent = true;
    const mail::MessageId woken = must(send(alice.session, urgent)).receipts.front().message.id;
    WakeRunRequest wakes;
    wakes.messages = {woken};
    const WakeRunReport woke = must(run_wakes(alice.session, wakes));
    CHECK(woke.ran.size() + woke.settled.size() == 1);
    conforms("WakeRunReport", wake_run_output_schema(), to_json(woke));
    conforms("WakeSetResult", wake_set_output_schema(),
             to_json(must(set_wake(alice.session, WakeSetRequest{"carol", {}, true}))));
    conforms("WakeStatusResult", wake_status_output_schema(),
             to_json(must(wake_status(alice.session, WakeStatusRequest{}))));
    conforms("WhoamiResult", whoami_output_schema(), to_json(whoami(alice.session)));

    // Every to_json of internal/ops was checked above. WatchEvent is the one free-form result:
    // each watch event is a line of its own shape (docs/cli.md, "watch"; watch_reports.cpp).
    const std::set<std::string> unchecked = {"WatchEvent"};
    const std::set<std::string> declared = declared_results();
    CHECK_MESSAGE(declared.size() > 30, "internal/ops's headers were not found");
    for (const std::string& name : declared) {
      if (unchecked.count(name) == 0 && conforms.checked.count(name) == 0) {
        FAIL_CHECK("to_json(" << name << ") is not checked against its schema here");
      }
    }
  }
}

} // namespace mailroom::ops
