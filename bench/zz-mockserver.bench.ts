import { writeFileSync } from 'node:fs';
import { geminiTextReply, startGeminiMock } from '@kodo/testkit';
const mock = await startGeminiMock();
const pieces = Array.from({ length: 1000 }, (_, i) => `lorem ipsum dolor sit amet ${i} ` + (i % 40 === 39 ? '\n\n' : ''));
mock.setScript([{ chunks: geminiTextReply(pieces), delayMs: 6 }, { chunks: geminiTextReply(pieces), delayMs: 6 }]);
writeFileSync('/tmp/mock-url', mock.url);
await new Promise((r) => setTimeout(r, 40000));
console.log(JSON.stringify(mock.requests.map((r) => [r.outcome, r.chunkSentAt.length])));
await mock.close();
