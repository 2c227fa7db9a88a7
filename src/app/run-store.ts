// Saved training runs, kept in this browser (IndexedDB) so that a reload or a closed tab loses
// nothing: the trainer checkpoint (policy weights with their AdamW moments, the method state, the
// cost books) plus the step records and the last evaluation, as the Train view shows them.
// IndexedDB stores typed arrays by structured clone, so the checkpoint goes in as it is.

import type { EvaluationResult } from '../training/evaluate.ts';
import type { StepRecord, TrainerCheckpoint } from '../training/trainer.ts';

/** A held-out evaluation made along a run: after `step` steps, on the first `tasks` held-out tasks at avg@k. */
export interface RunEvaluation {
  step: number;
  tasks: number;
  result: EvaluationResult;
  /** The run's busy seconds up to that step (compute spent on training, the evaluations not counted). */
  busySeconds: number;
}

export interface SavedRun {
  id: string;
  savedAt: string;
  /** Label of the models the run started from (weights are in the checkpoint, the world model is not). */
  modelsLabel: string;
  checkpoint: TrainerCheckpoint;
  records: StepRecord[];
  evaluation: EvaluationResult | null;
  /** Every evaluation along the run, in order (absent in runs saved before there were several). */
  evaluations?: RunEvaluation[];
  /** The run's name in the list (absent in older saves: the preset and seed stand in). */
  label?: string;
}

/** What the list of saved runs shows, without the weights. */
export interface SavedRunSummary {
  id: string;
  savedAt: string;
  /** The run's name as the list shows it. */
  label: string;
  name: string;
  seed: number;
  step: number;
  steps: number;
  modelsLabel: string;
}

const DB_NAME = 'wmrl-runs';
const STORE = 'runs';
/** The one slot the Train view writes after every step: the latest run, whether or not it was saved by hand. */
export const AUTOSAVE_ID = 'autosave';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

export class RunStore {
  private constructor(private readonly db: IDBDatabase) {}

  /** Opens the store; a clear error where the browser keeps no IndexedDB (e.g. some private modes). */
  static async open(): Promise<RunStore> {
    if (typeof indexedDB === 'undefined') throw new Error('this browser offers no IndexedDB: runs cannot be saved here');
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    return new RunStore(await request(open));
  }

  private store(mode: IDBTransactionMode): IDBObjectStore {
    return this.db.transaction(STORE, mode).objectStore(STORE);
  }

  /** Saves a run under a new id, or over `id` (quota errors reach the caller with the browser's message). */
  async save(run: Omit<SavedRun, 'id' | 'savedAt'>, id?: string): Promise<SavedRunSummary> {
    const saved: SavedRun = { ...run, id: id ?? `${run.checkpoint.config.name}-seed${run.checkpoint.config.seed}-${Date.now().toString(36)}`, savedAt: new Date().toISOString() };
    await request(this.store('readwrite').put(saved));
    return summarise(saved);
  }

  /** The runs saved by hand (the autosave slot is not among them: see autosaved()). */
  async list(): Promise<SavedRunSummary[]> {
    const all = (await request(this.store('readonly').getAll())) as SavedRun[];
    return all.filter((r) => r.id !== AUTOSAVE_ID).map(summarise).sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }

  /** The autosaved latest run, if any. */
  async autosaved(): Promise<SavedRunSummary | null> {
    const run = (await request(this.store('readonly').get(AUTOSAVE_ID))) as SavedRun | undefined;
    return run ? summarise(run) : null;
  }

  async get(id: string): Promise<SavedRun> {
    const run = (await request(this.store('readonly').get(id))) as SavedRun | undefined;
    if (!run) throw new Error(`no saved run ${id} in this browser`);
    return run;
  }

  async delete(id: string): Promise<void> {
    await request(this.store('readwrite').delete(id));
  }

  close(): void {
    this.db.close();
  }
}

function summarise(r: SavedRun): SavedRunSummary {
  const c = r.checkpoint.config;
  return { id: r.id, savedAt: r.savedAt, label: r.label ?? `${c.name} seed ${c.seed}`, name: c.name, seed: c.seed, step: r.checkpoint.step, steps: c.steps, modelsLabel: r.modelsLabel };
}
