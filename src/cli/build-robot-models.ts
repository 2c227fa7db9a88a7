// Copies the robot domain's committed models and their reports from results/ into public/models/robot
// and writes its manifest (name, bytes, sha256 of each), so the page can load and check them.
//
//   npm run build:robot-models

import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROBOT_CHECKPOINT_BUDGET_BYTES, ROBOT_MODEL_FILES } from '../embodied/robot-model-files.ts';
import { describeFile, writeManifest } from '../pipeline/manifest.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, 'public/models/robot');
mkdirSync(dir, { recursive: true });
const files = Object.values(ROBOT_MODEL_FILES).map((f) => {
  const from = join(root, f.from);
  if (f.name.endsWith('.ckpt') && statSync(from).size > ROBOT_CHECKPOINT_BUDGET_BYTES) {
    throw new Error(`${f.from}: ${statSync(from).size} bytes, over the page's budget of ${ROBOT_CHECKPOINT_BUDGET_BYTES} per checkpoint`);
  }
  copyFileSync(from, join(dir, f.name));
  return describeFile(dir, f.name, f.role);
});
writeManifest(dir, files, {
  what: 'the robot domain (issue 24) as the page loads it: copies of results/ files, checked against this manifest',
  copiedFrom: Object.fromEntries(Object.values(ROBOT_MODEL_FILES).map((f) => [f.name, f.from])),
});
console.log(`public/models/robot: ${files.map((f) => `${f.name} ${f.bytes} B`).join(', ')}`);
