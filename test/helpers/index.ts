export { createTestTopic } from './topics.js';
export { uniqueName } from './unique-name.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { collectRecords, type CollectedRecord, type RecordCollector } from './record-collector.js';
export { startServiceProcess, type ServiceProcess } from './service-process.js';
export { startBatonRig, type BatonRig, type BatonRigOptions } from './baton-rig.js';
export { startGatewayRig, GATEWAY_TOKENS, PROBE_AGENT, type GatewayRig, type ApiAnswer } from './gateway-rig.js';
export { startOwnBroker } from './own-broker.js';
export { runBaton, type CliRun, type CliRunOptions } from './cli-process.js';
