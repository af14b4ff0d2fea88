/**
 * Start-up timing marks for finding where `cms serve` spends its first milliseconds (docs/benchmarks.md,
 * "Start-up"). Off unless CMS_STARTUP_TIMING is set; then each mark prints one line to stderr with the time
 * since the process started, the CPU time used so far (user and system: on a busy machine the steadier of
 * the two) and the RSS at that moment. Off, a mark costs one boolean check.
 */
const enabled = Boolean(process.env.CMS_STARTUP_TIMING);

export function startupMark(label: string): void {
  if (!enabled) return;
  const rss = (process.memoryUsage.rss() / 1024 / 1024).toFixed(1);
  const { user, system } = process.cpuUsage();
  const cpu = ((user + system) / 1000).toFixed(1);
  process.stderr.write(
    `startup ${performance.now().toFixed(1).padStart(7)} ms  cpu ${cpu.padStart(6)} ms  ${rss.padStart(5)} MB  ${label}\n`,
  );
}
