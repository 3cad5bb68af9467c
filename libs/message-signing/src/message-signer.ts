import { createPrivateKey, type KeyObject } from 'node:crypto';
import { configInvalid, readSettingFile } from '@baton/errors';
import { canonicalJson } from './canonical-json.js';
import { Ed25519PrivateKey } from './ed25519.js';
import { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
import { KEY_ID_PATTERN, formatSignature } from './signature-value.js';

export const SIGNING_KEY_VARIABLES = { file: 'BATON_SIGNING_KEY_FILE', id: 'BATON_SIGNING_KEY_ID' } as const;

/**
 * A key a service reads seals with besides its own: the readers of outcome events (the tracker and
 * the gateway) may share one, so that every writer seals each event once rather than once per reader.
 */
export const READER_KEY_VARIABLES = { file: 'BATON_READER_KEY_FILE', id: 'BATON_READER_KEY_ID' } as const;

/** The two variables that name a key: its file and its id. */
export type KeyVariables = typeof SIGNING_KEY_VARIABLES | typeof READER_KEY_VARIABLES;

/** A service's private signing key and the id its public half is trusted under. */
export interface SigningKey {
  keyId: string;
  privateKey: Ed25519PrivateKey;
}

/** An Ed25519 private key from PEM (PKCS#8) text; refused as CONFIG_INVALID naming the variable, never quoting it. */
export function readSigningKey(
  keyId: string,
  pem: string,
  variable: string = SIGNING_KEY_VARIABLES.file,
  idVariable: string = SIGNING_KEY_VARIABLES.id,
): SigningKey {
  if (!KEY_ID_PATTERN.test(keyId)) {
    throw configInvalid(idVariable, `${idVariable} must be 1 to 128 letters, digits, ".", "_" or "-"`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw configInvalid(variable, `${variable} names a file that holds no PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw configInvalid(variable, `${variable} holds a ${privateKey.asymmetricKeyType} key, not an ed25519 one`);
  }
  return { keyId, privateKey: new Ed25519PrivateKey(privateKey) };
}

/** The key the variables name, read once at start; undefined when neither is set. */
export function signingKeyFromFile(
  keyId: string | undefined,
  file: string | undefined,
  variables: KeyVariables = SIGNING_KEY_VARIABLES,
): SigningKey | undefined {
  if (keyId === undefined && file === undefined) return undefined;
  if (keyId === undefined || file === undefined) {
    throw configInvalid(
      keyId === undefined ? variables.id : variables.file,
      `set ${variables.file} and ${variables.id} together`,
    );
  }
  return readSigningKey(keyId, readSettingFile(variables.file, file), variables.file, variables.id);
}

/** The bytes a signature covers: the RFC 8785 form of the message without its signature, in UTF-8. */
export function signedBytes(kind: MessageKind, message: Record<string, unknown>): Buffer {
  return Buffer.from(canonicalJson(SIGNED_SHAPES[kind].unsigned(message)), 'utf8');
}

/** The message with its signature by `key` (any signature it had is replaced). */
export function signMessage<T>(kind: MessageKind, message: T, key: SigningKey): T {
  const record = message as Record<string, unknown>;
  const signature = key.privateKey.sign(signedBytes(kind, record));
  return SIGNED_SHAPES[kind].withSignature(record, formatSignature({ keyId: key.keyId, signature })) as T;
}
