import * as assert from 'node:assert/strict';
import { whenModelAvailable, type ModelAvailability } from '../../../src/core/chat/modelAvailability';

class Unavailable extends Error {}

/** Models that "load" when `load()` is called, announcing it as a provider registration would. */
function loadingModels() {
  const listeners = new Set<() => void>();
  let loaded = false;
  const availability: ModelAvailability = {
    isUnavailable: (error) => error instanceof Unavailable,
    changed: () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      listeners.add(resolve);
      return { promise, dispose: () => listeners.delete(resolve) };
    },
  };
  return {
    availability,
    listeners,
    load: () => {
      loaded = true;
      for (const l of [...listeners]) l();
    },
    send: async () => {
      if (!loaded) throw new Unavailable('Language model unavailable');
      return 'answer';
    },
  };
}

describe('a chat request while the model is still loading', () => {
  it('waits for the model and sends once it is there, saying once that it waits', async () => {
    const models = loadingModels();
    let waitingNotices = 0;
    const answer = whenModelAvailable(models.send, models.availability, {
      timeoutMs: 10_000,
      onWaiting: () => waitingNotices++,
    });
    await new Promise((r) => setTimeout(r, 50));
    models.load();
    assert.equal(await answer, 'answer');
    assert.equal(waitingNotices, 1);
    assert.equal(models.listeners.size, 0, 'no listener is left behind');
  });

  it('gives up after its time limit with what the model said and what to do', async () => {
    const models = loadingModels();
    await assert.rejects(
      whenModelAvailable(models.send, models.availability, { timeoutMs: 200 }),
      /^Error: The chat model is still unavailable after 200 ms: Language model unavailable\. Pick another model, or try again once it has loaded\.$/,
    );
  });

  it('passes any other failure through at once', async () => {
    const models = loadingModels();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('quota exceeded');
    };
    await assert.rejects(whenModelAvailable(failing, models.availability, { timeoutMs: 10_000 }), /quota exceeded/);
    assert.equal(calls, 1);
  });
});
