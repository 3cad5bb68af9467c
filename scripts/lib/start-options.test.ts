import { expect, it } from 'vitest';
import { brokerCount, withoutBrokerOption } from './start-options.js';

it('runs one broker unless told otherwise', () => {
  expect(brokerCount([], {})).toBe(1);
  expect(brokerCount(['--logs'], { BATON_START_BROKERS: '' })).toBe(1);
});

it('takes --brokers N, --brokers=N or BATON_START_BROKERS, the command line first', () => {
  expect(brokerCount(['--brokers', '3'], {})).toBe(3);
  expect(brokerCount(['--logs', '--brokers=3'], {})).toBe(3);
  expect(brokerCount([], { BATON_START_BROKERS: '3' })).toBe(3);
  expect(brokerCount(['--brokers', '1'], { BATON_START_BROKERS: '3' })).toBe(1);
});

it.each([
  [['--brokers'], {}, '--brokers takes a number of brokers from 1 to 5, not (nothing)', '/argv/--brokers'],
  [['--brokers', 'three'], {}, '--brokers takes a number of brokers from 1 to 5, not three', '/argv/--brokers'],
  [['--brokers=0'], {}, '--brokers takes a number of brokers from 1 to 5, not 0', '/argv/--brokers'],
  [
    [],
    { BATON_START_BROKERS: '2.5' },
    'BATON_START_BROKERS takes a number of brokers from 1 to 5, not 2.5',
    '/env/BATON_START_BROKERS',
  ],
  [
    [],
    { BATON_START_BROKERS: '9' },
    'BATON_START_BROKERS takes a number of brokers from 1 to 5, not 9',
    '/env/BATON_START_BROKERS',
  ],
])('refuses %j %j with a coded error naming what was given', (argv, env, message, path) => {
  expect(() => brokerCount(argv, env)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message, path }));
});

it('reads another variable when told, and leaves the other arguments in order', () => {
  expect(brokerCount([], { CHAOS_BROKERS: '3' }, 'CHAOS_BROKERS')).toBe(3);
  expect(withoutBrokerOption(['20000', '--brokers', '3', '12'])).toEqual(['20000', '12']);
  expect(withoutBrokerOption(['--brokers=3', '500'])).toEqual(['500']);
});
