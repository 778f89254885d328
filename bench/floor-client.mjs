// The floor for kodo's startup benchmark: a bare node script that only sends one streaming
// request to the mock server with node:http and reads the reply.
//
// `node:http` is taken with process.getBuiltinModule, as kodo takes it, not with an `import`
// statement: Node links an imported built-in through a facade that reads every export, and on
// Node 22+ that loads undici (50–65 ms), which made the floor there slower than kodo's own
// work and its ratios look better than they were (docs/performance.md, session 13).
const { request } = process.getBuiltinModule('node:http');

const url = new URL(`${process.env.FLOOR_BASE_URL}/v1beta/models/floor:streamGenerateContent?alt=sse`);
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
const req = request(
  url,
  { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' } },
  (res) => {
    res.resume();
    res.on('end', () => process.stdout.write('ok\n'));
  },
);
req.end(body);
