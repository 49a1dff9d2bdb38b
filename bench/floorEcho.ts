// The floor: a child that echoes each newline-delimited JSON message straight back.
import * as readline from 'node:readline';

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { id: number };
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } })}\n`,
  );
});
