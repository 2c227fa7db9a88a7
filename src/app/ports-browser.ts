// The training loop's ports in the browser: the world model in its worker (or the lookup in its place), the sandbox pool with the
// grader on the page (hidden labels are read here and never enter a worker), and the task registry.
// The policy port is src/workers/policy-client.ts (workerPolicyPort).
import type { SandboxPool } from '../sandbox-pyodide/pool.ts';
import type { SandboxResult } from '../sandbox-pyodide/protocol.ts';
import { gradeRun, runReward } from '../sandbox-pyodide/run-grade.ts';
import type { GraderTask } from '../tasks/grader.ts';
import { programInputs } from '../tasks/task-builder.ts';
import type { LoadedTask, TaskRegistry } from '../tasks/task-registry.ts';
import type { ProgramInputs } from '../tasks/task-types.ts';
import type { WorldModelScorer } from '../workers/world-model-api.ts';
import { scoreWithLookup } from '../pipeline/family-type-lookup.ts';
import type { MeanLookup } from '../pipeline/mean-lookup.ts';
import type {
  ExecutionRequest, ExecutionResult, ExecutorPort, ScorePair, TaskSource, TaskView, WorldModelPort, WorldModelScoreResult,
} from '../training/ports.ts';

/** The world model in a worker: its own, or the policy worker when it shares the policy's WebGPU device. */
export class WorkerWorldModel implements WorldModelPort {
  constructor(private readonly scorer: WorldModelScorer, readonly backend: string) {}
  async score(pairs: readonly ScorePair[]): Promise<WorldModelScoreResult> {
    const r = await this.scorer.score(pairs.map((p) => ({ card: p.card, program: p.program })));
    return { scores: r.scores, forwards: r.forwards, busyMs: r.ms };
  }
}

/** The family x task-type lookup in the world model's place (paper-wmrl-lookup): no forward, its time charged as the world model's. */
export class LookupWorldModel implements WorldModelPort {
  readonly backend = 'family x task-type lookup (no world model)';
  constructor(private readonly lookup: MeanLookup) {}
  async score(pairs: readonly ScorePair[]): Promise<WorldModelScoreResult> {
    const t0 = performance.now();
    const scores = pairs.map((p) => scoreWithLookup(this.lookup, p.card, p.program));
    return { scores, forwards: 0, busyMs: performance.now() - t0 };
  }
}

/** One task's inputs (for the sandbox) and grader data (for this page only), loaded once. */
interface TaskData {
  inputs: ProgramInputs;
  grader: GraderTask;
}

export class SandboxExecutor implements ExecutorPort {
  private readonly tasks = new Map<string, Promise<TaskData>>();
  /** Per-status tallies of everything this executor ran, for the UI. */
  readonly tally: Record<string, number> = {};

  constructor(
    private readonly pool: SandboxPool,
    private readonly registry: TaskRegistry,
    /** Wall-clock budget per program. */
    private readonly timeoutMs = 20_000,
  ) {}

  private task(id: string): Promise<TaskData> {
    let p = this.tasks.get(id);
    if (!p) {
      p = (async () => {
        const [loaded, grader]: [LoadedTask, GraderTask] = await Promise.all([this.registry.loadTask(id), this.registry.loadGraderTask(id)]);
        return { inputs: programInputs(loaded), grader };
      })();
      p.catch(() => this.tasks.delete(id));
      this.tasks.set(id, p);
    }
    return p;
  }

  private grade(data: TaskData, r: SandboxResult): Omit<ExecutionResult, 'busyMs' | 'startMs' | 'workerId'> {
    const g = gradeRun(r, data.grader);
    if (g.status === 'ok') return { score: runReward(g), status: 'ok', medal: g.medal };
    // The groups table has one line for it: the pool's reason, else the traceback's last two lines.
    const message = g.status === 'invalid' ? g.message : (r.reason ?? r.traceback?.split('\n').slice(-2).join(' '));
    return { score: 0, status: g.status, medal: null, message };
  }

  async run(requests: readonly ExecutionRequest[]): Promise<ExecutionResult[]> {
    return Promise.all(
      requests.map(async (req) => {
        const data = await this.task(req.taskId);
        const r = await this.pool.run({ source: req.program, files: { ...data.inputs }, timeoutMs: this.timeoutMs });
        const graded = this.grade(data, r);
        this.tally[graded.status] = (this.tally[graded.status] ?? 0) + 1;
        // wallMs: dispatch to result on the worker that ran it. With one fresh interpreter per job its
        // start-up is paid per execution too, even when a spare hides it from the latency.
        return { ...graded, busyMs: r.wallMs, startMs: r.bootMs, workerId: r.workerId };
      }),
    );
  }
}

export class RegistryTasks implements TaskSource {
  constructor(private readonly registry: TaskRegistry) {}
  async trainingTasks(): Promise<TaskView[]> {
    return (await this.registry.list({ split: 'train' })).map((t) => ({ id: t.id, card: t.card }));
  }
  async heldOutTasks(): Promise<TaskView[]> {
    return (await this.registry.list({ split: 'heldout' })).map((t) => ({ id: t.id, card: t.card }));
  }
}
