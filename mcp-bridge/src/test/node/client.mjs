// An MCP client written with the official TypeScript SDK: it launches `steward mcp` over stdio,
// lists the tools and makes the calls given as JSON on the command line, and prints one JSON
// object with what it saw. Usage: node client.mjs <steward launcher> '<calls as JSON>'; an entry
// {"sleep_ms": N} waits between calls.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [launcher, callsJson] = process.argv.slice(2);
const env = {};
for (const key of ["STEWARD_HOME", "STEWARD_NO_BUILD", "JAVA_TOOL_OPTIONS", "PATH", "HOME"]) {
  if (process.env[key] !== undefined) env[key] = process.env[key];
}
const transport = new StdioClientTransport({ command: launcher, args: ["mcp"], env, stderr: "inherit" });
const client = new Client({ name: "ts-sdk-test-client", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const results = [];
for (const call of JSON.parse(callsJson)) {
  if (call.sleep_ms) {
    await new Promise((resolve) => setTimeout(resolve, call.sleep_ms));
    continue;
  }
  try {
    results.push(await client.callTool({ name: call.name, arguments: call.arguments },
      undefined, { timeout: 180000 }));
  } catch (e) {
    results.push({ protocolError: String(e) });
  }
}
console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools: listed.tools.map((t) => ({ name: t.name, title: t.title, annotations: t.annotations,
    hasInput: !!t.inputSchema, hasOutput: !!t.outputSchema })),
  results,
}));
await client.close();
