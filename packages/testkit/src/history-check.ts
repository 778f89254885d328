/** A request's `contents` as the mock server received them (Gemini wire shape). */
export interface WireContent {
  role?: string;
  parts?: {
    text?: string;
    functionCall?: { name?: string; id?: string };
    functionResponse?: { name?: string; id?: string };
  }[];
}

/**
 * What is wrong with a conversation history as sent to a model, or [] when it is valid: it
 * starts with the user, roles alternate, every function call is answered in the very next user
 * turn (same names, same order, same ids), no response lacks its call, and no turn is repeated.
 */
export function historyProblems(contents: WireContent[]): string[] {
  const problems: string[] = [];
  if (contents.length === 0) return ['empty history'];
  if (contents[0]!.role !== 'user') problems.push('the first turn is not a user turn');
  for (let i = 0; i < contents.length; i += 1) {
    const content = contents[i]!;
    const parts = content.parts ?? [];
    if (parts.length === 0) problems.push(`turn ${i} has no parts`);
    if (i > 0 && contents[i - 1]!.role === content.role)
      problems.push(`turns ${i - 1} and ${i} are both ${content.role}`);
    if (i > 0 && JSON.stringify(contents[i - 1]) === JSON.stringify(content))
      problems.push(`turn ${i} repeats turn ${i - 1}`);
    const calls = parts.filter((part) => part.functionCall).map((part) => part.functionCall!);
    const responses = parts.filter((part) => part.functionResponse).map((part) => part.functionResponse!);
    if (content.role === 'model' && responses.length > 0)
      problems.push(`model turn ${i} holds function responses`);
    if (content.role === 'user' && calls.length > 0) problems.push(`user turn ${i} holds function calls`);
    if (content.role === 'user' && responses.length > 0) {
      const previousCalls = (contents[i - 1]?.parts ?? [])
        .filter((part) => part.functionCall)
        .map((part) => part.functionCall!);
      const answered = responses.map((response) => `${response.name}#${response.id ?? ''}`).join(',');
      const asked = previousCalls.map((call) => `${call.name}#${call.id ?? ''}`).join(',');
      if (answered !== asked)
        problems.push(`user turn ${i} answers [${answered}] but turn ${i - 1} asked [${asked}]`);
    }
    if (content.role === 'model' && calls.length > 0) {
      const next = contents[i + 1];
      // The last turn of a request cannot be an unanswered model call; any earlier one must be answered.
      if (!next) problems.push(`model turn ${i} ends the history with unanswered calls`);
      else if (!(next.parts ?? []).some((part) => part.functionResponse))
        problems.push(`model turn ${i}'s calls are not answered`);
    }
  }
  return problems;
}
