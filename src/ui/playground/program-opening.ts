// What the Playground opens: the program a task opens with (the one last written for it, else its
// starting program, or a shared link's program, as a draft beside a saved one), and whether a URL the
// view is opened at is a link to follow or the page's own, which brings the view back as it was.
import { starterPrograms } from './starter-programs.ts';
import type { TaskMeta } from '../../tasks/task-types.ts';

/** The program a task starts with: the reference menu's first program for its type. */
export const startingProgram = (meta: Pick<TaskMeta, 'type' | 'metric'>): string => starterPrograms(meta.type, meta.metric)[0]?.source ?? '';

export interface OpenedProgram {
  /** What the editor holds. */
  source: string;
  /** What "Restore my previous text" brings back (null: nothing to restore). */
  undoSource: string | null;
  /** True when the link's program stands beside a saved one, unsaved, until the user chooses. */
  linkDraft: boolean;
}

/**
 * The editor's text when a task opens: `kept` is the program saved for it (null: none), `linked` a
 * link's program (null: none). A link never overwrites a saved program: it opens as a draft.
 */
export function openedProgram(kept: string | null, starting: string, linked: string | null): OpenedProgram {
  const own = kept ?? starting;
  if (linked === null || linked === own) return { source: own, undoSource: null, linkDraft: false };
  return { source: linked, undoSource: kept, linkDraft: kept !== null };
}

/** What the view's URL asks for: `task`, `p` (the packed program) and `data=own` (the CSV tab). */
export interface PlaygroundLink {
  task: string | null;
  program: string | null;
  ownData: boolean;
}

export const linkOf = (params: URLSearchParams): PlaygroundLink => ({ task: params.get('task'), program: params.get('p'), ownData: params.get('data') === 'own' });

/**
 * Whether a URL asks for something other than what the view already shows. The query the page wrote
 * itself (the menu brings a view back with it) asks for nothing: its program is one of `ownLinks` (the
 * links the page wrote or already opened), its task the open one. A URL without a task or program
 * (the overview's plain link) leaves the view as it is.
 */
export function asksForOther(link: PlaygroundLink, shown: { mode: 'suite' | 'csv'; selectedId: string }, ownLinks: ReadonlySet<string>): boolean {
  if (link.program !== null && !ownLinks.has(link.program)) return true;
  if (link.ownData) return shown.mode !== 'csv';
  return link.task !== null && (shown.mode !== 'suite' || link.task !== shown.selectedId);
}
