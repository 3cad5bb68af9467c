import { Worker } from 'node:worker_threads';
import { BatonError } from '@baton/errors';

const LENGTH_BYTES = 4;
const SIGNATURE_BYTES = 64;
const PUBLIC_KEY_BYTES = 32;
const ENTRY_OVERHEAD = LENGTH_BYTES + SIGNATURE_BYTES + PUBLIC_KEY_BYTES;

interface Waiting {
  resolve(valid: boolean): void;
  reject(error: Error): void;
}

interface Queued extends Waiting {
  publicKey: Buffer;
  bytes: Buffer;
  signature: Buffer;
}

/**
 * Ed25519 verifications on a thread of their own. A router verifies every handoff it reads; on its
 * own thread each verification (about 50 µs) sat between fetching and producing, and its
 * transactions waited for them in turn. Here the event loop only queues them: the verifications
 * asked for in one turn go to the thread as one message, one buffer moved rather than copied,
 * and come back as one answer, while the event loop decodes and produces the others.
 *
 * The thread starts at the first verification and does not keep the process alive. If it fails,
 * the verifications it held are refused with SIGNATURE_CHECK_UNAVAILABLE (retriable: the
 * message is tried again) and the next one starts a new thread.
 */
export class VerificationThread {
  #worker: Worker | undefined;
  #queued: Queued[] = [];
  readonly #sent = new Map<number, Waiting[]>();
  #nextBatch = 0;
  #closed = false;

  /** Whether `signature` is `bytes` signed by the key `publicKey` (32 raw bytes). */
  verify(publicKey: Buffer, bytes: Buffer, signature: Buffer): Promise<boolean> {
    if (this.#closed) return Promise.reject(unavailable('the verification thread is closed'));
    return new Promise((resolve, reject) => {
      this.#queued.push({ publicKey, bytes, signature, resolve, reject });
      if (this.#queued.length === 1) queueMicrotask(() => this.#send());
    });
  }

  /** Ends the thread; verifications still waiting are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
    this.#failAll(unavailable('the verification thread was closed'));
  }

  #send(): void {
    const batch = this.#queued;
    this.#queued = [];
    let size = 0;
    for (const entry of batch) size += ENTRY_OVERHEAD + entry.bytes.length;
    const packed = Buffer.from(new ArrayBuffer(size));
    let at = 0;
    for (const { bytes, signature, publicKey } of batch) {
      at = packed.writeUInt32LE(bytes.length, at);
      at += signature.copy(packed, at);
      at += publicKey.copy(packed, at);
      at += bytes.copy(packed, at);
    }
    const id = this.#nextBatch;
    this.#nextBatch += 1;
    this.#sent.set(id, batch);
    try {
      this.#thread().postMessage({ id, count: batch.length, packed: packed.buffer }, [packed.buffer]);
    } catch (error) {
      this.#sent.delete(id);
      for (const waiting of batch)
        waiting.reject(unavailable(`the verification thread took no work: ${String(error)}`));
    }
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    // execArgv: the thread runs plain JavaScript and needs none of the process's loaders.
    const worker = new Worker(new URL('./verification-thread-worker.mjs', import.meta.url), { execArgv: [] });
    worker.unref();
    worker.on('message', ({ id, results }: { id: number; results: Uint8Array }) => {
      const waiting = this.#sent.get(id) ?? [];
      this.#sent.delete(id);
      waiting.forEach((entry, index) => entry.resolve(results[index] === 1));
    });
    const failed = (why: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failAll(unavailable(why));
    };
    worker.on('error', (error) => failed(`the verification thread failed: ${error.message}`));
    worker.on('exit', (code) => failed(`the verification thread exited with code ${code}`));
    this.#worker = worker;
    return worker;
  }

  #failAll(error: BatonError): void {
    for (const waiting of this.#sent.values()) for (const entry of waiting) entry.reject(error);
    this.#sent.clear();
  }
}

function unavailable(message: string): BatonError {
  return new BatonError('SIGNATURE_CHECK_UNAVAILABLE', message);
}
