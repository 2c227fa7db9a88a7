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

/** One colour per preset wherever presets are drawn side by side (the companion's curve, curve.svg). */
const PRESET_COLORS: Record<string, string> = { wmrl: PALETTE.blue, 'grpo-all-real': PALETTE.orange, 'wmrl-static': PALETTE.green, 'world-model-only': PALETTE.red };
const OTHER_PRESETS = [PALETTE.purple, PALETTE.teal, PALETTE.grey];
export const presetColor = (preset: string, i: number): string => PRESET_COLORS[preset] ?? OTHER_PRESETS[i % OTHER_PRESETS.length];
