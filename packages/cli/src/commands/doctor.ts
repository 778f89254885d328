import { loadDoctorModule } from '@kodo/core/engine';
import { asksForHelp } from './asks-for-help';

export interface DoctorCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const DOCTOR_HELP = `Usage: kodo doctor [--json]

Shows what kodo found on this machine: which files of Gemini CLI, Claude Code and Codex it
honours, maps or ignores and why; the extensions, commands, skills and agents it loads; whether
the sandbox (bwrap), the shell parser, ripgrep and the PTY work; proxy settings; which API keys
are set (names only); the Node version. --json prints the same as one JSON object.
`;

/** `kodo doctor [--json]`: exit 0 when every check passes, 1 when one fails. */
export async function runDoctorCommand(context: DoctorCommandContext): Promise<number> {
  if (asksForHelp(context.args)) {
    context.stdout.write(DOCTOR_HELP);
    return 0;
  }
  const unknown = context.args.filter((arg) => arg !== '--json');
  if (unknown.length > 0) {
    context.stderr.write(`[ERROR] kodo doctor: unknown argument ${unknown[0]} (see kodo doctor --help)\n`);
    return 1;
  }
  const report = await (await loadDoctorModule()).runDoctorChecks({ cwd: context.cwd, env: context.env });
  const failed = report.checks.some((check) => !check.ok);
  if (context.args.includes('--json')) {
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return failed ? 1 : 0;
  }
  const lines: string[] = [`kodo doctor (Node ${report.node})`, '', 'Files:'];
  if (report.files.length === 0) lines.push('  none of Gemini CLI, Claude Code or Codex found');
  for (const file of report.files) lines.push(`  ${file.status.padEnd(8)} ${file.path}: ${file.why}`);
  lines.push('', 'Loaded:');
  for (const [kind, names] of Object.entries(report.found)) {
    if (kind === 'warnings' || kind === 'notes') continue;
    lines.push(`  ${kind}: ${(names as string[]).length > 0 ? (names as string[]).join(', ') : 'none'}`);
  }
  for (const warning of report.found.warnings) lines.push(`  warning: ${warning}`);
  if (report.found.notes.length > 0) lines.push('', 'What kodo cannot give plugins (said once at install):');
  for (const note of report.found.notes) lines.push(`  ${note}`);
  lines.push('', 'Checks:');
  for (const check of report.checks)
    lines.push(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  lines.push('', 'Environment:');
  const proxy = report.proxy;
  lines.push(
    `  proxy: ${proxy.https || proxy.http ? `https ${proxy.https ?? '-'}, http ${proxy.http ?? '-'}, no_proxy ${proxy.noProxy ?? '-'}` : 'none'}`,
  );
  if (proxy.extraCaCerts) lines.push(`  NODE_EXTRA_CA_CERTS: ${proxy.extraCaCerts}`);
  lines.push(`  API keys set: ${report.apiKeys.length > 0 ? report.apiKeys.join(', ') : 'none'}`);
  context.stdout.write(`${lines.join('\n')}\n`);
  return failed ? 1 : 0;
}
