// The free verifier's printed answers (static_check.py prints one JSON list), read the same way by the
// browser's verifier and the command-line one.
import type { StaticCheck } from './ports.ts';

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

/**
 * The verifier's own limits (static_check.py reads them from task.json). Policy programs are under
 * 1 KB (the largest of 432 held-out samples: 661 bytes), so these reject nothing a policy writes.
 * - maxSourceBytes: a 2 MB list literal alone takes the interpreter to its 1 GiB cap.
 * - maxDepth: an estimate of nesting from the tokens (expressions, and across lines indented blocks
 *   and elif chains); a few thousand levels (`x = 1` and 5,000 `+1`), or 1,200 elifs, overflow
 *   Pyodide's stack and kill the interpreter.
 * - maxFstringFields: f-string fields compile in quadratic time.
 * - programSeconds: a program whose check took longer is rejected (a check cannot be interrupted
 *   inside the compiler; the caps above keep one check to about a second).
 */
export const VERIFIER_LIMITS = { maxSourceBytes: 16_384, maxDepth: 200, maxFstringFields: 256, programSeconds: 5 } as const;

/** Programs per verifier run: keeps the answers far under any output cap. */
export const VERIFIER_CHUNK = 256;

/** task.json for static_check.py: the programs and the limits. */
export function verifierRequest(programs: readonly string[]): string {
  const l = VERIFIER_LIMITS;
  return JSON.stringify({ programs, limits: { max_source_bytes: l.maxSourceBytes, max_depth: l.maxDepth, max_fstring_fields: l.maxFstringFields, program_seconds: l.programSeconds } });
}

/** A time limit for one verifier run over `n` programs, ms. */
export const verifierTimeoutMs = (n: number): number => (30 + n * VERIFIER_LIMITS.programSeconds) * 1000;

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

/**
 * One answer per program, whatever any of them does to the verifier. Oversized programs are
 * rejected here without being sent; the rest go in chunks to `runChunk` (one verifier run, which
 * throws when the verifier gave no usable answer); a chunk that fails is judged again one program
 * at a time, and a program that still fails alone is rejected with the reason, so a hostile
 * program never costs its neighbours their answers.
 */
export async function judgeEach(programs: readonly string[], runChunk: (chunk: readonly string[]) => Promise<StaticCheck[]>, chunkSize = VERIFIER_CHUNK): Promise<StaticCheck[]> {
  const out: StaticCheck[] = new Array<StaticCheck>(programs.length);
  const sent: number[] = [];
  programs.forEach((p, i) => {
    const bytes = typeof p === 'string' ? utf8Bytes(p) : -1;
    if (bytes < 0) out[i] = { ok: false, reason: 'not a program' };
    else if (bytes > VERIFIER_LIMITS.maxSourceBytes) out[i] = { ok: false, reason: `too large to check: ${bytes} bytes, limit ${VERIFIER_LIMITS.maxSourceBytes}` };
    else sent.push(i);
  });
  for (let s = 0; s < sent.length; s += chunkSize) {
    const idx = sent.slice(s, s + chunkSize);
    try {
      const answers = await runChunk(idx.map((i) => programs[i]));
      idx.forEach((i, k) => (out[i] = answers[k]));
    } catch (batchError) {
      if (idx.length === 1) {
        out[idx[0]] = { ok: false, reason: `the verifier could not judge it: ${message(batchError)}` };
        continue;
      }
      for (const i of idx) {
        try {
          out[i] = (await runChunk([programs[i]]))[0];
        } catch (e) {
          out[i] = { ok: false, reason: `the verifier could not judge it: ${message(e)}` };
        }
      }
    }
  }
  return out;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^static check: /, '');
