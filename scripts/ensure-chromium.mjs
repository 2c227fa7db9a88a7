// The browser tests drive Debian's Chromium (never a downloaded browser), and the GPU tests run Dawn
// on Chromium's SwiftShader Vulkan driver through the system Vulkan loader (libvulkan1, which the
// chromium package does not always pull in). Install both when missing and we are root; otherwise
// stop with a message that says what to install.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const LOADERS = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/usr/lib/aarch64-linux-gnu/libvulkan.so.1', '/lib/x86_64-linux-gnu/libvulkan.so.1'];
const PACKAGES = ['chromium', 'libvulkan1'];

const present = () => existsSync(CHROMIUM) && existsSync(ICD) && LOADERS.some((p) => existsSync(p));

export function ensureChromium() {
  if (present()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium with SwiftShader and the Vulkan loader are needed for the browser and GPU tests, but ${CHROMIUM}, ` +
        `${ICD} or libvulkan.so.1 is missing.\n` +
        `Install them as root:  apt-get update && apt-get install -y ${PACKAGES.join(' ')}\n` +
        '(or point CHROMIUM_PATH at a Chromium binary)',
    );
    process.exit(1);
  }
  console.log(`Installing Debian ${PACKAGES.join(' and ')} (needed for the browser and GPU tests)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...PACKAGES], { stdio: 'inherit', env });
  if (!present()) {
    console.error('apt-get finished but Chromium, its SwiftShader driver or the Vulkan loader is still missing.');
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
