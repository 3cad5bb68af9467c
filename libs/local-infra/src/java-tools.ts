import { spawnSync } from 'node:child_process';

export const MIN_JAVA_MAJOR = 17;

/**
 * What the local JVM broker and registry need and this machine lacks, as words for a person:
 * empty when Java 17+ and Maven are both on PATH. Apicurio's Quarkus build needs Java 17.
 */
export function findMissingJavaTools(): string[] {
  const missing: string[] = [];
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const javaMajor = java.status === 0 ? parseJavaMajorVersion(`${java.stderr}${java.stdout}`) : undefined;
  if (javaMajor === undefined) missing.push(`Java ${MIN_JAVA_MAJOR}+ (no working \`java\` on PATH)`);
  else if (javaMajor < MIN_JAVA_MAJOR) missing.push(`Java ${MIN_JAVA_MAJOR}+ (found Java ${javaMajor})`);
  if (spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status !== 0) missing.push('Maven (no working `mvn` on PATH)');
  return missing;
}

/** The major version from `java -version` output: `"17.0.15"` is 17, the old `"1.8.0_392"` is 8. */
export function parseJavaMajorVersion(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (match === null) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}
