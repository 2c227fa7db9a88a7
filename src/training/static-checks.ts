// The free verifier's printed answers (static_check.py prints one JSON list), read the same way by the
// browser's verifier and the command-line one.
import type { StaticCheck } from './ports';

/** How a program the verifier rejected reads in the records: never run, never scored (its s is a placeholder 0). */
export const REJECTED_MESSAGE_PREFIX = 'static check: ';
export const rejectedMessage = (reason: string | undefined): string => `${REJECTED_MESSAGE_PREFIX}${reason ?? 'rejected'}`;
export const isRejectedMessage = (message: string | null | undefined): boolean => (message ?? '').startsWith(REJECTED_MESSAGE_PREFIX);

/** The verifier's printed answers, one per program; a verifier that did not answer is an error, never a pass. */
export function parseStaticChecks(stdout: string | null, n: number, why: string): StaticCheck[] {
  if (stdout === null) throw new Error(`static check: the verifier failed (${why})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.trim().split('\n').pop() ?? '');
  } catch {
    throw new Error('static check: the verifier printed no answer');
  }
  if (!Array.isArray(parsed) || parsed.length !== n) throw new Error(`static check: ${Array.isArray(parsed) ? parsed.length : 'no'} answers for ${n} programs`);
  return parsed.map((x: { ok?: unknown; reason?: unknown }) => (x && x.ok === true ? { ok: true } : { ok: false, reason: typeof x?.reason === 'string' ? x.reason : 'rejected' }));
}
