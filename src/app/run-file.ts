// A training run as a file: what the Train view exports and loads back. The whole saved run (the
// checkpoint with its policy weights and AdamW moments, the step records, the evaluations), so a
// loaded run can be resumed as well as compared. JSON, with typed arrays as base64 and the numbers
// JSON has no word for (NaN, infinities, -0) spelled out (primitives/typed-json.ts), so what is loaded
// equals what was saved.
// A file that is not such a run is refused with a message saying why; nothing is changed then.
import { TypedJsonError, typedJsonReplacer, typedJsonReviver } from '../primitives/typed-json.ts';
import { validateTrainerConfig } from '../training/trainer.ts';
import type { SavedRun } from './run-store.ts';

export const RUN_FILE_FORMAT = 'wmrl-run';
export const RUN_FILE_VERSION = 1;

/** What a run file holds (its id and save time are given anew where it is loaded). */
export type RunFileContent = Omit<SavedRun, 'id' | 'savedAt'> & { label: string };

export class RunFileError extends Error {}

/** The file's text. */
export function runFileText(run: RunFileContent): string {
  return JSON.stringify({ format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, exportedAt: new Date().toISOString(), run }, typedJsonReplacer);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The run in a file's text; a RunFileError that says what is wrong otherwise. */
export function parseRunFile(text: string): RunFileContent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, typedJsonReviver);
  } catch (e) {
    if (e instanceof TypedJsonError) throw new RunFileError(e.message);
    throw new RunFileError(`the file is not JSON (${e instanceof Error ? e.message : String(e)}): is it a run exported from this page?`);
  }
  if (!isObject(parsed) || parsed.format !== RUN_FILE_FORMAT) throw new RunFileError(`the file is JSON but not a run exported from this page (no format '${RUN_FILE_FORMAT}')`);
  if (parsed.version !== RUN_FILE_VERSION) throw new RunFileError(`the run file is of version ${String(parsed.version)}; this page reads version ${RUN_FILE_VERSION}`);
  const run = parsed.run;
  if (!isObject(run)) throw new RunFileError('the run file holds no run');
  const c = run.checkpoint;
  if (!isObject(c) || c.format !== 'wmrl-trainer' || c.version !== 1 || !isObject(c.config) || !Number.isInteger(c.step)) {
    throw new RunFileError('the run file holds no trainer checkpoint of version 1');
  }
  try {
    validateTrainerConfig(c.config as never);
  } catch (e) {
    throw new RunFileError(`the run's settings are not valid: ${e instanceof Error ? e.message : String(e)}`);
  }
  const policy = c.policy;
  if (!isObject(policy) || !(policy.params instanceof Float32Array)) throw new RunFileError("the run file holds no policy weights");
  if (!Array.isArray(run.records) || !run.records.every((r) => isObject(r) && Number.isInteger(r.step))) throw new RunFileError('the run file holds no list of steps');
  if (run.evaluations !== undefined && !(Array.isArray(run.evaluations) && run.evaluations.every((e) => isObject(e) && Number.isInteger(e.step) && isObject(e.result)))) {
    throw new RunFileError('the run file holds a damaged list of evaluations');
  }
  if (typeof run.modelsLabel !== 'string') throw new RunFileError('the run file does not say which models it started from');
  const config = c.config as { name: string; seed: number };
  return {
    label: typeof run.label === 'string' && run.label.trim() !== '' ? run.label : `${config.name} seed ${config.seed}`,
    modelsLabel: run.modelsLabel,
    checkpoint: c as unknown as SavedRun['checkpoint'],
    records: run.records as SavedRun['records'],
    evaluation: isObject(run.evaluation) ? (run.evaluation as unknown as SavedRun['evaluation']) : null,
    evaluations: (run.evaluations as SavedRun['evaluations']) ?? [],
  };
}
