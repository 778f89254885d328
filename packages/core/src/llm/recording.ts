import type { ContentGenerator } from '../contracts/content-generator';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../contracts/messages';
import { fsPromises } from '../utils/fs-async';
import type { RecordedCall } from './fake';

/**
 * Wraps any generator and appends one JSONL line per model call in the `--fake-responses` format,
 * so a real session can be replayed later. Only candidates and usage are kept: never requests,
 * keys or headers. A stream's line is written once the stream has been fully consumed.
 */
export class RecordingContentGenerator implements ContentGenerator {
  readonly provider: string;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: ContentGenerator,
    private readonly path: string,
  ) {
    this.provider = inner.provider;
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    const response = await this.inner.generateContent(request, signal);
    await this.append({ method: 'generateContent', response: keepResponseFields(response) });
    return response;
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const chunks: GenerateResponse[] = [];
    for await (const chunk of this.inner.generateContentStream(request, signal)) {
      chunks.push(keepResponseFields(chunk));
      yield chunk;
    }
    await this.append({ method: 'generateContentStream', response: chunks });
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    const response = await this.inner.countTokens(request, signal);
    const kept: CountTokensResponse = { totalTokens: response.totalTokens };
    if (response.cachedContentTokenCount !== undefined)
      kept.cachedContentTokenCount = response.cachedContentTokenCount;
    await this.append({ method: 'countTokens', response: kept });
    return response;
  }

  /** Resolves when every line so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  private append(call: RecordedCall): Promise<void> {
    const line = `${JSON.stringify(call)}\n`;
    // Serialise writes so lines never interleave and keep call order.
    this.writes = this.writes.then(async () => {
      const { appendFile } = await fsPromises();
      await appendFile(this.path, line, 'utf8');
    });
    return this.writes;
  }
}

function keepResponseFields(response: GenerateResponse): GenerateResponse {
  const kept: GenerateResponse = {};
  if (response.candidates !== undefined) kept.candidates = response.candidates;
  if (response.usageMetadata !== undefined) kept.usageMetadata = response.usageMetadata;
  return kept;
}
