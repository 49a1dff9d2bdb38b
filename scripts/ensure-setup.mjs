// Runs before `npm start` and `npm test`: installs what a fresh machine lacks, so those two
// commands are the whole set-up. Node 24 and code-server are fetched by the editor harness itself.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(command, args) {
  console.log(`[setup] ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (status !== 0) {
    console.error(`[setup] \`${command} ${args.join(' ')}\` failed (exit ${status}).`);
    process.exit(status ?? 1);
  }
}

if (!existsSync('node_modules/.package-lock.json')) run('npm', ['ci']);

// Chromium drives the editor tests; the headers let npm build code-server's native addons;
// bubblewrap, socat and ripgrep are what the sandbox runtime needs for sandboxed servers on Linux.
const debianPackages = [
  'chromium',
  'libkrb5-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'pkg-config',
  'bubblewrap',
  'socat',
  'ripgrep',
];
if (process.platform === 'linux' && !process.env.MCPHOST_CHROMIUM) {
  const missing = debianPackages.filter((name) => spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status !== 0);
  if (missing.length > 0) {
    if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
      run('apt-get', ['update', '-qq']);
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
    } else {
      console.error(
        `[setup] Missing system packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
      );
      process.exit(1);
    }
  }
}
