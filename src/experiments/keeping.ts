// When the experiment page keeps its run so far (src/app/experiment-entry.ts). A keep is not free:
// the checkpoint (weights and AdamW moments) is 15.5 MB of text, and taking it, writing it and
// handing it to the runner took 6.5 s on the busy 2-core machine, as long as a small run's step.
// So the page keeps before every evaluation (which takes minutes, and is then not done twice),
// after it, and otherwise only once training since the last keep has run KEEP_COST_RATIO times what
// that keep cost: between evaluations, keeps of equal cost then take at most 1 / (1 + ratio) of the
// training time, and a stop loses at most that much training. Keeping never changes what a run does, only where a stopped one goes on.

/** Training time since the last keep, in multiples of its cost, after which the next step is kept. */
export const KEEP_COST_RATIO = 20;

export interface LastKeep {
  /** When it ended, and what it cost, in ms on the page's clock. */
  at: number;
  ms: number;
}

/** Whether to keep the run so far after a step; `last` is null before this invocation's first keep. */
export function keepAfterStep(last: LastKeep | null, now: number, evaluationFollows: boolean): boolean {
  return evaluationFollows || last === null || now - last.at >= KEEP_COST_RATIO * last.ms;
}
