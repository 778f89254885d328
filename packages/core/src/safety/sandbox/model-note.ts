import type { SandboxPolicy } from '../../contracts/sandbox';

/**
 * What the model is told about the sandbox in the system prompt: enough to tell a sandbox
 * refusal from a bug, and to say so instead of working around it.
 */

export function bwrapModelNote(policy: SandboxPolicy): string {
  const lines = [
    `Shell commands run in a sandbox (${policy.network ? 'bwrap' : 'bwrap (no network)'}):`,
    '- They can write only inside the workspace (and paths the user allowed); the rest of the filesystem is read-only.',
    "- /tmp, /var/tmp and /dev/shm are private to this session: files there last between your commands but are not the user's /tmp, and nothing of the host's temp files is visible. Put anything the user should see in the workspace.",
    "- The user's home configuration and credentials (~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, ~/.npmrc, ~/.docker, ~/.gnupg, ~/.kube, browser profiles, agent logins) look empty.",
    "- The workspace's control files are read-only: .git/hooks, .git/config, .kodo/, .gemini/, .claude/, .vscode/ (so `git config`, `git remote add`, and `git init` where there is no repository, fail). Where they did not exist they appear as empty directories while a command runs; they are not part of the project.",
    policy.unixSockets.length === 0
      ? '- Unix sockets cannot be created (no Docker, D-Bus, SSH agent, database sockets); TCP/UDP sockets work.'
      : `- Of the host's unix sockets only these are reachable: ${policy.unixSockets.join(', ')}.`,
    policy.network
      ? '- The network is available.'
      : '- There is no network access: commands that download (npm install, git fetch, curl) will fail; say so instead of retrying.',
    '- Processes started in the background of a command end with it; use is_background for servers.',
    'When a command fails because of one of these limits, tell the user which setting (tools.sandbox in settings.json) would allow it instead of trying to get around it.',
  ];
  return `# Sandbox\n${lines.join('\n')}`;
}

export function seatbeltModelNote(policy: SandboxPolicy): string {
  return `# Sandbox\nShell commands run in a sandbox (sandbox-exec${policy.network ? '' : ', no network'}): they can write only inside the workspace and the temp directory, cannot see the user's home configuration or credentials, cannot change the workspace's control files (.git/hooks, .git/config, .kodo/, .gemini/, .claude/, .vscode/)${policy.network ? '' : ', and have no network access — commands that download (npm install, git fetch, curl) will fail; say so instead of retrying'}. When a command fails because of one of these limits, tell the user instead of trying to get around it.`;
}

/** Commands run unconfined, but in their own PID namespace. */
export const PID_NAMESPACE_NOTE =
  '# Shell\nShell commands are not sandboxed. Each runs in its own process namespace: processes it leaves in the background end when it does; use is_background for servers and watchers.';
