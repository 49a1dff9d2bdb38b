import * as assert from 'node:assert/strict';
import { ResourceSubscriptions } from '../../../src/core/resources/resourceSubscriptions';
import { fileNameFor, parseResourceAddress, partOf, resourceAddress } from '../../../src/core/resources/resourceUris';
import { EVERYTHING, waitFor } from '../support/fixtures';
import { entries, harness, hosts, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

describe('resources: editor locations', () => {
  it("keeps the server's URI exactly, whatever it contains", () => {
    for (const uri of [
      'demo://resource/static/document/architecture.md',
      'file:///C:/a b/ü.txt?x=1#frag',
      'urn:isbn:0451450523',
      'weird://x/%2F/../y',
    ]) {
      const address = resourceAddress({ serverId: 'my.server', uri });
      assert.deepEqual(parseResourceAddress(address.path, address.query), { serverId: 'my.server', uri });
    }
    assert.equal(parseResourceAddress('/only-a-server'), undefined);
  });

  it('shows the URI as a readable path (the breadcrumb), with the file name last', () => {
    const readable = (uri: string, name?: string, mime?: string) =>
      resourceAddress({ serverId: 'demo', uri }, name, mime).path.split('/').slice(1).map(decodeURIComponent);
    assert.deepEqual(readable('demo://resource/static/document/architecture.md'), [
      'demo',
      'demo',
      'resource',
      'static',
      'document',
      'architecture.md',
    ]);
    assert.deepEqual(readable('test://static/resource/1', 'Resource 1', 'text/plain'), [
      'demo',
      'test',
      'static',
      'resource',
      '1.txt',
    ]);
    assert.deepEqual(readable('file:///C:/a%20b/x.txt'), ['demo', 'file', 'C:', 'a b', 'x.txt']);
    assert.deepEqual(readable('weird://x/%2F/../y'), ['demo', 'weird', 'x', 'y']);
    assert.deepEqual(readable('urn:isbn:0451450523'), ['demo', 'urn', 'isbn:0451450523']);
  });

  it('addresses one part of a resource, and still opens editors restored from the base64 form', () => {
    const address = resourceAddress({ serverId: 's', uri: 'x://a/b' }, 'part-2', 'text/plain', 'x://a/b/second', 1);
    assert.equal(partOf(address.query), 1);
    assert.deepEqual(parseResourceAddress(address.path, address.query), { serverId: 's', uri: 'x://a/b' });
    assert.equal(partOf(''), 0);
    const restored = `/s/${Buffer.from('demo://resource/static/1', 'utf8').toString('base64url')}/1.txt`;
    assert.deepEqual(parseResourceAddress(restored, ''), { serverId: 's', uri: 'demo://resource/static/1' });
  });

  it('names the file after the URI, adding an extension from the MIME type when it has none', () => {
    assert.equal(fileNameFor('demo://resource/static/document/architecture.md'), 'architecture.md');
    assert.equal(fileNameFor('test://static/resource/1', 'Resource 1', 'text/plain'), '1.txt');
    assert.equal(fileNameFor('test://static/resource/2', undefined, 'application/octet-stream'), '2');
    assert.equal(fileNameFor('fixture://readme', 'readme', 'text/markdown; charset=utf-8'), 'readme.md');
    assert.equal(fileNameFor('data:image', 'tiny', 'image/png'), 'image.png');
  });
});

describe('resources: subscriptions of open editors', () => {
  /** Subscriptions whose subscribe and unsubscribe calls are recorded as `+server uri` / `-server uri`. */
  function recordingSubscriptions() {
    const calls: string[] = [];
    const subs = new ResourceSubscriptions(
      async (s, u) => void calls.push(`+${s} ${u}`),
      async (s, u) => void calls.push(`-${s} ${u}`),
    );
    return { subs, calls };
  }

  it('subscribes once per resource and unsubscribes when the last editor closes', async () => {
    const { subs, calls } = recordingSubscriptions();
    await subs.open('a', 'x://1', 'editor-1');
    await subs.open('a', 'x://1', 'editor-2');
    await subs.open('b', 'x://1', 'editor-3');
    assert.deepEqual(subs.watchersOf('a', 'x://1'), ['editor-1', 'editor-2']);
    await subs.close('a', 'x://1', 'editor-1');
    assert.equal(subs.isSubscribed('a', 'x://1'), true);
    assert.deepEqual(subs.watchersOf('a', 'x://1'), ['editor-2']);
    await subs.close('a', 'x://1', 'editor-1'); // a close without its open changes nothing
    assert.deepEqual(subs.watchersOf('a', 'x://1'), ['editor-2']);
    await subs.close('a', 'x://1', 'editor-2');
    assert.deepEqual(subs.watchersOf('a', 'x://1'), []);
    await subs.close('b', 'x://1', 'editor-3');
    assert.deepEqual(calls, ['+a x://1', '+b x://1', '-a x://1', '-b x://1']);
  });

  it('keeps an editor that watches a resource twice until both watches end', async () => {
    const { subs, calls } = recordingSubscriptions();
    await subs.open('a', 'x://1', 'editor-1');
    await subs.open('a', 'x://1', 'editor-1');
    await subs.close('a', 'x://1', 'editor-1');
    assert.deepEqual(subs.watchersOf('a', 'x://1'), ['editor-1'], 'updates still reach the editor');
    await subs.close('a', 'x://1', 'editor-1');
    assert.deepEqual(calls, ['+a x://1', '-a x://1']);
  });
});

describe('resources: subscriptions against server-everything', function () {
  this.timeout(30_000);

  it('subscribes, hears notifications/resources/updated, and unsubscribes', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }));
    const server = await running(host, 'ev');
    const uri = server.resources[0].uri;
    assert.equal(host.canSubscribe('ev'), true);
    const updates: string[] = [];
    const listener = host.onDidUpdateResource((e) => updates.push(`${e.serverId} ${e.uri}`));
    await host.subscribeResource('ev', uri);
    await host.callTool('ev', 'toggle-subscriber-updates', {});
    await waitFor('an update for the subscribed resource', () => updates.includes(`ev ${uri}`), 15_000);
    await host.unsubscribeResource('ev', uri);
    await host.callTool('ev', 'toggle-subscriber-updates', {});
    listener.dispose();
  });
});
