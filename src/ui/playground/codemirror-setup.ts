// CodeMirror 6 for the program editor, in a chunk of its own (about 460 kB, most of the Playground's
// code): the view and its task list do not wait for it, and a plain text area stands in until it loads.
import { basicSetup } from 'codemirror';
import { indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';

export interface ProgramEditor {
  text(): string;
  /** Replaces the text with a fresh document: its undo history must not step back into another task's program. */
  setText(text: string): void;
  destroy(): void;
}

export function createEditor(opts: { parent: HTMLElement; doc: string; label: string; onchange: (text: string) => void; onrun: () => void }): ProgramEditor {
  const extensions: Extension[] = [
    // Before basicSetup, so Mod-Enter runs instead of inserting a blank line.
    keymap.of([{ key: 'Mod-Enter', run: () => (opts.onrun(), true) }, indentWithTab]),
    basicSetup,
    python(),
    EditorView.contentAttributes.of({ 'aria-label': opts.label }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) opts.onchange(u.state.doc.toString());
    }),
  ];
  const view = new EditorView({ parent: opts.parent, state: EditorState.create({ doc: opts.doc, extensions }) });
  return {
    text: () => view.state.doc.toString(),
    setText: (text) => view.setState(EditorState.create({ doc: text, extensions })),
    destroy: () => view.destroy(),
  };
}
