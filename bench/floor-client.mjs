// The floor for kodo's startup benchmark: a bare node script that only sends one streaming
// request to the mock server with node:http and reads the reply.
import { request } from 'node:http';

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
