/**
 * Preloaded by `bun test` (bunfig.toml): the test servers in this process hash passwords at scrypt's lowest
 * sensible cost (N = 2^10, 1 MiB) instead of the server's (N = 2^15, 32 MiB, about a tenth of a second of a
 * core). Registering and logging in users was the larger part of the suite's CPU. `cms` processes the tests
 * start (the built binary, child servers) hash at the real cost; test/auth/password-cost.test.ts checks it.
 */
import { setPasswordHashCost } from '../../src/auth/password.ts';

setPasswordHashCost({ N: 2 ** 10, r: 8, p: 1 });
