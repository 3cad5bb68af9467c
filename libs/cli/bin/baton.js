#!/usr/bin/env node
// The `baton` command. There is no build: tsx compiles the TypeScript sources as they load.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
