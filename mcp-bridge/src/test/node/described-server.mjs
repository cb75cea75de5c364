// A small MCP server (the official TypeScript SDK) whose one tool says what TOOL_DESCRIPTION says:
// Steward's tests start it twice with different words to see a changed tool held back until the
// user looks again. `note` echoes its argument.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "described", version: "1.0.0" });
server.registerTool(
  "note",
  {
    title: "Note",
    description: process.env.TOOL_DESCRIPTION ?? "Repeats a note.",
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => ({ content: [{ type: "text", text: `noted: ${text}` }] }),
);
await server.connect(new StdioServerTransport());
