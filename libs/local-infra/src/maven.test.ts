import { describe, expect, test } from 'vitest';
import { downloadedBytes, pomProperty } from './maven.js';

describe('downloadedBytes', () => {
  test('reads the size of a finished download in each unit Maven prints', () => {
    expect(
      downloadedBytes(
        '[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/a/b.pom (1.2 kB at 4.5 kB/s)',
      ),
    ).toBe(1_200);
    expect(
      downloadedBytes(
        '[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/a/b.jar (5.9 MB at 3.1 MB/s)',
      ),
    ).toBe(5_900_000);
    expect(
      downloadedBytes('[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/a/b.sha1 (40 B at 1 kB/s)'),
    ).toBe(40);
  });

  test('ignores every other line', () => {
    expect(
      downloadedBytes('[INFO] Downloading from central: https://repo.maven.apache.org/maven2/a/b.jar'),
    ).toBeUndefined();
    expect(downloadedBytes('[INFO] BUILD SUCCESS')).toBeUndefined();
  });
});

test('pomProperty reads a property the pom pins', () => {
  const pom =
    '<properties>\n  <kafkaXversion>no</kafkaXversion>\n  <kafka.version> 3.9.2 </kafka.version>\n</properties>';

  expect(pomProperty(pom, 'kafka.version')).toBe('3.9.2');
  expect(pomProperty(pom, 'apicurio.version')).toBeUndefined();
});
