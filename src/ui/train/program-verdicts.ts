// What the groups table says about each program beside the world model's raw score s: the status
// and quality that s stands for on the authors' ladder (the committed reading, the Playground's), and
// the compile check. The two side by side show where the world model knows less than compile():
// a program that does not compile but reads as 'valid'.
import type { LadderReading } from '../../pipeline/ladder-reading.ts';
import type { GroupRecord } from '../../training/trainer.ts';

export interface ProgramVerdict {
  /** The ladder's reading of s ('valid · mid', 'runtime error'), 'not scored' where a gate stopped the program, null without a score or a reading. */
  predicted: string | null;
  /** 'compiles', why it does not (or why the gate stopped it), or null when nobody checked. */
  compile: string | null;
}

/** Whether a gate's or the check's reason is about compiling (the verifier also has keyword reasons, which compile). */
const compileFailure = (reason: string) => reason === 'empty program' || reason.startsWith('does not compile');

/**
 * One verdict per program of a group. `checked` is the compile check run for display (a preset without
 * a gate), one reason or null per program; the gate's own verdicts in the record come first.
 */
export function programVerdicts(g: GroupRecord, reading: LadderReading | null, checked: readonly (string | null)[] | null): ProgramVerdict[] {
  return g.programs.map((program, i) => {
    const gate = g.gate?.[i];
    const check = g.gate ? (gate && compileFailure(gate) ? gate : null) : checked ? checked[i] : undefined;
    const compile =
      gate !== undefined && gate !== null && !compileFailure(gate) ? `compiles; the verifier stopped it: ${gate}` : check === undefined ? null : check === null ? 'compiles' : check;
    const s = g.wmScores?.[i];
    let predicted: string | null = null;
    if (gate) predicted = 'not scored (gate)';
    else if (s !== undefined && s !== null && reading) {
      const guess = reading.read(s, { compiles: !check, blank: program.trim() === '' });
      predicted = guess.quality ? `${guess.statuses[0]} · ${guess.quality}` : guess.statuses[0];
    }
    return { predicted, compile };
  });
}
