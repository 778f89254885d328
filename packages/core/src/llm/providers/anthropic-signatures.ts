/**
 * How kodo marks thinking signatures Anthropic issued (see anthropic-convert.ts). Kept apart so
 * the provider router can recognise them without loading the Anthropic converter.
 */
export const ANTHROPIC_SIGNATURE_PREFIX = 'anthropic:';
export const ANTHROPIC_REDACTED_PREFIX = 'anthropic-redacted:';

/** Whether a part's signature is one Anthropic issued (and so may be sent back only to it). */
export function isAnthropicSignature(signature: string | undefined): boolean {
  return (
    signature !== undefined &&
    (signature.startsWith(ANTHROPIC_SIGNATURE_PREFIX) || signature.startsWith(ANTHROPIC_REDACTED_PREFIX))
  );
}
