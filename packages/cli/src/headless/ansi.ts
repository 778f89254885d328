// CSI, OSC and single-character escape sequences. Model text is printed without them so a reply
// cannot move the cursor, retitle the terminal or hide text.
const ANSI_PATTERN =
  /[\u001B\u009B](?:\][^\u0007\u001B]*(?:\u0007|\u001B\\)|[[\]()#;?]*(?:\d{1,4}(?:[;:]\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}
