import type { AgentEvent } from '@kodo/core/engine';

/** Terminal styling that respects NO_COLOR and non-terminal output. */
export function styles(stream: NodeJS.WritableStream & { isTTY?: boolean }) {
  const on = stream.isTTY === true && !process.env.NO_COLOR;
  const wrap = (code: string) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return {
    dim: wrap('2'),
    bold: wrap('1'),
    green: wrap('32'),
    red: wrap('31'),
    cyan: wrap('36'),
    yellow: wrap('33'),
  };
}

const OUTPUT_PREVIEW_LINES = 6;

/**
 * A readable transcript of a session for a person watching: model text as it streams, one line
 * per tool call with its outcome and a short preview of its output.
 */
export function createTranscriptRenderer(out: NodeJS.WritableStream & { isTTY?: boolean }) {
  const s = styles(out);
  let atLineStart = true;
  const write = (text: string) => {
    if (text === '') return;
    out.write(text);
    atLineStart = text.endsWith('\n');
  };
  const newline = () => {
    if (!atLineStart) write('\n');
  };
  const described = new Map<string, string>();

  return (event: AgentEvent) => {
    switch (event.type) {
      case 'content':
        write(event.text);
        break;
      case 'tool_call_request': {
        newline();
        const summary = summarizeArgs(event.call.name, event.call.args);
        described.set(event.call.callId, summary);
        write(`${s.cyan(`  → ${event.call.name}`) + s.dim(` ${summary}`)}\n`);
        break;
      }
      case 'tool_call_response': {
        const { response } = event;
        const mark = response.status === 'success' ? s.green('✓') : s.red('✗');
        const label = `${response.name} ${described.get(response.callId) ?? ''}`.trim();
        write(`  ${mark} ${s.dim(`${label} (${response.durationMs} ms)`)}\n`);
        const preview = previewLines(response.resultDisplay);
        if (preview) write(`${s.dim(preview.replace(/^/gm, '      '))}\n`);
        break;
      }
      case 'retry':
        newline();
        write(s.yellow(`  ↻ retrying (attempt ${event.attempt}): ${event.reason}\n`));
        break;
      case 'error':
      case 'invalid_stream':
        newline();
        write(s.red(`  ✗ ${event.message}\n`));
        break;
      case 'finished':
        newline();
        break;
    }
  };
}

function summarizeArgs(name: string, args: Record<string, unknown>): string {
  const primary = args.command ?? args.file_path ?? args.dir_path ?? args.pattern;
  if (typeof primary === 'string') {
    return name === 'grep_search' && typeof args.pattern === 'string' ? `"${args.pattern}"` : primary;
  }
  return JSON.stringify(args).slice(0, 80);
}

function previewLines(display: string): string {
  const lines = display
    .replace(/\s+$/, '')
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length === 0) return '';
  const shown = lines.slice(-OUTPUT_PREVIEW_LINES);
  return (
    (lines.length > shown.length ? `… (${lines.length - shown.length} more lines)\n` : '') + shown.join('\n')
  );
}
