// How many tools `mailroom mcp` lists (docs/mcp.md): written once, for every suite that counts them.
export const TOOL_COUNT = 30;
