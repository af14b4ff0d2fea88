/** A progress line: rewritten in place on a terminal; elsewhere (logs, pipes) one line per phase. */
export type Progress = { phase: string; done?: number; total?: number };

export function progressLine(command: string, detail: (p: Progress) => string = (p) => (p.total === undefined ? p.phase : `${p.phase} ${p.done}/${p.total}`)) {
  const tty = Boolean(process.stdout.isTTY);
  let lastPhase = '';
  return {
    show(p: Progress) {
      if (tty) process.stdout.write(`\r\x1b[K${command}: ${detail(p)}`);
      else if (p.phase !== lastPhase) console.log(`${command}: ${detail(p)}`);
      lastPhase = p.phase;
    },
    done() {
      if (tty) process.stdout.write('\r\x1b[K');
    },
  };
}
