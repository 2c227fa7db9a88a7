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
