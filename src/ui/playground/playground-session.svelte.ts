// The Playground's session, kept outside the view: a module-level object that outlives the component,
// so switching to another view neither stops nor drops a run or a leaderboard build (it goes on, and
// the view shows it, or its outcome, when opened again), and the editor's program stays as it was left.
// The sandbox pool and the world model's worker are closed once the view is left and nothing runs.
import { ProgressTracker, type Activity } from '../../app/progress.ts';
import { numberProblem } from '../fields.ts';
import { LinkTooLargeError, unpackText } from '../url-state.ts';
import { buildSecondsLeft, costShares, firstBuildEstimate, type RecordedBuild } from './build-estimate.ts';
import { gradePlaygroundRun, type RunOutcome } from './grade-run.ts';
import { LazyPool, describePoolProgress } from './lazy-pool.ts';
import { storedProgram } from './program-store.ts';
import { asksForOther, openedProgram, startingProgram, type PlaygroundLink } from './program-opening.ts';
import { starterPrograms, type StarterProgram } from './starter-programs.ts';
import { LazyWorldModel, type WorldModelGuess } from './world-model-guess.ts';
import { fetchLoader, TaskRegistry } from '../../tasks/task-registry.ts';
import { programInputs } from '../../tasks/task-builder.ts';
import type { TaskIndexEntry } from '../../tasks/task-index.ts';
import type { Leaderboard } from '../../tasks/leaderboard.ts';
import type { BuiltTask, TaskMeta } from '../../tasks/task-types.ts';
import type { SandboxFiles } from '../../sandbox-pyodide/protocol.ts';
import { leaderboardOnTheSpot, libraryHash, populationFor, runPopulation, type PopulationProgress } from '../../sandbox-pyodide/leaderboard-on-the-spot.ts';
import { pythonLibrary } from '../../sandbox-pyodide/python-library.ts';

export interface CurrentTask {
  meta: TaskMeta;
  files: SandboxFiles;
  origin: 'suite' | 'csv';
}

/** The suite task a link without one means (the URL leaves it out). */
export const DEFAULT_TASK = 'vega_cars';
// The sandbox counts work, not time (src/sandbox-pyodide/work-rule.ts): the limit is in calibrated seconds.
export const TIMEOUT_SPEC = { label: 'Work budget (calibrated s)', min: 1, max: 600 };

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

class PlaygroundSession {
  private readonly registry = new TaskRegistry(fetchLoader());
  private readonly pool = new LazyPool();
  private readonly worldModel = new LazyWorldModel();
  /** The program links this page wrote or opened: coming back to the view with one is not a new link. */
  readonly ownLinks = new Set<string>();

  mode = $state<'suite' | 'csv'>('suite');
  suite = $state.raw<TaskIndexEntry[]>([]);
  selectedId = $state('');
  suiteTask = $state.raw<CurrentTask | null>(null);
  csvTask = $state.raw<CurrentTask | null>(null);
  /** The task Run uses: the one of the open tab. */
  current = $derived(this.mode === 'suite' ? this.suiteTask : this.csvTask);
  taskError = $state<string | null>(null);

  source = $state('');
  /** What "Restore my previous text" brings back: the text before a reference program, a reset or a link replaced it. */
  undoSource = $state<string | null>(null);
  /** The task whose saved program a link's program stands beside, unsaved, until the user chooses. */
  linkDraft = $state<string | null>(null);
  /** A program from a shared link: it takes the editor when the next task opens (the link's, or the fallback). */
  private linked: string | null = null;
  /** The program the URL's link carries, as far as this session knows (null: none, or not known). */
  linkText: string | null = null;
  linkNote = $state<string | null>(null);
  starterId = $state('');
  timeoutS = $state(60);
  timeoutProblem = $derived(numberProblem(TIMEOUT_SPEC, this.timeoutS));

  poolMessage = $state<string | null>(null);
  running = $state(false);
  outcome = $state.raw<RunOutcome | null>(null);
  runError = $state<string | null>(null);
  guess = $state.raw<WorldModelGuess | null>(null);
  guessError = $state<string | null>(null);

