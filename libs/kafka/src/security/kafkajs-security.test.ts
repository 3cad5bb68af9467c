import { describe, expect, it } from 'vitest';
import { kafkajsSecurity } from './kafkajs-security.js';

describe('kafkajsSecurity', () => {
  it('sets neither ssl nor sasl for PLAINTEXT', () => {
    expect(kafkajsSecurity()).toStrictEqual({});
    expect(kafkajsSecurity({})).toStrictEqual({});
  });

  it('connects with TLS and Node’s public CAs when tls holds nothing', () => {
    // An object, not true or undefined: kafkajs connects with TLS whenever ssl is truthy.
    expect(kafkajsSecurity({ tls: {} })).toStrictEqual({ ssl: {} });
  });

  it('maps the CA, the client certificate, its key and the key password to tls options', () => {
    expect(kafkajsSecurity({ tls: { ca: 'CA', cert: 'CERT', key: 'KEY', keyPassword: 'PASS' } })).toStrictEqual({
      ssl: { ca: 'CA', cert: 'CERT', key: 'KEY', passphrase: 'PASS' },
    });
  });

  it('never loosens the certificate check', () => {
    const { ssl } = kafkajsSecurity({ tls: { ca: 'CA', cert: 'CERT', key: 'KEY' } });
    expect(ssl).not.toHaveProperty('rejectUnauthorized');
    expect(ssl).not.toHaveProperty('checkServerIdentity');
  });

  it.each([
    ['PLAIN', 'plain'],
    ['SCRAM-SHA-256', 'scram-sha-256'],
    ['SCRAM-SHA-512', 'scram-sha-512'],
  ] as const)('names SASL %s as kafkajs does (%s)', (mechanism, kafkajsName) => {
    expect(kafkajsSecurity({ tls: {}, sasl: { mechanism, username: 'u', password: 'p' } })).toStrictEqual({
      ssl: {},
      sasl: { mechanism: kafkajsName, username: 'u', password: 'p' },
    });
  });
});
