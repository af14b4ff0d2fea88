/** The running replica's figures for `GET /metrics` (docs/operations.md "Metrics"), null when none runs here. */
import type { CMS } from '../cms.ts';
import type { ReplicaFigures } from '../metrics/prometheus-text.ts';
import { replicaOf } from '../replica/running.ts';

export function replicaFigures(cms: CMS): ReplicaFigures {
  const replica = replicaOf(cms.store);
  if (!replica) return null;
  return {
    lagMs: replica.lagMs(),
    lastTransaction: replica.lastTransaction(),
    oldestRestorableAt: replica.oldestRestorableAt(),
    failures: replica.failures(),
    puts: replica.puts(),
  };
}
