/**
 * Copying to the clipboard with OSC 52: the terminal (not kodo) owns the clipboard, so this also
 * works over SSH. Inside tmux and screen the sequence is wrapped so the multiplexer passes it on.
 */
export function osc52Sequence(text: string, env: NodeJS.ProcessEnv): string {
  const sequence = `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
  if (env.TMUX) return `\u001bPtmux;${sequence.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
  if (env.TERM?.startsWith('screen')) return `\u001bP${sequence}\u001b\\`;
  return sequence;
}
