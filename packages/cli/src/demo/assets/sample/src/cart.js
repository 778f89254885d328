import { roundCents } from './money.js';

/** Sum of price × quantity over the cart's items. */
export function subtotal(items) {
  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);
}

/** Takes `percent` percent off `amount` (e.g. 10 means 10%). */
export function applyDiscount(amount, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError(`discount must be between 0 and 100, got ${percent}`);
  }
  return amount - amount * percent;
}

/** The amount to pay, rounded to cents. */
export function total(items, discountPercent = 0) {
  return roundCents(applyDiscount(subtotal(items), discountPercent));
}
