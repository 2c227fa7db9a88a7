// Benchmark entry: `npm run bench -- --json` prints one JSON object (see bench/models.ts).
// Options: --json (JSON only on stdout), --configs=mini,small (default), e.g. --configs=tiny,mini,small,base.
import { CONFIG_NAMES } from '../src/model/config.ts';
import type { ConfigName } from '../src/model/config.ts';
import { runModelBench } from './models.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const configArg = args.find((a) => a.startsWith('--configs='));
const configs = (configArg ? configArg.slice('--configs='.length).split(',') : ['mini', 'small']).map((c) => {
  if (!(CONFIG_NAMES as readonly string[]).includes(c)) throw new Error(`bench: unknown configuration '${c}' (known: ${CONFIG_NAMES.join(', ')})`);
  return c as ConfigName;
});

const result = await runModelBench({ configs, log: json ? undefined : (line) => console.error(line) });
if (!json) {
  console.error(`cpu_vs_reference_train_speedup (${result.speedup_config}): ${result.cpu_vs_reference_train_speedup.toFixed(1)}x`);
}
console.log(JSON.stringify(result, null, json ? 0 : 2));
// onnxruntime-web's thread pool keeps the process alive
process.exit(0);
