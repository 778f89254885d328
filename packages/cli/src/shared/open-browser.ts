import { spawn } from 'node:child_process';

/**
 * Opens a URL in the person's browser: `$BROWSER` when set (the usual convention; it can also
 * name a script, which is how tests stand in for a browser), otherwise the platform's opener.
 * Resolves once the opener started, or at once when there is none (no display on Linux): the
 * caller has already printed the URL for opening by hand. Never throws.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const command = openerFor(env);
  if (!command) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      const child = spawn(command.file, [...command.args, url], {
        stdio: 'ignore',
        detached: true,
        env,
        shell: false,
      });
      child.once('error', () => resolve());
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    } catch {
      resolve();
    }
  });
}

function openerFor(env: NodeJS.ProcessEnv): { file: string; args: string[] } | undefined {
  const browser = env.BROWSER?.trim();
  if (browser) {
    // `BROWSER` may hold several commands separated by ':'; the first one is tried.
    const [first = ''] = browser.split(':');
    const [file, ...args] = first.trim().split(/\s+/);
    return file ? { file, args } : undefined;
  }
  if (process.platform === 'darwin') return { file: 'open', args: [] };
  if (process.platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { file: 'xdg-open', args: [] };
  return undefined;
}
