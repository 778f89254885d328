/** The environment of a benchmarked `kodo -p` run: a home of its own, trusted, the mock Gemini server. */
export function headlessBenchEnv(home: string, mockUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    KODO_HOME: home,
    KODO_TRUST_WORKSPACE: 'true',
    GEMINI_API_KEY: 'bench',
    GOOGLE_GEMINI_BASE_URL: mockUrl,
  };
}
