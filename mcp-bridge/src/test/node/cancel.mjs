// An MCP client (the official TypeScript SDK) that launches `steward mcp`, calls one tool and
// aborts the call after a while (the SDK sends notifications/cancelled); prints what happened as
// one JSON line. Usage: node cancel.mjs <steward launcher> <tool> '<arguments JSON>' <abort after ms>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [launcher, tool, argsJson, afterMs] = process.argv.slice(2);
const env = {};
for (const key of ["STEWARD_HOME", "STEWARD_NO_BUILD", "JAVA_TOOL_OPTIONS", "PATH", "HOME"]) {
  if (process.env[key] !== undefined) env[key] = process.env[key];
}
const transport = new StdioClientTransport({ command: launcher, args: ["mcp"], env, stderr: "inherit" });
const client = new Client({ name: "cancel-test-client", version: "1.0.0" });
await client.connect(transport);
const abort = new AbortController();
const started = Date.now();
setTimeout(() => abort.abort("the user pressed stop"), Number(afterMs));
let outcome;
try {
  const result = await client.callTool({ name: tool, arguments: JSON.parse(argsJson) }, undefined,
    { signal: abort.signal, timeout: 120000 });
  outcome = { result };
} catch (e) {
  outcome = { error: String(e) };
}
outcome.ms = Date.now() - started;
// Give the cancellation time to travel before this client (and with it the bridge) goes.
await new Promise((resolve) => setTimeout(resolve, 2000));
console.log(JSON.stringify(outcome));
await client.close();
