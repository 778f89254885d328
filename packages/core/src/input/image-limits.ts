/** Anthropic's per-image limit, the smallest of the providers'. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
