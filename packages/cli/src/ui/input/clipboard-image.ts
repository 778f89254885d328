import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { MAX_IMAGE_BYTES, sanitizeEnv } from '@kodo/core/engine';

/**
 * Ctrl+V with an image on the clipboard: the terminal sends nothing for an image, so kodo asks
 * the system's clipboard tool for one — `wl-paste` (Wayland), `xclip` (X11), or `osascript` on
 * macOS, whose `pbpaste` gives text only — saves it as a PNG file and hands back its path, which
 * the prompt attaches as it does any pasted image path. Which tool there is gets looked up on the
 * first paste only.
 */

export type ClipboardImage = { path: string } | { note: string };

type Tool = 'wl-paste' | 'xclip' | 'osascript';

export interface ClipboardOptions {
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Where pasted images are saved. */
  dir: string;
  timeoutMs?: number;
  now?: () => number;
}

const TIMEOUT_MS = 3000;

export class ClipboardImageReader {
  private tool: Tool | null | undefined;

  constructor(private readonly options: ClipboardOptions) {}

  async read(signal?: AbortSignal): Promise<ClipboardImage> {
    if (this.tool === undefined) this.tool = this.probe();
    if (this.tool === null) {
      return {
        note:
          (this.options.platform ?? process.platform) === 'darwin'
            ? 'Cannot read images from the clipboard: osascript was not found.'
            : 'Cannot read images from the clipboard: install wl-clipboard (Wayland) or xclip (X11).',
      };
    }
    let data: Buffer;
    try {
      data = await this.fetch(this.tool, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
        return { note: 'The clipboard image is too large to attach (at most 5 MiB).' };
      return {
        note: `The clipboard has no image (${this.tool}: ${(error as Error).message.split('\n')[0]}).`,
      };
    }
    if (data.length === 0 || !isPng(data)) return { note: 'The clipboard has no image.' };
    if (data.length > MAX_IMAGE_BYTES)
      return {
        note: `The clipboard image is too large to attach (${(data.length / 1024 / 1024).toFixed(1)} MiB, at most 5 MiB).`,
      };
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    const path = join(this.options.dir, `clipboard-${(this.options.now ?? Date.now)()}.png`);
    writeFileSync(path, data, { mode: 0o600 });
    return { path };
  }

  /** The first clipboard tool on PATH that fits the session (Wayland first when it runs). */
  private probe(): Tool | null {
    const { env } = this.options;
    const platform = this.options.platform ?? process.platform;
    const candidates: Tool[] =
      platform === 'darwin'
        ? ['osascript']
        : env.WAYLAND_DISPLAY
          ? ['wl-paste', 'xclip']
          : ['xclip', 'wl-paste'];
    return candidates.find((tool) => onPath(tool, env.PATH ?? '')) ?? null;
  }

  private async fetch(tool: Tool, signal: AbortSignal | undefined): Promise<Buffer> {
    if (tool === 'osascript') {
      // AppleScript writes the clipboard's PNG to a file; nothing is on stdout.
      mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
      const target = join(this.options.dir, `.clipboard-${process.pid}.png`);
      const script = [
        `set target to POSIX file "${target}"`,
        'set png to (the clipboard as «class PNGf»)',
        'set handle to open for access target with write permission',
        'set eof of handle to 0',
        'write png to handle',
        'close access handle',
      ].join('\n');
      await this.run('osascript', ['-e', script], signal);
      try {
        return statSync(target).isFile() ? readFileSync(target) : Buffer.alloc(0);
      } finally {
        rmSync(target, { force: true });
      }
    }
    if (tool === 'wl-paste') {
      const types = (await this.run('wl-paste', ['--list-types'], signal)).toString('utf8');
      if (!types.split('\n').includes('image/png')) return Buffer.alloc(0);
      return this.run('wl-paste', ['--no-newline', '--type', 'image/png'], signal);
    }
    const targets = (
      await this.run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o'], signal)
    ).toString('utf8');
    if (!targets.split('\n').includes('image/png')) return Buffer.alloc(0);
    return this.run('xclip', ['-selection', 'clipboard', '-t', 'image/png', '-o'], signal);
  }

  private run(command: string, args: string[], signal: AbortSignal | undefined): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      execFile(
        command,
        args,
        {
          env: sanitizeEnv(this.options.env),
          encoding: 'buffer',
          timeout: this.options.timeoutMs ?? TIMEOUT_MS,
          maxBuffer: MAX_IMAGE_BYTES + 1024,
          ...(signal ? { signal } : {}),
        },
        (error, stdout, stderr) => {
          if (error) {
            const said = stderr.toString('utf8').trim();
            reject(Object.assign(new Error(said || error.message), { code: error.code }));
          } else resolve(stdout);
        },
      );
    });
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isPng(data: Buffer): boolean {
  return data.subarray(0, 8).equals(PNG_SIGNATURE);
}

function onPath(command: string, path: string): boolean {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}
