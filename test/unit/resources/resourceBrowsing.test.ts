import * as assert from 'node:assert/strict';
import type { Resource } from '@modelcontextprotocol/client';
import { ElicitationRouter, type ElicitationPort } from '../../../src/core/elicitation/elicitationRouter';
import { contentBytes, resourceForModel } from '../../../src/core/resources/resourceContents';
import { ResourcePages, type ResourcePage } from '../../../src/core/resources/resourcePages';
import { ResourceUriTemplate } from '../../../src/core/resources/resourceTemplates';
import { ResourceUpdateStream } from '../../../src/core/resources/resourceUpdateStream';
import { EVERYTHING, waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const items = (from: number, count: number): Resource[] =>
  Array.from({ length: count }, (_, i) => ({ uri: `x://${from + i}`, name: `r${from + i}` }));

/** A server's listing in memory: pages of `size`, cursors are offsets; `calls` records each cursor asked for. */
function pagedList(total: number, size: number, ttlMs?: number) {
  const calls: (string | undefined)[] = [];
  let broken = false;
  const fetch = async (cursor: string | undefined): Promise<ResourcePage> => {
    calls.push(cursor);
    if (broken && cursor !== undefined) throw new Error('Invalid cursor');
    const offset = cursor === undefined ? 0 : Number(cursor);
    const next = offset + size;
    return {
      resources: items(offset, Math.min(size, total - offset)),
      nextCursor: next < total ? String(next) : undefined,
      ttlMs,
    };
  };
  return { calls, fetch, breakCursors: () => (broken = true) };
}

describe('resources: pages', () => {
  it('loads the first page, then one more page per request, and knows when there is no more', async () => {
    const list = pagedList(250, 100);
    const pages = new ResourcePages(list.fetch, () => undefined);
    await pages.reload();
    assert.equal(pages.items.length, 100);
    assert.equal(pages.hasMore, true);
    await Promise.all([pages.loadMore(), pages.loadMore()]); // pressed twice: one page
    assert.equal(pages.items.length, 200);
    await pages.loadMore();
    assert.deepEqual([pages.items.length, pages.hasMore, pages.items.at(-1)?.uri], [250, false, 'x://249']);
    await pages.loadMore(); // nothing left: no request
    assert.deepEqual(list.calls, [undefined, '100', '200']);
  });

  it("goes stale by the first page's ttlMs, and holds without one", async () => {
    let now = 1000;
    const timed = new ResourcePages(
      pagedList(10, 5, 500).fetch,
      () => undefined,
      () => now,
    );
    await timed.reload();
    assert.equal(timed.isStale, false);
    now = 1499;
    assert.equal(timed.isStale, false);
    now = 1500;
    assert.equal(timed.isStale, true);
    const zero = new ResourcePages(
      pagedList(10, 5, 0).fetch,
      () => undefined,
      () => now,
    );
    await zero.reload();
    assert.equal(zero.isStale, true, 'ttlMs 0 is immediately stale');
    const negative = new ResourcePages(
      pagedList(10, 5, -5).fetch,
      () => undefined,
      () => now,
    );
    await negative.reload();
    assert.equal(negative.isStale, true, 'a negative ttlMs counts as 0');
    const none = new ResourcePages(
      pagedList(10, 5).fetch,
      () => undefined,
      () => now,
    );
    await none.reload();
    now = 10_000_000;
    assert.equal(none.isStale, false, 'without ttlMs the list holds until list_changed or a reload');
  });

  it('starts over from the first page when the server refuses a cursor, and stops on a cursor that repeats', async () => {
    const warnings: string[] = [];
    const list = pagedList(300, 100);
    const pages = new ResourcePages(list.fetch, (m) => warnings.push(m));
    await pages.reload();
    await pages.loadMore();
    list.breakCursors();
    await pages.loadMore();
    assert.equal(pages.items.length, 100, 'back to the first page');
    assert.match(warnings[0], /refused a cursor \(Invalid cursor\); loading the list again from the start/);
    const stuck = new ResourcePages(
      async (cursor) => ({ resources: items(0, 1), nextCursor: cursor ?? 'same' }),
      (m) => warnings.push(m),
    );
    await stuck.reload();
    await stuck.loadMore();
    assert.equal(stuck.hasMore, false);
    assert.match(warnings[1], /returned the cursor it was given \("same"\)/);
  });

  it('drops a page that arrives after the list was reloaded', async () => {
    let release: (() => void) | undefined;
    const list = pagedList(300, 100);
    const pages = new ResourcePages(
      async (cursor) => {
        if (cursor === '100') await new Promise<void>((resolve) => (release = resolve));
        return list.fetch(cursor);
      },
      () => undefined,
    );
    await pages.reload();
    const late = pages.loadMore();
    await waitFor('the second page to be asked for', () => release !== undefined);
    pages.clear();
    await pages.reload();
    release!();
    await late;
    assert.equal(pages.items.length, 100);
  });
});

describe('resources: URI templates', () => {
  it('lists variables once in order and expands them as RFC 6570 says', () => {
    const notes = new ResourceUriTemplate('fixture://notes/{folder}/{name}');
    assert.deepEqual(notes.variables, ['folder', 'name']);
    assert.equal(notes.expand({ folder: 'home', name: 'a b/c' }), 'fixture://notes/home/a%20b%2Fc');
    const query = new ResourceUriTemplate('search://items{?q,page}');
    assert.deepEqual(query.variables, ['q', 'page']);
    assert.equal(query.expand({ q: 'x&y', page: '2' }), 'search://items?q=x%26y&page=2');
    assert.equal(new ResourceUriTemplate('files://{+path}').expand({ path: 'a/b c' }), 'files://a/b%20c');
    assert.throws(() => new ResourceUriTemplate(`x://${'{a}'.repeat(20_000)}`), /The URI template .* is not valid/);
  });
});

describe('resources: update streams (2026-07-28)', () => {
  it('opens a stream with the new set before closing the old one, and none when nothing is open', async () => {
    const log: string[] = [];
    let n = 0;
    const stream = new ResourceUpdateStream(async (uris) => {
      const id = ++n;
      log.push(`open ${id} [${uris.join(' ')}]`);
      return { close: async () => void log.push(`close ${id}`) };
    });
    await stream.add('a://1');
    await stream.add('a://1');
    await stream.add('a://2');
    await stream.remove('a://1');
    await stream.remove('a://2');
    await stream.remove('a://2');
    await stream.add('b://1', 'b://2', 'b://3'); // after a restart: every open resource, one stream
    assert.deepEqual(log, [
      'open 1 [a://1]',
      'open 2 [a://1 a://2]',
      'close 1',
      'open 3 [a://2]',
      'close 2',
      'close 3',
      'open 4 [b://1 b://2 b://3]',
    ]);
  });
});

const kit = (era: typeof legacy, ...flags: string[]) => {
  const base = era();
  return { ...base, args: [...(base.args as string[]), '--resource-kit', ...flags] };
};
const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? '').join('\n');

