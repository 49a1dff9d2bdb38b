import type * as ClientLibrary from '@modelcontextprotocol/client';
import type * as AppBridgeLibrary from '@modelcontextprotocol/ext-apps/app-bridge';
import type * as SkillsLibrary from '@modelcontextprotocol/client/ext/skills';
import type * as NodeServerLibrary from '@modelcontextprotocol/node';
import type * as ServerStdioLibrary from '@modelcontextprotocol/server/stdio';
import type * as ServerLibrary from '@modelcontextprotocol/server';
import type Ajv from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import type addFormats from 'ajv-formats';
import type * as Undici from 'undici';
import type { Disposable } from './events';

/*
 * Libraries loaded with their first use instead of with the extension. The MCP client library and
 * the MCP Apps host bridge (which loads the client library too) build the protocol's zod schemas
 * at their top level, about 50 ms of CPU and 3 MB of heap; ajv about 20 ms and 1 MB; undici (for
 * HTTP servers) is half a megabyte of code: a window whose servers start on demand need not pay
 * for them. Modules loaded with the extension take these
 * libraries' values from here and import their types only; the session's own modules
 * (`sessionOpener` and what it imports), loaded when a first server starts, import them as usual.
 * The build fails when one is reached from the extension's entry by imports alone
 * (scripts/build.mjs).
 */

/**
 * In the extension's bundle these libraries are not bundled in: they are in bundles of their own
 * (`dist/libraries.js` for the MCP libraries, `dist/libraries-ajv.js`, `dist/libraries-undici.js`),
 * which a window loads when it first needs one of their libraries, and the build sends each
 * `require()` and import of one to `libraryFromBundle` with its bundle's name (scripts/build.mjs).
 * Outside the extension's bundle (the headless client, unit tests) they are required from
 * `node_modules` as usual.
 */
export type LibraryBundle = Readonly<Record<string, () => unknown>>;

let loadBundle: ((bundle: string) => LibraryBundle) | undefined;
const bundles = new Map<string, LibraryBundle>();

/** How the extension's bundle loads a library bundle, `dist/<bundle>.js` (through the code cache: see bootstrap.ts). */
export function loadLibrariesWith(loader: (bundle: string) => LibraryBundle): void {
  loadBundle = loader;
  bundles.clear();
}

/** The library `name` (as the code requires it) from `dist/<bundle>.js`, which loads with the first of its libraries asked for. */
export function libraryFromBundle(name: string, bundle: string): unknown {
  if (!loadBundle)
    throw new Error(
      `${name} is in MCP Host's library bundle ${bundle}, which is loaded only once the extension has activated`,
    );
  let libraries = bundles.get(bundle);
  if (!libraries) bundles.set(bundle, (libraries = loadBundle(bundle)));
  const library = libraries[name];
  if (!library) throw new Error(`MCP Host's library bundle ${bundle} has no ${name}: rebuild the extension`);
  return library();
}

let client: typeof ClientLibrary | undefined;
let appBridge: typeof AppBridgeLibrary | undefined;
let skills: typeof SkillsLibrary | undefined;
let gateway: GatewayLibraries | undefined;
let ajv: AjvLibrary | undefined;
let undici: typeof Undici | undefined;
let loaded: ((library: string, ms: number) => void) | undefined;

/** Tells `listener` when a library loads and how long that took (the editor writes it to the host log), until disposed. */
export function whenLibraryLoads(listener: (library: string, ms: number) => void): Disposable {
  loaded = listener;
  return { dispose: () => void (loaded === listener && (loaded = undefined)) };
}

function load<T>(library: string, required: () => T): T {
  const start = performance.now();
  const exports = required();
  loaded?.(library, performance.now() - start);
  return exports;
}

export function clientLibrary(): typeof ClientLibrary {
  return (client ??= load(
    'the MCP client library',
    () => require('@modelcontextprotocol/client') as typeof ClientLibrary,
  ));
}

/** The client library's Skills extension (SEP-2640): listing, reading and verifying a server's skills. */
export function skillsLibrary(): typeof SkillsLibrary {
  return (skills ??= load(
    'the MCP Skills client',
    () => require('@modelcontextprotocol/client/ext/skills') as typeof SkillsLibrary,
  ));
}

export function appBridgeLibrary(): typeof AppBridgeLibrary {
  return (appBridge ??= load(
    'the MCP Apps host bridge',
    () => require('@modelcontextprotocol/ext-apps/app-bridge') as typeof AppBridgeLibrary,
  ));
}

/** The client library's error for a server request the host refuses, with its JSON-RPC error code. */
export function protocolError(code: number, message: string): ClientLibrary.ProtocolError {
  return new (clientLibrary().ProtocolError)(code, message);
}

/** The MCP server library and its Node HTTP transport: what the agents' gateway serves with (src/core/gateway). */
export interface GatewayLibraries {
  readonly Server: typeof ServerLibrary.Server;
  readonly NodeStreamableHTTPServerTransport: typeof NodeServerLibrary.NodeStreamableHTTPServerTransport;
  readonly StdioServerTransport: typeof ServerStdioLibrary.StdioServerTransport;
}

export function gatewayLibraries(): GatewayLibraries {
  return (gateway ??= load("the MCP server library (for the agents' gateway)", () => ({
    Server: (require('@modelcontextprotocol/server') as typeof ServerLibrary).Server,
    NodeStreamableHTTPServerTransport: (require('@modelcontextprotocol/node') as typeof NodeServerLibrary)
      .NodeStreamableHTTPServerTransport,
    StdioServerTransport: (require('@modelcontextprotocol/server/stdio') as typeof ServerStdioLibrary)
      .StdioServerTransport,
  })));
}

export interface AjvLibrary {
  readonly Ajv: typeof Ajv;
  readonly Ajv2020: typeof Ajv2020;
  readonly addFormats: typeof addFormats;
}

/** ajv, its 2020-12 dialect and its formats (CommonJS modules whose `default` is the export). */
export function ajvLibrary(): AjvLibrary {
  return (ajv ??= load('ajv', () => ({
    Ajv: (require('ajv') as { default: typeof Ajv }).default,
    Ajv2020: (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default,
    addFormats: (require('ajv-formats') as { default: typeof addFormats }).default,
  })));
}

export function undiciLibrary(): typeof Undici {
  return (undici ??= load('undici', () => require('undici') as typeof Undici));
}
