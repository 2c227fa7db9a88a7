// The world model's guess for a Playground run: the frozen scorer of the paper reads the task card and
// the program text (it never runs the program) and predicts the leaderboard percentile. Shown beside
// the real, executed score, it makes the world model's strengths and blind spots visible program by
// program. The worker and the committed models load on the first run only. The score is also read
// onto the authors' status ladder (the committed ladder-reading.json): the status and quality bucket
// the score stands for, as the authors' world model answers.
import { loadCommittedModels, loadLadderReading } from '../../app/models.ts';
import type { LadderGuess, LadderReading } from '../../pipeline/ladder-reading.ts';
import { startWorldModelWorker, type WorldModelWorkerHandle } from '../../workers/world-model-client.ts';
import type { WorldModelBackend } from '../../workers/world-model-api.ts';

export interface WorldModelGuess {
  /** Raw predicted percentile s in (0, 1): no calibration here (that needs anchors from a run). */
  score: number;
  backend: WorldModelBackend;
  /** True when card + program were longer than the model's context and the program was cut. */
  truncated: boolean;
  ms: number;
  /** The score read onto the authors' ladder, or why it cannot be (no reading committed, a bad file). */
  ladder: { guess: LadderGuess; fittedOn: string } | { missing: string };
}

export class LazyWorldModel {
  private handle: WorldModelWorkerHandle | null = null;
  private ready: Promise<WorldModelWorkerHandle> | null = null;
  private reading: Promise<{ reading: LadderReading; fittedOn: string } | string> | null = null;

  /** The reading, or why there is none; a failure is reported beside the score, never instead of it. */
  private ladderReading(): Promise<{ reading: LadderReading; fittedOn: string } | string> {
    this.reading ??= loadLadderReading().then(
      (r) => r ?? 'the models folder has no ladder reading (npm run wm-eval -- --write-reading writes one)',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    return this.reading;
  }

  private start(): Promise<WorldModelWorkerHandle> {
    this.ready ??= (async () => {
      const models = await loadCommittedModels();
      const handle = startWorldModelWorker();
      this.handle = handle;
      await handle.load({ model: models.worldModel, tokenizer: models.tokenizer, contextLength: models.contextLength, nHeads: models.nHeads });
      return handle;
    })().catch((e: unknown) => {
      // A later run tries again (e.g. after the models were built).
      this.close();
      throw e;
    });
    return this.ready;
  }

  async guess(card: string, program: string): Promise<WorldModelGuess> {
    const handle = await this.start();
    const r = await handle.api.score([{ card, program }]);
    const reading = await this.ladderReading();
    // Read without the compile gate: the reading was fitted on scores alone.
    const ladder = typeof reading === 'string' ? { missing: reading } : { guess: reading.reading.read(r.scores[0], { compiles: true, blank: false }), fittedOn: reading.fittedOn };
    return { score: r.scores[0], backend: r.backend, truncated: r.truncated > 0, ms: r.ms, ladder };
  }

  close(): void {
    this.handle?.terminate();
    this.handle = null;
    this.ready = null;
    this.reading = null;
  }
}
