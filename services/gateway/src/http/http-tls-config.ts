import { keyPairSetting, type Env } from '@baton/errors';
import type { HttpTls } from '@baton/runtime';

/**
 * BATON_HTTP_TLS_*: the gateway serves HTTPS when BATON_HTTP_TLS_CERT_FILE (PEM certificate, its
 * chain after it) and BATON_HTTP_TLS_KEY_FILE (PEM private key) are both set; neither: plain HTTP.
 * BATON_HTTP_TLS_KEY_PASSWORD, or BATON_HTTP_TLS_KEY_PASSWORD_FILE (its trailing newline dropped),
 * holds the passphrase of an encrypted key. The files are read and the pair checked here (see
 * keyPairSetting), so a bad pair stops the gateway at start with CONFIG_INVALID naming the variable.
 */
export function loadHttpTls(env: Env): HttpTls | undefined {
  const pair = keyPairSetting(env, {
    cert: 'BATON_HTTP_TLS_CERT_FILE',
    key: 'BATON_HTTP_TLS_KEY_FILE',
    password: 'BATON_HTTP_TLS_KEY_PASSWORD',
  });
  if (pair === undefined) return undefined;
  const { cert, key, password } = pair;
  return password === undefined ? { cert, key } : { cert, key, passphrase: password };
}
