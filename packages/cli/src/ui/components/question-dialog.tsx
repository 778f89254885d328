import type { AskUserQuestion } from '@kodo/core/engine';
import { Box, Text } from 'ink';
import { useState } from 'react';
import { useKeyHandler } from '../hooks/use-key-handler';
import { useTheme } from '../hooks/use-theme';
import type { PendingQuestions } from '../question-bridge';
import { sanitizeForTerminal } from '../sanitize';

interface Props {
  pending: PendingQuestions;
  width: number;
  /** Ctrl+C: cancel the whole request, not just the questions. */
  onCancelRequest(): void;
}

interface Row {
  label: string;
  description?: string;
  /** The free-text entry ("Other"): typing goes into it while it is selected. */
  other?: boolean;
}

/** The rows a question offers: its options (Yes/No for yesno), then "Other" for an own answer. */
export function questionRows(question: AskUserQuestion): Row[] {
  if (question.type === 'text') return [{ label: 'Answer', other: true }];
  const options = question.type === 'yesno' ? [{ label: 'Yes' }, { label: 'No' }] : (question.options ?? []);
  return [...options.map((option) => ({ ...option })), { label: 'Other', other: true }];
}

interface QuestionState {
  cursor: number;
  /** multiSelect: the option rows ticked. */
  checked: number[];
  /** What was typed into the "Other" row. */
  typed: string;
  answer?: string;
}

/**
 * `ask_user`'s questions as a dialog: ↑/↓ (or the option's number) pick an option and Enter
 * chooses it; the last row, "Other", takes the person's own words (type while it is selected);
 * multiSelect questions tick options with Space or their number and Enter confirms. Several
 * questions show as chips: ←/→ (or Tab) move between them, and once every question has an
 * answer they go back together. Esc dismisses them all.
 */
export function QuestionDialog({ pending, width, onCancelRequest }: Props) {
  const theme = useTheme();
  const { questions } = pending;
  const [index, setIndex] = useState(0);
  const [states, setStates] = useState<QuestionState[]>(() =>
    questions.map(() => ({ cursor: 0, checked: [], typed: '' })),
  );
  const question = questions[index]!;
  const state = states[index]!;
  const rows = questionRows(question);
  const row = rows[state.cursor]!;
  const multi = question.multiSelect === true && question.type === 'choice';

  // Functional updates: keys typed faster than a render must not act on a stale state.
  const update = (change: (entry: QuestionState) => Partial<QuestionState>) =>
    setStates((current) =>
      current.map((entry, at) => (at === index ? { ...entry, ...change(entry) } : entry)),
    );

  const settle = (answer: string) => {
    const next = states.map((entry, at) => (at === index ? { ...entry, answer } : entry));
    setStates(next);
    const open = next.findIndex((entry, at) => entry.answer === undefined && at !== index);
    if (open === -1) {
      pending.answer(Object.fromEntries(next.map((entry, at) => [String(at), entry.answer ?? ''])));
      return;
    }
    const after = next.findIndex((entry, at) => entry.answer === undefined && at > index);
    setIndex(after !== -1 ? after : open);
  };

  const choose = () => {
    if (multi) {
      const labels = state.checked
        .slice()
        .sort((a, b) => a - b)
        .map((at) => rows[at]!.label);
      const own = state.typed.trim();
      if (own) labels.push(own);
      if (labels.length === 0 && !row.other) labels.push(row.label);
      if (labels.length > 0) settle(labels.join(', '));
      return;
    }
    if (row.other) {
      if (state.typed.trim()) settle(state.typed.trim());
      return;
    }
    settle(row.label);
  };

  const toggle = (at: number) =>
    update((entry) => ({
      cursor: at,
      checked: entry.checked.includes(at)
        ? entry.checked.filter((other) => other !== at)
        : [...entry.checked, at],
    }));

  useKeyHandler(
    (input, key) => {
      if (key.ctrl && input === 'c') return onCancelRequest();
      if (key.escape) return pending.answer(undefined);
      if (questions.length > 1 && (key.leftArrow || key.rightArrow || key.tab)) {
        const step = key.leftArrow || (key.tab && key.shift) ? -1 : 1;
        return setIndex((index + step + questions.length) % questions.length);
      }
      if (key.upArrow) return update((entry) => ({ cursor: (entry.cursor + rows.length - 1) % rows.length }));
      if (key.downArrow) return update((entry) => ({ cursor: (entry.cursor + 1) % rows.length }));
      if (key.return) return choose();
      if (row.other) {
        if (key.backspace || key.delete) return update((entry) => ({ typed: entry.typed.slice(0, -1) }));
        const typed = input.replace(/[\r\n]+/g, ' ');
        if (!key.ctrl && !key.meta && typed) update((entry) => ({ typed: entry.typed + typed }));
        return;
      }
      if (/^[1-9]$/.test(input) && Number(input) <= rows.length) {
        const at = Number(input) - 1;
        if (rows[at]!.other) return update(() => ({ cursor: at }));
        if (multi) return toggle(at);
        return settle(rows[at]!.label);
      }
      if (multi && input === ' ') toggle(state.cursor);
    },
    { isActive: true },
  );

  const hints = [
    question.type === 'text' ? 'type your answer' : '↑/↓ move',
    question.type === 'text' ? undefined : `1-${rows.length} ${multi ? 'tick' : 'pick'}`,
    multi ? 'Space ticks' : undefined,
    'Enter chooses',
    questions.length > 1 ? '←/→ questions' : undefined,
    'Esc dismisses',
  ].filter(Boolean);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width}>
      {questions.length > 1 ? (
        <Box>
          {questions.map((entry, at) => (
            <Text
              key={`${entry.header}\u0000${entry.question}`}
              inverse={at === index}
              color={states[at]!.answer !== undefined ? theme.success : undefined}
            >
              {' '}
              {states[at]!.answer !== undefined ? '✓ ' : ''}
              {sanitizeForTerminal(entry.header)}{' '}
            </Text>
          ))}
        </Box>
      ) : (
        <Text bold color={theme.accent}>
          {sanitizeForTerminal(question.header)}
        </Text>
      )}
      <Box marginY={1}>
        <Text bold>{sanitizeForTerminal(question.question)}</Text>
      </Box>
      {rows.map((entry, at) => {
        const selected = at === state.cursor;
        const tick = multi && !entry.other ? (state.checked.includes(at) ? '[x] ' : '[ ] ') : '';
        return (
          <Text
            key={entry.other ? '\u0000other' : entry.label}
            color={selected ? theme.accent : undefined}
            bold={selected}
          >
            {selected ? '❯ ' : '  '}
            {question.type === 'text' ? '' : `${at + 1}. `}
            {tick}
            {entry.other ? (
              <>
                {question.type === 'text' ? '' : 'Other: '}
                {state.typed === '' ? (
                  <Text color={theme.muted}>
                    {question.type === 'text' && question.placeholder
                      ? sanitizeForTerminal(question.placeholder)
                      : 'type your own answer'}
                  </Text>
                ) : (
                  sanitizeForTerminal(state.typed)
                )}
                {selected ? <Text inverse> </Text> : null}
              </>
            ) : (
              sanitizeForTerminal(entry.label)
            )}
            {entry.description ? (
              <Text color={theme.muted}> — {sanitizeForTerminal(entry.description)}</Text>
            ) : null}
          </Text>
        );
      })}
      <Text color={theme.muted}>{hints.join(' · ')}</Text>
    </Box>
  );
}
