// The official TypeScript SDK's client — the one Claude Desktop, Claude Code, Cursor and VS Code
// are built on — timing tools/call against a stdio server, in blocks the Java bench asks for.
// Usage: node bench-client.mjs '<{"command", "args", "env", "tool", "arguments", "expect"}>';
// then each line "N" on stdin runs N calls and prints their times (ms) on one line; "quit" ends.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createInterface } from "node:readline";

const setup = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: setup.command, args: setup.args, env: setup.env, stderr: "ignore",
});
const client = new Client({ name: "steward-bench-ts-sdk", version: "1.0.0" });
await client.connect(transport);
const request = { name: setup.tool, arguments: setup.arguments };

async function call() {
  const r = await client.callTool(request);
  const text = (r.content ?? []).map((c) => c.text ?? "").join("");
  if (r.isError || !text.includes(setup.expect)) throw new Error("the call failed: " + JSON.stringify(r));
}

await call();
console.log("ready");
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "quit") break;
  const times = [];
  for (let i = 0; i < Number(line); i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  console.log(times.join(" "));
}
await client.close();
