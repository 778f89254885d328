import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { geminiHome, kodoHome } from '../config/paths';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { readTextIfExists } from '../utils/fs-read';

/** A project agent file held back until the person acknowledges it. */
export interface PendingAgent {
  name: string;
  path: string;
  /** SHA-256 (hex) of the file's content, as acknowledged. */
  hash: string;
}

type AckFile = Record<string, Record<string, string>>;

/**
 * Which project agent files the person has acknowledged, as Gemini CLI records them:
 * `{"<project folder>": {"<agent>": "<sha256 of the file>"}}` in `acknowledgments/agents.json`.
 * kodo writes its own `~/.kodo/acknowledgments/agents.json` and also honours Gemini CLI's
 * `~/.gemini/acknowledgments/agents.json`, so an agent acknowledged there is not asked about
 * again. A new file, or an edited one (a different hash), is pending again.
 */
export class AgentAcknowledgements {
  private files: { kodo: AckFile; gemini: AckFile } | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** What the files are read through (discovery records them). */
    private readonly fs: DiscoveryFs = nodeDiscoveryFs,
  ) {}

  get file(): string {
    return join(kodoHome(this.env), 'acknowledgments', 'agents.json');
  }

  isAcknowledged(projectRoot: string, name: string, hash: string): boolean {
    const files = this.load();
    return files.kodo[projectRoot]?.[name] === hash || files.gemini[projectRoot]?.[name] === hash;
  }

  acknowledge(projectRoot: string, agents: readonly Pick<PendingAgent, 'name' | 'hash'>[]): void {
    const files = this.load();
    const project = { ...(files.kodo[projectRoot] ?? {}) };
    for (const agent of agents) project[agent.name] = agent.hash;
    files.kodo[projectRoot] = project;
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(files.kodo, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }

  private load(): { kodo: AckFile; gemini: AckFile } {
    this.files ??= {
      kodo: readAckFile(this.file, this.fs),
      gemini: readAckFile(join(geminiHome(this.env), 'acknowledgments', 'agents.json'), this.fs),
    };
    return this.files;
  }
}

/** The hash an acknowledgement records: SHA-256 of the file's text, hex. */
export function agentFileHash(text: string): string {
  // Loaded here, not at the top: only runs with project agent files pay for node:crypto.
  const crypto = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256').update(text).digest('hex');
}

function readAckFile(file: string, fs: DiscoveryFs): AckFile {
  const text = readTextIfExists(file, fs);
  if (text === undefined) return {};
  try {
    const data: unknown = JSON.parse(text);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as AckFile) : {};
  } catch {
    return {};
  }
}
