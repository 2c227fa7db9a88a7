// The Train view's run, kept outside the view: a module-level object that outlives the component,
// so switching to another view neither stops nor drops the run (the loop keeps going in the
// background and the view shows its live state when it is opened again). After every step the run
// is written to the store's autosave slot, so a reload can offer to resume it where it was.
import type { TrainerSession, TrainerState } from '../../app/create-trainer.ts';
import type { TrainerRuntime } from '../../app/trainer-runtime.ts';
import { liveSampling, type LiveSampling } from './live-sampling.ts';
import { ProgressTracker, type Activity } from '../../app/progress.ts';
import { AUTOSAVE_ID, RunStore, type RunEvaluation, type SavedRun, type SavedRunSummary } from '../../app/run-store.ts';
import { parseRunFile, runFileText, type RunFileContent } from '../../app/run-file.ts';
import type { EvaluationResult } from '../../training/evaluate.ts';
import type { LadderReading } from '../../pipeline/ladder-reading.ts';
import type { StepRecord, TrainerCheckpoint, TrainerConfig } from '../../training/trainer.ts';
import { configOf, defaultSettings, preparedBatch, settingsOfConfig, type TrainSettings } from './settings.ts';

export type RunPhase = 'idle' | 'starting' | TrainerState;

/** A kept run drawn over the open one's charts. */
export interface Overlay {
  id: string;
  label: string;
  records: StepRecord[];
  evaluations: RunEvaluation[];
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

class TrainRun {
  settings = $state<TrainSettings>(defaultSettings());
  session = $state.raw<TrainerSession | null>(null);
  phase = $state<RunPhase>('idle');
  error = $state<string | null>(null);
  records = $state.raw<StepRecord[]>([]);
  evaluation = $state.raw<EvaluationResult | null>(null);
  evaluating = $state(false);
  /** Every held-out evaluation of this run (along it and by the button), in order. */
  evaluations = $state.raw<RunEvaluation[]>([]);
  /** Why the last evaluation failed, if it did. */
  evaluationError = $state<string | null>(null);
  /** Which policy the evaluation measured: the run, its step count, the models it started from. */
  evaluatedAt = $state<{ run: string; step: number; models: string } | null>(null);
  /** The open run's name (empty: the preset and seed stand in). */
  label = $state('');
  /** Kept runs drawn over the charts. */
  overlays = $state.raw<Overlay[]>([]);
  /** Runs saved by hand. */
  saved = $state.raw<SavedRunSummary[]>([]);
  /** The autosave slot: the latest run of this browser, offered for resuming while no run is open. */
  autosaved = $state.raw<SavedRunSummary | null>(null);
  /** The last autosave's outcome, for the status line. */
  autosaveNote = $state<string | null>(null);
  storeMessage = $state<string | null>(null);
  /** The policy's programs of the sampling under way, as they are written; null between samplings. */
  live = $state.raw<LiveSampling | null>(null);
  /** The committed ladder reading for the groups table's "predicted" column, or why there is none; loaded after the first step. */
  ladder = $state.raw<{ reading: LadderReading; fittedOn: string } | string | null>(null);
  /** The display compile check of one step's programs (presets without a gate), by `${run}#${step}`. */
  compileChecks = $state.raw<{ key: string; verdicts: (string | null)[] | null; error: string | null } | null>(null);
  /** What the run is doing right now (start-up, the phases of a step, evaluation), for the progress bars. */
  activities = $state.raw<readonly Activity[]>([]);
  private readonly progress = new ProgressTracker();

  constructor() {
    this.progress.listen((a) => (this.activities = a));
  }

  busy = $derived(this.phase === 'starting' || this.phase === 'running' || this.phase === 'stopping' || this.evaluating);

  private store: RunStore | null = null;

  private async openStore(): Promise<RunStore> {
    this.store ??= await RunStore.open();
    return this.store;
  }

  /** Models, workers and sandbox, started when the view opens (null once it failed: a step retries and says why). */
  private ahead: Promise<TrainerRuntime | null> | null = null;

  /**
   * Starts what every run needs (models, workers, sandbox) in the background, without blocking the
   * view, so the first step does not wait for it. A run of other settings (a larger batch, another
   * backend) starts its own instead.
   */
  prepare = (): void => {
    if (this.session || this.ahead) return;
    const { policyBackend, worldModelBackend } = this.settings;
    const maxBatch = preparedBatch(this.settings);
    this.ahead = import('../../app/trainer-runtime.ts')
      .then((m) => m.startTrainerRuntime({ policyBackend, worldModelBackend, progress: this.progress, maxBatch }))
      .catch(() => null);
  };

