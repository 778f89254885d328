import type { ConfirmationDetails, ConfirmationResponse } from '@kodo/core/engine';
import { Box, Text } from 'ink';
import { useState } from 'react';
import type { PendingConfirmation } from '../confirmation-bridge';
import { editableArgs } from '../editable-args';
import type { EditorLauncher } from '../editor';
import { useKeyHandler } from '../hooks/use-key-handler';
import { useTheme } from '../hooks/use-theme';
import { sanitizeForTerminal } from '../sanitize';
import { DiffView } from './diff-view';

interface Props {
  pending: PendingConfirmation;
  /** What the tool box calls this tool (`Shell`, `WriteFile`). */
  displayName: string;
  openEditor: EditorLauncher;
  width: number;
  /** Lines of diff or command shown at most. */
  maxPreviewLines: number;
  /** Ctrl+C: cancel the whole request, not just this call. */
  onCancelRequest(): void;
  /** Offer the saved "all future sessions" choice. */
  permanentApproval?: boolean;
  /** Offer "for this session" (trusted folders). */
  sessionApproval?: boolean;
}

interface Choice {
  key: string;
  label: string;
  /** What the choice covers, shown muted after the label (`make` commands, this file). */
  scope?: string;
  action: 'once' | 'session' | 'server' | 'save' | 'edit' | 'deny' | 'plan';
  /** With `plan`: the mode approval switches to. */
  mode?: ConfirmationResponse['approvalMode'];
}

const PLAN_MODE_LABELS = {
  auto_edit: 'Yes, automatically accept edits',
  default: 'Yes, manually accept edits',
} as const;

export interface DialogOptions {
  /**
   * Offer "for all future sessions" (saved to the policy file): Gemini CLI's
   * `security.enablePermanentToolApproval`, off by default there and here.
   */
  permanent?: boolean;
  /** Offer "for this session"; Gemini CLI offers it in trusted folders only. Default true. */
  session?: boolean;
  /**
   * The saved rule of an edit names its file (the call has a `file_path`). Default true; false
   * for a patch (apply_patch), whose saved rule would allow the tool for every file.
   */
  perFile?: boolean;
}

/**
 * The choices in Gemini CLI's order, so that a digit picks the same answer in both programs:
 * Allow once, Allow for this session (for an MCP tool: this tool, then all its server's tools),
 * the saved choice (when enabled), Modify with external editor (edits only), No. "For this
 * session" is offered in trusted folders only, as there. kodo's extra — editing a command or
 * another call's arguments in $EDITOR — comes after, where it moves no other number.
 */
export function dialogChoices(details: ConfirmationDetails, options: DialogOptions = {}): Choice[] {
  if (details.kind === 'plan') {
    // An approved plan goes on in the mode picked here; yolo is never one of them.
    return [
      ...details.returnModes.map(
        (mode): Choice => ({
          key: mode === 'auto_edit' ? 'a' : 'm',
          label: PLAN_MODE_LABELS[mode],
          action: 'plan',
          mode,
        }),
      ),
      { key: 'n', label: 'No, keep planning (tell the model what to change)', action: 'deny' },
    ];
  }
  const scope =
    details.kind === 'exec' && details.rootCommands.length > 0
      ? `\`${details.rootCommands.join(', ')}\` commands`
      : details.kind === 'edit'
        ? 'edits with this tool'
        : 'this tool';
  const saved =
    details.kind === 'edit'
      ? options.perFile === false
        ? 'Allow this tool for all future sessions'
        : 'Allow for this file in all future sessions'
      : details.kind === 'exec'
        ? 'Allow this command for all future sessions'
        : 'Allow for all future sessions';
  const modify: Choice = { key: 'e', label: 'Modify with external editor', action: 'edit' };
  const session = options.session !== false;
  if (details.kind === 'info' && details.serverName) {
    // An MCP tool, as Gemini CLI lists it: this tool, or every tool of its server.
    return [
      { key: 'y', label: 'Allow once', action: 'once' },
      ...(session
        ? [
            { key: 'a', label: 'Allow tool for this session', action: 'session' as const },
            {
              key: 'v',
              label: 'Allow all server tools for this session',
              scope: details.serverName,
              action: 'server' as const,
            },
          ]
        : []),
      ...(options.permanent
        ? [{ key: 's', label: 'Allow tool for all future sessions', action: 'save' as const }]
        : []),
      { key: 'n', label: 'No, suggest changes (esc)', action: 'deny' },
      modify,
    ];
  }
  return [
    { key: 'y', label: 'Allow once', action: 'once' },
    ...(session ? [{ key: 'a', label: 'Allow for this session', scope, action: 'session' as const }] : []),
    ...(options.permanent ? [{ key: 's', label: saved, scope, action: 'save' as const }] : []),
    ...(details.kind === 'edit' ? [modify] : []),
    { key: 'n', label: 'No, suggest changes (esc)', action: 'deny' },
    ...(details.kind === 'edit' ? [] : [modify]),
  ];
}

/**
 * Asks whether a tool call may run, showing what it would do (a diff, the command). Keyboard
 * only: ↑/↓ and Enter, the digits, or the letters shown; Esc denies without a reason.
 */
