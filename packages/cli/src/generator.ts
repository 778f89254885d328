import { join } from 'node:path';
import {
  type ContentGenerator,
  createGeminiGenerator,
  FakeContentGenerator,
  kodoHome,
  LoggingContentGenerator,
  RecordingContentGenerator,
} from '@kodo/core/engine';
import { ExitCode, FatalError } from './exit-codes';

export interface GeneratorChoice {
  fakeResponses: string | undefined;
  fakeResponsesStrict: boolean;
  recordResponses: string | undefined;
  debug: boolean;
  sessionId: string;
  env: NodeJS.ProcessEnv;
}

export interface BuiltGenerator {
  generator: ContentGenerator;
  /** Where `--debug` writes its log, when on. */
  debugLogPath?: string;
  /** Resolves once recordings are on disk. */
  flush(): Promise<void>;
}

/**
 * The model backend for this run: the fake (replaying `--fake-responses`) or Gemini, wrapped for
 * `--record-responses` and `--debug`. Without a key or fake responses this fails with exit 41.
 */
export async function buildGenerator(choice: GeneratorChoice): Promise<BuiltGenerator> {
  let generator: ContentGenerator;
  if (choice.fakeResponses) {
    try {
      generator = FakeContentGenerator.fromFile(choice.fakeResponses, { strict: choice.fakeResponsesStrict });
    } catch (error) {
      throw new FatalError((error as Error).message, ExitCode.input);
    }
  } else {
    const apiKey = choice.env.GEMINI_API_KEY || choice.env.GOOGLE_API_KEY;
    if (!apiKey) {
      throw new FatalError(
        'No API key found. Set GEMINI_API_KEY (or GOOGLE_API_KEY) to your Gemini API key, e.g. `export GEMINI_API_KEY=…`, then run kodo again.',
        ExitCode.auth,
        'AuthError',
      );
    }
    const transport = choice.env.KODO_GEMINI_TRANSPORT === 'sdk' ? 'sdk' : 'lean';
    const baseUrl = choice.env.GOOGLE_GEMINI_BASE_URL || undefined;
    generator = await createGeminiGenerator({ apiKey, transport, ...(baseUrl ? { baseUrl } : {}) });
  }
  let recorder: RecordingContentGenerator | undefined;
  if (choice.recordResponses) {
    recorder = new RecordingContentGenerator(generator, choice.recordResponses);
    generator = recorder;
  }
  let debugLogPath: string | undefined;
  if (choice.debug) {
    debugLogPath = join(kodoHome(choice.env), 'logs', `debug-${choice.sessionId}.jsonl`);
    generator = new LoggingContentGenerator(generator, debugLogPath);
  }
  return {
    generator,
    ...(debugLogPath ? { debugLogPath } : {}),
    flush: async () => {
      await recorder?.flush();
    },
  };
}
