// The trainer's ports, each call reported to a ProgressTracker as it begins, advances and ends, so
// the page can show what a step is doing (and stream the programs as the policy writes them).
import type { SampleRequest, SamplingProgress } from '../training/ports.ts';
import type { TrainerPorts } from '../training/trainer.ts';
import type { ProgressTracker } from './progress.ts';

/**
 * The ports, telling `progress` what each call is doing: sampling, world-model scoring, executions
 * (counted one by one: the executor runs them in parallel either way) and the update.
 */
export function trackedPorts(
  ports: TrainerPorts,
  progress: ProgressTracker | undefined,
  what: () => { key: string; label: string },
  /** Called as a sampling call begins; hands it the listener of that call's progress. */
  sampling?: (requests: readonly SampleRequest[], listen: (l: (p: SamplingProgress) => void) => void) => void,
): TrainerPorts {
  if (!progress) return ports;
  const { policy, worldModel, executor, verifier } = ports;
  return {
    ...ports,
    ...(verifier ? {
      verifier: {
        check: (programs: readonly string[]) => {
          const w = what();
          return progress.track(`${w.key}.verifier`, `${w.label}: the static check reads ${programs.length} programs`, () => verifier.check(programs));
        },
      },
    } : {}),
    policy: {
      ...policy,
      sample: async (requests, options) => {
        const w = what();
        const h = progress.begin(`${w.key}.sampling`, `${w.label}: the policy writes ${requests.length} programs`, requests.length);
        let forward: ((p: SamplingProgress) => void) | null = null;
        sampling?.(requests, (l) => (forward = l));
        // Reports come over their own port: one may arrive after the result, and is then dropped.
        let over = false;
        try {
          const r = await policy.sample(requests, options, (p) => {
            if (over) return;
            h.advance(p.done);
            forward?.(p);
          });
          h.end();
          return r;
        } catch (e) {
          h.end(false);
          throw e;
        } finally {
          over = true;
        }
      },
      update: (request) => {
        const w = what();
        return progress.track(`${w.key}.update`, `${w.label}: updating the policy`, () => policy.update(request));
      },
    },
    worldModel: {
      ...worldModel,
      score: (pairs) => {
        const w = what();
        return progress.track(`${w.key}.world-model`, `${w.label}: the world model scores ${pairs.length} programs`, () => worldModel.score(pairs));
      },
    },
    executor: {
      run: async (requests) => {
        const w = what();
        const h = progress.begin(`${w.key}.executions`, `${w.label}: running programs for real in the sandbox`, requests.length);
        let done = 0;
        try {
          const results = await Promise.all(requests.map(async (r) => {
            const [x] = await executor.run([r]);
            h.advance(++done);
            return x;
          }));
          h.end();
          return results;
        } catch (e) {
          h.end(false);
          throw e;
        }
      },
    },
  };
}
