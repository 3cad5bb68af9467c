import { SUPPORTED_MAJOR, parseProtocolVersion, versionCompatibility } from '../handoff/protocol-version.js';
import type { ValidationIssue } from './validation-issue.js';

/** How strictly a message is validated: its own minor strictly, a newer minor with unknown fields kept. */
export type ReadingMode = 'same' | 'newer-minor';

/**
 * How this reader reads a message that declares `declared` as its protocol_version (at `path`).
 * Another major may be shaped differently throughout, so it is refused with that one issue alone:
 * its other findings would only mislead. An absent or malformed version is left to the schema.
 */
export function versionReading(declared: unknown, path: string): { mode: ReadingMode } | { refusal: ValidationIssue } {
  const version = typeof declared === 'string' ? parseProtocolVersion(declared) : undefined;
  if (!version) return { mode: 'same' };
  const compatibility = versionCompatibility(version);
  if (compatibility !== 'unsupported-major') return { mode: compatibility };
  return {
    refusal: {
      code: 'UNSUPPORTED_PROTOCOL_VERSION',
      path,
      message: `protocol_version ${String(declared)} is not supported: this reader speaks ${SUPPORTED_MAJOR}.x`,
    },
  };
}
