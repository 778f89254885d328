import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDiscount, subtotal, total } from '../src/cart.js';
import { formatUsd } from '../src/money.js';

const items = [
  { name: 'notebook', price: 4.5, quantity: 2 },
  { name: 'pen', price: 1.25, quantity: 4 },
];

test('subtotal sums price times quantity', () => {
  assert.equal(subtotal(items), 14);
});

test('no discount leaves the total unchanged', () => {
  assert.equal(total(items), 14);
});

test('a 10% discount takes a tenth off', () => {
  assert.equal(applyDiscount(200, 10), 180);
  assert.equal(total(items, 10), 12.6);
});

test('discounts outside 0-100 are refused', () => {
  assert.throws(() => applyDiscount(10, 150), RangeError);
});

test('totals format as dollars', () => {
  assert.equal(formatUsd(total(items, 10)), '$12.60');
});
