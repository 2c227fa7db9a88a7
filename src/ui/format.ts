// One way to show a leaderboard percentile on every view: × 100 with one decimal (73.4, not 0.734),
// as the paper's tables and this project's results are written.
export function percentile100(p: number): string {
  return (p * 100).toFixed(1);
}
