// Where a run came from: the source commit and whether its checkout had uncommitted changes, the
// sandbox toolkit's hash, and when the runner started and finished it. The Node runners add it to every
// run file (src/cli/run-source.ts reads git and the toolkit); a page cannot know its commit. Run
// files written before it existed have none, and every reader here takes that as "not recorded".

/** Read once per experiment invocation, before any run starts. */
export interface RunSource {
  /** git HEAD of the checkout the runner ran in; null when it could not be read (gitError says why). */
  commit: string | null;
  /** Tracked files differed from HEAD, staged or not, results/ aside (src/cli/run-source.ts); null with commit. */
  dirty: boolean | null;
  /** Why commit and dirty are null (no git, not a checkout); null when they were read. */
  gitError: string | null;
  /** sha256 of the sandbox's Python library: the hash leaderboards and the outcome store record. */
  toolkitHash: string;
}

/** A run file's `provenance`: its invocation's source, and the runner's clock around this run. */
export interface RunProvenance extends RunSource {
  startedAt: string;
  finishedAt: string;
  /**
   * Present only in a run that was stopped and resumed (the robot runner): one entry per invocation that
   * ran part of it, in order. The source above is the last one's; startedAt is the first one's start.
   */
  segments?: RunSegment[];
}

/** One invocation's part of a resumed run. */
export interface RunSegment {
  commit: string | null;
  dirty: boolean | null;
  startedAt: string;
  /** When its last step was saved, or, for the last segment, when the run finished. */
  endedAt: string;
  /** Steps done when it began and when it ended (its last save). */
  fromStep: number;
  toStep: number;
  /** Its wall time up to endedAt; a step in flight when it was stopped is not counted (it is done again). */
  wallMs: number;
  machine: string;
}

/** A run result as the runner writes it: provenance is absent in run files that predate it. */
export type WithProvenance<T> = T & { provenance?: RunProvenance };

/** The shape a runner writes, for readers of run files that may have been edited by hand. */
export function isRunProvenance(x: unknown): x is RunProvenance {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Partial<RunProvenance>;
  const gitRead = typeof p.commit === 'string' && typeof p.dirty === 'boolean' && p.gitError === null;
  const gitNotRead = p.commit === null && p.dirty === null && typeof p.gitError === 'string';
  return (gitRead || gitNotRead) && typeof p.toolkitHash === 'string' && typeof p.startedAt === 'string' && typeof p.finishedAt === 'string';
}

/** The commit as people quote it. */
export const shortCommit = (commit: string): string => commit.slice(0, 7);

/** `commit 5ec65fc, clean; toolkit 1a2b3c4d5e6f` (or the commit unknown, and why). */
export function formatSource(s: RunSource): string {
  const commit = s.commit === null ? `commit unknown (${s.gitError ?? 'not read'})` : `commit ${shortCommit(s.commit)}, ${s.dirty ? 'DIRTY (uncommitted changes)' : 'clean'}`;
  return `${commit}; toolkit ${s.toolkitHash.slice(0, 12)}`;
}

/** One run's provenance in a line: its source, then `started ... finished ...`. */
export function formatProvenance(p: RunProvenance | undefined): string {
  if (!p) return 'no provenance (the run file predates it)';
  return `${formatSource(p)}; started ${p.startedAt}, finished ${p.finishedAt}`;
}

/** Runs grouped by what their source can say: per commit, the unknown ones, the unrecorded ones. */
function tally(ps: readonly (RunProvenance | undefined)[]) {
  const commits = new Map<string, number>();
  let dirty = 0;
  let unknown = 0;
  let unrecorded = 0;
  for (const p of ps) {
    if (!p) unrecorded++;
    else if (p.commit === null) unknown++;
    else commits.set(p.commit, (commits.get(p.commit) ?? 0) + 1);
    if (p?.dirty) dirty++;
  }
  return { commits, dirty, unknown, unrecorded, toolkits: new Set(ps.flatMap((p) => (p ? [p.toolkitHash] : []))) };
}

/**
 * Warnings about runs read together: some from a dirty tree, from different commits, or with
 * different toolkits. Empty when none applies, and when no run carries provenance.
 */
export function provenanceWarnings(ps: readonly (RunProvenance | undefined)[]): string[] {
  const t = tally(ps);
  const out: string[] = [];
  if (t.dirty > 0) out.push(`${t.dirty} of ${ps.length} run(s) started from a dirty tree (uncommitted changes to tracked files): their commit does not name all of their code`);
  if (t.commits.size > 1) out.push(`the runs come from ${t.commits.size} different commits: ${[...t.commits.keys()].map(shortCommit).join(', ')}`);
  const uncommitted = t.unknown + t.unrecorded;
  if (t.commits.size > 0 && uncommitted > 0) out.push(`${uncommitted} of ${ps.length} run(s) have no known commit (${t.unrecorded > 0 ? 'run files older than provenance' : 'git not read'}), so they may come from other commits`);
  if (t.toolkits.size > 1) out.push(`the runs used ${t.toolkits.size} different sandbox toolkits: ${[...t.toolkits].map((h) => h.slice(0, 12)).join(', ')}`);
  return out;
}

/**
 * summary.md's line on the runs' source, e.g. `Source: commit 5ec65fc (6 runs), all from a clean tree.`,
 * with a warning when any ran from a dirty tree; null when no run carries provenance (older folders
 * rewrite unchanged).
 */
export function sourceLine(ps: readonly (RunProvenance | undefined)[]): string | null {
  const t = tally(ps);
  if (t.unrecorded === ps.length) return null;
  const parts = [...t.commits].map(([c, n]) => `${shortCommit(c)} (${n} run${n === 1 ? '' : 's'})`);
  if (t.unknown > 0) parts.push(`unknown (${t.unknown} run${t.unknown === 1 ? '' : 's'}: ${ps.find((p) => p && p.commit === null)?.gitError})`);
  if (t.unrecorded > 0) parts.push(`not recorded (${t.unrecorded} older run file${t.unrecorded === 1 ? '' : 's'})`);
  const head = `Source: commit${parts.length === 1 ? '' : 's'} ${parts.join(', ')}`;
  if (t.dirty === 0) return t.commits.size > 0 && t.unknown + t.unrecorded === 0 ? `${head}, all from a clean tree.` : `${head}.`;
  return `${head}. **Warning: ${t.dirty} run${t.dirty === 1 ? '' : 's'} started from a dirty tree (uncommitted changes to tracked files), so the commit does not name all of the code that ran.**`;
}
