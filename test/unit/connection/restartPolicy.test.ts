import * as assert from 'node:assert/strict';
import { RestartPolicy } from '../../../src/core/connection/restartPolicy';
import { DEFAULT_RESTART } from '../../../src/core/config/serverDefinition';

describe('RestartPolicy', () => {
  it('backs off exponentially up to the cap and gives up after maxRestarts within the window', () => {
    let now = 0;
    const policy = new RestartPolicy(
      { ...DEFAULT_RESTART, initialDelayMs: 1_000, maxDelayMs: 5_000, maxRestarts: 4 },
      () => now,
    );
    const delays = [1, 2, 3, 4].map(() => {
      const d = policy.onUnexpectedExit();
      now += 1_000;
      return d.restart ? d.delayMs : -1;
    });
    assert.deepEqual(delays, [1_000, 2_000, 4_000, 5_000]);
    const fifth = policy.onUnexpectedExit();
    assert.equal(fifth.restart, false);
  });

  it('forgets crashes older than the window', () => {
    let now = 0;
    const policy = new RestartPolicy({ ...DEFAULT_RESTART, maxRestarts: 1, windowMs: 10_000 }, () => now);
    assert.equal(policy.onUnexpectedExit().restart, true);
    now = 20_000;
    const again = policy.onUnexpectedExit();
    assert.ok(again.restart && again.attempt === 1);
  });

  it('never restarts when restart is disabled, and starts over after reset', () => {
    assert.deepEqual(new RestartPolicy({ ...DEFAULT_RESTART, enabled: false }).onUnexpectedExit(), {
      restart: false,
      reason: 'automatic restart is off ("restart.enabled": false)',
    });
    const policy = new RestartPolicy({ ...DEFAULT_RESTART, maxRestarts: 1 });
    policy.onUnexpectedExit();
    assert.equal(policy.onUnexpectedExit().restart, false);
    policy.reset();
    assert.equal(policy.onUnexpectedExit().restart, true);
  });
});
