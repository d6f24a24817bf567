#include "sqlstore/search_syntax.hpp"

namespace mailroom::providers::sqlstore {

namespace {

void render(const mail::SearchNode& node, const SearchSyntax& syntax, std::string& out)
{
  using Kind = mail::SearchNode::Kind;
  switch (node.kind) {
  case Kind::term:
    out += syntax.quote;
    for (const char c : node.text) {
      out += c;
      if (syntax.doubled.find(c) != std::string_view::npos) {
        out += c;
      }
    }
    out += syntax.quote;
    if (node.prefix) {
      out += syntax.prefix;
    }
    return;
  case Kind::all:
  case Kind::any: {
    out += '(';
    bool first = true;
    for (const mail::SearchNode& child : node.children) {
      if (!first) {
        out += node.kind == Kind::all ? syntax.all : syntax.any;
      }
      first = false;
      render(child, syntax, out);
    }
    out += ')';
    return;
  }
  case Kind::but_not:
    out += '(';
    render(node.children.at(0), syntax, out);
    out += syntax.but_not;
    render(node.children.at(1), syntax, out);
    out += ')';
    return;
  }
}

} // namespace

std::string render_search(const mail::SearchNode& query, const SearchSyntax& syntax)
{
  std::string out;
  render(query, syntax, out);
  return out;
}

} // namespace mailroom::providers::sqlstore
