/** The protocol version this library writes. Readers accept any message of the same major. */
export const PROTOCOL_VERSION = '1.0.0';

export interface ProtocolVersion {
  major: number;
  minor: number;
  patch: number;
}

const VERSION_PATTERN = /^(\d+)\.(\d+)\.(\d+)$/;

export function parseProtocolVersion(text: string): ProtocolVersion | undefined {
  const match = VERSION_PATTERN.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

const CURRENT = parseProtocolVersion(PROTOCOL_VERSION) as ProtocolVersion;

export const SUPPORTED_MAJOR = CURRENT.major;

/**
 * How this reader treats a message of `version`: its own major and minor are read strictly;
 * a newer minor of the same major may carry optional fields this reader does not know, which
 * are accepted and kept; another major is refused.
 */
export function versionCompatibility(version: ProtocolVersion): 'same' | 'newer-minor' | 'unsupported-major' {
  if (version.major !== CURRENT.major) return 'unsupported-major';
  return version.minor > CURRENT.minor ? 'newer-minor' : 'same';
}
