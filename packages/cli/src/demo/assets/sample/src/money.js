/** Rounds to whole cents, avoiding binary floating-point surprises such as 1.005. */
export function roundCents(amount) {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}

/** Formats an amount as e.g. "$1,234.50". */
export function formatUsd(amount) {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
}
