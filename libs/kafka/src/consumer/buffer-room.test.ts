import { describe, expect, it } from 'vitest';
import { BufferRoom } from './buffer-room.js';

describe('BufferRoom', () => {
  it('lets messages in up to the message bound', () => {
    const room = new BufferRoom(2, 1_000);
    expect([room.tryTake(10), room.tryTake(10), room.tryTake(10)]).toEqual([true, true, false]);
    expect([room.heldMessages, room.heldBytes]).toEqual([2, 20]);
  });

  it('lets messages in up to the byte bound', () => {
    const room = new BufferRoom(100, 1_000);
    expect([room.tryTake(600), room.tryTake(400), room.tryTake(1)]).toEqual([true, true, false]);
    expect([room.heldMessages, room.heldBytes]).toEqual([2, 1_000]);
  });

  it('lets a message larger than the byte bound in alone', () => {
    const room = new BufferRoom(100, 1_000);
    expect(room.tryTake(5_000)).toBe(true);
    expect(room.tryTake(1)).toBe(false);
    room.give(1, 5_000);
    expect(room.tryTake(1)).toBe(true);
    expect(room.tryTake(5_000)).toBe(false);
  });

  it('lets waiters in, in arrival order, as room is given back, and none ahead of them', async () => {
    const room = new BufferRoom(100, 1_000);
    room.tryTake(900);
    const order: string[] = [];
    const big = room.take(500).then((granted) => order.push(`big ${granted}`));
    const small = room.take(50).then((granted) => order.push(`small ${granted}`));
    expect(room.tryTake(10)).toBe(false); // fits, but others wait before it
    room.give(1, 900);
    await Promise.all([big, small]);
    expect(order).toEqual(['big true', 'small true']);
    expect([room.heldMessages, room.heldBytes]).toEqual([2, 550]);
  });

  it('ends every wait with false when cancelled', async () => {
    const room = new BufferRoom(1, 1_000);
    room.tryTake(1);
    const waiting = room.take(1);
    room.cancelWaiters();
    expect(await waiting).toBe(false);
  });

  it('refuses to take back more than it holds, and bounds that are not positive integers', () => {
    const room = new BufferRoom(10, 1_000);
    room.tryTake(10);
    expect(() => room.give(1, 11)).toThrow('gave back 1 messages of 11 bytes, more than the 1 of 10 held');
    expect(() => new BufferRoom(0, 10)).toThrow('maxMessages must be a positive integer, not 0');
    expect(() => new BufferRoom(10, 1.5)).toThrow('maxBytes must be a positive integer, not 1.5');
  });
});
