// Series colours for the charts: distinguishable, print-safe, and the first one is the app's accent.
export const PALETTE = {
  blue: '#3451b2',
  orange: '#d9730d',
  green: '#17803d',
  red: '#b42318',
  purple: '#7c3aed',
  grey: '#8a93a3',
  teal: '#0f766e',
} as const;

/** The rows the paper names keep one colour each, ours and the authors'-rules copy alike. */
const PRESET_COLORS: Record<string, string> = {
  wmrl: PALETTE.blue, 'paper-wmrl': PALETTE.blue,
  'grpo-all-real': PALETTE.orange, 'paper-grpo-all-real': PALETTE.orange,
  'wmrl-static': PALETTE.green,
  'world-model-only': PALETTE.red, 'paper-world-model-only': PALETTE.red,
};
/** For every other preset, in order; more than these and colours repeat (the legend still names each line). */
const OTHER_COLORS = [PALETTE.purple, PALETTE.teal, PALETTE.grey, '#be185d', '#a16207', '#0369a1', '#4d7c0f', '#6b21a8'];

/**
 * One colour per preset wherever presets are drawn side by side (the companion's curve, curve.svg): the
 * paper's rows their fixed colour, the others the next colour no preset of the picture has taken.
 */
export function presetColors(presets: readonly string[]): Map<string, string> {
  const taken = new Set(presets.map((p) => PRESET_COLORS[p]).filter(Boolean));
  const free = OTHER_COLORS.filter((c) => !taken.has(c));
  let next = 0;
  return new Map(presets.map((p) => [p, PRESET_COLORS[p] ?? free[next++ % free.length]]));
}
