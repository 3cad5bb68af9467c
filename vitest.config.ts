import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Two at a time, whatever the cores: Vitest's default (cores - 1) is one on 2 cores, where
          // the 243 files took 180 s one after another and 124 s two at a time (mostly imports).
          maxWorkers: 2,
          include: [
            'libs/*/src/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            // The gateway console page's pure parts (its routes).
            'services/gateway/ui/src/**/*.test.ts',
            'bench/**/*.test.ts',
            // npm start's pure parts (its options).
            'scripts/**/*.test.ts',
            // The test helpers' pure parts (the exactly-once audit, kill plans): no broker needed.
            'test/helpers/**/*.test.ts',
            // What the test runs need from the machine (Chromium, docker-compose, kubectl): its decisions.
            'test/system-tools/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/helpers/**', 'test/system-tools/**'],
          // Chromium for the page's browser test, installed when missing and the machine allows it
          // (test/system-tools); one broker and one registry serve every file; each test makes its own topics.
          globalSetup: ['test/system-tools/global-setup.ts', 'test/global-setup.ts'],
          // Two files at a time, whatever the cores (Vitest's default is one fewer than the cores: one
          // on 2). Most of an integration test is waiting for the broker (group joins, transactions,
          // timeouts), so two share 2 cores well: the files took 11 to 15 minutes one after another
          // and under 5 two at a time, when they were fewer. Three at a time made the suite 780 to
          // 875 s instead of 948, but starved the agents' heartbeats past a test's 1.5 s liveness
          // window once in three runs. Running together also found what one at a time hid: concurrent
          // schema registrations, a new topic's offsets, an HTTP close waiting on keep-alive, a port clash.
          maxWorkers: 2,
          // A group of its own, after the others: its files share the broker and the registry.
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'deploy',
          // The unit project's, as Vitest requires of projects of one group.
          maxWorkers: 2,
          // The Dockerfile, docker-compose.yml, infra/k8s and the monitoring configs, checked with
          // docker-compose and kubectl (no Docker engine or cluster needed).
          include: ['infra/test/**/*.test.ts'],
          // docker-compose and kubectl, installed when missing and the machine allows it (test/system-tools).
          globalSetup: ['test/system-tools/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
