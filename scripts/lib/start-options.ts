import { BatonError } from '@baton/errors';

/** The most nodes `npm start -- --brokers N` starts: each is a JVM of its own on this machine. */
export const MAX_LOCAL_BROKERS = 5;

/**
 * How many local brokers `npm start` (or `npm run chaos`) runs: `--brokers N` or `--brokers=N` on
 * its command line, else the environment's `variable`, else 1. A cluster of several replicates
 * every topic (see @baton/local-infra's replicationOf).
 */
export function brokerCount(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  variable = 'BATON_START_BROKERS',
): number {
  let given: string | undefined;
  let source = variable;
  argv.forEach((argument, index) => {
    if (argument === '--brokers') {
      given = argv[index + 1] ?? '';
      source = '--brokers';
    } else if (argument.startsWith('--brokers=')) {
      given = argument.slice('--brokers='.length);
      source = '--brokers';
    }
  });
  given ??= env[variable];
  if (given === undefined || given.trim() === '') {
    if (source === '--brokers') throw invalid(source, '(nothing)');
    return 1;
  }
  const count = Number(given);
  if (!Number.isInteger(count) || count < 1 || count > MAX_LOCAL_BROKERS) throw invalid(source, given);
  return count;
}

function invalid(source: string, given: string): BatonError {
  return new BatonError(
    'CONFIG_INVALID',
    `${source} takes a number of brokers from 1 to ${MAX_LOCAL_BROKERS}, not ${given}`,
    {
      path: source.startsWith('--') ? '/argv/--brokers' : `/env/${source}`,
    },
  );
}

/** The command line's arguments that are not `--brokers N` or `--brokers=N`, in order. */
export function withoutBrokerOption(argv: readonly string[]): string[] {
  return argv.filter(
    (argument, index) =>
      argument !== '--brokers' && argv[index - 1] !== '--brokers' && !argument.startsWith('--brokers='),
  );
}
