// Runs a command (the editor suite by default) several times in a row with CPU-bound processes
// beside it, as on a busy machine or CI: a test that races the editor instead of waiting for
// states fails here first. Stops the burners whatever happens; exits with the first failure's code.
//   node scripts/under-load.mjs [--runs 3] [--burners 2] [-- command args…]
import { spawn, spawnSync } from 'node:child_process';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? Number(argv[i + 1]) : fallback;
};
const runs = option('runs', 3);
const burnerCount = option('burners', 2);
const separator = argv.indexOf('--');
const [command, ...args] = separator >= 0 ? argv.slice(separator + 1) : ['npm', 'run', 'test:editor'];

// Each burner spins one core until it is killed (or its parent dies: it checks once a second).
const burn = `const parent = ${process.pid}; let t = Date.now(); for (;;) { if (Date.now() - t > 1000) { t = Date.now(); try { process.kill(parent, 0); } catch { process.exit(0); } } }`;
const burners = Array.from({ length: burnerCount }, () => spawn(process.execPath, ['-e', burn], { stdio: 'ignore' }));
const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(
  `[under-load] ${burnerCount} CPU-bound processes beside ${runs} run(s) of: ${[command, ...args].join(' ')}`,
);
const results = [];
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  results.push({ run, status, seconds: Math.round((Date.now() - started) / 1000) });
  console.log(`[under-load] run ${run} of ${runs}: exit ${status} after ${results.at(-1).seconds} s`);
  if (status !== 0) break;
}
stopBurners();
const failed = results.find((r) => r.status !== 0);
console.log(
  `[under-load] ${results.filter((r) => r.status === 0).length} of ${runs} run(s) passed under load${failed ? `; run ${failed.run} failed` : ''}.`,
);
process.exit(failed ? (failed.status ?? 1) : 0);
