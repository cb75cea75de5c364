// A test fixture for the official conformance suite's server scenarios, which send no
// Authorization: it forwards each request to Steward's /mcp with the mcp role's Bearer secret.
// The client's own loopback Host and Origin name this proxy and are re-addressed to the service;
// any other (a DNS-rebinding probe) goes through as it came, for the service to refuse.
import http from 'node:http';

const [, , targetPort, secret] = process.argv;

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: 'Bearer ' + secret };
  const own = String(server.address().port);
  const host = /^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/.exec(headers.host || '');
  if (host && host[2] === own) headers.host = host[1] + ':' + targetPort;
  const origin = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/.exec(headers.origin || '');
  if (origin && origin[2] === own) headers.origin = 'http://' + origin[1] + ':' + targetPort;
  const up = http.request(
    { host: '127.0.0.1', port: targetPort, path: req.url, method: req.method, headers },
    (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    },
  );
  up.on('error', (e) => {
    res.writeHead(502);
    res.end(String(e));
  });
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
