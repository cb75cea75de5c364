// A small MCP server (the official TypeScript SDK) whose one tool says what TOOL_DESCRIPTION says:
// Steward's tests start it twice with different words to see a changed tool held back until the
// user looks again. `note` echoes its argument; `wait` waits, and says on stderr when the client
// cancels it (notifications/cancelled reached the server). TOOL_NAMES, a comma-separated list,
// adds an echo tool of each name (names that read alike once made model-safe).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "described", version: "1.0.0" });
server.registerTool(
  "note",
  {
    title: "Note",
    description: process.env.TOOL_DESCRIPTION ?? "Repeats a note.",
    inputSchema: { text: z.string().describe(process.env.ARG_DESCRIPTION ?? "What to note.") },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => ({ content: [{ type: "text", text: `noted: ${text}` }] }),
);
server.registerTool(
  "wait",
  {
    description: "Waits the given seconds; says on stderr when a client cancels it.",
    inputSchema: { seconds: z.number() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ seconds }, extra) =>
    new Promise((resolve) => {
      const timer = setTimeout(
        () => resolve({ content: [{ type: "text", text: `waited ${seconds} s` }] }),
        seconds * 1000,
      );
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        console.error(`cancelled request ${extra.requestId}`);
        resolve({ content: [{ type: "text", text: "cancelled" }] });
      });
    }),
);
for (const name of (process.env.TOOL_NAMES ?? "").split(",").filter((n) => n)) {
  server.registerTool(
    name,
    { description: "Echoes its text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `${name}: ${text}` }] }),
  );
}
await server.connect(new StdioServerTransport());
