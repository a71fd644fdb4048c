// A statement MariaDB picked as a deadlock victim was rolled back whole: it is run again, a few
// times, and any other error (or a deadlock every time) reaches the caller unchanged.
import { describe, expect, it } from 'vitest';
import { againOnDeadlock, DEADLOCK_ATTEMPTS } from '../../src/store/deadlock.js';

const deadlock = () => Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK' });

describe('a statement that meets a deadlock', () => {
  it('is run again until it goes through', async () => {
    let runs = 0;
    const result = await againOnDeadlock(() => (++runs < 3 ? Promise.reject(deadlock()) : Promise.resolve('done')));
    expect(result).toBe('done');
    expect(runs).toBe(3);
  });

  it(`gives up after ${DEADLOCK_ATTEMPTS} runs with the server's error, and never runs again on another error`, async () => {
    let runs = 0;
    await expect(againOnDeadlock(() => (runs++, Promise.reject(deadlock())))).rejects.toMatchObject({
      code: 'ER_LOCK_DEADLOCK',
    });
    expect(runs).toBe(DEADLOCK_ATTEMPTS);
    runs = 0;
    const duplicate = Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });
    await expect(againOnDeadlock(() => (runs++, Promise.reject(duplicate)))).rejects.toBe(duplicate);
    expect(runs).toBe(1);
  });
});
