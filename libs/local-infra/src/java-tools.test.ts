import { expect, test } from 'vitest';
import { parseJavaMajorVersion } from './java-tools.js';

test('reads the major version from what `java -version` prints', () => {
  expect(parseJavaMajorVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment')).toBe(17);
  expect(parseJavaMajorVersion('openjdk version "21" 2023-09-19')).toBe(21);
  expect(parseJavaMajorVersion('java version "1.8.0_392"')).toBe(8);
  expect(parseJavaMajorVersion('bash: java: command not found')).toBeUndefined();
});
