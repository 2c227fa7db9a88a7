// Formulas are shown as math: the Formula component renders TeX to KaTeX's markup, and TeX that does
// not parse shows its source instead of breaking the page.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import Formula from '../../../src/ui/components/Formula.svelte';
import { renderTex } from '../../../src/ui/tex.ts';

describe('Formula (KaTeX)', () => {
  it('renders TeX to KaTeX markup, inline and in display mode', () => {
    const inline = render(Formula, { props: { tex: 'w_A = \\frac{1/v_A}{1/v_A + 1/v_W}' } }).body;
    expect(inline).toContain('class="katex"');
    expect(inline).toContain('mfrac'); // the MathML for screen readers
    expect(inline).not.toContain('katex-display');
    expect(inline).not.toContain('math-source');
    const display = render(Formula, { props: { tex: 'x^2', displayMode: true } }).body;
    expect(display).toContain('katex-display');
    // Trailing punctuation stays on the formula's line.
    expect(render(Formula, { props: { tex: 'r', after: '.' } }).body).toMatch(/<span class="[^"]*\bkeep\b[^"]*"><span class="[^"]*\bmath\b[^>]*>.*<\/span>\.<\/span>/s);
  });

  it('a TeX string that does not parse shows its source and the reason, without throwing', () => {
    const bad = 'w_A = \\frac{1}{';
    expect(renderTex(bad)).toEqual({ error: expect.stringMatching(/KaTeX parse error/) });
    const body = render(Formula, { props: { tex: bad } }).body;
    expect(body).toContain('math-source');
    expect(body).toContain('w_A = \\frac{1}{');
    expect(body).toMatch(/title="KaTeX parse error/);
    expect(body).not.toContain('class="katex"');
    // An unknown command is an error too, not red text inside a formula.
    expect(renderTex('\\nosuchcommand{x}')).toHaveProperty('error');
  });
});
