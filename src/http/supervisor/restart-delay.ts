/**
 * How long the supervisor waits before replacing a process, given how many processes ended in
 * the last minute: at once for the first, then doubling from 100 ms to at most 10 s, so a
 * process that ends as soon as it starts does not spin.
 */
export function restartDelay(recentDeaths: number): number {
  if (recentDeaths <= 1) return 0;
  return Math.min(10_000, 100 * 2 ** Math.min(recentDeaths - 2, 10));
}
