const REDACTED = '[redacted]';

/** Replaces every occurrence of any of `secrets` in a text: for lines that may quote a request. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const present = secrets.filter((secret) => secret !== '');
  return (text) => {
    let shown = text;
    for (const secret of present) shown = shown.replaceAll(secret, REDACTED);
    return shown;
  };
}
