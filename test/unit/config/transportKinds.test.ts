import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TRANSPORTS } from '../../../src/core/config/transportKinds';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: {
    configuration: {
      properties: { 'mcpHost.servers': { additionalProperties: { properties: { type: { enum: string[] } } } } };
    };
  };
};

describe("the transports' switchboard", () => {
  it('has one record for each "type" the settings accept', () => {
    const types =
      manifest.contributes.configuration.properties['mcpHost.servers'].additionalProperties.properties.type.enum;
    assert.deepEqual(Object.keys(TRANSPORTS).sort(), [...types].sort());
  });
});
