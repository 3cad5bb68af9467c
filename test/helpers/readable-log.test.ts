// The terminal view npm start gives of the services' JSON log lines (scripts/lib/readable-log.ts);
// here because the unit project runs test/helpers' pure tests and scripts/ has none of its own.
import { describe, expect, test } from 'vitest';
import { isAtLeast, parseLogLine, readableLine } from '../../scripts/lib/readable-log.js';

describe('readableLine', () => {
  test('shows the service, the level, the message and the other fields as key=value', () => {
    const line = JSON.stringify({
      level: 'warn',
      time: '2026-11-24T09:00:00.000Z',
      service: 'agent.sales_agent',
      event: 'retry.scheduled',
      task_id: 't-1',
      code: 'AGENT_TIMEOUT',
      attempt: 2,
      msg: 'retry scheduled',
    });
    expect(readableLine('sales-agent', line, 14)).toBe(
      'sales-agent     WARN   retry scheduled  task_id=t-1 code=AGENT_TIMEOUT attempt=2',
    );
  });

  test('an error shows as its type and message, without its stack; text with spaces is quoted', () => {
    const line = JSON.stringify({
      level: 50,
      time: 't',
      msg: 'close failed',
      err: { type: 'KafkaJSError', message: 'broker gone', stack: 'KafkaJSError: broker gone\n    at x' },
      topic: 'baton.agents',
      note: 'two words',
    });
    expect(readableLine('router', line)).toBe(
      'router  ERROR  close failed  err="KafkaJSError: broker gone" topic=baton.agents note="two words"',
    );
  });

  test('a line that is not a JSON record is shown as it is, after the name', () => {
    expect(readableLine('gateway', '(node:42) Warning: something', 8)).toBe('gateway   (node:42) Warning: something');
  });
});

describe('parseLogLine and isAtLeast', () => {
  test('know pino level names and numbers; a line of no known level counts as severe', () => {
    expect(parseLogLine('{"level":"info","msg":"m"}').level).toBe('info');
    expect(parseLogLine('{"level":40,"msg":"m"}').level).toBe('warn');
    expect(parseLogLine('not json').record).toBeUndefined();
    expect(isAtLeast('info', 'warn')).toBe(false);
    expect(isAtLeast('warn', 'warn')).toBe(true);
    expect(isAtLeast('fatal', 'warn')).toBe(true);
    expect(isAtLeast(undefined, 'warn')).toBe(true);
  });
});