  private async ensureSession(): Promise<TrainerSession> {
    return this.session ?? this.openSession(configOf(this.settings));
  }

  private async openSession(config: TrainerConfig, checkpoint?: TrainerCheckpoint): Promise<TrainerSession> {
    this.phase = 'starting';
    if (!checkpoint) await this.keepAutosaved();
    const { createTrainer } = await import('../../app/create-trainer.ts');
    const { policyBackend, worldModelBackend } = this.settings;
    const runtime = this.ahead ? await this.ahead : null;
    this.ahead = null;
    const s = await createTrainer(config, { policyBackend, worldModelBackend, progress: this.progress, ...(runtime ? { runtime } : {}), ...(checkpoint ? { checkpoint } : {}) });
    s.onStep((r) => {
      this.records = [...this.records, r];
      this.live = null;
      this.loadLadder();
    });
    s.onSampling((e) => (this.live = liveSampling(this.live, e, performance.now())));
    s.onEvaluation((e) => {
      this.live = null;
      if (!e.result) {
        this.evaluationError = `The evaluation after step ${e.step} failed: ${e.error ?? 'unknown error'}`;
        return;
      }
      this.evaluationError = null;
      const busy = e.step === 0 ? 0 : (this.records.at(-1)?.cumulativeCost.totalBusyMs ?? 0) / 1000;
      this.evaluations = [...this.evaluations, { step: e.step, tasks: e.result.tasks.length, result: e.result, busySeconds: busy }];
      this.evaluation = e.result;
      this.evaluatedAt = { run: s.config.name, step: e.step, models: s.modelsLabel };
    });
    this.applyEvaluationPlan(s);
    s.onCheckpoint((r, c) => this.autosave(s, c, r.step + 1));
    s.onState((st, e) => {
      this.phase = st;
      if (st !== 'running' && st !== 'stopping') this.live = null;
      if (st === 'failed') this.error = `The run stopped: ${describe(e)}`;
    });
    this.session = s;
    this.phase = s.state;
    return s;
  }

  /** Loads the committed ladder reading once; a missing or bad file is said in its place, never thrown. */
  private loadLadder(): void {
    if (this.ladder !== null) return;
    this.ladder = 'loading the ladder reading';
    void import('../../app/models.ts')
      .then((m) => m.loadLadderReading())
      .then(
        (r) => (this.ladder = r ?? 'the models folder has no ladder reading'),
        (e: unknown) => (this.ladder = `no ladder reading: ${describe(e)}`),
      );
  }

  /** Runs the authors' compile gate over a step's programs for display (the session's verifier; not charged to the run). */
  checkCompile = async (record: StepRecord): Promise<void> => {
    const s = this.session;
    if (!s) return;
    const key = `${record.run}#${record.step}`;
    this.compileChecks = { key, verdicts: null, error: null };
    try {
      const verdicts = await s.compileCheck(record.groups.flatMap((g) => g.programs));
      if (this.compileChecks?.key === key) this.compileChecks = { key, verdicts, error: null };
    } catch (e) {
      if (this.compileChecks?.key === key) this.compileChecks = { key, verdicts: null, error: describe(e) };
    }
  };

  /** The open run's name as the list shows it. */
  currentLabel(s: TrainerSession | null = this.session): string {
    const c = s?.config;
    return this.label.trim() || (c ? `${c.name} seed ${c.seed}` : `${this.settings.presetId} seed ${this.settings.seed}`);
  }

  private content(s: TrainerSession, checkpoint: TrainerCheckpoint): RunFileContent {
    return { label: this.currentLabel(s), modelsLabel: s.modelsLabel, checkpoint, records: this.records, evaluation: this.evaluation, evaluations: this.evaluations };
  }

  /** Writes the run to the autosave slot; a failure is reported and never stops the run. */
  private async autosave(s: TrainerSession, checkpoint: TrainerCheckpoint, step: number): Promise<void> {
    try {
      const summary = await (await this.openStore()).save(this.content(s, checkpoint), AUTOSAVE_ID);
      this.autosaved = summary;
      this.autosaveNote = `saved in this browser after step ${step}`;
    } catch (e) {
      this.autosaveNote = `autosave failed: ${describe(e)}`;
    }
  }

