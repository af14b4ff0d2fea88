/**
 * A progress line. On a terminal it is rewritten in place. Elsewhere (logs, pipes, CI) whole lines: one when
 * a phase starts, then one each time another tenth of it is done or two seconds have passed, so a long
 * phase never looks stalled and a short one prints a few lines, not thousands (docs/operations.md).
 */
import { systemClock, type Clock } from '../clock.ts';

export type Progress = { phase: string; done?: number; total?: number };
type Output = { tty: boolean; write: (text: string) => void; clock: Clock };

const EVERY_MS = 2000;
const defaultDetail = (p: Progress) => (p.total === undefined ? p.phase : `${p.phase} ${p.done}/${p.total}`);

export function progressLine(
  command: string,
  detail: (p: Progress) => string = defaultDetail,
  output?: Partial<Output>,
) {
  const tty = output?.tty ?? Boolean(process.stdout.isTTY);
  const write = output?.write ?? ((text: string) => void process.stdout.write(text));
  const clock = output?.clock ?? systemClock;
  let lastPhase: string | null = null;
  let lastText = '';
  let lastTenth = -1;
  let lastAt = 0;
  return {
    show(p: Progress) {
      const text = `${command}: ${detail(p)}`;
      if (tty) return write(`\r\x1b[K${text}`);
      const tenth = p.total ? Math.floor(((p.done ?? 0) / p.total) * 10) : -1;
      const now = clock.now();
      const due = p.phase !== lastPhase || tenth > lastTenth || now - lastAt >= EVERY_MS;
      if (p.phase !== lastPhase) lastTenth = -1;
      lastPhase = p.phase;
      if (!due || text === lastText) return;
      write(`${text}\n`);
      lastText = text;
      lastTenth = tenth;
      lastAt = now;
    },
    done() {
      if (tty) write('\r\x1b[K');
    },
  };
}
