// Runs once (on the SQLite pass): the cost of a password hash does not depend on the engine.
/**
 * The test process hashes at a low scrypt cost (test/setup/password-cost.ts); a `cms` server hashes at the
 * real one, and a hash verifies at whichever cost it was made with.
 */
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { hashPassword, SCRYPT_COST, setPasswordHashCost, verifyPassword } from '../../src/auth/password.ts';
import { type ChildServer, startChildServer } from '../support/child-server.ts';

describe('password hashing cost', () => {
  let child: ChildServer | undefined;
  afterAll(() => child?.stop());

  test('a cms server stores scrypt at N = 2^15, r = 8, p = 1, and logs in with it', async () => {
    child = await startChildServer({ database: 'data/cms.db' });
    const db = new Database(path.join(child.dir, 'data/cms.db'), { readonly: true });
    const rows = db.query('SELECT "passwordHash" AS hash FROM users').all() as { hash: string }[];
    db.close();
    expect(rows.length).toBe(1);
    expect(rows[0]!.hash).toStartWith(`scrypt$${2 ** 15}$8$1$`);
    expect(SCRYPT_COST).toEqual({ N: 2 ** 15, r: 8, p: 1 });
    const login = await fetch(`${child.api}/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'password123' }),
    });
    expect(login.status).toBe(200);
  });

  test('the test process hashes cheaply, and each hash verifies at its own cost', async () => {
    const cheap = await hashPassword('correct horse');
    expect(cheap).toStartWith(`scrypt$${2 ** 10}$8$1$`);
    setPasswordHashCost(SCRYPT_COST);
    try {
      const real = await hashPassword('correct horse');
      expect(real).toStartWith(`scrypt$${2 ** 15}$8$1$`);
      expect(await verifyPassword('correct horse', cheap)).toBe(true);
      expect(await verifyPassword('correct horse', real)).toBe(true);
      expect(await verifyPassword('wrong horse', real)).toBe(false);
      expect(await verifyPassword('correct horse', null)).toBe(false);
    } finally {
      setPasswordHashCost({ N: 2 ** 10, r: 8, p: 1 });
    }
  });
});
