// The task registry the app uses: list tasks, load what a program may read, and (for the grader)
// the hidden labels and the leaderboard. File access goes through an injectable loader: fetch
// from /tasks/ in the browser, the file system in Node (see node-file-loader.ts).

import { appUrl } from '../primitives/app-root.ts';
import { TaskDataError } from './task-errors.ts';
import { toIndexEntry, type TaskIndex, type TaskIndexEntry } from './task-index.ts';
import type { Leaderboard } from './leaderboard.ts';
import type { GraderTask } from './grader.ts';
import type { BuiltTask, TaskLabels, TaskMeta } from './task-types.ts';

/** Reads a file of the suite by its path relative to the suite's root (e.g. "index.json"). */
export type TaskFileLoader = (relativePath: string) => Promise<string>;

/** Loader for the browser: fetches from a base URL (default: the app's tasks/ folder, wherever the app is served). */
export function fetchLoader(baseUrl = appUrl('tasks/')): TaskFileLoader {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return async (path) => {
    const res = await fetch(base + path);
    if (!res.ok) throw new TaskDataError('bad_task_file', `could not load ${base + path}: HTTP ${res.status}`);
    return res.text();
  };
}

/** What a program's run needs: public meta and the two CSVs (no labels). */
export interface LoadedTask {
  meta: TaskMeta;
  trainCsv: string;
  testCsv: string;
}

const SAFE_ID = /^[A-Za-z0-9_.-]+$/;

export class TaskRegistry {
  private readonly loader: TaskFileLoader;
  private index: Promise<TaskIndex> | null = null;
  private readonly custom = new Map<string, { task: BuiltTask; leaderboard?: Leaderboard }>();
  private readonly cache = new Map<string, Promise<string>>();

  constructor(loader: TaskFileLoader) {
    this.loader = loader;
  }

  private read(path: string): Promise<string> {
    let p = this.cache.get(path);
    if (!p) {
      p = this.loader(path);
      // A failed read must not stay cached: the next call retries.
      p.catch(() => this.cache.delete(path));
      this.cache.set(path, p);
    }
    return p;
  }

  private async readJson<T>(path: string): Promise<T> {
    const text = await this.read(path);
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw new TaskDataError('bad_task_file', `${path} is not valid JSON: ${String(e)}`);
    }
  }

  private suiteIndex(): Promise<TaskIndex> {
    if (!this.index) {
      this.index = this.readJson<TaskIndex>('index.json');
      this.index.catch(() => (this.index = null));
    }
    return this.index;
  }

  /** Suite tasks (train, then held-out) followed by custom tasks added in this session; the smoke tasks unless `includeSmoke` is false. */
  async list(filter: { split?: TaskIndexEntry['split']; includeSmoke?: boolean } = {}): Promise<TaskIndexEntry[]> {
    const idx = await this.suiteIndex();
    const all = [...idx.tasks, ...[...this.custom.values()].map((c) => toIndexEntry(c.task.meta))];
    return all.filter((t) => (filter.split === undefined || t.split === filter.split) && (filter.includeSmoke !== false || t.role !== 'smoke'));
  }

  private async known(id: string): Promise<void> {
    if (this.custom.has(id)) return;
    if (!SAFE_ID.test(id) || !(await this.suiteIndex()).tasks.some((t) => t.id === id)) {
      throw new TaskDataError('unknown_task', `no task with id ${JSON.stringify(id)}`);
    }
  }

  async loadTask(id: string): Promise<LoadedTask> {
    await this.known(id);
    const c = this.custom.get(id);
    if (c) return { meta: c.task.meta, trainCsv: c.task.trainCsv, testCsv: c.task.testCsv };
    const [meta, trainCsv, testCsv] = await Promise.all([
      this.readJson<TaskMeta>(`${id}/task.json`),
      this.read(`${id}/train.csv`),
      this.read(`${id}/test.csv`),
    ]);
    return { meta, trainCsv, testCsv };
  }

  /** Hidden labels: for the grader only. */
  async loadLabels(id: string): Promise<TaskLabels> {
    await this.known(id);
    const c = this.custom.get(id);
    return c ? c.task.labels : this.readJson<TaskLabels>(`${id}/labels.json`);
  }

  async loadLeaderboard(id: string): Promise<Leaderboard> {
    await this.known(id);
    const c = this.custom.get(id);
    if (c) {
      if (!c.leaderboard) throw new TaskDataError('bad_task_file', `custom task ${id} has no leaderboard yet`);
      return c.leaderboard;
    }
    return this.readJson<Leaderboard>(`${id}/leaderboard.json`);
  }

  async loadGraderTask(id: string): Promise<GraderTask> {
    const [{ meta }, labels, leaderboard] = await Promise.all([this.loadTask(id), this.loadLabels(id), this.loadLeaderboard(id)]);
    return { meta, labels, leaderboard };
  }

  /** Adds a task built from the user's data (createCustomTask); ids must not clash with the suite. */
  async addCustomTask(task: BuiltTask): Promise<void> {
    const idx = await this.suiteIndex();
    if (idx.tasks.some((t) => t.id === task.meta.id)) {
      throw new TaskDataError('bad_task_file', `task id ${JSON.stringify(task.meta.id)} is already a suite task`);
    }
    this.custom.set(task.meta.id, { task });
  }

  /** Sets the on-the-spot leaderboard of a custom task. */
  setCustomLeaderboard(id: string, leaderboard: Leaderboard): void {
    const c = this.custom.get(id);
    if (!c) throw new TaskDataError('unknown_task', `no custom task with id ${JSON.stringify(id)}`);
    if (leaderboard.taskId !== id) throw new TaskDataError('bad_task_file', `leaderboard is for ${leaderboard.taskId}, not ${id}`);
    c.leaderboard = leaderboard;
  }
}
