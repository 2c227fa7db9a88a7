// The free verifier's printed answers (static_check.py prints one JSON list), read the same way by the
// browser's verifier and the command-line one.
import type { StaticCheck } from './ports';

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
