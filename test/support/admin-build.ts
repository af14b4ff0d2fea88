/**
 * The admin bundle the browser files serve, built once per test process: every browser file needs the same
 * production build of `admin/src`, and building it again for each file cost seconds apiece. Files that test
 * the build itself (`test/build/`, `test/admin/bundle.test.ts`) call `buildAdmin` directly.
 */
import { type AdminBuildResult, buildAdmin } from '../../admin/build.ts';

let built: Promise<AdminBuildResult> | undefined;

export function adminBuilt(): Promise<AdminBuildResult> {
  built ??= buildAdmin().catch((e) => {
    built = undefined;
    throw e;
  });
  return built;
}
