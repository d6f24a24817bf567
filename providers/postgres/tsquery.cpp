#include "postgres/tsquery.hpp"

namespace mailroom::providers::postgres {

namespace {

void render(const mail::SearchNode& node, std::string& out)
{
  using Kind = mail::SearchNode::Kind;
  switch (node.kind) {
  case Kind::term:
    out += '\'';
    for (const char c : node.text) {
      if (c == '\'' || c == '\\') {
        out += c == '\'' ? '\'' : '\\';
      }
      out += c;
    }
    out += '\'';
    if (node.prefix) {
      out += ":*";
    }
    return;
  case Kind::all:
  case Kind::any: {
    out += '(';
    bool first = true;
    for (const mail::SearchNode& child : node.children) {
      if (!first) {
        out += node.kind == Kind::all ? " & " : " | ";
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
    out += " & !";
    render(node.children.at(1), out);
    out += ')';
    return;
  }
}

} // namespace

std::string render_tsquery(const mail::SearchNode& query)
{
  std::string out;
  render(query, out);
  return out;
}

} // namespace mailroom::providers::postgres
