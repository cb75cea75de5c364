// An MCP client written with the official TypeScript SDK that connects to Steward's Streamable
// HTTP endpoint: it lists the tools and makes the calls given as JSON, asking for progress, and
// prints one JSON object with what it saw. Usage: node http-client.mjs <url> <bearer secret>
// '<calls as JSON>' ['<client name>']; the secret "" sends no Authorization header. A call with
// "abort_after_ms" is stopped by the client after that long (the SDK sends notifications/cancelled).
// It ends its session when done.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, secret, callsJson, name] = process.argv.slice(2);
const headers = secret ? { Authorization: `Bearer ${secret}` } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: name || "ts-sdk-http-client", version: "1.0.0" });
try {
  await client.connect(transport);
} catch (e) {
  console.log(JSON.stringify({ connectError: String(e) }));
  process.exit(0);
}
const listed = await client.listTools();
const results = [];
const progress = [];
for (const call of JSON.parse(callsJson)) {
  const abort = new AbortController();
  if (call.abort_after_ms) setTimeout(() => abort.abort("the user pressed stop"), call.abort_after_ms);
  const started = Date.now();
  try {
    results.push(await client.callTool({ name: call.name, arguments: call.arguments }, undefined,
      { timeout: 180000, signal: abort.signal, onprogress: (p) => progress.push(p.message ?? "") }));
  } catch (e) {
    results.push({ protocolError: String(e), ms: Date.now() - started });
  }
  // A cancellation is a notification: give it time to travel before the next call or the end.
  if (call.abort_after_ms) await new Promise((resolve) => setTimeout(resolve, 1500));
}
console.log(JSON.stringify({
  server: client.getServerVersion(),
  session: transport.sessionId ?? null,
  tools: listed.tools.map((t) => ({ name: t.name, title: t.title, annotations: t.annotations,
    hasInput: !!t.inputSchema, hasOutput: !!t.outputSchema })),
  results,
  progress,
}));
// As a client that is done: the session is ended (DELETE), then the connection closed.
await transport.terminateSession();
await client.close();
