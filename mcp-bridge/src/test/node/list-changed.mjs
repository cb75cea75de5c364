// An MCP client (the official TypeScript SDK) that launches `steward mcp`, prints "ready" once it
// has listed the tools, then waits for notifications/tools/list_changed and lists again until a
// tool whose name starts with the given prefix is there; it prints what it saw as one JSON line.
// Usage: node list-changed.mjs <steward launcher> <prefix>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [launcher, prefix] = process.argv.slice(2);
const env = {};
for (const key of ["STEWARD_HOME", "STEWARD_NO_BUILD", "JAVA_TOOL_OPTIONS", "PATH", "HOME"]) {
  if (process.env[key] !== undefined) env[key] = process.env[key];
}
const transport = new StdioClientTransport({ command: launcher, args: ["mcp"], env, stderr: "inherit" });
const client = new Client({ name: "list-changed-test-client", version: "1.0.0" });
let notifications = 0;
let found = null;
const done = new Promise((resolve) => {
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    notifications++;
    const listed = await client.listTools();
    const tool = listed.tools.find((t) => t.name.startsWith(prefix));
    if (tool && !found) {
      found = tool;
      resolve();
    }
  });
});
await client.connect(transport);
const first = await client.listTools();
console.log("ready");
const timeout = new Promise((resolve) => setTimeout(resolve, 90000));
await Promise.race([done, timeout]);
console.log(JSON.stringify({
  capabilities: client.getServerCapabilities(),
  first: first.tools.map((t) => t.name),
  notifications,
  found,
}));
await client.close();
process.exit(found ? 0 : 1);
