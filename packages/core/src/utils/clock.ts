/**
 * Milliseconds from a monotonic clock. `process.hrtime` rather than `performance.now()`: the
 * `performance` global loads perf_hooks on first use, a few ms of startup before the first request.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
