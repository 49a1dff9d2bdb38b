import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { HOST_SETTINGS } from '../../../src/core/config/hostSettingKeys';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
};
const declared = manifest.contributes.configuration.properties;

describe("the global settings' one home", () => {
  it('knows every mcpHost.* setting package.json declares, with the same default', () => {
    const known = Object.values(HOST_SETTINGS);
    assert.deepEqual(known.map((s) => s.key).sort(), Object.keys(declared).sort());
    for (const { key, default: value } of known) {
      // `servers` declares no default in package.json (its Settings editor shows it empty).
      if (declared[key].default === undefined) assert.deepEqual(value, {}, key);
      else assert.deepEqual(value, declared[key].default, key);
    }
  });
});
