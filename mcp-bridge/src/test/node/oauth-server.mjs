// An MCP server at a URL that only a signed-in client may use, built from the official
// TypeScript SDK's own OAuth parts: its authorization server router (registration, PKCE, the
// resource checked strictly) over the SDK's demo provider, which approves at once as a user who
// has just signed in would, and its bearer middleware and protected-resource metadata in front of
// a tool. Prints {"url": ...} once both listen. The tool answers which client it was called by.
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, mcpAuthMetadataRouter, createOAuthMetadata, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';

function listen(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const authApp = express();
const mcpApp = express();
const authServer = await listen(authApp);
const mcpServer = await listen(mcpApp);
const issuerUrl = new URL(`http://127.0.0.1:${authServer.address().port}`);
const mcpUrl = new URL(`http://127.0.0.1:${mcpServer.address().port}/mcp`);
const expected = resourceUrlFromServerUrl(mcpUrl).toString();
const provider = new DemoInMemoryAuthProvider((resource) => !!resource && resource.toString() === expected);

authApp.use(express.json());
authApp.use(express.urlencoded({ extended: false }));
authApp.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ['notes'] }));

const oauthMetadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ['notes'] });
mcpApp.use(express.json());
mcpApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ['notes'], resourceName: 'Notes' }));
const bearer = requireBearerAuth({
  verifier: provider,
  requiredScopes: [],
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
});
mcpApp.post('/mcp', bearer, async (req, res) => {
  const server = new McpServer({ name: 'signed-in-notes', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'Says which client called.', inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => ({
      content: [{ type: 'text', text: 'called by ' + (extra.authInfo?.clientId ?? 'nobody') }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
mcpApp.get('/mcp', (req, res) => res.status(405).end());

console.log(JSON.stringify({ url: mcpUrl.toString() }));