describe('resources against real servers', function () {
  this.timeout(60_000);

  async function start(server: Record<string, unknown>, options: Parameters<typeof harness>[0] = {}) {
    const { host } = harness(options);
    hosts.push(host);
    await host.applySettings(entries({ ev: server }));
    await running(host, 'ev');
    return host;
  }

  it('loads 5,000 resources a page at a time: the first page at start, more on request, all for a search', async () => {
    const host = await start(kit(legacy, '--extra-resources', '5000', '--resource-page-size', '100'));
    const first = host.server('ev')!;
    assert.deepEqual([first.resources.length, first.moreResources], [100, true]);
    assert.equal(first.resources[0].uri, 'fixture://readme');
    await host.loadMoreResources('ev');
    assert.equal(host.server('ev')!.resources.length, 200);
    let reports = 0;
    await host.loadAllResources('ev', new AbortController().signal, () => reports++);
    const all = host.server('ev')!;
    assert.deepEqual([all.resources.length, all.moreResources, reports], [5005, false, 49]);
    assert.equal(all.resources.at(-1)!.uri, 'fixture://item/4999');
    await host.refresh(entries({ ev: kit(legacy, '--extra-resources', '5000', '--resource-page-size', '100') }));
    assert.equal(host.server('ev')!.resources.length, 100, 'Refresh starts again from the first page');
  });

  it('fetches the list again when its ttlMs ran out, and keeps it while fresh', async () => {
    const stale = await start(
      kit(modern, '--extra-resources', '300', '--resource-page-size', '100', '--resource-ttl-ms', '0'),
    );
    await stale.loadMoreResources('ev');
    assert.equal(stale.server('ev')!.resources.length, 200);
    assert.equal(
      (await stale.freshResources('ev')).length,
      100,
      'ttlMs 0: fetched again from the start when looked at',
    );
    await stale.dispose();
    const fresh = await start(
      kit(modern, '--extra-resources', '300', '--resource-page-size', '100', '--resource-ttl-ms', '600000'),
    );
    await fresh.loadMoreResources('ev');
    assert.equal((await fresh.freshResources('ev')).length, 200);
  });

  it('completes template variables with the earlier ones as context', async () => {
    for (const era of [legacy, modern]) {
      const host = await start(kit(era));
      const template = host.server('ev')!.resourceTemplates.find((t) => t.name === 'note')!;
      assert.equal(template.uriTemplate, 'fixture://notes/{folder}/{name}');
      const ref = { type: 'ref/resource' as const, uri: template.uriTemplate };
      assert.deepEqual(await host.complete('ev', { ref, argument: { name: 'folder', value: 'h' } }), ['home']);
      assert.deepEqual(
        await host.complete('ev', {
          ref,
          argument: { name: 'name', value: 'g' },
          context: { arguments: { folder: 'home' } },
        }),
        ['groceries', 'garden'],
      );
      assert.deepEqual(
        await host.complete('ev', {
          ref,
          argument: { name: 'name', value: '' },
          context: { arguments: { folder: 'work' } },
        }),
        ['plan', 'review', 'retro'],
      );
      const uri = new ResourceUriTemplate(template.uriTemplate).expand({ folder: 'home', name: 'garden' });
      const read = await host.readResource('ev', uri);
      assert.equal((read.contents[0] as { text: string }).text, '# garden\n\nA note in home.');
      await host.dispose();
    }
  });

  it("offers server-everything's two templates, and completes and reads one", async () => {
    const host = await start({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
    const templates = host.server('ev')!.resourceTemplates;
    assert.deepEqual(templates.map((t) => t.uriTemplate).sort(), [
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);
    assert.deepEqual(
      await host.complete('ev', {
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value: '7' },
      }),
      ['7'],
    );
    const read = await host.readResource(
      'ev',
      new ResourceUriTemplate('demo://resource/dynamic/text/{resourceId}').expand({ resourceId: '7' }),
    );
    assert.match((read.contents[0] as { text: string }).text, /7/);
  });

  it('subscribes in 2026-07-28 through subscriptions/listen and hears updates until unsubscribed', async () => {
    const host = await start(kit(modern));
    assert.equal(host.server('ev')!.era, 'modern');
    assert.equal(host.canSubscribe('ev'), true);
    const updates: string[] = [];
    const listener = host.onDidUpdateResource((e) => updates.push(e.uri));
    await host.subscribeResource('ev', 'fixture://counter');
    await host.callTool('ev', 'bump', {});
    await waitFor('the update on the listen stream', () => updates.includes('fixture://counter'));
    await host.unsubscribeResource('ev', 'fixture://counter');
    const before = updates.length;
    await host.callTool('ev', 'bump', {});
    // The notification would travel ahead of the tool's answer on the same pipe.
    await host.callTool('ev', 'echo', { text: 'after' });
    assert.equal(updates.length, before, 'no update after the stream closed');
    listener.dispose();
  });

  it('subscribes in the 2025 era with resources/subscribe, again after a restart, and unsubscribes', async () => {
    const host = await start(kit(legacy));
    await host.subscribeResource('ev', 'fixture://counter');
    assert.equal(text(await host.callTool('ev', 'subscribers', {})), '["fixture://counter"]');
    await host.restart('ev');
    await running(host, 'ev');
    await waitFor(
      'the subscription made again on the new session',
      async () => text(await host.callTool('ev', 'subscribers', {})) === '["fixture://counter"]',
    );
    await host.unsubscribeResource('ev', 'fixture://counter');
    assert.equal(text(await host.callTool('ev', 'subscribers', {})), '[]');
  });

  it('fulfils input_required on resources/read (2026-07-28) and retries the read', async () => {
    const asked: string[] = [];
    const port: ElicitationPort = {
      askForm: async (request) => (
        asked.push(request.message),
        { action: 'accept', content: { passphrase: 'open sesame' } }
      ),
      askUrl: async () => 'decline',
      awaitBrowser: async () => 'cancel',
    };
    const host = await start(kit(modern), { elicitation: new ElicitationRouter(port) });
    const read = await host.readResource('ev', 'fixture://secret');
    assert.equal((read.contents[0] as { text: string }).text, 'secret for open sesame');
    assert.deepEqual(asked, ['Passphrase for the secret']);
  });

  it('reads every part of a multi-part resource and hands text and images to a model', async () => {
    const host = await start(kit(legacy));
    const read = await host.readResource('ev', 'fixture://multi');
    assert.deepEqual(
      read.contents.map((c) => c.mimeType),
      ['text/plain', 'image/png'],
    );
    const parts = resourceForModel('ev', 'fixture://multi', read);
    assert.deepEqual(
      parts.map((p) => p.kind),
      ['text', 'text', 'data'],
    );
    assert.equal(
      (parts[0] as { text: string }).text,
      'Resource fixture://multi#text from MCP server "ev" (text/plain):\npart one',
    );
    assert.deepEqual([...(parts[2] as { data: Uint8Array }).data.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });

  it('reads a multi-megabyte blob whole', async () => {
    const host = await start(kit(legacy));
    const bytes = 6 * 1024 * 1024;
    const read = await host.readResource('ev', `fixture://blob/${bytes}`);
    const decoded = contentBytes(read.contents[0]);
    assert.equal(decoded.byteLength, bytes);
    assert.ok(
      decoded.every((b) => b === 0),
      'every byte as the server sent it',
    );
  });

  it('cancels a slow read when asked, and names the server and resource for one that does not exist', async () => {
    for (const era of [legacy, modern]) {
      const host = await start(kit(era, ...(era === legacy ? ['--not-found-32002'] : [])));
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 200);
      const started = Date.now();
      await assert.rejects(host.readResource('ev', 'fixture://slow/20000', abort.signal), /cancel/i);
      assert.ok(Date.now() - started < 10_000, 'the read ended when cancelled, not when the server answered');
      const gone = era === legacy ? -32002 : -32602;
      for (const [uri, code] of [
        ['fixture://gone', gone],
        ['fixture://nowhere', era === legacy ? -32002 : -32602],
      ] as const) {
        await assert.rejects(host.readResource('ev', uri), (error: Error & { code?: number }) => {
          assert.match(error.message, new RegExp(`^MCP server "ev" has no resource ${uri} \\(error ${code}: `));
          assert.equal(error.code, code);
          return true;
        });
      }
      await host.dispose();
    }
  });
});
