import * as assert from 'node:assert/strict';
import { isAlive } from '../../../src/core/process/processTree';
import { LastRuns, type StoredRun } from '../../../src/core/host/lastRuns';
import { ListLearning } from '../../../src/core/host/listLearning';
import { whenIdle, type IdleClock, type IdleRule } from '../../../src/core/host/windowIdle';
import { waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

/** A clock whose CPU use per ms slept is set by the test, and whose sleeps take no time. */
function scriptedClock(cpuShareAt: (now: number) => number): IdleClock & { slept: number[] } {
  let now = 0;
  let cpu = 0;
  const slept: number[] = [];
  return {
    slept,
    cpuMs: () => cpu,
    now: () => now,
    async sleep(ms, signal) {
      signal.throwIfAborted();
      slept.push(ms);
      cpu += ms * cpuShareAt(now);
      now += ms;
    },
  };
}

const RULE: IdleRule = { settleMs: 10_000, quietMs: 2_000, quietShare: 0.1, maxWaitMs: 60_000 };
const never = new AbortController().signal;

describe('whenIdle', () => {
  it('waits out the settling time, then for a quiet stretch', async () => {
    // Busy (half a core) until 20 s, quiet after.
    const clock = scriptedClock((now) => (now < 20_000 ? 0.5 : 0.02));
    await whenIdle(clock, RULE, never);
    assert.equal(clock.now(), 22_000, 'idle at the end of the first quiet stretch');
    assert.deepEqual(clock.slept, [10_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000]);
  });

  it('takes a window that is never quiet as idle after the longest wait', async () => {
    const clock = scriptedClock(() => 1);
    await whenIdle(clock, RULE, never);
    assert.equal(clock.now(), RULE.maxWaitMs);
  });

  it('stops waiting when aborted', async () => {
    const stop = new AbortController();
    const clock = scriptedClock(() => 1);
    const waiting = whenIdle(
      { ...clock, sleep: (ms, signal) => (stop.abort(), clock.sleep(ms, signal)) },
      RULE,
      stop.signal,
    );
    await assert.rejects(waiting);
  });
});

describe('ListLearning with McpHost', () => {
  const quiet = scriptedClock(() => 0);

  function store() {
    const stored = new Map<string, StoredRun>();
    return { stored, get: (id: string) => stored.get(id), set: (id: string, v: StoredRun) => void stored.set(id, v) };
  }

  it('starts each server that has not run once, keeps its lists, stops it, and leaves known and first-use servers alone', async () => {
    const runs = store();
    // A window where "known" already ran: its lists are kept.
    const earlier = harness({ lastRuns: new LastRuns(runs) });
    hosts.push(earlier.host);
    await earlier.host.applySettings(entries({ known: legacy() }));
    await running(earlier.host, 'known');
    await earlier.host.dispose();

    const { host } = harness({ lastRuns: new LastRuns(runs) });
    hosts.push(host);
    await host.applySettings(
      entries({
        known: legacy({ autoStart: 'onDemand' }),
        fresh: legacy({ autoStart: 'onDemand' }),
        other: legacy({ autoStart: 'onDemand', env: { OTHER: '1' } }),
        manual: legacy({ autoStart: false }),
      }),
    );
    assert.deepEqual(host.unlearnedServers().sort(), ['fresh', 'other']);
    const pids: number[] = [];
    const freshStates: string[] = [];
    const seen = host.onDidChangeServers(() => {
      for (const s of host.servers()) if (s.pid && !pids.includes(s.pid)) pids.push(s.pid);
      const fresh = host.server('fresh')!;
      const state = `${fresh.status}${fresh.learning ? ' learning' : ''}`;
      if (freshStates.at(-1) !== state) freshStates.push(state);
    });
    const learning = new ListLearning(host, quiet, RULE);
    learning.schedule();
    await learning.whenDone();
    seen.dispose();
    for (const id of ['fresh', 'other']) {
      const s = host.server(id)!;
      assert.deepEqual(
        [s.status, s.pid, s.startsWhenNeeded, s.fromLastRun, s.tools.length > 0, s.prompts.length],
        ['stopped', undefined, true, true, true, 1],
        `${id} learned its lists and stopped`,
      );
    }
    assert.equal(pids.length, 2, 'one process each for the two that had not run, none for the others');
    // Its row says it is learning while it starts and runs, then that it waits again.
    assert.deepEqual(freshStates, [
      'starting learning',
      'running learning',
      'stopping learning',
      'stopped learning',
      'stopped',
    ]);
    assert.ok(pids.every((pid) => !isAlive(pid)));
    assert.deepEqual([host.server('known')!.status, host.server('manual')!.status], ['stopped', 'stopped']);
    assert.deepEqual(host.unlearnedServers(), [], 'nothing is left to learn');
    // A second round (settings applied again) starts nothing.
    learning.schedule();
    await learning.whenDone();
    assert.equal(host.server('fresh')!.pid, undefined);
    learning.dispose();
  });

  it('keeps a server running when it is needed while it learns', async () => {
    const { host } = harness({ lastRuns: new LastRuns(store()) });
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    const learning = host.learnLists('lazy');
    // A call comes while it starts to learn: it is needed now, and stays up.
    const call = await host.callTool('lazy', 'echo', { text: 'needed' });
    await learning;
    assert.equal((call.content[0] as { text: string }).text, 'needed');
    const s = await running(host, 'lazy');
    assert.notEqual(s.startsWhenNeeded, true, 'it does not wait for a use any more');
    assert.ok(isAlive(s.pid!));
  });

  it('starts a server again that is needed just as it stops after learning', async () => {
    const { host } = harness({ lastRuns: new LastRuns(store()) });
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    let call: Promise<unknown> | undefined;
    const watch = host.onDidChangeServers(() => {
      if (!call && host.server('lazy')!.status === 'stopping')
        call = host.callTool('lazy', 'echo', { text: 'just in time' });
    });
    await host.learnLists('lazy');
    watch.dispose();
    assert.ok(call, 'the call came while it stopped');
    const result = (await call) as { content: { text: string }[] };
    assert.equal(result.content[0].text, 'just in time');
    assert.equal((await running(host, 'lazy')).learning, undefined);
  });

  it('tries a server that fails to start once, and says why on its row', async () => {
    const { host } = harness({ lastRuns: new LastRuns(store()) });
    hosts.push(host);
    await host.applySettings(
      entries({
        broken: {
          command: process.execPath,
          args: ['-e', 'process.exit(3)'],
          autoStart: 'onDemand',
          restart: { enabled: false },
        },
      }),
    );
    await host.learnLists('broken');
    await waitFor('broken to say why', () => host.server('broken')!.status === 'error' || undefined, 20_000);
    assert.match(host.server('broken')!.reason ?? '', /exited with code 3/);
    assert.deepEqual(host.unlearnedServers(), [], 'not tried again in this window');
  });

  it('learns nothing while the setting is off, and what is new once it is on', async () => {
    const { host } = harness({ lastRuns: new LastRuns(store()) });
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    let on = false;
    const learning = new ListLearning(host, quiet, RULE, () => on);
    learning.schedule();
    await learning.whenDone();
    assert.deepEqual([host.server('lazy')!.fromLastRun, host.unlearnedServers()], [undefined, ['lazy']]);
    on = true;
    learning.schedule();
    await learning.whenDone();
    assert.deepEqual([host.server('lazy')!.status, host.server('lazy')!.fromLastRun], ['stopped', true]);
    learning.dispose();
  });

  it('stops learning when disposed while it waits for the window to be idle', async () => {
    const { host } = harness({ lastRuns: new LastRuns(store()) });
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    const busy = scriptedClock(() => 1);
    let sleeps = 0;
    const stopAtThirdSleep: IdleClock = {
      ...busy,
      sleep: (ms, signal) => {
        if (++sleeps === 3) learning.dispose();
        return busy.sleep(ms, signal);
      },
    };
    const learning: ListLearning = new ListLearning(host, stopAtThirdSleep, RULE);
    learning.schedule();
    await learning.whenDone();
    assert.deepEqual([host.server('lazy')!.status, host.server('lazy')!.pid], ['stopped', undefined]);
    assert.deepEqual(host.unlearnedServers(), ['lazy']);
  });
});
