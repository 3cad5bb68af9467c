import { describe, expect, it } from 'vitest';
import { capturedLogger } from '../captured-logger.test-helper.js';
import { component, concurrently, type Component } from './component.js';
import { Service } from './service.js';

/** Components that write what happens to them into `journal`. */
function recorded(journal: string[], name: string, faults: { start?: Error; close?: Error } = {}): Component {
  return component(name, {
    start: async () => {
      journal.push(`start ${name}`);
      if (faults.start) throw faults.start;
    },
    close: async () => {
      journal.push(`close ${name}`);
      if (faults.close) throw faults.close;
    },
  });
}

function serviceOf(components: Component[]) {
  const { logger, lines } = capturedLogger();
  return { service: new Service({ name: 'svc', components, logger }), lines };
}

describe('a service built on the chassis', () => {
  it('starts its components in order and closes them in reverse order', async () => {
    const journal: string[] = [];
    const { service, lines } = serviceOf(['http', 'topics', 'reader', 'consumer'].map((n) => recorded(journal, n)));
    expect(journal).toEqual([]);
    await service.start();
    await service.close();
    expect(journal).toEqual([
      'start http',
      'start topics',
      'start reader',
      'start consumer',
      'close consumer',
      'close reader',
      'close topics',
      'close http',
    ]);
    expect(lines.map((line) => line.event).filter((event) => String(event).startsWith('service.'))).toEqual([
      'service.started',
      'service.stopping',
      'service.stopped',
    ]);
  });

  it('runs every close when one throws, and then rejects with that failure', async () => {
    const journal: string[] = [];
    const broken = new Error('disconnect failed');
    const { service, lines } = serviceOf([
      recorded(journal, 'a'),
      recorded(journal, 'b', { close: broken }),
      recorded(journal, 'c'),
    ]);
    await service.start();
    await expect(service.close()).rejects.toBe(broken);
    expect(journal.slice(3)).toEqual(['close c', 'close b', 'close a']);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'component.close_failed', component: 'b' }),
    );
  });

  it('reports several failed closes together', async () => {
    const journal: string[] = [];
    const { service } = serviceOf([
      recorded(journal, 'a', { close: new Error('a failed') }),
      recorded(journal, 'b', { close: new Error('b failed') }),
    ]);
    await service.start();
    const failure = await service.close().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['b failed', 'a failed']);
  });

  it('closes once however often close is called', async () => {
    const journal: string[] = [];
    const { service } = serviceOf([recorded(journal, 'a')]);
    await service.start();
    await Promise.all([service.close(), service.close()]);
    await service.close();
    expect(journal).toEqual(['start a', 'close a']);
  });

  it('closes what started when a component fails to start, and starts nothing after it', async () => {
    const journal: string[] = [];
    const refused = new Error('no broker');
    const { service } = serviceOf([
      recorded(journal, 'a'),
      recorded(journal, 'b'),
      recorded(journal, 'c', { start: refused }),
      recorded(journal, 'd'),
    ]);
    await expect(service.start()).rejects.toBe(refused);
    expect(journal).toEqual(['start a', 'start b', 'start c', 'close b', 'close a']);
    await service.close();
    expect(journal).toHaveLength(5);
  });

  it('stops starting when closed during start, and closes what had started', async () => {
    const journal: string[] = [];
    let release: () => void = () => undefined;
    const slow = component('slow', {
      start: () => new Promise<void>((resolve) => (release = resolve)),
      close: async () => journal.push('close slow'),
    });
    const { service } = serviceOf([recorded(journal, 'a'), slow, recorded(journal, 'b')]);
    const starting = service.start();
    await expect.poll(() => journal).toEqual(['start a']);
    const closing = service.close();
    release();
    await starting;
    await closing;
    expect(journal).toEqual(['start a', 'close slow', 'close a']);
    expect(service.isReady()).toBe(false);
  });

  it('is ready when started, not closing, and every component that can tell is ready', async () => {
    let readerReady = false;
    const { service } = serviceOf([component('http', {}), component('reader', { isReady: () => readerReady })]);
    expect(service.isReady()).toBe(false);
    await service.start();
    expect(service.isReady()).toBe(false);
    readerReady = true;
    expect(service.isReady()).toBe(true);
    const closing = service.close();
    expect(service.isReady()).toBe(false);
    await closing;
  });

  it('refuses two components of one name', () => {
    expect(() => serviceOf([component('reader', {}), component('reader', {})])).toThrow(
      'svc has two components named reader',
    );
  });
});

describe('components closed concurrently', () => {
  it('start in order, close all at once, and close every part when one throws', async () => {
    const journal: string[] = [];
    const releases: (() => void)[] = [];
    const waiting = (name: string) =>
      component(name, {
        start: async () => journal.push(`start ${name}`),
        close: () =>
          new Promise<void>((resolve) => {
            journal.push(`closing ${name}`);
            releases.push(resolve);
          }),
      });
    const group = concurrently('consumers', [
      waiting('control'),
      recorded(journal, 'broken', { close: new Error('x') }),
      waiting('inbox'),
    ]);
    await group.start();
    const closing = group.close();
    // Both slow closes began before either finished.
    await expect.poll(() => releases.length).toBe(2);
    expect(journal).toEqual([
      'start control',
      'start broken',
      'start inbox',
      'closing control',
      'close broken',
      'closing inbox',
    ]);
    for (const release of releases) release();
    await expect(closing).rejects.toThrow('x');
  });

  it('closes the parts that started when a later one fails to start', async () => {
    const journal: string[] = [];
    const group = concurrently('consumers', [
      recorded(journal, 'a'),
      recorded(journal, 'b', { start: new Error('no') }),
    ]);
    await expect(group.start()).rejects.toThrow('no');
    expect(journal).toEqual(['start a', 'start b', 'close a']);
  });
});
