import * as assert from 'node:assert/strict';
import { RootsPublisher } from '../../../src/core/host/rootsPublisher';

describe('RootsPublisher', () => {
  const publisher = new RootsPublisher();
  publisher.setWorkspaceFolders([
    { name: 'app', path: '/work/app' },
    { name: 'my lib', path: '/work/my lib' },
  ]);

  it('gives servers the workspace folders as file URIs with their names', () => {
    assert.deepEqual(publisher.rootsFor({}), [
      { uri: 'file:///work/app', name: 'app' },
      { uri: 'file:///work/my%20lib', name: 'my lib' },
    ]);
    assert.equal(publisher.followsWorkspace({}), true);
  });

  it('gives a folder-scoped server its own folder, and an override its own roots', () => {
    assert.deepEqual(publisher.rootsFor({ folder: { name: 'app', path: '/work/app' } }), [
      { uri: 'file:///work/app', name: 'app' },
    ]);
    assert.deepEqual(publisher.rootsFor({ roots: [{ uri: 'file:///data', name: 'data' }] }), [
      { uri: 'file:///data', name: 'data' },
    ]);
    assert.equal(publisher.followsWorkspace({ folder: { name: 'app', path: '/work/app' } }), false);
    assert.equal(publisher.followsWorkspace({ roots: [] }), false);
  });

  it('reports a change only when the folders really changed', () => {
    const roots = new RootsPublisher();
    assert.equal(roots.setWorkspaceFolders([{ name: 'a', path: '/a' }]), true);
    assert.equal(roots.setWorkspaceFolders([{ name: 'a', path: '/a' }]), false);
    assert.equal(roots.setWorkspaceFolders([]), true);
  });
});
