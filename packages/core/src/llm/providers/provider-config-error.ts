/** A settings profile that cannot be used (exit code 52 in the CLI). */
export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
}