  /** Runs `what` with the session (opened on first use), reporting failures on the page. */
  private async withSession(what: (s: TrainerSession) => Promise<unknown>): Promise<void> {
    this.error = null;
    try {
      await what(await this.ensureSession());
    } catch (e) {
      this.error = describe(e);
      if (this.phase === 'starting') this.phase = 'idle';
    }
  }

  /** True while start()'s loop runs (Stop applies to it, not to a single step). */
  looping = $state(false);

  /** The evaluation options of the settings (the button's and the plan's: avg@2 on the first evalTasks tasks). */
  private evaluationOptions() {
    return { k: 2, tasks: this.settings.evalTasks };
  }

  /** Hands the settings' evaluation plan to the session (it may change while the run goes on). */
  applyEvaluationPlan = (s: TrainerSession | null = this.session) => {
    if (!s) return;
    const every = this.settings.evalEvery;
    s.evaluateEvery(Number.isInteger(every) && every > 0 ? { every, options: this.evaluationOptions() } : null);
  };

  /** With evaluation along the run on, the SFT policy is evaluated before step 1: the baseline. */
  private async baseline(s: TrainerSession): Promise<void> {
    if (!(this.settings.evalEvery > 0) || s.step !== 0 || this.evaluations.some((e) => e.step === 0)) return;
    this.evaluating = true;
    try {
      await s.evaluateBetweenSteps(this.evaluationOptions());
    } finally {
      this.evaluating = false;
      this.live = null;
    }
  }

  start = () =>
    this.withSession(async (s) => {
      this.looping = true;
      try {
        this.applyEvaluationPlan(s);
        await this.baseline(s);
        await s.start();
      } finally {
        this.looping = false;
      }
    });
  stepOnce = () =>
    this.withSession(async (s) => {
      this.applyEvaluationPlan(s);
      await this.baseline(s);
      await s.stepOnce();
    });

  stop = async () => {
    try {
      await this.session?.stop();
    } catch (e) {
      this.error = describe(e);
    }
  };

  /** Evaluates now, or after the step under way when a run is going on; the result joins the run's evaluations. */
  evaluate = async () => {
    this.evaluating = true;
    try {
      await this.withSession(async (s) => {
        this.evaluationError = null;
        const running = s.state === 'running' || s.state === 'stopping';
        await s.evaluateBetweenSteps(this.evaluationOptions());
        if (!running && this.records.length > 0) await this.autosave(s, await s.checkpoint(), s.step);
      });
    } finally {
      this.evaluating = false;
      this.live = null;
    }
  };

  /**
   * A fresh run is about to take the autosave slot: the run in it (one not resumed) moves to the
   * runs kept in this browser first, so nothing is replaced silently.
   */
  private async keepAutosaved(): Promise<void> {
    try {
      const store = await this.openStore();
      if (!(await store.autosaved())) return;
      const { id: _id, savedAt: _at, ...run } = await store.get(AUTOSAVE_ID);
      const kept = await store.save(run);
      await store.delete(AUTOSAVE_ID);
      this.autosaved = null;
      this.storeMessage = `Your previous run “${kept.label}” (${kept.step} step${kept.step === 1 ? '' : 's'}) is kept in the runs of this browser.`;
      await this.refreshSaved();
    } catch (e) {
      this.storeMessage = `Could not keep the previous run: ${describe(e)}`;
    }
  }

  /** Closes the run (its workers too). A run with steps is kept in this browser's runs first. */
  reset = async () => {
    const s = this.session;
    if (s && this.records.length > 0) {
      try {
        const store = await this.openStore();
        const kept = await store.save(this.content(s, await s.checkpoint()));
        await store.delete(AUTOSAVE_ID);
        this.autosaved = null;
        await this.refreshSaved();
        this.storeMessage = `Kept “${kept.label}” (${kept.step} step${kept.step === 1 ? '' : 's'}) in the runs of this browser: resume it, overlay it or export it from the list.`;
      } catch (e) {
        // Not kept: the run stays open, nothing is lost.
        this.storeMessage = `Could not keep the run, so it stays open: ${describe(e)}`;
        return;
      }
    }
    await this.session?.dispose();
    this.session = null;
    this.records = [];
    this.compileChecks = null;
    this.live = null;
    this.evaluation = null;
    this.evaluations = [];
    this.evaluationError = null;
    this.evaluatedAt = null;
    this.phase = 'idle';
    this.error = null;
    this.autosaveNote = null;
    this.label = '';
    this.prepare();
  };

