// A traceback in the user's terms. The sandbox runs the editor's text as PROGRAM_FILE under a runner
// (the pool's guard, which Pyodide compiles as "<exec>"), and Python prints the runner's frames too:
// `File "<exec>", line 156, in run` points nowhere the user can look. The runner is always the
// outermost caller, so every frame above the program's first one is the runner's; those go, and the
// program's frames (with the editor's line numbers: the source runs as sent) and the library frames
// it called stay. The raw text stays with the result, for the "full traceback" view.
import { PROGRAM_FILE } from '../../sandbox-pyodide/protocol.ts';

const HEADER = 'Traceback (most recent call last):';
/** A stack frame: `  File "<file>", line N, in <function>`. A SyntaxError's location line has no `, in`. */
const FRAME = /^ {2}File "(.*)", line \d+, in .*$/;
/** Lines that belong to the frame above them: its source line and carets, or a recursion summary. */
const FRAME_DETAIL = /^ {4}|^ {2}\[Previous line repeated/;

/** One stack frame with its detail lines. */
interface Frame {
  file: string;
  lines: string[];
}

/** The traceback without the runner's frames; text that is not a traceback comes back unchanged. */
export function userTraceback(raw: string): string {
  const lines = raw.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] !== HEADER) {
      out.push(lines[i++]);
      continue;
    }
    const frames: Frame[] = [];
    let j = i + 1;
    for (;;) {
      const frame = FRAME.exec(lines[j] ?? '');
      if (frame) frames.push({ file: frame[1], lines: [lines[j++]] });
      else if (frames.length > 0 && FRAME_DETAIL.test(lines[j] ?? '')) frames[frames.length - 1].lines.push(lines[j++]);
      else break;
    }
    const first = frames.findIndex((f) => f.file === PROGRAM_FILE);
    // No frame of the program (a SyntaxError: the runner's compile raised it): only the runner's
    // frames were there, and Python prints a script's syntax error without a header either.
    const kept = first < 0 ? [] : frames.slice(first);
    if (kept.length > 0) out.push(HEADER, ...kept.flatMap((f) => f.lines));
    i = j;
  }
  return out.join('\n');
}
