import { isEncryptedValue } from '@baton/protocol';
import type { WireStage } from '@baton/wire';
import { newDataKey, openValue, sealValue, type DataKey } from './envelope-cipher.js';
import { mapStringsWhere } from './json-walk.js';
import type { KeyRingSource } from './key-ring.js';
import { PersonalFields, type PersonalMessageKind } from './personal-fields.js';

/** `message` with every encrypted value, wherever it sits, decrypted; PERSONAL_DATA_UNREADABLE when one does not. */
export function decryptPersonalData(message: unknown, keyRing: KeyRingSource): unknown {
  const dataKeys = new Map<string, Buffer>();
  return mapStringsWhere(message, isEncryptedValue, (text, pointer) =>
    openValue(text as string, keyRing, dataKeys, pointer),
  );
}

/**
 * The wire stage that encrypts a message's personal fields as it is written and decrypts them as
 * it is read, for the services the key ring is given to. Sealing draws one data key per message,
 * and only when the message has a personal field still in clear: a message without one, or whose
 * fields arrived encrypted, is written as it is (never encrypted twice). Opening decrypts every
 * encrypted value wherever it sits, so a value copied into another field or message still reads.
 */
export function fieldEncryptionStage(
  kind: PersonalMessageKind,
  keyRing: KeyRingSource,
  fields: PersonalFields = new PersonalFields(),
): WireStage {
  return {
    seal(message) {
      let dataKey: DataKey | undefined;
      return fields.map(kind, message, (value) =>
        value === undefined || value === null || isEncryptedValue(value)
          ? value
          : sealValue(value, (dataKey ??= newDataKey(keyRing))),
      );
    },
    open: (message) => decryptPersonalData(message, keyRing),
  };
}
