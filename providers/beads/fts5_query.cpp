#include "beads/fts5_query.hpp"

namespace mailroom::providers::beads {

namespace {

void render(const mail::SearchNode& node, std::string& out)
{
  using Kind = mail::SearchNode::Kind;
  switch (node.kind) {
  case Kind::term:
    out += '"';
    for (const char c : node.text) {
      out += c;
      if (c == '"') {
        out += '"';
      }
    }
    out += '"';
    if (node.prefix) {
      out += '*';
    }
    return;
  case Kind::all:
  case Kind::any: {
    out += '(';
    bool first = true;
    for (const mail::SearchNode& child : node.children) {
      if (!first) {
        out += node.kind == Kind::all ? " AND " : " OR ";
      }
      first = false;
      render(child, out);
    }
    out += ')';
    return;
  }
  case Kind::but_not:
    out += '(';
    render(node.children.at(0), out);
    out += " NOT ";
    render(node.children.at(1), out);
    out += ')';
    return;
  }
}

} // namespace

std::string render_fts5_match(const mail::SearchNode& query)
{
  std::string out;
  render(query, out);
  return out;
}

} // namespace mailroom::providers::beads
