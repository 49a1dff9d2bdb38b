// src/core must stay pure: `vscode` may only be imported for types there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const offenders = [];
const runtimeImport = /^\s*import\s+(?!type\b)[^;]*from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)/m;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts') && runtimeImport.test(readFileSync(path, 'utf8'))) offenders.push(path);
  }
}
walk('src/core');
if (offenders.length > 0) {
  console.error(`src/core must not import 'vscode' at runtime:\n  ${offenders.join('\n  ')}`);
  process.exit(1);
}
console.log('lint: src/core imports vscode for types only');
