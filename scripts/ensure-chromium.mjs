// The browser tests drive Debian's Chromium (never a downloaded browser). Install it when it is
// missing and we are root; otherwise stop with a message that says what to install.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export function ensureChromium() {
  if (existsSync(CHROMIUM) && existsSync(ICD)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium with SwiftShader is needed for the browser tests but ${CHROMIUM} or ${ICD} is missing.\n` +
        'Install it as root:  apt-get update && apt-get install -y chromium\n' +
        '(or point CHROMIUM_PATH at a Chromium binary)',
    );
    process.exit(1);
  }
  console.log('Installing Debian chromium (needed for the browser and GPU tests)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(CHROMIUM) || !existsSync(ICD)) {
    console.error('apt-get finished but Chromium or its SwiftShader driver is still missing.');
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