  refreshSaved = async () => {
    try {
      const store = await this.openStore();
      [this.saved, this.autosaved] = await Promise.all([store.list(), store.autosaved()]);
    } catch (e) {
      this.storeMessage = `Saved runs are not available: ${describe(e)}`;
    }
  };

  saveRun = async () => {
    const session = this.session;
    if (!session) return;
    this.storeMessage = null;
    try {
      const checkpoint = await session.checkpoint();
      const s = await (await this.openStore()).save(this.content(session, checkpoint));
      this.storeMessage = `Saved ${s.name}, seed ${s.seed}, after step ${s.step}, in this browser (as “${s.label}”).`;
      await this.refreshSaved();
    } catch (e) {
      this.storeMessage = `Could not save the run: ${describe(e)}`;
    }
  };

  /** Replaces the open run with a saved one (or the autosaved one), ready to continue. */
  resumeRun = async (id: string) => {
    this.storeMessage = null;
    this.error = null;
    try {
      const run = await (await this.openStore()).get(id);
      await this.session?.dispose();
      this.session = null;
      // The saved config, with room to go on when the run had reached its planned steps.
      const config = { ...run.checkpoint.config, steps: Math.max(run.checkpoint.config.steps, run.checkpoint.step + 1) };
      this.settings = settingsOfConfig(config, this.settings);
      this.records = run.records;
      if (run.records.length > 0) this.loadLadder();
      this.evaluation = run.evaluation;
      this.evaluations = run.evaluations ?? [];
      this.label = run.label ?? '';
      await this.openSession(config, { ...run.checkpoint, config });
      this.storeMessage = `Resumed ${config.name}, seed ${config.seed}, at step ${run.checkpoint.step}.`;
    } catch (e) {
      this.storeMessage = `Could not resume the run: ${describe(e)}`;
      this.records = [];
      this.evaluation = null;
      this.evaluations = [];
      if (this.phase === 'starting') this.phase = 'idle';
    }
  };

  /** Draws a kept run over the charts, or takes it off. */
  toggleOverlay = async (id: string) => {
    if (this.overlays.some((o) => o.id === id)) {
      this.overlays = this.overlays.filter((o) => o.id !== id);
      return;
    }
    try {
      const r = await (await this.openStore()).get(id);
      this.overlays = [...this.overlays, { id, label: r.label ?? `${r.checkpoint.config.name} seed ${r.checkpoint.config.seed}`, records: r.records, evaluations: r.evaluations ?? [] }];
    } catch (e) {
      this.storeMessage = `Could not overlay the run: ${describe(e)}`;
    }
  };

  /** The open run (idle), or a kept one, as a file's name and text. */
  exportFile = async (id?: string): Promise<{ name: string; text: string }> => {
    let content: RunFileContent;
    if (id === undefined) {
      const s = this.session;
      if (!s) throw new Error('no run is open');
      content = this.content(s, await s.checkpoint());
    } else {
      const { id: _id, savedAt: _at, ...r }: SavedRun = await (await this.openStore()).get(id);
      content = { ...r, label: r.label ?? `${r.checkpoint.config.name} seed ${r.checkpoint.config.seed}` };
    }
    const c = content.checkpoint.config;
    const slug = content.label.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || `${c.name}-seed${c.seed}`;
    return { name: `wmrl-run-${slug}-step${content.checkpoint.step}.json`, text: runFileText(content) };
  };

  /** Loads an exported run into this browser's runs; a file that is not one is refused and nothing changes. */
  loadFile = async (file: File) => {
    this.storeMessage = null;
    try {
      const content = parseRunFile(await file.text());
      const kept = await (await this.openStore()).save(content);
      await this.refreshSaved();
      this.storeMessage = `Loaded “${kept.label}” (${kept.name}, seed ${kept.seed}, ${kept.step} step${kept.step === 1 ? '' : 's'}) from ${file.name} into the runs of this browser: resume it or overlay it.`;
    } catch (e) {
      this.storeMessage = `Could not load ${file.name}: ${describe(e)}. Nothing was changed.`;
    }
  };

  resumeAutosaved = () => this.resumeRun(AUTOSAVE_ID);
  discardAutosaved = () => this.deleteRun(AUTOSAVE_ID);

  deleteRun = async (id: string) => {
    try {
      await (await this.openStore()).delete(id);
      this.overlays = this.overlays.filter((o) => o.id !== id);
      await this.refreshSaved();
    } catch (e) {
      this.storeMessage = `Could not delete the run: ${describe(e)}`;
    }
  };
}

/** The page's one run. */
export const trainRun = new TrainRun();
