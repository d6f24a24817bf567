// mailroom schedule add and schedule edit: a schedule's rule (--every or --cron, --tz, --start,
// --until, --catch-up, --overlap) and send's message options. The operations are
// ops/schedules.hpp.

#include "cli/support.hpp"
#include "ops/schedules.hpp"
#include "schedule_commands.hpp"
#include "send_support.hpp"

namespace mailroom::cli {

namespace {

struct MessageOptions {
  std::vector<std::string> to; // positional recipients and --to
  std::vector<std::string> more_to;
  std::vector<std::string> cc;
  bool no_cc = false;
  std::optional<std::string> subject;
  std::optional<std::string> message;
  BodySource body;
  ops::Sending sending;
  bool notify = false;
  std::optional<std::string> for_name;
};

struct AddOptions {
  std::string name;
  ops::RuleOptions rule;
  MessageOptions message;
};

void add_rule_options(CLI::App& command, ops::RuleOptions& rule, bool edit)
{
  command.add_option("--every", rule.every, "a slot every DUR of elapsed time (whole seconds, e.g. 1h)")
      ->type_name("DUR");
  command.add_option("--cron", rule.cron, "slots by a cron expression: \"MIN HOUR DOM MON DOW\" or @daily…")
      ->type_name("EXPR");
  command
      .add_option("--tz", rule.tz, "the zone the rule and times are in (an IANA name, e.g. Europe/Berlin)")
      ->type_name("ZONE");
  command
      .add_option("--start", rule.start, "no slot before TIME (--every: its first slot); or a DUR from now")
      ->type_name("TIME");
  command.add_option("--until", rule.until, "no slot after TIME, or a DUR from now")->type_name("TIME");
  if (edit) {
    command.add_flag("--no-until", rule.no_until, "drop --until");
  }
  command
      .add_option("--catch-up", rule.catch_up, "after downtime: latest (fire the last slot, default) or skip")
      ->type_name("MODE");
  command
      .add_option("--overlap", rule.overlap,
                  "skip (default: not while the last firing's request is open) or send")
      ->type_name("MODE");
}

void add_message_options(CLI::App& command, MessageOptions& m, bool edit)
{
  command.add_option("--to", m.more_to, "a recipient (repeatable)")
      ->type_name("ADDR")
      ->allow_extra_args(false);
  command.add_option("--cc", m.cc, "a copy recipient (repeatable)")
      ->type_name("ADDR")
      ->allow_extra_args(false);
  if (edit) {
    command.add_flag("--no-cc", m.no_cc, "drop the copy recipients");
  }
  command.add_option("-s,--subject", m.subject, "the subject (default: the body's first line)");
  command.add_option("-m,--message", m.message, "the body");
  add_body_options(command, m.body);
  add_priority_options(command, m.sending);
  command.add_option("--type", m.sending.type, edit ? "message type" : "message type (default: cron_task)")
      ->type_name("TYPE");
  command
      .add_option("--ttl", m.sending.ttl,
                  "each message expires this long after its slot (default: the period)")
      ->type_name("DUR");
  command.add_flag("--ack", m.sending.ack, "track each message's deliveries until replied or acked");
  command.add_flag("--notify", m.notify, "run the [notify] command after each firing");
  command.add_option("--for", m.for_name, "the owner: schedule as NAME (an operator)")->type_name("NAME");
}

Result<ops::SendRequest> message_request(Context& ctx, const MessageOptions& m, bool body_required)
{
  ops::SendRequest request;
  request.to = m.to;
  request.to.insert(request.to.end(), m.more_to.begin(), m.more_to.end());
  request.cc = m.cc;
  request.subject = m.subject;
  TRY_ASSIGN(const std::optional<std::string> body, read_body(ctx, m.body, m.message));
  if (body_required && !body && !m.subject) {
    return usage_error("a schedule needs a message: -m BODY, -s SUBJECT, --body-file or --stdin");
  }
  request.body = body.value_or("");
  request.sending = m.sending;
  request.usage = "usage: mailroom schedule add NAME (--every DUR | --cron EXPR) <to>... -m BODY";
  return request;
}

Result<ExitCode> run_add(Context& ctx, const AddOptions& opts)
{
  ops::ScheduleAddRequest request;
  request.name = opts.name;
  request.for_name = opts.message.for_name;
  request.rule = opts.rule;
  TRY_ASSIGN(request.message, message_request(ctx, opts.message, true));
  request.notify = opts.message.notify;
  TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_add(ctx.session, request));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

Result<ExitCode> run_edit(Context& ctx, const AddOptions& opts)
{
  ops::ScheduleEditRequest request;
  request.name = opts.name;
  request.for_name = opts.message.for_name;
  request.rule = opts.rule;
  const MessageOptions& m = opts.message;
  request.to = m.to;
  request.to.insert(request.to.end(), m.more_to.begin(), m.more_to.end());
  request.cc = m.cc;
  request.no_cc = m.no_cc;
  request.subject = m.subject;
  TRY_ASSIGN(request.body, read_body(ctx, m.body, m.message));
  request.sending = m.sending;
  request.notify = m.notify;
  TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_edit(ctx.session, request));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_schedule_add(CLI::App& schedule, Invocation& inv)
{
  auto opts = std::make_shared<AddOptions>();
  CLI::App* add = schedule.add_subcommand("add", "make a schedule that sends a message on every slot");
  add->add_option("name", opts->name, "the schedule's name (unique among yours)")->required();
  add->add_option("to", opts->message.to, "recipients (mailboxes, @groups, @all)");
  add_rule_options(*add, opts->rule, false);
  add_message_options(*add, opts->message, false);
  add->footer("Examples:\n"
              "  mailroom schedule add nightly qa --cron \"0 9 * * mon-fri\" --tz Europe/Berlin \\\n"
              "      -s \"nightly report\" -m \"Send the nightly report\"\n"
              "  mailroom schedule add heartbeat ops --every 30m -m \"still alive?\" --overlap send");
  inv.on_select(*add, [opts](Context& ctx) { return run_add(ctx, *opts); });
}

void register_schedule_edit(CLI::App& schedule, Invocation& inv)
{
  auto opts = std::make_shared<AddOptions>();
  CLI::App* edit = schedule.add_subcommand("edit", "change a schedule's options (only those given)");
  edit->add_option("name", opts->name, "the schedule's name")->required();
  edit->add_option("to", opts->message.to, "new recipients (replace the old ones)");
  add_rule_options(*edit, opts->rule, true);
  add_message_options(*edit, opts->message, true);
  edit->footer("Example:\n  mailroom schedule edit nightly --cron \"30 8 * * mon-fri\"");
  inv.on_select(*edit, [opts](Context& ctx) { return run_edit(ctx, *opts); });
}

} // namespace mailroom::cli
