// Preloaded (`node --require`) into kodo by bench/long.bench.ts: notes the process's CPU time
// (user + system, ms) at each `tool_use` event kodo writes to stdout, and saves the list to
// $KODO_BENCH_CPU_FILE at exit. CPU time per turn is kodo's own work; the wall-clock gap between
// events also holds the waits of a machine shared with other jobs.
const { writeFileSync } = require('node:fs');

const file = process.env.KODO_BENCH_CPU_FILE;
const marks = [];
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  for (
    let at = text.indexOf('"type":"tool_use"');
    at !== -1;
    at = text.indexOf('"type":"tool_use"', at + 1)
  ) {
    const usage = process.cpuUsage();
    marks.push((usage.user + usage.system) / 1000);
  }
  return write(chunk, ...rest);
};
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(marks)));