  building = $state.raw<PopulationProgress | null>(null);
  buildTotal = $state(0);
  buildError = $state<string | null>(null);
  leaderboard = $state.raw<Leaderboard | null>(null);
  /** The suite task's committed leaderboard (null: none built for it yet). */
  suiteLeaderboard = $state.raw<Leaderboard | null>(null);
  /** What a CSV build is expected to take, from the suite's recorded builds of its task type. */
  buildCost = $state.raw<{ shares: Map<string, number>; ids: string[]; first: { low: number; median: number; high: number } | null } | null>(null);
  private buildDone = new Set<string>();

  starters = $derived<StarterProgram[]>(this.current ? starterPrograms(this.current.meta.type, this.current.meta.metric) : []);
  busy = $derived(this.running || this.building !== null);
  trains = $derived(this.suite.filter((t) => t.split === 'train'));
  heldout = $derived(this.suite.filter((t) => t.split === 'heldout'));
  /** The editor holds the current task's starting program (Reset has nothing to do). */
  atStart = $derived(this.current !== null && this.source === startingProgram(this.current.meta));

  // Bars for what takes seconds here: the sandbox's boot, the run, the world model's guess.
  activities = $state.raw<readonly Activity[]>([]);
  private readonly progress = new ProgressTracker();
  private poolBoot: ReturnType<ProgressTracker['begin']> | null = null;

  constructor() {
    this.progress.listen((a) => (this.activities = a));
  }

  /** Whether the view is open; the pool and the world model are closed once it is not and nothing runs. */
  private shown = false;
  /** The URLs the view was opened at, handled one after the other. */
  private arrival: Promise<void> = Promise.resolve();

  /** The view opened (the first time, or again) at a URL whose `task`, `p` and `data` it reads. */
  enter = (link: PlaygroundLink): Promise<void> => {
    this.shown = true;
    this.arrival = this.arrival.then(() => this.arrive(link));
    return this.arrival;
  };

  /** The view closed: what runs goes on; the workers go once it has finished. */
  leave = (): void => {
    this.shown = false;
    this.releaseIfAway();
  };

  private releaseIfAway(): void {
    if (this.shown || this.busy) return;
    this.pool.close();
    this.worldModel.close();
    this.poolMessage = null;
  }

  private async arrive(link: PlaygroundLink): Promise<void> {
    const opened = this.suite.length > 0;
    if (opened && !asksForOther(link, this, this.ownLinks)) return;
    if (this.busy) {
      this.linkNote = 'This link was not opened: a run or a leaderboard build is going on here. Open the link again once it has finished.';
      return;
    }
    this.linkNote = null;
    const foreign = link.program !== null && !this.ownLinks.has(link.program);
    if (foreign && link.program !== null) {
      this.ownLinks.add(link.program);
      try {
        this.linked = await unpackText(link.program);
      } catch (e) {
        this.linkNote =
          e instanceof LinkTooLargeError
            ? `The program in this link was not opened: ${e.message}. The editor shows the task's program.`
            : "The program in this link could not be read (the link may be cut short); the editor shows the task's program.";
      }
    }
    this.switchMode(link.ownData ? 'csv' : 'suite');
    try {
      if (!opened) this.suite = await this.registry.list({ includeSmoke: true });
      // A link names its task, but leaves out the default one when it carries a program; a plain one keeps the open task.
      const wanted = link.task ?? (foreign || !this.suiteTask ? DEFAULT_TASK : this.selectedId);
      const first = this.suite.find((t) => t.id === wanted) ?? this.suite.find((t) => t.id === DEFAULT_TASK) ?? this.suite[0];
      if (link.task && first?.id !== link.task) this.linkNote = `The link's task ${link.task} is not in the suite; showing ${first?.id ?? 'none'}.`;
      if (!first) return;
      if (!this.suiteTask || first.id !== this.selectedId) await this.selectSuiteTask(first.id);
      // The link's program for the task already open: it opens as when the task opens.
      else if (this.linked !== null && this.mode === 'suite') this.openTask();
    } catch (e) {
      this.taskError = `Could not load the task list: ${message(e)}`;
    }
  }

