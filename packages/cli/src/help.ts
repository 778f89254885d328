/** The `--help` text. Kept in its own tiny module so `kodo --help` loads nothing else. */
export const HELP_TEXT = `Usage: kodo [options] [query..]

kodo is an autonomous coding agent for the terminal: it answers, reads, searches,
edits and runs commands in your project, under the approval policy you choose.

Commands:
  kodo [query..]              Run a prompt (headless when piped or with -p)
  kodo demo                   Replay a scripted session offline in a scratch project

Options:
  -p, --prompt <text>         Run this prompt headless (non-interactive) and exit
  -m, --model <name>          Model to use (default: $KODO_MODEL, $GEMINI_MODEL,
                              model.name in settings, or gemini-2.5-pro)
  -y, --yolo                  Approve every tool call (same as --approval-mode=yolo)
      --approval-mode <mode>  default | auto_edit | yolo
  -o, --output-format <fmt>   text | json | stream-json (default: text)
  -d, --debug                 Log every model request and response to a file
  -v, --version               Print the version and exit
  -h, --help                  Print this help and exit

Headless input: stdin is read when it is not a terminal; with -p as well, the
prompt is appended after the piped text.

Environment:
  GEMINI_API_KEY / GOOGLE_API_KEY   Gemini API key
  GOOGLE_GEMINI_BASE_URL            Send Gemini requests to another base URL
  KODO_HOME                         Where kodo keeps its files (default ~/.kodo)

Exit codes: 0 ok, 1 error, 41 auth, 42 input, 52 config, 53 turn limit, 130 cancelled.
`;
