import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readSigningKey,
  signMessage,
  type SealedKind,
  type SignatureMode,
  type SigningKey,
} from '@baton/message-signing';

interface IssuedKey {
  key: SigningKey;
  pem: string;
  file: string;
  entry: { key_id: string; senders: string[]; public_key: string; handoff_reader?: boolean; outcome_reader?: boolean };
}

/**
 * The keys of a test's services and senders, as an operator would deploy them: each identity its
 * private key in a file of its own, one trust store file of every public key. The trust store is
 * replaced as Kubernetes updates a mounted secret (a new file renamed over the old).
 */
export class TestSigningKeys {
  readonly dir = mkdtempSync(join(tmpdir(), 'baton-keys-'));
  readonly trustStoreFile = join(this.dir, 'trust-store.json');
  private readonly issued = new Map<string, IssuedKey>();
  private readonly current = new Map<string, IssuedKey>();

  /**
   * A new key for `identity` (signing for `senders`, itself by default), now the one it signs with;
   * `reads` names the kinds its holder reads from their writers, which they seal for it rather than
   * sign: handoffs (the router, the gateway), outcome events (the tracker, the gateway).
   */
  issue(
    identity: string,
    keyId: string,
    senders: string[] = [identity],
    options: { reads?: SealedKind[] } = {},
  ): SigningKey {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const file = join(this.dir, `${keyId}.pem`);
    writeFileSync(file, pem, { mode: 0o600 });
    const issued: IssuedKey = {
      key: readSigningKey(keyId, pem),
      pem,
      file,
      entry: {
        key_id: keyId,
        senders,
        public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        ...(options.reads?.includes('handoff') === true ? { handoff_reader: true } : {}),
        ...(options.reads?.includes('outcome') === true ? { outcome_reader: true } : {}),
      },
    };
    this.issued.set(keyId, issued);
    this.current.set(identity, issued);
    this.writeTrustStore();
    return issued.key;
  }

  /** Takes `keyId` out of the trust store: what it signed stops verifying. */
  remove(keyId: string): void {
    this.issued.delete(keyId);
    this.writeTrustStore();
  }

  /** The environment of a service that signs as `identity` and verifies in `mode`. */
  envFor(identity: string, mode: SignatureMode = 'required'): Record<string, string> {
    const issued = this.current.get(identity);
    return {
      BATON_SIGNATURES: mode,
      BATON_TRUST_STORE_FILE: this.trustStoreFile,
      ...(issued === undefined ? {} : { BATON_SIGNING_KEY_FILE: issued.file, BATON_SIGNING_KEY_ID: issued.key.keyId }),
    };
  }

  /** `message` signed with the key `identity` signs with now. */
  sign<T>(message: T, identity: string): T {
    return signMessage('handoff', message, this.keyOf(identity).key);
  }

  /** The PEM private key of `identity`, for a signer outside Node. */
  pemOf(identity: string): string {
    return this.keyOf(identity).pem;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private keyOf(identity: string): IssuedKey {
    const issued = this.current.get(identity);
    if (issued === undefined) throw new Error(`no key issued for ${identity}`);
    return issued;
  }

  private writeTrustStore(): void {
    const next = `${this.trustStoreFile}.next`;
    writeFileSync(next, JSON.stringify({ keys: [...this.issued.values()].map((issued) => issued.entry) }));
    renameSync(next, this.trustStoreFile);
  }
}
