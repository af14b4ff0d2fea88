/**
 * Five-field cron schedules (minute hour day-of-month month day-of-week), read in UTC, for the `backups`
 * schedule. `daily` and `hourly` are names for `0 0 * * *` and `0 * * * *`. Supports `*`, numbers, ranges
 * `a-b`, steps `*\/n` and `a-b/n`, and lists; day-of-week 0–7 (0 and 7 are Sunday). As in cron, when both
 * day fields are restricted a day matches either.
 */
export type CronSchedule = { source: string; matches(time: number): boolean };

const NAMED: Record<string, string> = { daily: '0 0 * * *', hourly: '0 * * * *' };
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
];

/** Throws an Error saying which part is wrong. */
export function parseCronSchedule(source: string): CronSchedule {
  const expression = NAMED[source] ?? source;
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new Error(
      `"${source}" is not 'daily', 'hourly' or a cron expression of five fields (minute hour day month weekday)`,
    );
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]));
  if (sets[4].has(7)) sets[4].add(0);
  const [minutes, hours, days, months, weekdays] = sets;
  const anyDay = parts[2] === '*';
  const anyWeekday = parts[4] === '*';
  return {
    source,
    matches(time) {
      const d = new Date(time);
      if (!minutes.has(d.getUTCMinutes()) || !hours.has(d.getUTCHours()) || !months.has(d.getUTCMonth() + 1))
        return false;
      const day = days.has(d.getUTCDate());
      const weekday = weekdays.has(d.getUTCDay());
      return anyDay || anyWeekday ? day && weekday : day || weekday;
    },
  };
}

function parseField(part: string, field: { name: string; min: number; max: number }): Set<number> {
  const values = new Set<number>();
  for (const item of part.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw new Error(`cron ${field.name} "${item}" is not a number, range, list or step`);
    const from = match[1] === '*' ? field.min : Number(match[2]);
    const to = match[1] === '*' ? field.max : match[3] !== undefined ? Number(match[3]) : match[4] ? field.max : from;
    const step = match[4] ? Number(match[4]) : 1;
    if (from < field.min || to > field.max || from > to || step < 1)
      throw new Error(`cron ${field.name} "${item}" is outside ${field.min}–${field.max}`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

const MINUTE = 60_000;

/**
 * Whether a scheduled time fell in (after, now]. Looks back at most `horizon` (default a week), so a
 * server that was down for months runs once, not once per missed slot.
 */
export function fellDueBetween(
  schedule: CronSchedule,
  after: number,
  now: number,
  horizon = 7 * 24 * 60 * MINUTE,
): boolean {
  const start = Math.max(after, now - horizon);
  for (let minute = Math.floor(now / MINUTE) * MINUTE; minute > start; minute -= MINUTE) {
    if (schedule.matches(minute)) return true;
  }
  return false;
}