  /** The current task opens: fresh result, menu for its type, and its own program (or the link's). */
  private openTask(): void {
    const next = this.current;
    this.outcome = null;
    this.runError = null;
    this.undoSource = null;
    this.linkDraft = null;
    if (!next) return;
    this.starterId = starterPrograms(next.meta.type, next.meta.metric)[0]?.id ?? '';
    // Each task keeps its program (the last one is saved under its own id, nothing is lost).
    const opened = openedProgram(storedProgram(next.meta.id), startingProgram(next.meta), this.linked);
    this.source = opened.source;
    this.undoSource = opened.undoSource;
    if (opened.linkDraft) this.linkDraft = next.meta.id;
    if (this.linked !== null) {
      this.linkText = this.linked;
      this.linked = null;
    }
  }

  /** After the current task may have changed. */
  private taskChanged(previous: CurrentTask | null): void {
    if (this.current !== previous) this.openTask();
  }

  switchMode = (m: 'suite' | 'csv'): void => {
    const previous = this.current;
    this.mode = m;
    this.taskChanged(previous);
  };

  selectSuiteTask = async (id: string): Promise<void> => {
    this.selectedId = id;
    this.taskError = null;
    try {
      const [t, lb] = await Promise.all([this.registry.loadTask(id), this.registry.loadLeaderboard(id).catch(() => null)]);
      if (this.selectedId !== id) return;
      this.suiteLeaderboard = lb;
      const previous = this.current;
      this.suiteTask = { meta: t.meta, files: programInputs(t), origin: 'suite' };
      this.taskChanged(previous);
    } catch (e) {
      this.taskError = `Could not load task ${id}: ${message(e)}`;
    }
  };

  loadStarter = (): void => {
    const s = this.starters.find((x) => x.id === this.starterId);
    if (!s || s.source === this.source) return;
    this.undoSource = this.source;
    this.source = s.source;
  };

  resetProgram = (): void => {
    if (!this.current || this.atStart) return;
    this.undoSource = this.source;
    this.source = startingProgram(this.current.meta);
  };

  restore = (): void => {
    if (this.undoSource === null) return;
    this.source = this.undoSource;
    this.undoSource = null;
    // back at the saved program: the draft is over (restoring some other text keeps it a draft)
    const c = this.current;
    if (c && this.linkDraft === c.meta.id && this.source === storedProgram(c.meta.id)) this.linkDraft = null;
  };

  /** Leaves the link's draft for the program saved for this task. */
  openSavedProgram = (): void => {
    if (!this.current) return;
    this.source = storedProgram(this.current.meta.id) ?? startingProgram(this.current.meta);
    this.undoSource = null;
    this.linkDraft = null;
  };

  /** The user's say: the link's program (as edited since) replaces the saved one. */
  keepLinkDraft = (): void => {
    this.linkDraft = null;
    this.undoSource = null;
  };

  private readonly poolProgress = (p: Parameters<typeof describePoolProgress>[0]): void => {
    this.poolMessage = describePoolProgress(p);
    if (p.phase !== 'ready') {
      this.poolBoot ??= this.progress.begin('start.sandbox', 'Booting the Python sandbox (Pyodide, a memory snapshot, then the workers)');
      if (p.size > 0) this.poolBoot.advance(p.readyWorkers, p.size);
    } else {
      this.poolBoot?.end();
      this.poolBoot = null;
    }
  };

  /** Time left of the leaderboard build: the time so far scaled by what the programs still to run cost (build-estimate.ts). */
  buildLeft = (b: PopulationProgress): number | null => (this.buildCost ? buildSecondsLeft(this.buildCost.shares, this.buildCost.ids, this.buildDone, b.seconds) : null);

