// Benchmark entry: `npm run bench -- --json` prints one JSON object (see bench/models.ts).
// Options:
//   --json                 JSON only on stdout
//   --configs=mini,small   CPU engine and reference configurations (default mini,small)
//   --webgpu-configs=mini  WebGPU engine configurations (default mini; SwiftShader is slow)
//   --no-webgpu            skip the WebGPU backend
//   --device-check         a short real-GPU run: the system's Vulkan drivers (no SwiftShader fallback),
//                          WebGPU on mini,small,base at full shapes, CPU on small (for the speedup);
//                          exits 1 when no hardware adapter is found. Same JSON.
import { CONFIG_NAMES } from '../src/model/config.ts';
import type { ConfigName } from '../src/model/config.ts';
import { runModelBench } from './models.ts';
import { useSwiftShaderIfUnset } from './node-webgpu.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const deviceCheck = args.includes('--device-check');
const noWebGpu = args.includes('--no-webgpu');
// before anything can start Dawn: on a box without a GPU, Dawn finds SwiftShader only through this
if (!deviceCheck && !noWebGpu) useSwiftShaderIfUnset();

function configList(flag: string, fallback: ConfigName[]): ConfigName[] {
  const arg = args.find((a) => a.startsWith(`${flag}=`));
  if (!arg) return fallback;
  return arg.slice(flag.length + 1).split(',').filter((c) => c).map((c) => {
    if (!(CONFIG_NAMES as readonly string[]).includes(c)) throw new Error(`bench: unknown configuration '${c}' (known: ${CONFIG_NAMES.join(', ')})`);
    return c as ConfigName;
  });
}

const configs = configList('--configs', deviceCheck ? ['small'] : ['mini', 'small']);
const webgpuConfigs = configList('--webgpu-configs', deviceCheck ? ['mini', 'small', 'base'] : ['mini']);
const result = await runModelBench({
  configs,
  webgpu: noWebGpu ? false : { configs: webgpuConfigs, swiftShaderFallback: !deviceCheck },
  log: json ? undefined : (line) => console.error(line),
});
if (!json) {
  console.error(`cpu_vs_reference_train_speedup (${result.speedup_config}): ${result.cpu_vs_reference_train_speedup.toFixed(1)}x`);
}
console.log(JSON.stringify(result, null, json ? 0 : 2));
const hardware = result.webgpu.available && !result.webgpu.adapter.isSoftware;
if (deviceCheck && !hardware) console.error('bench --device-check: no hardware WebGPU adapter found');
// onnxruntime-web's thread pool keeps the process alive
process.exit(deviceCheck && !hardware ? 1 : 0);
