import { describe, expect, it } from 'vitest';
import type { ConsumerObserver } from '@baton/kafka';
import { combineObservers } from './handoff-service.js';
import { capturedLogger } from './captured-logger.test-helper.js';

describe('combineObservers', () => {
  it('tells every observer in turn, and a throwing one neither stops the others nor escapes', () => {
    const { logger, lines } = capturedLogger();
    const heard: string[] = [];
    const throwing: ConsumerObserver = {
      partitionReady: () => {
        throw new Error('broken metrics');
      },
    };
    const listening: ConsumerObserver = {
      partitionReady: ({ partition }) => heard.push(`ready ${partition}`),
      partitionStopped: ({ reason }) => heard.push(`stopped: ${reason}`),
    };
    const combined = combineObservers([throwing, listening, {}], logger);
    expect(() => combined.partitionReady?.({ topic: 't', partition: 2, catchUpMs: 1 })).not.toThrow();
    combined.partitionStopped?.({ topic: 't', partition: 2, reason: 'revoked' });
    expect(heard).toEqual(['ready 2', 'stopped: revoked']);
    expect(combined.processed).toBeUndefined();
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', event: 'observer.failed' }));
  });
});
