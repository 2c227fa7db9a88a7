// TeX to HTML with KaTeX, for the Formula component. Pure (no DOM), so it is unit-tested in Node.
import katex from 'katex';

export type TexRendering = { html: string } | { error: string };

/**
 * KaTeX's markup for `tex` (HTML for the eye, MathML for screen readers), or why it could not be
 * parsed: the caller shows the source then, so a typo in a formula never takes a page down.
 */
export function renderTex(tex: string, displayMode = false): TexRendering {
  try {
    // strict 'error' too: a formula that KaTeX would render only with a warning is a typo to fix.
    return { html: katex.renderToString(tex, { displayMode, throwOnError: true, strict: 'error', trust: false }) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
