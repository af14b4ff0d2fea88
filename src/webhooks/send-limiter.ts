/** At most `max` sends at once; the rest wait their turn in order (a slow receiver cannot exhaust sockets). */
export type SendLimiter = {
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
};

export function createSendLimiter(max: number): SendLimiter {
  let active = 0;
  const queue: (() => void)[] = [];
  return {
    async run(work) {
      // A finishing task hands its slot straight to the next in line, so nobody can slip in between.
      if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
      else active++;
      try {
        return await work();
      } finally {
        const next = queue.shift();
        if (next) next();
        else active--;
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
