/**
 * Turns of the event loop, as far as requests see them: what Bun.serve does with an answer, and whether a
 * request's connection is surely still open, depends on whether the work is still in the turn that
 * received the request (the await of bun:sqlite's calls never leaves it; a wait on a socket or a timer
 * does). Counted only while requests arrive: one immediate per turn that received any.
 */

let turn = 0;
let counting = false;
let endings: (() => void)[] = [];

function nextTurn() {
  counting = false;
  turn++;
  const due = endings;
  endings = [];
  for (const ending of due) ending();
}

/** The turn this code runs in. */
export function currentTurn(): number {
  if (!counting) {
    counting = true;
    setImmediate(nextTurn);
  }
  return turn;
}

/** Whether the code runs in the turn `then` names. */
export const stillIn = (then: number) => then === turn;

/** Runs `ending` once the current turn's work is done, before the loop looks at its sockets again. */
export function atTurnEnd(ending: () => void): void {
  currentTurn();
  endings.push(ending);
}
