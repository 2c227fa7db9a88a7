// The coding runner's unfinished-run file (unfinished-run.ts says what such a file is for): the page's
// run so far (a RunSoFar: the trainer's checkpoint with the policy's weights and AdamW moments, the
// method's state, the records and evaluations of the steps done) as the page wrote it. The runner never
// decodes the weights: it keeps the page's text and hands it back, so a save costs a string copy and a
// write (a few megabytes) against a step's tens of seconds. A 40-step paper-grpo-all-real run outlasts
// a session of this machine.

import type { RunRequest } from '../experiments/run-result.ts';
import { writeFileWhole } from './run-files.ts';
import { readUnfinishedFile, refuseUnfinished, type UnfinishedRunHeader } from './unfinished-run.ts';

export const UNFINISHED_EXPERIMENT_FORMAT = 'wmrl-experiment-run-unfinished';

export interface UnfinishedExperimentRun extends UnfinishedRunHeader<RunRequest> {
  format: typeof UNFINISHED_EXPERIMENT_FORMAT;
  /** Steps done in the saved state. */
  step: number;
  /** The page's RunSoFar as typed JSON (src/primitives/typed-json.ts), for the page to go on from. */
  runSoFar: string;
}

/** Writes the file whole; `runSoFar` goes in as the page wrote it (it is JSON), not parsed and written again. */
export function writeUnfinishedExperimentRun(path: string, run: UnfinishedExperimentRun): void {
  const { runSoFar, ...header } = run;
  writeFileWhole(path, `${JSON.stringify(header).slice(0, -1)},"runSoFar":${runSoFar}}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The unfinished run at `path`, checked to continue `request` under the code `codeSha256` and to hold
 * a whole run so far (a checkpoint with weights, one record per step done, evaluations only at the
 * request's points); an UnfinishedRunRefused otherwise.
 */
export function readUnfinishedExperimentRun(path: string, request: RunRequest, codeSha256: string): UnfinishedExperimentRun {
  const u = readUnfinishedFile(path, { format: UNFINISHED_EXPERIMENT_FORMAT, describe: 'an unfinished experiment run', request, codeSha256 });
  const damaged = (why: string): never => refuseUnfinished(path, `it is damaged (${why})`);
  if (request.kind !== 'train') damaged(`a '${request.kind}' run has nothing to go on from`);
  const so = u.runSoFar;
  if (!isObject(so) || !isObject(so.checkpoint) || !Array.isArray(so.records) || !Array.isArray(so.curve)) return damaged('it holds no run so far with a checkpoint, records and evaluations');
  const c = so.checkpoint;
  const step = c.step;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 0 || step > request.config.steps) return damaged(`its checkpoint's step ${JSON.stringify(step)} is not one of 0..${request.config.steps}`);
  if (u.step !== step) damaged(`it names step ${JSON.stringify(u.step)} but its checkpoint is after step ${step}`);
  if (!isObject(c.policy) || !isObject(c.policy.params) || typeof c.policy.params.$f32 !== 'string') damaged('its checkpoint holds no policy weights');
  if (so.records.length !== step || so.records.some((r, i) => !isObject(r) || r.step !== i)) damaged(`it holds ${so.records.length} step records for ${step} steps done`);
  const points = new Set(request.evalAtSteps ?? []);
  for (const p of so.curve) {
    if (!isObject(p) || typeof p.step !== 'number' || !points.has(p.step) || p.step > step) damaged(`an evaluation after step ${isObject(p) ? JSON.stringify(p.step) : '?'} is not one of the request's points up to step ${step}`);
  }
  return { ...(u as UnfinishedRunHeader<RunRequest>), format: UNFINISHED_EXPERIMENT_FORMAT, step, runSoFar: JSON.stringify(so) };
}