export function ConfirmDialog({
  pending,
  displayName,
  openEditor,
  width,
  maxPreviewLines,
  onCancelRequest,
  permanentApproval = false,
  sessionApproval = true,
}: Props) {
  const theme = useTheme();
  const { details, call } = pending.request;
  const choices = dialogChoices(details, {
    permanent: permanentApproval,
    session: sessionApproval,
    // The policy saves an edit's approval for its `file_path` (engine.ts), else for the whole tool.
    perFile: typeof call.args.file_path === 'string',
  });
  const [selected, setSelected] = useState(0);
  const [reason, setReason] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState(false);

  const respond = (response: ConfirmationResponse) => pending.respond(response);

  const editThenRun = async () => {
    const editable = editableArgs(call.args, details);
    setEditing(true);
    const edited = await openEditor(editable.text, { fileName: editable.fileName });
    setEditing(false);
    if (edited === undefined) {
      setNote('The editor did not finish successfully; nothing was changed.');
      return;
    }
    if (edited === editable.text) {
      setNote('No changes were made in the editor.');
      return;
    }
    const applied = editable.apply(edited);
    if (!applied.ok) {
      setNote(applied.message);
      return;
    }
    respond({ outcome: 'modify_with_editor', modifiedArgs: applied.args });
  };

  const choose = (choice: Choice) => {
    switch (choice.action) {
      case 'once':
        return respond({ outcome: 'proceed_once' });
      case 'session':
        return respond({ outcome: 'proceed_always' });
      case 'server':
        return respond({ outcome: 'proceed_always_server' });
      case 'save':
        return respond({ outcome: 'proceed_always_and_save' });
      case 'edit':
        void editThenRun();
        return;
      case 'deny':
        setReason('');
        return;
      case 'plan':
        return respond({ outcome: 'proceed_once', ...(choice.mode ? { approvalMode: choice.mode } : {}) });
    }
  };

  useKeyHandler(
    (input, key) => {
      if (editing) return;
      if (key.ctrl && input === 'c') {
        onCancelRequest();
        return;
      }
      if (reason !== undefined) {
        if (key.escape) respond({ outcome: 'cancel' });
        else if (key.return)
          respond({ outcome: 'cancel', ...(reason.trim() ? { reason: reason.trim() } : {}) });
        else if (key.backspace || key.delete) setReason(reason.slice(0, -1));
        else if (!key.ctrl && !key.meta && input) setReason(reason + input.replace(/[\r\n]+/g, ' '));
        return;
      }
      if (key.escape) return respond({ outcome: 'cancel' });
      if (key.upArrow) return setSelected((selected + choices.length - 1) % choices.length);
      if (key.downArrow || key.tab) return setSelected((selected + 1) % choices.length);
      if (key.return) return choose(choices[selected]!);
      const byDigit = /^[1-9]$/.test(input) ? choices[Number(input) - 1] : undefined;
      const byKey = choices.find((choice) => choice.key === input.toLowerCase());
      const choice = byDigit ?? byKey;
      if (choice) choose(choice);
    },
    { isActive: true },
  );

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warning} paddingX={1} width={width}>
      <Text bold color={theme.warning}>
        {details.title || `Allow ${displayName}?`}
      </Text>
      <Box marginY={1} flexDirection="column">
        <Preview details={details} maxLines={maxPreviewLines} />
      </Box>
      {reason !== undefined ? (
        <Box flexDirection="column">
          <Text>
            {details.kind === 'plan' ? 'What should change in the plan?' : 'Why not?'} The model reads this
            (optional; Enter sends, Esc skips):
          </Text>
          <Text>
            <Text color={theme.accent}>&gt; </Text>
            {reason}
            <Text inverse> </Text>
          </Text>
        </Box>
      ) : editing ? (
        <Text color={theme.muted}>Waiting for the editor to close…</Text>
      ) : (
        <Box flexDirection="column">
          <Text>{details.kind === 'plan' ? 'Approve this plan?' : `Allow ${displayName} to run?`}</Text>
          {choices.map((choice, index) => (
            <Text
              // A plan approval offers several `plan` choices, one per mode.
              key={`${choice.action}:${choice.mode ?? ''}`}
              color={index === selected ? theme.accent : undefined}
              bold={index === selected}
            >
              {index === selected ? '❯ ' : '  '}
              {index + 1}. {choice.label}{' '}
              <Text color={theme.muted}>
                {choice.scope ? `(${choice.scope}) ` : ''}[{choice.key}]
              </Text>
            </Text>
          ))}
        </Box>
      )}
      {note ? <Text color={theme.warning}>{note}</Text> : null}
    </Box>
  );
}

function Preview({ details, maxLines }: { details: ConfirmationDetails; maxLines: number }) {
  const theme = useTheme();
  switch (details.kind) {
    case 'edit':
      return (
        <Box flexDirection="column">
          <Text color={theme.code}>{details.filePath}</Text>
          <DiffView diff={details.diff} maxLines={maxLines} />
        </Box>
      );
    case 'exec':
      return (
        <Text>
          <Text color={theme.muted}>$ </Text>
          {sanitizeForTerminal(details.command).split('\n').slice(0, maxLines).join('\n')}
        </Text>
      );
    case 'plan': {
      const lines = sanitizeForTerminal(details.plan).trimEnd().split('\n');
      const shown = lines.slice(0, maxLines);
      return (
        <Box flexDirection="column">
          <Text color={theme.code}>{details.planPath}</Text>
          <Text>{shown.join('\n')}</Text>
          {lines.length > shown.length ? (
            <Text color={theme.muted}>… {lines.length - shown.length} more lines in the file</Text>
          ) : null}
        </Box>
      );
    }
    default:
      return <Text>{sanitizeForTerminal(details.prompt)}</Text>;
  }
}
