import { runCli } from './cli.js';
import { readSavedConnection, withSavedConnection, type LocalConnection } from './saved-connection.js';

/** `bin/baton.js` runs this: the process's arguments, streams and signals, and its exit code. */
const abort = new AbortController();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second Ctrl-C does not wait for a clean stop.
    if (interrupted) process.exit(130);
    interrupted = true;
    abort.abort();
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Where `npm start` wrote down its broker, registry and gateway: the commands find them there
// unless the environment names them.
let saved: LocalConnection | undefined;
try {
  saved = await readSavedConnection(process.env, process.cwd());
} catch (error) {
  process.stderr.write(`baton: not reading what npm start saved: ${(error as Error).message}\n`);
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin,
  stdinIsTty: process.stdin.isTTY === true,
  env: withSavedConnection(process.env, saved),
  signal: abort.signal,
});
// Exit once the output is flushed, without waiting for idle sockets or timers of the clients.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
