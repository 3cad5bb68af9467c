import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Ed25519PrivateKey } from './ed25519.js';
import { VerificationThread } from './verification-thread.js';

const key = new Ed25519PrivateKey(generateKeyPairSync('ed25519').privateKey);
const other = new Ed25519PrivateKey(generateKeyPairSync('ed25519').privateKey);

describe('VerificationThread', () => {
  const thread = new VerificationThread();
  afterAll(() => thread.close());

  it('answers each verification of a batch asked in one turn, in order', async () => {
    const messages = Array.from({ length: 50 }, (_, index) => Buffer.from(`message ${index} `.repeat(index + 1)));
    const answers = await Promise.all(
      messages.map((bytes, index) => {
        const signature = (index % 3 === 0 ? other : key).sign(bytes);
        // Every fifth is checked against other bytes than were signed.
        const checked = index % 5 === 0 ? Buffer.concat([bytes, Buffer.from('!')]) : bytes;
        return thread.verify(key.publicKey, checked, signature);
      }),
    );
    expect(answers).toEqual(messages.map((_, index) => index % 3 !== 0 && index % 5 !== 0));
  });

  it('answers batches asked in later turns too', async () => {
    const bytes = Buffer.from('later');
    expect(await thread.verify(key.publicKey, bytes, key.sign(bytes))).toBe(true);
    expect(await thread.verify(other.publicKey, bytes, key.sign(bytes))).toBe(false);
  });

  it('refuses verifications once closed, with the retriable SIGNATURE_CHECK_UNAVAILABLE', async () => {
    const closing = new VerificationThread();
    const bytes = Buffer.from('x');
    expect(await closing.verify(key.publicKey, bytes, key.sign(bytes))).toBe(true);
    await closing.close();
    await expect(closing.verify(key.publicKey, bytes, key.sign(bytes))).rejects.toMatchObject({
      code: 'SIGNATURE_CHECK_UNAVAILABLE',
      retriable: true,
    });
  });
});