  /** The suite's recorded leaderboard builds of one task type (their per-program run times). */
  private async recordedBuilds(type: TaskMeta['type']): Promise<RecordedBuild[]> {
    const same = this.suite.filter((t) => t.type === type);
    const boards = await Promise.all(same.map((t) => this.registry.loadLeaderboard(t.id).then((lb) => ({ lb, nTrain: t.nTrain }), () => null)));
    return boards.flatMap((b) => {
      const p = b?.lb.provenance;
      return b && p?.programSeconds && p.jobs ? [{ programIds: p.programIds, programSeconds: p.programSeconds, seconds: p.seconds, jobs: p.jobs, nTrain: b.nTrain }] : [];
    });
  }

  run = async (): Promise<void> => {
    const task = this.current;
    if (!task || this.busy || this.timeoutProblem) return;
    this.running = true;
    this.runError = null;
    this.outcome = null;
    this.guess = null;
    this.guessError = null;
    // The world model's guess runs beside the real execution and never holds it up or fails it.
    const program = this.source;
    const guessing = program.trim()
      ? this.progress.track('playground.guess', 'The world model reads the program (its worker loads on the first run)', () => this.worldModel.guess(task.meta.card, program)).then(
          (g) => (this.guess = g),
          (e: unknown) => (this.guessError = `The world model could not score this program: ${message(e)}`),
        )
      : Promise.resolve();
    try {
      if (!program.trim()) throw new Error('The program is empty: write one, or load a reference program from the menu.');
      const p = await this.pool.get(this.poolProgress);
      const result = await this.progress.track('playground.run', 'Running the program in the sandbox', () => p.run({ source: program, files: task.files, timeoutMs: this.timeoutS * 1000 }));
      this.outcome = await gradePlaygroundRun(this.registry, task.meta.id, result);
    } catch (e) {
      this.runError = `The run could not finish: ${message(e)}`;
    } finally {
      await guessing;
      this.running = false;
      this.releaseIfAway();
    }
  };

  /** A CSV task from the form: registered, opened, and its leaderboard built from the reference population. */
  buildCsvTask = async (task: BuiltTask, population: number): Promise<void> => {
    this.buildError = null;
    this.leaderboard = null;
    try {
      await this.registry.addCustomTask(task);
    } catch (e) {
      this.buildError = message(e);
      return;
    }
    const previous = this.current;
    this.csvTask = { meta: task.meta, files: programInputs(task), origin: 'csv' };
    this.taskChanged(previous);
    const programs = populationFor(task.meta.type, task.meta.metric, population);
    this.buildTotal = programs.length;
    this.building = { done: 0, total: programs.length, failed: 0, seconds: 0, programId: '' };
    this.buildDone = new Set();
    this.buildCost = null;
    try {
      const p = await this.pool.get(this.poolProgress);
      const builds = await this.recordedBuilds(task.meta.type).catch(() => []);
      this.buildCost = { shares: costShares(builds), ids: programs.map((x) => x.id), first: firstBuildEstimate(builds, task.meta.nTrain, p.size) };
      const files = programInputs(task);
      const run = await runPopulation((job) => p.run(job), files, programs, {
        jobs: p.size,
        toolkitHash: await libraryHash(pythonLibrary()),
        onProgress: (progress) => {
          this.buildDone.add(progress.programId);
          this.building = progress;
        },
      });
      // Grading side: the labels never left this thread.
      const lb = leaderboardOnTheSpot(task, run, `browser sandbox pool (Playground, ${run.jobs} worker(s))`);
      this.registry.setCustomLeaderboard(task.meta.id, lb);
      if (this.csvTask?.meta.id === task.meta.id) this.leaderboard = lb;
      if (lb.entries.length === 0) this.buildError = 'Every reference program failed on this data, so there is no leaderboard to rank against; see the failures below.';
    } catch (e) {
      this.buildError = `The leaderboard could not be built: ${message(e)}`;
    } finally {
      this.building = null;
      this.releaseIfAway();
    }
  };
}

/** The page's one Playground session. */
export const playgroundSession = new PlaygroundSession();
