// `npm test`: every layer a user's change can break, in the order that fails fastest.
//   1. types (svelte-check over src, tests, bench)
//   2. Chromium present (installed as root when missing)
//   3. build the app (the browser layers test what a user is served, plus the trainer's harness page)
//   4. vitest: unit, gpu (Dawn on SwiftShader in Node), e2e (headless Chromium)
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { runVitest } from './vitest-watchdog.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const steps = [
  ['types', bin('svelte-check'), ['--tsconfig', './tsconfig.json', '--fail-on-warnings', '--output', 'human']],
  ['chromium', null, ensureChromium],
  ['build', bin('vite'), ['build', '--logLevel', 'warn'], { WMRL_HARNESS: '1' }],
  // tests tagged 'long' run in `npm run test:long` (.ci/run calls it after this); a stuck run is ended
  // with the test files it was in (scripts/vitest-watchdog.mjs)
  ['tests', null, () => runVitest(['run', '--tags-filter=!long', ...process.argv.slice(2)])],
];

for (const [name, cmd, args, env] of steps) {
  const t0 = Date.now();
  console.log(`\n== ${name}`);
  if (cmd === null) {
    // a step run here: resolves to an exit code, or nothing when it cannot fail that way
    const code = (await args()) ?? 0;
    if (code !== 0) {
      console.error(`\n== ${name} failed (exit ${code})`);
      process.exit(code);
    }
  } else {
    const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    if (r.status !== 0) {
      console.error(`\n== ${name} failed (exit ${r.status ?? r.signal})`);
      process.exit(r.status ?? 1);
    }
  }
  console.log(`== ${name} ok in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
